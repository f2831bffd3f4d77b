"""Synthetic documents of token ids, and a vocabulary of the ids actually seen."""
import torch


def make_docs(n, vocab, gen):
    docs, labels = [], []
    for _ in range(n):
        length = int(torch.randint(3, 15, (1,), generator=gen))
        doc = torch.randint(1, vocab, (length,), generator=gen)
        docs.append(doc)
        labels.append(int((doc < vocab // 3).sum() * 2 > length))
    return docs, labels


def seen_ids(docs):
    seen = set()
    for d in docs:
        seen.update(d.tolist())
    return {tok: i for i, tok in enumerate(sorted(seen))}
