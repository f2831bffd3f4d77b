# corpus: runnable
# Red team 30a, wave 2 (blind): DQN over a batch of small grid worlds stepped together (a vectorised
# environment). Observations are uint8 cell-code maps downsampled with nearest `F.interpolate` (uint8
# stays uint8); every field of a transition is stored with `.tolist()` in one Python-list column and
# sampled batches are rebuilt with `torch.tensor([...])`. The Q-network embeds the cell codes.
import argparse
import random

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
SIZE, ENVS = 8, 4
MOVES = torch.tensor([[0, 1], [1, 0], [0, -1], [-1, 0]])


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 2)
        self.fc = nn.Sequential(nn.Linear((SIZE // 2) ** 2 * 2, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, codes):
        return self.fc(self.emb(codes).flatten(1))


def observe(walls, pos):
    grids = walls.expand(ENVS, SIZE, SIZE).clone()
    grids[:, SIZE - 1, SIZE - 1] = 2
    grids[torch.arange(ENVS), pos[:, 0], pos[:, 1]] = 3
    return F.interpolate(grids[:, None], size=(SIZE // 2, SIZE // 2))[:, 0].flatten(1)


def train(args):
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    walls = (torch.rand(SIZE, SIZE) < 0.1).to(torch.uint8)
    q = QNet()
    opt = torch.optim.Adam(q.parameters(), lr=0.01)
    pos = torch.zeros(ENVS, 2, dtype=torch.long)
    obs_col, act_col, rew_col, next_col = [], [], [], []
    losses = []
    for t in range(args.steps):
        obs = observe(walls, pos)
        acts = torch.randint(0, 4, (ENVS,))
        pos = (pos + MOVES[acts]).clamp(0, SIZE - 1)
        done = (pos == SIZE - 1).all(1)
        rew = done.float() - 0.01
        pos[done] = 0
        nxt = observe(walls, pos)
        obs_col.append(obs.tolist())
        act_col.append(acts.tolist())
        rew_col.append(rew.tolist())
        next_col.append(nxt.tolist())
        if len(obs_col) < 8:
            continue
        idx = random.sample(range(len(obs_col)), 8)
        o = torch.tensor([obs_col[i] for i in idx]).flatten(0, 1)
        a = torch.tensor([act_col[i] for i in idx]).flatten()
        r = torch.tensor([rew_col[i] for i in idx]).flatten()
        o2 = torch.tensor([next_col[i] for i in idx]).flatten(0, 1)
        with torch.no_grad():
            target = r + 0.9 * q(o2).max(1).values
        loss = F.smooth_l1_loss(q(o).gather(1, a[:, None]).squeeze(1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print("loss", round(sum(losses[-10:]), 6), "updates", len(losses))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    train(p.parse_args())


if __name__ == "__main__":
    main()
