# corpus: runnable
# Red team 29a, wave 1 (blind): link prediction on small random graphs. Structural features are
# integer path counts (`torch.matmul` of the int64 adjacency with itself) centred on a threshold and
# squashed with a hand-written leaky ReLU before they are cast for the scorer.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


def random_graph(n, p, gen):
    upper = (torch.rand(n, n, generator=gen) < p).triu(1)
    return (upper | upper.t()).long()


def structural(adj, k):
    two_hop = torch.matmul(adj, adj)
    excess = two_hop - k
    shaped = torch.where(excess > 0, excess, 0.25 * excess)
    return shaped.float()


class PairScorer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.emb = nn.Embedding(n, 8)
        self.w = nn.Parameter(torch.tensor(0.1))

    def forward(self, u, v, feat):
        return (self.emb(u) * self.emb(v)).sum(-1) + self.w * feat[u, v]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graphs", type=int, default=3)
    parser.add_argument("--n", type=int, default=30)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(2)
    torch.manual_seed(2)
    model = PairScorer(args.n)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for g in range(args.graphs):
        adj = random_graph(args.n, 0.15, gen)
        feat = structural(adj, 2)
        u = torch.randint(0, args.n, (200,), generator=gen)
        v = torch.randint(0, args.n, (200,), generator=gen)
        label = adj[u, v].float()
        for _ in range(20):
            loss = nn.functional.binary_cross_entropy_with_logits(model(u, v, feat), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"graph {g} edges {int(adj.sum()) // 2} feat {feat.sum().item():.2f} loss {loss.item():.5f}")


if __name__ == "__main__":
    main()
