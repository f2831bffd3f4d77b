"""Recall 66: real antipatterns reached through helpers that the analysis missed (benchmarks/results/rec66.md).

Three facts, each read where the analysis types values or ranks reads:
- `Facts.kind` of what a program's own method returns (`self.model.train_step(batch)`: a dict of
  four loss tensors, or a tuple), of `v` in `for k, v in losses.items()` / `for v in losses.values()`,
  and of a `self.<attr>` bound to `None` in `__init__` and to a module in `setup()`. Before, the
  kind of `v` came from jedi, which types `criterion(a, b) * 0.5` as a float when it cannot type
  `criterion` (public check 57, p03: host-sync missed the four `v.item()` per step);
- `namedtuple_fields`: which column a field of `Step(*self.memory.sample())` is, so list-to-tensor
  reads `torch.tensor(batch.log_prob)` as it reads `states, actions, log_probs = self.memory.sample()`;
- host-sync ranks two reads of one step by the order they run (the first waits for the step's work),
  not by which is shown (public check 58, p05: `running += loss.item()` then `pbar.set_postfix(...)`).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef, Severity
from paef_jupyter.static.facts import Facts
from paef_jupyter.static.returned_columns import namedtuple_fields
from paef_jupyter.static.types import Kind

RULES = Path(__file__).parent / "fixtures" / "rules"
SECOND_SYNC = "a second device sync in a step that already has one"


def _facts(source: str) -> Facts:
    return Facts(cst.parse_module(textwrap.dedent(source)))


def _name_at(facts: Facts, name: str, line_text: str) -> cst.Name:
    """The use of `name` on the line that contains `line_text`."""
    for use in facts.uses(name):
        line = facts.position(use).start.line
        if line_text in facts.source_line(line):
            return use
    raise AssertionError(f"{name} not found on a line with {line_text!r}")


STEP_PROGRAM = """
import torch
import torch.nn as nn


class Pair(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 4)
        self.criterion = None
        self.scale = None

    def setup(self):
        self.criterion = nn.MSELoss()
        self.scale = 0.5

    def half(self, a, b):
        return (self.criterion(a, b) + self.criterion(b, a)) * 0.5

    def train_step(self, x):
        out = self.net(x)
        fit = self.criterion(out, x) * 10
        return {"fit": fit, "half": self.half(out, x)}

    def pair(self, x):
        losses = self.train_step(x)
        return losses["fit"], losses["half"]

    def floats(self, x):
        return {"n": float(len(x)), "scale": self.scale}

    def either(self, x, keep):
        if keep:
            return {"fit": self.criterion(self.net(x), x)}
        return {"fit": 0.0}


class Trainer:
    def __init__(self):
        self.model = Pair()

    def fit(self, data):
        for x in data:
            losses = self.model.train_step(x)
            for key, value in losses.items():
                print(key, value)
            for seen in losses.values():
                print(seen)
            a, b = self.model.pair(x)
            stats = self.model.floats(x)
            for key, number in stats.items():
                print(number)
            mixed = self.model.either(x, True)
            for key, maybe in mixed.items():
                print(maybe)
            losses = self.model.floats(x)
            for key, later in losses.items():
                print(later)
"""


def test_a_step_method_returns_a_dict_of_loss_tensors() -> None:
    facts = _facts(STEP_PROGRAM)
    assert facts.kind(_name_at(facts, "losses", "for key, value in losses.items()")) is Kind.DICT_OF_TENSOR
    assert facts.kind(_name_at(facts, "value", "print(key, value)")) is Kind.TENSOR
    assert facts.kind(_name_at(facts, "seen", "print(seen)")) is Kind.TENSOR
    assert facts.kind(_name_at(facts, "a", "a, b = self.model.pair(x)")) is Kind.TENSOR
    assert facts.kind(_name_at(facts, "b", "a, b = self.model.pair(x)")) is Kind.TENSOR


def test_near_misses_of_a_step_method_are_not_tensors() -> None:
    facts = _facts(STEP_PROGRAM)
    # a dict of Python numbers (a `None` placeholder later bound to a float is a float, not a tensor)
    assert facts.kind(_name_at(facts, "number", "print(number)")) is not Kind.TENSOR
    # a method returning a dict of tensors on one path and of floats on another: no one kind
    assert facts.kind(_name_at(facts, "mixed", "for key, maybe in mixed.items()")) is Kind.UNKNOWN
    assert facts.kind(_name_at(facts, "maybe", "print(maybe)")) is not Kind.TENSOR
    # the name rebound to the dict of floats before the loop
    assert facts.kind(_name_at(facts, "later", "print(later)")) is not Kind.TENSOR


def test_an_entry_of_a_dict_of_mixed_values() -> None:
    facts = _facts("""
        import torch

        class Net(torch.nn.Module):
            def step(self, x):
                return {"loss": x.sum(), "rows": len(x)}

            def partial(self, x, full):
                if full:
                    return {"loss": x.sum(), "rows": len(x)}
                return {"rows": len(x)}

        net = Net()
        for x in [torch.ones(2)]:
            out = net.step(x)
            a = out["loss"]
            b = out["rows"]
            key = "loss"
            c = out[key]
            some = net.partial(x, True)
            d = some["loss"]
            lit = {"loss": x.mean(), "n": 2}
            e = lit["loss"]
            kept = {"loss": x.mean(), "n": 2}
            kept["loss"] = 0.0
            f = kept["loss"]
    """)
    def kind(name: str) -> Kind:  # the kind of the value `name = <value>` binds
        target = next(u for u in facts.uses(name) if isinstance(facts.parent(u), cst.AssignTarget))
        return facts.kind(facts.parent(facts.parent(target)).value)

    assert facts.kind(_name_at(facts, "out", "out = net.step(x)")) is Kind.DICT
    assert kind("a") is Kind.TENSOR and kind("e") is Kind.TENSOR
    assert kind("b") is Kind.NUMBER
    assert kind("c") is not Kind.TENSOR  # a key that is not a literal
    assert kind("d") is not Kind.TENSOR  # one return lacks the key
    assert kind("f") is not Kind.TENSOR  # the dict is written in its scope


def test_a_local_lookalike_method_of_the_same_name_is_not_read() -> None:
    facts = _facts("""
        import torch

        class Net(torch.nn.Module):
            def step(self, x):
                return {"loss": x.sum()}

        class Counter:
            def step(self, x):
                return {"loss": float(len(x))}

        net, counter = Net(), Counter()
        for x in [torch.ones(2)]:
            for key, a in net.step(x).items():
                print(a)
            out = counter.step(x)
            for key, b in out.items():
                print(b)
    """)
    assert facts.kind(_name_at(facts, "a", "print(a)")) is Kind.TENSOR
    assert facts.kind(_name_at(facts, "b", "print(b)")) is not Kind.TENSOR


def test_host_sync_reports_the_losses_a_step_method_returns() -> None:
    report = analyze_path(str(RULES / "host-sync" / "pos_losses_returned_by_a_step_method.py"), rules=["host-sync"])
    found = {f.line: f for f in report.findings}
    assert set(found) == {77, 87, 96, 97, 107}
    assert found[97].severity is Severity.LOW and SECOND_SYNC in found[97].message  # after `g_loss.item()`
    quiet = analyze_path(str(RULES / "host-sync" / "neg_losses_returned_by_a_step_method_near_misses.py"), rules=["host-sync"])
    assert not quiet.findings


def test_the_reads_of_one_step_rank_by_the_order_they_run() -> None:
    found = {f.line: f for f in analyze_path(str(RULES / "host-sync" / "pos_read_before_a_display_is_the_steps_wait.py"),
                                             rules=["host-sync"]).findings}
    # the running sum reads first: it is the step's wait, and says the display after it reads again
    assert found[26].severity is Severity.HIGH and SECOND_SYNC not in found[26].message
    assert "also shows a device value every step (`loss.item()` at line 28)" in found[26].message
    assert found[28].severity is Severity.LOW and "`loss.item()` at line 26, read earlier in the same step" in found[28].message
    # the display reads first: it is the step's wait (worded as a display), the sum after it the second
    assert found[41].severity is Severity.HIGH and "for a per-step display" in found[41].message
    assert found[43].severity is Severity.LOW and "at line 41, read earlier in the same step" in found[43].message
    # a display alone keeps its high finding
    assert found[54].severity is Severity.HIGH and "for a per-step display" in found[54].message


def test_namedtuple_fields_of_the_record_types_this_unit_defines() -> None:
    facts = _facts("""
        import collections
        from collections import namedtuple
        from typing import NamedTuple
        import torch

        FIELDS = ("a", "b")
        Tuple1 = namedtuple("Tuple1", ("state", "action", "reward"))
        Tuple2 = collections.namedtuple("Tuple2", "state, action reward")
        Typed = NamedTuple("Typed", [("state", torch.Tensor), ("score", float)])
        Given = namedtuple("Given", FIELDS)
        Twice = namedtuple("Twice", "a b")
        Twice = Tuple1

        class Row(NamedTuple):
            state: torch.Tensor
            score: float

        class Plain:
            state: torch.Tensor
    """)
    def fields(name: str) -> list[str] | None:
        return namedtuple_fields(facts, cst.Name(name))

    assert fields("Tuple1") == ["state", "action", "reward"]
    assert fields("Tuple2") == ["state", "action", "reward"]
    assert fields("Typed") == ["state", "score"]
    assert fields("Row") == ["state", "score"]
    for name in ("Given", "Twice", "Plain", "Missing"):
        assert fields(name) is None, name


def test_list_to_tensor_reads_a_field_of_returned_columns() -> None:
    report = analyze_path(str(RULES / "list-to-tensor" / "pos_namedtuple_of_columns_returned_by_a_method.py"),
                          rules=["list-to-tensor"])
    found = {f.line: f for f in report.findings}
    assert set(found) == {66, 76, 78}
    assert all(not f.fixable for f in found.values())  # a hint: the records are stored outside the scope
    assert "`Rollout.sample`" in found[66].message and "every value stored in this field is a tensor" in found[66].message
    quiet = analyze_path(str(RULES / "list-to-tensor" / "neg_namedtuple_of_columns_returned_by_a_method_near_misses.py"),
                         rules=["list-to-tensor"])
    assert not quiet.findings


def test_the_namedtuple_form_needs_every_stored_value_a_tensor() -> None:
    source = textwrap.dedent("""
        from collections import namedtuple
        import torch

        Step = namedtuple("Step", ("state", "value"))

        class Buffer:
            def __init__(self):
                self.rows = []

            def push(self, state, value):
                self.rows.append((state, value))

            def sample(self):
                return zip(*self.rows)

        buffer = Buffer()
        for t in range(3):
            buffer.push(torch.zeros(2), VALUE)
            batch = Step(*buffer.sample())
            v = torch.tensor(batch.value)
    """)
    def lines(value: str) -> list[int]:
        report = analyze_source(source.replace("VALUE", value), CellRef("step.py"), rules=["list-to-tensor"])
        return [f.line for f in report.findings]

    assert lines("torch.ones(()) * t") == [21]  # (dedent keeps the leading empty line)
    assert lines("float(t)") == []
    assert lines("t") == []
