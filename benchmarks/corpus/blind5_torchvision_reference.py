# corpus: runnable
"""A classification trainer laid out like the torchvision reference scripts: a SmoothedValue
(deque window + global totals) and a MetricLogger that formats meters and is fed every step
with loss.item() and top-1/top-5 accuracies, a train_one_epoch/evaluate pair, label smoothing,
a warm-up then cosine LR schedule and argparse-style options."""
import argparse
from collections import defaultdict, deque

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SmoothedValue:
    def __init__(self, window_size=20, fmt="{median:.4f} ({global_avg:.4f})"):
        self.deque, self.total, self.count, self.fmt = deque(maxlen=window_size), 0.0, 0, fmt

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    @property
    def median(self):
        return torch.tensor(list(self.deque)).median().item()

    @property
    def global_avg(self):
        return self.total / self.count

    def __str__(self):
        return self.fmt.format(median=self.median, global_avg=self.global_avg)


class MetricLogger:
    def __init__(self, delimiter="  "):
        self.meters, self.delimiter = defaultdict(SmoothedValue), delimiter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()  # paef: ok host-sync
            self.meters[k].update(v)

    def __str__(self):
        return self.delimiter.join(f"{name}: {meter}" for name, meter in self.meters.items())


def accuracy(output, target, topk=(1,)):
    with torch.inference_mode():
        maxk, batch_size = max(topk), target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target[None])
        return [correct[:k].flatten().sum(dtype=torch.float32) * (100.0 / batch_size) for k in topk]


def train_one_epoch(model, criterion, optimizer, loader, device, epoch, args):
    model.train()
    logger = MetricLogger()
    for i, (image, target) in enumerate(loader):
        image, target = image.to(device), target.to(device)
        output = model(image)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        logger.update(loss=loss.item(), lr=optimizer.param_groups[0]["lr"])  # paef: expect host-sync
        logger.meters["acc1"].update(acc1.item(), n=image.shape[0])  # paef: expect host-sync
        logger.meters["acc5"].update(acc5.item(), n=image.shape[0])  # paef: expect host-sync
        if i % args.print_freq == 0:
            print(f"Epoch: [{epoch}] [{i}/{len(loader)}] loss {logger.meters['loss'].global_avg:.4f}")
    return logger


def evaluate(model, criterion, loader, device):
    model.eval()
    logger = MetricLogger()
    with torch.inference_mode():
        for image, target in loader:
            image, target = image.to(device, non_blocking=True), target.to(device, non_blocking=True)
            output = model(image)
            acc1, acc5 = accuracy(output, target, topk=(1, 5))
            logger.update(loss=criterion(output, target))  # paef: ok host-sync
            logger.meters["acc1"].update(acc1.item(), n=image.shape[0])  # paef: ok host-sync
            logger.meters["acc5"].update(acc5.item(), n=image.shape[0])  # paef: ok host-sync
    print(f"Test: Acc@1 {logger.meters['acc1'].global_avg:.3f} Acc@5 {logger.meters['acc5'].global_avg:.3f}")
    return logger.meters["acc1"].global_avg


def main(args):
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    centers = torch.randn(10, 3 * 8 * 8)
    y = torch.randint(0, 10, (640,))
    x = (centers[y] + 2.0 * torch.randn(640, 3 * 8 * 8)).view(-1, 3, 8, 8)
    train_loader = DataLoader(TensorDataset(x[:512], y[:512]), batch_size=args.batch_size, shuffle=True, pin_memory=device.type == "cuda")
    test_loader = DataLoader(TensorDataset(x[512:], y[512:]), batch_size=64, pin_memory=device.type == "cuda")
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(64, 10)).to(device)
    criterion = nn.CrossEntropyLoss(label_smoothing=args.label_smoothing)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=1)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs - 1)
    scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[1])
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, optimizer, train_loader, device, epoch, args)
        scheduler.step()
        evaluate(model, criterion, test_loader, device)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="classification training")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--batch-size", default=32, type=int)
    parser.add_argument("--epochs", default=3, type=int)
    parser.add_argument("--lr", default=0.1, type=float)
    parser.add_argument("--label-smoothing", default=0.1, type=float)
    parser.add_argument("--print-freq", default=8, type=int)
    parser.add_argument("--seed", default=0, type=int)
    main(parser.parse_args())
