"""Static results with a live kernel namespace are never poorer than without one.

`%paef scan` in a kernel passes the kernel's namespace; a kernel that ran the notebook's
imports holds `torch`, `np`, `F`... A name known both to an earlier cell (its import) and to
the namespace once resolved to nothing, and three quarters of the findings vanished.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from paef_jupyter import api
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.source import mask
from paef_jupyter.units import read_units

DEMOS = Path(__file__).resolve().parents[1] / "demo_notebooks"


def _imported_namespace(units: list[SourceUnit]) -> dict:
    """What a kernel holds after running the notebook's import statements."""
    ns: dict = {}
    sys.path.insert(0, str(DEMOS))
    try:
        for unit in units:
            masked = mask(unit.text)
            if not masked.python:
                continue
            for node in ast.parse(masked.text).body:
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    exec(compile(ast.Module([node], []), "<imports>", "exec"), ns)
    finally:
        sys.path.remove(str(DEMOS))
    ns.pop("__builtins__", None)
    return ns


def _imports_torch(path: Path) -> bool:
    """The notebook's own cells import torch (the DDP demo only writes and launches scripts)."""
    for unit in read_units(str(path)):
        masked = mask(unit.text)
        if masked.python:
            for node in ast.walk(ast.parse(masked.text)):
                if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "torch" for a in node.names):
                    return True
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
                    return True
    return False


TORCH_NOTEBOOKS = sorted(p.name for p in DEMOS.glob("*.ipynb") if _imports_torch(p))


def _keys(report) -> set[tuple]:
    return {(f.rule, f.ref.cell, f.line) for f in report.findings}


@pytest.mark.parametrize("notebook", TORCH_NOTEBOOKS)
def test_live_namespace_finds_what_the_file_alone_finds(notebook: str) -> None:
    units = read_units(str(DEMOS / notebook))
    namespace = _imported_namespace(units)
    assert "torch" in namespace.values() or any(getattr(v, "__name__", "") == "torch" for v in namespace.values())
    alone = _keys(api.analyze(units))
    live = _keys(api.analyze(units, namespace=namespace))
    assert alone, "every demo notebook has findings"
    assert alone <= live, f"lost with a live namespace: {sorted(alone - live)}"


def test_earlier_import_and_namespace_module_both_resolve() -> None:
    import torch

    units = [
        SourceUnit(CellRef(path="n.ipynb", cell=0), "import torch\nfrom torch import tensor\nw = [1.0, 2.0]"),
        SourceUnit(CellRef(path="n.ipynb", cell=1),
                   "for step in range(10):\n    m = torch.tensor(w)\n    n = tensor(w)\n    print(m + n)"),
    ]
    for namespace in (None, {"torch": torch, "tensor": torch.tensor}):
        rules = {(f.rule, f.line) for f in api.analyze(units, namespace=namespace).findings if f.ref.cell == 1}
        assert ("redundant-tensor", 2) in rules, namespace
        assert ("redundant-tensor", 3) in rules, namespace


def test_no_grad_from_an_earlier_import_is_seen_with_a_namespace() -> None:
    """The loop under `torch.no_grad()` is no evaluation-without-no-grad, namespace or not."""
    import torch

    units = [
        SourceUnit(CellRef(path="n.ipynb", cell=0), "import torch\nmodel = torch.nn.Linear(4, 2)\nval = [torch.randn(3, 4)]"),
        SourceUnit(CellRef(path="n.ipynb", cell=1),
                   "model.eval()\nwith torch.no_grad():\n    for xb in val:\n        out = model(xb)"),
    ]
    for namespace in (None, {"torch": torch}):
        assert not [f for f in api.analyze(units, namespace=namespace).findings if f.ref.cell == 1], namespace


@pytest.mark.parametrize("notebook", ["niser_recommender.ipynb", "transfers.ipynb"])
def test_jedi_in_the_kernel_process_finds_what_its_subprocess_finds(notebook: str, monkeypatch) -> None:
    """`%load_ext` lets jedi inspect compiled modules in the kernel's own process (no second
    import of torch in a subprocess, on the first cell's critical path): same findings."""
    from paef_jupyter.static.types import JediOracle

    units = read_units(str(DEMOS / notebook))
    namespace = _imported_namespace(units)
    found = {}
    for here in (False, True):
        monkeypatch.setattr(JediOracle, "in_process", here)
        found[here] = _keys(api.analyze(units, namespace=namespace))
    assert found[True] == found[False] and found[True]
