# corpus: runnable
# Red team 31b, wave 1 (blind; GPU-only harm, a CPU run cannot show it): an autoencoder whose
# loader already pins its batches. After copying the batch to the device, the loop quantizes the
# host batch in place (through the name `frames`, the batch's first field) to keep an 8-bit preview
# for logging, once the step is queued. With the copy synchronous the device has its copy before the host
# changes the batch; a `non_blocking=True` copy from the pinned batch may still be queued behind the
# device's work when `mul_` writes it.
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    args = p.parse_args()
    torch.manual_seed(0)
    data = torch.rand(128, 64)
    loader = DataLoader(TensorDataset(data, torch.arange(128)), batch_size=32, num_workers=2, pin_memory=True)
    model = nn.Sequential(nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 64), nn.Sigmoid()).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    previews = []
    for epoch in range(args.epochs):
        total = 0.0
        for batch in loader:
            x = batch[0].to(device)
            loss = F.mse_loss(model(x), x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            frames = batch[0]
            frames.mul_(255).round_()
            previews.append(int(frames[0, :4].sum()))
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.6f}")
    print("previews", previews)


if __name__ == "__main__":
    main()
