"""An attention GRU decoder over a GRU encoder; encode() keeps the memory on the model for the decode steps."""
import torch
import torch.nn as nn

from data import PAD, V_SRC, V_TGT


class Translator(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.src_emb = nn.Embedding(V_SRC, d, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(V_TGT, d, padding_idx=PAD)
        self.enc = nn.GRU(d, d, batch_first=True)
        self.cell = nn.GRUCell(2 * d, d)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(2 * d, V_TGT)
        self.memory = None
        self.memory_mask = None

    def encode(self, src):
        mem, h = self.enc(self.drop(self.src_emb(src)))
        self.memory = mem
        self.memory_mask = src == PAD
        return h[0]

    def attend(self, h):
        scores = (self.memory @ h.unsqueeze(-1)).squeeze(-1)
        scores = scores.masked_fill(self.memory_mask, float('-inf'))
        return (scores.softmax(-1).unsqueeze(-1) * self.memory).sum(1)

    def step(self, tok, h, ctx):
        h = self.cell(torch.cat([self.tgt_emb(tok), ctx], -1), h)
        ctx = self.attend(h)
        return self.out(self.drop(torch.cat([h, ctx], -1))), h, ctx
