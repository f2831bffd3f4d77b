# corpus: runnable
"""Binary segmentation of synthetic blobs, laid out like a reference repo: data, model,
engine (train/evaluate) and utils modules, an argparse entry point."""
import argparse

import torch

from data import BlobDataset, make_loader
from engine import evaluate, train_one_epoch
from model import TinyUNet
from utils import MetricLogger


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    train_loader = make_loader(BlobDataset(96, seed=0, augment=True), args.batch_size, shuffle=True)
    val_loader = make_loader(BlobDataset(32, seed=1, augment=False), 32, shuffle=False)
    model = TinyUNet().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        logger = MetricLogger()
        train_one_epoch(model, optimizer, train_loader, device, logger)
        dice = evaluate(model, val_loader, device)
        print(f"epoch {epoch} {logger} val dice {dice:.4f}")


if __name__ == "__main__":
    main()
