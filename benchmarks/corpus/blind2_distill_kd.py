# corpus: runnable
"""Knowledge distillation: a frozen teacher run without no_grad, a softmax written by hand, the epoch loss summed with its graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
T, ALPHA = 4.0, 0.7

X = torch.randn(512, 20)
Y = (X[:, :5].sum(1) > 0).long() + (X[:, 5:8].sum(1) > 1).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)  # paef: ok pageable-transfer

teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
t_opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
for _ in range(3):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(teacher(xb), yb)
        t_opt.zero_grad()
        loss.backward()
        t_opt.step()

student = nn.Sequential(nn.Linear(20, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)
s_opt = torch.optim.Adam(student.parameters(), lr=1e-2)


def soft_targets(logits, temperature):
    e = torch.exp(logits / temperature)
    return e / e.sum(dim=1, keepdim=True)  # paef: expect operator-fusion


teacher.eval()
for epoch in range(3):
    student.train()
    epoch_loss = 0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        t_logits = teacher(xb)  # paef: expect eval-without-no-grad
        s_logits = student(xb)
        kd = F.kl_div(F.log_softmax(s_logits / T, dim=1), soft_targets(t_logits, T).detach(), reduction="batchmean") * T * T
        loss = ALPHA * kd + (1 - ALPHA) * F.cross_entropy(s_logits, yb)
        s_opt.zero_grad()
        loss.backward()
        s_opt.step()
        epoch_loss += loss  # paef: expect graph-retention
    print(f"epoch {epoch} loss {epoch_loss.item() / len(loader):.4f}")

student.eval()
with torch.no_grad():
    acc = (student(X.to(device)).argmax(1).cpu() == Y).float().mean().item()
print(f"student acc {acc:.4f}")
