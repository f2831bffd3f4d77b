import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def sequences(n):
    return TensorDataset(torch.randn(n, 7, 4), torch.randint(1, 8, (n,)), torch.randint(0, 3, (n,)))


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model.to(DEVICE)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.trainloader, self.testloader = self.build_loaders()

    def build_loaders(self):
        return DataLoader(sequences(48), batch_size=8, shuffle=True), DataLoader(sequences(16), batch_size=8)  # paef: ok pageable-transfer


def kd_loss(s_out, t_out, y, T=2.0):
    soft = F.kl_div(F.log_softmax(s_out / T, 1), F.softmax(t_out / T, 1), reduction="batchmean") * T * T
    return 0.5 * soft + 0.5 * F.cross_entropy(s_out, y)


def train_kd(student, teacher, optimizer, loader):
    student.train()
    total = torch.zeros((), device=DEVICE)
    for x, lengths, y in loader:
        x, lengths, y = x.to(DEVICE), lengths.to(DEVICE), y.to(DEVICE)
        s_out = student(x, lengths)
        t_out = teacher(x, lengths)  # paef: expect eval-without-no-grad
        loss = kd_loss(s_out, t_out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return float(total)


def evaluate(model, loader):
    model.eval()
    weights = torch.tensor([1.0, 2.0, 1.0], device=DEVICE)
    total = torch.zeros((), device=DEVICE)
    with torch.no_grad():
        for x, lengths, y in loader:
            x, lengths, y = x.to(DEVICE), lengths.to(DEVICE), y.to(DEVICE)
            total += F.cross_entropy(model(x, lengths), y, weight=weights)
    return float(total)
