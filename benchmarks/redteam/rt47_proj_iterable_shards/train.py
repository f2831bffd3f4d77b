"""Training and evaluation steps for the streaming regression; the caller owns the loop."""
import torch
import torch.nn.functional as F


def train_pass(model, opt, batches, device, log_every=2):
    total = 0.0
    count = 0
    for step, (x, y) in enumerate(batches):
        x, y = x.to(device), y.to(device)
        loss = F.smooth_l1_loss(model(x).squeeze(1), y, beta=0.5)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        count += 1
        if step % log_every == 0:
            print("  step", step, "loss %.10f" % loss.item())
    return total, count


def evaluate(model, batches, device):
    model.eval()
    sq = 0.0
    n = 0
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        pred = model(x).squeeze(1)
        sq += ((pred - y) ** 2).sum().item()
        n += y.numel()
    model.train()
    return sq / max(n, 1)
