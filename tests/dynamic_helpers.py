"""Shared by the dynamic-analyzer tests: run a cell's text the way a kernel does."""

from __future__ import annotations

import itertools
import linecache
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from paef_jupyter.dynamic.code_files import CodeFile, CodeFiles
from paef_jupyter.dynamic.collector import Collected, collect
from paef_jupyter.dynamic.line_tracer import LoopTarget
from paef_jupyter.api import profile_path
from paef_jupyter.model import CellRef, Report

_names = itertools.count()

# A helper's own Python work called from a loop: with `ARG` loop-variant ("40000 + step") only
# the profile can find it, and only by its share of the time; loop-invariant ("40000"), the
# static finding on the call holds it.
HELPER_WORK = """import torch
x = torch.randn(64, 16)
w = torch.randn(16, 4)


def make_table(n):
    return sorted(map(str, range(n)))


for step in range(12):
    table = make_table(ARG)
    y = x @ w
"""


def compile_cell(text: str) -> tuple[str, Any]:
    """Compile like ipykernel: a file name of its own, the text in linecache."""
    name = f"/tmp/ipykernel_0/paef_test_{next(_names)}.py"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    return name, compile(text, name, "exec")


class Cells:
    """Some cells compiled under their own names, run in one namespace."""

    def __init__(self) -> None:
        self.namespace: dict = {}
        self.by_name: dict[str, CellRef] = {}

    def add(self, text: str, ref: CellRef) -> Any:
        name, code = compile_cell(text)
        self.by_name[name] = ref
        return code

    def files(self) -> CodeFiles:
        return CodeFiles(lambda name: CodeFile(name, self.by_name[name]) if name in self.by_name else None)

    def run(self, code: Any, loop: LoopTarget | None, **kw: Any) -> Collected:
        return collect(lambda: exec(code, self.namespace), self.files(), loop, **kw)


def item_reads(profile: Any, ref: CellRef, line: int) -> int:
    """`.item()` calls (`aten::_local_scalar_dense`) under a cell line, read from the call tree
    (on a CPU they are no device syncs, so `LineStat.syncs` does not count them)."""
    total = 0

    def visit(frame: Any, inside: bool) -> None:
        nonlocal total
        here = inside or (frame.kind == "python" and frame.ref == ref and frame.line == line)
        if here and frame.name == "aten::_local_scalar_dense":
            total += frame.calls
        for child in frame.children:
            visit(child, here)

    if profile.cpu_tree is not None:
        visit(profile.cpu_tree, False)
    return total


def comparable_events(trace: Any) -> list[tuple[Any, ...]]:
    """Events as the analyses read them; start times from the trace's first event."""
    first = min(e.start_ns for e in trace.events)
    return sorted((e.name, e.cat, e.tid, e.pid, e.start_ns - first, e.dur_ns, dict(e.args)) for e in trace.events)


def without_span(trace: Any) -> Any:
    """The Chrome export adds one span of the whole trace (category "Trace"), which nothing reads."""
    assert sum(e.cat == "Trace" for e in trace.events) == 1
    return type(trace)(tuple(e for e in trace.events if e.cat != "Trace"), trace.main_tid)


def profile_window(tmp_path: Path, text: str) -> Report:
    """`paef profile` of a program written to `tmp_path`, which must window its loop."""
    path = tmp_path / "prog.py"
    path.write_text(text)
    report = profile_path(str(path))
    assert not report.errors and report.profile is not None and report.profile.mode == "window"
    return report


@contextmanager
def run_from(folder: Path) -> Iterator[None]:
    """`paef profile main.py` typed in the program's folder: its modules are named as the user
    names them (relative paths), as in the report."""
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(cwd)
