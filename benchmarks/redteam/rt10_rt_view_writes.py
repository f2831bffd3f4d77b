# corpus: runnable
# Per-step tables written through views the analysis may not name as views: `torch.diagonal`,
# `.T[0]`, `narrow`, `unbind(0)[1]`, `movedim`, `swapaxes`, `flatten()` of a contiguous table,
# `reshape(-1)`, `squeeze`, `unflatten`. Each table is kept; built once they would all alias.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)

tabs = []
for step in range(4):
    m1 = torch.zeros(3, 3)
    torch.diagonal(m1).copy_(xs[step])
    m2 = torch.zeros(3, 3)
    m2.T[0].add_(xs[step])
    m3 = torch.zeros(3, 3)
    m3.narrow(0, 1, 1).copy_(xs[step:step + 1])
    m4 = torch.zeros(2, 3)
    m4.unbind(0)[1].fill_(float(step))
    m5 = torch.zeros(3, 3)
    m5.movedim(0, 1)[2].add_(xs[step])
    m6 = torch.zeros(3, 3)
    torch.swapaxes(m6, 0, 1)[1].sub_(xs[step])
    m7 = torch.zeros(2, 3)
    m7.flatten()[:3] = xs[step]
    m8 = torch.zeros(2, 3)
    m8.reshape(-1)[4] = step
    m9 = torch.zeros(1, 3)
    m9.squeeze(0).add_(xs[step])
    m10 = torch.zeros(6)
    m10.unflatten(0, (2, 3))[1].copy_(xs[step])
    tabs.append([m1, m2, m3, m4, m5, m6, m7, m8, m9, m10])
for i in range(10):
    print(i, [round(t[i].sum().item(), 4) for t in tabs])
