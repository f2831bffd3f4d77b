# corpus: runnable
# Red team 31a, wave 2 (blind, re-aimed after wave 1): a physics-informed fit of u'' = -pi^2 sin(pi x) on [0, 1]. Adam runs
# in float32 first; a callback switches the run to float64 for the refinement epochs (the default
# dtype and the model), the usual PINN recipe. The collocation grid and the loss weights are built
# in the step loop from constants.
import argparse
import math

import torch
from torch import nn

torch.set_num_threads(1)


class DoublePrecisionAt:
    """Refine in float64 from `epoch` on: new tensors and the model's parameters."""

    def __init__(self, epoch):
        self.epoch = epoch

    def __call__(self, epoch, model):
        if epoch == self.epoch:
            torch.set_default_dtype(torch.float64)
            model.double()


def residual(model, x):
    x = x.requires_grad_(True)
    u = model(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
    return d2u + math.pi ** 2 * torch.sin(math.pi * x)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--steps", type=int, default=15)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    callbacks = [DoublePrecisionAt(2)]
    for epoch in range(4):
        for cb in callbacks:
            cb(epoch, model)
        for step in range(15):
            grid = torch.linspace(0.0, 1.0, 33, device=device).unsqueeze(1)
            weights = torch.tensor([0.1, 0.3, 0.6], device=device)
            ends = model(grid[[0, -1]])
            pde = residual(model, grid.clone()).pow(2).mean()
            loss = weights[0] * pde + weights[1] * ends[0].pow(2).sum() + weights[2] * ends[1].pow(2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} dtype {loss.dtype} loss {loss.item():.12f}")
    torch.set_default_dtype(torch.float32)


if __name__ == "__main__":
    main()
