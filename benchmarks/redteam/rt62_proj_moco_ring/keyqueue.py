"""A negative-key queue whose pointer lives in a long buffer (as in the reference MoCo code), written at the
pointer with wrap-around, since the last batch of an epoch is shorter and K is not a multiple of B."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeyQueue(nn.Module):
    def __init__(self, dim, size):
        super().__init__()
        self.register_buffer("keys", F.normalize(torch.randn(dim, size), dim=0))
        self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))
        self.register_buffer("age", torch.zeros(size, dtype=torch.long))
        self.size = size

    @torch.no_grad()
    def push(self, k):
        B = k.shape[0]
        p = int(self.ptr)
        end = p + B
        if end <= self.size:
            self.keys[:, p:end] = k.T
            self.age[p:end] = 0
        else:
            first = self.size - p
            self.keys[:, p:] = k[:first].T
            self.keys[:, :end - self.size] = k[first:].T
            self.age[p:] = 0
            self.age[:end - self.size] = 0
        self.age += 1
        self.ptr[0] = end % self.size

    def snapshot(self):
        return self.keys.clone().detach()
