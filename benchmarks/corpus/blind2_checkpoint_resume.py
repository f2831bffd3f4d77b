# corpus: runnable
"""Checkpoint every epoch and resume: meters accumulate detached tensors, logging every N steps, a resumed run continues the schedule."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Meter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.sum = torch.zeros((), device=device)
        self.count = 0

    def update(self, val, n=1):
        self.sum += val.detach() * n
        self.count += n

    @property
    def avg(self):
        return self.sum.item() / max(self.count, 1)


def make_everything(seed=0):
    torch.manual_seed(seed)
    X = torch.randn(256, 10)
    Y = (X @ torch.linspace(-1, 1, 10) > 0).long()
    loader = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=False)  # paef: ok pageable-transfer
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return loader, model, opt, sched


def save_checkpoint(path, model, opt, sched, epoch):
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": epoch}, path)


def train(epochs, ckpt_path, resume=False, log_every=3):
    loader, model, opt, sched = make_everything()
    start = 0
    if resume and os.path.exists(ckpt_path):
        state = torch.load(ckpt_path, map_location=device)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start = state["epoch"] + 1
    meter = Meter()
    for epoch in range(start, epochs):
        model.train()
        meter.reset()
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            meter.update(loss, x.size(0))
            if step % log_every == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")  # paef: ok host-sync
        sched.step()
        save_checkpoint(ckpt_path, model, opt, sched, epoch)
        print(f"epoch {epoch} avg {meter.avg:.4f} lr {sched.get_last_lr()[0]:.4f}")
    return model


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "ckpt.pt")
    train(2, path)
    model = train(4, path, resume=True)
    w = torch.cat([p.detach().flatten() for p in model.parameters()])
    print(f"weights checksum {w.abs().sum().item():.4f}")
