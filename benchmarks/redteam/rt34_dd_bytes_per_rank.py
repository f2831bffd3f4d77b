# corpus: runnable
# Red team 34 (blind): two gloo ranks (spawned by the script itself, CPU) train a DDP model; after
# each epoch every rank serialises its own replica into an in-memory buffer to report the checkpoint
# size it would ship, and the sizes are gathered so rank 0 can check the replicas agree.
import io
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(rank, world, port):
    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    device = torch.device("cpu")
    x = torch.randn(32, 4)
    y = (x.sum(1, keepdim=True) > 0).float()
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).to(device))
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    shard = x[rank::world], y[rank::world]
    for epoch in range(2):
        loss = F.binary_cross_entropy_with_logits(model(shard[0].to(device)), shard[1].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        buf = io.BytesIO()
        torch.save(model.module.state_dict(), buf)
        sizes = [None] * world
        dist.all_gather_object(sizes, len(buf.getvalue()))
        if rank == 0:
            print(f"epoch {epoch}: serialised bytes per rank nonzero = {[s > 0 for s in sizes]}, equal = {len(set(sizes)) == 1}")
    dist.destroy_process_group()


def main():
    mp.spawn(worker, args=(2, free_port()), nprocs=2, join=True)
    print("done")


if __name__ == "__main__":
    main()
