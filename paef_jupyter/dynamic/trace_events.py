"""Kineto's Chrome-trace events as plain events: the one input every dynamic analysis reads.

A real run reads them from the profiler's results in memory (`from_activities`: the very
activities Kineto's Chrome export writes out, without the JSON file); tests build traces in
the Chrome format by hand, so GPU handling (kernels, memcpy kinds, syncs) is exercised without
a GPU. Times are kept in integer nanoseconds to make interval nesting exact.
"""

from __future__ import annotations

import json
from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator, Mapping

# Range names the line tracer opens around each executed cell line: "paef|<file>|<line>".
MARKER_PREFIX = "paef|"
# The range the line tracer opens around each garbage collection while recording.
GC_RANGE = "paef: garbage collection"

CPU_OP = "cpu_op"
USER_ANNOTATION = "user_annotation"
RUNTIME = frozenset({"cuda_runtime", "cuda_driver"})
KERNEL = "kernel"
MEMCPY = "gpu_memcpy"
MEMSET = "gpu_memset"
GPU_CATEGORIES = frozenset({KERNEL, MEMCPY, MEMSET})

# Runtime calls that block the host until the device is done.
SYNC_RUNTIME_CALLS = frozenset(
    {
        "cudaDeviceSynchronize",
        "cudaStreamSynchronize",
        "cudaEventSynchronize",
        "cudaMemcpy",
        "cuCtxSynchronize",
        "cuStreamSynchronize",
        "cuEventSynchronize",
    }
)


@dataclass(frozen=True)
class TraceEvent:
    name: str
    cat: str
    tid: int | str
    start_ns: int
    dur_ns: int
    pid: int | str = 0
    args: Mapping[str, Any] = field(default_factory=dict)

    @property
    def end_ns(self) -> int:
        return self.start_ns + self.dur_ns

    @property
    def correlation(self) -> int | None:
        value = self.args.get("correlation")
        return int(value) if isinstance(value, (int, float)) else None

    @cached_property  # read several times per event while nesting and attributing
    def marker(self) -> tuple[int, int] | None:
        """(file index, line) if this is a line-tracer range."""
        return _marker(self.name)

    @property
    def is_gpu(self) -> bool:
        return self.cat in GPU_CATEGORIES

    @property
    def is_host_range(self) -> bool:
        """An event on a host thread that can enclose others (ops, markers, runtime calls)."""
        return self.cat in (CPU_OP, USER_ANNOTATION) or self.cat in RUNTIME


@dataclass(frozen=True)
class Trace:
    events: tuple[TraceEvent, ...]
    main_tid: int | str | None = None  # the thread that ran the cell

    @property
    def host(self) -> list[TraceEvent]:
        return [e for e in self.events if e.is_host_range]

    @property
    def gpu(self) -> list[TraceEvent]:
        return [e for e in self.events if e.is_gpu]


def _ns(us: Any) -> int:
    return int(round(float(us) * 1000))


def parse_chrome_trace(data: Mapping[str, Any], main_tid: int | str | None = None) -> Trace:
    """Complete ('X') events of a Kineto Chrome trace; metadata and flow arrows are dropped."""
    raw = data.get("traceEvents")
    if not isinstance(raw, list):
        raise ValueError("not a Chrome trace: no 'traceEvents' list")
    return Trace(tuple(_events(raw)), main_tid)


def _events(raw: Iterable[Any]) -> Iterable[TraceEvent]:
    for e in raw:
        if not isinstance(e, dict) or e.get("ph") != "X" or "ts" not in e:
            continue
        yield TraceEvent(
            name=str(e.get("name", "")),
            cat=str(e.get("cat", "")),
            tid=e.get("tid", 0),
            pid=e.get("pid", 0),
            start_ns=_ns(e["ts"]),
            dur_ns=max(0, _ns(e.get("dur", 0))),
            args=e.get("args") or {},
        )


def load_chrome_trace(path: str, main_tid: int | str | None = None) -> Trace:
    with open(path, encoding="utf-8") as fh:
        return parse_chrome_trace(json.load(fh), main_tid)


def from_activities(activities: Iterable[Any], main_tid: int | str | None = None) -> Trace:
    """The events of a Kineto result's `trace_activities()` (torch's `_ProfilerResult`), as the
    Chrome export would write them: the same names, categories, threads, durations and args,
    with start times in the profiler's own clock (only their differences are read). Reading
    them in memory skips writing, reading and parsing a JSON file (2-3x faster).

    Each `TraceEvent` has its fields set at once: the frozen dataclass's `__init__` sets each
    through `object.__setattr__` (3 of the 4 us an event took to read, thousands per trace).
    The same object: equal, same repr. Its `marker` is stored as the cached property stores
    it: every event's is read, and Python 3.11's `cached_property` takes a lock on each first
    read. A thread's `tid` is its resource id as the Chrome export writes it. All of it inline,
    names bound once: a function call per event was 6% of the read (555 events: 3.36 -> 3.14 ms
    of CPU on a loaded box)."""
    events = []
    append, new, own, prefix, no_thread = events.append, _new, _OWN_CORRELATION, MARKER_PREFIX, -(2**63)
    for act in activities:
        cat = act.type()
        # The export's "External id": the CPU op a device event or runtime call belongs to.
        external = act.linked_correlation_id() or (0 if cat in own else act.correlation_id())
        name, resource, dur = act.name(), act.resource_id(), act.duration()
        event = new(TraceEvent)
        event.__dict__.update(name=name, cat=cat, tid=0 if resource == no_thread else abs(resource),
                              start_ns=act.timestamp(), dur_ns=dur if dur > 0 else 0, pid=act.device_id(),
                              args=_Args(external, act.metadata_json()),
                              marker=_marker(name) if name.startswith(prefix) else None)
        append(event)
    return Trace(tuple(events), main_tid)


def _marker(name: str) -> tuple[int, int] | None:
    """(file index, line) of a line-tracer range's name, else None."""
    if not name.startswith(MARKER_PREFIX):
        return None
    try:
        _, file_index, line = name.split("|")
        return int(file_index), int(line)
    except ValueError:
        return None


_new = object.__new__


# Events whose own correlation id pairs a runtime call with its device work (in their metadata).
_OWN_CORRELATION = GPU_CATEGORIES | RUNTIME | {"privateuse1_runtime", "privateuse1_driver"}


class _Args(MappingABC):
    """An event's args, parsed from Kineto's metadata only when read: the analyses read a few
    events' args (GPU copies' bytes, runtime correlations), not the thousands of CPU ops'."""

    __slots__ = ("_external", "_metadata", "_parsed")

    def __init__(self, external: int, metadata: str):
        self._external = external
        self._metadata = metadata
        self._parsed: dict[str, Any] | None = None

    def _items(self) -> dict[str, Any]:
        if self._parsed is None:
            parsed = {"External id": self._external} if self._external else {}
            if self._metadata:
                parsed.update(json.loads("{" + self._metadata + "}"))
            self._parsed = parsed
        return self._parsed

    def __getitem__(self, key: str) -> Any:
        return self._items()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())
