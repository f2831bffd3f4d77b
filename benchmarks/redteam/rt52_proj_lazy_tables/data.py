"""Variable-length copy-shift sequences: batches of different lengths each step."""
import torch


def make_batches(vocab, lengths, batch, gen):
    out = []
    for T in lengths:
        ids = torch.randint(1, vocab, (batch, T + 1), generator=gen)
        ids[:, 1:] = torch.where(torch.rand(batch, T, generator=gen) < 0.7, ids[:, :-1], ids[:, 1:])
        out.append(ids)
    return out
