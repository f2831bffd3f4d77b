"""A launcher in the style of the ImageNet example: the model is moved and wrapped in one branch
per launch mode (DDP with one GPU per process, DDP over all GPUs, one GPU, DataParallel), and
DDP is given `model.to(rank)` directly: every move happens before its wrap, none after."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build(args, gpu):
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    if args.distributed:
        dist.init_process_group("nccl", rank=args.rank, world_size=args.world_size)
        if gpu is not None:
            torch.cuda.set_device(gpu)
            model.cuda(gpu)
            model = DDP(model, device_ids=[gpu])
        else:
            model.cuda()
            model = DDP(model)
    elif gpu is not None:
        torch.cuda.set_device(gpu)
        model = model.cuda(gpu)
    else:
        model = nn.DataParallel(model).cuda()
    return model


def build_rank_local():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    net = nn.Linear(16, 4)
    return DDP(net.to(rank), device_ids=[rank]), rank


def train(args):
    model, rank = build_rank_local()
    data = TensorDataset(torch.randn(256, 16), torch.randint(0, 4, (256,)))
    sampler = DistributedSampler(data)
    loader = DataLoader(data, batch_size=32, sampler=sampler, pin_memory=True, num_workers=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.to(rank, non_blocking=True), y.to(rank, non_blocking=True)
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if rank == 0:
            print(epoch, loss.item())
