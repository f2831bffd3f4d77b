# corpus: runnable
"""Bayes by Backprop (Blundell et al.) for 1-D regression with a heteroscedastic gap: Bayesian
linear layers with a factorised Gaussian posterior (mu, rho) sample their weights with fresh noise
on every forward, the KL to a Gaussian prior is added per layer, the ELBO is minimised with the
KL weight of each minibatch; predictive mean and spread come from Monte Carlo forward passes."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
PRIOR_SIGMA, N_MC = 1.0, 20


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(n_out, n_in).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((n_out, n_in), -5.0))
        self.b_mu = nn.Parameter(torch.zeros(n_out))
        self.b_rho = nn.Parameter(torch.full((n_out,), -5.0))

    def forward(self, x):
        w_sigma, b_sigma = F.softplus(self.w_rho), F.softplus(self.b_rho)
        w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
        b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        self.kl = self._kl(self.w_mu, w_sigma) + self._kl(self.b_mu, b_sigma)
        return F.linear(x, w, b)

    @staticmethod
    def _kl(mu, sigma):
        return (torch.log(PRIOR_SIGMA / sigma) + (sigma**2 + mu**2) / (2 * PRIOR_SIGMA**2) - 0.5).sum()


class BNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2, self.l3 = BayesLinear(1, 32), BayesLinear(32, 32), BayesLinear(32, 1)

    def forward(self, x):
        return self.l3(torch.relu(self.l2(torch.relu(self.l1(x)))))

    def kl(self):
        return self.l1.kl + self.l2.kl + self.l3.kl


x = torch.cat([torch.linspace(-3, -1, 100), torch.linspace(1, 3, 100)]).unsqueeze(1)
y = torch.sin(2 * x) + 0.1 * torch.randn_like(x)
model = BNN().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
n_batches = 5
for epoch in range(60):
    perm = torch.randperm(len(x))
    for i, idx in enumerate(perm.chunk(n_batches)):
        xb, yb = x[idx].to(device), y[idx].to(device)
        pred = model(xb)
        nll = 0.5 * ((pred - yb) ** 2 / 0.01).sum() + 0.5 * len(xb) * math.log(2 * math.pi * 0.01)
        kl_weight = 2 ** (n_batches - i - 1) / (2**n_batches - 1)
        loss = (nll + kl_weight * model.kl()) / len(xb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 20 == 0:
        print(f"epoch {epoch} elbo/n {loss.item():.3f}")

model.eval()
grid = torch.linspace(-4, 4, 9).unsqueeze(1).to(device)
with torch.no_grad():
    preds = torch.stack([model(grid) for _ in range(N_MC)])  # paef: refuse list-to-tensor
mean, std = preds.mean(0).squeeze(1), preds.std(0).squeeze(1)
for g, m, s in zip(grid.squeeze(1).tolist(), mean.tolist(), std.tolist()):
    print(f"x={g:+.1f} mean {m:+.3f} std {s:.3f}")
