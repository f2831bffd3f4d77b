"""The metadata module: loops, per-iteration code, invariance and types."""

from __future__ import annotations

import libcst as cst
import pytest

from paef_jupyter.static.facts import Facts
from paef_jupyter.static.types import Kind

TRAIN = '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
import numpy as np

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 2)), batch_size=2)
table = {"a": [1, 2, 3], "b": [4, 5, 6]}
weights = [0.1, 0.2]

def helper(n):
    return torch.tensor(weights) * n

for epoch in range(2):
    for x, y in loader:
        w = torch.as_tensor(weights)
        noise = torch.randn(2)
        h = helper(epoch)
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(loss.item())

for x, y in loader:
    pred = model(x)
'''


def facts_of(code: str, namespace: dict | None = None) -> Facts:
    return Facts(cst.parse_module(code), namespace)


def find(facts: Facts, code: str) -> cst.CSTNode:
    """The first node whose source is exactly `code`."""
    for node in _walk(facts.module):
        if isinstance(node, cst.BaseExpression) and facts.code(node) == code:
            return node
    raise AssertionError(f"no node {code!r}")


def _walk(node: cst.CSTNode):  # type: ignore[no-untyped-def]
    yield node
    for child in node.children:
        yield from _walk(child)


def test_loop_kinds_and_nesting() -> None:
    loops = facts_of(TRAIN).loops
    assert [(l.line, l.kind, l.depth) for l in loops] == [(15, "train", 0), (16, "train", 1), (27, "eval", 0)]


def test_types_from_source() -> None:
    f = facts_of(TRAIN)
    assert f.kind(find(f, "model")) is Kind.MODULE
    assert f.kind(find(f, "opt")) is Kind.OPTIMIZER
    assert f.kind(find(f, "loader")) is Kind.DATALOADER
    assert f.kind(find(f, "table")) is Kind.DICT_OF_LIST
    assert f.kind(find(f, "weights")) is Kind.LIST
    assert f.kind(find(f, "x")) is Kind.TENSOR  # a batch of a DataLoader loop
    assert f.kind(find(f, "loss")) is Kind.TENSOR
    assert f.kind(find(f, "loss.item()")) is Kind.NUMBER


def test_invariance_and_hoisting() -> None:
    f = facts_of(TRAIN)
    w = find(f, "torch.as_tensor(weights)")
    assert f.is_invariant(w)
    assert f.is_invariant(w, f.loops[0]) and f.is_invariant(w, f.loops[1])  # hoisted before the epochs
    assert not f.is_invariant(find(f, "torch.randn(2)"))  # a fresh random draw each time
    h = find(f, "helper(epoch)")
    assert f.is_invariant(h, f.loops[1]) and not f.is_invariant(h, f.loops[0])
    assert not f.is_invariant(find(f, "model(x)"))


def test_helpers_called_from_a_loop_run_per_iteration() -> None:
    f = facts_of(TRAIN)
    inner = find(f, "torch.tensor(weights) * n")
    assert f.iteration_loop(inner) is f.loops[1]
    assert f.in_training(inner)


def test_guarded_logging_is_conditional() -> None:
    f = facts_of(TRAIN)
    item = find(f, "loss.item()")
    assert f.is_conditional(item, f.loops[1])
    assert not f.is_conditional(find(f, "loss.backward()"), f.loops[1])


def test_for_header_is_not_per_iteration() -> None:
    f = facts_of("import torch\nfor v in torch.tensor([1, 2]):\n    pass\n")
    assert f.iteration_loop(find(f, "torch.tensor([1, 2])")) is None


def test_live_namespace_gives_exact_kinds() -> None:
    torch = pytest.importorskip("torch")
    ns = {"data": {"x": [1, 2]}, "feats": {"x": torch.zeros(2)}, "t": torch.ones(1), "torch": torch}
    f = facts_of("for i in range(2):\n    a = data['x']\n    b = feats['x']\n    c = t\n", ns)
    assert f.kind(find(f, "data")) is Kind.DICT_OF_LIST
    assert f.kind(find(f, "feats")) is Kind.DICT_OF_TENSOR
    assert f.kind(find(f, "t")) is Kind.TENSOR
    assert f.kind(find(f, "data['x']")) is Kind.LIST


def test_jedi_infers_what_the_syntax_does_not() -> None:
    code = "import torch\ndef make():\n    return torch.zeros(3)\nv = make()\nu = v\nu\n"
    f = facts_of(code)
    assert f.kind(find(f, "u")) is Kind.TENSOR  # through the helper's return
    code2 = "import torch\nimport functools\nz = functools.reduce(lambda a, b: a + b, [torch.ones(2)])\nz\n"
    f2 = facts_of(code2)
    assert f2.kind(find(f2, "z")) in (Kind.TENSOR, Kind.UNKNOWN)  # jedi, best effort; never raises


def test_later_cells_see_earlier_cells_imports_and_values() -> None:
    from paef_jupyter.api import analyze
    from paef_jupyter.model import CellRef, SourceUnit

    cells = [
        "import torch\ndevice = 'cpu'\n",
        "for step in range(3):\n    buf = torch.zeros(step + 1).to(device)\n",  # varying: not redundant-tensor's
    ]
    units = [SourceUnit(CellRef("nb.ipynb", i, f"c{i}"), text) for i, text in enumerate(cells)]
    report = analyze(units, rules=["cpu-then-move"])
    assert [(f.ref.cell, f.line) for f in report.findings] == [(1, 2)]
    alone = analyze(units[1:], rules=["cpu-then-move"])
    assert alone.findings == ()  # `torch` is unknown without the cell that imports it
