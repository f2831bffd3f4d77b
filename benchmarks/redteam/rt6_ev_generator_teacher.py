# corpus: runnable
# A teacher's predictions produced by generators: the evaluation loop `yield`s, and while it
# is suspended the consumer trains a student (forward and backward). Grad mode is global: a
# `with torch.no_grad():` around a loop that yields also covers the consumer's code.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

teacher = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
student = nn.Linear(5, 3).to(device)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
loader = [torch.randn(8, 5) for _ in range(4)]


def soft_targets(model, batches, temperature=2.0):
    model.eval()
    for xb in batches:
        logits = model(xb.to(device))
        yield xb, F.softmax(logits / temperature, dim=-1)


for xb, target in soft_targets(teacher, loader):
    pred = F.log_softmax(student(xb.to(device)) / 2.0, dim=-1)
    loss = F.kl_div(pred, target.detach(), reduction="batchmean")
    opt.zero_grad()
    loss.backward()
    opt.step()
print("student bias", [round(v, 5) for v in student.bias.tolist()])


class EMA:
    def __init__(self, model):
        self.model = model

    def predictions(self, batches):
        self.model.eval()
        for xb in batches:
            out = self.model(xb.to(device))
            yield out.argmax(-1)


ema = EMA(teacher)
hits = 0
for xb, labels in zip(loader, ema.predictions(loader)):
    logits = student(xb.to(device))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hits += (logits.argmax(-1) == labels).sum().item()
print("hits", hits, [round(v, 5) for v in student.weight[0].tolist()])
