# corpus: runnable
# Red team 54 (blind): a bag-of-tokens classifier over length-bucketed batches. Buckets come from
# unique_consecutive counts, EmbeddingBag takes flat ids and offsets built in Python, the token total counted
# with .item() sizes a buffer after the epoch, per-length statistics are keyed by int lengths, and the
# hardest documents are ranked with sorted(key=) over a loss tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F

from batching import bucket_batches, flatten
from vocab import make_docs, seen_ids

torch.manual_seed(5409)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = torch.Generator().manual_seed(549)
V = 30
docs, labels = make_docs(90, V, gen)
remap = seen_ids(docs)
y_all = torch.tensor(labels)
batches = bucket_batches(docs, width=4, max_batch=16)
print('batches', len(batches), [len(b) for b in batches])

emb = nn.EmbeddingBag(len(remap), 12, mode='mean').to(device)
head = nn.Linear(12, 2).to(device)
opt = torch.optim.Adam(list(emb.parameters()) + list(head.parameters()), lr=0.05)
for epoch in range(6):
    n_tokens = 0
    total = 0.0
    for bi in torch.randperm(len(batches), generator=gen).tolist():
        ids = batches[bi]
        flat, offsets = flatten(docs, ids, remap)
        flat, offsets = flat.to(device), offsets.to(device)
        logits = head(emb(flat, offsets))
        loss = F.cross_entropy(logits, y_all[ids].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        n_tokens += torch.tensor(flat.shape).prod().item()
        total += loss.item()
    token_buf = torch.zeros(n_tokens)
    print('epoch', epoch, f'{total / len(batches):.8f}', n_tokens, token_buf.shape)

per_len = {}
doc_loss = torch.zeros(len(docs))
with torch.no_grad():
    for ids in batches:
        flat, offsets = flatten(docs, ids, remap)
        logits = head(emb(flat.to(device), offsets.to(device)))
        losses = F.cross_entropy(logits, y_all[ids].to(device), reduction='none')
        doc_loss[ids] = losses.cpu()
        for i, l in zip(ids, losses):
            per_len.setdefault(len(docs[i]), []).append(l.item())
hard = sorted(range(len(docs)), key=lambda i: doc_loss[i], reverse=True)[:5]
counts = torch.bincount(torch.tensor([len(d) for d in docs]))
pairs = {}
for i in hard:
    pairs[tuple(docs[i][:2].tolist())] = round(doc_loss[i].item(), 5)
print('per_len', {k: round(sum(v) / len(v), 5) for k, v in sorted(per_len.items())})
print('checksum', f'{doc_loss.sum().item():.8f}', hard, counts.tolist(), sorted(pairs.items()))
