# corpus: runnable
"""Contrastive text retrieval with a dual encoder (bag-of-embeddings towers, in-batch negatives,
learnable temperature); evaluation embeds the corpus under `no_grad` but scores Recall@k with a
Python loop over queries that reads one rank at a time."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, LEN, N = 200, 8, 800


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.proj = nn.Linear(64, 32)

    def forward(self, ids):
        return F.normalize(self.proj(self.emb(ids)), dim=-1)


docs = torch.randint(0, VOCAB, (N, LEN))
queries = torch.where(torch.rand(N, LEN) < 0.6, docs, torch.randint(0, VOCAB, (N, LEN)))
docs, queries = docs.to(device), queries.to(device)
q_tower, d_tower = Tower().to(device), Tower().to(device)
log_temp = nn.Parameter(torch.tensor(2.0, device=device))
opt = torch.optim.Adam(list(q_tower.parameters()) + list(d_tower.parameters()) + [log_temp], lr=3e-3)
BATCH = 64
for epoch in range(8):
    perm = torch.randperm(600, device=device)
    for i in range(0, 600, BATCH):
        idx = perm[i : i + BATCH]
        logits = q_tower(queries[idx]) @ d_tower(docs[idx]).T * log_temp.exp()
        target = torch.arange(len(idx), device=device)  # paef: ok redundant-tensor
        loss = (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} temp {log_temp.exp().item():.2f}")

with torch.no_grad():
    q = q_tower(queries[600:])
    d = d_tower(docs[600:])
    scores = q @ d.T
    ranks = (scores > scores.diag()[:, None]).sum(1)
hits1 = hits5 = 0
for i in range(len(ranks)):  # paef: expect elementwise-loop
    r = ranks[i].item()  # paef: expect host-sync
    hits1 += r < 1
    hits5 += r < 5
print(f"R@1 {hits1 / len(ranks):.3f} R@5 {hits5 / len(ranks):.3f}")
