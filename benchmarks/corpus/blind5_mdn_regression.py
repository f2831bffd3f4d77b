# corpus: runnable
"""A mixture density network for a multi-valued inverse problem (x = y + 0.3 sin(2 pi y)
+ noise, predict y from x): mixture weights by a softmax written out by hand, the Gaussian
mixture negative log-likelihood computed with logsumexp, and sampling from the mixture."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
K = 5

y_all = torch.rand(1024, 1)
x_all = y_all + 0.3 * torch.sin(2 * math.pi * y_all) + 0.05 * torch.randn(1024, 1)
loader = DataLoader(TensorDataset(x_all, y_all), batch_size=128, shuffle=True)  # paef: ok pageable-transfer


class MDN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi, self.mu, self.log_sigma = nn.Linear(hidden, K), nn.Linear(hidden, K), nn.Linear(hidden, K)

    def forward(self, x):
        h = self.body(x)
        z = self.pi(h)
        z = z - z.max(dim=1, keepdim=True)[0]
        pi = torch.exp(z) / torch.exp(z).sum(dim=1, keepdim=True)  # paef: expect operator-fusion
        return pi, self.mu(h), self.log_sigma(h).clamp(-6, 3)


def mdn_nll(pi, mu, log_sigma, y):
    log_n = -0.5 * ((y - mu) / log_sigma.exp()) ** 2 - log_sigma - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(torch.log(pi + 1e-9) + log_n, dim=1).mean()


model = MDN().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(12):
    total = torch.zeros((), device=device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = mdn_nll(*model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach() * x.shape[0]
    if epoch % 4 == 0:
        print(f"epoch {epoch} nll {total.item() / len(x_all):.4f}")

with torch.no_grad():
    xq = torch.full((2000, 1), 0.5, device=device)
    pi, mu, log_sigma = model(xq)
    k = torch.multinomial(pi, 1)
    samples = mu.gather(1, k) + log_sigma.gather(1, k).exp() * torch.randn_like(xq)
    print(f"samples at x=0.5: mean {samples.mean().item():.3f} std {samples.std().item():.3f} modes {int((pi.mean(0) > 0.1).sum())}")
