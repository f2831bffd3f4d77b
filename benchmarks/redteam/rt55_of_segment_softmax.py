# corpus: runnable
# Red team 55 (blind): a graph attention layer written by hand on an edge list: per-destination softmax of
# edge scores (max subtracted per segment with scatter_reduce, sums with index_add_), a masked softmax over
# padded neighbour sets for the same graph, a hand layer norm with the sample variance, and a hand sigmoid
# gate. Trained as node classification on a two-community graph.
import math

import torch
import torch.nn as nn

torch.manual_seed(5505)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

n, d = 40, 6
comm = (torch.arange(n) >= n // 2).long()
src_l, dst_l = [], []
g = torch.Generator().manual_seed(555)
for i in range(n):
    for j in range(n):
        if i != j:
            p = 0.25 if comm[i] == comm[j] else 0.04
            if torch.rand(1, generator=g).item() < p:
                src_l.append(i)
                dst_l.append(j)
src = torch.tensor(src_l, device=device)
dst = torch.tensor(dst_l, device=device)
x = (torch.randn(n, d, generator=g) + comm.unsqueeze(1).float() * 0.4).to(device)
y = comm.to(device)
train_mask = torch.zeros(n, dtype=torch.bool, device=device)
train_mask[::3] = True

# padded neighbour lists for the dense variant
deg = torch.bincount(dst, minlength=n)
max_deg = int(deg.max())
nbr = torch.zeros(n, max_deg, dtype=torch.long, device=device)
valid = torch.zeros(n, max_deg, dtype=torch.bool, device=device)
fill = [0] * n
for s_, t_ in zip(src_l, dst_l):
    nbr[t_, fill[t_]] = s_
    valid[t_, fill[t_]] = True
    fill[t_] += 1


class EdgeAttention(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W = nn.Linear(d_in, d_out, bias=False)
        self.a_src = nn.Parameter(torch.randn(d_out) * 0.3)
        self.a_dst = nn.Parameter(torch.randn(d_out) * 0.3)
        self.gate = nn.Linear(d_out, d_out)
        self.gain = nn.Parameter(torch.ones(d_out))
        self.bias = nn.Parameter(torch.zeros(d_out))

    def forward(self, x):
        h = self.W(x)
        e = (h[src] * self.a_src).sum(1) + (h[dst] * self.a_dst).sum(1)
        e = torch.where(e > 0, e, 0.2 * e)
        e_max = torch.full((x.shape[0],), -1e9, device=x.device).scatter_reduce(0, dst, e, 'amax', include_self=True)
        ex = torch.exp(e - e_max[dst])
        denom = torch.zeros(x.shape[0], device=x.device).index_add_(0, dst, ex)
        alpha = ex / (denom[dst] + 1e-16)
        out = torch.zeros_like(h).index_add_(0, dst, alpha.unsqueeze(1) * h[src])
        mu = out.mean(-1, keepdim=True)
        var = out.var(-1, keepdim=True)
        out = (out - mu) / torch.sqrt(var + 1e-5) * self.gain + self.bias
        z = self.gate(out)
        gate = 1.0 / (1.0 + torch.exp(-z))
        return out * gate + h * (1 - gate), alpha


class PaddedAttention(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W = nn.Linear(d_in, d_out)
        self.q = nn.Parameter(torch.randn(d_out) * 0.3)

    def forward(self, x):
        h = self.W(x)
        hn = h[nbr]
        s = (hn * self.q).sum(-1) / math.sqrt(h.shape[1])
        ex = torch.exp(s) * valid
        att = ex / ex.sum(-1, keepdim=True).clamp(min=1e-12)
        agg = (att.unsqueeze(-1) * hn).sum(1)
        act = 0.5 * agg * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (agg + 0.044715 * agg ** 3)))
        return act, att


layer = EdgeAttention(d, 8).to(device)
dense = PaddedAttention(d, 8).to(device)
head = nn.Linear(16, 2).to(device)
params = list(layer.parameters()) + list(dense.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.03)
losses = []
for epoch in range(40):
    h1, alpha = layer(x)
    h2, att = dense(x)
    logits = head(torch.cat([h1, h2], 1))
    loss = nn.functional.cross_entropy(logits[train_mask], y[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())

with torch.no_grad():
    h1, alpha = layer(x)
    h2, att = dense(x)
    pred = head(torch.cat([h1, h2], 1)).argmax(1)
acc = (pred[~train_mask] == y[~train_mask]).float().mean().item()
seg = torch.zeros(n, device=device).index_add_(0, dst, alpha)
print('losses', [round(v, 5) for v in losses[:3]], round(losses[-1], 5))
print('acc', round(acc, 5), 'alpha sums', round(seg[deg > 0].mean().item(), 6), 'att', round(att.sum().item(), 5))
print('checksum', round(sum(losses) + acc + alpha.sum().item() + att.sum().item() + h1.abs().sum().item(), 5))
