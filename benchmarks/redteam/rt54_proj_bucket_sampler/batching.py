"""Length-bucketed batches: documents sorted by length, cut where the bucket changes."""
import torch


def bucket_batches(docs, width, max_batch):
    lengths = torch.tensor([len(d) for d in docs])
    order = sorted(range(len(docs)), key=lambda i: lengths[i])
    bucket = lengths[order] // width
    _, per_bucket = torch.unique_consecutive(bucket, return_counts=True)
    batches = []
    start = 0
    for n in per_bucket.tolist():
        ids = order[start:start + n]
        for b in range(0, n, max_batch):
            batches.append(ids[b:b + max_batch])
        start += n
    return batches


def flatten(docs, ids, remap):
    flat, offsets = [], []
    pos = 0
    for i in ids:
        offsets.append(pos)
        toks = [remap[t] for t in docs[i].tolist()]
        flat.extend(toks)
        pos += len(toks)
    return torch.tensor(flat), torch.tensor(offsets)
