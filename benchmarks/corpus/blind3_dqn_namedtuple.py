# corpus: runnable
"""DQN after the official tutorial: a namedtuple Transition, a deque ReplayMemory, epsilon
decay, a target network updated by soft (Polyak) averaging, Huber loss, non-final mask."""
import math
import random
from collections import deque, namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))


class ChainEnv:
    """Five states in a chain; action 1 moves right (reward at the end), 0 resets left."""

    def reset(self):
        self.s, self.t = 0, 0
        return self.obs()

    def obs(self):
        return np.eye(5, dtype=np.float32)[self.s]

    def step(self, a):
        self.t += 1
        self.s = min(self.s + 1, 4) if a == 1 else 0
        reward = 1.0 if self.s == 4 else 0.0
        terminated = self.s == 4
        return self.obs(), reward, terminated, self.t >= 12


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)  # paef: expect record-buffer

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_obs, n_actions):
        super().__init__()
        self.layer1, self.layer2, self.layer3 = nn.Linear(n_obs, 64), nn.Linear(64, 64), nn.Linear(64, n_actions)

    def forward(self, x):
        return self.layer3(F.relu(self.layer2(F.relu(self.layer1(x)))))


BATCH_SIZE, GAMMA, EPS_START, EPS_END, EPS_DECAY, TAU, LR = 32, 0.9, 0.9, 0.05, 200, 0.01, 1e-3
env = ChainEnv()
policy_net, target_net = DQN(5, 2).to(device), DQN(5, 2).to(device)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(1000)
steps_done = 0


def select_action(state):
    global steps_done
    eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
    steps_done += 1
    if random.random() > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    return torch.tensor([[random.randrange(2)]], device=device, dtype=torch.long)


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), device=device, dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE, device=device)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected = (next_state_values * GAMMA) + reward_batch
    loss = F.smooth_l1_loss(state_action_values, expected.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()


episode_returns = []
for i_episode in range(40):
    state = torch.tensor(env.reset(), dtype=torch.float32, device=device).unsqueeze(0)
    total = 0.0
    while True:
        action = select_action(state)
        observation, reward, terminated, truncated = env.step(action.item())
        total += reward
        reward = torch.tensor([reward], device=device)
        next_state = None if terminated else torch.tensor(observation, dtype=torch.float32, device=device).unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        optimize_model()
        target_sd, policy_sd = target_net.state_dict(), policy_net.state_dict()
        for key in policy_sd:
            target_sd[key] = policy_sd[key] * TAU + target_sd[key] * (1 - TAU)  # paef: ok operator-fusion
        target_net.load_state_dict(target_sd)
        if terminated or truncated:
            episode_returns.append(total)
            break
print(f"mean return over last 10 episodes {sum(episode_returns[-10:]) / 10:.2f}")
with torch.no_grad():
    q = policy_net(torch.eye(5, device=device))
print("greedy actions per state:", q.argmax(1).tolist())
