# corpus: runnable
"""Three small programs in the style of code seen in public check 22: a noise-prediction trainer
whose residual blocks add a time embedding to their own activations (`h = h + shift` in
`forward`, a local of each call); a callback runner (fastai style) whose `do_batch` returns the
loss it back-propagates, or nothing when a callback stops early, and whose `do_all` adds every
returned loss into the total it returns; and a ray sampler that builds its depths and jitter on
the CPU and moves them with `.to(origins)` on every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Block(nn.Module):
    def __init__(self, ch, tdim):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.time = nn.Sequential(nn.SiLU(), nn.Linear(tdim, ch))

    def forward(self, x, temb):
        h = self.conv(x)
        shift = self.time(temb).view(-1, h.shape[1], 1, 1)
        h = h + shift
        return h + x


class Denoiser(nn.Module):
    def __init__(self, ch=4, tdim=8, steps=20):
        super().__init__()
        self.embed = nn.Embedding(steps, tdim)
        self.inp = nn.Conv2d(1, ch, 1)
        self.block = Block(ch, tdim)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, x, t):
        return self.out(self.block(self.inp(x), self.embed(t)))


def train_denoiser(model, images, steps=20, epochs=2):
    betas = torch.linspace(1e-4, 0.02, steps, device=device)
    abar = torch.cumprod(1 - betas, 0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for x0 in images:
            x0 = x0.to(device)
            t = torch.randint(0, steps, (x0.shape[0],), device=device)
            noise = torch.randn_like(x0)
            xt = abar[t].sqrt().view(-1, 1, 1, 1) * x0 + (1 - abar[t]).sqrt().view(-1, 1, 1, 1) * noise
            loss = F.mse_loss(model(xt, t), noise)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"denoiser epoch {epoch}: {loss.item():.5f}")


class Runner:
    def __init__(self, model, opt, callbacks=()):
        self.model, self.opt, self.callbacks = model, opt, list(callbacks)

    def __call__(self, event):
        return any(getattr(cb, event, lambda: False)() for cb in self.callbacks)

    def do_batch(self, x, y):
        if self("before_forward"):
            return
        loss = F.mse_loss(self.model(x.to(device)), y.to(device))
        if self("after_loss"):
            return loss
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        return loss

    def do_all(self, data):
        total = 0
        for x, y in data:
            loss = self.do_batch(x, y)
            total += loss * y.shape[0]  # paef: expect graph-retention
        return total / sum(y.shape[0] for _, y in data)


def sample_depths(origins, near, far, n):
    depths = torch.linspace(near, far, n).to(origins)  # paef: expect cpu-then-move
    jitter = torch.rand(list(origins.shape[:-1]) + [n]).to(origins)  # paef: refuse cpu-then-move
    return depths + jitter * (far - near) / n


def train_field(field, rays, iters=4):
    opt = torch.optim.Adam(field.parameters(), lr=1e-2)
    for it in range(iters):
        depths = sample_depths(rays, 2.0, 6.0, 3 + it % 2)
        pts = rays[:, None, :] * depths[..., None]
        loss = field(pts).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


images = [torch.randn(2, 1, 8, 8) for _ in range(3)]
train_denoiser(Denoiser().to(device), images)

tab = nn.Linear(5, 1).to(device)
runner = Runner(tab, torch.optim.SGD(tab.parameters(), lr=0.05))
batches = [(torch.randn(6, 5), torch.randn(6, 1)) for _ in range(3)]
for epoch in range(2):
    print(f"runner epoch {epoch}: {runner.do_all(batches).item():.5f}")

field = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
print(f"field: {train_field(field, torch.randn(5, 3, dtype=torch.float64).to(device).float()):.5f}")
