# corpus: runnable
# Red team 30b, wave 2 (blind; wave 1's shape on a device): aug.py's loop makes a fresh zero noise vector per batch and hands it to
# `perturb`; this experiment replaces `aug.perturb` with a drift that grows the vector it is given.
import torch
import torch.nn as nn

import aug

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def drifting(x, noise):
    noise.add_(0.05)
    return x + noise


aug.perturb = drifting
g = torch.Generator().manual_seed(3)
batches = [(torch.randn(8, 5, generator=g), torch.randn(8, 1, generator=g)) for _ in range(4)]
model = nn.Linear(5, 1)
print(aug.train(model, torch.optim.SGD(model.parameters(), lr=0.05), batches, 3, device))
