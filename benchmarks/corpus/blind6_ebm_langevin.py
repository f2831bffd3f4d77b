# corpus: runnable
"""An energy-based model of a 2-D ring distribution trained with short-run SGLD from a
persistent replay buffer (95% of chains restart from the buffer, 5% from noise): the negative
samples need gradients of the energy with respect to the inputs, so the sampler runs with
autograd on while the model is frozen for it. Contrastive divergence loss with an L2 penalty."""
import math
import random

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
BUF_SIZE, BATCH, SGLD_STEPS, STEP_SIZE, NOISE = 1000, 64, 20, 0.1, 0.01


def sample_ring(n):
    theta = torch.rand(n) * 2 * math.pi
    r = 2 + 0.1 * torch.randn(n)
    return torch.stack([r * torch.cos(theta), r * torch.sin(theta)], 1)


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class ReplayBuffer:
    def __init__(self, size):
        self.buffer = [torch.rand(2) * 6 - 3 for _ in range(size)]

    def sample(self, n):
        out = []
        for _ in range(n):
            if random.random() < 0.05:
                out.append(torch.rand(2) * 6 - 3)
            else:
                out.append(random.choice(self.buffer))  # paef: ok record-buffer
        return torch.stack(out)  # paef: ok list-to-tensor

    def push(self, x):
        self.buffer = (list(x.detach().cpu()) + self.buffer)[:BUF_SIZE]  # paef: ok host-sync


def sgld(model, x):
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    x = x.clone().requires_grad_(True)
    for _ in range(SGLD_STEPS):  # paef: refuse eval-without-no-grad
        grad = torch.autograd.grad(-model(x).sum(), x)[0]
        x = (x + STEP_SIZE * grad + NOISE * torch.randn_like(x)).detach().requires_grad_(True)
    for p in model.parameters():
        p.requires_grad_(True)
    model.train()
    return x.detach()


model = Energy().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.0, 0.999))
buffer = ReplayBuffer(BUF_SIZE)
for step in range(200):
    x_pos = sample_ring(BATCH).to(device)
    x_neg = sgld(model, buffer.sample(BATCH).to(device))
    buffer.push(x_neg)
    e_pos, e_neg = model(x_pos), model(x_neg)
    loss = e_neg.mean() - e_pos.mean() + 0.1 * (e_pos**2 + e_neg**2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step} cd {(e_pos.mean() - e_neg.mean()).item():.4f}")

samples = sgld(model, torch.rand(256, 2, device=device) * 6 - 3)
radius = samples.norm(dim=1)
print(f"sample radius mean {radius.mean().item():.3f} std {radius.std().item():.3f}")
