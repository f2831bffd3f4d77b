"""A deep ensemble evaluated in one call: the members' parameters are stacked and vmapped over."""
import copy

import torch
from torch.func import functional_call, stack_module_state, vmap


def make_member(d_in, d_hidden, n_out):
    return torch.nn.Sequential(torch.nn.Linear(d_in, d_hidden), torch.nn.GELU(), torch.nn.Linear(d_hidden, n_out))


class StackedEnsemble:
    def __init__(self, members):
        self.params, self.buffers = stack_module_state(members)
        self.base = copy.deepcopy(members[0]).to("meta")
        self.n = len(members)

    def _one(self, params, buffers, x):
        return functional_call(self.base, (params, buffers), (x,))

    def __call__(self, x):
        """Logits of every member: (members, batch, classes)."""
        return vmap(self._one, in_dims=(0, 0, None))(self.params, self.buffers, x)

    def per_member(self, xs):
        """Each member on its own batch: xs is (members, batch, features)."""
        return vmap(self._one, in_dims=(0, 0, 0))(self.params, self.buffers, xs)

    def parameters(self):
        return list(self.params.values())


def saliency(ens, probe):
    """Mean absolute input gradient of the ensemble's top logit over a probe batch."""
    probe.requires_grad_(True)
    top = ens(probe).mean(0).max(1).values.sum()
    top.backward()
    return probe.grad.abs().mean(0)
