# corpus: runnable
# Red team 30a, wave 1 (blind): DQN on a tiny grid world whose observation is the map of cell codes
# (uint8: 0 floor, 1 wall, 2 goal, 3 agent), downsampled with nearest-neighbour `F.interpolate` (it
# keeps uint8) and stored in a replay buffer as Python lists; the Q-network embeds the cell codes.
import argparse
import random

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
SIZE = 8


class QNet(nn.Module):
    def __init__(self, cells):
        super().__init__()
        self.emb = nn.Embedding(4, 3)
        self.fc = nn.Sequential(nn.Linear(cells * 3, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, codes):
        return self.fc(self.emb(codes).flatten(1))


def render(walls, agent, goal):
    grid = walls.clone()
    grid[goal] = 2
    grid[agent] = 3
    return grid


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=120)
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    walls = (torch.rand(SIZE, SIZE) < 0.15).to(torch.uint8)
    goal = (SIZE - 1, SIZE - 1)
    q = QNet((SIZE // 2) ** 2)
    opt = torch.optim.Adam(q.parameters(), lr=0.01)
    moves = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    obs_buf, act_buf, rew_buf, next_buf = [], [], [], []
    agent = (0, 0)
    losses = []
    for t in range(args.steps):
        small = F.interpolate(render(walls, agent, goal)[None, None], size=(SIZE // 2, SIZE // 2))[0, 0]
        a = random.randrange(4)
        nxt = (min(max(agent[0] + moves[a][0], 0), SIZE - 1), min(max(agent[1] + moves[a][1], 0), SIZE - 1))
        r = 1.0 if nxt == goal else -0.01
        agent = (0, 0) if nxt == goal else nxt
        small_next = F.interpolate(render(walls, agent, goal)[None, None], size=(SIZE // 2, SIZE // 2))[0, 0]
        obs_buf.append(small.flatten().tolist())
        next_buf.append(small_next.flatten().tolist())
        act_buf.append(a)
        rew_buf.append(r)
        if len(obs_buf) < args.bs:
            continue
        idx = random.sample(range(len(obs_buf)), args.bs)
        o = torch.tensor([obs_buf[i] for i in idx])
        o2 = torch.tensor([next_buf[i] for i in idx])
        acts = torch.tensor([act_buf[i] for i in idx])
        rews = torch.tensor([rew_buf[i] for i in idx])
        with torch.no_grad():
            target = rews + 0.9 * q(o2).max(1).values
        pred = q(o).gather(1, acts[:, None]).squeeze(1)
        loss = F.mse_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print("loss", round(sum(losses[-20:]), 6), "steps", len(losses))


if __name__ == "__main__":
    main()
