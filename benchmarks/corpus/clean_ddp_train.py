"""A DDP script that does it right: sharded data with set_epoch, SyncBatchNorm, the model moved
before wrapping, no_sync on accumulation micro-steps, logging and checkpointing on rank 0."""
import contextlib
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def main():
    dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    rank, local_rank = dist.get_rank(), int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device("cuda", local_rank) if torch.cuda.is_available() else torch.device("cpu")
    data = TensorDataset(torch.randn(1024, 16), torch.randint(0, 4, (1024,)))
    sampler = DistributedSampler(data, shuffle=True)
    loader = DataLoader(data, batch_size=32, sampler=sampler, drop_last=True, pin_memory=torch.cuda.is_available())
    model = nn.Sequential(nn.Linear(16, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 4))
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model).to(device)
    model = DDP(model, device_ids=[local_rank] if torch.cuda.is_available() else None)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    accum, log_every = 2, 20
    running = torch.zeros((), device=device)
    for epoch in range(4):
        sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            last = (step + 1) % accum == 0
            with contextlib.nullcontext() if last else model.no_sync():
                loss = F.cross_entropy(model(x), y) / accum
                loss.backward()
            running += loss.detach()
            if last:
                opt.step()
                opt.zero_grad(set_to_none=True)
            if (step + 1) % log_every == 0:
                dist.all_reduce(running)
                if rank == 0:
                    print(f"epoch {epoch} step {step + 1} loss {running.item() / log_every / dist.get_world_size():.4f}")
                running.zero_()
        if rank == 0:
            torch.save(model.module.state_dict(), f"epoch{epoch}.pt")
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
