"""Greedy decoding with an EOS stop and exact-match scoring."""
import torch

from data import BOS, EOS, translate


@torch.no_grad()
def greedy(model, src, max_len):
    was_training = model.training
    model.eval()
    h = model.encode(src)
    ctx = torch.zeros_like(h)
    tok = torch.full((src.shape[0],), BOS, dtype=torch.long, device=src.device)
    out = []
    done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
    for t in range(max_len):
        logits, h, ctx = model.step(tok, h, ctx)
        tok = logits.argmax(-1)
        out.append(tok)
        done = done | (tok == EOS)
        if done.all():
            break
    model.train(was_training)
    return torch.stack(out, 1)


def exact_match(model, pairs, device, collate):
    src, _ = collate(pairs)
    pred = greedy(model, src.to(device), src.shape[1]).tolist()
    hits = 0
    for (s, _), p in zip(pairs, pred):
        cut = p.index(EOS) if EOS in p else len(p)
        hits += int(p[:cut] == translate(s))
    return hits / len(pairs)
