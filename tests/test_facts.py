"""Tensor facts the PAEF rules share, and the rules' use of a live namespace.

Fixtures (tests/fixtures/rules) run without a namespace; these tests cover what only a
namespace (earlier cells' values) can decide: exact dtypes, uniform dict columns, functions
defined in an earlier cell.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import libcst as cst
import numpy as np
import pytest
import torch

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import apply_findings
from paef_jupyter.static.facts import Facts
from paef_jupyter.static.rules._tensor_facts import dtype_of, mutated_in_place, uniform_list


def facts_of(code: str, namespace: dict | None = None) -> Facts:
    return Facts(cst.parse_module(code), namespace)


def expr(facts: Facts, code: str) -> cst.BaseExpression:
    for node in facts.walk(facts.module):
        if isinstance(node, cst.BaseExpression) and facts.code(node) == code:
            return node
    raise AssertionError(f"no node {code!r}")


@pytest.mark.parametrize(
    ("value", "uniform"),
    [
        ([1, 2, 3], True),
        ([0.5, 1.5], True),
        ([[1.0, 2.0], [3.0, 4.0]], True),
        ([True, False], True),
        ([1, 2.5], False),  # torch.tensor gives float32 for the whole, int64 for a slice of ints
        ([True, 1], False),
        ([[1.0, 2.0], [3.0]], False),  # ragged
        ([], False),
        (["a", "b"], False),
        ((1, 2), False),
    ],
)
def test_uniform_list(value: object, uniform: bool) -> None:
    assert uniform_list(value) is uniform


def test_uniform_list_gives_up_beyond_its_budget() -> None:
    assert uniform_list([1.0] * 100, budget=1000)
    assert not uniform_list([1.0] * 100, budget=10)


@pytest.mark.parametrize(
    ("body", "mutated"),
    [
        ("t += 1", True),
        ("t[0] = 1", True),
        ("t.add_(1)", True),
        ("t.append(1)", True),
        ("torch.add(a, b, out=t)", True),
        ("t.x = 1", True),
        ("t = t + 1", False),
        ("u = t[0]", False),
        ("a, t = 1, 2", False),
        ("print(t.sum())", False),
    ],
)
def test_mutated_in_place(body: str, mutated: bool) -> None:
    facts = facts_of(f"import torch\n{body}\n")
    assert mutated_in_place(facts, "t", facts.module) is mutated


@pytest.mark.parametrize(
    ("code", "target", "dtype"),
    [
        ("x = torch.randn(3)\ny = x.relu()", "y", "float32"),
        ("x = torch.randn(3)\ny = x.argmax()", "y", "int64"),
        ("x = torch.randn(3)\ny = x > 0", "y", "bool"),
        ("x = torch.randn(3)\ny = (x > 0).sum()", "y", "int64"),
        ("x = torch.zeros(3, dtype=torch.float64)\ny = x * 2", "y", "float64"),
        ("x = torch.arange(5)\ny = x.float()", "y", "float32"),
        ("x = torch.arange(5)\ny = x / 2", "y", "float"),
        ("y = torch.tensor([1, 2])", "y", "int64"),
        ("y = torch.tensor([1.0, 2])", "y", "float32"),
        ("y = some_call()", "y", None),
        # red team 25: `.to` keeps the dtype only for device arguments; F.pad keeps its input's;
        # the second element of a (values, indices) pair is int64
        ("x = torch.arange(5)\ny = x.to(torch.randn(2).dtype)", "y", None),
        ("x = torch.arange(5)\ny = x.to(torch.randn(2))", "y", None),
        ("x = torch.arange(5)\ny = x.to('cpu')", "y", "int64"),
        ("x = torch.arange(5)\ny = x.to(device, non_blocking=True)", "y", "int64"),
        ("x = torch.randn(2, 3)\ny = x.max(1)[1]", "y", "int64"),
        ("x = torch.randn(2, 3)\ny = x.max(1)[0]", "y", "float32"),
        ("x = torch.randn(2, 3)\ny = torch.sort(x, dim=1)[1]", "y", "int64"),
        ("x = torch.randn(2, 3)\ny = torch.maximum(x, x)[1]", "y", "float32"),
        ("x = torch.arange(5)\ny = torch.nn.functional.pad(x, (0, 1))", "y", "int64"),
    ],
)
def test_dtype_of(code: str, target: str, dtype: str | None) -> None:
    facts = facts_of(f"import torch\n{code}\n{target}\n")
    name = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == target][-1]
    assert dtype_of(facts, name) == dtype


def test_dtype_of_a_live_tensor_is_exact() -> None:
    facts = facts_of("h\n", {"h": torch.zeros(2, dtype=torch.float16)})
    assert dtype_of(facts, expr(facts, "h")) == "float16"


def test_dtype_of_x_in_x_equals_f_of_x_is_the_earlier_x() -> None:
    facts = facts_of("import torch\nh = torch.arange(3)\nh = torch.tensor(h.tolist())\n")
    inner = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == "h"][-1]
    assert dtype_of(facts, inner) == "int64"


# --- rules with a live namespace ---------------------------------------------------------

PING_PONG = "import torch\nout = []\nfor i in range(2):\n    t = torch.tensor(h.tolist())\n    out.append(t)\n"


@pytest.mark.parametrize(("dtype", "suffix"), [(torch.float64, ".float()"), (torch.float32, ""), (torch.int32, ".long()")])
def test_ping_pong_converts_only_dtypes_that_change(dtype: torch.dtype, suffix: str) -> None:
    h = torch.arange(4).to(dtype)
    report = analyze_source(PING_PONG, namespace={"h": h}, rules=["ping-pong"])
    (finding,) = report.findings
    # The original result lives on the host. `.clone()` is kept: `out.append(t)` is a call whose
    # effect on `t` is not followed (a list handed on to an optimizer would change its tensors).
    assert finding.fixable and finding.fix.suggestion == f"h.detach().contiguous().clone(){suffix}.cpu()"
    before = torch.stack([torch.tensor(h.tolist())] * 2)
    after = eval(f"torch.stack([h.detach().contiguous().clone(){suffix}.cpu()] * 2)")
    assert before.dtype == after.dtype and torch.equal(before, after)


DICT_LOOP = "import torch\nfor i in range(0, 4, 2):\n    xb = torch.tensor(data['x'][i : i + 2])\n"


def test_dict_as_list_rewrites_a_uniform_live_column() -> None:
    data = {"x": [0.5, 1.5, 2.5, 3.5], "y": [1, 2, 3, 4]}
    report = analyze_source(DICT_LOOP, namespace={"data": data}, rules=["dict-as-list"])
    (finding,) = report.findings
    assert finding.fixable
    new, applied, _ = apply_findings(DICT_LOOP, report.findings)
    assert "data_x = torch.tensor(data['x'])" in new and "xb = data_x[i : i + 2]" in new
    ns_before: dict = {"data": data}
    ns_after: dict = {"data": data}
    exec(DICT_LOOP, ns_before)
    exec(new, ns_after)
    assert torch.equal(ns_before["xb"], ns_after["xb"]) and ns_before["xb"].dtype == ns_after["xb"].dtype


def test_dict_as_list_only_hints_for_a_mixed_live_column() -> None:
    data = {"x": [0, 1.5, 2, 3]}  # the slice [2, 3] would be int64, the whole column float32
    report = analyze_source(DICT_LOOP, namespace={"data": data}, rules=["dict-as-list"])
    (finding,) = report.findings
    assert not finding.fixable and finding.fix is not None and finding.fix.suggestion


def test_dict_of_tensors_in_the_namespace_is_not_a_finding() -> None:
    data = {"x": torch.arange(4.0)}
    assert not analyze_source(DICT_LOOP, namespace={"data": data}, rules=["dict-as-list"]).findings


EARLIER_CELL = '''import numpy as np


def standardise(raw):
    logged = np.log1p(raw)
    return (logged - logged.mean(0)) / logged.std(0)


def to_device(raw):
    import torch

    return torch.as_tensor(raw).cuda()
'''
CPU_LOOP = "import numpy as np\nfor step in range(3):\n    feats = {fn}(raw)\n    row = feats[step]\n"


@pytest.fixture
def earlier_cell(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A module standing in for an earlier cell (its source is readable, as in IPython)."""
    path = tmp_path / "earlier_cell.py"
    path.write_text(EARLIER_CELL)
    spec = importlib.util.spec_from_file_location("earlier_cell", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["earlier_cell"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    yield module
    del sys.modules["earlier_cell"]


def test_cpu_function_from_an_earlier_cell_is_found_and_its_hoist_left_for_review(earlier_cell) -> None:  # type: ignore[no-untyped-def]
    """A live array of the kernel may be shared with objects the cell cannot see (a tensor made by
    `torch.from_numpy`, a view): the closed world (`outside_values`) proves only immutable live
    values, so the hoist is offered for review, naming the array."""
    raw = np.arange(12.0).reshape(3, 4)
    code = CPU_LOOP.format(fn="standardise")
    report = analyze_source(code, namespace={"standardise": earlier_cell.standardise, "raw": raw}, rules=["cpu-function"])
    (finding,) = report.findings
    assert not finding.fixable and finding.fix is not None and "`raw`" in finding.fix.review
    assert apply_findings(code, report.findings)[0] == code
    new, _, _ = apply_findings(code, report.findings, unsafe=True)
    assert new.index("feats = standardise(raw)") < new.index("for step")


def test_earlier_cell_function_using_torch_is_not_cpu_only(earlier_cell) -> None:  # type: ignore[no-untyped-def]
    code = CPU_LOOP.format(fn="to_device")
    report = analyze_source(code, namespace={"to_device": earlier_cell.to_device, "raw": np.ones(3)}, rules=["cpu-function"])
    assert not report.findings


def test_earlier_cell_function_reading_a_global_the_loop_changes_stays(tmp_path: Path) -> None:
    path = tmp_path / "globals_cell.py"
    path.write_text("import numpy as np\nfactor = 1.0\n\n\ndef scaled(x):\n    return np.log1p(x) * factor\n")
    spec = importlib.util.spec_from_file_location("globals_cell", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    code = "for step in range(3):\n    factor = float(step)\n    y = scaled(raw)\n"
    report = analyze_source(code, namespace={"scaled": module.scaled, "raw": np.ones(3)}, rules=["cpu-function"])
    assert not report.findings


def test_code_in_a_lambda_is_not_hoisted() -> None:
    code = "import torch\nw = [1.0]\nfns = []\nfor i in range(3):\n    fns.append(lambda: torch.tensor(w))\n"
    assert not analyze_source(code, rules=["redundant-tensor"]).findings


def test_earlier_cells_supply_imports_and_values_without_a_namespace() -> None:
    from paef_jupyter.api import analyze
    from paef_jupyter.model import CellRef, SourceUnit

    setup = "import torch\nimport numpy as np\ndata = {'x': np.arange(6.0).tolist()}\nw = torch.ones(4)\nb = torch.zeros(4)\n"
    loop = (
        "for i in range(0, 6, 2):\n"
        "    xb = torch.tensor(data['x'][i : i + 2])\n"
        "    h = torch.randn(3, 4)\n"
        "    y = (h - h.mean(-1, keepdim=True)) / torch.sqrt(h.var(-1, keepdim=True, unbiased=False) + 1e-5) * w + b\n"
    )
    report = analyze([SourceUnit(CellRef("nb.ipynb", 0), setup), SourceUnit(CellRef("nb.ipynb", 1), loop)],
                     rules=["dict-as-list", "operator-fusion"])
    fixes = {f.rule: f.fix for f in report.findings}
    # found: the column is `.tolist()` of an array, seen in cell 0; a hint since red team 45 (that the
    # column holds plain floats, so an empty slice converts alike, is not proved from an array's `.tolist()`)
    assert not fixes["dict-as-list"].automatic
    assert fixes["dict-as-list"].suggestion.startswith("data_x = torch.tensor(data['x'])")
    assert fixes["operator-fusion"].needs_review and "F.layer_norm" not in fixes["operator-fusion"].suggestion
    assert fixes["operator-fusion"].suggestion == "torch.nn.functional.layer_norm(h, h.shape[-1:], w, b, 1e-5)"


def _dtypes(value: object) -> object:
    if isinstance(value, torch.Tensor):
        return (value.dtype, value.requires_grad, value.device.type)
    if isinstance(value, (list, tuple)):
        return [_dtypes(v) for v in value]
    if isinstance(value, dict):
        return {k: _dtypes(v) for k, v in value.items()}
    return type(value).__name__


# Automatic rewrites only: a `review_` pair's output may show the very hazard that keeps it
# from being applied by default (an error no longer caught once the work leaves its `try`).
PAEF_PAIRS = sorted(
    p for rule in ("ping-pong", "list-to-tensor", "dict-as-list", "redundant-tensor", "cpu-function", "operator-fusion")
    for p in (Path(__file__).parent / "fixtures" / "rules" / rule).glob("*.in.py")
    if not p.name.startswith("review_")
)


@pytest.mark.parametrize("before", PAEF_PAIRS, ids=[f"{p.parent.name}/{p.name}" for p in PAEF_PAIRS])
def test_rewrites_keep_dtype_grad_and_device(before: Path) -> None:
    """test_rules compares values; the rewrites must also keep dtype, requires_grad and device."""
    from rule_fixtures import run_fixture

    after = before.with_name(before.name.replace(".in.py", ".out.py"))
    assert _dtypes(run_fixture(before.read_text(), str(before))) == _dtypes(run_fixture(after.read_text(), str(after)))


def test_items_of_an_enumerated_loader_are_its_batches() -> None:
    """`for i, (xb, yb) in enumerate(loader)` types `xb`, `yb` as `for xb, yb in loader` does;
    `i` is the count (and a list enumerated is no loader)."""
    from paef_jupyter.static.types import Kind

    code = (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
        "loader = DataLoader(TensorDataset(torch.randn(4, 2), torch.randn(4)), batch_size=2)\n"
        "rows = [[1, 2], [3, 4]]\n"
        "for i, (xb, yb) in enumerate(loader):\n    xb, i\n"
        "for j, (a, b) in enumerate(rows):\n    a\n"
    )
    module = cst.parse_module(code)
    facts = Facts(module)
    kinds = {name: facts.kind(facts.uses(name)[-1]) for name in ("xb", "i", "a")}  # the reads in the loop bodies
    assert kinds["xb"] is Kind.TENSOR and kinds["i"] is not Kind.TENSOR and kinds["a"] is not Kind.TENSOR


_PARTIALS = '''
import functools
from functools import partial

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.fc = nn.Linear(d, hidden)


def make_batch(n, d):
    return torch.randn(n, d)


def partial(*args):
    return args
'''


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        # a model built through `functools.partial` is a module
        ("build = functools.partial(Net, hidden=8)\nobj = build(3)", "module"),
        ("build = functools.partial(Net, hidden=8)\nobj = build(3).to('cpu')", "module"),
        ("REG = {'a': functools.partial(Net, hidden=8), 'b': functools.partial(Net, hidden=4)}\nobj = REG['a'](3)", "module"),
        ("REG = {'a': functools.partial(Net, hidden=8)}\nbuild = REG['a']\nobj = build(3)", "module"),
        ("base = functools.partial(Net, hidden=8)\nbuild = functools.partial(base, 3)\nobj = build()", "module"),
        ("build = functools.partial(nn.Linear, 3)\nobj = build(8)", "module"),
        # near-misses: not provably a module
        ("build = functools.partial(make_batch, d=3)\nobj = build(4)", "unknown"),  # a function's partial
        ("build = functools.partial(torch.optim.SGD, lr=0.1)\nobj = build([])", "optimizer"),
        ("build = functools.partial(Net, hidden=8)\nbuild = make_batch\nobj = build(3)", "unknown"),  # rebound
        ("REG = {'a': functools.partial(Net, hidden=8)}\nREG['a'] = make_batch\nobj = REG['a'](3)", "unknown"),
        ("REG = {'a': functools.partial(Net, hidden=8), 'b': functools.partial(make_batch, d=3)}\nobj = REG['a'](3)", "unknown"),
        ("build = partial(Net, 8)\nobj = build(3)", "unknown"),  # this unit's own `partial`, not functools'
    ],
)
def test_models_built_through_functools_partial(code: str, kind: str) -> None:
    facts = facts_of(_PARTIALS + code + "\n")
    assert facts.kind(facts.uses("obj")[-1]).value == kind, code


_CONTAINERS = '''
import torch
import torch.nn as nn


class Bag:
    def __getitem__(self, i):
        return [0.5, 1.5][i]


class Stack(nn.Sequential):
    def __getitem__(self, i):
        return 3
'''


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        # an element of torch's module containers is a module, of its parameter containers a tensor
        ("seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU())\nobj = seq[0]", "module"),
        ("seq = nn.Sequential(nn.Linear(3, 4)).to('cpu').eval()\nobj = seq[-1].weight", "tensor"),
        ("layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])\nobj = layers[1]", "module"),
        ("heads = nn.ModuleDict({'a': nn.Linear(3, 1)})\nobj = heads['a']", "module"),
        ("ps = nn.ParameterList([nn.Parameter(torch.zeros(3))])\nobj = ps[0]", "tensor"),
        ("class T:\n    def __init__(self):\n        self.model = nn.Sequential(nn.Linear(3, 4))\n"
         "    def f(self):\n        obj = self.model[0].weight\n        return obj", "tensor"),
        # near-misses: what `__getitem__` gives is not known
        ("bag = Bag()\nobj = bag[0]", "unknown"),
        ("stack = Stack(nn.Linear(3, 4))\nobj = stack[0]", "unknown"),  # a subclass of the program's own
        ("seq = nn.Sequential(nn.Linear(3, 4))\nif cond:\n    seq = [1.0, 2.0]\nobj = seq[0]", "unknown"),
        ("class T:\n    def __init__(self, stack):\n        self.model = nn.Sequential(nn.Linear(3, 4))\n"
         "    def reset(self, stack):\n        self.model = stack\n"
         "    def f(self):\n        obj = self.model[0]\n        return obj", "unknown"),  # rebound to a parameter
        ("seq = nn.Linear(3, 4)\nobj = seq[0]", "unknown"),  # a module that is no container
    ],
)
def test_elements_of_module_containers(code: str, kind: str) -> None:
    facts = facts_of(_CONTAINERS + code + "\n")
    assert facts.kind(facts.uses("obj")[-1]).value == kind, code


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        # a parameter or buffer made by torch.nn is a tensor (KGE's `self.gamma = nn.Parameter(...)`)
        ("import torch\nfrom torch import nn\nobj = nn.Parameter(torch.zeros(3), requires_grad=False)", "tensor"),
        ("import torch\nimport torch.nn as nn\nobj = nn.parameter.Parameter(torch.zeros(3))", "tensor"),
        ("import torch\nfrom torch.nn import Parameter\nobj = Parameter(torch.zeros(3))", "tensor"),
        ("import torch\nfrom torch import nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.gamma = nn.Parameter(torch.Tensor([12.0]), requires_grad=False)\n"
         "    def forward(self, x):\n        obj = self.gamma\n        return obj", "tensor"),
        # near-misses: torch.nn's modules and parameter containers stay modules
        ("import torch\nfrom torch import nn\nobj = nn.Linear(3, 4)", "module"),
        ("import torch\nfrom torch import nn\nobj = nn.ParameterList([nn.Parameter(torch.zeros(3))])", "module"),
        ("import torch\nfrom torch import nn\nobj = nn.ParameterDict({'a': nn.Parameter(torch.zeros(3))})", "module"),
    ],
)
def test_torch_nn_parameters_are_tensors(code: str, kind: str) -> None:
    facts = facts_of(code + "\n")
    assert facts.kind(facts.uses("obj")[-1]).value == kind, code


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        # a method only tensors have, on the output of a model whose class no unit shows
        ("from model import Dec\ndec = Dec()\nout = dec(1)\nobj, idx = out.data.topk(1)", "tensor"),
        ("from model import Dec\ndec = Dec()\nout = dec(1)\nobj = out.kthvalue(2)", "tensor"),
        # near misses: a class of this unit defines `topk`; a method tensors share with others
        ("from model import Dec\nclass Ranking:\n    def topk(self, k):\n        return [k]\n"
         "obj = Ranking().topk(1)", "unknown"),
        ("from model import Dec\ndec = Dec()\nout = dec(1)\nobj = out.data.max()", "unknown"),
        ("from model import Dec\ndec = Dec()\nobj = dec.sort()", "unknown"),
    ],
)
def test_methods_only_tensors_have(code: str, kind: str) -> None:
    facts = facts_of(code + "\n")
    assert facts.kind(facts.uses("obj")[-1]).value == kind, code
