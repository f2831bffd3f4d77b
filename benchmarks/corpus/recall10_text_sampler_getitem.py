# corpus: runnable
"""A character language model fed by a random-window sampler dataset, as x-transformers'
train_enwik8 does: __getitem__ slices a host tensor and moves each sample to the device."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SEQ_LEN = 32


class TextSamplerDataset(Dataset):
    def __init__(self, data, seq_len):
        super().__init__()
        self.data = data
        self.seq_len = seq_len

    def __getitem__(self, index):
        rand_start = torch.randint(0, self.data.size(0) - self.seq_len - 1, (1,))
        full_seq = self.data[rand_start : rand_start + self.seq_len + 1].long()
        return full_seq.to(device)  # paef: expect pageable-transfer

    def __len__(self):
        return self.data.size(0) // self.seq_len


class HostWindowDataset(Dataset):
    def __init__(self, data, seq_len):
        self.data = data
        self.seq_len = seq_len

    def __getitem__(self, index):
        start = index * self.seq_len
        return self.data[start : start + self.seq_len + 1].long()

    def __len__(self):
        return (self.data.size(0) - 1) // self.seq_len


def cycle(loader):
    while True:
        for data in loader:
            yield data


text = np.frombuffer(bytes(random.randrange(32, 127) for _ in range(4096)), dtype=np.uint8).copy()
data_train, data_val = torch.from_numpy(text[:3584]), torch.from_numpy(text[3584:])
train_loader = cycle(DataLoader(TextSamplerDataset(data_train, SEQ_LEN), batch_size=8))
val_loader = DataLoader(HostWindowDataset(data_val, SEQ_LEN), batch_size=8)  # paef: ok pageable-transfer

model = nn.Sequential(nn.Embedding(256, 64), nn.Linear(64, 256)).to(device)
optim = torch.optim.Adam(model.parameters(), lr=1e-3)
for i in range(30):
    model.train()
    batch = next(train_loader)
    logits = model(batch[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 256), batch[:, 1:].reshape(-1))
    loss.backward()
    optim.step()
    optim.zero_grad()
    if i % 10 == 0:
        model.eval()
        with torch.no_grad():
            val = next(iter(val_loader)).to(device, non_blocking=True)
            val_loss = F.cross_entropy(model(val[:, :-1]).reshape(-1, 256), val[:, 1:].reshape(-1))
        print(f"step {i} train {loss.item():.3f} val {val_loss.item():.3f}")
