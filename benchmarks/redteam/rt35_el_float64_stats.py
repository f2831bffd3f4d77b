# corpus: runnable
# Red team 35 (blind): tabular regression. The feature statistics are computed once with NumPy
# (float64) on the raw training column and wrapped with torch.tensor, as many Kaggle kernels do;
# the float32 column is then standardised element by element before training.
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)


def load_column(n=96, seed=0):
    rng = np.random.RandomState(seed)
    raw = rng.lognormal(mean=2.0, sigma=0.7, size=n)  # float64, e.g. prices
    target = 0.3 * np.log(raw) + rng.normal(scale=0.05, size=n)
    return raw, target


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x.unsqueeze(1)).squeeze(1)


def main():
    torch.manual_seed(0)
    raw, target = load_column()
    mean = torch.tensor(raw.mean())  # 0-d float64
    std = torch.tensor(raw.std())
    price = torch.from_numpy(raw).float()
    scaled = torch.empty_like(price)
    for i in range(len(price)):  # paef: refuse elementwise-loop
        scaled[i] = (price[i] - mean) / std
    print("scaled checksum", repr(scaled.double().sum().item()), repr(scaled[:4].tolist()))
    y = torch.from_numpy(target).float()
    loader = DataLoader(TensorDataset(scaled, y), batch_size=32, shuffle=True)
    model = Regressor()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(3):
        total = 0.0
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        print(f"epoch {epoch}: mse {total / len(y):.8f}")
    print("weights", repr(sum(p.double().sum().item() for p in model.parameters())))


if __name__ == "__main__":
    main()
