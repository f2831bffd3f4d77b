# corpus: runnable
# Red team 29a, wave 2 (blind): dataset statistics for a graph-classification set, gathered per
# graph in the data-preparation loop: edge counts and closed 3-walks (`torch.mm` of the int64
# adjacency), collected with `.item()` and turned into tensors for the summary.
import argparse

import torch

torch.set_num_threads(1)


def sample_graph(n, p, gen):
    upper = (torch.rand(n, n, generator=gen) < p).triu(1).long()
    return upper + upper.t()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graphs", type=int, default=6)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(7)
    walks, degrees = [], []
    for g in range(args.graphs):
        adj = sample_graph(12 + g, 0.3, gen)
        closed = torch.mm(torch.mm(adj, adj), adj).diagonal().sum()
        walks.append(closed.item())
        degrees.append(adj.sum(1).max().item())
    walks_t = torch.tensor(walks)
    degrees_t = torch.tensor(degrees)
    print("closed 3-walks", walks_t, "triangles", walks_t // 6)
    print("max degree", degrees_t, degrees_t.dtype)


if __name__ == "__main__":
    main()
