"""Run a cell under torch.profiler, a window of its loop at a time, and always tear it down.

The profiler runs without stacks (cheap); the line tracer brackets each executed cell line in
a range so ops nest under their calling line, and decides when the profiler runs. The trace
is exported to Kineto's Chrome format and read back with the same parser the GPU tests use.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..run_steps import Steps, run_now
from .code_files import CodeFile, CodeFiles
from .line_tracer import LineTracer, LoopTarget, unprofiled_iteration_s, warmup_time_s
from .op_cost import per_op_s
from .sync_monitor import SyncMonitor
from .trace_events import MARKER_PREFIX, Trace, from_activities, load_chrome_trace


# A cell with no loop to window (or a very long iteration) is profiled this long at most:
# the trace, and the profiler's stop (about 10 us per event), stay bounded.
MAX_PROFILED_S = 2.0


@dataclass
class Collected:
    value: Any = None
    error: BaseException | None = None
    trace: Trace | None = None
    trace_bytes: int = 0  # the exported Chrome trace's size, when exported (`export_trace`)
    files: tuple[CodeFile, ...] = ()
    mode: str = "off"  # "window", "full" or "off"
    loop: LoopTarget | None = None
    wall_s: float = 0.0
    profiled_s: float = 0.0
    iterations_before: int = 0  # loop iterations that ran before the window
    recorded_iterations: int = 0
    # Profiled iterations the reader left out (its event cap kept the whole ones that fit): they
    # ran, so the run's time counts them (truth17), though no line's time holds them.
    dropped_iterations: int = 0
    window: int = 0
    loop_length: int | None = None  # read from the loop's header when it could be
    loader_workers: int | None = None  # worker processes of a DataLoader the header iterates
    window_completed: bool = False  # the window ended before the loop did
    truncated: bool = False  # a cap (time, memory, traced lines) ended the recording
    capped: bool = False  # the line tracer's own cap ended it (not the reader's): the loop ran on
    iteration_s: float | None = None  # one unprofiled iteration, before the window, less the tracer's cost
    # (time, count) of the warm-up iterations as they ran, where the window was put off past
    # iterations that left the body early (`line_tracer.warmup_time_s`); how many hits it was put off
    warmup_s: tuple[float, int] | None = None
    postponed: int = 0
    # The loop's iterations after the window, counted at its header (None: not counted), and their
    # time less what counting them cost (`LineTracer.count_after_window`).
    after_iterations: int | None = None
    after_loop_s: float = 0.0
    after_counting_s: float = 0.0
    op_cost_s: float | None = None  # what the profiler's recording adds to one op (`op_cost`)
    window_iterations_s: tuple[float, ...] = ()  # each profiled iteration (profiler running)
    cpu_wait_share: float | None = None  # of the recorded time, waiting for a CPU (a busy machine)
    time_after_window_s: float = 0.0
    sync_warnings: dict[tuple[int, int], int] = field(default_factory=dict)
    device: str = "cpu"
    peak_memory_bytes: int = 0
    # Bytes the host allocator held more after each window iteration than before it (median;
    # recorded only where asked: `collecting(memory=True)`), else None.
    retained_bytes_per_iteration: int | None = None
    notes: list[str] = field(default_factory=list)
    callers: frozenset[tuple[int, int]] = frozenset()  # (file, code line) enclosing the window
    run_end: float = 0.0  # perf_counter when the cell's code returned


def collect(execute: Callable[[], Any], files: CodeFiles, loop: LoopTarget | None, **kw: Any) -> Collected:
    """Run `execute()` profiled; its value or exception (KeyboardInterrupt too) is returned.
    See `collecting` for the keywords."""
    return run_now(collecting(files, loop, **kw), lambda _: execute())


def collecting(
    files: CodeFiles,
    loop: LoopTarget | None,
    *,
    warmup: int | None = None,
    window: int | None = None,
    max_profiled_s: float = MAX_PROFILED_S,
    progress: Callable[[str], None] | None = None,
    export_trace: bool = False,
    memory: bool = False,
) -> Steps[None, Collected]:
    """`collect` as steps (`run_steps`): yields when the code is to run, under the profiler.

    `warmup`/`window` fix the window in loop iterations; by default it is sized from the
    loop's length (`line_tracer.window_for`). `progress` hears what is profiled when the
    profiler starts and stops (outside the profiled part). `export_trace`: read the trace
    through Kineto's Chrome export, for its size (`trace_bytes`; else 0). `memory`: record the
    allocator's events too (`profile_memory`) and read what each window iteration left allocated
    (`retained_bytes_per_iteration`): asked where a static finding's cost is memory (a retained
    graph), which no time shows on a CPU."""
    out = Collected(loop=loop)
    try:
        import torch
        from torch.profiler import ProfilerActivity

        from .torch_profile import profile
    except ImportError:
        out.notes.append("torch is not importable in this kernel: the cell ran unprofiled")
        t0 = time.perf_counter()
        ran = yield
        out.value, out.error = ran.value, ran.error
        out.run_end = time.perf_counter()
        out.wall_s = out.run_end - t0
        return out

    cuda = _cuda_available(torch)
    out.device = "cuda" if cuda else "cpu"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    # The trace alone on a CPU run; a CUDA run's recording is left as torch makes it by default
    # until `trace_only` is checked against device traces on a GPU.
    memory = memory and not cuda  # a device's allocator has its own counters (not read here yet)
    prof = profile(activities=activities, profile_memory=memory, **({} if cuda else _trace_only()))
    sync = SyncMonitor(files, cuda)
    state = {"started": False, "running": False}

    def start() -> None:
        if _guarded(lambda: torch.autograd.profiler._is_profiler_enabled):
            # The profiler is global: starting ours would end the user's own session.
            if not out.notes:
                out.notes.append("another torch profiler is running: this cell was not profiled")
            return
        tell(progress, tracer.window_text() + "\u2026")
        with _interrupts_deferred():  # started means recorded as started, even on a Ctrl-C
            plain = per_op_s(torch)
            try:
                with _quiet_fd2():
                    prof.start()
            except Exception as exc:  # noqa: BLE001 - e.g. another profiler is already active
                out.notes.append(f"the profiler could not start: {type(exc).__name__}: {exc}")
                return
            state["started"] = state["running"] = True
            recorded = per_op_s(torch)
            if plain is not None and recorded is not None:
                out.op_cost_s = max(0.0, recorded - plain)
            sync.start()
            if cuda:
                _guarded(lambda: torch.cuda.reset_peak_memory_stats())

    def stop() -> None:
        if not state["running"]:
            return
        # A Ctrl-C here would leave torch's profiler on for every later cell: it is held
        # until the profiler is off, then raised.
        with _interrupts_deferred():
            state["running"] = False
            sync.stop()
            if cuda:
                _guarded(lambda: torch.cuda.synchronize())
                out.peak_memory_bytes = int(_guarded(lambda: torch.cuda.max_memory_allocated()) or 0)
            _stop_profiler()
        if state["started"]:
            tell(progress, tracer.window_text(done=True) + "; the cell runs on, then the report is built\u2026")

    def _stop_profiler() -> None:
        try:
            with _quiet_fd2():
                prof.stop()
        except Exception as exc:  # noqa: BLE001 - runs inside the cell: never raise into it
            state["started"] = False
            out.notes.append(f"the profiler failed to stop cleanly: {type(exc).__name__}: {exc}")

    tracer = LineTracer(
        files, loop, warmup=warmup, window=window, start=start, stop=stop, make_range=_line_range(torch),
        max_profiled_s=max_profiled_s,
    )
    t0 = time.perf_counter()
    try:
        with tracer:
            ran = yield
        out.value, out.error = ran.value, ran.error
    except GeneratorExit:
        raise  # the driver gave up: only the tear-down below runs
    except BaseException as exc:  # noqa: BLE001 - e.g. a Ctrl-C while the profiler started: the caller re-raises
        out.error = exc
    finally:
        try:
            tracer.close()
        finally:
            stop()  # no-op unless tracer.close() failed before stopping
    out.run_end = time.perf_counter()
    out.wall_s = out.run_end - t0
    _fill_window(out, tracer)
    out.files = tuple(files.files)
    out.truncated = out.capped = tracer.truncated
    if tracer.truncated:
        out.notes.append(f"profiling stopped after {tracer.stopped_by} (the cap on the profiled part; the cell ran to its end)")
    if tracer.failure:
        out.notes.append(f"profiling stopped early after an internal error: {tracer.failure}")
    out.sync_warnings = dict(sync.counts)
    if not state["started"]:
        out.mode = "off"
        if out.error is None:
            out.iterations_before = max(0, out.iterations_before - 1)  # the exhaustion hit
        if loop is not None and out.iterations_before and not out.notes:
            out.notes.append(
                f"the loop ran {out.iterations_before} iteration(s), not more than the "
                f"{tracer.warmup} warm-up ones: nothing was profiled"
            )
        return out
    try:
        header = _header_range(out) if out.mode == "window" else None
        out.trace, out.trace_bytes, cut = _read(prof, threading.get_native_id(), export_trace or cuda, header,
                                                out.recorded_iterations, memory)
        if memory and header is not None:
            out.retained_bytes_per_iteration = _retained_per_iteration(prof, header)
        if cut is not None:
            note, whole = cut
            out.truncated = True
            out.dropped_iterations = max(0, out.recorded_iterations - whole)
            out.recorded_iterations = whole
            out.window_iterations_s = out.window_iterations_s[:whole]
            out.notes.append(note)
    except Exception as exc:  # noqa: BLE001 - the cell ran; only its profile is lost
        out.mode = "off"
        out.notes.append(f"the profile could not be read: {type(exc).__name__}: {exc}")
    return out


def _fill_window(out: Collected, tracer: LineTracer) -> None:
    times = tracer.times
    out.mode = "full" if tracer.loop is None else "window"
    out.recorded_iterations = times.recorded_iterations
    out.window = tracer.window
    out.loop = tracer.loop  # the inner loop, if the outer one was too short to window
    out.loop_length = tracer.loop_length
    out.loader_workers = tracer.loader_workers
    out.callers = frozenset(tracer.callers)
    out.window_completed = times.completed
    out.cpu_wait_share = times.cpu_wait_share()
    # The header line also fires once when the loop ends (the exhausted `for`, the false
    # `while` test), so a loop that ends inside the window counts exactly its iterations.
    started = times.started_at is not None and tracer.loop is not None
    out.iterations_before = len(times.hits) - (1 if started else 0)
    if len(times.hits) >= 2:  # the fastest warm-up iteration: least disturbed by the box
        out.iteration_s = unprofiled_iteration_s(times, tracer.event_costs)
        out.warmup_s = warmup_time_s(times, tracer.event_costs)
        out.postponed = times.postponed
    if times.after_hits is not None:
        out.after_iterations = times.after_hits
        per_line = tracer.event_costs[0] if tracer.event_costs else 0.0
        out.after_counting_s = min(times.after_s, times.after_lines * per_line)
        out.after_loop_s = times.after_s - out.after_counting_s
    if times.recording_at is not None and times.window_hits:
        marks = [times.recording_at, *times.window_hits]
        out.window_iterations_s = tuple(b - a for a, b in zip(marks, marks[1:]))
    if times.started_at is not None:
        stopped = times.stopped_at or out.run_end
        out.profiled_s = stopped - times.started_at
        out.time_after_window_s = max(0.0, out.run_end - stopped)


def _line_range(torch: Any) -> Callable[[str], Any]:
    """The cheapest profiler range this torch has: `_RecordFunctionFast` (about 1 us under
    the profiler) where it exists, else `record_function` (about 20 us)."""
    try:
        from torch._C._profiler import _RecordFunctionFast

        return _RecordFunctionFast
    except ImportError:
        return torch.autograd.profiler.record_function


# A trace past this size is not read: reading takes about 4 times its size in memory. The line
# tracer's caps keep a trace well under it; an op loop entirely in C runs past them. Read in
# memory, the same bound in events (the Chrome export writes about 270 bytes per CPU event).
MAX_TRACE_BYTES = 32 * 2**20
MAX_TRACE_EVENTS = MAX_TRACE_BYTES // 270


def _header_range(out: Collected) -> str | None:
    """The name of the windowed loop header's line range: one opens each recorded iteration."""
    if out.loop is None:
        return None
    for i, code_file in enumerate(out.files):
        if code_file.ref.key == out.loop.ref.key:
            return f"{MARKER_PREFIX}{i}|{out.loop.line - code_file.offset}"
    return None


def _read(prof: Any, main_tid: int, export: bool, header: str | None = None,
          recorded: int = 0, memory: bool = False) -> tuple[Trace, int, tuple[str, int] | None]:
    """(the window's events, the exported trace's size or 0, (a note, the whole iterations
    kept) if the trace was cut). In memory where this torch gives the result's activities;
    through Kineto's Chrome export where it does not, or where `export` is asked: a rank's record
    reports the export's size, and a CUDA profile's device events (memcpy kinds, bytes, runtime
    correlations) are read in the export's documented format, which the in-memory reader has
    not been checked against on a device. A window's trace over the read cap (`header`: its
    loop header's range name) is read up to it instead of lost (see `_first_part`)."""
    activities = getattr(getattr(prof.profiler, "kineto_results", None), "trace_activities", None)
    if export or activities is None:
        return (*_export(prof, main_tid), None)
    found = activities()
    if memory:  # the allocator's events are read apart (`_retained_per_iteration`)
        found = [act for act in found if act.name() != MEMORY_EVENT]
    if len(found) <= MAX_TRACE_EVENTS:
        return from_activities(from_first_line(found), main_tid), 0, None
    if header is None:
        raise ValueError(f"the trace has {len(found)} events, over the {MAX_TRACE_EVENTS} read "
                         "(ops in a loop of C code, which the caps cannot stop)")
    return _first_part(found, main_tid, header, recorded)


def from_first_line(found: list[Any]) -> list[Any]:
    """`found` (in the profiler's order: by start) less the events that ended before the first
    line's range began: the settling iteration's ops and the op-cost timing's, recorded before
    any line range opened. No line holds them and the window's span begins with the first
    range, so no figure of the profile reads them (`tests/test_dynamic_collector.py` builds
    profiles with and without them); reading each costs 3 us (9 calls into torch), telling
    them apart 0.5 us (a fifth of a demo cell's trace: 0.3-0.4 ms of the read). An event still
    open when the first range began (another thread's) is kept; out of order events too."""
    first = next((i for i, act in enumerate(found) if act.name().startswith(MARKER_PREFIX)), 0)
    if first == 0:
        return found
    begins = found[first].timestamp()
    kept = [act for act in found[:first] if act.timestamp() + max(0, act.duration()) > begins]
    return kept + found[first:] if kept else found[first:]


MEMORY_EVENT = "[memory]"
_TOTAL = re.compile(r'"Total Allocated": (-?\d+)')


def _retained_per_iteration(prof: Any, header: str) -> int | None:
    """The median, over the window's iterations, of what the host allocator held more when the
    next iteration began than when this one began (`profile_memory`'s "Total Allocated" after
    each allocation or free). A graph kept alive each step (a loss summed with its graph, a
    metric of the step's outputs appended) grows it by the tensors the graph saved, every
    iteration; a loop that keeps nothing frees what it allocates (0). Measured on the
    allocations the recording saw: a block allocated before it and freed within it is not
    subtracted (the first iteration may read high: the median is taken). None where there are
    not 2 whole iterations or no allocation was seen."""
    activities = getattr(getattr(prof.profiler, "kineto_results", None), "trace_activities", None)
    if activities is None:
        return None
    starts: list[int] = []
    memory: list[tuple[int, int]] = []
    for act in activities():
        name = act.name()
        if name == header:
            starts.append(act.timestamp())
        elif name == MEMORY_EVENT:
            found = _TOTAL.search(act.metadata_json())
            if found:
                memory.append((act.timestamp(), int(found.group(1))))
    if len(starts) < 3 or not memory:
        return None
    memory.sort()
    times = [t for t, _ in memory]

    def total_at(t: int) -> int:
        i = bisect.bisect_left(times, t) - 1
        return memory[i][1] if i >= 0 else memory[0][1]

    starts.sort()
    totals = [total_at(t) for t in starts]
    growth = sorted(b - a for a, b in zip(totals, totals[1:]))
    return max(0, growth[(len(growth) - 1) // 2])


def _first_part(found: list[Any], main_tid: int, header: str, recorded: int) -> tuple[Trace, int, tuple[str, int]]:
    """The trace as if the recording had stopped within the read cap (truth15: public MoE's
    first iteration recorded 180k events, over the reader's 124k, and the whole trace was
    dropped). The unrecorded settling iteration's events (before the first line range: no line
    is theirs) go first; then the trace ends where the last whole iteration that fits ends - or,
    with none whole, at the cap, inside the first (a partial iteration). The ranges still open
    there end there, so no line holds the time of ops that were not read."""
    ordered = sorted(found, key=lambda act: act.timestamp())
    first_line = next((i for i, act in enumerate(ordered) if act.name().startswith(MARKER_PREFIX)), 0)
    ordered = ordered[first_line:]
    if len(ordered) <= MAX_TRACE_EVENTS:
        note = (f"the trace held {len(found)} events; the {first_line} recorded before the first line's range "
                "(the unprofiled settling iteration) were left out")
        return from_activities(ordered, main_tid), 0, (note, recorded)
    cut_ns = ordered[MAX_TRACE_EVENTS].timestamp()
    starts = [act.timestamp() for act in ordered if act.timestamp() < cut_ns and act.name() == header]
    whole = min(recorded, max(0, len(starts) - 1))
    if whole:
        cut_ns = starts[whole]  # where the iteration the cap cut begins
    trace = from_activities([act for act in ordered if act.timestamp() < cut_ns], main_tid)
    start = trace.events[0].start_ns if trace.events else cut_ns
    events = tuple(e if e.start_ns + e.dur_ns <= cut_ns else _ended_at(e, cut_ns) for e in trace.events)
    kept = f"its first {whole} whole iteration(s)" if whole else "part of its first iteration"
    note = (f"the trace held {len(found)} events, more than the {MAX_TRACE_EVENTS} read: {kept} "
            f"({(cut_ns - start) / 1e6:.3g} ms of the recording) were read, as if the recording had stopped there")
    return Trace(events, trace.main_tid), 0, (note, whole)


def _ended_at(event: Any, cut_ns: int) -> Any:
    """`event` ending at `cut_ns` (the same object kind, its other fields as read)."""
    ended = object.__new__(type(event))
    ended.__dict__.update(event.__dict__)
    ended.__dict__["dur_ns"] = max(0, cut_ns - event.start_ns)
    return ended


def _export(prof: Any, main_tid: int) -> tuple[Trace, int]:
    with tempfile.TemporaryDirectory(prefix="paef-trace-") as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        size = os.path.getsize(path)
        if size > MAX_TRACE_BYTES:
            raise ValueError(f"the trace is {size // 2**20} MB, over the {MAX_TRACE_BYTES // 2**20} MB read "
                             "(ops in a loop of C code, which the caps cannot stop)")
        return load_chrome_trace(path, main_tid=main_tid), size


def _trace_only() -> dict[str, Any]:
    """`experimental_config` asking torch for the trace alone, where this torch can: the trace
    (its activities in memory, or its Chrome export) is all that is read, and without it the
    profiler's stop also builds the events of `events()` / `key_averages()` for every op (host_syncs:
    the stop 1.5 -> 1.1-1.2 ms of CPU, the same events read). A fresh config per profiler:
    torch turns the flag off in the one it is given when it is combined with `with_stack`."""
    try:
        from torch._C._profiler import _ExperimentalConfig

        return {"experimental_config": _ExperimentalConfig(trace_only=True)}
    except (ImportError, TypeError, AttributeError):  # an older torch: no such option
        return {}


def _cuda_available(torch: Any) -> bool:
    return bool(_guarded(lambda: torch.cuda.is_available()))


def _guarded(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except (AssertionError, RuntimeError, AttributeError):
        return None


def tell(progress: Callable[[str], None] | None, text: str) -> None:
    """Progress notes are a courtesy: one that fails never touches the cell."""
    if progress is not None:
        try:
            progress(text)
        except Exception:  # noqa: BLE001
            pass


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold a SIGINT that arrives inside the block and raise it as KeyboardInterrupt after it,
    so profiler state changes are never cut in half. Main thread only (elsewhere: no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGINT)
        held: list[tuple[int, Any]] = []
        signal.signal(signal.SIGINT, lambda signum, frame: held.append((signum, frame)))
    except (ValueError, OSError, TypeError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held and callable(previous):
        previous(*held[0])  # Python's default handler raises KeyboardInterrupt
    elif held and previous != signal.SIG_IGN:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _quiet_fd2() -> Iterator[None]:
    """Kineto prints `USDT: ...` lines straight to fd 2 on start/stop; hide only those."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
