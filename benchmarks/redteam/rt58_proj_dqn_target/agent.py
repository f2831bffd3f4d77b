import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def qnet(n_states, n_actions):
    return nn.Sequential(nn.Embedding(n_states, 16), nn.ReLU(), nn.Linear(16, n_actions))


class Agent:
    def __init__(self, n_states, n_actions, device, sync_every):
        self.online = qnet(n_states, n_actions).to(device)
        self.target = copy.deepcopy(self.online)
        self.opt = torch.optim.Adam(self.online.parameters(), lr=5e-3)
        self.device = device
        self.sync_every = sync_every
        self.updates = 0
        self.n_actions = n_actions

    def act(self, s, eps, rng):
        if rng.random() < eps:
            return rng.randrange(self.n_actions)
        q = self.online(torch.tensor([s], device=self.device))
        return int(q.argmax(1).item())

    def learn(self, batch, gamma):
        s, a, r, s2, d = batch
        self.online.eval()
        q_both = self.online(torch.cat([s, s2]))
        q_s, q_s2 = q_both.split(s.shape[0])
        next_a = q_s2.argmax(1, keepdim=True)
        self.online.train()
        self.target.eval()
        q_next = self.target(s2).gather(1, next_a).squeeze(1)
        y = r + gamma * (1 - d) * q_next
        loss = F.smooth_l1_loss(q_s.gather(1, a[:, None]).squeeze(1), y.detach())
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.target.load_state_dict(self.online.state_dict())
        return loss.item()


class Replay:
    def __init__(self, cap, seed):
        self.items = []
        self.cap = cap
        self.rng = random.Random(seed)

    def push(self, *rec):
        self.items.append(rec)
        if len(self.items) > self.cap:
            self.items.pop(0)

    def sample(self, k, device):
        recs = self.rng.sample(self.items, k)
        s, a, r, s2, d = zip(*recs)
        return (torch.tensor(s, device=device), torch.tensor(a, device=device),
                torch.tensor(r, dtype=torch.float32, device=device), torch.tensor(s2, device=device),
                torch.tensor(d, dtype=torch.float32, device=device))
