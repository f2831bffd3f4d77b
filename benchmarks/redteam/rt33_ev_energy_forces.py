# corpus: runnable
# Red team 33 (blind): a tiny energy model for a pair potential; forces are the negative gradient
# of the predicted energy with respect to the positions, computed inside `forward` as interatomic
# potential codes do. Evaluation reports energy and force errors.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


class EnergyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.pair = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, pos):
        pos = pos.requires_grad_(True)
        iu = torch.triu_indices(pos.shape[1], pos.shape[1], 1)
        d = (pos[:, iu[0]] - pos[:, iu[1]]).norm(dim=-1)
        energy = self.pair(d.unsqueeze(-1)).sum((1, 2))
        try:
            forces = -torch.autograd.grad(energy.sum(), pos, create_graph=self.training)[0]
        except RuntimeError:
            forces = torch.zeros_like(pos)
        return energy, forces


def reference(pos):
    pos = pos.clone().requires_grad_(True)
    iu = torch.triu_indices(pos.shape[1], pos.shape[1], 1)
    d = (pos[:, iu[0]] - pos[:, iu[1]]).norm(dim=-1)
    e = (1.0 / d ** 2).sum(1)
    f = -torch.autograd.grad(e.sum(), pos)[0]
    return e.detach(), f


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    pos = torch.rand(64, 4, 3) * 3 + torch.arange(4).view(1, 4, 1)
    e_ref, f_ref = reference(pos)
    model = EnergyModel().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(args.steps):
        model.train()
        e, f = model(pos[:48].clone().to(device))
        loss = (e - e_ref[:48].to(device)).pow(2).mean() + (f - f_ref[:48].to(device)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    e_err = f_err = 0.0
    for i in range(48, 64, 8):
        e, f = model(pos[i:i + 8].clone().to(device))
        e_err += (e - e_ref[i:i + 8].to(device)).abs().mean().item()
        f_err += (f - f_ref[i:i + 8].to(device)).abs().mean().item()
    print(f"energy MAE {e_err / 2:.4f}")
    print(f"force MAE {f_err / 2:.4f}")


if __name__ == "__main__":
    main()
