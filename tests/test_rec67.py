"""Recall 67: a comprehension's own variable (benchmarks/results/rec67.md).

The def-use table records statement bindings only. A read of a comprehension's variable (`v` in
`{k: v.item() for k, v in self.step(b).items()}`) found no binding, so its kind came from jedi
(which cannot type a loss built from a module bound to `None` before `setup()`), or it found the
enclosing function's namesake (`v = 0.0` ... `max(float(v) for v in parts.values())` read `v` as a
float; `[float(v) for v in weights.values()]` beside a tensor `v` read it as that tensor).
`comprehension_binding` names the clause that binds a read; `Facts._reaching_def` gives no
statement binding for it, and `Facts.kind` reads a dict's values through the clause's
`.items()` / `.values()`, else asks jedi (which scopes comprehensions as Python does).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef
from paef_jupyter.static.comprehensions import comprehension_binding
from paef_jupyter.static.facts import Facts
from paef_jupyter.static.types import Kind

HOST_SYNC = Path(__file__).parent / "fixtures" / "rules" / "host-sync"
POS = HOST_SYNC / "pos_dict_values_read_in_a_comprehension.py"
NEG = HOST_SYNC / "neg_dict_values_read_in_a_comprehension_near_misses.py"


def _facts(source: str) -> Facts:
    return Facts(cst.parse_module(textwrap.dedent(source)))


def _reads(facts: Facts, name: str, line_text: str) -> list[cst.Name]:
    """Reads (not targets) of `name` on the line that contains `line_text`, in source order."""
    out = []
    for use in facts.uses(name):
        if any(isinstance(a, cst.CompFor) and facts.contains(a.target, use) or isinstance(a, cst.AssignTarget)
               for a in facts.ancestors(use)):
            continue  # a binding, not a read
        if line_text in facts.source_line(facts.position(use).start.line):
            out.append(use)
    return out


PROGRAM = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 1)
        self.loss = None

    def setup(self):
        self.loss = nn.MSELoss()

    def step(self, x):
        out = self.lin(x)
        return {"mse": self.loss(out, x[:, :1]) * 0.5, "l1": out.abs().mean()}


net = Net()
net.setup()
v = torch.zeros(3)
weights = {"mse": 1.0, "l1": 0.5}
floats = {k: float(len(k)) for k in weights}
x = torch.randn(8, 4)
logs = {k: v.item() for k, v in net.step(x).items()}
total = sum(w for w in net.step(x).values())
scaled = [v * 2 for v in weights.values()]
after = v + 1
firsts = [v for v in v]
nested = [[v for v in row] for v in [floats]]
"""


def test_dict_values_of_a_method_read_in_a_comprehension_are_tensors() -> None:
    facts = _facts(PROGRAM)
    (read,) = _reads(facts, "v", "v.item()")
    assert comprehension_binding(facts, read) is not None
    assert facts.kind(read) is Kind.TENSOR
    (w,) = _reads(facts, "w", "sum(w for w")
    assert facts.kind(w) is Kind.TENSOR


def test_a_comprehension_variable_is_not_the_functions_namesake() -> None:
    facts = _facts(PROGRAM)
    (read,) = _reads(facts, "v", "v * 2")
    assert comprehension_binding(facts, read) is not None
    assert facts.value_of(read) is None  # not `torch.zeros(3)`
    assert facts.kind(read) is not Kind.TENSOR  # a value of a dict of floats


def test_reads_outside_the_comprehension_keep_the_statement_binding() -> None:
    facts = _facts(PROGRAM)
    (read,) = _reads(facts, "v", "after = v + 1")
    assert comprehension_binding(facts, read) is None
    assert facts.kind(read) is Kind.TENSOR
    # the first clause's iterable runs in the enclosing scope: `for v in v` iterates the tensor
    reads = _reads(facts, "v", "firsts = ")
    iterable = [r for r in reads if isinstance(facts.parent(r), cst.CompFor)]
    element = [r for r in reads if not isinstance(facts.parent(r), cst.CompFor)]
    assert iterable and comprehension_binding(facts, iterable[0]) is None
    assert element and comprehension_binding(facts, element[0]) is not None


def test_the_innermost_clause_binds_a_nested_read() -> None:
    facts = _facts(PROGRAM)
    reads = _reads(facts, "v", "nested = ")
    inner_element = reads[0]  # `[v for v in row]`'s element
    clause = comprehension_binding(facts, inner_element)
    assert clause is not None and isinstance(clause.iter, cst.Name) and clause.iter.value == "row"


PARAMETERS = """
import torch
import torch.nn as nn

net = nn.Linear(4, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
p = 0
norms = [p.grad.norm() for p in net.parameters()]
grouped = [p.grad.norm() for p in opt.param_groups[0]["params"]]
rates = [g["lr"] for g in opt.param_groups]
counted = [i * 2 for i, q in enumerate(net.parameters())]
"""


def test_a_clause_gets_the_readings_of_a_for_statement() -> None:
    facts = _facts(PARAMETERS)
    (own,) = _reads(facts, "p", "norms = ")
    assert facts.kind(own) is Kind.TENSOR  # a module's parameter, not the count `p = 0`
    (grouped,) = _reads(facts, "p", "grouped = ")
    assert facts.kind(grouped) is Kind.TENSOR  # what the optimizer steps
    (group,) = _reads(facts, "g", "rates = ")
    assert facts.kind(group) is not Kind.TENSOR  # a parameter group is a dict
    (counter,) = _reads(facts, "i", "counted = ")
    assert facts.kind(counter) is Kind.NUMBER


def test_fixture_findings() -> None:
    pos = analyze_source(POS.read_text(), CellRef(str(POS)), rules=["host-sync"])
    assert not pos.errors
    assert {f.line for f in pos.findings} == {
        i for i, line in enumerate(POS.read_text().splitlines(), 1) if "# <-- host-sync" in line}
    assert len(pos.findings) == 4
    neg = analyze_source(NEG.read_text(), CellRef(str(NEG)), rules=["host-sync"])
    assert not neg.errors
    assert [(f.line, f.message) for f in neg.findings] == []
