import torch
import torch.nn.functional as F

from utils import dice_coefficient


def train_one_epoch(model, optimizer, loader, device, logger):
    model.train()
    for images, masks in loader:
        images, masks = images.to(device), masks.to(device)
        logits = model(images)
        loss = F.binary_cross_entropy_with_logits(logits, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.update(loss=loss.item())  # paef: expect host-sync


def evaluate(model, loader, device):
    model.eval()
    scores = []
    for images, masks in loader:  # paef: expect eval-without-no-grad
        images, masks = images.to(device), masks.to(device)
        pred = (torch.sigmoid(model(images)) > 0.5).float()
        scores.append(dice_coefficient(pred, masks))
    return torch.stack(scores).mean().item()
