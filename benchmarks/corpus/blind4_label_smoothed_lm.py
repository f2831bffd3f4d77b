# corpus: runnable
"""A small causal Transformer language model on a synthetic copy language with padding,
trained with a fairseq-style label-smoothed cross-entropy written by hand (eps spread over
V - 1 classes, padding masked, summed and divided by the number of target tokens), the
causal mask a buffer built once, loss and token count logged per update."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
PAD, BOS, SEP, V, MAX_LEN = 0, 1, 2, 16, 24


def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index=None, reduce=True):
    if target.dim() == lprobs.dim() - 1:
        target = target.unsqueeze(-1)
    nll_loss = -lprobs.gather(dim=-1, index=target)
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    if ignore_index is not None:
        pad_mask = target.eq(ignore_index)
        nll_loss.masked_fill_(pad_mask, 0.0)
        smooth_loss.masked_fill_(pad_mask, 0.0)
    if reduce:
        nll_loss = nll_loss.sum()
        smooth_loss = smooth_loss.sum()
    eps_i = epsilon / (lprobs.size(-1) - 1)
    loss = (1.0 - epsilon - eps_i) * nll_loss + eps_i * smooth_loss  # paef: refuse operator-fusion
    return loss, nll_loss


def make_batch(bsz):
    rows = []
    for _ in range(bsz):
        s = [random.randint(3, V - 1) for _ in range(random.randint(2, (MAX_LEN - 3) // 2))]
        rows.append([BOS] + s + [SEP] + s)
    L = max(len(r) for r in rows)
    return torch.tensor([r + [PAD] * (L - len(r)) for r in rows])


class TinyLM(nn.Module):
    def __init__(self, d=32, heads=2, layers=2):
        super().__init__()
        self.tok = nn.Embedding(V, d, padding_idx=PAD)
        self.pos = nn.Embedding(MAX_LEN, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.out = nn.Linear(d, V)
        self.register_buffer("causal", torch.triu(torch.ones(MAX_LEN, MAX_LEN, dtype=torch.bool), diagonal=1))

    def forward(self, x):
        T = x.size(1)
        h = self.tok(x) + self.pos.weight[:T]
        h = self.blocks(h, mask=self.causal[:T, :T], src_key_padding_mask=x.eq(PAD))
        return self.out(h)


model = TinyLM().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.98))
for update in range(1, 121):
    batch = make_batch(32).to(device)  # paef: ok cpu-then-move; ok pageable-transfer
    src, target = batch[:, :-1], batch[:, 1:]
    lprobs = F.log_softmax(model(src), dim=-1)
    loss, nll_loss = label_smoothed_nll_loss(lprobs, target, 0.1, ignore_index=PAD)
    sample_size = target.ne(PAD).sum().item()  # paef: expect host-sync
    optimizer.zero_grad()
    (loss / sample_size).backward()
    optimizer.step()
    if update % 40 == 0:
        print(f"update {update} loss {loss.item() / sample_size / math.log(2):.3f} nll {nll_loss.item() / sample_size / math.log(2):.3f} ntokens {sample_size}")
