"""Idiomatic, clean training/eval programs: neither `paef scan` nor `paef profile` may raise a
medium or high finding on them. A false alarm at the top of a report costs more trust than a
missed finding, so these programs are the product's negative suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path, profile_path
from paef_jupyter.model import Finding, Severity

CLEAN = Path(__file__).parent / "fixtures" / "clean"
PROGRAMS = sorted(p.name for p in CLEAN.glob("*.py"))

# Static false positives owned by rule modules of other engineers: {program: reason}.
STATIC_XFAIL: dict[str, str] = {}


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _serious(findings: tuple[Finding, ...]) -> list[str]:
    return [
        f"{f.rule} line {f.line} ({f.severity.value}): {f.message}"
        for f in findings
        if f.severity in (Severity.MEDIUM, Severity.HIGH)
    ]


def test_the_suite_is_big_enough() -> None:
    assert len(PROGRAMS) >= 12


@pytest.mark.parametrize("program", PROGRAMS)
def test_scan_finds_nothing_serious(program: str, request: pytest.FixtureRequest) -> None:
    if program in STATIC_XFAIL:
        request.applymarker(pytest.mark.xfail(strict=False, reason=STATIC_XFAIL[program]))
    report = analyze_path(str(CLEAN / program))
    assert not report.errors
    assert _serious(report.findings) == []


@pytest.mark.parametrize("program", PROGRAMS)
def test_profile_finds_nothing_serious(program: str) -> None:
    report = profile_path(str(CLEAN / program))
    assert not report.errors, report.errors
    profile = report.profile
    assert profile is not None and profile.mode != "off"
    # On failure, say what the measurement rested on: a flaky false alarm needs its window.
    context = (
        f"{profile.profiled_iterations} of {profile.iterations} iterations profiled; notes: {profile.notes}; "
        f"lines (ms, ms outside ops): {[(s.line, round(s.cpu_time_s * 1e3, 2), round((s.cpu_time_s - s.op_time_s) * 1e3, 2)) for s in profile.lines]}"
    )
    assert _serious(report.findings) == [], context
    if program == "dataloader_workers.py":  # read from the header: the wait is for its workers
        assert profile.window_loader_workers == 2
