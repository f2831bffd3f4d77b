"""Replay memory as a deque of transition tuples, sampled per batch."""
import random
from collections import deque, namedtuple

import torch

Transition = namedtuple("Transition", ["state", "action", "reward", "next_state", "done"])


class ReplayMemory:
    def __init__(self, capacity, seed=0):
        self.memory = deque(maxlen=capacity)
        self.rng = random.Random(seed)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size, device):
        batch = Transition(*zip(*self.rng.sample(self.memory, batch_size)))  # paef: expect record-buffer
        states = torch.tensor(batch.state, dtype=torch.float32, device=device)  # paef: expect list-to-tensor
        actions = torch.tensor(batch.action, device=device)  # paef: expect list-to-tensor
        rewards = torch.tensor(batch.reward, device=device)  # paef: expect list-to-tensor
        next_states = torch.tensor(batch.next_state, dtype=torch.float32, device=device)  # paef: expect list-to-tensor
        dones = torch.tensor(batch.done, dtype=torch.float32, device=device)  # paef: expect list-to-tensor
        return states, actions, rewards, next_states, dones

    def __len__(self):
        return len(self.memory)
