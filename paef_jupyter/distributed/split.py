"""One rank's profiled window split into data loading / exposed communication / compute / host.

Pure: a `Trace` in, a `WindowSplit` out. What each event is:

- *communication*: the backend's own ranges (`gloo:all_reduce`, `nccl:...`: where the
  collective really runs, on the backend's threads), c10d's ops (`c10d::allreduce_`: the
  enqueue on the calling thread, which blocks for a synchronous collective) and torch's
  `record_param_comms` annotation. Everything nested in one is communication too.
- *data loading*: the DataLoader's `enumerate(DataLoader)#...__next__` range and what it runs.
- *compute*: every other torch op (autograd's evaluate functions included).
- PAEF's own line ranges (`paef|...`, `torch: ...`) and torch's Python annotations
  (`Optimizer.step#...`, `DistributedDataParallel.forward`) are transparent: their children
  decide. What no event covers is *host* time (Python, and waits the profiler does not record:
  on CPU with gloo, the autograd engine waiting for the all-reduce to finish shows as a gap
  under `backward()` while `gloo:all_reduce` runs on a backend thread).

Each thread's time belongs to its innermost classified event (a child suspends its parent),
and the window's instants are then labelled, in this order: data loading on any thread;
communication with no computation anywhere (exposed: the rank waits); computation (hiding any
communication running beside it: overlapped); else host. The four parts sum to the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..dynamic.line_tracer import TORCH_RANGE_PREFIX
from ..dynamic.trace_events import MARKER_PREFIX, USER_ANNOTATION, Trace, TraceEvent

COMM_PREFIXES = ("c10d::", "gloo:", "nccl:")
COMM_NAMES = frozenset({"record_param_comms"})
BACKEND_PREFIXES = ("gloo:", "nccl:")
DATA_PREFIX = "enumerate(DataLoader)"
GPU_COMM_PREFIX = "nccl"  # ncclKernel_AllReduce_..., ncclDevKernel_...

DATA, COMM, COMPUTE = "data", "comm", "compute"


@dataclass(frozen=True)
class WindowSplit:
    window_s: float = 0.0
    data_s: float = 0.0
    exposed_communication_s: float = 0.0
    compute_s: float = 0.0
    host_s: float = 0.0
    communication_s: float = 0.0
    overlapped_communication_s: float = 0.0
    collectives: int = 0
    backend: str = ""
    # On a GPU, the device's own timeline (kernels and copies) over its busy span: NCCL kernels
    # are communication; running while no other kernel does, they are exposed.
    gpu_span_s: float = 0.0
    gpu_communication_s: float = 0.0
    gpu_exposed_communication_s: float = 0.0
    gpu_idle_s: float = 0.0


def _kind(event: TraceEvent) -> str | None:
    name = event.name
    if name.startswith(COMM_PREFIXES) or name in COMM_NAMES:
        return COMM
    if name.startswith(DATA_PREFIX):
        return DATA
    if name.startswith((MARKER_PREFIX, TORCH_RANGE_PREFIX)) or event.cat == USER_ANNOTATION:
        return None  # transparent
    return COMPUTE


def split_window(trace: Trace) -> WindowSplit:
    host = [e for e in trace.events if e.is_host_range]
    if not host:
        return WindowSplit()
    main = [e for e in host if e.tid == trace.main_tid] or host
    start = min(e.start_ns for e in main)
    end = max(e.end_ns for e in main)
    marks: list[tuple[int, int, str]] = []
    by_thread: dict[object, list[TraceEvent]] = {}
    for e in host:
        by_thread.setdefault((e.pid, e.tid), []).append(e)
    for events in by_thread.values():
        marks.extend(_exclusive_marks(events))
    totals = _sweep(marks, start, end)
    gpu = _gpu_split(trace)
    backends = [e for e in host if e.name.startswith(BACKEND_PREFIXES)]
    names = sorted({e.name.split(":", 1)[0] for e in backends})
    return WindowSplit(
        window_s=(end - start) / 1e9,
        data_s=totals["data"] / 1e9,
        exposed_communication_s=totals["exposed"] / 1e9,
        compute_s=totals["compute"] / 1e9,
        host_s=totals["host"] / 1e9,
        communication_s=totals["comm"] / 1e9,
        overlapped_communication_s=totals["overlapped"] / 1e9,
        collectives=sum(1 for e in backends if start <= e.start_ns < end),
        backend="+".join(names),
        **gpu,
    )


def _gpu_split(trace: Trace) -> dict[str, float]:
    device = [e for e in trace.events if e.is_gpu]
    if not device:
        return {}
    marks = []
    for e in device:
        kind = COMM if e.name.lower().startswith(GPU_COMM_PREFIX) else COMPUTE
        marks += [(e.start_ns, 1, kind), (e.end_ns, -1, kind)]
    start, end = min(e.start_ns for e in device), max(e.end_ns for e in device)
    totals = _sweep(marks, start, end)
    return {
        "gpu_span_s": (end - start) / 1e9,
        "gpu_communication_s": totals["comm"] / 1e9,
        "gpu_exposed_communication_s": totals["exposed"] / 1e9,
        "gpu_idle_s": totals["host"] / 1e9,  # neither kind running
    }


def _exclusive_marks(events: list[TraceEvent]) -> Iterable[tuple[int, int, str]]:
    """(time, +1/-1, kind) so that a counter per kind says whether the thread's innermost
    classified event is of that kind: a child's span suspends its parent's kind."""
    stack: list[tuple[int, str | None]] = []  # (end, effective kind)
    for e in sorted(events, key=lambda e: (e.start_ns, -e.dur_ns)):
        while stack and stack[-1][0] <= e.start_ns:
            stack.pop()
        parent_end, parent_kind = stack[-1] if stack else (None, None)
        own = _kind(e)
        # Inside communication or data loading, everything is that; else the event's own kind.
        kind = parent_kind if parent_kind in (COMM, DATA) else (own or parent_kind)
        stop = min(e.end_ns, parent_end) if parent_end is not None else e.end_ns
        if kind is not None and kind != parent_kind:
            yield (e.start_ns, 1, kind)
            yield (stop, -1, kind)
            if parent_kind is not None:
                yield (e.start_ns, -1, parent_kind)
                yield (stop, 1, parent_kind)
        stack.append((stop, kind))


def _sweep(marks: list[tuple[int, int, str]], start: int, end: int) -> dict[str, int]:
    totals = dict.fromkeys(("data", "exposed", "compute", "host", "comm", "overlapped"), 0)
    active = {DATA: 0, COMM: 0, COMPUTE: 0}
    now = start
    # At equal times, ends before starts: a span that ends as another begins does not overlap.
    for time, delta, kind in sorted(marks, key=lambda m: (m[0], m[1])):
        clipped = min(max(time, start), end)
        if clipped > now:
            _add(totals, active, clipped - now)
            now = clipped
        active[kind] += delta
    if end > now:
        _add(totals, active, end - now)
    return totals


def _add(totals: dict[str, int], active: dict[str, int], span: int) -> None:
    data, comm, compute = active[DATA] > 0, active[COMM] > 0, active[COMPUTE] > 0
    if comm:
        totals["comm"] += span
    if data:
        totals["data"] += span
    elif comm and not compute:
        totals["exposed"] += span
    elif compute:
        totals["compute"] += span
        if comm:
            totals["overlapped"] += span
    else:
        totals["host"] += span
