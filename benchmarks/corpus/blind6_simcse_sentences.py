# corpus: runnable
"""Unsupervised SimCSE on a toy corpus: the same batch of sentences goes through a small
Transformer encoder twice, the two dropout masks give the positive pairs, the other sentences
of the batch are the negatives (InfoNCE with temperature 0.05). A Spearman correlation on a
synthetic STS set (similarity = word overlap) is computed after each epoch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, LEN, DIM, TEMP = 60, 12, 32, 0.05


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.pos = nn.Embedding(LEN, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)

    def forward(self, ids):
        pad = ids == 0
        positions = torch.arange(ids.shape[1], device=ids.device)  # paef: ok redundant-tensor
        h = self.encoder(self.tok(ids) + self.pos(positions), src_key_padding_mask=pad)
        h = h.masked_fill(pad.unsqueeze(-1), 0.0)
        return h.sum(1) / (~pad).sum(1, keepdim=True).clamp(min=1)


def spearman(a, b):
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return np.corrcoef(ra, rb)[0, 1]


def make_sts(n):
    s1 = np.random.randint(1, VOCAB, (n, LEN))
    keep = np.random.rand(n, LEN) < np.random.rand(n, 1)
    s2 = np.where(keep, s1, np.random.randint(1, VOCAB, (n, LEN)))
    return torch.from_numpy(s1), torch.from_numpy(s2), keep.mean(1)


corpus = torch.randint(1, VOCAB, (512, LEN))
corpus[:, 8:] = torch.where(torch.rand(512, 4) < 0.5, 0, corpus[:, 8:])
sts1, sts2, gold = make_sts(100)
model = Encoder().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
for epoch in range(3):
    model.train()
    perm = torch.randperm(len(corpus))
    epoch_loss = []
    for i in range(0, len(corpus), 64):
        ids = corpus[perm[i : i + 64]].to(device)
        z1, z2 = model(ids), model(ids)
        sim = F.cosine_similarity(z1.unsqueeze(1), z2.unsqueeze(0), dim=-1) / TEMP
        labels = torch.arange(sim.size(0)).long().to(device)  # paef: expect cpu-then-move; ok redundant-tensor
        loss = F.cross_entropy(sim, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss.append(loss)  # paef: expect graph-retention
    model.eval()
    with torch.no_grad():
        pred = F.cosine_similarity(model(sts1.to(device)), model(sts2.to(device))).cpu().numpy()
    mean_loss = torch.stack(epoch_loss).mean().item()
    print(f"epoch {epoch} loss {mean_loss:.4f} sts spearman {spearman(pred, gold):.3f}")
