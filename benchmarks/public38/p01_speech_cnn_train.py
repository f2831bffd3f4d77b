# Public check 38, p01: speech command recognition, log-mel CNN (src/train.py + src/utils.py + src/model.py).
# Source: https://github.com/Jeff-Chow-0622/speech-command-recognition src/{train,utils,model}.py @ 378e823a
# Changes to make it run on the CPU in seconds:
# - the three files are joined in one module (`from .utils import ...`, `.data`, `.model`, `.config`
#   dropped); utils.py's set_seed / accuracy and model.py's SimpleAudioCNN are the source's lines.
# - `Config` and `create_loader` (config.py / data.py: wav files read with torchaudio, not fetched)
#   replaced by stand-ins: 48 seeded random 1x16x24 "log-mel" clips of 4 classes, batch 16;
#   the val csv / wav dir point at this file and its folder so that the validation branch runs.
# - `parser.parse_args()` -> `parser.parse_args([])`; save_dir defaults to a temp folder; 2 epochs;
#   a checksum print at the end.
from __future__ import annotations

import argparse
import os
import tempfile
import random
import numpy as np
import torch
import torch.nn as nn
from torch.optim import Adam
from torch.utils.data import DataLoader, TensorDataset


# ---- stand-ins for config.py / data.py ----
class Config:
    train_csv = __file__
    train_wav_dir = os.path.dirname(os.path.abspath(__file__))
    val_csv = __file__
    val_wav_dir = os.path.dirname(os.path.abspath(__file__))
    epochs = 2
    batch_size = 16
    lr = 1e-3
    seed = 0
    clip_seconds = 1.0
    sample_rate = 16000


def create_loader(csv_path, wav_dir, batch_size, sample_rate, clip_seconds, num_workers, shuffle):
    g = torch.Generator().manual_seed(1 if shuffle else 2)
    x = torch.randn(48, 1, 16, 24, generator=g)
    y = torch.randint(0, 4, (48,), generator=g)
    ds = TensorDataset(x, y)
    ds.num_classes = 4
    return ds, DataLoader(ds, batch_size=batch_size, shuffle=shuffle, num_workers=num_workers)


# ---- utils.py ----
def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)

def accuracy(logits: torch.Tensor, y: torch.Tensor) -> float:
    preds = logits.argmax(dim=1)
    return (preds == y).float().mean().item()


# ---- model.py ----
class SimpleAudioCNN(nn.Module):
    def __init__(self, num_classes: int, n_mels: int = 64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(2),

            nn.Conv2d(16, 32, kernel_size=3, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.MaxPool2d(2),

            nn.Conv2d(32, 64, kernel_size=3, padding=1),
            nn.BatchNorm2d(64),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d((1, 1)),
        )
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: [B, 1, n_mels, time]
        h = self.net(x).flatten(1)  # [B, 64]
        return self.fc(h)


# ---- train.py ----
def train_one_epoch(model, loader, optim, criterion, device):
    model.train()
    total_loss = 0.0
    total_acc = 0.0
    n = 0

    for x, y in loader:
        x = x.to(device)  # [B,1,n_mels,time]
        y = y.to(device)

        optim.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        optim.step()

        bs = x.size(0)
        total_loss += loss.item() * bs
        total_acc += accuracy(logits.detach(), y.detach()) * bs
        n += bs

    return total_loss / n, total_acc / n

@torch.no_grad()
def evaluate(model, loader, criterion, device):
    model.eval()
    total_loss = 0.0
    total_acc = 0.0
    n = 0

    for x, y in loader:
        x = x.to(device)
        y = y.to(device)

        logits = model(x)
        loss = criterion(logits, y)

        bs = x.size(0)
        total_loss += loss.item() * bs
        total_acc += accuracy(logits, y) * bs
        n += bs

    return total_loss / n, total_acc / n

def main():
    cfg = Config()

    parser = argparse.ArgumentParser()
    parser.add_argument("--train_csv", default=cfg.train_csv)
    parser.add_argument("--train_wav_dir", default=cfg.train_wav_dir)
    parser.add_argument("--val_csv", default=cfg.val_csv)
    parser.add_argument("--val_wav_dir", default=cfg.val_wav_dir)

    parser.add_argument("--epochs", type=int, default=cfg.epochs)
    parser.add_argument("--batch_size", type=int, default=cfg.batch_size)
    parser.add_argument("--lr", type=float, default=cfg.lr)
    parser.add_argument("--seed", type=int, default=cfg.seed)

    parser.add_argument("--clip_seconds", type=float, default=cfg.clip_seconds)
    parser.add_argument("--sample_rate", type=int, default=cfg.sample_rate)

    parser.add_argument("--save_dir", default=os.path.join(tempfile.gettempdir(), "pub38_p01_checkpoints"))
    args = parser.parse_args([])

    set_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"

    # Train loader
    train_ds, train_loader = create_loader(
        csv_path=args.train_csv,
        wav_dir=args.train_wav_dir,
        batch_size=args.batch_size,
        sample_rate=args.sample_rate,
        clip_seconds=args.clip_seconds,
        num_workers=0,
        shuffle=True,
    )

    # Val loader (optional if file exists)
    val_loader = None
    if os.path.exists(args.val_csv) and os.path.isdir(args.val_wav_dir):
        _, val_loader = create_loader(
            csv_path=args.val_csv,
            wav_dir=args.val_wav_dir,
            batch_size=args.batch_size,
            sample_rate=args.sample_rate,
            clip_seconds=args.clip_seconds,
            num_workers=0,
            shuffle=False,
        )

    model = SimpleAudioCNN(num_classes=train_ds.num_classes).to(device)
    criterion = nn.CrossEntropyLoss()
    optim = Adam(model.parameters(), lr=args.lr)

    os.makedirs(args.save_dir, exist_ok=True)

    for epoch in range(1, args.epochs + 1):
        tr_loss, tr_acc = train_one_epoch(model, train_loader, optim, criterion, device)

        msg = f"Epoch {epoch:03d} | train loss {tr_loss:.4f} acc {tr_acc:.4f}"

        if val_loader is not None:
            va_loss, va_acc = evaluate(model, val_loader, criterion, device)
            msg += f" | val loss {va_loss:.4f} acc {va_acc:.4f}"

        print(msg)

    ckpt_path = os.path.join(args.save_dir, "model_final.pt")
    torch.save({"model_state": model.state_dict(), "num_classes": train_ds.num_classes}, ckpt_path)
    print(f"Saved checkpoint: {ckpt_path}")
    print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))

if __name__ == "__main__":
    main()
