# corpus: runnable
# Red team 34 (blind): a continuous-time regression model. Each batch comes with its own horizon; the
# time grid is built per batch with `torch.arange(0, horizon, dt)` on the host and moved to the device.
# The loss only scores grid points up to a cutoff time (`t <= cutoff`), and the script reports how
# many points each batch scored.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class Decay(nn.Module):
    def __init__(self):
        super().__init__()
        self.rate = nn.Parameter(torch.tensor(0.5))
        self.scale = nn.Parameter(torch.tensor(1.0))

    def forward(self, t):
        return self.scale * torch.exp(-self.rate * t)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Decay().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    dt, cutoff = 0.1, 1.3
    horizons = [3.0, 2.5, 2.2, 3.0, 1.9, 2.7]
    for epoch in range(3):
        scored = []
        for horizon in horizons:
            t = torch.arange(0, horizon, dt).to(device)
            target = 2.0 * torch.exp(-1.5 * t)
            keep = t <= cutoff
            scored.append(int(keep.sum()))
            loss = F.mse_loss(model(t)[keep], target[keep])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: scored points {scored} loss {loss.item():.6f}")
    print(f"rate {model.rate.item():.6f} scale {model.scale.item():.6f}")


if __name__ == "__main__":
    main()
