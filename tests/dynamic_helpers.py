"""Shared by the dynamic-analyzer tests: run a cell's text the way a kernel does."""

from __future__ import annotations

import itertools
import linecache
from typing import Any

from paef_jupyter.dynamic.code_files import CodeFile, CodeFiles
from paef_jupyter.dynamic.collector import Collected, collect
from paef_jupyter.dynamic.line_tracer import LoopTarget
from paef_jupyter.model import CellRef

_names = itertools.count()


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
