"""Detection finetune in the style of torchvision's reference scripts (a tiny detector stand-in)."""
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


class ShapesDataset(Dataset):
    def __init__(self, n, size=32):
        g = torch.Generator().manual_seed(1)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.boxes = []
        for i in range(n):
            k = 1 + i % 3
            xy = torch.rand(k, 2, generator=g) * (size - 8)
            self.boxes.append(torch.cat([xy, xy + 8], dim=1).tolist())
        self.labels = [[1 + (i + j) % 4 for j in range(len(b))] for i, b in enumerate(self.boxes)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        img = self.images[idx]
        boxes = torch.as_tensor(self.boxes[idx], dtype=torch.float32)
        labels = torch.as_tensor(self.labels[idx], dtype=torch.int64)
        area = (boxes[:, 3] - boxes[:, 1]) * (boxes[:, 2] - boxes[:, 0])
        target = {"boxes": boxes, "labels": labels, "image_id": idx, "area": area}
        return img, target


def collate_fn(batch):
    return tuple(zip(*batch))


class TinyDetector(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.cls_head = nn.Linear(16 * 16, num_classes)
        self.box_head = nn.Linear(16 * 16, 4)

    def forward(self, images, targets=None):
        x = torch.stack(images)
        feats = self.backbone(x).flatten(1)
        logits = self.cls_head(feats)
        boxes = self.box_head(feats) * 32
        if self.training:
            first_labels = torch.stack([t["labels"][0] for t in targets])
            first_boxes = torch.stack([t["boxes"][0] for t in targets])
            return {
                "loss_classifier": F.cross_entropy(logits, first_labels),
                "loss_box_reg": F.smooth_l1_loss(boxes, first_boxes) / 32,
            }
        scores, labels = logits.softmax(-1).max(-1)
        return [{"boxes": b[None], "scores": s[None], "labels": l[None]} for b, s, l in zip(boxes, scores, labels)]


def train_one_epoch(model, optimizer, data_loader, device, epoch, print_freq=5):
    model.train()
    running = {}
    for i, (images, targets) in enumerate(data_loader):
        images = list(image.to(device) for image in images)
        targets = [{k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in t.items()} for t in targets]
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            sys.exit(1)
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        for k, v in loss_dict.items():
            running[k] = running.get(k, 0.0) + v.item()
        if i % print_freq == 0:
            print(f"epoch {epoch} [{i}/{len(data_loader)}] loss {loss_value:.4f}")
    return {k: v / len(data_loader) for k, v in running.items()}


@torch.inference_mode()
def evaluate(model, data_loader, device):
    model.eval()
    cpu_device = torch.device("cpu")
    n_correct, n_total = 0, 0
    for images, targets in data_loader:
        images = list(img.to(device) for img in images)
        outputs = model(images)
        outputs = [{k: v.to(cpu_device) for k, v in t.items()} for t in outputs]
        for out, tgt in zip(outputs, targets):
            n_correct += int(out["labels"][0] == tgt["labels"][0])
            n_total += 1
    return n_correct / n_total


def main():
    ds = ShapesDataset(48)
    ds_val = ShapesDataset(16)
    loader = DataLoader(ds, batch_size=8, shuffle=True, num_workers=0, collate_fn=collate_fn)
    val_loader = DataLoader(ds_val, batch_size=8, shuffle=False, collate_fn=collate_fn)
    model = TinyDetector().to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=1e-4)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.1)
    for epoch in range(2):
        stats = train_one_epoch(model, optimizer, loader, device, epoch)
        lr_scheduler.step()
        acc = evaluate(model, val_loader, device)
        print(epoch, {k: round(v, 4) for k, v in stats.items()}, round(acc, 4))
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
