# corpus: runnable
# Red team 28, wave 2 (blind): n-step-free DQN over a batch of vectorised corridor environments.
# Each step appends one row per field to Python-list columns with `.tolist()`: positions scaled to
# [-1, 1] (float), alive flags `dones.logical_not() * 1` (a bool tensor times a Python int is
# int64: `1 - alive` is used as the done mask), and a count bonus `torch.pow(visits[pos], -0.5)` (an
# int64 count to a float power is float32). Sampled rows are rebuilt with `torch.tensor([...])`.
import argparse
import random

import torch
from torch import nn

torch.set_num_threads(1)
LENGTH = 6


def step(pos, actions):
    moved = (pos + actions * 2 - 1).clamp(0, LENGTH - 1)
    dones = moved == LENGTH - 1
    rewards = dones.float() - 0.05
    return moved, rewards, dones


def train(args):
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    q = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    target_q = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    target_q.load_state_dict(q.state_dict())
    opt = torch.optim.Adam(q.parameters(), lr=0.01)
    visits = torch.ones(LENGTH, dtype=torch.long)
    pos = torch.zeros(args.envs, dtype=torch.long)
    obs_col = []
    next_col = []
    alive_col = []
    bonus_col = []
    act_col = []
    rew_col = []
    losses = []
    for t in range(args.steps):
        obs = pos.float() / (LENGTH - 1) * 2 - 1
        with torch.no_grad():
            greedy = q(torch.stack([obs, obs.abs()], 1)).argmax(1)
        explore = torch.rand(args.envs) < args.eps
        actions = torch.where(explore, torch.randint(0, 2, (args.envs,)), greedy)
        nxt, rewards, dones = step(pos, actions)
        visits += torch.bincount(nxt, minlength=LENGTH)
        alive = dones.logical_not() * 1
        bonus = torch.pow(visits[nxt], -0.5)
        next_obs = nxt.float() / (LENGTH - 1) * 2 - 1
        obs_col.append(obs.tolist())
        next_col.append(next_obs.tolist())
        alive_col.append(alive.tolist())
        bonus_col.append(bonus.tolist())
        act_col.append(actions.tolist())
        rew_col.append(rewards.tolist())
        pos = torch.where(dones, torch.zeros_like(nxt), nxt)
        if len(obs_col) < 4:
            continue
        idx = random.sample(range(len(obs_col)), 4)
        o = torch.tensor([obs_col[i] for i in idx]).flatten()
        o2 = torch.tensor([next_col[i] for i in idx]).flatten()
        al = torch.tensor([alive_col[i] for i in idx]).flatten()
        bo = torch.tensor([bonus_col[i] for i in idx]).flatten()
        a = torch.tensor([act_col[i] for i in idx]).flatten()
        r = torch.tensor([rew_col[i] for i in idx]).flatten()
        with torch.no_grad():
            nq = target_q(torch.stack([o2, o2.abs()], 1)).max(1).values
        done_mask = 1 - al
        target = r + args.beta * bo + args.gamma * nq * (1 - done_mask)
        pred = q(torch.stack([o, o.abs()], 1)).gather(1, a[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if t % 10 == 0:
            target_q.load_state_dict(q.state_dict())
        losses.append(round(loss.item(), 6))
    return q, visits, losses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--eps", type=float, default=0.3)
    parser.add_argument("--beta", type=float, default=0.2)
    parser.add_argument("--gamma", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=2806)
    args = parser.parse_args([])
    q, visits, losses = train(args)
    print("visits", visits.tolist())
    print("losses", losses[:3], losses[-3:], round(sum(losses), 5))
    print("weights", round(sum(p.double().sum().item() for p in q.parameters()), 6))


if __name__ == "__main__":
    main()
