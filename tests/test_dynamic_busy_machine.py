"""A profile taken while other processes hold the CPU: a line's time then holds the time the cell
waited, runnable, for a CPU (preemption lands on whichever line runs), so a finding that rests on
a time share alone is a lead to measure again (low), not a medium; the report says the machine was
busy.

The busy machine is made, not hoped for: `paef profile` runs in a child process pinned to the same
CPU as a spinning process, so the cell waits for about half of its time whatever else runs on the
box (the test process itself is never pinned: its threads would keep the pin for later tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from paef_jupyter.dynamic.line_tracer import runqueue_wait_ns
from paef_jupyter.model import Report, Severity

from dynamic_helpers import HELPER_WORK, profile_window as _profile  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.usefixtures("one_torch_thread"), pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or runqueue_wait_ns(os.getpid()) is None,
    reason="needs Linux CPU affinity and schedstat",
)]


@pytest.fixture
def shared_cpu() -> Iterator[int]:
    """A CPU that a spinning process keeps busy for the test's duration."""
    cpu = min(os.sched_getaffinity(0))
    spinner = subprocess.Popen(
        [sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"]
    )
    try:
        yield cpu
    finally:
        spinner.kill()
        spinner.wait()


def _profile_on(cpu: int, tmp_path: Path, text: str) -> Report:
    """`paef profile` of `text` in a process pinned to `cpu`, read back from its JSON report."""
    path, out = tmp_path / "prog.py", tmp_path / "report.json"
    path.write_text(text)
    run = (f"import os, sys; os.sched_setaffinity(0, {{{cpu}}}); "
           "from paef_jupyter.cli import main; sys.exit(main(sys.argv[1:]))")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", run, "profile", str(path), "--json", str(out)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    report = Report.from_json(json.loads(out.read_text()))
    assert not report.errors and report.profile is not None and report.profile.mode == "window"
    return report


def test_on_a_shared_cpu_time_shares_are_leads_and_the_report_says_the_machine_was_busy(tmp_path, shared_cpu):
    report = _profile_on(shared_cpu, tmp_path, HELPER_WORK.replace("ARG", "40000 + step"))
    profile = report.profile
    assert profile.cpu_wait_share is not None and profile.cpu_wait_share >= 0.25, profile.cpu_wait_share
    assert profile.busy
    assert any(note.startswith("the machine was busy") for note in profile.notes), profile.notes
    timed = [f for f in report.findings if f.source == "dynamic"]
    assert timed, [(f.rule, f.line, f.source) for f in report.findings]
    assert all(f.severity is Severity.LOW for f in timed)
    assert all("re-run on a quiet machine" in f.explanation for f in timed)


def test_a_quiet_run_measures_its_wait_and_says_nothing_of_it(tmp_path):
    # Near miss: the same program with the CPU to itself as far as the box allows (the wait is
    # measured, not assumed: on a busy box the finding is a lead and the note says why).
    report = _profile(tmp_path, HELPER_WORK.replace("ARG", "40000 + step"))
    profile = report.profile
    assert profile.cpu_wait_share is not None
    finding = next(f for f in report.findings if (f.rule, f.line) == ("cpu-function", 7))
    assert finding.severity is (Severity.LOW if profile.busy else Severity.MEDIUM)
    assert any(n.startswith("the machine was busy") for n in profile.notes) == profile.busy


def test_counted_evidence_stands_on_a_busy_machine(tmp_path, shared_cpu):
    # Near miss: a tensor rebuilt from a constant list every step is a static finding the profile
    # confirms by what it counts (tensors built from Python data), not by a time share alone.
    # Long enough iterations (milliseconds) for the window to span several scheduler slices.
    text = """import torch
w = torch.randn(64, 4)
rows = [[float(i + j) for j in range(64)] for i in range(4000)]

for step in range(12):
    x = torch.tensor(rows)
    y = x @ w
"""
    report = _profile_on(shared_cpu, tmp_path, text)
    assert report.profile.busy
    found = [(f.rule, f.line, f.severity) for f in report.findings if f.line == 6]
    assert found and all(sev is not Severity.LOW for _, _, sev in found), found
    assert report.findings[0].line == 6
