# corpus: runnable
# A DCGAN-style loop on toy data: two optimizers, the discriminator stepped on `fake.detach()`,
# a label tensor refilled in place (`label.fill_(fake_label)`) as in the PyTorch example but
# without refilling it for the generator step, `requires_grad_(False)` toggling of D, a fixed
# noise batch sampled in an evaluation loop, `.item()` totals of D(x) / D(G(z)).
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
nz, bs = 4, 8
real_label, fake_label = 1.0, 0.0

G = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)).to(device)
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
fixed_noise = torch.randn(16, nz, device=device)
data = [torch.randn(bs, 2) * 0.5 + torch.tensor([2.0, -1.0]) for _ in range(6)]

G_losses, D_losses = [], []
for epoch in range(2):
    d_x_total = 0.0
    d_gz_total = 0.0
    for real in data:
        real = real.to(device)
        # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
        D.requires_grad_(True)
        D.zero_grad()
        label = torch.full((bs,), real_label, device=device)
        out = D(real).view(-1)
        errD_real = F.binary_cross_entropy_with_logits(out, label)
        errD_real.backward()
        d_x_total += torch.sigmoid(out).mean().item()
        noise = torch.randn(bs, nz, device=device)
        fake = G(noise)
        label.fill_(fake_label)
        out = D(fake.detach()).view(-1)
        errD_fake = F.binary_cross_entropy_with_logits(out, label)
        errD_fake.backward()
        optD.step()
        # (2) update G: maximize log(D(G(z)))
        D.requires_grad_(False)
        G.zero_grad()
        out = D(fake).view(-1)
        errG = F.binary_cross_entropy_with_logits(out, torch.ones_like(out))
        errG.backward()
        optG.step()
        d_gz_total += torch.sigmoid(out).mean().item()
        G_losses.append(errG.item())
        D_losses.append((errD_real + errD_fake).item())
    print(epoch, repr(d_x_total), repr(d_gz_total))

print("G", [round(v, 5) for v in G_losses])
print("D", torch.tensor(D_losses).sum().item())

# sample from the fixed noise: an evaluation loop whose samples are kept
G.eval()
samples = []
spread = 0.0
for k in range(4):
    s = G(fixed_noise[k * 4:(k + 1) * 4])
    samples.append(s)
    spread += s.std().item()
print("spread", repr(spread), torch.cat(samples).requires_grad)

# a last generator refinement from the kept samples (its graph is needed)
G.train()
D.requires_grad_(True)
optG.zero_grad()
loss = -D(torch.cat(samples)).mean()
loss.backward()
optG.step()
print("refine", loss.item(), G[0].weight.grad.abs().sum().item())
