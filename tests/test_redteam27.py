"""Red team 27: graph-retention's `.detach()` of a running total or a loss list whose tensor a
call out of sight receives (a csv writer's `writerow`, `pprint`, a `namedtuple` record,
`dict(...)`) or a later notebook cell reads (prints it, asks `grad_fn`, back-propagates);
eval-without-no-grad's wrap of a validation loop whose sum the function keeps, after the loop, on
`self` or in a module-level dict / list / object for another function to back-propagate. The programs are executed before and after
`paef fix`; the single-unit shapes are fixtures (`graph-retention/refuse_total_handed_to_library_calls`,
`total_read_by_number_readers_near_misses`, `eval-without-no-grad/neg_loss_kept_after_loop_then_
backwarded_by_another_method`, `neg_loss_kept_in_module_holders_then_backwarded` and their
`..._near_miss` pairs; `cpu-then-move/refuse_moved_view_with_gaps`, `moved_dense_views_near_misses`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output
from cell_findings import SETUP, TRAIN, cell_findings


REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt27_gr_text_outlets.py", "rt27b_gr_records_hold_totals.py", "rt27b_eval_losses_differentiated.py",
            "rt27c_eval_values_kept_in_globals.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 98a4acf: the detached totals print without `grad_fn=<...>`; the wrapped
    validation loop no longer trains the step that adds its loss."""
    fix_keeps_output(tmp_path, REDTEAM / program)


FIT = ("history = []\ndef fit():\n    for x, y in data:\n        loss = nn.functional.mse_loss(model(x), y)\n"
       "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n        history.append(loss)\n")


def _graph_retention(*cells: str) -> list[tuple[int | None, int, bool]]:
    return cell_findings("graph-retention", *cells)


@pytest.mark.parametrize("later", ["print(running)\n", "running\n", "print(running.grad_fn is not None)\n",
                                   "running.backward()\n", "show = str(running)\n"])
def test_a_later_cell_reading_the_total_refuses_the_detach(later: str) -> None:
    assert _graph_retention(SETUP, TRAIN, later) == [(1, 7, False)]


@pytest.mark.parametrize("later", ["print(round(float(running), 4))\n", "print(running.item())\n",
                                   "print(type(running).__name__)\n", "running = 0.0\n", "print('done')\n"])
def test_a_later_cell_reading_a_number_keeps_the_detach(later: str) -> None:
    assert _graph_retention(SETUP, TRAIN, later) == [(1, 7, True)]


def test_a_global_history_filled_by_a_function_and_read_by_a_later_cell() -> None:
    assert _graph_retention(SETUP, FIT, "fit()\n", "print(history[0])\n") == [(1, 8, False)]
    assert _graph_retention(SETUP, FIT, "fit()\n", "print(len(history))\n") == [(1, 8, True)]


def test_a_local_total_is_not_a_later_cells_name() -> None:
    local = ("def epoch():\n    running = 0.0\n    for x, y in data:\n        loss = nn.functional.mse_loss(model(x), y)\n"
             "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n        running += loss\n"
             "    return running.item()\n")
    assert _graph_retention(SETUP, local, "running = torch.ones(2)\nprint(running)\n") == [(1, 8, True)]
