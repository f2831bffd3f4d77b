"""A minimal Trainer: train_epoch accumulates the loss tensors; evaluate() computes metrics."""
import torch

from utils import move_to_device


def train_epoch(model, loader, optimizer, scheduler, device):
    model.train()
    total_loss = 0.0
    for step, batch in enumerate(loader):
        inputs = move_to_device(batch, device)
        outputs = model(**inputs)
        loss = outputs["loss"]
        loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        total_loss += loss  # paef: expect-fix graph-retention
    return total_loss / (step + 1)


def evaluate(model, loader, device):
    model.eval()
    preds, labels = [], []
    for batch in loader:  # paef: expect-fix eval-without-no-grad
        inputs = move_to_device(batch, device)
        logits = model(**inputs)["logits"]
        preds.append(logits.argmax(-1))
        labels.append(inputs["labels"])
    preds, labels = torch.cat(preds), torch.cat(labels)
    return (preds == labels).float().mean().item()
