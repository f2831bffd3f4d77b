# corpus: runnable
# Red team 29b, wave 2 (blind): a force-field project - the model's forward differentiates its
# energy with respect to the positions, and engine.py's evaluation loop takes the model as a parameter.
import torch

import engine
from models import EnergyNet

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
g = torch.Generator().manual_seed(41)


def harmonic(pos):
    d = pos - pos.mean(1, keepdim=True)
    return 0.5 * (d ** 2).sum((1, 2)), -d


def make(n):
    pos = torch.randn(n, 4, 3, generator=g)
    e, f = harmonic(pos)
    return pos, e, f


train = [make(8) for _ in range(5)]
val = [make(8) for _ in range(2)]
model = EnergyNet(4).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    tr = engine.train_epoch(model, opt, train, device)
    e_mae, f_mae = engine.evaluate(model, val, device)
    print(epoch, round(tr, 5), round(e_mae, 5), round(f_mae, 5))
