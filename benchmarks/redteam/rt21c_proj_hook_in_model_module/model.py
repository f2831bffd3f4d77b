"""A classifier that watches its hidden layer with a forward hook registered in `__init__`
(a monitor of how many activations carry an autograd graph)."""
from torch import nn


class Watched(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)
        self.with_graph = 0
        self.hidden.register_forward_hook(self._watch)

    def _watch(self, module, inputs, output):
        if output.grad_fn is not None:
            self.with_graph += 1

    def forward(self, x):
        return self.head(self.hidden(x))
