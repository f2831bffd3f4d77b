# corpus: runnable
"""Point-cloud autoencoder (PointNet encoder, MLP decoder) trained with the Chamfer distance;
clean: the unit-sphere template is built once before training, the loss is computed with
`cdist`, logging reads the loss only every few steps, evaluation is under `no_grad`."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_PTS = 128


def chamfer(a, b):
    d = torch.cdist(a, b)
    return d.min(2).values.mean(1) + d.min(1).values.mean(1)


class PointAE(nn.Module):
    def __init__(self, latent=64):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(3, 64, 1), nn.ReLU(), nn.Conv1d(64, latent, 1))
        self.dec = nn.Sequential(nn.Linear(latent, 256), nn.ReLU(), nn.Linear(256, N_PTS * 3))

    def forward(self, pts):
        z = self.enc(pts.transpose(1, 2)).max(2).values
        return self.dec(z).view(-1, N_PTS, 3)


def make_shapes(n, g):
    kind = torch.randint(0, 2, (n,), generator=g)
    u = torch.randn(n, N_PTS, 3, generator=g)
    sphere = u / u.norm(dim=2, keepdim=True)
    cube = torch.rand(n, N_PTS, 3, generator=g) * 2 - 1
    return torch.where(kind[:, None, None].bool(), sphere, cube)


g = torch.Generator().manual_seed(1)
train = make_shapes(512, g).to(device)
test = make_shapes(64, g).to(device)
model = PointAE().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step = 0
for epoch in range(6):
    for i in range(0, len(train), 32):
        pts = train[i : i + 32]
        pts = pts + 0.01 * torch.randn_like(pts)
        loss = chamfer(model(pts), pts).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 40 == 0:
            print(f"step {step} chamfer {loss.item():.4f}")  # paef: ok host-sync

model.eval()
with torch.no_grad():
    cd = chamfer(model(test), test)
print(f"test chamfer {cd.mean().item():.4f} worst {cd.max().item():.4f}")
