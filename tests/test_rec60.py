"""Recall 60: two facts cpu-then-move lacked for public checks' still-missed labels.

- a `torch.distributions` object built from host tensors draws on the host (public check 48, p03 line
  156: `noise.sample((n,)).to(device)` with the distribution handed in by the caller);
- arithmetic keeps a host tensor of at least one dimension on the host whatever the other operand
  (public check 48, p02 lines 30-32: `torch.range(0, b - 1) * m + k` then `.cuda()`).
Every new finding is a hint: no edits, never automatic."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path

ROOT = Path(__file__).resolve().parents[1]
P03 = ROOT / "benchmarks" / "public48" / "p03_ebm_nce.py"
FIX = ROOT / "tests" / "fixtures" / "rules" / "cpu-then-move"


def _moves(path: Path) -> dict[int, object]:
    return {f.line: f for f in analyze_path(str(path), rules=["cpu-then-move"]).findings}


def _hint(finding: object) -> bool:
    fix = finding.fix  # type: ignore[attr-defined]
    return fix is not None and not fix.automatic and not fix.edits


def test_public48_p03_host_distribution_draw_found_as_a_hint() -> None:
    found = _moves(P03)
    assert 156 in found and _hint(found[156])
    assert "draws on the CPU" in found[156].message  # type: ignore[attr-defined]


def test_distribution_fixture_fires_on_both_shapes() -> None:
    found = _moves(FIX / "pos_host_distribution_draw_moved.py")
    assert set(found) == {17, 28} and all(_hint(f) for f in found.values())


def test_distribution_near_misses_silent() -> None:
    assert _moves(FIX / "neg_host_distribution_draw_near_misses.py") == {}


GATE = '''import torch
import torch.nn as nn


def gate_positions(values, k):
    batch = values.size(0)
    m = values.size(1)
    where = torch.range(start=0, end=batch - 1) * m + k
    if values.is_cuda:
        where = where.cuda()
    return torch.index_select(values.view(-1), 0, where.long())


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    out = net(torch.randn(2 + step, 4, device=device))
    loss = gate_positions(out, 1).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def test_range_times_a_parameter_then_moved(tmp_path: Path) -> None:
    path = tmp_path / "gate.py"
    path.write_text(GATE)
    found = _moves(path)
    assert set(found) == {10} and _hint(found[10])


def test_range_given_the_device_is_silent(tmp_path: Path) -> None:
    path = tmp_path / "gate.py"
    path.write_text(GATE.replace("end=batch - 1)", "end=batch - 1, device=values.device)"))
    assert _moves(path) == {}


def test_one_size_factory_under_arithmetic_is_silent(tmp_path: Path) -> None:
    """`torch.zeros(n)` may be 0-d (`n` a shape): a 0-d host tensor plus a device tensor is a device tensor."""
    path = tmp_path / "gate.py"
    path.write_text(GATE.replace("torch.range(start=0, end=batch - 1)", "torch.zeros(batch)"))
    assert _moves(path) == {}


def test_range_fixture_fires_on_three_shapes() -> None:
    found = _moves(FIX / "pos_host_range_arithmetic_moved.py")
    assert set(found) == {17, 22, 24} and all(_hint(f) for f in found.values())


def test_range_near_misses_silent() -> None:
    assert _moves(FIX / "neg_host_range_arithmetic_near_misses.py") == {}
