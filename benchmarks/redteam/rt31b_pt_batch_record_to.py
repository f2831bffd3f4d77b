# corpus: runnable
# Red team 31b, wave 1 (blind): a sequence-tagging script that wraps each collated batch in its
# own small record class (named fields, a `to(device)` of its own, as many repos write one) before
# moving it; the loader has worker processes.
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Batch:
    def __init__(self, tokens, tags, mask):
        self.tokens, self.tags, self.mask = tokens, tags, mask

    def to(self, device):
        return Batch(self.tokens.to(device), self.tags.to(device), self.mask.to(device))

    def __len__(self):
        return self.tokens.size(0)


class Tagger(nn.Module):
    def __init__(self, vocab, dim, ntags):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, ntags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    torch.manual_seed(0)
    tokens = torch.randint(1, 50, (96, 10))
    lengths = torch.randint(4, 11, (96,))
    mask = torch.arange(10)[None, :] < lengths[:, None]
    tokens = tokens * mask
    tags = (tokens % 5) * mask
    loader = DataLoader(TensorDataset(tokens, tags, mask), batch_size=16, num_workers=args.workers)
    model = Tagger(50, 24, 5).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        total = 0.0
        for batch in loader:
            batch = Batch(*batch)
            batch = batch.to(device)
            logits = model(batch.tokens)
            loss = F.cross_entropy(logits[batch.mask], batch.tags[batch.mask])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(batch)
        print(f"epoch {epoch} loss {total / len(tokens):.6f}")


if __name__ == "__main__":
    main()
