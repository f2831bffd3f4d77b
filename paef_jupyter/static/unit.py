"""One unit (a cell or a file) read once: masked, syntax-checked and parsed a single time.

The analysis, the profiler's window choice (before the cell runs) and the fixer all read the
same `ParsedUnit`, so a `%%paef` cell is masked, `ast`-checked and libcst-parsed once, and its
positions (libcst's slowest metadata: a code generation pass) are resolved once.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass, replace
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
    # The module was parsed from `masked.text` with tabs in its indentation expanded (see
    # `retabbed`): lines are the source's, columns on those lines are not, so no edit is offered.
    retabbed: bool = False

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
        expanded = retabbed(masked.text)
        if expanded is not None:
            try:
                module = with_assignments(cst.parse_module(expanded), expanded)
            except (cst.ParserSyntaxError, RecursionError):
                pass
            else:
                return ParsedUnit(unit, replace(masked, text=expanded), module, retabbed=True)
        return ParsedUnit(unit, masked, error=AnalysisError(unit.ref, exc.raw_line, f"SyntaxError: {exc.message}"))
    except RecursionError:
        return ParsedUnit(unit, masked, error=too_deep(unit.ref))
    return ParsedUnit(unit, masked, module)


def retabbed(text: str) -> str | None:
    """`text` with the tabs of each line's indentation expanded as CPython reads them (to the
    next multiple of 8), or None when no indentation holds a tab or CPython's tokenizer fails.

    CPython accepts a block indented by a tab and spaces (`\t   return x` under four-space
    code) when the two readings of tabs agree; libcst's tokenizer rejects some of them ("no
    matching outer block for dedent"), which left a whole training script unanalysed. Lines
    inside a multi-line string keep their text (expanding there would change a value)."""
    lines = text.splitlines(keepends=True)
    if not any(line[: len(line) - len(line.lstrip(" \t"))].count("\t") for line in lines):
        return None
    inside: set[int] = set()  # 0-based lines that start inside a string token
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                inside.update(range(tok.start[0], tok.end[0]))  # rows start+1..end, 0-based
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    out = []
    for i, line in enumerate(lines):
        body = line.lstrip(" \t")
        indent = line[: len(line) - len(body)]
        out.append(line if i in inside or "\t" not in indent else indent.expandtabs(8) + body)
    expanded = "".join(out)
    return expanded if expanded != text else None


def too_deep(ref: CellRef) -> AnalysisError:
    """CPython runs expressions deeper than the recursive walks here can follow."""
    return AnalysisError(ref, None, "expression nested too deeply to analyse (RecursionError)")
