import torch
import torch.nn as nn

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Agent:
    def __init__(self):
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)).to(DEVICE)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)

    def update(self, state, target):
        x = torch.as_tensor(state, device=DEVICE)
        loss = (self.net(x).squeeze() - target) ** 2
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()  # paef: expect host-sync
