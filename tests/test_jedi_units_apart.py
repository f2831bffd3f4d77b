"""Two units asked in turn (a script and the local module it imports, two notebook cells)
keep their own parse trees: a unit's types do not depend on which unit jedi read before."""

from __future__ import annotations

import pytest

from paef_jupyter.static.types import JediOracle


@pytest.fixture(autouse=True)
def _jedi_asked_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite shares jedi's answers across analyses (conftest): here jedi itself is tested. A
    magic test of the same worker may leave a first cell's `skip_cold` set until its generator is
    collected (then every question goes unanswered: seen once in a fresh-clone run)."""
    monkeypatch.setattr(JediOracle, "_shared", None)
    monkeypatch.setattr(JediOracle, "skip_cold", False)

TRAIN = """import torch
from model import Decoder

def main(args, loader, decoder, criterion, optimizer):
    for epoch in range(args.epochs):
        for i, (x, y) in enumerate(loader):
            loss = criterion(decoder(x), y)
            loss.backward()
            optimizer.step()
            if i % args.log_step == 0:
                print(loss.item())
"""

MODULE = """import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.linear = nn.Linear(n, n)

    def forward(self, x):
        return self.linear(x)

    def sample(self, x):
        out = []
        for i in range(20):
            x = self.linear(x)
            out.append(x)
        return torch.cat(out, 1)


decoder = Decoder(3)
"""


def _at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    lines = text.splitlines()
    hits = [(n + 1, line.index(needle)) for n, line in enumerate(lines) if needle in line]
    return hits[occurrence]


def test_a_unit_asked_after_another_unit_keeps_its_own_types() -> None:
    train, module = JediOracle(TRAIN), JediOracle(MODULE)
    assert train.type_name(*_at(TRAIN, "enumerate")) == "builtins.enumerate"
    assert module.type_name(*_at(MODULE, "decoder =")) is not None  # jedi parses the other unit in between
    counter = _at(TRAIN, "i % args")
    printed = _at(TRAIN, "print(")
    assert train.type_name(*printed) == "builtins.print"
    assert train.type_name(*counter) == "builtins.int"


def test_the_same_questions_in_one_unit_alone_give_the_same_answers() -> None:
    train = JediOracle(TRAIN)
    assert train.type_name(*_at(TRAIN, "print(")) == "builtins.print"
    assert train.type_name(*_at(TRAIN, "i % args")) == "builtins.int"


def test_a_question_after_jedis_subprocess_died_is_still_answered() -> None:
    """jedi inspects compiled modules in a subprocess of its own; killed (out of memory, a
    stray signal), the next Script failed every question once (seen in a CI run: `enumerate`
    unanswered). The question is asked again with a fresh subprocess."""
    from jedi.api.environment import get_cached_default_environment

    assert JediOracle(TRAIN).type_name(*_at(TRAIN, "enumerate")) == "builtins.enumerate"
    process = get_cached_default_environment()._get_subprocess()._get_process()
    process.kill()
    process.wait()
    assert JediOracle(TRAIN + "\n").type_name(*_at(TRAIN, "enumerate")) == "builtins.enumerate"
