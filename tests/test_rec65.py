"""Recall 65: antipatterns reached through a buffer class's methods and an attribute set in another
method (benchmarks/results/rec65.md).

Two facts, both in `paef_jupyter/static/`:
- `returned_columns`: the columns a program's own function or method returns as `zip(*E)`
  (`states, actions, log_probs = self.memory.sample()`), and every value the class stores at one
  field of its records (its appends, and its callers' pushes);
- `Facts.kind` of `obj.attr` where `obj` is built from a class of the unit that sets `self.attr`
  only to tensors (`agent.log_probs`, set in `sample_action`).
Read together by list-to-tensor: `torch.tensor(log_probs)` of a tuple of tensors (public check 56's
p05, a sync per element on a GPU). A hint only: the records are stored outside the scope."""
from __future__ import annotations

import textwrap

import libcst as cst

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef

P05_SHAPE = """
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class buffer:
    def __init__(self):
        self.buffer = []

    def push(self, transition):
        self.buffer.append(transition)

    def sample(self):
        return zip(*list(self.buffer))

    def clean(self):
        self.buffer.clear()


class PPO:
    def __init__(self):
        self.net = nn.Sequential(nn.Linear(4, 2), nn.Softmax(-1)).to(device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        self.memory = buffer()

    def sample_action(self, state):
        dist = Categorical(self.net(torch.FloatTensor(state).to(device)))
        action = dist.sample()
        self.log_probs = dist.log_prob(action).detach()
        return action.item()

    def update(self):
        states, actions, log_probs, rewards = self.memory.sample()
        states = torch.FloatTensor(np.array(states)).to(device)
        old_log_probs = torch.tensor(log_probs, device=device)
        rewards = torch.FloatTensor(rewards).to(device)
        dist = Categorical(self.net(states))
        loss = -(torch.exp(dist.log_prob(torch.tensor(actions, device=device)) - old_log_probs) * rewards).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.memory.clean()


def train():
    agent = PPO()
    rng = np.random.RandomState(0)
    for episode in range(3):
        state = rng.randn(4)
        for t in range(10):
            action = agent.sample_action(state)
            next_state, reward = rng.randn(4), 1.0
            agent.memory.push((state, action, agent.log_probs, reward))
            state = next_state
        agent.update()


train()
"""


def _findings(source: str, rule: str = "list-to-tensor") -> list:
    report = analyze_source(textwrap.dedent(source), CellRef("t.py"), rules=[rule])
    assert not report.errors
    return list(report.findings)


def _line(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


def test_p05_shape_reports_the_tensor_column_only() -> None:
    found = _findings(P05_SHAPE)
    assert [f.line for f in found] == [_line(P05_SHAPE, "old_log_probs = torch.tensor(log_probs")]
    finding = found[0]
    assert "tuple of tensors" in finding.message and "buffer.sample" in finding.message
    assert finding.fix is not None and not finding.fix.edits and not finding.fixable  # a hint


def _variant(old: str, new: str) -> str:
    assert old in P05_SHAPE
    return P05_SHAPE.replace(old, new)


def test_attribute_also_set_to_none_is_not_a_tensor() -> None:
    source = _variant("        self.memory = buffer()\n", "        self.memory = buffer()\n        self.log_probs = None\n")
    assert _findings(source) == []


def test_attribute_set_outside_the_class_is_not_read() -> None:
    source = _variant("            agent.memory.push(", "            agent.log_probs = float(t)\n            agent.memory.push(")
    assert _findings(source) == []


def test_python_numbers_pushed_in_that_field() -> None:
    source = _variant("agent.memory.push((state, action, agent.log_probs, reward))",
                      "agent.memory.push((state, action, float(agent.log_probs), reward))")
    assert _findings(source) == []


def test_a_second_push_with_an_unknown_value() -> None:
    source = _variant("        agent.update()\n", "        agent.memory.push((state, 0, rng.randn(), 0.0))\n        agent.update()\n")
    assert _findings(source) == []


def test_records_also_written_by_index() -> None:
    source = _variant("    def sample(self):\n", "    def replace(self, i, transition):\n        self.buffer[i] = transition\n\n"
                      "    def sample(self):\n")
    assert _findings(source) == []


def test_sample_returning_other_values_on_another_path() -> None:
    source = _variant("        return zip(*list(self.buffer))",
                      "        if not self.buffer:\n            return [], [], [], []\n        return zip(*list(self.buffer))")
    assert _findings(source) == []


def test_receiver_of_another_class() -> None:
    """`self.memory` bound to a look-alike class whose `sample` returns the records themselves."""
    source = _variant("        self.memory = buffer()\n", "        self.memory = Latest()\n").replace(
        "class PPO:", "class Latest(buffer):\n    def sample(self):\n        return self.buffer[-4:]\n\n\nclass PPO:")
    assert _findings(source) == []


def test_instance_attribute_kind() -> None:
    """The kind fact alone: a read of `obj.attr` on an object of a class that sets `self.attr`
    only to tensors is a tensor; near misses are not."""
    from paef_jupyter.static.facts import Facts
    from paef_jupyter.static.types import Kind

    source = textwrap.dedent("""
        import torch

        class Meter:
            def __init__(self):
                self.last = torch.zeros(())
                self.name = "loss"

            def update(self, x):
                self.last = torch.relu(x).mean()

        class Based(Meter):
            pass

        class Mixed:
            def __init__(self):
                self.last = 0.0

            def update(self, x):
                self.last = torch.relu(x).mean()

        meter = Meter()
        based = Based()
        mixed = Mixed()
        a = meter.last
        b = meter.name
        c = based.last
        d = mixed.last
    """)
    facts = Facts(cst.parse_module(source))
    module = facts.module
    reads = {}
    for node in facts.walk(module):
        if isinstance(node, cst.Assign) and isinstance(node.targets[0].target, cst.Name) \
                and node.targets[0].target.value in "abcd" and isinstance(node.value, cst.Attribute):
            reads[node.targets[0].target.value] = facts.kind(node.value)
    assert reads["a"] is Kind.TENSOR
    assert reads["b"] is not Kind.TENSOR
    assert reads["c"] is not Kind.TENSOR  # a class with bases: not read
    assert reads["d"] is not Kind.TENSOR  # also a float
