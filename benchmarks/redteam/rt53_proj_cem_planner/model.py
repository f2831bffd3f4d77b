"""A learned dynamics model (state, action) -> state delta, fitted on random transitions."""
import torch
import torch.nn as nn


class Dynamics(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 2))

    def forward(self, state, action):
        return state + self.net(torch.cat([state, action.unsqueeze(-1)], -1))


def fit(model, states, actions, nexts, epochs, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        pred = model(states, actions)
        loss = ((pred - nexts) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def imagine(model, state, plans):
    """Roll every plan through the model; returns the summed predicted reward per plan."""
    from env import reward
    model.eval()
    s = state.expand(plans.shape[0], 2)
    total = torch.zeros(plans.shape[0], device=plans.device)
    for t in range(plans.shape[1]):
        s = model(s, plans[:, t])
        total = total + reward(s, 1.0)
    return total
