"""Image classification in the style of timm's train.py: mixup, label smoothing, model EMA, AMP."""
import time
from collections import OrderedDict
from contextlib import suppress
from copy import deepcopy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

np.random.seed(0)
torch.manual_seed(0)


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def one_hot(x, num_classes, on_value=1.0, off_value=0.0, device="cuda"):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=device).scatter_(1, x, on_value)


def mixup_target(target, num_classes, lam=1.0, smoothing=0.0, device="cuda"):
    off_value = smoothing / num_classes
    on_value = 1.0 - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value, device=device)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value, device=device)
    return y1 * lam + y2 * (1.0 - lam)


class Mixup:
    def __init__(self, mixup_alpha=0.8, label_smoothing=0.1, num_classes=10):
        self.mixup_alpha = mixup_alpha
        self.label_smoothing = label_smoothing
        self.num_classes = num_classes

    def __call__(self, x, target):
        lam = float(np.random.beta(self.mixup_alpha, self.mixup_alpha))
        x_flipped = x.flip(0).mul_(1.0 - lam)
        x.mul_(lam).add_(x_flipped)
        target = mixup_target(target, self.num_classes, lam, self.label_smoothing, x.device)
        return x, target


class SoftTargetCrossEntropy(nn.Module):
    def forward(self, x, target):
        loss = torch.sum(-target * F.log_softmax(x, dim=-1), dim=-1)
        return loss.mean()


class ModelEma:
    def __init__(self, model, decay=0.9998, device=None):
        self.module = deepcopy(model)
        self.module.eval()
        self.decay = decay
        self.device = device
        if self.device is not None:
            self.module.to(device=device)

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if self.device is not None:
                    model_v = model_v.to(device=self.device)
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1.0 - self.decay) * m)


def make_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, num_classes),
    )


def accuracy(output, target, topk=(1,)):
    maxk = min(max(topk), output.size()[1])
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.reshape(1, -1).expand_as(pred))
    return [correct[: min(k, maxk)].reshape(-1).float().sum(0) * 100.0 / batch_size for k in topk]


def train_one_epoch(epoch, model, loader, optimizer, loss_fn, device, mixup_fn, amp_autocast, loss_scaler, model_ema, log_interval=4):
    batch_time_m = AverageMeter()
    losses_m = AverageMeter()
    model.train()
    end = time.time()
    for batch_idx, (input, target) in enumerate(loader):
        input, target = input.to(device), target.to(device)
        if mixup_fn is not None:
            input, target = mixup_fn(input, target)
        with amp_autocast():
            output = model(input)
            loss = loss_fn(output, target)
        losses_m.update(loss.item(), input.size(0))
        optimizer.zero_grad()
        if loss_scaler is not None:
            loss_scaler.scale(loss).backward()
            loss_scaler.step(optimizer)
            loss_scaler.update()
        else:
            loss.backward()
            optimizer.step()
        if model_ema is not None:
            model_ema.update(model)
        if device.type == "cuda":
            torch.cuda.synchronize()
        batch_time_m.update(time.time() - end)
        if batch_idx % log_interval == 0:
            lrl = [param_group["lr"] for param_group in optimizer.param_groups]
            print(f"Train: {epoch} [{batch_idx}/{len(loader)}] Loss: {losses_m.val:.4f} ({losses_m.avg:.4f}) LR: {lrl[0]:.3e}")
        end = time.time()
    return OrderedDict([("loss", losses_m.avg)])


def validate(model, loader, loss_fn, device, amp_autocast):
    losses_m, top1_m = AverageMeter(), AverageMeter()
    model.eval()
    with torch.no_grad():
        for input, target in loader:
            input, target = input.to(device), target.to(device)
            with amp_autocast():
                output = model(input)
            loss = loss_fn(output, target)
            acc1, = accuracy(output, target, topk=(1,))
            losses_m.update(loss.item(), input.size(0))
            top1_m.update(acc1.item(), output.size(0))
    return OrderedDict([("loss", losses_m.avg), ("top1", top1_m.avg)])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    x = torch.randn(128, 3, 16, 16, generator=g)
    y = torch.randint(0, 10, (128,), generator=g)
    loader_train = DataLoader(TensorDataset(x[:96], y[:96]), batch_size=16, shuffle=True, drop_last=True)
    loader_eval = DataLoader(TensorDataset(x[96:], y[96:]), batch_size=16)
    model = make_model().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    use_amp = device.type == "cuda"
    amp_autocast = (lambda: torch.autocast(device_type="cuda", dtype=torch.float16)) if use_amp else suppress
    loss_scaler = torch.cuda.amp.GradScaler() if use_amp else None
    model_ema = ModelEma(model, decay=0.99)
    mixup_fn = Mixup(num_classes=10)
    train_loss_fn = SoftTargetCrossEntropy().to(device)
    validate_loss_fn = nn.CrossEntropyLoss().to(device)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=2)
    for epoch in range(2):
        train_metrics = train_one_epoch(epoch, model, loader_train, optimizer, train_loss_fn, device, mixup_fn,
                                        amp_autocast, loss_scaler, model_ema)
        eval_metrics = validate(model, loader_eval, validate_loss_fn, device, amp_autocast)
        ema_metrics = validate(model_ema.module, loader_eval, validate_loss_fn, device, amp_autocast)
        scheduler.step()
        print(epoch, round(train_metrics["loss"], 4), round(eval_metrics["top1"], 2), round(ema_metrics["top1"], 2))
    checksum = sum(p.detach().double().sum().item() for p in model_ema.module.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
