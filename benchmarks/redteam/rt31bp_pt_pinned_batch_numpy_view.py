# corpus: runnable
# Red team 31b, probe (not blind; GPU-only harm, a CPU run cannot show it): the pinned host batch is
# changed in place after its copy through a NumPy view of it (`img = xb.numpy(); img *= 255`, for an
# 8-bit preview), which shares the batch's memory: a `non_blocking=True` copy may still be reading it.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.rand(64, 16), torch.rand(64, 1)), batch_size=16, num_workers=2,
                        pin_memory=True)
    model = nn.Linear(16, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    previews = []
    for xb, yb in loader:
        x_dev = xb.to(device)
        y_dev = yb.to(device)
        loss = F.mse_loss(model(x_dev), y_dev)
        opt.zero_grad()
        loss.backward()
        opt.step()
        img = xb.numpy()
        img *= 255
        previews.append(int(np.round(img[0, :4]).sum()))
    print("previews", previews)


if __name__ == "__main__":
    main()
