"""Twin of d01: the texts are tokenized and padded into one tensor once; the collate slices it
and builds the mask with one comparison."""
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
ROWS = [[VOCAB.get(w, 0) for w in text.lower().split()] for text in TEXTS]
LENS = torch.tensor([len(r) for r in ROWS])
IDS = torch.zeros(len(ROWS), int(LENS.max()), dtype=torch.long)
for i, r in enumerate(ROWS):
    IDS[i, :len(r)] = torch.tensor(r)
Y = torch.tensor(LABELS)


class Texts(Dataset):
    def __len__(self):
        return len(TEXTS)

    def __getitem__(self, i):
        return i


def collate_texts(batch):
    idx = torch.tensor(batch)
    longest = int(LENS[idx].max())
    mask = (torch.arange(longest)[None] < LENS[idx][:, None]).float()
    return IDS[idx, :longest], mask, Y[idx]


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
