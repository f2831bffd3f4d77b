# corpus: runnable
"""A BiLSTM tagger trained from a script that imports its data and engine modules."""
import argparse
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import TaggingDataset, build_vocab, pad_collate
from engine import evaluate, train_one_epoch


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size, n_tags, dim=24):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, n_tags)

    def forward(self, tokens):
        h, _ = self.lstm(self.emb(tokens))
        return self.out(h)


def synthetic_corpus(n, rng):
    words = ["john", "paris", "went", "to", "the", "acme", "city", "met", "mary", "in"]
    tag_of = {"john": "PER", "mary": "PER", "paris": "LOC", "city": "LOC", "acme": "ORG"}
    sents, tags = [], []
    for _ in range(n):
        sent = [rng.choice(words) for _ in range(rng.randint(3, 8))]
        sents.append(sent)
        tags.append([tag_of.get(w, "O") for w in sent])
    return sents, tags


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()
    rng = random.Random(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sents, tags = synthetic_corpus(200, rng)
    vocab = build_vocab(sents)
    tag2id = {t: i for i, t in enumerate(["O", "PER", "LOC", "ORG"])}
    train_ds = TaggingDataset(sents[:160], tags[:160], vocab, tag2id)
    dev_ds = TaggingDataset(sents[160:], tags[160:], vocab, tag2id)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, collate_fn=pad_collate)  # paef: ok pageable-transfer
    dev_loader = DataLoader(dev_ds, batch_size=40, collate_fn=pad_collate)  # paef: ok pageable-transfer
    model = BiLSTMTagger(len(vocab), len(tag2id)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, train_loader, optimizer, device)
        acc = evaluate(model, dev_loader, device)
        print(f"epoch {epoch} loss {loss.item():.4f} dev acc {acc:.4f}")


if __name__ == "__main__":
    main()
