"""Red team 21's programs executed before and after `paef fix`: an evaluation loop over layers with
PyTorch's grad-off fast path (transformer / attention / LSTM), where the class is reached without
a call spelled `nn.X(...)` (a subclass, its defining module, `functools.partial`, a subclass in one
local module stacked by a class of another). Wrapped in `no_grad`, the fast path changes the
numbers (zeros at padded positions), so the wrap must stay for review. The single-unit shapes are
fixtures under `tests/fixtures/rules/eval-without-no-grad/` (`refuse_fast_path_layer_*`,
`fast_path_lookalikes_near_misses`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paef_cli import paef

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt21_fp_subclass.py", "rt21_fp_module_path.py", "rt21_fp_partial.py",
            "rt21b_proj_fast_path_two_modules_deep"]


def _run(folder: Path, entry: str) -> str:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run([sys.executable, entry], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 0a16905: the loop is wrapped in `no_grad` and the printed sums change."""
    source = REDTEAM / program
    before, after = tmp_path / "before", tmp_path / "after"
    if source.is_dir():
        shutil.copytree(source, before)
        shutil.copytree(source, after)
        entry = "main.py"
    else:
        before.mkdir()
        after.mkdir()
        entry = program
        shutil.copy(source, before / entry)
        shutil.copy(source, after / entry)
    done = paef("fix", str(after / entry), "-o", str(after / entry))
    assert done.returncode in (0, 1), done.stderr
    assert _run(before, entry) == _run(after, entry)
