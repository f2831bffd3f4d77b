# corpus: runnable
# Text-classification preprocessing in the loop: a vocabulary dict of lists read per batch, a
# tokenizer function re-run on the same constant prompt each step, a NumPy class-weight table
# recomputed from the label counts (which a sampler callback changes), and a `collate_fn` class
# with state.
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

vocab = {"ids": [3, 1, 4, 1, 5, 9, 2, 6], "freq": [5, 3, 2, 2, 1, 1, 1, 1]}
label_counts = [4, 2, 2]


def tokenize(text, table):
    return [table["ids"][ord(c) % len(table["ids"])] for c in text]


def class_weights(counts):
    arr = np.asarray(counts, dtype=np.float64)
    return (arr.sum() / (len(arr) * arr)).astype(np.float32)


class Collate:
    def __init__(self):
        self.max_len = 0

    def __call__(self, texts):
        toks = [tokenize(t, vocab) for t in texts]
        self.max_len = max(self.max_len, max(len(t) for t in toks))
        return torch.tensor([t + [0] * (self.max_len - len(t)) for t in toks])


emb = nn.EmbeddingBag(10, 4, mode="mean").to(device)
head = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.1)
collate = Collate()
batches = [["abc", "hello", "xy"], ["torch", "pt"], ["a", "bb", "ccc", "dddd"]]
labels = [torch.tensor([0, 1, 2]), torch.tensor([1, 0]), torch.tensor([2, 2, 0, 1])]

for epoch in range(2):
    for texts, y in zip(batches, labels):
        ids = collate(texts).to(device)
        prompt = torch.tensor(tokenize("prompt", vocab), device=device)
        freq = torch.tensor(vocab["freq"], dtype=torch.float32, device=device)
        w = torch.from_numpy(class_weights(label_counts)).to(device)
        logits = head(emb(ids) + emb(prompt[None]) * 0.1) * (1 + freq.mean() * 0)
        loss = nn.functional.cross_entropy(logits, y.to(device), weight=w)
        opt.zero_grad()
        loss.backward()
        opt.step()
        label_counts[int(y[0])] += 1
        vocab["freq"].append(1)
        print(epoch, round(loss.item(), 6), ids.shape, w.tolist())
