# corpus: runnable
# Red team 40 (blind): batches are a dataclass with its own `.to(device)` (no `non_blocking` parameter) and
# a NamedTuple moved field by field; the DataLoader uses worker processes with a `worker_init_fn`, a seeded
# generator and `persistent_workers=True`; a generator function yields the batches already moved.
import dataclasses
from typing import NamedTuple

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(45)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


@dataclasses.dataclass
class Batch:
    x: torch.Tensor
    y: torch.Tensor

    def to(self, device):
        return Batch(self.x.to(device), self.y.to(device))


class Pair(NamedTuple):
    x: torch.Tensor
    y: torch.Tensor


def collate(items):
    xs, ys = zip(*items)
    return Batch(torch.stack(xs), torch.stack(ys))


class Noisy(Dataset):
    def __init__(self, n: int) -> None:
        g = torch.Generator().manual_seed(3)
        self.x = torch.randn(n, 5, generator=g)
        self.y = self.x[:, :2].sum(1, keepdim=True)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        jitter = np.random.uniform(-0.01, 0.01)
        return self.x[i] + float(jitter), self.y[i]


def worker_init_fn(worker_id: int) -> None:
    np.random.seed(1000 + worker_id)


def moved(loader):
    for batch in loader:
        yield batch.to(device)


def main() -> None:
    g = torch.Generator().manual_seed(9)
    loader = DataLoader(Noisy(64), batch_size=16, shuffle=True, num_workers=2, worker_init_fn=worker_init_fn,
                        generator=g, persistent_workers=True, collate_fn=collate)
    model = nn.Linear(5, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        total = torch.zeros((), device=device)
        for batch in moved(loader):
            loss = nn.functional.mse_loss(model(batch.x), batch.y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        print(epoch, f"{total.item():.12f}")
    pairs = [Pair(torch.randn(4, 5), torch.randn(4, 1)) for _ in range(3)]
    for p in pairs:
        p = Pair(*(t.to(device) for t in p))
        print(type(p).__name__, f"{nn.functional.mse_loss(model(p.x), p.y).item():.12f}")


if __name__ == "__main__":
    main()
