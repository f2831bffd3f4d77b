# corpus: runnable
"""Multi-task face-attribute-style model (shared trunk, a classification head, a regression head
and a multi-label head) with fixed task weights: clean — the weight tensor is built once before
training, per-task losses are accumulated detached, host statistics are read once per epoch, the
validation pass is under `no_grad`."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
TASKS = ("cls", "reg", "attr")


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.heads = nn.ModuleDict({"cls": nn.Linear(64, 3), "reg": nn.Linear(64, 1), "attr": nn.Linear(64, 4)})

    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}


X = np.random.randn(1200, 20).astype(np.float32)
targets = {
    "cls": (X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0).astype(np.int64),
    "reg": (X[:, 2] * 2 + X[:, 3]).astype(np.float32),
    "attr": (X[:, 4:8] > 0).astype(np.float32),
}
task_names = sorted(targets)
Xt = torch.from_numpy(X).to(device)
T = {k: torch.from_numpy(v).to(device) for k, v in targets.items()}
weights = torch.tensor([1.0, 0.5, 2.0], device=device)
model = MultiHead().to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)


def task_losses(out, idx):
    return torch.stack([
        F.cross_entropy(out["cls"], T["cls"][idx]),
        F.mse_loss(out["reg"].squeeze(1), T["reg"][idx]),
        F.binary_cross_entropy_with_logits(out["attr"], T["attr"][idx]),
    ])


for epoch in range(5):
    model.train()
    sums = torch.zeros(3, device=device)
    perm = torch.randperm(1000, device=device)
    for i in range(0, 1000, 50):
        idx = perm[i : i + 50]
        losses = task_losses(model(Xt[idx]), idx)
        loss = (weights * losses).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sums += losses.detach()
    means = (sums / 20).tolist()
    print(f"epoch {epoch} " + " ".join(f"{k}={m:.3f}" for k, m in zip(TASKS, means)))

model.eval()
with torch.no_grad():
    idx = torch.arange(1000, 1200, device=device)
    out = model(Xt[idx])
    acc = (out["cls"].argmax(1) == T["cls"][idx]).float().mean().item()
    mae = (out["reg"].squeeze(1) - T["reg"][idx]).abs().mean().item()
print(f"val cls acc {acc:.3f} reg mae {mae:.3f} tasks {task_names}")
