# corpus: runnable
# Red team 31b, wave 1 (blind): logistic regression on float64 NumPy features with a train / dev
# split (NLP-style naming). The dev evaluation builds per-batch sample weights "like" the dev
# features (`.to(X_dev)`: their dtype and device) to compute a weighted log-loss.
import argparse

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load(seed):
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(300, 6))
    w = rng.normal(size=6)
    labels = (feats @ w + 0.3 * rng.normal(size=300) > 0).astype(np.float64)
    return feats, labels


def evaluate(model, X_dev, y_dev, bs):
    loss_sum, weight_sum = 0.0, 0.0
    with torch.no_grad():
        for start in range(0, len(y_dev), bs):
            xb, yb = X_dev[start:start + bs], y_dev[start:start + bs]
            weights = torch.ones(len(yb)).to(X_dev)
            weights[yb == 1] = 2.0
            logits = model(xb).squeeze(1)
            losses = nn.functional.binary_cross_entropy_with_logits(logits, yb, reduction="none")
            loss_sum += (weights * losses).sum().item()
            weight_sum += weights.sum().item()
    return loss_sum / weight_sum


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--bs", type=int, default=32)
    args = p.parse_args()
    torch.manual_seed(0)
    feats, labels = load(4)
    X = torch.from_numpy(feats).to(device)
    y = torch.from_numpy(labels).to(device)
    X_train, y_train, X_dev, y_dev = X[:220], y[:220], X[220:], y[220:]
    model = nn.Linear(6, 1).double().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for start in range(0, len(y_train), args.bs):
            xb, yb = X_train[start:start + args.bs], y_train[start:start + args.bs]
            loss = nn.functional.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            print(f"epoch {epoch} dev weighted log-loss {evaluate(model, X_dev, y_dev, args.bs):.10f}")


if __name__ == "__main__":
    main()
