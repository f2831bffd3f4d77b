# corpus: runnable
"""Contrastive training driven by an `argparse.Namespace`: the loop counts steps on `args`
(`args.global_step += 1`, logged every step), the optimizer takes `lr=args.lr`, and the loss,
called every step, indexes its similarity matrix with `arange(args.batch_size)` tables. The
other attributes of `args` never change, but one (`args.crop`) grows every step."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def contrastive_loss(args, z_i, z_j):
    z = F.normalize(torch.cat([z_i, z_j]), dim=1)
    sim = torch.exp(z @ z.T / args.temperature)
    rows = torch.arange(0, args.batch_size)  # paef: expect redundant-tensor
    positives = torch.cat([sim[rows, rows + args.batch_size], sim[rows + args.batch_size, rows]])
    return -torch.log(positives / (sim.sum(dim=1) - sim.diagonal())).mean()


def log_scalar(history, name, value, step):
    history.append((name, round(value, 6), step))


args = argparse.Namespace(batch_size=8, temperature=0.5, lr=0.05, crop=4)
args.global_step = 0
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
data = torch.randn(4 * args.batch_size, 16)
history = []
for epoch in range(2):
    for step in range(4):
        x = data[step * args.batch_size:(step + 1) * args.batch_size].to(device)
        noise = torch.randn(x.shape, generator=torch.Generator().manual_seed(args.global_step)).to(device)  # paef: ok cpu-then-move
        keep = torch.arange(args.crop, device=device)
        x_i, x_j = x, x + 0.1 * noise
        x_j[:, keep] = x[:, keep]
        weights = torch.ones(args.batch_size, device=device) / args.batch_size  # paef: expect-fix redundant-tensor
        loss = contrastive_loss(args, model(x_i), model(x_j)) * weights.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log_scalar(history, "loss", loss.item(), args.global_step)  # paef: ok host-sync
        args.global_step += 1
        args.crop = min(args.crop + 1, 16)
print(args.global_step, history[-1], [round(v, 4) for _, v, _ in history])
