"""The call trees the flame chart draws, merged and bounded.

Identical sibling frames (same line, same op) are merged, as in pyinstrument: a window of
1,000 iterations gives the same tree size as one. Frames are laid out as a flame graph
(children end to end inside their parent), so `start_s` is a position, not a timestamp. What is left is capped by keeping the most
expensive frames first (a priority queue over the merged tree), and by depth.
"""

from __future__ import annotations

import heapq
import linecache
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from ..model import CellRef, Frame
from .attribution import Attribution, LineKey
from .code_files import CodeFile
from .trace_events import MEMCPY, RUNTIME, SYNC_RUNTIME_CALLS, TraceEvent

MAX_FRAMES = 2000
MAX_DEPTH = 24
MAX_NAME = 160

LineText = Callable[[CodeFile, int], str]


def source_line(code_file: CodeFile, code_line: int) -> str:
    return linecache.getline(code_file.filename, code_line).strip()


@dataclass
class _Agg:
    name: str
    kind: str
    ref: CellRef | None = None
    line: int | None = None
    start_ns: int | None = None
    dur_ns: int = 0
    calls: int = 0
    depth: int = 0
    children: dict[tuple, "_Agg"] = field(default_factory=dict)

    def child(self, key: tuple, name: str, kind: str, ref: CellRef | None, line: int | None) -> "_Agg":
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = _Agg(name, kind, ref, line, depth=self.depth + 1)
        return node

    def add(self, start_ns: int, dur_ns: int) -> None:
        self.calls += 1
        self.dur_ns += dur_ns
        self.start_ns = start_ns if self.start_ns is None else min(self.start_ns, start_ns)


class _Lines:
    """Frame identity and label of a line range."""

    def __init__(self, files: Sequence[CodeFile], text: LineText):
        self.files = files
        self.text = text
        self._cache: dict[LineKey, tuple[tuple, str, CellRef | None, int]] = {}

    def __call__(self, key: LineKey) -> tuple[tuple, str, CellRef | None, int]:
        hit = self._cache.get(key)
        if hit is None:
            idx, code_line = key
            if 0 <= idx < len(self.files):
                cf = self.files[idx]
                line = cf.cell_line(code_line)
                label = self.text(cf, code_line) or f"line {line}"
                hit = (("py", cf.ref.key, line), _short(label), cf.ref, line)
            else:
                hit = (("py", None, code_line), f"line {code_line}", None, code_line)
            self._cache[key] = hit
        return hit


def cpu_tree(
    result: Attribution, files: Sequence[CodeFile], text: LineText = source_line
) -> Frame | None:
    """Cell lines and the torch ops under them, from the thread that ran the cell."""
    main = next((t for t in result.threads if t.tid == result.main_tid), None)
    if main is None:
        return None
    lines = _Lines(files, text)
    start, end = result.span
    root = _Agg("cell", "root")
    root.add(start, end - start)
    aggs: list[_Agg | None] = []
    for node in main.nodes:
        parent = aggs[node.parent] if node.parent >= 0 else root
        if parent is None or parent.depth >= MAX_DEPTH or (not node.chain and node.parent < 0):
            aggs.append(None)  # too deep, or outside every cell line (profiler bookkeeping)
            continue
        ev = node.event
        if ev.marker is not None:
            key, name, ref, line = lines(ev.marker)
            agg = parent.child(key, name, "python", ref, line)
        else:
            kind = _host_kind(ev)
            agg = parent.child((kind, ev.name), _short(ev.name), kind, None, None)
        agg.add(ev.start_ns, ev.dur_ns)
        aggs.append(agg)
    return _freeze(root)


def gpu_tree(
    result: Attribution, files: Sequence[CodeFile], text: LineText = source_line
) -> Frame | None:
    """GPU kernels and copies under the cell lines that launched them (by correlation id)."""
    if not result.gpu_chains:
        return None
    lines = _Lines(files, text)
    root = _Agg("GPU", "root")
    for ev, chain, _ in result.gpu_chains:
        root.add(ev.start_ns, ev.dur_ns)
        agg = root
        for key in chain[: MAX_DEPTH - 1]:
            fkey, name, ref, line = lines(key)
            agg = agg.child(fkey, name, "python", ref, line)
            agg.add(ev.start_ns, ev.dur_ns)
        kind = "memcpy" if ev.cat == MEMCPY else "kernel"
        agg.child((kind, ev.name), _short(ev.name), kind, None, None).add(ev.start_ns, ev.dur_ns)
    root.calls = 1
    return _freeze(root)


@dataclass(frozen=True)
class PathFrame:
    """One frame of a sampled call path (outermost first)."""

    name: str
    ref: CellRef | None = None
    line: int | None = None
    kind: str = "python"


def tree_of_paths(name: str, paths: Iterable[tuple[Sequence[PathFrame], int]]) -> Frame | None:
    """A merged tree from call paths, each with its cost in ns (a sampling profiler's stacks)."""
    root = _Agg(name, "root")
    for frames, dur_ns in paths:
        root.add(0, dur_ns)
        agg = root
        for frame in frames[:MAX_DEPTH]:
            key = (frame.kind, frame.ref.key if frame.ref else None, frame.line, frame.name)
            agg = agg.child(key, _short(frame.name), frame.kind, frame.ref, frame.line)
            agg.add(0, dur_ns)
    root.calls = 1
    return _freeze(root) if root.dur_ns else None


def _host_kind(ev: TraceEvent) -> str:
    if ev.cat in RUNTIME and ev.name in SYNC_RUNTIME_CALLS:  # a real wait on the device
        return "sync"
    return "op"


def _freeze(root: _Agg) -> Frame:
    """Keep the MAX_FRAMES most expensive frames (a kept frame's parent is always kept)."""
    kept: set[int] = {id(root)}
    heap: list[tuple[int, int, _Agg]] = []
    counter = 0
    for child in root.children.values():
        heapq.heappush(heap, (-child.dur_ns, counter, child))
        counter += 1
    while heap and len(kept) < MAX_FRAMES:
        _, _, agg = heapq.heappop(heap)
        kept.add(id(agg))
        for child in agg.children.values():
            heapq.heappush(heap, (-child.dur_ns, counter, child))
            counter += 1

    def build(agg: _Agg, start_ns: int) -> Frame:
        # Merged frames have no single start: children are laid end to end inside their
        # parent, in the order they first ran (a flame graph, not a timeline).
        children = []
        cursor = start_ns
        for child in sorted(agg.children.values(), key=lambda c: c.start_ns or 0):
            if id(child) in kept:
                children.append(build(child, cursor))
                cursor += child.dur_ns
        return Frame(
            name=agg.name,
            kind=agg.kind,
            ref=agg.ref,
            line=agg.line,
            start_s=start_ns / 1e9,
            duration_s=agg.dur_ns / 1e9,
            self_s=max(0, agg.dur_ns - (cursor - start_ns)) / 1e9,
            children=tuple(children),
            calls=max(1, agg.calls),
        )

    return build(root, 0)


def _short(name: str) -> str:
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"

