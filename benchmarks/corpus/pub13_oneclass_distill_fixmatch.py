# corpus: runnable
"""Three small training programs in the style of research code seen in public check 13: a
one-class (Deep SVDD-like) trainer whose soft-boundary radius is recomputed every step by a NumPy
helper, with a flatten layer that sizes its view from a host tensor built out of the shape; a
distillation loop whose frozen teacher's output is detached on the line after the forward; and a
semi-supervised step function that takes a labelled and an unlabelled loader and walks them
together through one named `zip`."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Flatten(nn.Module):
    def forward(self, x):
        size = torch.prod(torch.tensor(x.shape[1:])).item()
        return x.view(-1, size)


def quantile_radius(distances, nu):
    return np.quantile(distances.detach().cpu().numpy(), 1 - nu)  # paef: ok host-sync


def one_class(epochs=3):
    net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Unflatten(1, (2, 4)), Flatten(), nn.Linear(8, 3)).to(device)
    loader = DataLoader(TensorDataset(torch.randn(48, 6)), batch_size=12)  # paef: ok pageable-transfer
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    center = torch.zeros(3, device=device)
    radius = torch.tensor(0.0, device=device)
    for epoch in range(epochs):
        loss_epoch = 0.0
        for (inputs,) in loader:
            inputs = inputs.to(device)
            dist = torch.sum((net(inputs) - center) ** 2, dim=1)
            loss = radius ** 2 + 10.0 * torch.mean(torch.relu(dist - radius ** 2))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            radius.data = torch.tensor(quantile_radius(dist, 0.1), device=device, dtype=torch.float32)  # paef: expect ping-pong
            loss_epoch += loss.item()  # paef: expect-fix host-sync
        print(f"one-class epoch {epoch}: loss {loss_epoch / len(loader):.4f} radius {radius.item():.4f}")


class Distiller:
    def __init__(self, teacher, student, lr=0.1):
        self.teacher = teacher
        self.student = student
        self.optimizer = torch.optim.SGD(student.parameters(), lr=lr)

    def step(self, x, y):
        logits = self.student(x)
        soft = self.teacher(x)  # paef: expect eval-without-no-grad
        soft = soft.detach()
        loss = F.kl_div(F.log_softmax(logits / 2.0, 1), F.softmax(soft / 2.0, 1), reduction="batchmean") \
            + F.cross_entropy(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss


def distill(epochs=2):
    data = TensorDataset(torch.randn(40, 5), torch.randint(0, 3, (40,)))
    loader = DataLoader(data, batch_size=10, pin_memory=torch.cuda.is_available())
    teacher = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
    distiller = Distiller(teacher, nn.Linear(5, 3).to(device))
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = distiller.step(x, y)
        print(f"distill epoch {epoch}: last loss {loss.item():.4f}")


def semi_supervised_epoch(labeled_loader, unlabeled_loader, model, optimizer, threshold=0.5):
    pairs = zip(labeled_loader, unlabeled_loader)
    kept = torch.zeros((), device=device)
    for step, (batch_x, batch_u) in enumerate(pairs):
        inputs_x, targets_x = batch_x
        (weak, strong), _ = batch_u
        inputs_x, targets_x = inputs_x.to(device), targets_x.to(device)
        weak, strong = weak.to(device), strong.to(device)
        probs = torch.softmax(model(weak).detach(), dim=-1)
        confidence, pseudo = probs.max(dim=-1)
        mask = confidence.ge(threshold).float()
        loss = F.cross_entropy(model(inputs_x), targets_x) \
            + (F.cross_entropy(model(strong), pseudo, reduction="none") * mask).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        kept += mask.sum()
    return loss.item(), kept.item()


def fixmatch(epochs=2):
    labeled = TensorDataset(torch.randn(24, 4), torch.randint(0, 2, (24,)))
    unlabeled = TensorDataset(torch.randn(48, 4), torch.randn(48, 4), torch.zeros(48))
    unlabeled_pairs = [((w, s), t) for w, s, t in unlabeled]
    labeled_loader = DataLoader(labeled, batch_size=6)  # paef: ok pageable-transfer
    unlabeled_loader = DataLoader(unlabeled_pairs, batch_size=12)  # paef: ok pageable-transfer
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        loss, kept = semi_supervised_epoch(labeled_loader, unlabeled_loader, model, optimizer)
        print(f"fixmatch epoch {epoch}: loss {loss:.4f} kept {kept:.0f}")


one_class()
distill()
fixmatch()
