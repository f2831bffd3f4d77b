# corpus: runnable
# Red team 27, wave 1 (blind): `.to(other)` with another *tensor* converts to its device and
# dtype; the tensor is named like a device (`x_dev` of the dev split, a `stddev`, a GPU copy
# `feats_gpu`) and its kind is out of sight (a parameter, a helper's result, a loader's batch).
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
torch.manual_seed(2701)
device = "cuda" if torch.cuda.is_available() else "cpu"


def add_bias_column(x_dev):
    # the dev-split features arrive in float64; the bias column follows them
    ones = torch.ones(x_dev.size(0), 1).to(x_dev)
    return torch.cat([x_dev, ones / 3], dim=1)


class Gaussian(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mu = nn.Linear(d, 2)
        self.log_std = nn.Linear(d, 2)

    def forward(self, x):
        return self.mu(x), self.log_std(x).exp()


def kl_term(stddev, n):
    prior = torch.full((n, 2), 0.7).to(stddev)
    return (stddev / prior).log().sum()


def make_features(rows):
    return torch.linspace(0.0, 1.0, rows * 4, dtype=torch.float64).reshape(rows, 4) ** 1.5


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--bs", type=int, default=4)
    args = parser.parse_args(argv)

    train = TensorDataset(torch.randn(16, 4, dtype=torch.float64), torch.randn(16, 1, dtype=torch.float64))
    dev = TensorDataset(make_features(8), torch.ones(8, 1, dtype=torch.float64))
    model = nn.Linear(5, 1).double().to(device)
    head = Gaussian(4).double().to(device)
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.05)
    log = []
    for epoch in range(args.epochs):
        for xb, yb in DataLoader(train, batch_size=args.bs):
            feats_gpu = xb.to(device)
            pred = model(add_bias_column(feats_gpu))
            mu, std = head(feats_gpu)
            loss = nn.functional.mse_loss(pred, yb.to(device)) + 1e-3 * kl_term(std, xb.size(0))
            step_scale = torch.ones(1).to(feats_gpu) * 0.1
            loss = loss * (1.0 + step_scale.sum())
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.append(f"{loss.item():.12f}")
        total = 0.0
        for x_dev, y_dev in DataLoader(dev, batch_size=args.bs):
            with torch.no_grad():
                err = model(add_bias_column(x_dev.to(device))) - y_dev.to(device)
                pad = torch.zeros(x_dev.size(0), 1).to(y_dev)
                total += (err + pad / 7).pow(2).sum().item()
        log.append(f"dev {total!r}")
    print("\n".join(log))


if __name__ == "__main__":
    main([])
