# corpus: runnable
# Red team 31b, probe (not blind): the module-level loader dict is rebound (not changed in place)
# by `configure()` through `global`, with `pin_memory` in the new dict.
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
LOADER_KW = {"batch_size": 16, "num_workers": 2}


def configure(pin):
    global LOADER_KW
    LOADER_KW = {**LOADER_KW, "pin_memory": pin and torch.cuda.is_available()}


def main():
    configure(True)
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), **LOADER_KW)
    model = nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print("epoch", epoch, round(total, 6))


if __name__ == "__main__":
    main()
