# corpus: runnable
# Red team 40 (blind): a helper with a default mutable argument (`history=[]`) collects `loss.item()` and
# summarises it with `torch.tensor(history)`. The default list outlives each call (it grows across epochs),
# and one caller passes its own list seeded with a Python float from a warm-up run.
import torch
import torch.nn as nn

torch.manual_seed(41)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


def train_epoch(model: nn.Module, opt: torch.optim.Optimizer, data, history=[]) -> torch.Tensor:
    for xb, yb in data:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
    return torch.tensor(history).mean()


def smoothed(values, out=[]):
    for v in values:
        out.append(v.item())
    return torch.tensor(out, dtype=torch.float64)


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(120, 6, device=device)
y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
data = [(x[i : i + 20], y[i : i + 20]) for i in range(0, 120, 20)]
for epoch in range(3):
    m = train_epoch(model, opt, data)
    print(epoch, f"{m.item():.15f}", m.dtype, len(train_epoch.__defaults__[0]))
warm = [0.6931471805599453]
m = train_epoch(model, opt, data[:2], warm)
print("seeded", f"{m.item():.15f}", len(warm), type(warm[0]).__name__, type(warm[-1]).__name__)
for step in range(2):
    s = smoothed([p.detach().norm() for p in model.parameters()])
    print("norms", s.dtype, s.shape, f"{s.sum().item():.12f}")
print(type(train_epoch.__defaults__[0][0]).__name__, f"{sum(train_epoch.__defaults__[0]):.15f}")
