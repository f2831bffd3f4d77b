"""truth18: a share-based finding is a cost paid every profiled iteration, not a stall in some.

CI (`pytest -n 2` under load) once rated the clean FixMatch-shaped program of truth17 with a
medium `cpu-function` on `loss = self._step(x)` while the cell's run-queue wait was low (not
"busy"). Times are typical - the median of the window's 3 iterations - so one slow iteration
cannot decide; two can. Reproduced here under load: the same line at 85% of the median
iteration (2.8 ms outside torch per iteration against 40 us in a quiet run), the stalls in two of
the three iterations. A stall the run-queue counter does not see (a sleep or a wait for a lock:
another thread holding the interpreter, a page fault, a collection) is paid on whatever line
runs. Now a line's (or a block's) time outside torch is kept per profiled iteration
(`LineStat.iteration_host_s`), and a finding rated by its share whose cheapest iteration is under
half the typical one is a lead (low), with a note saying so.
"""

from __future__ import annotations

import pytest
from fixtures.traces.build import TraceBuilder, looped

from dynamic_helpers import profile_window

from paef_jupyter.correlate import UNEVEN_NOTE, correlate
from paef_jupyter.dynamic.attribution import attribute, line_stats
from paef_jupyter.dynamic.code_files import CodeFile
from paef_jupyter.dynamic.trace_events import parse_chrome_trace
from paef_jupyter.model import CellRef, LineStat, Profile, Report, Severity

CELL = CellRef("prog.py")
FILES = (CodeFile("/k/prog.py", CELL),)
_UNEVEN_START = UNEVEN_NOTE.split("{")[0]


def _looped(slow: dict[int, float], iterations: int = 3) -> list[LineStat]:
    """`looped`'s trace (line 4: 10 us op, 10 us of Python, `slow[i]` us more in iteration i), attributed."""
    b = TraceBuilder()
    looped(b, slow, iterations)
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    return list(line_stats(result, FILES))


# --- attribution: per-iteration time outside torch ----------------------------------------


def test_each_iterations_time_outside_torch_is_kept():
    stats = {s.line: s for s in _looped({1: 1000.0, 2: 900.0})}
    line = stats[4]
    assert line.iteration_host_s == pytest.approx((10e-6, 1010e-6, 910e-6))
    # the median iteration (910 us outside torch) is what the line costs: two stalls set it
    assert line.cpu_time_s - line.op_time_s == pytest.approx(3 * 910e-6)


def test_fewer_than_three_iterations_keep_no_per_iteration_times():
    """Near miss: with two iterations the times are sums; no per-iteration figure to judge."""
    assert all(s.iteration_host_s == () for s in _looped({1: 1000.0}, iterations=2))


# --- correlate: a share paid in some iterations only is a lead ----------------------------


def _profile(per_iteration: tuple[float, ...], *, busy: bool = False, op: float = 0.0001) -> Profile:
    n = len(per_iteration) or 3
    typical = sorted(per_iteration)[(n - 1) // 2] if per_iteration else 0.001
    host = typical * n
    stat = LineStat(ref=CELL, line=9, cpu_time_s=host + op * n, op_time_s=op * n, hits=n, iterations=n,
                    iteration_host_s=per_iteration)
    header = LineStat(ref=CELL, line=8, cpu_time_s=1e-6 * n, hits=n, iterations=n)
    return Profile(engine="torch", mode="window", window_ref=CELL, window_line=8, lines=(header, stat),
                   cpu_time_s=host + op * n + 1e-6 * n, wall_time_s=1.0, profiled_iterations=n,
                   cpu_wait_share=0.6 if busy else 0.0)


def _dynamic(profile: Profile):
    found = [f for f in correlate(Report(findings=()), profile).findings if f.source == "dynamic"]
    assert len(found) == 1, found
    return found[0]


def test_a_share_paid_in_two_of_three_iterations_is_a_lead_with_a_note():
    finding = _dynamic(_profile((0.00004, 0.0028, 0.0031)))
    assert finding.rule == "cpu-function" and finding.severity is Severity.LOW
    assert any(n.startswith(_UNEVEN_START) and "in 1 of 3" in n for n in finding.evidence.notes), finding.evidence.notes
    assert "Not paid every iteration" in finding.explanation


def test_a_share_paid_every_iteration_stays_medium():
    """Near miss: the same typical cost in each of the three iterations (a real per-iteration cost,
    with the spread real work has)."""
    finding = _dynamic(_profile((0.0024, 0.0028, 0.0031)))
    assert finding.severity is Severity.MEDIUM
    assert not any(n.startswith(_UNEVEN_START) for n in finding.evidence.notes)


def test_a_cheapest_iteration_at_half_the_typical_one_is_still_every_iteration():
    """Near miss: data-dependent work (a batch half the size) is paid in every iteration."""
    assert _dynamic(_profile((0.0015, 0.0028, 0.0031))).severity is Severity.MEDIUM


def test_without_per_iteration_times_the_rating_is_unchanged():
    """Near miss: a profile without them (a partial first iteration, an older report) keeps the
    rating by share alone."""
    assert _dynamic(_profile(())).severity is Severity.MEDIUM


def test_busy_and_uneven_say_both():
    finding = _dynamic(_profile((0.00004, 0.0028, 0.0031), busy=True))
    assert finding.severity is Severity.LOW
    assert "re-run on a quiet machine" in finding.explanation and "Not paid every iteration" in finding.explanation


def test_a_block_of_lines_is_judged_on_its_summed_iterations():
    """Two consecutive host lines, each stalled in a different iteration: summed, the block's
    cheapest iteration still holds most of the typical one - paid every iteration."""
    n = 3
    a = LineStat(ref=CELL, line=9, cpu_time_s=0.003, hits=n, iterations=n, iteration_host_s=(0.001, 0.001, 0.0005))
    b = LineStat(ref=CELL, line=10, cpu_time_s=0.003, hits=n, iterations=n, iteration_host_s=(0.0005, 0.001, 0.001))
    header = LineStat(ref=CELL, line=8, cpu_time_s=1e-6 * n, hits=n, iterations=n)
    profile = Profile(engine="torch", mode="window", window_ref=CELL, window_line=8, lines=(header, a, b),
                      cpu_time_s=0.0061, wall_time_s=1.0, profiled_iterations=n, cpu_wait_share=0.0)
    finding = _dynamic(profile)
    assert (finding.line, finding.end_line, finding.severity) == (9, 10, Severity.MEDIUM)
    stalled = (0.00002, 0.001, 0.001)
    profile = Profile(**{**vars(profile), "lines": (header, LineStat(**{**vars(a), "iteration_host_s": stalled}),
                                                   LineStat(**{**vars(b), "iteration_host_s": stalled}))})
    assert _dynamic(profile).severity is Severity.LOW


# --- real profiles: a stall injected in two of the three profiled iterations ---------------

pytestmark = pytest.mark.usefixtures("one_torch_thread")

STALLED = '''import time
import torch

model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [torch.randn(16, 8) for _ in range(30)]


def step(x, i):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if STALL:
        time.sleep(0.004)
    return float(loss)


for i in range(30):
    loss = step(batches[i], i)
'''


def _step_findings(text: str):
    """The dynamic `cpu-function` findings of a profile of `text`, and whether the box was busy
    (preemption then adds stalls of its own to any iteration)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        report = profile_window(Path(folder), text)
    assert report.profile.profiled_iterations == 3
    return [f for f in report.findings if f.source == "dynamic" and f.rule == "cpu-function"], report.profile.busy


def test_a_stall_in_two_of_three_profiled_iterations_is_no_medium_finding():
    """The stall (a 4 ms sleep: off the CPU, so the run-queue counter sees no wait) in every
    iteration but each third one: any three consecutive iterations hold two. It costs the median
    iteration; the call line and the sleep's line are leads, said so, never medium."""
    found, busy = _step_findings(STALLED.replace("STALL", "i % 3"))
    assert found, "the stall is in the median iteration: its lines are measured"
    assert all(f.severity is Severity.LOW for f in found), [(f.line, f.severity) for f in found]
    # on a busy box a preemption may stall the third iteration too: low for being busy, then
    assert busy or all(any(n.startswith(_UNEVEN_START) for n in f.evidence.notes) for f in found)


def test_a_stall_in_one_of_three_iterations_is_no_finding():
    """Near miss: one slow iteration of three never sets the median."""
    found, busy = _step_findings(STALLED.replace("STALL", "i % 3 == 0"))
    assert not found or busy and all(f.severity is Severity.LOW for f in found)


def test_the_same_cost_every_iteration_is_not_called_uneven():
    """Near miss: the sleep in every iteration is the line's cost each iteration (medium on a
    quiet machine; low with the busy note otherwise) - never the uneven note."""
    found, busy = _step_findings(STALLED.replace("STALL", "True"))
    assert found
    assert busy or not any(n.startswith(_UNEVEN_START) for f in found for n in f.evidence.notes)
    assert busy or all(f.severity is Severity.MEDIUM for f in found)


# --- garbage collections: measured, said, and no line's work ------------------------------

from paef_jupyter.dynamic.build import GC_NOTE  # noqa: E402
from paef_jupyter.dynamic.trace_events import GC_RANGE  # noqa: E402


def test_a_collection_is_left_out_of_the_line_it_fell_on_and_of_the_iteration():
    """Line 4 stalls 1000 us in a collection in iterations 1 and 2: once between its deeper work
    and the op (a gap), once inside torch's own range (an optimizer's Python). Its time, its
    torch time and the iterations' lengths are what they are without the collections."""
    b = TraceBuilder()
    t = 0.0
    for i in range(3):
        extra = 1000.0 if i else 0.0
        b.line(0, 3, t, 2)
        b.line(0, 4, t + 3, 20 + extra)
        if i == 1:
            b.host(GC_RANGE, t + 4, 1000, cat="user_annotation")
            b.host("aten::mm", t + 1004, 10)
        else:
            b.host("torch: step", t + 4, 10 + extra, cat="user_annotation")
            if i == 2:
                b.host(GC_RANGE, t + 6, 1000, cat="user_annotation")
        t += 24 + extra
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    line = {s.line: s for s in line_stats(result, FILES)}[4]
    assert line.iteration_host_s == pytest.approx((10e-6,) * 3)
    assert line.cpu_time_s == pytest.approx(3 * 20e-6) and line.op_time_s == pytest.approx(3 * 10e-6)
    assert (result.gc_count, result.gc_ns, result.gc_iterations) == (2, 2_000_000, 2)
    assert result.span_ns == 3 * 22_000  # the median iteration's, less the tracer's and the collection's time


def test_without_collections_nothing_changes():
    """Near miss: the same iterations with no collection keep their figures and no GC time."""
    result = attribute(parse_chrome_trace(_trace_without_gc()), header=(0, 3))
    assert (result.gc_count, result.gc_ns) == (0, 0)


def _trace_without_gc() -> dict:
    b = TraceBuilder()
    for i in range(3):
        b.line(0, 3, 24.0 * i, 2)
        b.line(0, 4, 24.0 * i + 3, 20)
        b.host("aten::mm", 24.0 * i + 4, 10)
    return b.trace()


@pytest.fixture
def slow_collections():
    """Every automatic collection takes 1.5 ms more (a callback that spins, as a big heap's would),
    and they come often (threshold 40): several in each profiled iteration."""
    import gc
    import time

    def spin(phase: str, info: dict) -> None:
        if phase == "stop":
            end = time.perf_counter() + 0.0015
            while time.perf_counter() < end:
                pass

    before = gc.get_threshold()
    gc.callbacks.insert(0, spin)
    gc.set_threshold(40, before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.callbacks.remove(spin)


COLLECTED = '''import gc
import torch

model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [torch.randn(16, 8) for _ in range(30)]


def step(x):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return [[] for _ in range(50)]


history = []
for i in range(30):
    history.append(step(batches[i]))
'''


def test_slow_collections_are_said_as_such_and_no_lines_work(tmp_path, slow_collections):
    report = profile_window(tmp_path, COLLECTED)
    gc_notes = [n for n in report.profile.notes if n.startswith(GC_NOTE.split(":")[0] + ":")]
    assert gc_notes, report.profile.notes
    # Before, the collections' time was the allocating line's (line 14, 41% of each iteration:
    # `cpu-function`, medium on a quiet machine): never again. Nor the caller's (line 19, until
    # truth19: telling an explicit `gc.collect()` apart read the line's text before the
    # collection's range opened, 10-700 us on the allocating line per collection).
    found = [(f.rule, f.line, f.severity) for f in report.findings if f.source == "dynamic"]
    assert not [f for f in found if f[1] == 14], found
    # Line 19 holds all of `step`'s own time outside torch (its Python between the ops, the 50
    # lists): about 20% of an iteration on a quiet machine, so its severity sits near the 25%
    # bar and says nothing about the collections (a medium there failed CI once, stop 63). What
    # does: each profiled iteration has at least one collection of 1.5 ms or more; none of
    # that is the line's. Its typical time outside torch stays under half of one collection.
    caller = report.profile.line(report.profile.lines[0].ref, 19)
    assert caller is not None and caller.iterations == 3
    assert (caller.cpu_time_s - caller.op_time_s) / caller.iterations < 0.00075, caller


def test_a_collection_the_program_asks_for_is_its_lines_work(tmp_path, slow_collections):
    """Near miss: `gc.collect()` written in the loop is the line's call: measured on it."""
    text = COLLECTED.replace("    history.append(step(batches[i]))\n", "    history.append(step(batches[i]))\n    gc.collect()\n")
    report = profile_window(tmp_path, text)
    line = report.profile.line(report.profile.lines[0].ref, 20)
    assert line is not None and line.cpu_time_s - line.op_time_s >= 3 * 0.0015
