# corpus: runnable
# Red team 55 (blind): a batch of small random graphs packed into one big graph by offsetting node indices,
# a k-core peeling order computed by hand (degrees read one by one while the degree tensor is decremented in
# place), per-graph readouts gathered into lists, and a two-layer GCN written with index_add_.
import random

import torch
import torch.nn as nn

torch.manual_seed(5503)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
random.seed(553)


def random_graph(n, p):
    edges = [(i, j) for i in range(n) for j in range(i + 1, n) if random.random() < p]
    if not edges:
        edges = [(0, 1)]
    e = torch.tensor(edges, dtype=torch.long).T
    return torch.cat([e, e.flip(0)], 1), n


graphs = [random_graph(random.randint(4, 9), 0.35) for _ in range(24)]
labels = torch.tensor([1 if e.shape[1] / (n * (n - 1)) > 0.35 else 0 for e, n in graphs])


def pack(batch):
    edge_parts, sizes, graph_of = [], [], []
    offset = 0
    for k, (e, n) in enumerate(batch):
        edge_parts.append(e + offset)
        sizes.append(n)
        graph_of.extend([k] * n)
        offset += n
    return torch.cat(edge_parts, 1), torch.tensor(sizes), torch.tensor(graph_of), offset


def core_order(edge_index, n):
    deg = torch.zeros(n, dtype=torch.long).index_add_(0, edge_index[0], torch.ones(edge_index.shape[1], dtype=torch.long))
    alive = torch.ones(n, dtype=torch.bool)
    order, degs = [], []
    for _ in range(n):
        cand = torch.where(alive, deg, torch.full_like(deg, 10 ** 6))
        v = int(cand.argmin())
        degs.append(deg[v].item())
        order.append(v)
        alive[v] = False
        nb = edge_index[1][edge_index[0] == v]
        deg[nb] -= 1
    return order, torch.tensor(degs)


class GCN(nn.Module):
    def __init__(self, d_in, d_h):
        super().__init__()
        self.l1 = nn.Linear(d_in, d_h)
        self.l2 = nn.Linear(d_h, d_h)
        self.out = nn.Linear(d_h, 2)

    def prop(self, x, ei, n):
        deg = torch.ones(n, device=x.device).index_add_(0, ei[1], torch.ones(ei.shape[1], device=x.device))
        norm = deg.rsqrt()
        msg = x[ei[0]] * (norm[ei[0]] * norm[ei[1]]).unsqueeze(1)
        return (x / deg.unsqueeze(1)).index_add_(0, ei[1], msg)

    def forward(self, x, ei, graph_of, n_graphs):
        h = torch.relu(self.l1(self.prop(x, ei, x.shape[0])))
        h = torch.relu(self.l2(self.prop(h, ei, x.shape[0])))
        pooled = torch.zeros(n_graphs, h.shape[1], device=h.device).index_add_(0, graph_of, h)
        cnt = torch.bincount(graph_of, minlength=n_graphs).clamp(min=1).unsqueeze(1)
        return self.out(pooled / cnt)


def features(edge_index, n):
    order, degs = core_order(edge_index, n)
    rank = torch.empty(n)
    rank[torch.tensor(order)] = torch.arange(n, dtype=torch.float) / n
    deg = torch.bincount(edge_index[0], minlength=n).float()
    return torch.stack([deg / 4, rank, torch.ones(n)], 1), degs


model = GCN(3, 16).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
losses, peel_maxes = [], []
for epoch in range(15):
    idx = torch.randperm(len(graphs)).tolist()
    for s in range(0, len(idx), 8):
        batch = [graphs[i] for i in idx[s:s + 8]]
        ei, sizes, graph_of, n = pack(batch)
        x, degs = features(ei, n)
        peel_maxes.append(degs.max().item())
        y = labels[idx[s:s + 8]].to(device)
        logits = model(x.to(device), ei.to(device), graph_of.to(device), len(batch))
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

model.eval()
embeds, preds = [], []
buf = torch.zeros(len(graphs), 2)
with torch.no_grad():
    for k, (e, n) in enumerate(graphs):
        ei, sizes, graph_of, n_all = pack([(e, n)])
        x, _ = features(ei, n_all)
        buf[k] = model(x.to(device), ei.to(device), graph_of.to(device), 1)[0].cpu()
        embeds.append(buf[k])
        preds.append(buf[k].argmax().item())
        buf[k] = buf[k].softmax(0)
probs = torch.stack(embeds)
acc = (torch.tensor(preds) == labels).float().mean().item()
print('losses', [round(v, 5) for v in losses[:4]], round(sum(losses), 5))
print('peel maxes', peel_maxes[:10], sum(peel_maxes))
print('acc', round(acc, 5), 'probs', round(probs.sum().item(), 6), round(probs[:, 1].sum().item(), 6))
print('checksum', round(sum(losses) + sum(peel_maxes) + acc + probs.double().sum().item(), 6))
