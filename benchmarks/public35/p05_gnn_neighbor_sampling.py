"""GraphSAGE with mini-batch neighbour sampling, in the style of PyG's / DGL's examples (sampler in Python)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

NUM_NODES, NUM_FEATS, NUM_CLASSES = 300, 16, 4


def make_graph():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(NUM_NODES, NUM_FEATS, generator=g)
    y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
    src = torch.randint(0, NUM_NODES, (NUM_NODES * 5,), generator=g)
    dst = torch.randint(0, NUM_NODES, (NUM_NODES * 5,), generator=g)
    adj = [[] for _ in range(NUM_NODES)]
    for s, d in zip(src.tolist(), dst.tolist()):
        adj[d].append(s)
    perm = torch.randperm(NUM_NODES, generator=g)
    return x, y, adj, perm[:200], perm[200:]


def sample_neighbors(adj, nodes, fanout):
    """One hop: returns the unique node set (seeds first) and the edge index in local ids."""
    n_id = list(nodes)
    local = {n: i for i, n in enumerate(n_id)}
    rows, cols = [], []
    for n in nodes:
        neigh = adj[n]
        if 0 <= fanout < len(neigh):
            neigh = random.sample(neigh, fanout)
        for m in neigh:
            if m not in local:
                local[m] = len(n_id)
                n_id.append(m)
            rows.append(local[m])
            cols.append(local[n])
    return n_id, torch.tensor([rows, cols], dtype=torch.long)


def neighbor_loader(adj, seeds, fanouts, batch_size, shuffle=True):
    seeds = seeds.tolist()
    if shuffle:
        random.shuffle(seeds)
    for i in range(0, len(seeds), batch_size):
        batch = seeds[i:i + batch_size]
        adjs = []
        nodes = batch
        for fanout in fanouts:
            n_id, edge_index = sample_neighbors(adj, nodes, fanout)
            adjs.append((edge_index, len(nodes), len(n_id)))
            nodes = n_id
        yield len(batch), torch.tensor(nodes), adjs[::-1]


class SAGEConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.lin_l = nn.Linear(in_ch, out_ch)
        self.lin_r = nn.Linear(in_ch, out_ch, bias=False)

    def forward(self, x, edge_index, size_target):
        src, dst = edge_index
        agg = torch.zeros(size_target, x.size(1), device=x.device).index_add_(0, dst, x[src])
        deg = torch.zeros(size_target, device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        agg = agg / deg.clamp(min=1).unsqueeze(-1)
        return self.lin_l(agg) + self.lin_r(x[:size_target])


class SAGE(nn.Module):
    def __init__(self, in_ch, hidden, out_ch, num_layers=2):
        super().__init__()
        self.convs = nn.ModuleList([SAGEConv(in_ch, hidden), SAGEConv(hidden, out_ch)])
        self.num_layers = num_layers

    def forward(self, x, adjs):
        for i, (edge_index, size_target, _) in enumerate(adjs):
            x = self.convs[i](x, edge_index, size_target)
            if i != self.num_layers - 1:
                x = F.relu(x)
                x = F.dropout(x, p=0.5, training=self.training)
        return x.log_softmax(dim=-1)


def train(model, optimizer, x, y, adj, train_idx):
    model.train()
    total_loss = total_correct = 0
    for batch_size, n_id, adjs in neighbor_loader(adj, train_idx, [5, 5], 32):
        adjs = [(edge_index.to(device), s, n) for edge_index, s, n in adjs]
        optimizer.zero_grad()
        out = model(x[n_id].to(device), adjs)
        loss = F.nll_loss(out, y[n_id[:batch_size]].to(device))
        loss.backward()
        optimizer.step()
        total_loss += float(loss) * batch_size
        total_correct += int(out.argmax(dim=-1).eq(y[n_id[:batch_size]].to(device)).sum())
    return total_loss / len(train_idx), total_correct / len(train_idx)


@torch.no_grad()
def test(model, x, y, adj, test_idx):
    model.eval()
    correct = 0
    for batch_size, n_id, adjs in neighbor_loader(adj, test_idx, [-1, -1], 64, shuffle=False):
        adjs = [(edge_index.to(device), s, n) for edge_index, s, n in adjs]
        out = model(x[n_id].to(device), adjs)
        correct += int(out.argmax(dim=-1).cpu().eq(y[n_id[:batch_size]]).sum())
    return correct / len(test_idx)


def main():
    x, y, adj, train_idx, test_idx = make_graph()
    for n in range(NUM_NODES):
        adj[n] = adj[n] if adj[n] else [n]
    model = SAGE(NUM_FEATS, 32, NUM_CLASSES).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(1, 4):
        loss, acc = train(model, optimizer, x, y, adj, train_idx)
        test_acc = test(model, x, y, adj, test_idx)
        print(f"Epoch {epoch:02d}, Loss: {loss:.4f}, Approx. Train: {acc:.4f}, Test: {test_acc:.4f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
