"""Ranking metrics, and the cold-start fold-in used at evaluation time."""
import math

import torch


def rank_metrics(model, users, collate, k, device, gen):
    model.eval()
    hits, ndcg, tops = 0.0, 0.0, []
    all_items = torch.arange(model.items.num_embeddings, device=device)
    for s in range(0, len(users), 16):
        batch = users[s:s + 16]
        flat, offsets, pos, _ = collate(batch, 1, gen)
        u = model.user(flat.to(device), offsets.to(device))
        scores = u @ model.items(all_items).T
        for row, rec in enumerate(batch):
            sc = scores[row].clone()
            sc[torch.tensor(rec['hist'], device=device)] = -1e9
            top = sc.topk(k).indices.tolist()
            tops.append(top[0])
            if rec['next'] in set(top):
                hits += 1
                ndcg += 1.0 / math.log2(top.index(rec['next']) + 2)
    model.train()
    return hits / len(users), ndcg / len(users), tops


def fold_in(model, new_users, device, steps, lr):
    """Cold-start users: their items' embeddings are nudged towards the observed next item at test time."""
    model.eval()
    table = model.items.weight
    losses = []
    for rec in new_users:
        ids = torch.tensor(rec['hist'], device=device)
        target = torch.tensor([rec['next']], device=device)
        for _ in range(steps):
            u = table[ids].mean(0, keepdim=True)
            logits = u @ table.T
            loss = torch.nn.functional.cross_entropy(logits, target)
            g, = torch.autograd.grad(loss, table)
            table.data.add_(g, alpha=-lr)
            losses.append(loss.item())
    model.train()
    return losses


def collect_scores(model, users, collate, device, gen):
    """Scores of the true next item against sampled negatives, kept for calibration."""
    model.eval()
    kept = []
    for s in range(0, len(users), 16):
        flat, offsets, pos, neg = collate(users[s:s + 16], 4, gen)
        u = model.user(flat.to(device), offsets.to(device))
        cand = torch.cat([pos.unsqueeze(1), neg], 1).to(device)
        kept.append(model.score(u, cand))
    model.train()
    return kept
