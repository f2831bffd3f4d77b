"""Bagged training of the stacked members: each member sees its own bootstrap batch."""
import torch
import torch.nn.functional as F


def bootstrap_batches(x, y, n_members, bs, gen):
    idx = torch.randint(0, len(x), (n_members, bs), generator=gen).to(x.device)
    return x[idx], y[idx]


def train_epoch(ens, opt, x, y, gen, steps=12, bs=32):
    losses = []
    for _ in range(steps):
        xb, yb = bootstrap_batches(x, y, ens.n, bs, gen)
        logits = ens.per_member(xb)
        loss = F.cross_entropy(logits.flatten(0, 1), yb.flatten(), reduction="none").view(ens.n, bs).mean(1)
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
        losses.append(loss.detach())
    return torch.stack(losses).mean(0)
