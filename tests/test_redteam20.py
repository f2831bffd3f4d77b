"""Red team 20's finding across units: a running `.item()` total weighted by a value another
module provides. `float * np.float32` is an np.float32 (and sums as one), `float * tensor` a tensor:
the host-sync rewrite (a float64 tensor total read back with `.item()`) is exact only where the
weight is proved a Python int or float, and a name bound in another module, or the result of a
program function, is not proved one. The single-unit shapes are fixtures under
`tests/fixtures/rules/host-sync/` (`refuse_accumulator_operand_not_a_python_number`,
`accumulator_python_number_operands`)."""

from __future__ import annotations

from pathlib import Path

from managed_loop import HEADER
from paef_cli import proved_lines

_LOOP = HEADER + """for step, (x, y) in enumerate(data):
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    w = {weight}
    total += loss.item() * w
print(type(total).__name__, total)
"""
SCHEDULE = """import numpy as np

BETAS = np.linspace(0.0, 1.0, 4, dtype=np.float32)
BETA = np.float32(0.5)


def beta_at(step):
    return BETAS[step]
"""


def _files(imports: str, weight: str) -> dict[str, str]:
    return {"main.py": _LOOP.format(imports=imports, weight=weight), "schedule.py": SCHEDULE}


def test_a_numpy_scalar_imported_from_a_local_module_is_for_review(tmp_path: Path) -> None:
    """`from schedule import BETA` is an np.float32. Fails on 15895ca (line 15)."""
    assert proved_lines(tmp_path, _files("from schedule import BETA", "BETA"), "host-sync") == []


def test_a_program_function_returning_a_numpy_scalar_is_for_review(tmp_path: Path) -> None:
    """`schedule.beta_at(step)` returns an element of a float32 array. Fails on 15895ca (line 15)."""
    assert proved_lines(tmp_path, _files("import schedule", "schedule.beta_at(step)"), "host-sync") == []


def test_a_module_attribute_holding_a_numpy_scalar_is_for_review(tmp_path: Path) -> None:
    """`schedule.BETAS[step]` (a subscript bound to `w`). Fails on 15895ca (line 15)."""
    assert proved_lines(tmp_path, _files("import schedule", "schedule.BETAS[step]"), "host-sync") == []


def test_a_weight_converted_with_float_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: `float(schedule.beta_at(step))` is a Python float."""
    assert proved_lines(tmp_path, _files("import schedule", "float(schedule.beta_at(step))"), "host-sync") == [15]


def test_a_weight_from_the_step_counter_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: `1.0 / (step + 1)` is arithmetic of a literal and the `enumerate` counter."""
    assert proved_lines(tmp_path, _files("import schedule", "1.0 / (step + 1)"), "host-sync") == [15]
