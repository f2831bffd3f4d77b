import torch
import torch.nn as nn


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(25, 48), nn.ReLU(), nn.Linear(48, 4))

    def forward(self, x):
        return self.body(x)


def act(q, obs, eps, gen, device):
    if torch.rand(1, generator=gen).item() < eps:
        return torch.randint(0, 4, (1,), generator=gen, dtype=torch.int32)
    with torch.no_grad():
        return q(torch.as_tensor(obs, dtype=torch.float32, device=device)).argmax().reshape(1).int().cpu()
