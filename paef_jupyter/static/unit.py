"""One unit (a cell or a file) read once: masked, syntax-checked and parsed a single time.

The analysis, the profiler's window choice (before the cell runs) and the fixer all read the
same `ParsedUnit`, so a `%%paef` cell is masked, `ast`-checked and libcst-parsed once, and its
positions (libcst's slowest metadata: a code generation pass) are resolved once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Mapping

import libcst as cst
from libcst.metadata import CodeRange

from ..model import AnalysisError, CellRef, SourceUnit
from ..source import MaskedSource, mask, syntax_error
from .annotated import with_assignments
from .facts import Facts
from .positions import Positions


@dataclass(frozen=True, eq=False)
class ParsedUnit:
    unit: SourceUnit
    masked: MaskedSource
    module: cst.Module | None = None  # None: nothing to analyse (not Python, empty, or `error`)
    error: AnalysisError | None = None

    @property
    def ref(self) -> CellRef:
        return self.unit.ref

    @cached_property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        assert self.module is not None
        return Positions(self.module)

    @cached_property
    def loops(self) -> Facts:
        """The unit's loops as the window choice reads them: facts of the unit alone (no
        namespace, no earlier cells), read before the cell runs. Sharing the CST with the
        analysis's own `Facts` is safe: facts key everything by node, per `Facts`."""
        assert self.module is not None
        return Facts(self.module, positions=lambda: self.positions, text=self.masked.text, magics=self.masked.originals)


def parse_unit(unit: SourceUnit) -> ParsedUnit:
    masked = mask(unit.text)
    if not masked.python or not masked.text.strip():
        return ParsedUnit(unit, masked)
    problem = None if masked.parses else syntax_error(masked.text)
    if problem is not None:
        return ParsedUnit(unit, masked, error=AnalysisError(unit.ref, problem[0], problem[1]))
    try:
        module = with_assignments(cst.parse_module(masked.text), masked.text)
    except cst.ParserSyntaxError as exc:
        return ParsedUnit(unit, masked, error=AnalysisError(unit.ref, exc.raw_line, f"SyntaxError: {exc.message}"))
    except RecursionError:
        return ParsedUnit(unit, masked, error=too_deep(unit.ref))
    return ParsedUnit(unit, masked, module)


def too_deep(ref: CellRef) -> AnalysisError:
    """CPython runs expressions deeper than the recursive walks here can follow."""
    return AnalysisError(ref, None, "expression nested too deeply to analyse (RecursionError)")
