# corpus: runnable
"""A small U-Net-like segmenter as a project: metrics in their own module, called per batch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from data import make_loader
from metrics import AverageMeter, dice_coeff, dice_coeff_tensor, to_numpy

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train_loader = make_loader(128, 16, True, 0)
val_loader = make_loader(32, 16, False, 1)
dice_meter = AverageMeter()
for epoch in range(2):
    model.train()
    for images, masks in train_loader:
        images, masks = images.to(device, non_blocking=True), masks.to(device, non_blocking=True)
        logits = model(images)
        loss = F.binary_cross_entropy_with_logits(logits, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        dice_meter.update(dice_coeff((logits.detach() > 0).float(), masks), images.size(0))
    model.eval()
    val_dice = torch.zeros((), device=device)
    with torch.no_grad():
        for images, masks in val_loader:
            images, masks = images.to(device, non_blocking=True), masks.to(device, non_blocking=True)
            val_dice += dice_coeff_tensor((model(images) > 0).float(), masks)
    print(f"epoch {epoch} train dice {dice_meter.avg:.3f} val dice {val_dice.item() / len(val_loader):.3f}")
sample = to_numpy(torch.sigmoid(model(images[:1])))
print("final mask mean", float(np.round(sample.mean(), 4)))
