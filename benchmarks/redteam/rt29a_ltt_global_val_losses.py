# corpus: runnable
# Red team 29a, wave 1 (blind): a regression script that keeps the last validation pass's per-batch
# losses in a module-level list (rebound with `global` at each evaluation, as scripts often do) so the
# end of the run can dump them to a JSON report. `evaluate` averages them with `torch.tensor(...)`.
import argparse
import json

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
val_losses = []


class MLP(nn.Module):
    def __init__(self, d_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_batches(x, y, bs):
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, len(x), bs)]


def evaluate(model, batches):
    global val_losses
    val_losses = []
    model.eval()
    with torch.no_grad():
        for xb, yb in batches:
            val_losses.append(F.mse_loss(model(xb), yb).item())
    model.train()
    return torch.tensor(val_losses).mean().item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--bs", type=int, default=32)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(384, 6, generator=gen)
    y = x @ torch.linspace(-1.0, 1.0, 6) + 0.1 * torch.randn(384, generator=gen)
    train, val = make_batches(x[:256], y[:256], args.bs), make_batches(x[256:], y[256:], args.bs)
    torch.manual_seed(0)
    model = MLP(6, 16)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        for xb, yb in train:
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} val {evaluate(model, val):.5f}")
    report = {"worst_batch": max(val_losses), "batches": val_losses}
    print(json.dumps(report)[:60])
    print(sorted(round(v, 4) for v in val_losses)[:3])


if __name__ == "__main__":
    main()
