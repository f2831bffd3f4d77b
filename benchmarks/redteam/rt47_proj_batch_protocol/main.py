# corpus: runnable
# Red team 47 (blind): a text classifier whose collate returns a frozen dataclass batch with its own
# `pin_memory()` (which also counts how often it ran, in the batch's `meta` dict) and `to()`, a mask
# property rebuilt on every access and a `cached_property` token count. The loop reads `batch["labels"]`,
# `batch.meta` and builds per-step position weights. Everything observable is printed.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from batch import collate
from model import MeanPoolClassifier

torch.manual_seed(4)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
VOCAB = 20


def make_data(n, seed):
    rng = random.Random(seed)
    data = []
    for _ in range(n):
        length = rng.randint(2, 7)
        seq = [rng.randint(1, VOCAB - 1) for _ in range(length)]
        data.append((seq, int(sum(seq) % 2)))
    return data


train = DataLoader(make_data(40, 1), batch_size=8, shuffle=False, collate_fn=collate)
val = DataLoader(make_data(12, 2), batch_size=4, shuffle=False, collate_fn=collate)
model = MeanPoolClassifier(VOCAB, 12, 2).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)

for epoch in range(2):
    tokens_seen = 0
    pins = []
    for batch in train:
        pins.append(batch.meta.get("pinned", 0))
        batch = batch.to(device)
        pos_w = torch.linspace(1.0, 0.5, batch.tokens.size(1)).to(device)
        logits = model(batch)
        loss = F.cross_entropy(logits, batch["labels"])
        loss = loss * (pos_w * batch.mask.float()).sum() / batch.mask.float().sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tokens_seen += batch.n_tokens
    print("epoch", epoch, "loss %.10f" % loss.item(), "tokens", tokens_seen, "pins", pins)

model.eval()
correct = 0
with torch.no_grad():
    for batch in val:
        batch = batch.to(device)
        correct += (model(batch).argmax(1) == batch.labels).sum().item()
print("val correct", correct, "meta", batch.meta)
