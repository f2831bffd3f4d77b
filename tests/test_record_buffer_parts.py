"""The lines of a `record-buffer` finding where its cost is paid (`part_lines`): after the sampling
read, the unzipping and the constructors that read the sampled batch (truth13: a DQN's
`ReplayBuffer.sample`, whose `torch.tensor(states)` lines held the cost while the finding measured
the `random.sample` line alone, 8% of the loop, and ranked under two list-to-tensor findings)."""

from __future__ import annotations

from paef_jupyter.api import analyze_source

CLASS_BUFFER = """\
import random
from collections import deque

import torch


class ReplayBuffer:
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def push(self, state, action):
        self.memory.append((state, action))

    def sample(self, k):
        batch = random.sample(self.memory, k)
        size = len(batch)
        states, actions = zip(*batch)
        weights = torch.tensor([1.0, 2.0])
        return torch.tensor(states), torch.tensor(actions), weights, size


buffer = ReplayBuffer(1000)
for step in range(100):
    buffer.push(torch.randn(4).tolist(), step % 3)
    if len(buffer.memory) > 8:
        s, a, w, n = buffer.sample(8)
"""

LOOP_BUFFER = """\
import random

import torch

x = torch.randn(4)
buf = []
for step in range(100):
    buf.append(x.tolist())
    if len(buf) > 8:
        batch = random.sample(buf, 8)
        xb = torch.tensor(batch)
        other = torch.tensor([float(step)])
        count = len(batch)
"""


def _record_buffer(text: str):
    return next(f for f in analyze_source(text).findings if f.rule == "record-buffer")


def test_a_sampling_methods_conversions_are_part_of_the_finding() -> None:
    finding = _record_buffer(CLASS_BUFFER)
    assert finding.line == 15
    # the unzipping and the two constructors of the batch's fields; not `len(batch)`, not a
    # constant `torch.tensor([1.0, 2.0])` built beside them
    assert sorted(set(finding.part_lines)) == [17, 19]


def test_only_the_constructors_that_read_the_batch_are_part_of_it() -> None:
    finding = _record_buffer(LOOP_BUFFER)
    assert finding.line == 10
    assert sorted(set(finding.part_lines)) == [11]  # not `torch.tensor([float(step)])`
