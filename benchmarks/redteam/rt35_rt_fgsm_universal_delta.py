# corpus: runnable
# Red team 35 (blind): adversarial training with a one-step (FGSM) input-agnostic perturbation.
# Each step starts the perturbation from zero, makes it a leaf that requires grad, takes the
# gradient of the loss with respect to it, and trains on the perturbed batch.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
EPS = 0.1
DIM = 12


def make_loader():
    g = torch.Generator().manual_seed(5)
    x = torch.randn(128, DIM, generator=g)
    y = (x[:, :3].sum(1) > 0).long()
    return DataLoader(TensorDataset(x, y), batch_size=32, shuffle=False)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loader = make_loader()
    for epoch in range(3):
        for step, (xb, yb) in enumerate(loader):
            delta = torch.zeros(1, DIM)  # paef: refuse redundant-tensor
            delta.requires_grad = True
            adv_loss = nn.functional.cross_entropy(model(xb + delta), yb)
            adv_loss.backward()
            step_dir = delta.grad.sign()
            loss = nn.functional.cross_entropy(model(xb + EPS * step_dir), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.6f} |grad delta| {delta.grad.abs().sum().item():.6f}")


if __name__ == "__main__":
    main()
