"""`paef ...` run in this process, through the command line's own `main`.

A new interpreter per call costs seconds of imports (torch, jedi, libcst) and most of the time
of tests that scan many small projects; the process-level behaviour (exit codes, files left
behind, a crash mid-write) is what `test_cli` and `test_data_safety` run in subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import subprocess

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
