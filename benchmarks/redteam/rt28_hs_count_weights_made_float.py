# corpus: runnable
# Red team 28, wave 1 (blind): a skip-gram word2vec trainer with negative sampling and an
# inverse-sqrt class-balanced tagger head. Running `.item()` totals of values computed from integer
# counts by ops that promote to float: the unigram noise mass `counts[ctx].pow(0.75)`, the
# class weight `freq.clamp(min=1).pow(-0.5)`, a floor on hit counts `torch.clamp(hits, min=0.3)`
# and `torch.maximum` of counts with a float tensor. Each total starts as the int 0.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


def make_corpus(n_tokens, vocab, gen):
    zipf = 1.0 / torch.arange(1, vocab + 1, dtype=torch.float32)
    tokens = torch.multinomial(zipf / zipf.sum(), n_tokens, replacement=True, generator=gen)
    tags = tokens % 3
    return tokens, tags


class SkipGram(nn.Module):
    def __init__(self, vocab, dim, n_tags):
        super().__init__()
        self.inp = nn.Embedding(vocab, dim)
        self.out = nn.Embedding(vocab, dim)
        self.tagger = nn.Linear(dim, n_tags)

    def forward(self, center, ctx, neg):
        v = self.inp(center)
        pos = (v * self.out(ctx)).sum(-1)
        negs = torch.bmm(self.out(neg), v.unsqueeze(-1)).squeeze(-1)
        return pos, negs, self.tagger(v)


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)
    tokens, tags = make_corpus(args.tokens, args.vocab, gen)
    counts = (tokens[:, None] == torch.arange(args.vocab)).sum(0)
    freq = (tags[:, None] == torch.arange(3)).sum(0)
    class_w = freq.clamp(min=1).pow(-0.5)
    noise = counts.pow(0.75)
    noise = noise / noise.sum()
    model = SkipGram(args.vocab, args.dim, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    floor = torch.full((3,), 2.3)
    noise_mass = 0
    weight_sum = 0
    hit_floor = 0
    capped = 0
    history = []
    for epoch in range(args.epochs):
        perm = torch.randperm(args.tokens - 2, generator=gen) + 1
        for start in range(0, len(perm), args.batch):
            center_idx = perm[start:start + args.batch]
            center = tokens[center_idx]
            ctx = tokens[center_idx + 1]
            neg = torch.multinomial(noise, len(center) * args.negatives, replacement=True, generator=gen)
            neg = neg.view(len(center), args.negatives)
            pos, negs, tag_logits = model(center, ctx, neg)
            y = tags[center_idx]
            w = class_w[y]
            sg_loss = -(nn.functional.logsigmoid(pos).mean() + nn.functional.logsigmoid(-negs).mean())
            tag_loss = (nn.functional.cross_entropy(tag_logits, y, reduction="none") * w).mean()
            loss = sg_loss + tag_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            hits = (tag_logits.argmax(1)[:, None] == torch.arange(3)).sum(0)
            noise_mass += counts[ctx].pow(0.75).sum().item()
            weight_sum += class_w[y].sum().item()
            hit_floor += torch.clamp(hits, min=0.3).sum().item()
            capped += torch.maximum(hits, floor).sum().item()
        history.append(round(loss.item(), 5))
    return noise_mass, weight_sum, hit_floor, capped, history


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens", type=int, default=600)
    parser.add_argument("--vocab", type=int, default=40)
    parser.add_argument("--dim", type=int, default=8)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--negatives", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2801)
    args = parser.parse_args([])
    noise_mass, weight_sum, hit_floor, capped, history = train(args)
    print("noise mass", repr(noise_mass), type(noise_mass).__name__)
    print("class weight sum", repr(weight_sum), type(weight_sum).__name__)
    print("hit floor", repr(hit_floor), type(hit_floor).__name__)
    print("capped hits", repr(capped), type(capped).__name__)
    print("history", history)


if __name__ == "__main__":
    main()
