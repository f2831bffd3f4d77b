"""A replay buffer's columns rebuilt per update in a program with no accelerator (public29 p05, a
DDPG agent on the CPU): the finding said the new host tensor is then "copied to the device", a copy
that never happens there. The Python walk over the records is the cost on the CPU; the device copy
is named only where the program uses a device."""

from __future__ import annotations

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef

AGENT = '''
import random
from collections import deque

import numpy as np
import torch
from torch import nn


class Agent:
    def __init__(self):
        self.memory = deque(maxlen=1000)
        self.critic = nn.Linear(4, 1){move}

    def update(self):
        states, rewards = zip(*random.sample(self.memory, 8))
        states = torch.FloatTensor(np.array(states)){move}
        rewards = torch.FloatTensor(rewards).unsqueeze(1){move}
        loss = ((self.critic(states) - rewards) ** 2).mean()
        loss.backward()


agent = Agent()
for step in range(20):
    agent.memory.append((np.zeros(4, dtype=np.float32), 1.0))
    if len(agent.memory) >= 8:
        agent.update()
'''


def _record_findings(move: str) -> list[str]:
    report = analyze_source(AGENT.format(move=move), CellRef("agent.py"), rules=["list-to-tensor"])
    assert not report.errors
    return [f.message + " " + (f.fix.description if f.fix else "") for f in report.findings]


def test_cpu_program_names_no_device_copy() -> None:
    found = _record_findings("")
    assert found, "the per-update rebuild of the buffer's columns is still reported"
    assert all("device" not in text for text in found), found


def test_device_program_names_the_copy() -> None:
    found = _record_findings(".to('cuda')")
    assert found
    assert all("copies the new host tensor to the device" in text for text in found), found
