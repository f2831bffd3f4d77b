# corpus: runnable
"""GRU4Rec/NARM-style session recommender: sessions kept as a dict of lists, Recall@K and MRR@K eval."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

n_items, max_len, batch_size, topk = 50, 6, 32, 10
rng = np.random.RandomState(0)


def make_sessions(n):
    seqs, targets = [], []
    for _ in range(n):
        length = rng.randint(2, max_len + 1)
        start = rng.randint(1, n_items - length)
        seq = list(range(start, start + length))
        seqs.append(seq[:-1])
        targets.append(seq[-1])
    return {"seqs": seqs, "targets": targets}


train = make_sessions(320)
test = make_sessions(96)


def collate(seqs):
    lens = [len(s) for s in seqs]
    padded = np.zeros((len(seqs), max(lens)), dtype=np.int64)
    for i, s in enumerate(seqs):
        padded[i, : len(s)] = s
    return torch.from_numpy(padded), torch.tensor(lens)


class SessionGRU(nn.Module):
    def __init__(self, n_items, dim=32):
        super().__init__()
        self.emb = nn.Embedding(n_items, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, n_items)

    def forward(self, seqs, lens):
        h, _ = self.gru(self.emb(seqs))
        last = h[torch.arange(h.size(0), device=h.device), lens - 1]  # paef: ok redundant-tensor
        return self.out(last)


model = SessionGRU(n_items).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(3):
    model.train()
    order = np.random.permutation(len(train["seqs"]))
    total = 0.0
    for b in range(0, len(order), batch_size):
        idx = order[b : b + batch_size]
        seqs, lens = collate([train["seqs"][i] for i in idx])
        target = torch.tensor([train["targets"][i] for i in idx])  # paef: expect dict-as-list
        seqs, lens, target = seqs.to(device), lens.to(device), target.to(device)  # paef: ok pageable-transfer
        logits = model(seqs, lens)
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)  # paef: expect host-sync
    print(f"epoch {epoch} loss {total / len(order):.4f}")

    model.eval()
    hits, mrr = 0.0, 0.0
    with torch.no_grad():
        for b in range(0, len(test["seqs"]), batch_size):
            seqs, lens = collate(test["seqs"][b : b + batch_size])  # paef: ok cpu-function
            targets = torch.tensor(test["targets"][b : b + batch_size]).to(device)  # paef: ok dict-as-list; ok cpu-then-move
            scores = model(seqs.to(device), lens.to(device))
            _, top = scores.topk(topk, dim=1)
            hits += (top == targets.unsqueeze(1)).any(1).sum().item()  # paef: ok host-sync
            for i in range(len(targets)):  # paef: expect elementwise-loop
                rank = (top[i] == targets[i]).nonzero()
                if len(rank) > 0:
                    mrr += 1.0 / (rank.item() + 1)  # paef: ok host-sync
    n_test = len(test["seqs"])
    print(f"Recall@{topk} {hits / n_test:.4f} MRR@{topk} {mrr / n_test:.4f}")
