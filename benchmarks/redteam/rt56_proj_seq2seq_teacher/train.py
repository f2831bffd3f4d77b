"""Training with teacher forcing decided per step by random.random(), and a draft pass whose predictions are
fed back as decoder inputs (two-pass scheduled sampling)."""
import random

import torch
import torch.nn.functional as F

from data import BOS, PAD


def draft(model, src, tgt_len):
    """Greedy draft with the model in eval mode (no dropout); returns the predicted tokens."""
    model.eval()
    h = model.encode(src)
    ctx = torch.zeros_like(h)
    tok = torch.full((src.shape[0],), BOS, dtype=torch.long, device=src.device)
    preds = []
    for t in range(tgt_len):
        logits, h, ctx = model.step(tok, h, ctx)
        tok = logits.argmax(-1)
        preds.append(tok)
    model.train()
    return torch.stack(preds, 1)


def loss_on(model, src, tgt, tf_ratio, mix=None):
    if mix is None:
        h = model.encode(src)
    else:
        h = model.enc(model.drop(model.src_emb(src)))[1][0] if model.memory is None else model.memory[:, -1]
    ctx = torch.zeros_like(h)
    tok = torch.full((src.shape[0],), BOS, dtype=torch.long, device=src.device)
    loss = 0.0
    for t in range(tgt.shape[1]):
        logits, h, ctx = model.step(tok, h, ctx)
        loss = loss + F.cross_entropy(logits, tgt[:, t], ignore_index=PAD, reduction='sum')
        if mix is not None and random.random() < tf_ratio:
            tok = mix[:, t]
        elif random.random() < tf_ratio:
            tok = tgt[:, t]
        else:
            tok = logits.argmax(-1).detach()
    return loss / (tgt != PAD).sum()


def run_epoch(model, opt, batches, tf_ratio, two_pass):
    total = 0.0
    count = 0
    for src, tgt in batches:
        if two_pass:
            mix = draft(model, src, tgt.shape[1])
            loss = loss_on(model, src, tgt, tf_ratio, mix=mix)
        else:
            loss = loss_on(model, src, tgt, tf_ratio)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * src.shape[0]
        count += src.shape[0]
    return total / count
