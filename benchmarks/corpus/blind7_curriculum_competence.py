# corpus: runnable
"""Competence-based curriculum learning (Platanios et al. style) for a text classifier: samples
are ordered by a difficulty score and each epoch trains on the easiest fraction allowed by the
competence schedule; the difficulty helper re-scores the unchanged training set every epoch."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, EPOCHS = 100, 6

lengths = np.random.randint(3, 20, 800)
seqs = [np.random.randint(1, VOCAB, n) for n in lengths]
labels = np.array([int(s.mean() > VOCAB / 2) for s in seqs])


def difficulty(sequences):
    freq = np.bincount(np.concatenate(sequences), minlength=VOCAB) + 1
    logp = np.log(freq / freq.sum())
    return np.array([len(s) - 0.1 * logp[s].sum() for s in sequences])


def competence(epoch, c0=0.2):
    return min(1.0, math.sqrt(epoch * (1 - c0 * c0) / (EPOCHS - 1) + c0 * c0))


def pad(batch):
    out = np.zeros((len(batch), max(len(s) for s in batch)), dtype=np.int64)
    for i, s in enumerate(batch):
        out[i, : len(s)] = s
    return torch.from_numpy(out)


model = nn.Sequential(nn.EmbeddingBag(VOCAB, 32, mode="mean", padding_idx=0), nn.Linear(32, 2))
model = model.to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(EPOCHS):
    order = np.argsort(difficulty(seqs))  # paef: expect cpu-function
    allowed = order[: int(competence(epoch) * len(order))]
    np.random.shuffle(allowed)
    total, n = 0.0, 0
    for i in range(0, len(allowed), 32):
        rows = allowed[i : i + 32]
        x = pad([seqs[r] for r in rows]).to(device)  # paef: ok pageable-transfer
        y = torch.from_numpy(labels[rows]).to(device)  # paef: ok pageable-transfer
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
        n += 1
    print(f"epoch {epoch} competence {competence(epoch):.2f} samples {len(allowed)} loss {total.item() / n:.4f}")
