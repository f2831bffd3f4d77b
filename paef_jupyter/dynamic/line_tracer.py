"""A `sys.settrace` hook limited to cell code: finds the profiling window and marks lines.

Two jobs, both cheap because only frames of cell files get a local tracer:

- count the hits of the detected loop's header line; after `warmup` iterations it starts the
  profiler, after `window` more it stops it and removes itself (the rest of the loop runs
  with no hook at all, so the overhead is bounded by the window, not the loop's length);
- while recording, wrap every executed cell line in a profiler range `paef|<file>|<line>`.
  Ops then nest under the line that called them (and under the lines of cell functions they
  come through) without `with_stack=True`, which costs 4.5-10x on tiny-op loops;
- while recording, wrap each call a cell line makes into torch's own Python (`backward()`,
  `opt.step()`, `zero_grad()`, `Module.__call__`) in a `torch: <name>` range, so the Python
  around torch's ops counts as torch work, not as the line's "CPU work outside torch". Data
  loading (`torch.utils.data`) is the loop's input pipeline, not torch work: left out.
"""

from __future__ import annotations

import contextlib
import gc
import linecache
import os
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Callable

from ..model import CellRef
from .code_files import CodeFiles
from .loop_length import loader_workers, loop_length
from .trace_events import GC_RANGE, MARKER_PREFIX

# Where every `import` statement that loads a module begins (importlib's own frame).
_FIND_AND_LOAD = sys.modules["importlib._bootstrap"]._find_and_load.__code__
# A global trace function in C that asks for no local tracing: `getattr(frame, "call", None)`.
_NO_TRACE = getattr


@dataclass(frozen=True)
class LoopTarget:
    """The loop whose iterations define the window: its header line in the cell."""

    ref: CellRef
    line: int
    end_line: int = 0
    iterable: str = ""  # source of a `for` loop's iterable, to size the window
    nested: bool = False  # inside another loop: its length is per outer iteration
    # A loop nested in this one, windowed instead when this one turns out short (epochs).
    inner: "LoopTarget | None" = None
    # First line of the body's last top-level statement (0: not known). An iteration that did not
    # reach it left early (`continue`): see `LineTracer._whole`.
    body_last: int = 0


# Without a length, a few iterations; with one, a share of the loop (the profiler's
# overhead inside the window is 3-10x on tiny ops, so the share bounds the total).
UNSIZED_WINDOW = (2, 3)
WINDOW_SHARE = 0.05
MIN_WINDOW = 3  # one noisy iteration must not decide the ranking
MAX_WINDOW = 5
SHORT_LOOP = 8  # fewer iterations than this: window the inner loop, if there is one
# What the profiler may record. Each recorded event costs about 0.2 KB while recording, then
# 1.5 KB when the profiler stops and 1 KB when its trace is read: a window of 300k tiny ops
# (`x = x + 1` is 5 events) took 1.2 GB and 40 s to post-process. The event count cannot be read
# while recording, but the resident size grows with it: a watchdog thread reads it (and the
# clock) every WATCH_EVERY_S and ends the profiled part at MAX_ADDED_MEMORY over the highest
# size seen before the profiler started (the unprofiled iterations' own peak: a loop's
# transient allocations do not count), or at the time cap. Where no cell line runs (ops in a
# library's loop) it probes the frames the cell's thread runs, and their next line stops the
# profiler. Op loops entirely in C (`functools.reduce(torch.add, ...)`) run no line until they
# return: only the trace's size cap (`collector.MAX_TRACE_BYTES`) bounds those.
# Without a loop to window (a bare comprehension) the line count is the bound; in a window the
# iterations are, and a long pure-Python generator in one iteration must not end it early.
MAX_ADDED_MEMORY = 8 * 2**20
# The cell allocating (a batch, a model's weights) grows the process too, and that memory is
# the cell's own, which the cap must not count. Rate alone cannot tell them apart: recorded
# tiny ops grow it by 0.3-0.4 GB per CPU-second of the recording thread (0.4-1 KB per op of
# 1-3.5 us), `torch.randn` by 0.7 and `torch.ones` by 3. What can: events come from ops, ops
# from lines, and no line records more than LINE_EVENT_BYTES of events (300-odd ops), while one
# big tensor is megabytes from a line or two. So a step is the cell's own when it is both fast
# (over USER_ALLOCATION_RATE per CPU-second: a slow one is events or cheap to count) and large
# for the lines that ran in it: those of cell frames, and of the frames the watchdog probed at
# an earlier fast step (a library's loop runs no cell line). CPU time, not wall time: on a busy
# box both slow down alike, and a late read must not turn a 64 MB tensor into "recorded events".
USER_ALLOCATION_RATE = 2**28
USER_ALLOCATION_FLOOR = 2**19
LINE_EVENT_BYTES = 2**16
# Virtual memory reserved untouched in one watchdog step beyond this is an allocation of the cell's
# (recorded events grow the virtual size with the resident one, by a few hundred KB per 1000 ops).
RESERVED_FLOOR = 2**21
WATCH_EVERY_S = 0.01
# An unprofiled iteration this long needs no settling iteration before the window (`settles`).
LONG_ITERATION_S = 0.05
MAX_RECORDED_LINES = 4000
MAX_WINDOW_LINES = 100_000

TORCH_RANGE_PREFIX = "torch: "
_TORCH_DIR: str | None = None
_TORCH_DATA = os.path.join("torch", "utils", "data") + os.sep
_torch_files: dict[str, bool] = {}


def is_torch_work(filename: str) -> bool:
    """A file of the installed torch package, other than its data-loading modules."""
    global _TORCH_DIR
    known = _torch_files.get(filename)
    if known is not None:
        return known
    if _TORCH_DIR is None:
        torch = sys.modules.get("torch")
        where = getattr(torch, "__file__", None)
        _TORCH_DIR = os.path.dirname(where) + os.sep if where else ""
    found = bool(_TORCH_DIR) and filename.startswith(_TORCH_DIR) and _TORCH_DATA not in filename
    _torch_files[filename] = found
    return found


def window_for(length: int | None) -> tuple[int, int]:
    """(warm-up iterations, profiled iterations) for a loop of `length` iterations."""
    if length is None:
        return UNSIZED_WINDOW
    if length <= 2:
        return 0, max(1, length)
    warmup = 1 if length < 20 else 2
    room = length - warmup - 1  # one settling iteration runs profiled but unmarked
    return warmup, max(1, min(room, max(MIN_WINDOW, min(MAX_WINDOW, int(length * WINDOW_SHARE)))))


@dataclass
class WindowTimes:
    """What the tracer saw of the loop, for the profile's iteration estimate."""

    hits: list[float] = field(default_factory=list)  # perf_counter at each hit before the window
    # (line events of the header's frame, Python calls) the hook had seen at each of `hits`: what the
    # tracer cost each unprofiled iteration (`LineTracer.event_costs`)
    hit_events: list[tuple[int, int]] = field(default_factory=list)
    # Per hit of `hits` after the first: whether the iteration it ended reached the body's last
    # top-level statement (False: it left early at a `continue`); and how many hits the window's
    # start was put off for such iterations (`LineTracer._loop_hit`).
    whole: list[bool] = field(default_factory=list)
    postponed: int = 0
    # After the window: the header's hits counted by `_AfterWindow` (None: not counted), the time from
    # the recording's stop to the last of them, and the line events it saw (what counting cost).
    after_hits: int | None = None
    after_s: float = 0.0
    after_lines: int = 0
    started_at: float | None = None  # before the profiler's start
    recording_at: float | None = None  # after it (a cold start can take a second)
    stopped_at: float | None = None
    recorded_iterations: int = 0
    window_hits: list[float] = field(default_factory=list)  # perf_counter at each hit in the window
    completed: bool = False  # the window ended at a header hit (not with the loop or the cell)
    # The recording thread's run-queue wait when recording began and ended, and when it ended
    # (before the profiler's stop): how long the cell was ready to run while others had the CPU.
    wait_ns: list[int] = field(default_factory=list)
    recorded_until: float | None = None

    def cpu_wait_share(self) -> float | None:
        """The share of the recorded time the cell waited for a CPU (a busy machine), or None
        where the system does not say (not Linux)."""
        if len(self.wait_ns) != 2 or self.recording_at is None or self.recorded_until is None:
            return None
        wall = self.recorded_until - self.recording_at
        return min(1.0, (self.wait_ns[1] - self.wait_ns[0]) / 1e9 / wall) if wall > 0 else None


class LineTracer:
    """Install with `with tracer:`; `close()` is idempotent and safe on any exit path."""

    def __init__(
        self,
        files: CodeFiles,
        loop: LoopTarget | None,
        *,
        warmup: int | None,
        window: int | None,
        start: Callable[[], None],
        stop: Callable[[], None],
        make_range: Callable[[str], Any],
        max_profiled_s: float = 2.0,
        max_recorded_lines: int | None = None,
    ):
        self.files = files
        self.loop = loop
        self._fixed = (warmup, window)
        self.warmup = warmup if warmup is not None else UNSIZED_WINDOW[0]
        self.window = window if window is not None else UNSIZED_WINDOW[1]
        self.loop_length: int | None = None
        self.loader_workers: int | None = None  # of a DataLoader the window's header iterates
        self._start_profiler = start
        # The profiler's own start-up (kineto's first session allocates tens of MB) is not
        # recording growth: the watchdog measures from the first moment after it.
        self.profiler_on = False
        self._stop = stop
        self._make_range = make_range
        self.max_profiled_s = max_profiled_s
        self.max_recorded_lines = max_recorded_lines or (MAX_RECORDED_LINES if loop is None else MAX_WINDOW_LINES)
        self.recorded_lines = 0
        self.lines_run = 0  # lines run with the profiler on, in cell frames and probed ones
        self._watchdog: _Watchdog | None = None
        self.stopped_by: str | None = None  # which cap ended the recording, for the report
        self.times = WindowTimes()
        self.truncated = False  # stopped by the time cap, not by the window's end
        self.failure: str | None = None  # an error of the tracer itself (never the cell's)
        self.callers: set[tuple[int, int]] = set()  # (file, code line) that called into the loop
        self._headers: dict[int, int | None] = {}  # file index -> code line of the loop header
        self.recording = loop is None
        # Profiler on, no line ranges yet: the first profiled iteration pays first-use costs
        # (lazy op lookups, the profiler's own set-up) that no line of the cell caused.
        self.settling = False
        self.done = False
        self._open: list[Any] = []
        self._previous: Any = None
        self._hook: Any = None
        self._installed = False
        self._thread = 0  # native id of the thread that records (the cell's)
        self._gc_open: dict[int, Any] = {}  # thread ident -> the range of a collection under way
        self._explicit_lines: dict[tuple[str, int], bool] = {}  # (file, line) -> calls `collect(`
        # Trace events before the window (line events of the header's frame, Python calls), and
        # what one of each costs (`event_costs`), to take the tracer out of the unprofiled time.
        self.warm_lines = 0
        self.warm_calls = 0
        self.event_costs: tuple[float, float] | None = None
        self._counter: _AfterWindow | None = None
        self._reached = False  # the current warm-up iteration reached `loop.body_last`
        # file index -> code lines (of `loop.body_last`, of the loop's end); None: not the header's file
        self._body_files: dict[int, tuple[int, int] | None] = {}

    # -- installation -------------------------------------------------------------------

    def __enter__(self) -> "LineTracer":
        self._previous = sys.gettrace()
        if self.loop is not None:
            self.event_costs = self._measure_event_costs()
        self._watchdog = _Watchdog(self)
        if self.recording:
            self.times.started_at = time.perf_counter()  # the profiled part includes start/stop
            self._start()
            self._recording_begins()
        self._hook = self._call  # one bound method, so close() can tell it from a user's hook
        sys.settrace(self._hook)
        self._installed = True
        return self

    def _measure_event_costs(self) -> tuple[float, float] | None:
        """(seconds per line event of the header's frame, per Python call) that this hook adds
        before the window, timed on a small loop here. Every line of the loop's frame calls the
        tracer while it counts the header's hits: truth67's b07 (a `while` loop whose inner loop
        runs 1000 line events per iteration) timed its unprofiled iteration at 2.7 ms traced, 0.93
        ms plain, so the run's time was 1.6x too long and the loop's length (estimated from that
        time) 33 iterations where 60 ran. The least of a few blocks (a preemption spoils one)."""
        try:
            local = _FrameTracer(self, _CALIBRATION)
            self._headers[_CALIBRATION] = None
            lines, calls = [], []
            for _ in range(_CAL_BLOCKS):
                t = time.perf_counter()
                _cal_lines(_CAL_TURNS)
                plain = time.perf_counter() - t
                sys.settrace(lambda frame, event, arg: local)
                t = time.perf_counter()
                _cal_lines(_CAL_TURNS)
                traced = time.perf_counter() - t
                sys.settrace(None)
                lines.append((traced - plain) / (2 * _CAL_TURNS + 2))
                t = time.perf_counter()
                _cal_calls(_CAL_TURNS)
                plain = time.perf_counter() - t
                sys.settrace(self._call)
                t = time.perf_counter()
                _cal_calls(_CAL_TURNS)
                traced = time.perf_counter() - t
                sys.settrace(None)
                calls.append((traced - plain) / (_CAL_TURNS + 1))
            return max(0.0, min(lines)), max(0.0, min(calls))
        except Exception:  # noqa: BLE001 - a measurement never touches the cell
            return None
        finally:
            sys.settrace(self._previous)
            self._headers.pop(_CALIBRATION, None)
            self.warm_lines = self.warm_calls = 0

    def _start(self) -> None:
        self._start_profiler()
        self.profiler_on = True

    def _recording_begins(self) -> None:
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)
        self._thread = threading.get_native_id()
        wait = runqueue_wait_ns(self._thread)
        self.times.wait_ns = [] if wait is None else [wait]
        self.times.recording_at = time.perf_counter()

    def _collected(self, phase: str, info: dict) -> None:
        """A garbage collection while recording runs in a range of its own (GC_RANGE): it falls on
        whichever line allocates, and is no line's work (the attribution leaves it out)."""
        try:
            ident = threading.get_ident()
            if phase == "start" and self.recording and ident not in self._gc_open:
                # The range opens first: telling an explicit collection apart reads the line's
                # text (linecache: 10-700 us where the file is no real path), and time spent
                # before the range opens was the allocating line's (truth19).
                where = _collection_line()
                explicit = self._explicit_lines.get(where)
                if explicit:
                    return
                rng = self._make_range(GC_RANGE)
                rng.__enter__()
                if explicit is None:
                    explicit = self._explicit_lines[where] = _explicit_collection(where)
                if explicit:
                    rng.__exit__(None, None, None)  # the program's own call: its line's work
                else:
                    self._gc_open[ident] = rng
            elif phase == "stop":
                rng = self._gc_open.pop(ident, None)
                if rng is not None:
                    rng.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - a collection must never fail for the profiler
            self._gc_open.pop(threading.get_ident(), None)

    def _recording_ends(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        self.times.recorded_until = time.perf_counter()
        wait = runqueue_wait_ns(self._thread) if self.times.wait_ns else None
        if wait is not None:
            self.times.wait_ns.append(wait)

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the hook, close any open line range, stop the profiler if still recording."""
        if self.done:
            self._end_counting()
        if self._installed:
            # Only our own hook is removed: a hook the cell set meanwhile (pdb, breakpoint(),
            # coverage) stays in place.
            if sys.gettrace() in (self._hook, _NO_TRACE):
                sys.settrace(self._previous)
            self._installed = False
        if self._watchdog is not None:
            self._watchdog.stop()
        while self._open:
            self._open.pop().__exit__(None, None, None)
        if self.recording or self.settling:
            if self.recording:
                self._recording_ends()
            self.recording = self.settling = False
            self._stop()
            self.times.stopped_at = time.perf_counter()
        self.done = True

    def count_after_window(self, frame: FrameType) -> Any:
        """The local trace function of the loop's frame once the window is done: it counts the
        header's hits to the loop's end (`_AfterWindow`), so a loop whose length no header tells (a
        `while`) has a measured length and a measured unprofiled time per iteration, not one timed
        on a traced warm-up iteration (truth67 b07: 18 or 33 iterations estimated, 60 ran). Only
        where nothing else traces (a debugger's or coverage's hook stays untouched), for a loop not
        nested in another (its header runs again per outer iteration), whose length the header did
        not tell, and when the window completed at a header hit (the loop goes on). Python calls
        then meet a C no-op hook."""
        loop = self.loop
        if (not self.times.completed or loop is None or loop.nested or self.loop_length is not None
                or self._previous is not None
                or self.times.stopped_at is None or sys.gettrace() is not None):
            return None
        header = self._header(self.files.index(frame.f_code.co_filename))
        if header is None or frame.f_lineno != header:
            return None
        self._counter = _AfterWindow(header, self.times.stopped_at)
        sys.settrace(_NO_TRACE)
        return self._counter

    def _end_counting(self) -> None:
        counter = self._counter
        if counter is None:
            return
        self._counter = None
        if sys.gettrace() is _NO_TRACE:
            sys.settrace(self._previous)
        counter.header = -1  # a frame still running keeps it: it counts nothing more
        self.times.after_hits = counter.hits
        self.times.after_s = max(0.0, counter.last - counter.since)
        self.times.after_lines = counter.lines

    @property
    def settles(self) -> bool:
        """Whether one profiled iteration goes unrecorded before the window (see `settling`):
        not when the loop is too short to spare it, nor when its unprofiled iterations are long
        (LONG_ITERATION_S): first-use costs are small beside them, and an unrecorded iteration
        that alone fills the memory cap would leave nothing recorded (truth16: public MoE's and
        MAML's iterations, 0.1-1 s each, ended the profile inside the settling one)."""
        if self.loop_length is not None and self.loop_length <= self.warmup + self.window:
            return False
        hits = self.times.hits
        return not (len(hits) >= 2 and min(b - a for a, b in zip(hits, hits[1:])) >= LONG_ITERATION_S)

    def window_text(self, done: bool = False) -> str:
        """What is (`done`: was) profiled, as the progress note says it."""
        verb = "profiled" if done else "profiling"
        if self.loop is None:
            return f"{verb} the cell (no loop to sample)"
        # The hit that began the recording is the last of `hits`; before it, the next hit is
        # recorded (or the one after, when one iteration settles first).
        began = self.times.recording_at is not None
        first = len(self.times.hits) + (0 if began else 1 if self.settles else 0)
        count = self.times.recorded_iterations if done else self.window
        if self.loop_length is not None:
            count = min(count, self.loop_length - first + 1)
        if count < 1:
            return f"{verb} no whole iteration"
        span = f"iteration {first}" if count == 1 else f"iterations {first}\u2013{first + count - 1}"
        of = f"of {self.loop_length}" if self.loop_length is not None else f"of the loop at line {self.loop.line}"
        return f"{verb} {span} {of}"

    # -- trace functions ----------------------------------------------------------------

    def fail(self, exc: Exception) -> None:
        """A bug here must not break the user's cell: stop profiling, keep running the cell."""
        self.failure = f"{type(exc).__name__}: {exc}"
        self.close()

    def _call(self, frame: FrameType, event: str, arg: Any) -> Any:
        try:
            return self._new_frame(frame)
        except Exception as exc:  # noqa: BLE001 - see fail()
            self.fail(exc)
            return None

    def _new_frame(self, frame: FrameType) -> Any:
        if self.done:
            return None
        if not self.recording:
            self.warm_calls += 1
        if frame.f_code is _FIND_AND_LOAD and not self.recording:
            return self._importing()
        # Every Python call comes here, library code included (`trainer.fit()`): the place to
        # enforce the time cap even when no cell line runs for a long while.
        if self.recording and self._over_cap():
            self.close()
            return None
        idx = self.files.index(frame.f_code.co_filename)
        if idx is None:
            caller = frame.f_back
            if (
                self.recording
                and caller is not None
                and is_torch_work(frame.f_code.co_filename)
                and self.files.index(caller.f_code.co_filename) is not None
            ):
                return _TorchCall(self, frame)
            return None
        header = self._header(idx)
        if not self.recording and header is None:
            return None
        return _FrameTracer(self, idx)

    def _importing(self) -> Callable[[FrameType, str, Any], Any]:
        """An import before the window (a first optimizer imports torch._dynamo and
        torch._inductor: seconds of module code) runs none of the cell's lines: its frames are
        not sent to this hook, whose cost on each call doubled such imports. The global hook
        becomes a C no-op until the import returns; lines of frames already traced (the cell's)
        are still seen, so nothing the window needs is missed."""
        sys.settrace(_NO_TRACE)

        def until_return(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "return" and sys.gettrace() is _NO_TRACE:
                sys.settrace(self._previous if self.done else self._hook)
            return until_return

        return until_return

    def _header(self, idx: int) -> int | None:
        try:
            return self._headers[idx]
        except KeyError:
            pass
        code_file = self.files.files[idx]
        header = None
        if self.loop is not None and code_file.ref.key == self.loop.ref.key:
            header = self.loop.line - code_file.offset
        self._headers[idx] = header
        return header

    def _over_cap(self) -> bool:
        if self._watchdog is not None and self._watchdog.reason is not None:
            self.stopped_by = self._watchdog.reason
            self.truncated = True
            return True
        started = self.times.recording_at
        if started is None:
            return False
        if self.recorded_lines >= self.max_recorded_lines:
            self.stopped_by = f"{self.max_recorded_lines} traced cell lines"
        elif time.perf_counter() - started >= self.max_profiled_s:
            self.stopped_by = f"{self.max_profiled_s:g} s"
        else:
            return False
        self.truncated = True
        return True

    def _loop_hit(self, frame: FrameType) -> None:
        times = self.times
        n = len(times.hits) + times.recorded_iterations
        if n == 0 and self.loop is not None and self.loop.iterable:
            self.loop_length = loop_length(self.loop.iterable, frame.f_globals, frame.f_locals)
            inner = self.loop.inner
            if inner is not None and self.loop_length is not None and self.loop_length < SHORT_LOOP:
                self.loop = inner
                self.loop_length = None
                self._headers.clear()
                self._body_files.clear()
                return
            self.loader_workers = loader_workers(self.loop.iterable, frame.f_globals, frame.f_locals)
            warmup, window = window_for(self.loop_length)
            self.warmup = self._fixed[0] if self._fixed[0] is not None else warmup
            self.window = self._fixed[1] if self._fixed[1] is not None else window
        if not self.recording:
            times.hits.append(time.perf_counter())
            times.hit_events.append((self.warm_lines, self.warm_calls))
            if n > 0:
                times.whole.append(self._reached or not self._body_last())
            self._reached = False
            if n == self.warmup and self._put_off():
                self.warmup += 1
                times.postponed += 1
                return
            settle = self.settles
            if n == self.warmup and settle:
                times.started_at = time.perf_counter()
                self._start()
                self.settling = True
            elif n == self.warmup + settle:
                if not self.settling:
                    times.started_at = time.perf_counter()
                    self._start()
                if self._over_cap():  # the settling iteration alone reached a cap
                    self.close()
                    return
                self.settling = False
                self._recording_begins()
                self.recording = True
                self._mark_callers(frame)
            return
        times.recorded_iterations += 1
        times.window_hits.append(time.perf_counter())
        if times.recorded_iterations >= self.window or self._over_cap():
            times.completed = True
            self.close()

    def _body_range(self, idx: int) -> tuple[int, int] | None:
        """(code line of the loop body's last top-level statement, of the loop's end) in file
        `idx`, or None: not the header's file, or the body's last statement is not known."""
        try:
            return self._body_files[idx]
        except KeyError:
            pass
        if not 0 <= idx < len(self.files.files):
            return None  # the calibration's own loop (`_measure_event_costs`)
        loop, code_file = self.loop, self.files.files[idx]
        body = None
        if loop is not None and loop.body_last and code_file.ref.key == loop.ref.key:
            body = (loop.body_last - code_file.offset, (loop.end_line or loop.body_last) - code_file.offset)
        self._body_files[idx] = body
        return body

    def _body_last(self) -> bool:
        return self.loop is not None and bool(self.loop.body_last)

    def _put_off(self) -> bool:
        """Whether the window's start waits one more iteration: the iteration that just ended left
        the body early (a `continue` before its last top-level statement). truth69 d03: a DQN-style
        loop skips its update until the replay holds a batch (255 of 300 iterations); the window
        profiled five skipping iterations, 0.1 ms each, and the replay sampling - 74-82% of the loop
        - was "outside the profiled window". Put off while there is room for the window after it (a
        known length), or without limit for a loop of unknown length (warm-up iterations cost only
        the header count's trace events). Not when the window's size was fixed by the caller."""
        if self._fixed[0] is not None or not self.times.whole or self.times.whole[-1]:
            return False
        if self.loop_length is not None and self.warmup + 1 + self.window + self.settles >= self.loop_length:
            return False
        return True

    def _mark_callers(self, frame: FrameType) -> None:
        """Open the ranges of the cell lines that called into the loop (a cell calling an
        earlier cell's `train()`), outermost first, and follow those frames from now on."""
        callers = []
        caller = frame.f_back
        while caller is not None:
            idx = self.files.index(caller.f_code.co_filename)
            if idx is not None:
                callers.append((caller, idx))
            caller = caller.f_back
        for caller, idx in reversed(callers):
            self.callers.add((idx, caller.f_lineno))
            tracer = _FrameTracer(self, idx)
            tracer.line = caller.f_lineno
            tracer.rng = self.open_range(idx, caller.f_lineno)
            caller.f_trace = tracer

    def open_range(self, file_index: int, line: int) -> Any:
        return self.open_named(f"{MARKER_PREFIX}{file_index}|{line}")

    def open_named(self, name: str) -> Any:
        rng = self._make_range(name)
        self._open.append(rng)  # before the range begins: no bookkeeping inside it
        try:
            rng.__enter__()
        except BaseException:
            self._open.pop()
            raise
        return rng

    def close_range(self, rng: Any) -> None:
        opened = self._open
        if opened and opened[-1] is rng:  # the usual case: the range ends first, then the bookkeeping
            rng.__exit__(None, None, None)
            opened.pop()
            return
        if not any(r is rng for r in opened):
            return  # already closed with the tracer
        rng.__exit__(None, None, None)
        if self._open[-1] is rng:
            self._open.pop()
        else:
            self._open.remove(rng)


# The calibration of the hook's cost per event (`LineTracer._measure_event_costs`): a frame index
# no code file has, turns of a small loop, blocks.
_CALIBRATION = -1
_CAL_TURNS = 200
_CAL_BLOCKS = 3


def _cal_lines(n: int) -> int:
    i = 0
    while i < n:
        i += 1
    return i


def _cal_nothing() -> None:
    return None


def _cal_calls(n: int) -> None:
    for _ in range(n):
        _cal_nothing()


def _net_iterations(times: WindowTimes, costs: tuple[float, float] | None) -> list[tuple[float, bool]]:
    """(time less what the hook cost it, whether it ran whole) of each warm-up iteration."""
    hits = times.hits
    events = times.hit_events if len(times.hit_events) == len(hits) else None
    whole = times.whole if len(times.whole) == len(hits) - 1 else [True] * (len(hits) - 1)
    out = []
    for i in range(1, len(hits)):
        traced = hits[i] - hits[i - 1]
        plain = traced
        if costs is not None and events is not None:
            lines = events[i][0] - events[i - 1][0]
            calls = events[i][1] - events[i - 1][1]
            plain = max(0.1 * traced, traced - lines * costs[0] - calls * costs[1])
        out.append((plain, whole[i - 1]))
    return out


def unprofiled_iteration_s(times: WindowTimes, costs: tuple[float, float] | None) -> float | None:
    """The fastest warm-up iteration less what the hook cost it (its line events and Python calls at
    `costs`): the loop's time per iteration without the tracer. Never below a tenth of the traced time
    (a calibration spoiled by the box must not make an iteration free). Of the iterations that ran
    the whole body where some left it early (`WindowTimes.whole`): those are the window's kind."""
    its = _net_iterations(times, costs)
    if not its:
        return None
    whole = [t for t, w in its if w]
    return min(whole or [t for t, _ in its])


def warmup_time_s(times: WindowTimes, costs: tuple[float, float] | None) -> tuple[float, int] | None:
    """(time, count) of the unprofiled warm-up iterations, net of the hook, where the window was put
    off past iterations that left the body early (None otherwise): they are not the window's kind,
    so the run's time counts them as they ran, not at the window's iteration time. An iteration
    ending after the profiler started (the settling one) is not among them."""
    if not times.postponed:
        return None
    its = _net_iterations(times, costs)
    start = times.started_at
    done = [t for (t, _), end in zip(its, times.hits[1:]) if start is None or end <= start]
    return sum(done), len(done)


class _AfterWindow:
    """Counts the loop header's line events after the window (`LineTracer.count_after_window`):
    each starts an iteration or ends the loop (the exhausted `for`, the false `while` test), and
    the time of the last is the loop's end. About 0.3 us per line event of the loop's frame."""

    __slots__ = ("header", "since", "hits", "lines", "last")

    def __init__(self, header: int, since: float):
        self.header = header
        self.since = self.last = since
        self.hits = self.lines = 0

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
            if frame.f_lineno == self.header:
                self.hits += 1
                self.last = time.perf_counter()
            return self
        return None if event == "return" else self


class _TorchCall:
    """The range around one call from a cell line into torch's Python; only its return is
    traced (`f_trace_lines = False`), so torch's own lines cost no trace events."""

    __slots__ = ("tracer", "rng")

    def __init__(self, tracer: LineTracer, frame: FrameType):
        self.tracer = tracer
        frame.f_trace_lines = False
        self.rng = tracer.open_named(TORCH_RANGE_PREFIX + frame.f_code.co_qualname)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "return":
            try:
                if self.rng is not None:
                    self.tracer.close_range(self.rng)
            except Exception as exc:  # noqa: BLE001 - see LineTracer.fail()
                self.tracer.fail(exc)
            self.rng = None
            return None
        return self


class _FrameTracer:
    __slots__ = ("tracer", "idx", "line", "rng")

    def __init__(self, tracer: LineTracer, idx: int):
        self.tracer = tracer
        self.idx = idx
        self.line = -1
        self.rng: Any = None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        try:
            return self._step(frame, event)
        except Exception as exc:  # noqa: BLE001 - see LineTracer.fail()
            self.tracer.fail(exc)
            return None

    def _step(self, frame: FrameType, event: str) -> Any:
        tracer = self.tracer
        if event == "line" and self.rng is not None and frame.f_lineno != self.line:
            # The line ended: its range closes before this hook's own work (the checks below
            # ran inside it: about 3 us of every line event counted as the line's, truth68 b07:
            # 1000 `.item()` lines per iteration timed at 4 ms where they cost 0.4).
            tracer.close_range(self.rng)
            self.rng = None
        if tracer.done:
            self.rng = None
            return None
        if event == "line":
            lineno = frame.f_lineno
            tracer.warm_lines += not tracer.recording
            if not tracer.recording and not tracer._reached:
                body = tracer._body_range(self.idx)
                tracer._reached = body is not None and body[0] <= lineno <= body[1]
            if lineno == tracer._header(self.idx):
                if self.rng is not None:
                    tracer.close_range(self.rng)
                    self.rng = None
                tracer._loop_hit(frame)
                if tracer.done:
                    return tracer.count_after_window(frame)
                self.line = -1
            # Every line event, not only a new line: a comprehension repeats one line (its
            # backward jumps) and must hit the cap as a multi-line loop does.
            if tracer.recording or tracer.settling:
                tracer.recorded_lines += tracer.recording
                tracer.lines_run += 1
                if tracer._over_cap():
                    tracer.close()
                    return None
            if tracer.recording and lineno != self.line:
                if self.rng is not None:
                    tracer.close_range(self.rng)
                self.rng = tracer.open_range(self.idx, lineno)
                self.line = lineno
        elif event == "return":
            if self.rng is not None:
                tracer.close_range(self.rng)
                self.rng = None
            self.line = -1
        return self


class _Watchdog:
    """Ends a recording from outside when it grows past the caps (see MAX_ADDED_MEMORY)."""

    def __init__(self, tracer: LineTracer):
        self.tracer = tracer
        self.reason: str | None = None
        self._main = threading.get_ident()  # the thread that records (the cell's)
        self._stopped = threading.Event()
        self._probe = _LineProbe(tracer)
        if resident_bytes() is None:
            return
        threading.Thread(target=self._watch, name="profile-cap (paef)", daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()

    def _watch(self) -> None:
        tracer = self.tracer
        peak_before = 0  # the highest resident size until the profiler had started
        ledger: _GrowthLedger | None = None
        profiling_since = 0.0
        cpu_time = _thread_cpu_clock(self._main)
        last, last_cpu, last_lines, last_size = 0, 0.0, 0, 0
        while not self._stopped.wait(WATCH_EVERY_S):
            size, now = memory_bytes() or (0, 0)
            if not (tracer.profiler_on and (tracer.recording or tracer.settling)):
                peak_before = max(peak_before, now)
                continue
            if self.reason is not None:
                self._probe_stack()  # the frames probed before may have returned
                continue
            cpu, lines = cpu_time(), tracer.lines_run
            if ledger is None:
                profiling_since = time.perf_counter()
                ledger = _GrowthLedger(max(peak_before, now))
            elif ledger.step(now - last, cpu - last_cpu, lines - last_lines, size - last_size):
                self._probe_stack()  # count the lines of what runs now, to judge the next step
            last, last_cpu, last_lines, last_size = now, cpu, lines, size
            if ledger.events(now) > MAX_ADDED_MEMORY:
                self.reason = f"{MAX_ADDED_MEMORY // 2**20} MB of memory added while profiling"
            elif time.perf_counter() - profiling_since >= tracer.max_profiled_s:
                self.reason = f"{tracer.max_profiled_s:g} s"
            else:
                continue
            self._probe_stack()

    def _probe_stack(self) -> None:
        """Have every frame the recording thread runs, up to the cell's, call the probe at its
        next line (a cell frame's own tracer counts lines and checks `reason` already)."""
        frame = sys._current_frames().get(self._main)
        files = self.tracer.files
        while frame is not None and not self._stopped.is_set():
            if files.index(frame.f_code.co_filename) is not None:
                return
            if frame.f_trace is None:
                frame.f_trace = self._probe
                frame.f_trace_lines = True
            frame = frame.f_back


class _GrowthLedger:
    """Splits the process's growth while profiling into the cell's own memory and recorded
    events, one watchdog step at a time.

    A big allocation is a burst (see USER_ALLOCATION_RATE), but the watchdog's steps cut it
    where they fall: the step that reads its first megabytes, or its last, spent most of its
    CPU time on other work and looks slow. Those edges are the burst's too: the step after a
    burst is the cell's, and a burst takes back the step before it, which the cap therefore
    leaves out until the next step decides. Recorded events grow the process step after step:
    the edges let through two steps of them per burst, no more.

    On a loaded machine page faults are slow: a 64 MB tensor can take many steps to become
    resident, each too slow for a burst. But a big tensor is reserved at once (the process's
    virtual size jumps by its size, untouched) and only then made resident, while recorded events
    grow the virtual and the resident size together, a few hundred KB at a time. So memory
    reserved untouched in a step (RESERVED_FLOOR or more beyond what became resident) and made
    resident later is the cell's own, however slowly it comes in.
    """

    __slots__ = ("peak_before", "_pending", "_after_burst", "_reserved", "_gap")

    def __init__(self, peak_before: int):
        self.peak_before = peak_before  # the size the cell's own memory brings the process to
        self._pending = 0  # the last step's growth, charged to events unless a burst follows
        self._after_burst = False
        self._reserved = 0  # reserved in one piece, not yet resident: the cell's when it becomes so
        self._gap = 0  # the growth of (virtual - resident) size since the ledger began

    def step(self, grew: int, cpu_s: float, lines: int, reserved: int = 0) -> bool:
        """Judge one step of `grew` resident bytes (`reserved`: the virtual size's growth); whether
        it was a burst of the cell's own memory."""
        untouched = reserved - grew
        self._gap += untouched
        if untouched >= RESERVED_FLOOR:  # an allocation made in this step: a burst of the cell's
            self._reserved += untouched
            burst = True
        else:
            # resident growth with no virtual growth: memory reserved before comes in (events grow both)
            faulted = min(max(grew, 0), max(0, -untouched), self._reserved)
            self._reserved -= faulted
            self.peak_before += faulted
            grew -= faulted
            burst = grew > max(USER_ALLOCATION_FLOOR, USER_ALLOCATION_RATE * cpu_s, LINE_EVENT_BYTES * lines)
        self._reserved = max(0, min(self._reserved, self._gap))  # freed untouched: no longer to come
        if burst or self._after_burst:
            self.peak_before += grew + self._pending
            self._pending = 0
        else:
            self._pending = max(grew, 0)
        self._after_burst = burst
        return burst

    def events(self, now: int) -> int:
        """The bytes charged to recorded events at resident size `now`, the undecided step aside."""
        return now - self.peak_before - self._pending


class _LineProbe:
    """The local tracer of a frame outside the cell while profiling: counts its lines for the
    watchdog and ends the recording there once the watchdog has a reason."""

    __slots__ = ("tracer",)

    def __init__(self, tracer: LineTracer):
        self.tracer = tracer

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        tracer = self.tracer
        if tracer.done or not (tracer.recording or tracer.settling):
            frame.f_trace_lines = False
            return None
        if event != "line":
            return self
        tracer.lines_run += 1
        if tracer._watchdog is not None and tracer._watchdog.reason is not None and tracer._over_cap():
            try:
                tracer.close()
            except Exception as exc:  # noqa: BLE001 - see LineTracer.fail()
                tracer.fail(exc)
            frame.f_trace_lines = False
            return None
        return self


_COLLECT_CALL = re.compile(r"\bcollect\s*\(")


def _collection_line() -> tuple[str, int]:
    """(file, line) of the code running when a collection began: the first frame outside
    this module ("", 0 where there is none)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    return ("", 0) if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def _explicit_collection(where: tuple[str, int]) -> bool:
    """A collection the program asked for (`gc.collect()` on the running line) is that line's
    work; an automatic one, started by whatever allocated, is not."""
    return bool(where[0]) and bool(_COLLECT_CALL.search(linecache.getline(*where)))


def _thread_cpu_clock(ident: int) -> Callable[[], float]:
    """The CPU time of thread `ident` (Linux, macOS), else the wall clock."""
    try:
        clock = time.pthread_getcpuclockid(ident)
        time.clock_gettime(clock)
    except (AttributeError, OSError):
        return time.perf_counter
    return lambda: time.clock_gettime(clock)


def runqueue_wait_ns(thread: int) -> int | None:
    """How long thread `thread` of this process has waited, runnable, for a CPU (Linux
    schedstat), or None where the system does not say."""
    try:
        with open(f"/proc/self/task/{thread}/schedstat", "rb") as fh:
            return int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None


def memory_bytes() -> tuple[int, int] | None:
    """This process's virtual and resident size now (Linux `/proc`), or None where unknown."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            fields = fh.read().split()
        page = os.sysconf("SC_PAGE_SIZE")
        return int(fields[0]) * page, int(fields[1]) * page
    except (OSError, ValueError, IndexError):
        return None


def resident_bytes() -> int | None:
    """This process's resident memory now (Linux `/proc`), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
