"""Train and evaluate one epoch of a tagger."""
import torch
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    total = 0.0
    steps = 0
    for tokens, tags in loader:
        tokens, tags = tokens.to(device), tags.to(device)  # paef: ok pageable-transfer
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags.reshape(-1), ignore_index=-100)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss  # paef: expect-fix graph-retention
        steps += 1
    return total / steps


def evaluate(model, loader, device):
    model.eval()
    correct = 0
    count = 0
    for tokens, tags in loader:  # paef: expect-fix eval-without-no-grad
        tokens, tags = tokens.to(device), tags.to(device)  # paef: ok pageable-transfer
        pred = model(tokens).argmax(-1)
        mask = tags != -100
        correct += (pred[mask] == tags[mask]).sum().item()  # paef: ok host-sync
        count += mask.sum().item()  # paef: ok host-sync
    return correct / max(count, 1)
