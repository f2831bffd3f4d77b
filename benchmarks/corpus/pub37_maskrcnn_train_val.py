# corpus: runnable
# Public check 37 p03 (108062237/CVDL_HW3 HW3/train.py, Mask R-CNN loop made runnable with stand-ins):
# `losses.item()` every training step; evaluate keeps train mode on purpose (losses) under no_grad.
# Public check 37, p03: Mask R-CNN training (train_one_epoch / evaluate with the loss dict, lists of targets).
# Source: https://github.com/108062237/CVDL_HW3 HW3/train.py @ 490e138c
# Changes to make it run on the CPU in seconds:
# - `from tqdm import tqdm` (not in the venv) replaced by a stand-in with `set_postfix`;
#   `yaml` / argparse config replaced by a dict with the same keys (EPOCHS 2, BATCH_SIZE 2, LR 0.005).
# - `from dataloader import get_train_val_loaders` and `from model import build_model` (not fetched;
#   torchvision's Mask R-CNN not in the venv) replaced by stand-ins: loaders of seeded random images
#   with a list-of-dicts target collate (the torchvision detection shape), and a tiny module that,
#   like torchvision's detectors in train mode, returns a dict of losses from (images, targets).
# - checkpoints written in a temporary directory (the saved path is not printed: it changes per run);
#   main's optimizer if/elif chain reduced to its sgd branch (the config picks sgd; nesterov dropped);
#   a checksum print at the end of main.
# train_one_epoch, evaluate and main's epoch loop are the source's lines.
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- stand-ins (not part of the source) ----
class tqdm:
    def __init__(self, iterable, desc=None, leave=True):
        self.iterable = iterable
        self.postfix = {}

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, **kw):
        self.postfix = kw


class CellDataset(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.images = [torch.rand(3, 16, 16, generator=g) for _ in range(n)]
        self.boxes = [torch.rand(2, 4, generator=g) * 8 for _ in range(n)]
        self.labels = [torch.randint(1, 5, (2,), generator=g) for _ in range(n)]
        self.masks = [(torch.rand(2, 16, 16, generator=g) > 0.5).to(torch.uint8) for _ in range(n)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        target = {"boxes": self.boxes[idx], "labels": self.labels[idx], "masks": self.masks[idx]}
        return self.images[idx], target


def collate_fn(batch):
    return tuple(zip(*batch))


def get_train_val_loaders(root, batch_size, val_split, num_workers):
    train = DataLoader(CellDataset(8, 0), batch_size=batch_size, shuffle=True, num_workers=num_workers, collate_fn=collate_fn)  # paef: ok pageable-transfer
    val = DataLoader(CellDataset(4, 1), batch_size=batch_size, shuffle=False, num_workers=num_workers, collate_fn=collate_fn)  # paef: ok pageable-transfer
    return train, val


class TinyMaskRCNN(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3, padding=1)
        self.cls = nn.Linear(8, num_classes)
        self.box = nn.Linear(8, 4)
        self.mask = nn.Conv2d(8, 1, 1)

    def forward(self, images, targets):
        losses = {"loss_classifier": 0.0, "loss_box_reg": 0.0, "loss_mask": 0.0}
        for img, t in zip(images, targets):
            feat = torch.relu(self.backbone(img.unsqueeze(0)))
            pooled = feat.mean(dim=(2, 3)).expand(len(t["labels"]), -1)
            losses["loss_classifier"] = losses["loss_classifier"] + nn.functional.cross_entropy(self.cls(pooled), t["labels"])
            losses["loss_box_reg"] = losses["loss_box_reg"] + nn.functional.smooth_l1_loss(self.box(pooled), t["boxes"])
            m = self.mask(feat).expand(len(t["labels"]), -1, -1, -1).squeeze(1)
            losses["loss_mask"] = losses["loss_mask"] + nn.functional.binary_cross_entropy_with_logits(m, t["masks"].float())
        return losses


def build_model(cfg):
    torch.manual_seed(0)
    return TinyMaskRCNN()
# ---- end of stand-ins ----


def train_one_epoch(model, optimizer, loader, device):
    model.train()
    running_loss = 0.0
    loop = tqdm(loader, desc='Training', leave=False)
    for images, targets in loop:
        images = [img.to(device) for img in images]  # paef: ok pageable-transfer
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())
        loss_value = losses.item()  # paef: expect host-sync
        running_loss += loss_value

        optimizer.zero_grad()
        losses.backward()
        optimizer.step()

        loop.set_postfix(loss=f"{loss_value:.4f}")
    avg_loss = running_loss / len(loader)
    return avg_loss


def evaluate(model, loader, device):
    # Keep model in train mode to get loss values
    model.train()
    running_loss = 0.0
    with torch.no_grad():
        loop = tqdm(loader, desc='Validation', leave=False)
        for images, targets in loop:
            images = [img.to(device) for img in images]  # paef: ok pageable-transfer
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
            loss_dict = model(images, targets)
            losses = sum(loss for loss in loss_dict.values())
            loss_value = losses.item()  # paef: ok host-sync
            running_loss += loss_value
            loop.set_postfix(val_loss=f"{loss_value:.4f}")
    avg_loss = running_loss / len(loader)
    return avg_loss


def main():
    # Load configuration
    cfg = {'DATA': {'ROOT_DIR': 'data', 'VAL_SPLIT': 0.1, 'NUM_WORKERS': 0},
           'TRAIN': {'BATCH_SIZE': 2, 'LR': 0.005, 'WEIGHT_DECAY': 0.0005, 'EPOCHS': 2},
           'OPTIMIZER': {'NAME': 'sgd', 'MOMENTUM': 0.9}}
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

    # Data loaders
    train_loader, val_loader = get_train_val_loaders(
        cfg['DATA']['ROOT_DIR'],
        int(cfg['TRAIN']['BATCH_SIZE']),
        float(cfg['DATA']['VAL_SPLIT']),
        int(cfg['DATA']['NUM_WORKERS'])
    )

    # Model
    model = build_model(cfg)
    model.to(device)

    # Optimizer selection
    opt_cfg = cfg.get('OPTIMIZER', {})
    opt_name = opt_cfg.get('NAME', 'sgd')
    lr = float(cfg['TRAIN']['LR'])
    weight_decay = float(cfg['TRAIN']['WEIGHT_DECAY'])
    params = [p for p in model.parameters() if p.requires_grad]

    momentum = float(opt_cfg.get('MOMENTUM', 0.9))
    optimizer = torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay)

    print(f"Using optimizer: {opt_name}")

    # Prepare checkpoint directory
    ckpt_dir = tempfile.mkdtemp()
    os.makedirs(ckpt_dir, exist_ok=True)

    best_val_loss = float('inf')
    total_epochs = int(cfg['TRAIN']['EPOCHS'])
    for epoch in range(total_epochs):
        print(f"Epoch {epoch+1}/{total_epochs}")
        train_loss = train_one_epoch(model, optimizer, train_loader, device)
        print(f"  [Train] Avg Loss: {train_loss:.4f}")

        val_loss = evaluate(model, val_loader, device)
        print(f"  [Val]   Avg Loss: {val_loss:.4f}")

        # Save best model
        if val_loss < best_val_loss:
            best_val_loss = val_loss
            ckpt_path = os.path.join(ckpt_dir, 'best_model.pth')
            torch.save(model.state_dict(), ckpt_path)
            print(f"  Saved best model")

    print(f"Training complete. Best Validation Loss: {best_val_loss:.4f}")
    print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))

if __name__ == '__main__':
    main()
