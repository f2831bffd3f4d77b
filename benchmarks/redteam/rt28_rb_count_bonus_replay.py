# corpus: runnable
# Red team 28, wave 1 (blind): a count-based-exploration DQN on a 4x4 grid world. The replay buffer
# keeps one Python list per field, each filled with `.tolist()` of a tensor whose dtype comes from
# type promotion: the exploration bonus of the four next cells `visits[nbrs].pow(-0.5)` (an int64
# count raised to a float power is float32), how many coordinates of each next cell match the goal
# `torch.sum(coords[nbrs] == goal, dim=1)` (a sum of bools is int64) and the one-hot position
# `(cells == pos) * 1` (a bool tensor times a Python int is int64).
import argparse
import random

import torch
from torch import nn

torch.set_num_threads(1)

SIDE = 4
N_CELLS = SIDE * SIDE
ACTIONS = 4
GOAL = (3, 3)


def neighbours(pos):
    r, c = divmod(pos, SIDE)
    return [max(r - 1, 0) * SIDE + c, min(r + 1, SIDE - 1) * SIDE + c,
            r * SIDE + max(c - 1, 0), r * SIDE + min(c + 1, SIDE - 1)]


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_CELLS + 2 * ACTIONS, 32), nn.ReLU(), nn.Linear(32, ACTIONS))

    def forward(self, x):
        return self.body(x)


def train(args):
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    q = QNet()
    opt = torch.optim.SGD(q.parameters(), lr=0.05)
    cells = torch.arange(N_CELLS)
    coords = torch.stack([cells // SIDE, cells % SIDE], dim=1)
    goal = torch.tensor(GOAL)
    visits = torch.ones(N_CELLS, dtype=torch.long)
    obs_buf = []
    bonus_buf = []
    match_buf = []
    act_buf = []
    rew_buf = []
    pos = 0
    losses = []
    for step in range(args.steps):
        nbrs = torch.tensor(neighbours(pos))
        onehot = (cells == pos) * 1
        bonus = visits[nbrs].pow(-0.5)
        match = torch.sum(coords[nbrs] == goal, dim=1)
        with torch.no_grad():
            x = torch.cat([onehot.float(), bonus.clamp(max=1.0), match.float() / 2])
            qv = q(x)
        action = random.randrange(ACTIONS) if random.random() < args.eps else int(qv.argmax())
        nxt = neighbours(pos)[action]
        visits[nxt] += 1
        reward = 1.0 if divmod(nxt, SIDE) == GOAL else -0.01
        obs_buf.append(onehot.tolist())
        bonus_buf.append(bonus.tolist())
        match_buf.append(match.tolist())
        act_buf.append(action)
        rew_buf.append(reward)
        pos = 0 if reward > 0 else nxt
        if len(act_buf) < args.batch:
            continue
        idx = random.sample(range(len(act_buf)), args.batch)
        ob = torch.tensor([obs_buf[i] for i in idx])
        bo = torch.tensor([bonus_buf[i] for i in idx])
        mt = torch.tensor([match_buf[i] for i in idx])
        a = torch.tensor([act_buf[i] for i in idx])
        r = torch.tensor([rew_buf[i] for i in idx])
        where = ob.argmax(1)
        intrinsic = args.beta * bo.gather(1, a[:, None]).squeeze(1)
        inputs = torch.cat([ob.float(), bo.float().clamp(max=1.0), mt.float() / 2], dim=1)
        pred = q(inputs).gather(1, a[:, None]).squeeze(1)
        target = r + intrinsic + 0.1 * (where == N_CELLS - 1).float()
        loss = nn.functional.mse_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 6))
    return q, visits, losses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=240)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--eps", type=float, default=0.3)
    parser.add_argument("--beta", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args([])
    q, visits, losses = train(args)
    print("visits", visits.tolist())
    print("losses", losses[:3], losses[-3:], round(sum(losses), 5))
    print("weights", round(sum(p.double().sum().item() for p in q.parameters()), 6))


if __name__ == "__main__":
    main()
