"""`paef ...` run in this process, through the command line's own `main`.

A new interpreter per call costs seconds of imports (torch, jedi, libcst) and most of the time
of tests that scan many small projects; the process-level behaviour (exit codes, files left
behind, a crash mid-write) is what `test_cli` and `test_data_safety` run in subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
from pathlib import Path

from paef_jupyter import cli


def paef(*args: str) -> subprocess.CompletedProcess[str]:
    """What `paef ARGS` returns and prints, as a finished process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return subprocess.CompletedProcess(["paef", *args], code, out.getvalue(), err.getvalue())


def fixable_lines(root: Path, files: dict[str, str], rule: str, entry: str = "main.py") -> list[int]:
    """Write a project of `files` under `root`, scan its `entry` for `rule`: the lines given an
    automatic fix (the local modules are followed from `entry`)."""
    for name, text in files.items():
        (root / name).write_text(text)
    proc = paef("scan", str(root / entry), "--format", "json", "--rule", rule)
    assert proc.returncode in (0, 1), proc.stderr
    return [f["line"] for f in json.loads(proc.stdout)["findings"] if f["fixable"]]
