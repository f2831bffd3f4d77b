# corpus: runnable
"""Ranking evaluation that scores candidates one at a time and rebuilds a tensor from the list."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
users = nn.Embedding(20, 8).to(device)
items = nn.Embedding(50, 8).to(device)
candidates = torch.randint(0, 50, (20, 10), device=device)

with torch.no_grad():
    ranks = []
    for u in range(20):
        scores = []
        for c in candidates[u]:  # paef: expect elementwise-loop
            scores.append((users.weight[u] * items(c)).sum())  # paef: expect list-to-tensor
        scores = torch.stack(scores)
        ranks.append((scores > scores[0]).sum())
    mrr = (1.0 / (torch.stack(ranks).float() + 1)).mean()
print(f"mrr {mrr.item():.4f}")
