# corpus: runnable
"""TransE knowledge-graph embeddings on a synthetic graph with translational structure:
negatives by corrupting heads or tails on the device, margin ranking loss, entity
embeddings renormalised after every step, filtered link-prediction ranks (MRR, Hits@3)
computed per test triple."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class TransE(nn.Module):
    def __init__(self, n_ent, n_rel, dim):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)
        nn.init.uniform_(self.ent.weight, -6 / dim ** 0.5, 6 / dim ** 0.5)
        nn.init.uniform_(self.rel.weight, -6 / dim ** 0.5, 6 / dim ** 0.5)
        self.rel.weight.data = F.normalize(self.rel.weight.data, dim=1)

    def distance(self, h, r, t):
        return (self.ent(h) + self.rel(r) - self.ent(t)).norm(p=1, dim=-1)


def make_graph(n_ent, n_rel, n_triples, rng):
    shift = rng.randint(1, n_ent // 4, n_rel)
    h = rng.randint(0, n_ent, n_triples)
    r = rng.randint(0, n_rel, n_triples)
    t = (h + shift[r]) % n_ent
    return np.unique(np.stack([h, r, t], 1), axis=0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--margin", type=float, default=1.0)
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch_size", type=int, default=128)
    args = parser.parse_args()
    rng = np.random.RandomState(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n_ent, n_rel = 200, 5
    triples = make_graph(n_ent, n_rel, 1500, rng)
    rng.shuffle(triples)
    train = torch.from_numpy(triples[:-60]).to(device)
    test = triples[-60:]
    known = {tuple(x) for x in triples.tolist()}
    model = TransE(n_ent, n_rel, args.dim).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    criterion = nn.MarginRankingLoss(margin=args.margin)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(train), device=device)
        total = torch.zeros((), device=device)
        for start in range(0, len(train), args.batch_size):
            pos = train[perm[start:start + args.batch_size]]
            neg = pos.clone()
            corrupt_head = torch.rand(len(pos), device=device) < 0.5
            rand_ent = torch.randint(0, n_ent, (len(pos),), device=device)
            neg[:, 0] = torch.where(corrupt_head, rand_ent, neg[:, 0])
            neg[:, 2] = torch.where(corrupt_head, neg[:, 2], rand_ent)
            d_pos = model.distance(pos[:, 0], pos[:, 1], pos[:, 2])
            d_neg = model.distance(neg[:, 0], neg[:, 1], neg[:, 2])
            loss = criterion(d_neg, d_pos, torch.ones_like(d_pos))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.ent.weight.data = F.normalize(model.ent.weight.data, dim=1)
            total += loss.detach() * len(pos)
        if epoch % 5 == 4:
            print(f"epoch {epoch} loss {total.item() / len(train):.4f}")

    model.eval()
    all_ents = torch.arange(n_ent, device=device)
    ranks = []
    with torch.no_grad():
        for h, r, t in test.tolist():  # paef: ok elementwise-loop
            hs = torch.full((n_ent,), h, dtype=torch.long, device=device)  # paef: ok redundant-tensor
            rs = torch.full((n_ent,), r, dtype=torch.long, device=device)  # paef: ok redundant-tensor
            scores = model.distance(hs, rs, all_ents)
            filt = torch.tensor([e != t and (h, r, e) in known for e in range(n_ent)], device=device)  # paef: ok list-to-tensor
            scores[filt] = float("inf")
            ranks.append((scores < scores[t]).sum().item() + 1)  # paef: ok host-sync
    ranks = np.array(ranks)
    print(f"MRR {np.mean(1.0 / ranks):.4f} Hits@3 {np.mean(ranks <= 3):.4f}")


if __name__ == "__main__":
    main()
