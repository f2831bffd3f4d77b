"""The two tables the analysis reads instead of importing torch and NumPy: which calls return new
memory (`fresh_calls`, alias45) and which write their arguments (`mutating_calls`, mut47). Each is
generated from the installed torch and NumPy and committed; a release that changes an op's
annotations, or adds an op, fails here until `--regenerate` is run."""

from __future__ import annotations

import copyreg
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from paef_jupyter.static import fresh_calls, mutating_calls

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("generator", [fresh_calls, mutating_calls], ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_table_is_what_the_installed_torch_and_numpy_give(generator: ModuleType) -> None:
    import numpy as np
    import torch

    made_from = generator.TABLE.read_text().splitlines()[0]
    installed = f"from torch {torch.__version__.split('+')[0]} and NumPy {np.__version__};"
    if installed not in made_from:  # set-up pins torch 2.13.0; elsewhere the table is only as old as its release
        pytest.skip(f"the table was made {made_from.split('--regenerate` ')[-1][:-3]}; installed {installed[5:-1]}")
    # What ran before in the process must not matter: copying or pickling a tensor leaves copyreg's
    # `__slotnames__` cache on the class (the full suite's first fresh-clone run failed on it).
    copyreg._slotnames(torch.Tensor)
    assert generator.TABLE.read_text() == generator.render()


def test_analysis_does_not_import_torch_or_numpy() -> None:
    code = ("import sys, paef_jupyter.static.names, paef_jupyter.static.facts; "
            "print('torch' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout.split()
    assert out == ["False", "False"]
