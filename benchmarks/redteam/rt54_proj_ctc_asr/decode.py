"""Greedy CTC decoding and edit distance, on Python lists."""
import torch


def greedy_ctc(logp, in_lens):
    best = logp.argmax(-1).cpu()
    hyps = []
    for i in range(best.shape[0]):
        n = in_lens[i].item()
        prev = 0
        out = []
        for t in range(n):
            s = int(best[i, t])
            if s != prev and s != 0:
                out.append(s)
            prev = s
        hyps.append(out)
    return hyps


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(b)]


def split_targets(targets, tgt_lens):
    return [p.tolist() for p in torch.split(targets, tgt_lens.tolist())]
