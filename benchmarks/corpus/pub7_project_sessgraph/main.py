# corpus: runnable
"""Entry point of the session-graph project: the epoch loop calls `train_test` from model.py,
imported with `*`."""
import numpy as np
import torch

from model import *


def batches(rng, n, n_items, size=16):
    items = rng.integers(1, n_items, size=(n, 5))
    targets = (items[:, -1] + 1) % n_items
    return [(items[i:i + size], targets[i:i + size]) for i in range(0, n, size)]


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n_items = 30
    train_batches, test_batches = batches(rng, 128, n_items), batches(rng, 64, n_items)
    model = SessionScorer(n_items).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        hit = train_test(model, optimizer, train_batches, test_batches, device)
        print(f"epoch {epoch} hit@5 {hit:.4f}")


if __name__ == "__main__":
    main()
