# corpus: runnable
"""SimCLR-style contrastive pretraining: two augmented views, NT-Xent loss whose masks and labels a helper rebuilds every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
BATCH, TEMP = 32, 0.5

data = torch.randn(256, 3, 8, 8)
loader = DataLoader(TensorDataset(data), batch_size=BATCH, shuffle=True, drop_last=True)  # paef: ok pageable-transfer


def augment(x):
    flip = torch.rand(x.size(0), 1, 1, 1, device=x.device) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    return x + 0.1 * torch.randn_like(x)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 8))

    def forward(self, x):
        return self.projector(self.backbone(x))


def nt_xent(z1, z2, temperature):
    n = z1.size(0)
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / temperature
    self_mask = torch.eye(2 * n, dtype=torch.bool).to(z.device)  # paef: expect redundant-tensor; expect-fix cpu-then-move
    sim = sim.masked_fill(self_mask, -9e15)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)  # paef: expect redundant-tensor; expect-fix cpu-then-move
    return F.cross_entropy(sim, targets)


model = Encoder().to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    epoch_loss = 0.0
    for step, (x,) in enumerate(loader):
        x = x.to(device)
        loss = nt_xent(model(augment(x)), model(augment(x)), TEMP)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()  # paef: expect host-sync
    print(f"epoch {epoch} nt-xent {epoch_loss / len(loader):.4f}")
