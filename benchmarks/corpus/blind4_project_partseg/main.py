# corpus: runnable
"""Per-point part segmentation of synthetic shapes, laid out like a research repo: data,
models and a utils module of helpers (device moves, one-hot, meters, per-class IoU), an
argparse entry point, training with a one-hot shape-class input, evaluation per epoch."""
import argparse

import torch
import torch.nn.functional as F

from data import PartDataset, build_loader
from models import PointSeg
from utils import AverageMeter, compute_iou, one_hot, to_device


def train_epoch(model, loader, optimizer, device, n_shapes):
    model.train()
    meter = AverageMeter()
    for points, shape_cls, seg in loader:
        points, seg = to_device(points, device), to_device(seg, device)
        cls_oh = one_hot(shape_cls, n_shapes).to(device)  # paef: expect cpu-then-move
        logits = model(points, cls_oh)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), seg.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(loss.item(), points.shape[0])  # paef: expect host-sync
    return meter.avg


@torch.no_grad()
def evaluate(model, loader, device, n_shapes, n_parts):
    model.eval()
    ious = AverageMeter()
    for points, shape_cls, seg in loader:
        points, seg = to_device(points, device), to_device(seg, device)
        logits = model(points, one_hot(shape_cls, n_shapes).to(device))  # paef: expect cpu-then-move
        ious.update(compute_iou(logits.argmax(-1), seg, n_parts), points.shape[0])
    return ious.avg


def main():
    parser = argparse.ArgumentParser(description="part segmentation")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = build_loader(PartDataset(96, seed=0), args.batch_size, train=True)
    test_loader = build_loader(PartDataset(32, seed=1), args.batch_size, train=False)
    model = PointSeg(PartDataset.N_SHAPES, PartDataset.N_PARTS).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss = train_epoch(model, train_loader, optimizer, device, PartDataset.N_SHAPES)
        miou = evaluate(model, test_loader, device, PartDataset.N_SHAPES, PartDataset.N_PARTS)
        print(f"epoch {epoch} loss {loss:.4f} mIoU {miou:.4f}")


if __name__ == "__main__":
    main()
