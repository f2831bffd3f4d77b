# corpus: runnable
# Red team 28, wave 1 (blind): a bag-of-tokens sentiment classifier trained from a dict of Python
# lists made with `.tolist()` of the tokenizer's padded output. Before training the columns are
# reworked in place: the padding is stripped from each example (`data["ids"]` becomes ragged, and
# every batch stays rectangular because batches are drawn from length buckets), and examples with
# a missing rating get the mean rating (a float in an int column).
import argparse
import random

import torch
from torch import nn

torch.set_num_threads(1)


class BagClassifier(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.head = nn.Linear(dim + 1, 2)

    def forward(self, ids, rating):
        return self.head(torch.cat([self.emb(ids), rating[:, None] / 5], dim=1))


def load(n, max_len, vocab, gen):
    ids = torch.randint(1, vocab, (n, max_len), generator=gen)
    lengths = torch.randint(2, 5, (n,), generator=gen)
    ids[torch.arange(max_len)[None, :] >= lengths[:, None]] = 0
    rating = torch.randint(0, 6, (n,), generator=gen)
    label = (ids.sum(1) % 2 == 0).long()
    return ids, lengths, rating, label


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    ids, lengths, rating, label = load(args.n, args.max_len, args.vocab, gen)
    data = {"ids": ids.tolist(), "len": lengths.tolist(), "rating": rating.tolist(), "label": label.tolist()}
    data["ids"] = [row[:n] for row, n in zip(data["ids"], data["len"])]
    known = [r for r in data["rating"] if r > 0]
    mean_rating = sum(known) / len(known)
    data["rating"] = [r if r > 0 else mean_rating for r in data["rating"]]
    buckets = {}
    for i, n in enumerate(data["len"]):
        buckets.setdefault(n, []).append(i)
    batches = [b[j:j + args.batch] for _, b in sorted(buckets.items()) for j in range(0, len(b), args.batch)]
    model = BagClassifier(args.vocab, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    log = []
    for epoch in range(args.epochs):
        random.shuffle(batches)
        total, correct = 0.0, 0
        for idx in batches:
            x = torch.tensor([data["ids"][i] for i in idx])
            r = torch.tensor([data["rating"][i] for i in idx])
            y = torch.tensor([data["label"][i] for i in idx])
            logits = model(x, r.float())
            loss = nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
            correct += (logits.argmax(1) == y).sum().item()
        log.append((round(total / args.n, 5), correct))
    return model, log


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=120)
    parser.add_argument("--max-len", type=int, default=6)
    parser.add_argument("--vocab", type=int, default=30)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2802)
    args = parser.parse_args([])
    model, log = train(args)
    print("log", log)
    print("weights", round(sum(p.double().sum().item() for p in model.parameters()), 6))


if __name__ == "__main__":
    main()
