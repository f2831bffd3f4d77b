"""The same code gets the same findings however it is analysed (issue 8): in a fresh process or
after other programs in one process (either order), under another file name, or as a one-cell
notebook. `paef scan dir/` and the magic analyse many units in one process, so state carried from
one analysis to the next would change what users see. The wider check is
`benchmarks/determinism_check.py` (results in `benchmarks/results/determinism56.md`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchmarks.determinism_check import findings, fresh, one_process

ROOT = Path(__file__).resolve().parent.parent
# Automatic and review wraps of eval-without-no-grad, the rule whose wraps a long run was seen to lose.
PROGRAMS = [str(ROOT / p) for p in (
    "benchmarks/corpus/blind5_rotnet_ssl.py",
    "benchmarks/redteam/cf_more.py",
    "benchmarks/corpus/blind2_distill_kd.py",
    "benchmarks/corpus/blind2_eval_numpy_metrics.py",
)]


def test_one_process_in_either_order_is_a_fresh_process():
    alone = fresh(PROGRAMS)
    assert any(kind == "auto" for rows in alone.values() for *_, kind, _ in rows)
    assert one_process(PROGRAMS) == alone
    assert one_process(PROGRAMS[::-1]) == alone


def _placed(rows, path: str) -> set[tuple]:
    """The rows of the file at `path`, without its name (cells read as lines of one file)."""
    return {row[1:] for row in rows if row[0].split(":")[0] == path}


def test_same_text_under_another_name_and_as_a_one_cell_notebook(tmp_path):
    program = PROGRAMS[0]
    expected = _placed(findings(program), program)
    copy = tmp_path / "other_name.py"
    shutil.copy(program, copy)
    assert _placed(findings(str(copy)), str(copy)) == expected
    notebook = tmp_path / "one_cell.ipynb"
    cell = {"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}, "outputs": [],
            "source": Path(program).read_text()}
    notebook.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert _placed(findings(str(notebook)), str(notebook)) == expected
