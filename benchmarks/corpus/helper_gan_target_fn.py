# corpus: runnable
"""GAN whose target tensors come from small helpers called every step."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
BATCH, LATENT = 24, 6


def ones_target(n):
    return torch.ones(n, 1).to(device)  # paef: expect redundant-tensor; ok cpu-then-move


def zeros_target(n):
    return torch.zeros(n, 1).to(device)  # paef: expect redundant-tensor; ok cpu-then-move


def sample_latent(n):
    return torch.randn(n, LATENT).to(device)  # paef: expect cpu-then-move; refuse redundant-tensor


generator = nn.Sequential(nn.Linear(LATENT, 24), nn.ReLU(), nn.Linear(24, 3)).to(device)
discriminator = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 1)).to(device)
g_opt = torch.optim.Adam(generator.parameters(), lr=1e-3)
d_opt = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
real_data = torch.randn(480, 3, device=device) * 0.5 + 1.0

for epoch in range(2):
    for i in range(0, 480, BATCH):
        real = real_data[i : i + BATCH]
        fake = generator(sample_latent(BATCH))
        d_loss = loss_fn(discriminator(real), ones_target(BATCH)) + loss_fn(discriminator(fake.detach()), zeros_target(BATCH))
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        g_loss = loss_fn(discriminator(fake), ones_target(BATCH))
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
    print(f"epoch {epoch} d {d_loss.item():.4f} g {g_loss.item():.4f}")
