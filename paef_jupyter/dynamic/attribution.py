"""Events -> cost per cell line. Pure: a `Trace` and the cell files in, `LineStat`s out.

Host events of each thread are nested by time. Every event's *line chain* is the list of
`paef|file|line` ranges around it: the cell line that ran it, and the lines of cell functions
it came through. Costs are inclusive: an op counts for every line of its chain. Events of
other host threads (autograd's device threads) take the chain the main thread was in at that
moment; GPU activity takes the chain of the runtime call that launched it (correlation id).

A line's *torch time* is the union of the torch work it triggered, on every thread: ops,
autograd engine functions and torch's own annotated ranges (`Optimizer.step#Adam.step`).
A *sync* is a runtime call that blocks the host on the device (`cudaStreamSynchronize`...):
`aten::_local_scalar_dense` alone is `.item()` on any tensor, CPU ones included (the step
counters of torch's optimizers), which waits for nothing.

The line tracer's own time between two line ranges (closing one, opening the next: a few us per
line event, measured as the short gaps between consecutive ranges) is nobody's cost: it is left
out of every line's time and of the span the lines are shares of. What the tracer and the
profiler cost *inside* the ranges (recording ops, entering and leaving a range) stays in.

Times are typical, not summed, when the window's iterations are known (the ranges of the
loop's header line start them): a line that runs in every iteration costs its median
iteration times the number of iterations, so one iteration slowed by the box (a preemption, a
collection) cannot decide the ranking. The typical iteration is one consistent iteration: a line's
own (self) time is its median, its inclusive time its own median plus its deeper lines' medians,
the span the sum of the lines' (see `_typical`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Sequence

from ..model import CellRef, LineStat
from .code_files import CodeFile
from .trace_events import (
    CPU_OP,
    GC_RANGE,
    MEMCPY,
    RUNTIME,
    SYNC_RUNTIME_CALLS,
    USER_ANNOTATION,
    Trace,
    TraceEvent,
)

LineKey = tuple[int, int]  # (file index, code line)
Chain = tuple[LineKey, ...]

COPY_OPS = frozenset({"aten::_to_copy"})
CREATION_OPS = frozenset({"aten::lift_fresh"})
# Host events that are torch's work: ops (autograd engine functions are ops too) and the
# ranges torch opens around its own Python (optimizer steps, zero_grad).
TORCH_WORK = frozenset({CPU_OP, USER_ANNOTATION})
# Every bytecode belongs to some line, so between two deeper cell lines a call runs only the
# line tracer (closing one range, opening the next): a gap this short is measurement overhead.
TRACER_GAP_NS = 50_000


@dataclass(slots=True)
class HostNode:
    event: TraceEvent
    parent: int  # index into the thread's node list, -1 for a root
    chain: Chain
    depth: int
    in_sync: bool = False  # inside an op that already waited on the device
    is_op_root: bool = False  # an op whose parent is not an op (a call made by the line)
    is_torch_root: bool = False  # torch work (op or torch's own range) not inside other torch work


@dataclass
class HostThread:
    tid: int | str
    nodes: list[HostNode]


@dataclass
class _Acc:
    cpu_ns: int = 0
    self_ns: int = 0
    hits: int = 0
    ops: int = 0
    op_ns: int = 0
    syncs: int = 0
    copies: int = 0
    creations: int = 0
    h2d: int = 0
    h2d_bytes: int = 0
    d2h: int = 0
    d2h_bytes: int = 0
    pageable: int = 0
    gpu_ns: int = 0
    sync_warnings: int = 0
    gap_ns: int = 0  # the line tracer's own time between the deeper cell lines (left out of cpu_ns)
    backward_ns: int = 0  # backward of the autograd nodes this line's forward ops created
    # Per window iteration, the line's time outside torch work (lines run in every iteration of a
    # window of known iterations; else empty): whether its typical cost is paid every iteration.
    iter_host_ns: list[int] = field(default_factory=list)


@dataclass
class Attribution:
    threads: list[HostThread]
    main_tid: int | str | None
    lines: dict[LineKey, _Acc] = field(default_factory=dict)
    gpu_chains: list[tuple[TraceEvent, Chain, TraceEvent | None]] = field(default_factory=list)
    span: tuple[int, int] = (0, 0)  # first and last instant of the main thread's line ranges
    totals: _Acc = field(default_factory=_Acc)  # each event once, inside any cell line
    iterations: int = 0  # window iterations told apart by the header's ranges (0: unknown)
    typical_span_ns: int = 0  # the median iteration's length times `iterations` (else the span)
    gap_ns: int = 0  # the line tracer's own time inside `span` (between line ranges)
    # On a busy machine, the longer gaps between a line's deeper line ranges, left out of that
    # line as CPU waits (`attribute`'s `busy`): out of `span` too, as no line holds them.
    wait_gap_ns: int = 0
    gc_ns: int = 0  # garbage collections of the cell's thread inside `span` (GC_RANGE)
    gc_count: int = 0
    gc_iterations: int = 0  # window iterations with a collection in them (of `iterations`)
    op_events: int = 0  # torch op events inside cell lines, every thread (each one recorded: `op_cost`)

    @property
    def span_ns(self) -> int:
        """The profiled host time the lines' times are shares of, less the tracer's gaps and
        the collections."""
        return self.typical_span_ns or max(0, self.span[1] - self.span[0] - self.gap_ns - self.wait_gap_ns
                                           - self.gc_ns)


def nest(events: Sequence[TraceEvent]) -> list[HostNode]:
    """Nest one thread's events by time (an event inside another's interval is its child)."""
    ordered = sorted(events, key=lambda e: (e.start_ns, -e.dur_ns))
    nodes: list[HostNode] = []
    # The open ancestors, innermost last: (end, node index, is an op, is torch work).
    stack: list[tuple[int, int, bool, bool]] = []
    for ev in ordered:
        start = ev.start_ns
        while stack and stack[-1][0] <= start:
            stack.pop()
        marker = ev.marker
        is_op = marker is None and ev.cat == CPU_OP
        is_work = marker is None and ev.cat in TORCH_WORK and ev.name != GC_RANGE
        if stack:
            _, parent, parent_is_op, parent_is_work = stack[-1]
            pnode = nodes[parent]
            chain = pnode.chain if marker is None else pnode.chain + (marker,)
            node = HostNode(ev, parent, chain, pnode.depth + 1, pnode.in_sync, is_op and not parent_is_op,
                            is_work and not parent_is_work)
        else:
            node = HostNode(ev, -1, () if marker is None else (marker,), 0, False, is_op, is_work)
        stack.append((start + ev.dur_ns, len(nodes), is_op, is_work))
        nodes.append(node)
    return nodes


def attribute(
    trace: Trace,
    sync_warnings: dict[LineKey, int] | None = None,
    header: LineKey | None = None,
    complete: bool = True,
    busy: bool = False,
) -> Attribution:
    """`header`: the windowed loop's header line, whose ranges start its iterations;
    `complete`: the window ended at a header hit (else its last iteration may be partial);
    `busy`: the cell waited for a CPU much of the time, so a gap between a line's deeper line
    ranges longer than the tracer takes is mostly that wait, not that line's work: left out of
    it (the span keeps it, as it keeps the waits inside ranges)."""
    by_tid: dict[int | str, list[TraceEvent]] = {}
    for ev in trace.host:
        by_tid.setdefault(ev.tid, []).append(ev)
    threads = [HostThread(tid, nest(evs)) for tid, evs in by_tid.items()]
    main = _main_thread(threads, trace.main_tid)
    result = Attribution(threads, main.tid if main else None)
    lines = result.lines
    locate = _ChainLocator(main.nodes if main else [])
    collections = sorted((n.event.start_ns, n.event.end_ns) for n in (main.nodes if main else [])
                         if n.event.name == GC_RANGE)
    gaps = _Gaps(main.nodes if main else [], None if busy else TRACER_GAP_NS, collections)
    if main is not None:
        markers = [n.event for n in main.nodes if n.event.marker is not None]
        if markers:
            result.span = (min(e.start_ns for e in markers), max(e.end_ns for e in markers))
            result.gap_ns = sum(gaps.at.values())
            result.wait_gap_ns = sum(gaps.waits.values())
            inside = [(max(s, result.span[0]), min(e, result.span[1])) for s, e in collections]
            result.gc_ns = sum(max(0, e - s) for s, e in inside)
            result.gc_count = sum(1 for s, e in inside if e > s)

    runtime_chain: dict[int, tuple[Chain, TraceEvent]] = {}
    torch_spans: dict[LineKey, list[tuple[int, int]]] = {}
    roots: list[tuple[int, int, list[LineKey]]] = []  # torch work not inside other torch work, with its lines
    for thread in threads:
        on_main = main is not None and thread.tid == main.tid
        if on_main:
            _add_markers(lines, thread.nodes, gaps)
        for node in thread.nodes:
            ev = node.event
            chain = node.chain if on_main else locate(ev.start_ns)
            if not chain or ev.marker is not None:
                continue
            keys = _distinct(chain)
            if node.is_torch_root:
                roots.append((ev.start_ns, ev.end_ns, keys))
                for key in keys:
                    torch_spans.setdefault(key, []).append((ev.start_ns, ev.end_ns))
            if ev.cat == CPU_OP:
                result.op_events += 1
                result.totals.copies += ev.name in COPY_OPS
                for key in keys:
                    acc = lines.setdefault(key, _Acc())
                    if node.is_op_root:
                        acc.ops += 1
                    acc.copies += ev.name in COPY_OPS
                    acc.creations += ev.name in CREATION_OPS
            elif ev.cat in RUNTIME:
                corr = ev.correlation
                if corr is not None:
                    runtime_chain[corr] = (chain, ev)
                if ev.name in SYNC_RUNTIME_CALLS and not _parent_in_sync(thread.nodes, node):
                    _mark_synced(thread.nodes, node)
                    result.totals.syncs += 1
                    for key in keys:
                        lines.setdefault(key, _Acc()).syncs += 1
    for key, spans in torch_spans.items():
        lines.setdefault(key, _Acc()).op_ns = _work_ns(spans, collections)
    backward: dict[LineKey, list[tuple[int, int]]] = {}
    if main is not None:
        backward = _add_backward(lines, main.nodes, [n for thread in threads for n in thread.nodes])
    if main is not None and header is not None:
        _typical(result, main.nodes, header, complete, gaps, roots, backward)

    for ev in trace.gpu:
        corr = ev.correlation
        chain, launch = runtime_chain.get(corr, ((), None)) if corr is not None else ((), None)
        result.gpu_chains.append((ev, chain, launch))
        direction = memcpy_direction(ev.name) if ev.cat == MEMCPY and chain else None
        result.totals.h2d += direction == "HtoD"
        result.totals.d2h += direction == "DtoH"
        for key in _distinct(chain):
            acc = lines.setdefault(key, _Acc())
            acc.gpu_ns += ev.dur_ns
            if ev.cat == MEMCPY:
                direction = memcpy_direction(ev.name)
                nbytes = int(ev.args.get("bytes", 0) or 0)
                if direction == "HtoD":
                    acc.h2d += 1
                    acc.h2d_bytes += nbytes
                elif direction == "DtoH":
                    acc.d2h += 1
                    acc.d2h_bytes += nbytes
                acc.pageable += "pageable" in ev.name.lower()

    for key, count in (sync_warnings or {}).items():
        lines.setdefault(key, _Acc()).sync_warnings += count
    return result


# Fewer iterations than this: a median says no more than a sum.
MIN_ITERATIONS_FOR_MEDIAN = 3


def _typical(result: Attribution, nodes: list[HostNode], header: LineKey, complete: bool, gaps: "_Gaps",
             roots: list[tuple[int, int, list[LineKey]]],
             backward: dict[LineKey, list[tuple[int, int]]] | None = None) -> None:
    """Replace summed times by median-iteration ones (see the module's docstring). Lines that
    do not run in every iteration (logging every N steps) keep their sum: their cost is real
    but not per iteration, and a median of mostly zeros would hide it. A window that ended
    otherwise than at a header hit (the loop's exhaustion, a `break`, the cell's end) has a
    last iteration that may be partial or hold the lines after the loop: it is not counted.

    The typical iteration is one consistent iteration (truth19): the median of a sum is not the
    sum of the medians. A stall (a preemption, a page fault) in a different helper line in each
    iteration leaves every helper line's median alone, but a median of the call line's
    inclusive time, or of the iteration's length, holds one in every iteration. So a line's
    self time is its median; its inclusive time is its self median plus, for each deeper line
    it runs, the median of that line's self time under it (`_Contribution`); the iteration's
    span is the sum of its lines' self medians plus the median of what no such line holds. A
    line's backward (`backward`: start and length of each node it created) is its median
    iteration's too, as its forward is."""
    starts = sorted(n.event.start_ns for n in nodes if n.event.marker is not None and n.chain[-1] == header)
    bounds = starts + [max(result.span[1], starts[-1])] if starts else []
    if not complete:
        starts, bounds = starts[:-1], bounds[:-1]
    n = len(starts)
    if n < MIN_ITERATIONS_FOR_MEDIAN:
        return

    def at(t: int) -> int | None:
        i = bisect.bisect_right(starts, t) - 1
        return i if 0 <= i < n and t < bounds[i + 1] else None

    lengths = [b - a for a, b in zip(bounds, bounds[1:])]
    for t, gap in [*gaps.at.items(), *gaps.waits.items()]:  # each iteration's length less the tracer's time
        k = at(t)  # in it (and on a busy machine the waits between deeper lines no line holds)
        if k is not None:
            lengths[k] -= gap
    collected: set[int] = set()
    for s, e in gaps.collections:  # ... and less the collections in it
        k = at(s)
        if k is not None:
            lengths[k] -= min(e, bounds[k + 1]) - s
            collected.add(k)
    result.gc_iterations = len(collected)

    ran: dict[LineKey, set[int]] = {}
    parts: dict[tuple[LineKey, LineKey], _Contribution] = {}
    child_ns = _child_marker_ns(nodes)
    for i, node in enumerate(nodes):
        ev = node.event
        if ev.marker is None:
            continue
        k = at(ev.start_ns)
        if k is None:
            continue
        key = node.chain[-1]
        ran.setdefault(key, set()).add(k)
        own = max(0, ev.dur_ns - child_ns[i] - gaps.direct[i] - gaps.gc_direct[i])
        for outer in _distinct(node.chain):
            part = parts.setdefault((outer, key), _Contribution(n))
            part.self_ns[k] += own
    for s, e, keys in roots:  # torch work goes to its innermost line's part, under each outer one
        k = at(s)
        if k is not None:
            for outer in keys:
                parts.setdefault((outer, keys[-1]), _Contribution(n)).work[k].append((s, e))
    under: dict[LineKey, list[_Contribution]] = {}  # outer line -> its parts (its own among them)
    for (outer, _), part in parts.items():
        under.setdefault(outer, []).append(part)
    every = {key for key, seen in ran.items() if len(seen) == n}
    residual = list(lengths)
    for key in every:
        for k, own in enumerate(parts[(key, key)].self_ns):
            residual[k] -= own
    for key in every:
        acc = result.lines[key]
        inclusive = work = 0
        host = [0] * n  # per iteration, the cost outside torch each one paid: the same parts
        for part in under.get(key, ()):
            t, w = part.typical(n, gaps.collections)
            inclusive, work = inclusive + t, work + w
            for j, h in enumerate(part.host(gaps.collections)):
                host[j] += h
        acc.cpu_ns = inclusive
        acc.self_ns = _median(parts[(key, key)].self_ns) * n
        acc.op_ns = min(work, acc.cpu_ns)
        acc.iter_host_ns = host
        if backward and key in backward:
            nodes_ns = [0] * n
            for start, dur in backward[key]:
                k = at(start)
                if k is not None:
                    nodes_ns[k] += dur
            acc.backward_ns = _median(nodes_ns) * n
    result.iterations = n
    result.typical_span_ns = (sum(_median(parts[(key, key)].self_ns) for key in every)
                              + max(0, _median(residual))) * n


class _Contribution:
    """One deeper line's part of an outer line (or a line's own, outer == line): per window
    iteration, its self time under the outer line and its torch work there (the torch work whose
    innermost cell line it is)."""

    def __init__(self, n: int):
        self.self_ns = [0] * n
        self.work: list[list[tuple[int, int]]] = [[] for _ in range(n)]

    def typical(self, n: int, collections: list[tuple[int, int]]) -> tuple[int, int]:
        """(time, torch work) of its typical iteration, times n. The time is the median of its
        self times; the part outside torch is the median of its per-iteration times outside torch
        (`host`), so the typical figure a card states is one its iterations show (truth67: a
        `backward()` line whose torch work went unrecorded in one iteration of three - its time
        all "outside torch" there, none in the two others - took that one iteration's figure as
        typical, the median iteration by self time); the torch work is the rest. A deeper line the
        outer one runs in some iterations only (logging every N steps) counts its median too -
        none in most iterations -, as the outer line's median did: that line keeps its sum as
        its own."""
        k = sorted(range(n), key=self.self_ns.__getitem__)[(n - 1) // 2]
        host = _median(self.host(collections))
        return self.self_ns[k] * n, max(0, self.self_ns[k] - host) * n

    def host(self, collections: list[tuple[int, int]]) -> list[int]:
        """Per iteration, its self time outside its torch work (collections out of both, as in
        `typical`): summed over an outer line's parts, that line's iterations (`iter_host_ns`)
        are built as its typical one is, part by part (truth20)."""
        return [max(0, own - _work_ns(work, collections)) for own, work in zip(self.self_ns, self.work)]


def _median(values: list[int]) -> int:
    """The lower median (of 3 iterations, the middle one), as the typical iteration's figures."""
    return sorted(values)[(len(values) - 1) // 2]


def memcpy_direction(name: str) -> str | None:
    """'HtoD', 'DtoH', 'DtoD'... from Kineto's "Memcpy HtoD (Pageable -> Device)"."""
    for part in name.replace("(", " ").split():
        if len(part) == 4 and part[1:3] == "to":
            return part
    return None


def line_stats(result: Attribution, files: Sequence[CodeFile]) -> tuple[LineStat, ...]:
    """Per cell line, in cell coordinates; lines of unknown files are dropped."""
    merged: dict[tuple[tuple[str | None, int | None], int], tuple[CellRef, _Acc]] = {}
    for (idx, code_line), acc in result.lines.items():
        if not 0 <= idx < len(files):
            continue
        cf = files[idx]
        key = (cf.ref.key, cf.cell_line(code_line))
        if key in merged:
            _merge(merged[key][1], acc)
        else:
            merged[key] = (cf.ref, _copy(acc))
    stats = [
        LineStat(
            ref=ref,
            line=line,
            cpu_time_s=acc.cpu_ns / 1e9,
            self_cpu_s=acc.self_ns / 1e9,
            trace_gap_s=acc.gap_ns / 1e9,
            ops=acc.ops,
            # torch's ranges (a DataLoader's `__next__`) may span the tracer's gaps left out of cpu_ns
            op_time_s=(min(acc.op_ns, acc.cpu_ns) if acc.cpu_ns else acc.op_ns) / 1e9,
            h2d_copies=acc.h2d,
            h2d_bytes=acc.h2d_bytes,
            d2h_copies=acc.d2h,
            d2h_bytes=acc.d2h_bytes,
            pageable_copies=acc.pageable,
            syncs=acc.syncs,
            gpu_time_s=acc.gpu_ns / 1e9,
            hits=acc.hits,
            copies=acc.copies,
            tensor_creations=acc.creations,
            sync_warnings=acc.sync_warnings,
            backward_s=acc.backward_ns / 1e9,
            iteration_host_s=tuple(t / 1e9 for t in acc.iter_host_ns),
        )
        for (_, line), (ref, acc) in merged.items()
    ]
    stats.sort(key=lambda s: (s.ref.path or "", s.ref.cell if s.ref.cell is not None else -1, s.line))
    return tuple(stats)


def gpu_busy(result: Attribution) -> tuple[int, int, int]:
    """(busy, idle waiting for the host, span) in ns over the main thread's line ranges.

    A gap on the GPU is "waiting for the host" when the work that ends it was launched after
    the gap began: the device had nothing queued and the CPU was late.
    """
    start, end = result.span
    gpu = sorted(
        ((ev.start_ns, ev.end_ns, launch) for ev, _, launch in result.gpu_chains),
        key=lambda t: t[0],
    )
    if not gpu or end <= start:
        return 0, 0, max(0, end - start)
    busy = 0
    idle_host = 0
    cursor = start
    for s, e, launch in gpu:
        s, e = max(s, start), min(e, end)
        if e <= s:
            continue
        if s > cursor:
            if launch is not None and launch.start_ns > cursor:
                idle_host += s - cursor
            cursor = s
        if e > cursor:
            busy += e - max(s, cursor)
            cursor = e
    return busy, idle_host, end - start


def _main_thread(threads: list[HostThread], main_tid: int | str | None) -> HostThread | None:
    def markers(t: HostThread) -> int:
        return sum(1 for n in t.nodes if n.event.marker is not None)

    for t in threads:
        if main_tid is not None and t.tid == main_tid and markers(t):
            return t
    with_markers = [t for t in threads if markers(t)]
    return max(with_markers, key=markers) if with_markers else None


def _child_marker_ns(nodes: list[HostNode]) -> list[int]:
    """Per node, the time of the line ranges directly inside it (a line's deeper cell lines)."""
    child_ns = [0] * len(nodes)
    for node in nodes:
        if node.event.marker is None:
            continue
        parent = _marker_parent(nodes, node)
        if parent >= 0:
            child_ns[parent] += node.event.dur_ns
    return child_ns


class _Gaps:
    """The line tracer's own time: the short gaps (<= TRACER_GAP_NS) between consecutive line
    ranges with the same parent range (a helper's lines one after another) or with none (the
    loop's own lines). Every bytecode belongs to some line, so only the tracer runs there; a
    longer gap may be the caller's work between two calls, or, on a busy machine, a CPU wait:
    with `cap` None the longer ones are left out of the parent line too, and so (`waits`) out of
    the span the lines' shares are of: kept there, they were time no line holds, and a line that
    runs many short helper lines (tens of thousands of ranges, each gap holding a share of the
    box's waits) lost most of its share under load (truth20: 20% of a recorded part for a line
    that was all of it).

    Garbage collections (`collections`, the GC_RANGE intervals of the thread) are counted apart:
    a gap is measured less the collections in it, and `gc_inside` / `gc_direct` hold, per line
    range, the collection time inside it at any depth / outside its deeper line ranges."""

    def __init__(self, nodes: list[HostNode], cap: int | None = TRACER_GAP_NS,
                 collections: Sequence[tuple[int, int]] = ()):
        self.direct = [0] * len(nodes)  # per node: the gaps between the line ranges just inside it
        self.inside = [0] * len(nodes)  # per node: every gap inside its range, at any depth
        self.at: dict[int, int] = {}  # gap start -> length, for every gap of the thread
        self.waits: dict[int, int] = {}  # gap start -> length: the longer ones left out of a line (cap None)
        self.collections = list(collections)
        self.gc_inside = [0] * len(nodes)
        self.gc_direct = [0] * len(nodes)
        parents = [_marker_parent(nodes, node) for node in nodes]
        last_end: dict[int, int] = {}
        for i, node in enumerate(nodes):  # in start order (`nest`)
            if node.event.marker is None:
                continue
            if self.collections:
                self.gc_inside[i] = _overlap_ns(self.collections, node.event.start_ns, node.event.end_ns)
            parent = parents[i]
            end = last_end.get(parent)
            gap = node.event.start_ns - end if end is not None else -1
            if gap > 0 and self.collections:
                gap = max(0, gap - _overlap_ns(self.collections, end, node.event.start_ns))
            if 0 <= gap <= TRACER_GAP_NS:
                self.at[end] = gap
            if gap >= 0 and (cap is None or gap <= cap) and parent >= 0:
                self.direct[parent] += gap
                if gap > TRACER_GAP_NS:
                    self.waits[end] = gap
            last_end[parent] = node.event.end_ns
        for i in range(len(nodes) - 1, -1, -1):  # children after their parents: sum bottom-up
            self.inside[i] += self.direct[i]
            if parents[i] >= 0 and nodes[i].event.marker is not None:
                self.inside[parents[i]] += self.inside[i]
        if self.collections:
            self.gc_direct = list(self.gc_inside)
            for i, node in enumerate(nodes):
                if node.event.marker is not None and parents[i] >= 0:
                    self.gc_direct[parents[i]] -= self.gc_inside[i]


def _overlap_ns(intervals: list[tuple[int, int]], start: int, end: int) -> int:
    """How much of [start, end] the sorted, disjoint `intervals` cover."""
    i = max(0, bisect.bisect_right(intervals, (start, start)) - 1)
    total = 0
    while i < len(intervals) and intervals[i][0] < end:
        s, e = intervals[i]
        total += max(0, min(e, end) - max(s, start))
        i += 1
    return total


def _marker_parent(nodes: list[HostNode], node: HostNode) -> int:
    """The nearest enclosing line range (-1: none)."""
    parent = node.parent
    while parent >= 0 and nodes[parent].event.marker is None:
        parent = nodes[parent].parent
    return parent


def _add_markers(lines: dict[LineKey, _Acc], nodes: list[HostNode], gaps: _Gaps) -> None:
    """Hits, inclusive and self time of each line range of the main thread, less the tracer's
    gaps inside it."""
    child_ns = _child_marker_ns(nodes)
    for i, node in enumerate(nodes):
        if node.event.marker is None:
            continue
        key = node.chain[-1]
        acc = lines.setdefault(key, _Acc())
        acc.hits += 1
        if key not in node.chain[:-1]:  # recursion: count the outermost occurrence only
            acc.cpu_ns += node.event.dur_ns - gaps.inside[i] - gaps.gc_inside[i]
            acc.gap_ns += gaps.inside[i] + gaps.gc_inside[i]
        # Self time: the line's range minus the deeper cell lines it called and the gaps between them.
        acc.self_ns += max(0, node.event.dur_ns - child_ns[i] - gaps.direct[i] - gaps.gc_direct[i])


def _parent_in_sync(nodes: list[HostNode], node: HostNode) -> bool:
    return node.parent >= 0 and nodes[node.parent].in_sync


def _mark_synced(nodes: list[HostNode], node: HostNode) -> None:
    """One `.item()` on CUDA is a memcpy and a stream sync: count the op's first wait only.
    Later runtime calls inside the same op (its other children) see `in_sync`."""
    i = node.parent
    while i >= 0 and nodes[i].event.marker is None:
        nodes[i].in_sync = True
        i = nodes[i].parent


def _work_ns(spans: list[tuple[int, int]], collections: list[tuple[int, int]]) -> int:
    """The torch work's time: its spans' union, less the collections inside them (a collection
    in torch's own Python, an optimizer's step, is no more torch's work than a line's)."""
    if not collections:
        return _union_ns(spans)
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return sum(e - s - _overlap_ns(collections, s, e) for s, e in merged)


def _union_ns(spans: list[tuple[int, int]]) -> int:
    """Total length of possibly overlapping intervals (work on several threads at once)."""
    total = 0
    end = None
    for s, e in sorted(spans):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


BACKWARD_NODE = "autograd::engine::evaluate_function: "
_SEQUENCE = re.compile(r'"Sequence number": (\d+)')


def _sequence(event: TraceEvent) -> int | None:
    """The autograd sequence number Kineto gives an op (read from the metadata text: parsing
    every op's JSON would cost more than the rest of the attribution)."""
    metadata = getattr(event.args, "_metadata", None)
    if metadata is None:
        value = event.args.get("Sequence number") if hasattr(event.args, "get") else None
        return int(value) if isinstance(value, int) else None
    found = _SEQUENCE.search(metadata)
    return int(found.group(1)) if found else None


def _add_backward(lines: dict[LineKey, _Acc], nodes: list[HostNode],
                  every: list[HostNode]) -> dict[LineKey, list[tuple[int, int]]]:
    """Charge each backward node's time (`evaluate_function: XBackward0`, on the thread that
    runs `backward()`) also to the line whose forward op created it - the innermost cell line of
    that op - as `backward_ns`: what a line's graph costs where `backward()` is called. A graph
    built under `no_grad` would cost none of it (truth16: a KD teacher's backward was 3/4 of
    what its `no_grad` saves, on `loss.backward()`'s line). Returns each line's nodes (start,
    length), for `_typical`."""
    charged: dict[LineKey, list[tuple[int, int]]] = {}
    backward = [n for n in every if n.event.cat == CPU_OP and n.event.name.startswith(BACKWARD_NODE)]
    if not backward:
        return charged
    created: dict[int, LineKey] = {}
    in_backward = [False] * len(nodes)  # a backward node, or an op it runs
    for i, node in enumerate(nodes):
        ev = node.event
        in_backward[i] = ev.name.startswith(BACKWARD_NODE) or (node.parent >= 0 and in_backward[node.parent])
        if ev.cat != CPU_OP or not node.chain or in_backward[i]:
            continue
        seq = _sequence(ev)
        if seq is not None:
            # An op reports the number the next node will get; the last op (in time) holding a
            # number is the one that created that node (the counter moves on after it).
            created[seq] = _distinct(node.chain)[-1]
    for node in backward:
        seq = _sequence(node.event)
        key = created.get(seq) if seq is not None else None
        if key is not None:
            lines.setdefault(key, _Acc()).backward_ns += node.event.dur_ns
            charged.setdefault(key, []).append((node.event.start_ns, node.event.dur_ns))
    return charged


def _distinct(chain: Chain) -> list[LineKey]:
    seen: list[LineKey] = []
    for key in chain:
        if key not in seen:
            seen.append(key)
    return seen


class _ChainLocator:
    """The main thread's line chain at an instant (for events of other threads)."""

    def __init__(self, nodes: list[HostNode]):
        self._markers = [n for n in nodes if n.event.marker is not None]
        self._starts = [n.event.start_ns for n in self._markers]

    def __call__(self, t: int) -> Chain:
        # Ranges nest, so the last one to start before `t` that is still open is the deepest.
        i = bisect.bisect_right(self._starts, t) - 1
        while i >= 0:
            node = self._markers[i]
            if node.event.end_ns > t:
                return node.chain
            if len(node.chain) == 1:
                return ()
            i -= 1
        return ()


def _copy(acc: _Acc) -> _Acc:
    return _Acc(**{name: list(v) if isinstance(v, list) else v for name, v in vars(acc).items()})


def _merge(into: _Acc, other: _Acc) -> None:
    for name, value in vars(other).items():
        mine = getattr(into, name)
        if isinstance(value, list):  # per iteration: added where both cover the same iterations
            setattr(into, name, [a + b for a, b in zip(mine, value)] if len(mine) == len(value) else [])
        else:
            setattr(into, name, mine + value)
