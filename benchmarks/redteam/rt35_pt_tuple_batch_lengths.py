# corpus: runnable
# Red team 35 (blind): a bag-of-embeddings text classifier over variable-length sequences. The
# collate function pads each batch and returns a small tuple type that also carries the true
# lengths (unpacks like `(tokens, labels)`, `batch.lengths` for the mask). Two loader workers.
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)
VOCAB, PAD = 50, 0


class PaddedBatch(tuple):
    """`(tokens, labels)` with the unpadded `lengths` kept as an attribute."""

    def __new__(cls, tokens, labels, lengths):
        self = super().__new__(cls, (tokens, labels))
        self.lengths = lengths
        return self

    def __reduce__(self):  # worker processes send batches back pickled
        return PaddedBatch, (self[0], self[1], self.lengths)


class Sentences(Dataset):
    def __init__(self, n=96):
        g = torch.Generator().manual_seed(11)
        self.items = []
        for _ in range(n):
            length = int(torch.randint(3, 12, (1,), generator=g))
            toks = torch.randint(1, VOCAB, (length,), generator=g)
            self.items.append((toks, int(toks.float().mean() > VOCAB / 2)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad_collate(rows):
    lengths = torch.tensor([len(t) for t, _ in rows])
    tokens = torch.full((len(rows), int(lengths.max())), PAD, dtype=torch.long)
    for k, (t, _) in enumerate(rows):
        tokens[k, : len(t)] = t
    labels = torch.tensor([lab for _, lab in rows])
    return PaddedBatch(tokens, labels, lengths)


class MeanBag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16, padding_idx=PAD)
        self.out = nn.Linear(16, 2)

    def forward(self, tokens, lengths):
        summed = self.emb(tokens).sum(1)
        return self.out(summed / lengths.unsqueeze(1).float())


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(Sentences(), batch_size=16, shuffle=False, collate_fn=pad_collate, num_workers=2)  # paef: refuse pageable-transfer
    model = MeanBag().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for epoch in range(3):
        total = 0.0
        for batch in loader:
            tokens, labels = batch
            tokens, labels = tokens.to(device), labels.to(device)
            lengths = batch.lengths.to(device)
            loss = nn.functional.cross_entropy(model(tokens, lengths), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss)
        print(f"epoch {epoch}: mean loss {total / len(loader):.6f}")


if __name__ == "__main__":
    main()
