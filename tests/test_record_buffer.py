"""record-buffer's rewrite keeps results bit for bit: values, dtypes and devices of every
batch, on its fixture pairs and on the DQN-like pipeline it was built for."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef
from rule_fixtures import FIXTURES, run_fixture

ROOT = Path(__file__).resolve().parents[1]
PAIRS = sorted((FIXTURES / "record-buffer").glob("*.in.py"))


def assert_identical(a: object, b: object, where: str = "result") -> None:
    """Stricter than the fixtures' allclose: same dtype, device, shape and exact values."""
    if isinstance(a, torch.Tensor):
        assert isinstance(b, torch.Tensor), where
        assert (a.dtype, a.device, a.shape) == (b.dtype, b.device, b.shape), where
        assert torch.equal(a, b), f"{where}: values differ"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for k in a:
            assert_identical(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_identical(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def _fixed(text: str, name: str) -> str:
    report = analyze_source(text, CellRef(name), rules=["record-buffer"])
    fixed, applied, skipped = apply_findings(text, report.findings)
    assert applied and not skipped
    return fixed


@pytest.mark.parametrize("path", PAIRS, ids=[p.name for p in PAIRS])
def test_rewrite_is_exact(path: Path) -> None:
    text = path.read_text()
    assert_identical(run_fixture(text, str(path)), run_fixture(_fixed(text, str(path)), f"{path} (fixed)"))


def test_rows_stored_as_tensors_never_alias_a_tensor_changed_later() -> None:
    text = (
        "import torch\n"
        "buf = []\n"
        "state = torch.zeros(3)\n"
        "for step in range(4):\n"
        "    state.add_(1.0)\n"
        "    buf.append(state.tolist())\n"
        "    batch = torch.tensor([buf[i] for i in range(len(buf))])\n"
        "result = batch\n"
    )
    fixed = _fixed(text, "alias.py")
    assert ".detach().clone()" in fixed
    assert_identical(run_fixture(text, "alias.py"), run_fixture(fixed, "alias_fixed.py"))


def test_dqn_pipeline_buffer_is_rewritten_and_trains_identically(tmp_path: Path) -> None:
    source = ROOT / "benchmarks" / "pipelines" / "dqn.py"
    fixed = tmp_path / "dqn_fixed.py"
    fixed.write_text(_fixed(source.read_text(), str(source)))
    assert "torch.stack(state_rows)" in fixed.read_text()
    # the per-user appends of state rows become one block per step
    assert ".extend(states.narrow(0, 0, rows).detach().clone().unbind(0))" in fixed.read_text()
    assert ".extend(next_states.narrow(0, 0, len(history)).detach().clone().unbind(0))" in fixed.read_text()
    spec = importlib.util.spec_from_file_location("dqn_fixed", fixed)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from benchmarks.pipelines import dqn

    data = dqn.make_data(tiny=True)
    assert_identical(dqn.before(data), module.before(data))


@pytest.mark.parametrize("n,k", [(5, 5), (40, 7), (1000, 64), (30, 29)])
def test_sampling_indices_draws_what_sampling_records_drew(n: int, k: int) -> None:
    """The hint's claim: `random.sample(range(n), k)` picks the same positions, in the same
    order, as `random.sample(records, k)` from the same state (a list or a deque)."""
    import random
    from collections import deque

    records = [(i, float(i) / 3) for i in range(n)]
    for container in (records, deque(records, maxlen=n)):
        random.seed(n * 31 + k)
        picked = random.sample(container, k)
        random.seed(n * 31 + k)
        assert [records[i] for i in random.sample(range(n), k)] == picked


_CELL = """
for step in range(50):
    replay.append((torch.randn(3).tolist(), step % 2))
    if len(replay) > 8:
        batch = random.sample(replay, 8)
        s, a = zip(*batch)
        x = torch.tensor(s)
"""


@pytest.mark.parametrize("kind", ["list", "deque"])
def test_a_buffer_from_an_earlier_cell_gets_a_hint_never_a_rewrite(kind: str) -> None:
    import random
    from collections import deque

    live = [] if kind == "list" else deque(maxlen=100)
    report = analyze_source(_CELL, CellRef("nb.ipynb", 2), namespace={"replay": live, "torch": torch, "random": random},
                            rules=["record-buffer"])
    assert [(f.line, f.fixable) for f in report.findings] == [(5, False)]
    assert f"Python {kind}" in report.findings[0].message
    assert "earlier cell" in report.findings[0].fix.description


def test_a_name_from_an_earlier_cell_that_is_not_a_list_is_not_a_buffer() -> None:
    import random

    report = analyze_source(_CELL, CellRef("nb.ipynb", 2), namespace={"replay": {}, "torch": torch, "random": random},
                            rules=["record-buffer"])
    assert not report.findings
