# corpus: runnable
"""AMP + gradient accumulation + OneCycle schedule + clipping + optional torch.compile, logged every N optimizer steps."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--accum", type=int, default=4)
    p.add_argument("--compile", action="store_true")
    p.add_argument("--log-every", type=int, default=4)
    p.add_argument("--workers", type=int, default=0)
    return p.parse_args()


def build_loaders(args, device):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(640, 3, 8, 8, generator=g)
    Y = (X.mean((1, 2, 3)) > 0).long()
    kwargs = {"num_workers": args.workers, "pin_memory": device.type == "cuda"}
    if args.workers > 0:
        kwargs["persistent_workers"] = True
    train = DataLoader(TensorDataset(X[:512], Y[:512]), batch_size=16, shuffle=True, generator=g, **kwargs)  # paef: refuse pageable-transfer; refuse sync-dataloader
    val = DataLoader(TensorDataset(X[512:], Y[512:]), batch_size=64, **kwargs)  # paef: refuse pageable-transfer; refuse sync-dataloader
    return train, val


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    correct = torch.zeros((), dtype=torch.long, device=device)
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        correct += (model(x).argmax(1) == y).sum()
    return correct.item() / len(loader.dataset)


def main():
    args = get_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, val_loader = build_loaders(args, device)
    model = SmallNet().to(device)
    if args.compile:
        model = torch.compile(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    steps = args.epochs * len(train_loader) // args.accum
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=steps)
    use_amp = device.type == "cuda"
    scaler = torch.amp.GradScaler(enabled=use_amp)
    opt_step = 0
    for epoch in range(args.epochs):
        model.train()
        for i, (x, y) in enumerate(train_loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast(device.type, dtype=torch.float16, enabled=use_amp):
                loss = F.cross_entropy(model(x), y) / args.accum
            scaler.scale(loss).backward()
            if (i + 1) % args.accum == 0:
                scaler.unscale_(optimizer)
                grad_norm = nn.utils.clip_grad_norm_(model.parameters(), 2.0)
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad(set_to_none=True)
                scheduler.step()
                opt_step += 1
                if opt_step % args.log_every == 0:
                    print(f"step {opt_step} loss {loss.item() * args.accum:.4f} |g| {grad_norm.item():.3f}")  # paef: ok host-sync
        print(f"epoch {epoch} val acc {validate(model, val_loader, device):.4f}")


if __name__ == "__main__":
    main()
