# corpus: runnable
"""DeepAR-style probabilistic forecasting: an LSTM over lagged values and a series embedding
outputs a Gaussian per step; training windows are cut from the long series per batch with a
Python list of slices; each window is scaled by its own mean (the "scale" trick). Evaluation
draws ancestral sample paths for the forecast horizon and reports the CRPS-like quantile loss."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_SERIES, T, CTX, HORIZON = 12, 300, 24, 8


def make_series():
    t = np.arange(T)
    level = np.random.uniform(5, 20, (N_SERIES, 1))
    season = np.sin(2 * np.pi * t / 24)[None] * level * 0.3
    return (level + season + np.random.randn(N_SERIES, T)).astype(np.float32)


class DeepAR(nn.Module):
    def __init__(self, n_series, hidden=32, emb=4):
        super().__init__()
        self.embed = nn.Embedding(n_series, emb)
        self.lstm = nn.LSTM(1 + emb, hidden, batch_first=True)
        self.mu = nn.Linear(hidden, 1)
        self.sigma = nn.Linear(hidden, 1)

    def forward(self, lagged, sid, state=None):
        e = self.embed(sid).unsqueeze(1).expand(-1, lagged.shape[1], -1)
        h, state = self.lstm(torch.cat([lagged.unsqueeze(-1), e], -1), state)
        return self.mu(h).squeeze(-1), F.softplus(self.sigma(h)).squeeze(-1) + 1e-3, state


def gaussian_nll(mu, sigma, y):
    return (torch.log(sigma) + 0.5 * ((y - mu) / sigma) ** 2).mean()


series = torch.from_numpy(make_series())
train, test = series[:, : T - HORIZON], series[:, T - HORIZON - CTX :]
model = DeepAR(N_SERIES).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for step in range(150):
    sid = torch.randint(0, N_SERIES, (32,))
    starts = torch.randint(0, train.shape[1] - CTX - 1, (32,))
    window = torch.stack([train[s, t0 : t0 + CTX + 1] for s, t0 in zip(sid.tolist(), starts.tolist())]).to(device)  # paef: ok elementwise-loop; ok list-to-tensor
    sid = sid.to(device)
    scale = window[:, :CTX].mean(1, keepdim=True) + 1.0
    x, y = window[:, :-1] / scale, window[:, 1:] / scale
    mu, sigma, _ = model(x, sid)
    loss = gaussian_nll(mu, sigma, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step} nll {loss.item():.4f}")

model.eval()
quantiles = torch.tensor([0.1, 0.5, 0.9], device=device)
with torch.no_grad():
    sid = torch.arange(N_SERIES, device=device)
    ctx = test[:, :CTX].to(device)
    scale = ctx.mean(1, keepdim=True) + 1.0
    paths = []
    for _ in range(50):
        mu, sigma, state = model(ctx / scale, sid)
        last = torch.normal(mu[:, -1], sigma[:, -1])
        path = [last]
        for h in range(HORIZON - 1):  # paef: refuse elementwise-loop
            mu, sigma, state = model(last.unsqueeze(1), sid, state)
            last = torch.normal(mu[:, -1], sigma[:, -1])
            path.append(last)
        paths.append(torch.stack(path, 1) * scale)
    samples = torch.stack(paths)
    target = test[:, CTX:].to(device)
    q_pred = torch.quantile(samples, quantiles, dim=0)
    err = target.unsqueeze(0) - q_pred
    qloss = torch.maximum(quantiles.view(-1, 1, 1) * err, (quantiles.view(-1, 1, 1) - 1) * err).mean()
print(f"mean quantile loss {qloss.item():.4f}")
