"""Apply edits to a unit's text: no overlaps, IPython syntax kept, result compiled."""

from __future__ import annotations

import ast
import difflib
from typing import Iterable, Sequence

import libcst as cst

from ..model import Edit, Finding
from ..source import mask


class FixError(Exception):
    """Edits that cannot be applied (they overlap, or the result would not parse)."""


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply `edits` (positions in the masked text, see `source.mask`) and unmask the result."""
    masked = mask(text)
    if not masked.python:
        raise FixError("not a Python cell")
    new = _splice(masked.text, edits)
    check_compiles(new)
    return masked.unmask(new)


def check_compiles(code: str) -> None:
    """Raise `FixError` unless CPython compiles `code`: libcst accepts programs the compiler
    rejects (a repeated keyword argument, `return` outside a function)."""
    try:
        cst.parse_module(code)
        compile(code, "<rewrite>", "exec", dont_inherit=True, flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)  # cells may await
    except cst.ParserSyntaxError as exc:
        raise FixError(f"the rewrite does not parse: {exc.message}") from None
    except (SyntaxError, ValueError) as exc:
        raise FixError(f"the rewrite does not compile: {exc}") from None



def apply_findings(text: str, findings: Iterable[Finding]) -> tuple[str, list[Finding], list[Finding]]:
    """Apply every automatic fix that does not collide with one already taken.

    Returns (new text, applied findings, skipped findings). Fixes are taken in order, so pass
    them ranked: the most valuable fix wins a collision.
    """
    taken: list[Edit] = []
    applied: list[Finding] = []
    skipped: list[Finding] = []
    masked_text = mask(text).text
    for finding in findings:
        if not finding.fixable:
            continue
        candidate = taken + list(finding.fix.edits)  # type: ignore[union-attr]
        try:
            check_compiles(_splice(masked_text, candidate))
        except FixError:
            skipped.append(finding)
            continue
        taken = candidate
        applied.append(finding)
    return (apply_edits(text, taken) if taken else text), applied, skipped


def unified_diff(old: str, new: str, name: str = "cell") -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{name} (before)",
        tofile=f"{name} (after)",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _splice(text: str, edits: Sequence[Edit]) -> str:
    starts = _line_offsets(text)

    def offset(line: int, col: int) -> int:
        if not 1 <= line <= len(starts):
            raise FixError(f"edit outside the text (line {line})")
        return min(starts[line - 1] + col, len(text))

    spans = sorted(
        ((offset(*e.start), offset(*e.end), i, e.text) for i, e in enumerate(edits)),
        key=lambda s: (s[0], s[1], s[2]),
    )
    for (s1, e1, _, _), (s2, e2, _, _) in zip(spans, spans[1:]):
        if s2 < e1 or (s2 == s1 and e1 > s1 and e2 > s2):
            raise FixError("edits overlap")
    out = text
    for start, end, _, new in reversed(spans):
        out = out[:start] + new + out[end:]
    return out


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            offsets.append(i + 1)
    return offsets
