# corpus: runnable
"""A text classifier trained from a JSON export: the token ids and labels come back from
`json.loads` as lists of lists, and each step slices a batch out of them and converts it with
`torch.tensor` (every number a Python object walked on every step). Validation converts its
whole split once, outside the loop."""
import json
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
VOCAB, LEN, CLASSES = 200, 24, 4


def export(n):
    """What the preprocessing script wrote: one JSON document per split."""
    ids = [[random.randrange(1, VOCAB) for _ in range(LEN)] for _ in range(n)]
    labels = [sum(row) % CLASSES for row in ids]
    return json.dumps({"input_ids": ids, "labels": labels})


class BagOfEmbeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64)
        self.head = nn.Linear(64, CLASSES)

    def forward(self, ids):
        return self.head(self.emb(ids))


def main(batch_size=64, epochs=3):
    train = json.loads(export(1024))
    valid = json.loads(export(256))
    input_ids, labels = train["input_ids"], train["labels"]
    model = BagOfEmbeddings().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    val_x = torch.tensor(valid["input_ids"], device=device)
    val_y = torch.tensor(valid["labels"], device=device)
    for epoch in range(epochs):
        model.train()
        total = torch.zeros((), device=device)
        for start in range(0, len(input_ids), batch_size):
            x = torch.tensor(input_ids[start:start + batch_size], device=device)  # paef: expect dict-as-list
            y = torch.tensor(labels[start:start + batch_size], device=device)  # paef: expect dict-as-list
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        model.eval()
        with torch.no_grad():
            acc = (model(val_x).argmax(1) == val_y).float().mean()
        print(f"epoch {epoch} loss {(total / (len(input_ids) // batch_size)).item():.3f} acc {acc.item():.3f}")


if __name__ == "__main__":
    main()
