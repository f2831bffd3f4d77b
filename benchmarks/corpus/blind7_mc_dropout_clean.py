# corpus: runnable
"""Bayesian (Monte Carlo) dropout evaluation of a regression MLP: dropout stays active at test
time for T stochastic passes, predictive mean and variance are aggregated on the device, and
calibration is checked on the host once at the end. Clean: every evaluation pass is under
`no_grad`, the sample tensors are stacked once, nothing is read per pass."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

x = np.random.uniform(-3, 3, (600, 1)).astype(np.float32)
y = (np.sin(x) + 0.2 * np.random.randn(600, 1)).astype(np.float32)
xt, yt = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
model = nn.Sequential(nn.Linear(1, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
losses = []
for epoch in range(300):
    perm = torch.randperm(500, device=device)[:100]
    loss = ((model(xt[perm]) - yt[perm]) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.detach())
print(f"final train mse {torch.stack(losses[-20:]).mean().item():.4f}")


def mc_predict(net, inputs, passes=50):
    net.train()
    with torch.no_grad():
        samples = torch.stack([net(inputs) for _ in range(passes)])  # paef: ok list-to-tensor
    return samples.mean(0), samples.var(0)


mean, var = mc_predict(model, xt[500:])
z = ((yt[500:] - mean) / (var + 0.04).sqrt()).cpu().numpy()
within = float(np.mean(np.abs(z) < 1.96))
print(f"test mse {((mean - yt[500:]) ** 2).mean().item():.4f} 95% coverage {within:.3f}")
