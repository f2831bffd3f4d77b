# corpus: runnable
# Red team 61 probe (NOT blind): pruning masks rebuilt as all-ones every epoch, then written through aliases
# that are not the mask's own name: a reshaped view, a chained view subscript, `.data`, a transpose, a narrow,
# a diagonal, an unbound method `torch.Tensor.index_fill_`, a `.numpy()`-free alias by assignment, an unsqueezed
# view multiplied in place. Each mask must start from ones each epoch (regrowth); hoisting one out of the epoch
# loop would let the zeros of earlier epochs accumulate.
import torch
import torch.nn as nn

torch.manual_seed(6122)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, H = 256, 12, 16
x = torch.randn(N, D).to(device)
y = (x[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(N, 1).to(device))
net = nn.Sequential(nn.Linear(D, H), nn.Tanh(), nn.Linear(H, 1)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
report = []
for epoch in range(6):
    w = net[0].weight.detach()
    k = 10 + 8 * epoch
    weakest = w.abs().reshape(-1).argsort()[:k]
    rows = w.abs().sum(1).argsort()[:1 + epoch % 3]

    m1 = torch.ones(H, D, device=device)
    m1.reshape(-1)[weakest] = 0.0
    m2 = torch.ones(H, D, device=device)
    m2.view(-1).index_fill_(0, weakest, 0.0)
    m3 = torch.ones(H, D, device=device)
    m3.data[rows] = 0.0
    m4 = torch.ones(D, H, device=device)
    m4.T[rows] = 0.0
    m5 = torch.ones(H, D, device=device)
    m5.narrow(0, int(rows[0]), 1).zero_()
    m6 = torch.ones(H, D, device=device)
    torch.Tensor.index_fill_(m6, 0, rows, 0.0)
    m7 = torch.ones(H, D, device=device)
    alias = m7
    alias[rows] = 0.5
    m8 = torch.ones(H, D, device=device)
    m8.unsqueeze(0).mul_((w.abs() > 0.05).float())
    m9 = torch.ones(H, D, device=device)
    torch.diagonal(m9).fill_(0.0)
    masks = [m1, m2, m3, m4.T, m5, m6, m7, m8, m9]
    total = 0.0
    for i in range(0, N, 64):
        with torch.no_grad():
            net[0].weight.mul_(m1)
        loss = ((net(x[i:i + 64]) - y[i:i + 64]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        for m in masks[1:]:
            net[0].weight.grad.mul_(m)
        opt.step()
        total += loss.item()
    report.append([round(m.sum().item(), 2) for m in masks])
print('report', report[-1], len(report))
print('checksum', round(sum(sum(r) for r in report), 4), round(sum(p.double().sum().item() for p in net.parameters()), 6))
