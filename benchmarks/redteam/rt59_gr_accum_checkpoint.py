# corpus: runnable
# Red team 59 (blind): activation checkpointing (torch.utils.checkpoint, non-reentrant) with gradient
# accumulation. The blocks use dropout (checkpoint replays the RNG state) and count their own forward calls (the
# recompute in backward counts again). Losses of a window of ACC micro-batches are summed into one tensor WITH
# its graph and back-propagated once per window by a "flush" action looked up in a dict of callables and bound
# with functools.partial; per-micro-batch losses are logged with .item() and the clipped gradient norms kept as
# tensors.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(5904)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C, ACC = 768, 20, 5, 4
protos = torch.randn(C, D)
Y = torch.randint(0, C, (N,))
X = protos[Y] + 1.8 * torch.randn(N, D)
X, Y = X.to(device), Y.to(device)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.drop = nn.Dropout(0.1)
        self.calls = 0

    def forward(self, h):
        self.calls += 1
        return h + self.drop(F.silu(self.lin(h)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(D, 32)
        self.blocks = nn.ModuleList(Block(32) for _ in range(3))
        self.head = nn.Linear(32, C)

    def forward(self, x):
        h = self.inp(x)
        for b in self.blocks:
            h = checkpoint(b, h, use_reentrant=False)
        return self.head(h)


net = Net().to(device)
opt = torch.optim.AdamW(net.parameters(), lr=4e-3, weight_decay=0.01)


def flush(optimizer, window_loss, clip=1.0):
    window_loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(net.parameters(), clip)
    optimizer.step()
    optimizer.zero_grad()
    return norm


def skip(window_loss):
    return None


ACTIONS = {"flush": functools.partial(flush, opt), "skip": skip}

micro_log = []
norms = []
window = 0.0
for epoch in range(4):
    net.train()
    perm = torch.randperm(N, device=device)
    for k, i in enumerate(range(0, N, 24)):
        idx = perm[i:i + 24]
        loss = F.cross_entropy(net(X[idx]), Y[idx])
        micro_log.append(loss.item())
        window = window + loss / ACC
        action = "flush" if (k + 1) % ACC == 0 else "skip"
        out = ACTIONS[action](window)
        if out is not None:
            norms.append(out)
            window = 0.0

net.eval()
with torch.no_grad():
    acc = (net(X).argmax(1) == Y).float().mean().item()
print("calls", [b.calls for b in net.blocks])
print("micro", round(sum(micro_log[-32:]) / 32, 5), len(micro_log))
print("norms", round(torch.stack(norms).mean().item(), 5), len(norms))
print("acc", round(acc, 5))
print("checksum", round(sum(p.detach().double().sum().item() for p in net.parameters()), 5))
