"""A torchrun script (`torchrun --nproc-per-node 2 direct_ddp_classifier.py`) written the way a
single-GPU notebook is: no sampler, logging and checkpointing on every rank, accumulation that
all-reduces every micro-step."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    images, labels = torch.randn(512, 1, 28, 28), torch.randint(0, 10, (512,))
    train_set = TensorDataset(images, labels)
    loader = DataLoader(train_set, batch_size=32, shuffle=True)  # paef: expect ddp-missing-sampler
    model = DDP(ConvNet(), find_unused_parameters=True)  # paef: expect ddp-batchnorm-without-syncbn; expect ddp-find-unused-parameters
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    accum = 4
    for epoch in range(3):
        for step, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y) / accum
            loss.backward()  # paef: expect ddp-accumulation-without-no-sync
            if (step + 1) % accum == 0:
                opt.step()
                opt.zero_grad(set_to_none=True)
            print(f"rank {rank} epoch {epoch} step {step} loss {loss.item():.4f}")  # paef: expect ddp-log-every-rank
        torch.save(model.state_dict(), os.path.join("checkpoints", f"epoch{epoch}.pt"))  # paef: expect-fix ddp-save-every-rank
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
