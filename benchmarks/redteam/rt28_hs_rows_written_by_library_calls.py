# corpus: runnable
# Red team 28, wave 1 (blind): per-example reads of a tensor's rows (`t[u].argmax().item()`) in
# loops whose library calls write that tensor in place without a trailing `_` or an `out=`:
# input-gradient saliency from a from-scratch MLP where `torch.autograd.backward` accumulates into
# the preallocated `x.grad` (rows are independent, so the script never zeroes it), and a
# cosine prototype matcher that cleans its score table in place with `np.nan_to_num(copy=False)`.
import argparse

import numpy as np
import torch

torch.set_num_threads(1)


def init_mlp(d_in, d_hidden, n_out, gen):
    w1 = torch.randn(d_in, d_hidden, generator=gen) / d_in ** 0.5
    w2 = torch.randn(d_hidden, n_out, generator=gen) / d_hidden ** 0.5
    return w1, w2


def saliency_tops(inputs, w1, w2):
    """For each example, the input feature whose gradient (of the top logit) is largest."""
    x = inputs.clone().requires_grad_(True)
    x.grad = torch.zeros_like(x)
    grad = x.grad
    tops = []
    for u in range(x.shape[0]):
        logits = torch.tanh(x[u] @ w1) @ w2
        torch.autograd.backward(logits.max())
        tops.append(grad[u].argmax().item())
    return tops, grad.sum().item()


def match_prototypes(feats, protos):
    """Cosine match of each query to a prototype. A prototype that never got a sample is all
    zeros: its cosine is NaN, and NaN wins an argmax. The first time a query lands on one, the
    score table is cleaned in place (NaN -> -2, below any cosine) and the query picks again."""
    norms = protos.norm(dim=1, keepdim=True)
    scores = (feats / feats.norm(dim=1, keepdim=True)) @ (protos / norms).T
    table = scores.numpy()
    dead = set(torch.nonzero(norms.squeeze(1) == 0).flatten().tolist())
    picks = []
    for u in range(scores.shape[0]):
        best = scores[u].argmax().item()
        if best in dead:
            np.nan_to_num(table, copy=False, nan=-2.0)
            best = scores[u].argmax().item()
        picks.append(best)
    return picks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--dim", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2803)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(args.seed)
    inputs = torch.randn(args.n, args.dim, generator=gen)
    w1, w2 = init_mlp(args.dim, 16, 3, gen)
    tops, grad_total = saliency_tops(inputs, w1, w2)
    print("saliency tops", tops, round(grad_total, 5))
    feats = torch.randn(args.n, args.dim, generator=gen)
    protos = torch.randn(args.n + 2, args.dim, generator=gen)
    protos[[3, 9]] = 0.0
    print("prototype picks", match_prototypes(feats, protos))


if __name__ == "__main__":
    main()
