# corpus: runnable
"""Per-sample tokenisation in __getitem__ (Python string work), loaded without workers."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
VOCAB = {w: i + 2 for i, w in enumerate(WORDS)}


class Reviews(Dataset):
    def __init__(self, n, max_len=8):
        self.texts = [" ".join(random.choice(WORDS) for _ in range(random.randint(3, 12))) for _ in range(n)]
        self.labels = [int("alpha" in t) for t in self.texts]
        self.max_len = max_len

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        tokens = [VOCAB.get(w, 1) for w in self.texts[i].lower().split()][: self.max_len]
        tokens += [0] * (self.max_len - len(tokens))
        return torch.tensor(tokens), torch.tensor(self.labels[i])


loader = DataLoader(Reviews(200), batch_size=20, shuffle=True, pin_memory=True)  # paef: expect sync-dataloader
model = nn.Sequential(nn.Embedding(len(VOCAB) + 2, 8), nn.Flatten(), nn.Linear(64, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    total = torch.zeros((), device=device)
    for tokens, labels in loader:
        tokens, labels = tokens.to(device, non_blocking=True), labels.to(device, non_blocking=True)
        loss = nn.functional.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
    print(f"epoch {epoch} loss {total.item() / len(loader):.4f}")
