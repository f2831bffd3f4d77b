"""`paef ...` run in this process, through the command line's own `main`.

A new interpreter per call costs seconds of imports (torch, jedi, libcst) and most of the time
of tests that scan many small projects; the process-level behaviour (exit codes, files left
behind, a crash mid-write) is what `test_cli` and `test_data_safety` run in subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
from pathlib import Path

from paef_jupyter import cli
from paef_jupyter.api import analyze_path
from paef_jupyter.static.analyzer import IMPORTED_MODULE_REVIEW
from benchmarks.score_corpus import run_batch_in_subprocess


def paef(*args: str) -> subprocess.CompletedProcess[str]:
    """What `paef ARGS` returns and prints, as a finished process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return subprocess.CompletedProcess(["paef", *args], code, out.getvalue(), err.getvalue())


def proved_lines(root: Path, files: dict[str, str], rule: str, entry: str = "main.py") -> list[int]:
    """Write a project of `files` under `root`, scan its `entry` for `rule` (local modules followed):
    the lines whose rewrite the analysis proves. In a module the entry imports, a proved rewrite is
    still offered for review (`paef fix ENTRY` never rewrites that module): that reason alone counts
    as proved here, so these tests keep measuring the proof."""
    for name, text in files.items():
        (root / name).write_text(text)
    report = analyze_path(str(root / entry), rules=[rule])
    return [f.line for f in report.findings
            if f.fix is not None and (f.fixable or f.fix.needs_review and f.fix.review == IMPORTED_MODULE_REVIEW)]


def same_output(before: Path, after: Path) -> None:
    """The programs `before` and `after` (a file, or a folder run by its `main.py`) print the same.
    Both run in one child process on one CPU thread and no GPU, the scorer's way (torch imported
    once; its process-wide settings put back between them), and each must finish cleanly."""
    old, new = run_batch_in_subprocess([before, after], timeout=300)
    assert old.ok, f"the original fails: {old.error}"
    assert new.ok, f"the rewrite fails: {new.error}"
    assert old.outputs == new.outputs


def _texts(folder: Path) -> dict[Path, bytes]:
    return {f.relative_to(folder): f.read_bytes() for f in sorted(folder.rglob("*.py"))}


def _same_output_if_fixed(before: Path, after: Path, entry: str) -> None:
    """Where `paef fix` changed no file the two runs would run one text, so they are skipped: a
    red-team test guards a rewrite, and runs the program whenever a rewrite is there to change its
    meaning (a torch import and two program runs, most of these tests' time otherwise)."""
    if _texts(before) != _texts(after):
        same_output(before / entry, after / entry)


def fix_keeps_output(tmp_path: Path, program: Path) -> None:
    """A single-file red-team `program` prints the same before and after `paef fix`."""
    before, after = tmp_path / "before", tmp_path / "after"
    for folder in (before, after):
        folder.mkdir()
        shutil.copy(program, folder / program.name)
    done = paef("fix", str(after / program.name), "-o", str(after / program.name))
    assert done.returncode in (0, 1), done.stderr
    _same_output_if_fixed(before, after, program.name)


def fix_project_keeps_output(tmp_path: Path, project: Path, entry: str = "main.py") -> None:
    """Every `.py` file of a red-team `project` folder fixed on its own (`paef fix FILE`, as the
    scorer does); `entry` prints the same before and after."""
    before, after = tmp_path / "before", tmp_path / "after"
    for folder in (before, after):
        shutil.copytree(project, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for file in sorted(after.rglob("*.py")):
        done = paef("fix", str(file), "-o", str(file))
        assert done.returncode in (0, 1), done.stderr
    _same_output_if_fixed(before, after, entry)


def fixed_alone_keeps_output(folder: Path, module: Path, entry: str = "main.py") -> str:
    """`module` (a file of the project in `folder`) fixed on its own in place; `entry` must print the
    same after (run only where the fix changed the module). Returns the fixed module's text."""
    original = module.read_text()
    done = paef("fix", str(module), "-o", str(module))
    assert done.returncode in (0, 1), done.stderr
    text = module.read_text()
    if text != original:
        before = folder.parent / f"{folder.name}.before"
        shutil.copytree(folder, before, ignore=shutil.ignore_patterns("__pycache__"))
        (before / module.relative_to(folder)).write_text(original)
        same_output(before / entry, folder / entry)
    return text
