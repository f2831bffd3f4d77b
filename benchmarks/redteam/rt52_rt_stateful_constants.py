# corpus: runnable
# Red team 52 (blind): constants built inside loops that a module keeps and edits. A gated residual
# model whose forward decays the gate it is handed in place, a temperature Parameter made fresh per
# trial of a small sweep, a step counter buffer re-registered each epoch and bumped by forward, a
# causal mask whose size follows the batch, and per-sample importance weights edited one by one.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5201)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class GatedStack(nn.Module):
    def __init__(self, d, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Linear(d, d) for _ in range(depth))
        self.head = nn.Linear(d, 2)

    def forward(self, x, gate):
        for blk in self.blocks:
            g = gate.clone()  # this block's share, before the decay
            x = x + g * torch.tanh(blk(x))
            gate.mul_(0.8)  # deeper blocks contribute less; the caller's gate is consumed
        if hasattr(self, 'steps'):
            self.steps += 1
        return self.head(x)


class TinyAttn(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        s = q @ k.transpose(1, 2) / k.shape[-1] ** 0.5
        mask = torch.triu(torch.ones(T, T, device=x.device), diagonal=1).bool()
        return torch.softmax(s.masked_fill(mask, float('-inf')), -1) @ v


X = torch.randn(64, 8, device=device)
Y = (X[:, 0] * X[:, 1] > 0).long()
model = GatedStack(8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
log = []
for epoch in range(3):
    model.register_buffer('steps', torch.tensor(0, device=device))
    for i in range(0, 64, 16):
        gate = torch.tensor(1.0, device=device)
        loss = F.cross_entropy(model(X[i:i + 16], gate), Y[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    log.append((epoch, int(model.steps), round(gate.item(), 4), round(loss.item(), 4)))
print('stack', log)

# a small sweep: one temperature per trial, calibrated on held-out logits
with torch.no_grad():
    logits = model(X, torch.tensor(1.0, device=device))
temps = []
for trial, lr in enumerate([0.01, 0.05, 0.2]):
    tau = nn.Parameter(torch.tensor(1.5, device=device))
    topt = torch.optim.SGD([tau], lr=lr)
    for _ in range(20):
        nll = F.cross_entropy(logits / tau, Y)
        topt.zero_grad()
        nll.backward()
        topt.step()
    temps.append(round(tau.item(), 5))
print('temps', temps)

# variable-length causal attention
attn = TinyAttn(8).to(device)
outs = []
for T in [3, 5, 4, 7]:
    seq = torch.randn(2, T, 8, device=device)
    outs.append(attn(seq).sum().item())
print('attn', [round(o, 4) for o in outs])

# importance weights: start at one, shrink the ones the model already fits
weights = []
with torch.no_grad():
    probs = torch.softmax(model(X, torch.tensor(1.0, device=device)), -1)
for n in range(8):
    w = torch.tensor([1.0], device=device)
    if probs[n, Y[n]] > 0.5:
        w.mul_(1 - probs[n, Y[n]])
    weights.append(w)
W = torch.cat(weights)
print('weights', [round(v, 4) for v in W.tolist()])
print('checksum', round(sum(temps) + sum(outs) + W.sum().item() + sum(r[3] for r in log), 4))
