# corpus: runnable
# Red team 31a, wave 1 (blind): DQN-style replay on a bandit-like chain. The behaviour policy is a
# module whose forward samples the action from a Categorical over its logits (exploration by
# sampling, not epsilon-greedy); the actions and states of each step are stored with `.tolist()`
# in per-field lists and sampled into tensors every batch; the Q-update gathers by the actions.
import argparse
import random

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical

torch.set_num_threads(1)
N_STATES, N_ACTIONS = 6, 3


class SamplingPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.logits = nn.Linear(N_STATES, N_ACTIONS)

    def forward(self, obs):
        return Categorical(logits=self.logits(obs)).sample()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=160)
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    policy = SamplingPolicy().to(device)
    q = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS)).to(device)
    opt = torch.optim.SGD(q.parameters(), lr=0.05)
    states, actions, rewards = [], [], []
    s = 0
    total = 0.0
    for t in range(args.steps):
        obs = F.one_hot(torch.tensor([s]), N_STATES).float().to(device)
        with torch.no_grad():
            a = policy(obs)
        r = torch.where(a == (s % N_ACTIONS), 1.0, -0.1)
        states.append(obs[0].tolist())
        actions.append(a.tolist())
        rewards.append(r.tolist())
        s = (s + int(a) + 1) % N_STATES
        if len(states) < args.bs:
            continue
        idx = random.sample(range(len(states)), args.bs)
        sb = torch.tensor([states[i] for i in idx], device=device)
        ab = torch.tensor([actions[i] for i in idx], device=device)
        rb = torch.tensor([rewards[i] for i in idx], device=device)
        qsa = q(sb).gather(1, ab).squeeze(1)
        loss = F.mse_loss(qsa, rb.squeeze(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"actions dtype {ab.dtype} total loss {total:.6f}")
    print("q checksum", round(sum(p.sum().item() for p in q.parameters()), 6))


if __name__ == "__main__":
    main()
