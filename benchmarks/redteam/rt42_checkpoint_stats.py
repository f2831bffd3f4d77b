# corpus: runnable
"""Deep MLP trained with activation checkpointing (reentrant and non-reentrant) around blocks
that use dropout and record per-block statistics with `.item()`."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.drop = nn.Dropout(0.25)
        self.stats = []
        self.calls = 0

    def forward(self, h):
        self.calls += 1
        out = self.drop(torch.relu(self.lin(h)))
        self.stats.append(out.abs().mean().item())
        return h + out


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(6) for _ in range(3)])
        self.head = nn.Linear(6, 1)

    def forward(self, x, reentrant):
        h = x
        for blk in self.blocks:
            h = checkpoint(blk, h, use_reentrant=reentrant)
        return self.head(h)


net = Net().to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
x = torch.randn(16, 6, requires_grad=True)
y = torch.randn(16, 1)
losses = []
aux_terms = []
for step in range(4):
    xb = x[step * 4:(step + 1) * 4].to(device)
    yb = y[step * 4:(step + 1) * 4].to(device)
    out = net(xb, reentrant=step % 2 == 0)
    loss = ((out - yb) ** 2).mean()
    aux = out.pow(2).mean()
    aux_terms.append(aux)
    total = loss + 0.1 * sum(aux_terms[-1:])
    opt.zero_grad()
    total.backward()
    opt.step()
    losses.append(loss.item())
print("losses", [f"{v:.12f}" for v in losses])
for i, blk in enumerate(net.blocks):
    print(i, blk.calls, len(blk.stats), [f"{s:.10f}" for s in blk.stats[:5]])
print("aux", [f"{a.item():.10f}" for a in aux_terms], aux_terms[0].requires_grad)
print("rng", torch.rand(2).tolist())
