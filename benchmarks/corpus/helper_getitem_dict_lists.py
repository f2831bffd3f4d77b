# corpus: runnable
"""A session Dataset whose __getitem__ turns lists from a dict into tensors, sample by sample."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
N_ITEMS, MAXLEN = 40, 5


class SessionDataset(Dataset):
    def __init__(self, n):
        self.data = {"seq": [], "len": [], "next": []}
        for _ in range(n):
            k = random.randint(1, MAXLEN)
            s = [random.randrange(1, N_ITEMS) for _ in range(k)]
            self.data["seq"].append(s + [0] * (MAXLEN - k))
            self.data["len"].append(k)
            self.data["next"].append(random.randrange(1, N_ITEMS))

    def __len__(self):
        return len(self.data["seq"])

    def __getitem__(self, idx):
        seq = torch.tensor(self.data["seq"][idx], dtype=torch.long)  # paef: expect dict-as-list
        length = torch.tensor(self.data["len"][idx])  # paef: expect dict-as-list
        target = torch.tensor(self.data["next"][idx])  # paef: expect dict-as-list
        return seq, length, target


loader = DataLoader(SessionDataset(240), batch_size=24, shuffle=True, pin_memory=True)  # paef: ok sync-dataloader
emb = nn.Embedding(N_ITEMS, 12, padding_idx=0).to(device)
opt = torch.optim.Adam(emb.parameters(), lr=0.02)
for epoch in range(3):
    for seq, length, target in loader:
        seq, length, target = (t.to(device, non_blocking=True) for t in (seq, length, target))
        sess = emb(seq).sum(1) / length.unsqueeze(1)
        loss = F.cross_entropy(sess @ emb.weight.t(), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
