# corpus: runnable
# Red team 55 (blind): label propagation and a personalised PageRank on a sparse adjacency built with
# sparse_coo_tensor (duplicate edges summed by coalesce), converted to CSR for row slicing, with node lists
# deduplicated in first-seen order, int32 CSR indices, a uint8 "visited" map and a float16 score cache
# copied through Python lists the way a quick script does it.
import warnings

import torch

warnings.filterwarnings("ignore")

torch.manual_seed(5504)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

n = 30
src = torch.randint(0, n, (90,))
dst = (src + torch.randint(1, 5, (90,))) % n
w = torch.rand(90).double()
idx = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
val = torch.cat([w, w])
A = torch.sparse_coo_tensor(idx, val, (n, n)).coalesce().to(device)
deg = torch.sparse.sum(A, 1).to_dense()
dinv = torch.where(deg > 0, 1.0 / deg, torch.zeros_like(deg))
P = torch.sparse_coo_tensor(A.indices(), A.values() * dinv[A.indices()[0]], (n, n)).coalesce()

crow = A.to_sparse_csr().crow_indices().int().cpu()
col = A.to_sparse_csr().col_indices().int().cpu()
row_sizes = torch.tensor((crow[1:] - crow[:-1]).tolist())
col_copy = torch.tensor(col.tolist())


def neighbours(v):
    return col[crow[v]:crow[v + 1]]


# BFS from a few seeds, nodes kept in the order they were first reached
frontier = [0, 7, 19]
visited = torch.zeros(n, dtype=torch.uint8)
reached = []
for hop in range(3):
    nxt = []
    for v in frontier:
        visited[v] = 1
        reached.extend(neighbours(v).tolist())
        nxt.extend(neighbours(v).tolist())
    frontier = [v for v in dict.fromkeys(nxt) if visited[v] == 0]
order = torch.tensor(list(dict.fromkeys(reached)))
visit_copy = torch.tensor(visited.tolist())

# label propagation: two classes clamped on seed nodes
Y = torch.zeros(n, 2, dtype=torch.float64, device=device)
Y[0, 0] = 1.0
Y[19, 1] = 1.0
F_ = Y.clone()
history = []
for it in range(20):
    F_ = torch.sparse.mm(P, F_)
    F_[0] = Y[0]
    F_[19] = Y[19]
    history.append(torch.tensor(F_[order[:5].to(device), 1].cpu().tolist()))
lab = F_.argmax(1)

# personalised PageRank with a float16 cache of the last scores
alpha = 0.15
r = torch.zeros(n, dtype=torch.float64, device=device)
e0 = torch.zeros(n, dtype=torch.float64, device=device)
e0[order[0]] = 1.0
cache = torch.zeros(n, dtype=torch.float16)
snaps = []
for it in range(30):
    r = alpha * e0 + (1 - alpha) * torch.sparse.mm(P.t(), r.unsqueeze(1)).squeeze(1)
    cache.copy_(r.cpu())
    snaps.append(torch.tensor(cache.tolist()))
    if it % 10 == 4:
        cache.zero_()
top = r.topk(5).indices
top_scores = torch.tensor(cache[top.cpu()].tolist())

print('row sizes', row_sizes.tolist()[:10], row_sizes.dtype, col_copy.dtype, col_copy.sum().item())
print('order', order.tolist()[:12], 'visited', visit_copy.dtype, visit_copy.sum().item())
print('lab', lab.tolist())
print('hist', round(torch.stack(history).sum().item(), 6), 'snaps', round(torch.stack(snaps).double().sum().item(), 6))
print('top', top.tolist(), top_scores.dtype, [round(v, 4) for v in top_scores.tolist()])
print('checksum', round(F_.sum().item() + r.sum().item() + torch.stack(snaps).sum().item() + order.sum().item(), 6))
