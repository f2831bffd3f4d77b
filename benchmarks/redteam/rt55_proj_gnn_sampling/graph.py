"""A planted-partition graph as adjacency lists, node data as a dict of Python lists, a neighbour sampler."""
import random


def build(n, k, seed):
    rnd = random.Random(seed)
    block = [i % k for i in range(n)]
    adj = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            p = 0.2 if block[i] == block[j] else 0.02
            if rnd.random() < p:
                adj[i].append(j)
                adj[j].append(i)
    data = {
        'x': [[rnd.gauss(0.3 * block[i], 1.0) for _ in range(4)] + [len(adj[i]) / 10] for i in range(n)],
        'y': [block[i] for i in range(n)],
        # edge-count weights: integers for most nodes, halved for the hubs
        'w': [1 if len(adj[i]) < 8 else 0.5 for i in range(n)],
    }
    return adj, data


def sample_block(adj, seeds, fanout, rnd):
    """One hop of sampling: the new frontier (seeds first, then sampled neighbours in first-seen order)."""
    nodes = list(seeds)
    pos = {v: i for i, v in enumerate(nodes)}
    src, dst = [], []
    for v in seeds:
        nb = adj[v]
        picked = rnd.sample(nb, fanout) if len(nb) > fanout else list(nb)
        for u in picked:
            if u not in pos:
                pos[u] = len(nodes)
                nodes.append(u)
            src.append(pos[u])
            dst.append(pos[v])
    return nodes, src, dst
