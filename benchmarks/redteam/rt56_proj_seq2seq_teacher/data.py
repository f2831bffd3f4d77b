"""Toy translation pairs: a digit string and its "translation" (each digit mapped, order reversed in pairs)."""
import torch

PAD, BOS, EOS = 0, 1, 2
V_SRC, V_TGT = 12, 12
MAX_T = 9


def translate(src):
    out = []
    for i in range(0, len(src) - 1, 2):
        out += [src[i + 1], src[i]]
    if len(src) % 2:
        out.append(src[-1])
    return [3 + (s - 3 + 4) % (V_TGT - 3) for s in out]


def make_pairs(n, gen):
    pairs = []
    for _ in range(n):
        L = int(torch.randint(2, 7, (1,), generator=gen))
        src = torch.randint(3, V_SRC, (L,), generator=gen).tolist()
        pairs.append((src, translate(src)))
    return pairs


def collate(pairs):
    n = len(pairs)
    src = torch.full((n, MAX_T), PAD)
    tgt = torch.full((n, MAX_T), PAD)
    for i, (s, t) in enumerate(pairs):
        src[i, :len(s)] = torch.tensor(s)
        tgt[i, :len(t) + 1] = torch.tensor(t + [EOS])
    return src, tgt
