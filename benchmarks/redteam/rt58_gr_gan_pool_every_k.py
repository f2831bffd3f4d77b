# corpus: runnable
# Red team 58 (blind): a 1-D GAN (generator maps noise to a two-mode mixture) updated in windows of K steps: each
# step the generator draws a batch of fakes into a pool (WITH their graphs) and the discriminator's opinion of it
# is logged; every K steps the discriminator takes one step on the pooled fakes (detached) against real samples,
# then the generator takes one step back-propagating through the whole pool at once. A running sum of the
# discriminator's mean score on the fakes (a tensor) is kept per window for the log, and the window's fakes'
# spread is tracked as a tensor too.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5805)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

Z, K = 4, 3
G = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
D = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1)).to(device)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.9))


def real_batch(n):
    mode = torch.randint(0, 2, (n, 1)).float()
    return (mode * 4 - 2 + 0.3 * torch.randn(n, 1)).to(device)


pool = []
score_sum = 0.0
spread = []
g_log, d_log, s_log = [], [], []
for step in range(150):
    z = torch.randn(64, Z, device=device)
    fake = G(z)
    pool.append(fake)
    score_sum = score_sum + D(fake).mean()
    spread.append(fake.std())
    if (step + 1) % K == 0:
        real = real_batch(64 * K)
        fakes = torch.cat(pool)
        d_loss = F.binary_cross_entropy_with_logits(D(real), torch.ones(64 * K, 1, device=device)) + \
            F.binary_cross_entropy_with_logits(D(fakes.detach()), torch.zeros(64 * K, 1, device=device))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = F.binary_cross_entropy_with_logits(D(fakes), torch.ones(64 * K, 1, device=device))
        g_loss = g_loss - 0.05 * torch.stack(spread).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        g_log.append(g_loss.item())
        d_log.append(d_loss.item())
        s_log.append(score_sum.item() / K)
        pool, spread = [], []
        score_sum = 0.0

with torch.no_grad():
    s = G(torch.randn(2000, Z, device=device)).squeeze(-1)
print('g', [round(v, 4) for v in g_log[-3:]], 'd', [round(v, 4) for v in d_log[-3:]], 's', round(s_log[-1], 4))
print('modes', round((s > 0).float().mean().item(), 4), round(s.mean().item(), 4), round(s.std().item(), 4))
print('checksum', round(sum(p.double().sum().item() for p in G.parameters()), 6))
