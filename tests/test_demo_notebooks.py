"""Every demo notebook runs headless, top to bottom, and its `%%paef` cells name their antipattern.

The notebooks carry their expected rule ids in `metadata.paef_demo.expected_rules`. They are
executed once each (a real kernel from this interpreter, cwd = demo_notebooks/) and the
results are shared by the assertions below.
"""

from __future__ import annotations

import importlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMOS = ROOT / "demo_notebooks"
NOTEBOOKS = sorted(DEMOS.glob("*.ipynb"))
NAMES = [p.stem for p in NOTEBOOKS]
PAPER_SIX = {"operator-fusion", "ping-pong", "dict-as-list", "list-to-tensor", "redundant-tensor", "cpu-function"}


def _magic_available() -> bool:
    try:
        importlib.import_module("paef_jupyter.magic")
    except ImportError:
        return False
    return True


needs_magic = pytest.mark.skipif(not _magic_available(), reason="magic not available yet")


def _read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(DEMOS / f"{name}.ipynb", as_version=4)


def _expected(name: str) -> list[str]:
    return list(_read(name).metadata["paef_demo"]["expected_rules"])


def _is_paef_cell(cell: nbformat.NotebookNode) -> bool:
    """A `%%paef` cell, or `%paef profile SCRIPT` (a script run on several ranks)."""
    return cell.cell_type == "code" and cell.source.lstrip().startswith(("%%paef", "%paef profile"))


# Appended to each notebook before it runs: the rules of the last `%%paef` report, read
# through the public `%paef last`, so the check does not depend on how the report is drawn.
PROBE = '''
_paef_report = get_ipython().run_line_magic("paef", "last")
print("PAEF_RULES=" + ",".join(sorted({f.rule for f in _paef_report.findings})))
'''


def _execute(name: str) -> nbformat.NotebookNode:
    from nbclient import NotebookClient

    nb = _read(name)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE.strip()))
    NotebookClient(
        nb, kernel_name="python3", timeout=300, allow_errors=True,
        resources={"metadata": {"path": str(DEMOS)}},
    ).execute()
    return nb


@lru_cache(maxsize=None)
def _executed_all() -> dict[str, nbformat.NotebookNode]:
    """Run every demo once, two kernels at a time (the `%%paef` cells take seconds each)."""
    old = os.environ.get("PYTHONPATH")
    # The kernels inherit it: paef_jupyter is importable without installing the package.
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), old) if p)
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip(NAMES, pool.map(_execute, NAMES)))
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def _executed(name: str) -> nbformat.NotebookNode:
    return _executed_all()[name]


def _reported_rules(nb: nbformat.NotebookNode) -> set[str]:
    for out in nb.cells[-1].outputs:
        if out.output_type == "stream" and "PAEF_RULES=" in out.text:
            listed = out.text.split("PAEF_RULES=", 1)[1].strip()
            return set(listed.split(",")) if listed else set()
    raise AssertionError(f"`%paef last` gave no report: {nb.cells[-1].outputs}")


def _paef_output_text(nb: nbformat.NotebookNode) -> str:
    """Everything the `%%paef` cells showed, plus the widget state they left, as one text."""
    outputs = [o for cell in nb.cells if _is_paef_cell(cell) for o in cell.outputs]
    widgets = nb.metadata.get("widgets", {})
    return json.dumps(outputs) + json.dumps(widgets)


# --- the notebooks as committed (no kernel) ---------------------------------------------


def test_there_is_a_notebook_per_antipattern_and_rule_group() -> None:
    assert set(NAMES) >= {
        "operator_fusion", "ping_pong", "dict_as_list", "list_to_tensor", "redundant_tensor", "cpu_function",
        "host_syncs", "transfers", "eval_no_grad", "graph_retention", "niser_recommender", "dqn_recommender",
    }
    covered = {rule for name in NAMES for rule in _expected(name)}
    assert covered >= PAPER_SIX | {"host-sync", "cpu-then-move", "eval-without-no-grad", "graph-retention"}


@pytest.mark.parametrize("name", NAMES)
def test_committed_without_outputs(name: str) -> None:
    nb = _read(name)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: outputs committed"


@pytest.mark.parametrize("name", NAMES)
def test_loads_the_extension_and_profiles_a_cell(name: str) -> None:
    nb = _read(name)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert "%load_ext paef_jupyter" in code
    assert any(src.startswith(("%%paef", "%paef profile")) for src in code)
    # A multi-rank job is compared from its two profiled runs (`compare_jobs`).
    assert any(("compare(before, after" in src or "compare_jobs(before, after" in src) for src in code), \
        f"{name}: no measured before/after cell"


# --- executed -----------------------------------------------------------------------------


@pytest.mark.kernel
@needs_magic
@pytest.mark.parametrize("name", NAMES)
def test_runs_without_errors(name: str) -> None:
    nb = _executed(name)
    errors = [
        f"cell {i}: {o.get('ename')}: {o.get('evalue')}"
        for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
        for o in cell.outputs if o.output_type == "error"
    ]
    assert not errors, f"{name}: " + "; ".join(errors)
    measured = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs
                if o.output_type == "stream" and "speed-up" in o.text]
    assert measured, f"{name}: the timing cell printed no speed-up"


@pytest.mark.kernel
@needs_magic
@pytest.mark.parametrize(
    "name,rule", [(name, rule) for name in NAMES for rule in _expected(name)], ids=lambda v: str(v)
)
def test_paef_names_the_antipattern(name: str, rule: str) -> None:
    from paef_jupyter.static.rules import RULES

    if rule not in RULES:
        pytest.skip(f"rule {rule} not implemented yet")
    nb = _executed(name)
    reported = _reported_rules(nb)
    assert rule in reported, f"{name}: %%paef did not report {rule} (it reported {sorted(reported)})"
    assert rule in _paef_output_text(nb), f"{name}: {rule} is in the report but not shown"
