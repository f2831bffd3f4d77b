"""A point mass on a line with friction, pushed toward a goal; stepped in torch, batched over rollouts."""
import torch

DT = 0.1


def step(state, action):
    pos, vel = state[..., 0], state[..., 1]
    acc = action.clamp(-1.0, 1.0) - 0.3 * vel
    vel = vel + DT * acc
    pos = pos + DT * vel
    return torch.stack([pos, vel], -1)


def reward(state, goal):
    return -(state[..., 0] - goal) ** 2 - 0.05 * state[..., 1] ** 2
