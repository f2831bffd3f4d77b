# corpus: runnable
"""Double DQN with prioritized experience replay (proportional variant, a NumPy sum tree) on a
stub corridor environment: transitions are stored as NumPy arrays, sampled by priority with
importance-sampling weights annealed towards 1, and the new priorities come from the absolute
TD errors copied back to the host after each update. The target network is synced by steps."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_STATES, GAMMA, ALPHA, BATCH = 8, 0.95, 0.6, 32


class Corridor:
    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = np.zeros(N_STATES, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(N_STATES - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_STATES - 1
        return self._obs(), (1.0 if done else -0.01), done


class SumTree:
    def __init__(self, capacity):
        self.capacity = capacity
        self.tree = np.zeros(2 * capacity - 1)
        self.data = [None] * capacity
        self.write, self.n = 0, 0

    def total(self):
        return self.tree[0]

    def add(self, priority, item):
        idx = self.write + self.capacity - 1
        self.data[self.write] = item
        self.update(idx, priority)
        self.write = (self.write + 1) % self.capacity
        self.n = min(self.n + 1, self.capacity)

    def update(self, idx, priority):
        change = priority - self.tree[idx]
        self.tree[idx] = priority
        while idx != 0:
            idx = (idx - 1) // 2
            self.tree[idx] += change

    def get(self, s):
        idx = 0
        while 2 * idx + 1 < len(self.tree):
            left = 2 * idx + 1
            if s <= self.tree[left]:
                idx = left
            else:
                s -= self.tree[left]
                idx = left + 1
        return idx, self.tree[idx], self.data[idx - self.capacity + 1]


class PrioritizedReplay:
    def __init__(self, capacity):
        self.tree = SumTree(capacity)
        self.max_p = 1.0

    def push(self, transition):
        self.tree.add(self.max_p, transition)

    def sample(self, n, beta):
        segment = self.tree.total() / n
        idxs, prios, batch = [], [], []
        for i in range(n):
            idx, p, item = self.tree.get(random.uniform(segment * i, segment * (i + 1)))
            idxs.append(idx)
            prios.append(p)
            batch.append(item)
        probs = np.array(prios) / self.tree.total()
        weights = (self.tree.n * probs) ** (-beta)
        s, a, r, s2, d = map(np.array, zip(*batch))  # paef: ok record-buffer
        return idxs, (weights / weights.max()).astype(np.float32), s, a, r.astype(np.float32), s2, d.astype(np.float32)

    def update_priorities(self, idxs, td_errors):
        for idx, err in zip(idxs, td_errors):
            p = (abs(err) + 1e-3) ** ALPHA
            self.tree.update(idx, p)
            self.max_p = max(self.max_p, p)


def q_net():
    return nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))


policy, target = q_net().to(device), q_net().to(device)
target.load_state_dict(policy.state_dict())
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
memory = PrioritizedReplay(512)
env = Corridor()
steps, returns = 0, []
for episode in range(30):
    state, done, ep_ret = env.reset(), False, 0.0
    for t in range(40):
        eps = max(0.05, 1.0 - steps / 300)
        if random.random() < eps:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                action = policy(torch.from_numpy(state).to(device)).argmax().item()  # paef: ok host-sync; ok pageable-transfer
        next_state, reward, done = env.step(action)
        memory.push((state, action, reward, next_state, done))
        state, ep_ret, steps = next_state, ep_ret + reward, steps + 1
        if memory.tree.n >= BATCH:
            idxs, w, s, a, r, s2, d = memory.sample(BATCH, beta=min(1.0, 0.4 + steps / 1000))
            s, s2 = torch.from_numpy(s).to(device), torch.from_numpy(s2).to(device)  # paef: ok pageable-transfer
            a = torch.from_numpy(a).to(device)  # paef: ok pageable-transfer
            r, d, w = torch.from_numpy(r).to(device), torch.from_numpy(d).to(device), torch.from_numpy(w).to(device)  # paef: ok pageable-transfer
            q = policy(s).gather(1, a.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                next_a = policy(s2).argmax(1, keepdim=True)
                q_target = r + GAMMA * (1 - d) * target(s2).gather(1, next_a).squeeze(1)
            td = q - q_target
            loss = (w * F.smooth_l1_loss(q, q_target, reduction="none")).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            memory.update_priorities(idxs, td.detach().cpu().numpy())  # paef: ok host-sync
        if steps % 50 == 0:
            target.load_state_dict(policy.state_dict())
        if done:
            break
    returns.append(ep_ret)
print(f"mean return last 10 episodes {np.mean(returns[-10:]):.3f} steps {steps}")
