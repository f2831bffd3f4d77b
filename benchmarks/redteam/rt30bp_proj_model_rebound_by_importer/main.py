# corpus: runnable
# Red team 30b probe (not blind): ev.py validates its global `model`; this importer rebinds `ev.model` to a
# model whose forward differentiates its output w.r.t. the input (no_grad around ev's loop would raise).
import torch
import torch.nn as nn

import ev

torch.manual_seed(0)
torch.set_num_threads(1)


class SlopeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        x = x.requires_grad_(True)
        y = self.fc(x).tanh()
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        return y + g.sum(1, keepdim=True)


ev.model = SlopeNet()
g = torch.Generator().manual_seed(1)
batches = [(torch.randn(8, 4, generator=g), torch.randn(8, 1, generator=g)) for _ in range(3)]
print(round(ev.validate(batches), 5))
