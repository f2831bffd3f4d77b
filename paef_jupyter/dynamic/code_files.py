"""Which code filenames are notebook cells, and how their line numbers map to the cell's.

The profiler and the line tracer see code filenames (ipykernel's `ipykernel_<pid>/<hash>.py`,
`<ipython-input-N-...>`, or the names `profile_path` compiles cells under); findings speak of
(cell, line). In a kernel, earlier cells are found through the shell's own filename map. A cell's body may be compiled without its `%%paef` line, so the offset is found
by comparing the compiled text (from `linecache`) with the cell's text.
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..model import CellRef

_MAX_OFFSET = 3


@dataclass(frozen=True)
class CodeFile:
    filename: str
    ref: CellRef
    offset: int = 0  # cell line = code line + offset

    def cell_line(self, code_line: int) -> int:
        return code_line + self.offset


Resolver = Callable[[str], "CodeFile | None"]


class CodeFiles:
    """An index of cell files, numbered in the order they are first seen (the marker names)."""

    def __init__(self, resolve: Resolver):
        self._resolve = resolve
        self._index: dict[str, int | None] = {}
        self.files: list[CodeFile] = []

    def index(self, filename: str) -> int | None:
        try:
            return self._index[filename]
        except KeyError:
            pass
        found = self._resolve(filename)
        idx = None
        if found is not None:
            idx = len(self.files)
            self.files.append(found)
        self._index[filename] = idx
        return idx


def line_offset(cell_text: str, code_text: str) -> int:
    """How many lines the cell has above the compiled text (1 when `%%paef` was dropped)."""
    cell = [line.rstrip() for line in cell_text.splitlines()]
    code = [line.rstrip() for line in code_text.splitlines()]
    if not code:
        return 0

    def score(k: int) -> int:
        return sum(1 for a, b in zip(cell[k:], code) if a == b and a)

    return max(range(min(_MAX_OFFSET, len(cell)) + 1), key=lambda k: (score(k), -k))


def cell_resolver(
    cell_text: str,
    ref: CellRef,
    filename_to_ref: Callable[[str], CellRef | None] | None,
    extra: Mapping[str, CellRef] | None = None,
) -> Resolver:
    """Resolve the running cell (by `filename_to_ref`, else by its text), earlier cells, and
    `extra` files (an earlier cell's function whose loop is windowed)."""
    cell_lines = [line.rstrip() for line in cell_text.splitlines()]
    extra = extra or {}

    def resolve(filename: str) -> CodeFile | None:
        if filename in extra:
            return CodeFile(filename, extra[filename])
        mapped = filename_to_ref(filename) if filename_to_ref is not None else None
        if mapped is not None:
            if mapped.key == ref.key:
                return CodeFile(filename, mapped, line_offset(cell_text, "".join(_cached_lines(filename))))
            return CodeFile(filename, mapped, 0)
        # The cell's text is compared only with code no longer than the cell: every frame the
        # cell runs (IPython's, asyncio's, torch's) is resolved, once per run, and a library
        # module that a traceback or an inspection left in linecache has thousands of lines.
        lines = _cached_lines(filename)
        if not lines or len(lines) > len(cell_lines):
            return None
        code_text = "".join(lines)
        if _same_text(cell_lines, code_text):
            return CodeFile(filename, ref, line_offset(cell_text, code_text))
        return None

    return resolve


def _cached_lines(filename: str) -> list[str]:
    """Cell code lives in `linecache.cache` (IPython puts it there); reading other files from
    disk here would cost milliseconds for every library module the cell calls into."""
    entry = linecache.cache.get(filename)
    return entry[2] if entry is not None and len(entry) > 2 and isinstance(entry[2], list) else []


def _same_text(cell_lines: list[str], code_text: str) -> bool:
    code = [line.rstrip() for line in code_text.splitlines()]
    return bool(code) and any(cell_lines[k : k + len(code)] == code for k in range(_MAX_OFFSET + 1))


def earlier_cells(namespace: Mapping[str, Any]) -> Callable[[str], CellRef | None]:
    """Earlier cells of an IPython session, by the shell the namespace itself provides
    (`get_ipython`): its compiler maps each cell's code file to the execution count. No
    IPython import: outside IPython this resolves nothing."""
    getter = namespace.get("get_ipython")
    try:
        counts = getter().compile._filename_map if callable(getter) else {}
    except Exception:  # noqa: BLE001 - not an IPython shell after all
        counts = {}
    if not isinstance(counts, Mapping):
        counts = {}

    def resolve(filename: str) -> CellRef | None:
        count = counts.get(filename)
        return CellRef(path=f"In[{count}]") if isinstance(count, int) else None

    return resolve
