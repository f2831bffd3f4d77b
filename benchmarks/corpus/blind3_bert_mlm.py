# corpus: runnable
"""BERT-style masked-language-model pretraining on a toy corpus: 15% masking in the collate
function (80/10/10), a small encoder with a hand-written LayerNorm, and masked accuracy."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
PAD, CLS, SEP, MASK = 0, 1, 2, 3
VOCAB, MAXLEN = 40, 16


class SentenceDataset(Dataset):
    def __init__(self, n):
        self.sents = [[random.randrange(4, VOCAB) for _ in range(random.randint(5, MAXLEN - 2))] for _ in range(n)]

    def __len__(self):
        return len(self.sents)

    def __getitem__(self, i):
        return [CLS] + self.sents[i] + [SEP]


def collate(batch):
    L = max(len(s) for s in batch)
    ids = torch.full((len(batch), L), PAD, dtype=torch.long)
    for k, s in enumerate(batch):
        ids[k, : len(s)] = torch.tensor(s)
    labels = ids.clone()
    special = (ids == PAD) | (ids == CLS) | (ids == SEP)
    prob = torch.full(ids.shape, 0.15)
    prob.masked_fill_(special, 0.0)
    masked = torch.bernoulli(prob).bool()
    labels[~masked] = -100
    replace = torch.bernoulli(torch.full(ids.shape, 0.8)).bool() & masked
    ids[replace] = MASK
    rand = torch.bernoulli(torch.full(ids.shape, 0.5)).bool() & masked & ~replace
    ids[rand] = torch.randint(4, VOCAB, ids.shape)[rand]
    return ids, labels, (ids != PAD).long()


class LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-12):
        super().__init__()
        self.weight, self.bias, self.eps = nn.Parameter(torch.ones(d)), nn.Parameter(torch.zeros(d)), eps

    def forward(self, x):
        u = x.mean(-1, keepdim=True)
        s = (x - u).pow(2).mean(-1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)  # paef: expect operator-fusion
        return self.weight * x + self.bias


class Encoder(nn.Module):
    def __init__(self, d=32, heads=4, layers=2):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(MAXLEN, d)
        self.ln = LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers)
        self.lm_head = nn.Linear(d, VOCAB)

    def forward(self, ids, attn):
        pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)  # paef: ok redundant-tensor
        h = self.ln(self.tok(ids) + self.pos(pos))
        h = self.enc(h, src_key_padding_mask=attn == 0)
        return self.lm_head(h)


loader = DataLoader(SentenceDataset(256), batch_size=32, shuffle=True, collate_fn=collate)  # paef: ok pageable-transfer; ok sync-dataloader
model = Encoder().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 10))

history = []
for epoch in range(3):
    for ids, labels, attn in loader:
        ids, labels, attn = ids.to(device), labels.to(device), attn.to(device)
        logits = model(ids, attn)
        loss = F.cross_entropy(logits.view(-1, VOCAB), labels.view(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        sel = labels != -100
        acc = (logits.argmax(-1)[sel] == labels[sel]).float().mean().item()  # paef: expect host-sync
        history.append(acc)
    print(f"epoch {epoch} loss {loss.item():.4f} masked acc (last 8) {sum(history[-8:]) / 8:.3f}")
