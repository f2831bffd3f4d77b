# corpus: runnable
# Tensors of unusual kinds in training loops: a sparse adjacency (`to_sparse`, `torch.sparse.mm`)
# rebuilt per step from constants, a COO tensor built on the CPU then moved, complex spectra
# (`torch.fft.rfft`, complex weights, `.abs()`, `.angle()`), `.item()` of a complex value read
# back into a tensor, and element loops over complex and sparse values.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

n = 6
edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3)]
lin = nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(lin.parameters(), lr=0.05)
feats = torch.randn(n, 4)

for step in range(3):
    idx = torch.tensor(edges).T
    adj = torch.sparse_coo_tensor(idx, torch.ones(idx.shape[1]), (n, n)).to(device)
    dense_adj = torch.eye(n).to_sparse()
    h = torch.sparse.mm(adj, lin(feats.to(device)))
    h = h + torch.sparse.mm(dense_adj.to(device), feats.to(device))
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, adj.is_sparse, dense_adj.layout, round(loss.item(), 6), adj._nnz())

# complex spectra
w = torch.randn(5, dtype=torch.cfloat, requires_grad=True)
copt = torch.optim.Adam([w], lr=0.05)
signals = [torch.randn(8) for _ in range(4)]
total = 0.0
phases = []
for s in signals:
    spec = torch.fft.rfft(s.to(device))
    out = spec * w.to(device)
    loss = (out.abs() - 1.0).pow(2).mean()
    copt.zero_grad()
    loss.backward()
    copt.step()
    total += loss.item()
    z = out.sum().item()
    phases.append(torch.tensor(z))
    print(type(z).__name__, round(abs(z), 6))
print("complex", repr(total), torch.stack(phases).dtype, torch.stack(phases).angle().tolist())

# element loops
zc = torch.randn(6, dtype=torch.cfloat)
mags = torch.zeros(6)
for i in range(6):
    mags[i] = zc[i].abs()
conj = torch.zeros(6, dtype=torch.cfloat)
for i in range(6):
    conj[i] = zc[i].conj() * 2
print(mags.tolist(), conj.real.tolist(), conj.imag.tolist())
sp = torch.eye(4).to_sparse()
dense = torch.zeros(4)
for i in range(4):
    dense[i] = sp[i].to_dense().sum()
print(dense.tolist())
