# corpus: runnable
"""Siamese one-shot learning as a small project: data (glyph pairs drawn at random), model
(a siamese CNN), utils (meters, checkpoints, N-way one-shot evaluation); the best model by
one-shot accuracy is checkpointed to a temporary folder."""
import random
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import PairDataset, make_glyphs
from model import SiameseNet
from utils import AverageMeter, one_shot_accuracy, save_checkpoint

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_epoch(model, loader, optimizer):
    model.train()
    meter = AverageMeter()
    for a, b, label in loader:
        a, b, label = a.to(device), b.to(device), label.to(device)
        loss = F.binary_cross_entropy_with_logits(model(a, b), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(loss.item(), a.size(0))  # paef: expect host-sync
    return meter.avg


def main():
    background, evaluation = make_glyphs(20, 8, seed=1), make_glyphs(10, 4, seed=2)
    loader = DataLoader(PairDataset(background, 1024), batch_size=32, shuffle=True)  # paef: ok pageable-transfer; ok sync-dataloader
    model = SiameseNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    folder = tempfile.mkdtemp()
    best = 0.0
    for epoch in range(4):
        loss = train_epoch(model, loader, optimizer)
        acc = one_shot_accuracy(model, evaluation, n_way=5, trials=50, device=device)
        save_checkpoint({"epoch": epoch, "state_dict": model.state_dict(), "acc": acc}, acc > best, folder)
        best = max(best, acc)
        print(f"epoch {epoch} loss {loss:.4f} 5-way one-shot acc {acc:.3f}")
    print(f"best {best:.3f}")


if __name__ == "__main__":
    main()
