# corpus: runnable
# Red team 28, wave 2 (blind): the device-placed version of a tagger trained on integer count
# features. Running `.item()` totals (starting as the int 0) of values computed from int64 counts
# by ops that promote to float: `counts[y].pow(0.75)`, `freq.clamp(min=1).pow(-0.5)`,
# `torch.clamp(hits, min=0.3)`, `hits.where(hits > 0, 0.25)`; then per-example reads of rows
# (`grad[u].argmax().item()`) of an input gradient that `torch.autograd.backward` accumulates into.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Tagger(nn.Module):
    def __init__(self, vocab, dim, n_tags):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        return self.head(self.emb(tokens))


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)
    tokens = torch.randint(0, args.vocab, (args.n,), generator=gen).to(device)
    tags = (tokens * 7 % 3).to(device)
    counts = (tokens[:, None] == torch.arange(args.vocab, device=device)).sum(0)
    freq = (tags[:, None] == torch.arange(3, device=device)).sum(0)
    class_w = freq.clamp(min=1).pow(-0.5)
    model = Tagger(args.vocab, 8, 3).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    noise_mass = 0
    weight_sum = 0
    hit_floor = 0
    soft_hits = 0
    losses = []
    for epoch in range(args.epochs):
        perm = torch.randperm(args.n, generator=gen).to(device)
        for start in range(0, args.n, args.batch):
            idx = perm[start:start + args.batch]
            x, y = tokens[idx], tags[idx]
            logits = model(x)
            loss = (nn.functional.cross_entropy(logits, y, reduction="none") * class_w[y]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            hits = (logits.argmax(1)[:, None] == torch.arange(3, device=device)).sum(0)
            noise_mass += counts[x].pow(0.75).sum().item()
            weight_sum += class_w[y].sum().item()
            hit_floor += torch.clamp(hits, min=0.3).sum().item()
            soft_hits += hits.where(hits > 0, 0.25).sum().item()
        losses.append(round(loss.item(), 5))
    return model, (noise_mass, weight_sum, hit_floor, soft_hits), losses


def saliency_tops(model, tokens):
    """For each example, the embedding coordinate with the largest input gradient of its top logit."""
    x = model.emb(tokens).detach().requires_grad_(True)
    w, b = model.head.weight.detach(), model.head.bias.detach()
    x.grad = torch.zeros_like(x)
    grad = x.grad
    tops = []
    for u in range(x.shape[0]):
        torch.autograd.backward((x[u] @ w.T + b).max())
        tops.append(grad[u].argmax().item())
    return tops


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--vocab", type=int, default=30)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2804)
    args = parser.parse_args([])
    model, totals, losses = train(args)
    for name, value in zip(("noise mass", "class weight sum", "hit floor", "soft hits"), totals):
        print(name, repr(value), type(value).__name__)
    print("losses", losses)
    print("saliency", saliency_tops(model, torch.arange(10, device=device)))


if __name__ == "__main__":
    main()
