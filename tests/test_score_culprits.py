"""The scorer names the rewrite that broke a program, also when it was made in a project module
fixed on its own (`paef fix MODULE`), whose fixes the entry's findings hold only for review."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from benchmarks import score_corpus
from benchmarks.score_corpus import Run, analyze_program, check_rewrites, discover

PROJECT = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus" / "blind2_project_sessrec"


def _engine_decides(target: Path, times: int = 1, timeout: float = 0.0) -> Run:
    """A stand-in run whose output is the engine module's text: any change to it changes the output."""
    return Run(True, [hashlib.sha1((target / "engine.py").read_bytes()).hexdigest()])


@pytest.fixture
def project(tmp_path: Path) -> score_corpus.Program:
    shutil.copytree(PROJECT, tmp_path / "corpus" / PROJECT.name, ignore=shutil.ignore_patterns("__pycache__"))
    (program,) = discover(tmp_path / "corpus", names=[PROJECT.name])
    assert program.runnable
    return program


def test_a_harmful_rewrite_in_a_module_fixed_alone_is_named(project, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(score_corpus, "run_in_subprocess", _engine_decides)
    _, findings = analyze_program(project, None)
    assert not any(f.fixable and f.ref.path.endswith("engine.py") for f in findings)  # review from the entry
    result = check_rewrites(project, findings, None, False, tmp_path / "runs", _engine_decides(project.path))
    assert ("eval-without-no-grad", "blind2_project_sessrec/engine.py:23") in [
        (h.rule, h.where.split("corpus/")[-1]) for h in result.harms
    ], result.harms
    assert all("only the fixes together" not in h.why for h in result.harms)


def test_a_rewrite_that_keeps_the_output_is_no_harm(project, tmp_path, monkeypatch) -> None:
    """Near miss: the same project, a run that the rewrite does not change."""
    monkeypatch.setattr(score_corpus, "run_in_subprocess", lambda target, times=1, timeout=0.0: Run(True, ["same"]))
    _, findings = analyze_program(project, None)
    result = check_rewrites(project, findings, None, False, tmp_path / "runs", Run(True, ["same"]))
    assert result.applied and not result.harms
