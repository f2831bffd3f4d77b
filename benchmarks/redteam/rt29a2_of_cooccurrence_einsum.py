# corpus: runnable
# Red team 29a, wave 2 (blind): a word-embedding warm start from co-occurrence counts. Counts come
# from `torch.einsum` over int64 one-hot windows; a shifted count is squashed with a hand-written leaky
# ReLU and fed as the regression target (GloVe-like) after a cast.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


def cooccurrence(tokens, vocab, window):
    onehot = nn.functional.one_hot(tokens, vocab)
    left, right = onehot[:-window], onehot[window:]
    counts = torch.einsum("ti,tj->ij", left, right)
    shifted = counts - 1
    return torch.where(shifted > 0, shifted, 0.5 * shifted)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=12)
    parser.add_argument("--epochs", type=int, default=40)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(9)
    tokens = torch.randint(0, args.vocab, (400,), generator=gen)
    target = cooccurrence(tokens, args.vocab, 1).float() / 10
    torch.manual_seed(9)
    w = nn.Parameter(torch.randn(args.vocab, 4) * 0.1)
    c = nn.Parameter(torch.randn(args.vocab, 4) * 0.1)
    opt = torch.optim.Adam([w, c], lr=0.05)
    for epoch in range(args.epochs):
        loss = ((w @ c.t() - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"target sum {target.sum().item():.3f} fit {loss.item():.6f}")


if __name__ == "__main__":
    main()
