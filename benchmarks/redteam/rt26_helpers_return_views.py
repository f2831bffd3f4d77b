# corpus: runnable
# Red team 26, wave 1 (blind): arrays bound before the loop through helpers defined in this file
# that return their argument, a slice, a reshape, an attribute of it, one branch of two, the first
# of a pair, another helper's result, a static method's or a method's `self.buf`; the loop changes
# the base array in place, so NumPy work on the helper's result is not loop-invariant
import types

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2601)
device = "cuda" if torch.cuda.is_available() else "cpu"


def identity(a):
    return a


def head(a, n=3):
    return a[:n]


def as_rows(a):
    return a.reshape(2, -1)


def weights_of(state):
    return state.w


def pick(a, b, first=True):
    return a if first else b


def with_norm(a):
    return a, float(np.abs(a).sum())


def twice_removed(a):
    return identity(a)


class Ops:
    @staticmethod
    def flat(a):
        return a.ravel()


class Ring:
    def __init__(self, n):
        self.buf = np.zeros(n)

    def current(self):
        return self.buf


moments = np.linspace(0.5, 3.0, 6)
state = types.SimpleNamespace(w=np.ones(6))
ring = Ring(6)
m_id = identity(moments)
m_head = head(moments)
m_rows = as_rows(moments)
m_w = weights_of(state)
m_pick = pick(moments, np.zeros(6))
m_pair, m_norm = with_norm(moments)
m_twice = twice_removed(moments)
m_flat = Ops.flat(moments)
m_ring = ring.current()
model = nn.Linear(6, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    x = torch.randn(8, 6, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += 0.25 * (step + 1)
    state.w *= 1.5
    ring.buf += 1.0
    s1 = np.sqrt(m_id)
    s2 = np.sqrt(m_head)
    s3 = np.sqrt(m_rows)
    s4 = np.sqrt(m_w)
    s5 = np.sqrt(m_pick)
    s6 = np.sqrt(m_pair)
    s7 = np.sqrt(m_twice)
    s8 = np.sqrt(m_flat)
    s9 = np.sqrt(m_ring)
    log.append([round(float(v.sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7, s8, s9)])
print("helpers", log, round(m_norm, 4))
