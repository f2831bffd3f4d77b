"""DDP with a DistributedSampler whose epoch is never set, and the model moved after wrapping."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class Regression(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, 8, generator=g)
        self.y = self.x.sum(1, keepdim=True)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def run(args):
    dist.init_process_group(args.backend)
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device(f"cuda:{local_rank}") if torch.cuda.is_available() else torch.device("cpu")
    model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))
    ddp = nn.parallel.DistributedDataParallel(model)
    model.to(device)  # paef: expect ddp-wrap-before-move
    data = Regression(1024)
    sampler = DistributedSampler(data)
    loader = DataLoader(data, batch_size=64, sampler=sampler)  # paef: ok pageable-transfer
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
    for epoch in range(args.epochs):  # paef: expect ddp-missing-set-epoch
        total = torch.zeros((), device=device)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.mse_loss(ddp(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        dist.all_reduce(total)
        if dist.get_rank() == 0:
            print(f"epoch {epoch} loss {total.item() / len(loader) / dist.get_world_size():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--backend", default="gloo")
    run(parser.parse_args())
