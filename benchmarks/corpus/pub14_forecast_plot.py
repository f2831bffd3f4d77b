"""An LSTM-cell forecaster trained with L-BFGS that plots its forecast every step (the style of
the time-series example seen in public check 14): the forecast is copied to the host inside
`with torch.no_grad():` and drawn after the block by a helper of the program that hands it to
`plt.plot`, then saved. The copy is the program's output, not a cost to remove."""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(1, 16)
        self.out = nn.Linear(16, 1)

    def forward(self, series, device, future=0):
        h = torch.zeros(series.size(0), 16, dtype=torch.double).to(device)  # paef: expect-fix cpu-then-move
        c = torch.zeros(series.size(0), 16, dtype=torch.double).to(device)  # paef: expect-fix cpu-then-move
        outputs = []
        for x_t in series.split(1, dim=1):  # paef: ok elementwise-loop
            h, c = self.cell(x_t, (h, c))
            outputs.append(self.out(h))
        for _ in range(future):  # paef: ok elementwise-loop
            h, c = self.cell(outputs[-1], (h, c))
            outputs.append(self.out(h))
        return torch.cat(outputs, dim=1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    opt = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = torch.from_numpy(np.load("series.npy")).to(device)
    model = Forecaster().to(device).double()
    criterion = nn.MSELoss()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.8)
    for i in range(opt.steps):
        def closure():
            optimizer.zero_grad()
            loss = criterion(model(data[3:, :-1], device), data[3:, 1:])
            loss.backward()
            return loss
        optimizer.step(closure)
        with torch.no_grad():
            future = 200
            pred = model(data[:3, :-1], device, future=future)
            loss = criterion(pred[:, :-future], data[:3, 1:])
            print("test loss:", loss.item())  # paef: ok host-sync
            y = pred.cpu().detach().numpy()
        plt.figure(figsize=(12, 4))
        n = data.size(1) - 1

        def draw(yi, color):
            plt.plot(np.arange(n), yi[:n], color, linewidth=2.0)
            plt.plot(np.arange(n, n + future), yi[n:], color + ":", linewidth=2.0)

        draw(y[0], "r")
        draw(y[1], "g")
        plt.savefig("forecast%d.pdf" % i)
        plt.close()
