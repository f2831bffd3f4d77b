"""An encoder whose memory (a submodule) fills only when gradients are off."""
import torch
import torch.nn as nn


class Memory(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.register_buffer('bank', torch.zeros(0, d))

    def forward(self, z):
        if not torch.is_grad_enabled():
            self.bank = torch.cat([self.bank, z.detach()])[-16:]
        return z


class Encoder(nn.Module):
    def __init__(self, d_in, d):
        super().__init__()
        self.fc = nn.Linear(d_in, d)
        self.memory = Memory(d)

    def forward(self, x):
        return self.memory(torch.tanh(self.fc(x)))
