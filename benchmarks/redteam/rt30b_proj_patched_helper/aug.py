"""Input augmentation: `perturb` is the hook experiments replace (`aug.perturb = ...`)."""
import torch
import torch.nn.functional as F


def perturb(x, noise):
    return x + noise


def train(model, opt, batches, epochs):
    losses = []
    for epoch in range(epochs):
        for x, y in batches:
            noise = torch.zeros(x.shape[1])
            out = model(perturb(x, noise))
            loss = F.mse_loss(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(round(loss.item(), 5))
    return losses
