"""Teacher and student. The teacher can freeze itself and later release its classifier head for a short joint
adaptation (a 'teacher assistant' phase); both record a hidden feature through a forward hook."""
import torch.nn as nn

D, C = 12, 5


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(D, width), nn.BatchNorm1d(width), nn.ReLU(), nn.Linear(width, 16), nn.ReLU())
        self.fc = nn.Linear(16, C)
        self.feats = {}
        self.body.register_forward_hook(self._keep)

    def _keep(self, module, inputs, output):
        self.feats['hint'] = output

    def forward(self, x):
        return self.fc(self.body(x))

    def freeze(self):
        for p in self.parameters():
            p.requires_grad = False
        return self

    def release_head(self):
        for p in self.fc.parameters():
            p.requires_grad = True
