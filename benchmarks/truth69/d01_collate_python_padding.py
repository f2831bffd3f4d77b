"""Text classification over raw sentences: the `collate_fn` tokenizes every batch in Python
(lower-case, split, vocabulary lookup), pads by hand and builds the mask element by element
(batch 64, no workers)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
WORDS = [f"w{i}" for i in range(400)]
VOCAB = {w: i + 1 for i, w in enumerate(WORDS)}
TEXTS = [" ".join(random.choice(WORDS).upper() if random.random() < 0.1 else random.choice(WORDS)
                  for _ in range(random.randint(100, 300))) for _ in range(1024)]
LABELS = [len(t) % 3 for t in TEXTS]


class Texts(Dataset):
    def __len__(self):
        return len(TEXTS)

    def __getitem__(self, i):
        return TEXTS[i], LABELS[i]


def collate_texts(batch):
    token_rows = [[VOCAB.get(w, 0) for w in text.lower().split()] for text, _ in batch]
    longest = max(len(r) for r in token_rows)
    ids, mask = [], []
    for r in token_rows:
        ids.append(r + [0] * (longest - len(r)))
        mask.append([1.0 if j < len(r) else 0.0 for j in range(longest)])
    return torch.tensor(ids), torch.tensor(mask), torch.tensor([y for _, y in batch])


loader = DataLoader(Texts(), batch_size=64, shuffle=True, collate_fn=collate_texts)
embed = nn.Embedding(len(VOCAB) + 1, 16)
head = nn.Linear(16, 3)
opt = torch.optim.Adam(list(embed.parameters()) + list(head.parameters()), lr=1e-3)
for epoch in range(3):
    for ids, mask, y in loader:
        pooled = (embed(ids) * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        loss = F.cross_entropy(head(pooled), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")
