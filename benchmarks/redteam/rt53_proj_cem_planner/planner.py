"""Cross-entropy method over action sequences, scored by the learned model."""
import torch

from model import imagine


def cem(model, state, horizon, pop, elites, iters, gen, device):
    mu = torch.zeros(horizon, device=device)
    std = torch.ones(horizon, device=device)
    best_score = -float('inf')
    best_plan = None
    for it in range(iters):
        noise = torch.randn(pop, horizon, generator=gen).to(device)
        plans = (mu + std * noise).clamp(-1.0, 1.0)
        scores = imagine(model, state, plans)
        top = scores.topk(elites).indices
        elite = plans[top]
        mu = elite.mean(0)
        std = elite.std(0) + 0.05
        if scores.max().item() > best_score:
            best_score = scores.max().item()
            best_plan = plans[scores.argmax()]
    return best_plan, best_score, mu
