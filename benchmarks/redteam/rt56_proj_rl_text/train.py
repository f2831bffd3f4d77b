"""REINFORCE with a clipped importance ratio (a PPO-like step) and a KL penalty towards the reference model."""
import torch

from policy import sequence_logprob
from reward import reward


def rl_round(policy, ref, opt, gen, device, state, n=24, max_len=10, inner=2, beta=0.05, clip=0.2):
    seqs = policy.sample(n, max_len, gen)
    rewards = torch.tensor([reward(s) for s in seqs], device=device)
    state['baseline'] = 0.9 * state['baseline'] + 0.1 * rewards.mean().item()
    adv = rewards - state['baseline']
    with torch.no_grad():
        old_lp = sequence_logprob(policy, seqs, device)
    ref_lp = sequence_logprob(ref, seqs, device).detach()
    losses = []
    for _ in range(inner):
        new_lp = sequence_logprob(policy, seqs, device)
        ratio = (new_lp - old_lp).exp()
        pg = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
        kl = (new_lp - ref_lp).mean()
        loss = pg + beta * kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return rewards, losses, seqs
