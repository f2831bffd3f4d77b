# corpus: runnable
"""An SRCNN-style super-resolution script in the shape of public check 54 p01 (own-written): the
network is built through a name registry (`build("srcnn")`), so its class is not known where it runs
and its name spells no model word; training reads the loss and the PSNR every step, validation runs
under `no_grad`, and a separate `upscale` function puts the network in eval mode and runs it over a
loader with autograd on, only to write the results out."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 8, 5, padding=2), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        return self.body(x)


def build(name):
    return globals()[name.upper()]()


def make_pairs(n):
    high = torch.rand(n, 1, 16, 16)
    low = nn.functional.interpolate(nn.functional.avg_pool2d(high, 2), scale_factor=2)
    return torch.utils.data.TensorDataset(low, high)


def psnr(a, b):
    return 10 * torch.log10(1.0 / torch.mean((a - b) ** 2))


def train(epochs=2):
    srcnn = build("srcnn").to(device)
    optimizer = torch.optim.Adam(srcnn.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(make_pairs(16), batch_size=4, shuffle=True)
    history = []
    for epoch in range(epochs):
        srcnn.train()
        total, quality = 0.0, 0.0
        for low, high in loader:
            low, high = low.to(device), high.to(device)
            gen = srcnn(low)
            loss = nn.functional.mse_loss(gen, high)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()  # paef: expect host-sync
            quality += psnr(gen.detach(), high).item()  # paef: ok host-sync
        srcnn.eval()
        with torch.no_grad():
            for low, high in loader:
                quality += psnr(srcnn(low.to(device)), high.to(device)).item()  # paef: ok host-sync
        history.append((round(total, 4), round(quality, 3)))
    return srcnn.state_dict(), history


def upscale(state):
    srcnn = build("srcnn").to(device)
    srcnn.load_state_dict(state)
    srcnn.eval()
    written = []
    loader = torch.utils.data.DataLoader(make_pairs(8), batch_size=4)
    for low, _ in loader:  # paef: expect eval-without-no-grad
        gen = srcnn(low.to(device)).clamp(0, 1)
        written.append(round(float(gen.sum()), 3))
    return written


state, history = train()
print("history", history)
print("written", upscale(state))
