# corpus: runnable
# Red team 32b, wave 1 (blind): prototype-based auxiliary loss. Class prototypes are NumPy arrays
# updated as exponential moving averages in place; the training loop reaches them through other
# names than the ones its NumPy calls read: a list `bank` holding the two arrays, a tracker object
# whose attribute is the running-activation array, and a closure over a one-element schedule list.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
proto_pos = np.zeros(4, dtype=np.float32)
proto_neg = np.zeros(4, dtype=np.float32)
bank = [proto_pos, proto_neg]
running = np.zeros(4, dtype=np.float32)
margin_box = [1.0]


class ActivationTracker:
    def __init__(self, store):
        self.store = store

    def update(self, acts):
        self.store *= 0.5
        self.store += 0.5 * acts


def make_margin(schedule):
    def margin(d):
        return np.maximum(schedule[0] - d, 0.0)
    return margin


def decay(schedule):
    schedule[0] = schedule[0] * 0.7


tracker = ActivationTracker(running)
margin_of = make_margin(margin_box)
x = torch.randn(32, 3)
y = (x[:, 0] > 0).long()
x, y = x.to(device), y.to(device)
enc = nn.Sequential(nn.Linear(3, 4), nn.Tanh()).to(device)
head = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD([*enc.parameters(), *head.parameters()], lr=0.3)
for epoch in range(4):
    centers = np.stack(bank)
    spread = np.linalg.norm(centers[0] - centers[1])
    hinge = margin_of(spread)
    top = np.percentile(running, 75)
    z = enc(x)
    pull = torch.from_numpy(centers).to(device)[y]
    loss = F.cross_entropy(head(z), y) + 0.1 * (z - pull).pow(2).mean() + 0.1 * float(hinge)
    opt.zero_grad()
    loss.backward()
    opt.step()
    feats = z.detach().cpu().numpy()
    labels = y.cpu().numpy()
    proto_pos *= 0.8
    proto_pos += 0.2 * feats[labels == 1].mean(0)
    proto_neg *= 0.8
    proto_neg += 0.2 * feats[labels == 0].mean(0)
    tracker.update(np.abs(feats).mean(0))
    decay(margin_box)
    print(f"epoch {epoch} loss {loss.item():.6f} spread {spread:.6f} hinge {float(hinge):.6f} top {top:.6f}")
