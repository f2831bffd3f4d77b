"""The red-team tests' before/after check (`paef_cli`): it fails when a rewrite changes what a program
prints or makes it fail, and it runs nothing when `paef fix` changed no file."""

from __future__ import annotations

from pathlib import Path

import pytest

import paef_cli
from benchmarks.score_corpus import Run
from paef_cli import fix_keeps_output, same_output
from rule_fixtures import FIXTURES

PROGRAM = "import torch\ntorch.manual_seed(0)\nx = torch.randn(3)\nprint(round(float(x.sum()), 6), x.dtype)\n"


def _write(folder: Path, text: str) -> Path:
    folder.mkdir()
    (folder / "p.py").write_text(text)
    return folder / "p.py"


def test_same_output_passes_on_the_same_print_and_fails_on_another(tmp_path: Path) -> None:
    same_output(_write(tmp_path / "a", PROGRAM), _write(tmp_path / "b", PROGRAM))
    with pytest.raises(AssertionError):
        same_output(_write(tmp_path / "c", PROGRAM), _write(tmp_path / "d", PROGRAM.replace("x.dtype", "x.double().dtype")))


def test_a_rewrite_that_fails_is_reported_as_the_rewrite(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="the rewrite fails: ZeroDivisionError"):
        same_output(_write(tmp_path / "a", PROGRAM), _write(tmp_path / "b", PROGRAM + "1 / 0\n"))


def test_a_program_no_fix_changed_is_not_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = _write(tmp_path / "src", PROGRAM)  # nothing for any rule to rewrite
    monkeypatch.setattr(paef_cli, "run_batch_in_subprocess", lambda *a, **k: pytest.fail("ran"))
    fix_keeps_output(tmp_path, program)


def test_a_program_a_fix_changed_is_run_before_and_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = FIXTURES / "host-sync" / "accumulate.in.py"
    ran: list[list[Path]] = []
    monkeypatch.setattr(paef_cli, "run_batch_in_subprocess",
                        lambda targets, **k: ran.append(targets) or [Run(True, ["same"])] * 2)
    fix_keeps_output(tmp_path, program)
    assert ran == [[tmp_path / "before" / program.name, tmp_path / "after" / program.name]]
    assert (tmp_path / "after" / program.name).read_text() != program.read_text()
