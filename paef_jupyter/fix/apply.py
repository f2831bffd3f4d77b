"""Apply edits to a unit's text: no overlaps, IPython syntax kept, result compiled.

Several findings may edit one site: identical edits are applied once, keyword arguments added
to the same call are merged, anything else that collides is skipped. The combined result is
compiled once; only when that fails are the fixes bisected to find the ones to skip.
"""

from __future__ import annotations

import ast
import bisect
import difflib
import re
from dataclasses import dataclass, field
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
    starts = _line_offsets(masked.text)
    spans = [_span(masked.text, starts, e, 0) for e in edits]
    for a, b in zip(sorted(spans), sorted(spans)[1:]):
        if b.start < a.end or (b.start == a.start and a.end > a.start and b.end > b.start):
            raise FixError("edits overlap")
    new = _splice(masked.text, spans)
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


def chosen(finding: Finding, unsafe: bool = False) -> bool:
    """Whether `finding`'s edits are applied: proved-safe ones always, review ones on request."""
    fix = finding.fix
    return fix is not None and (fix.automatic or (unsafe and fix.needs_review))


def apply_findings(
    text: str, findings: Iterable[Finding], unsafe: bool = False
) -> tuple[str, list[Finding], list[Finding]]:
    """Apply every automatic fix (and, with `unsafe`, every fix that needs review) that does
    not collide with one already taken.

    Returns (new text, applied findings, skipped findings). Fixes are taken in order, so pass
    them ranked: the most valuable fix wins a collision. A finding whose edits another finding
    already makes counts as applied.
    """
    candidates = [f for f in findings if chosen(f, unsafe)]
    if not candidates:
        return text, [], []
    masked = mask(text)
    if not masked.python:
        raise FixError("not a Python cell")
    starts = _line_offsets(masked.text)
    sites = _Sites()
    planned: list[tuple[Finding, list[_Span]]] = []
    skipped: list[Finding] = []
    for order, finding in enumerate(candidates):
        try:
            spans = [_span(masked.text, starts, e, order) for e in finding.fix.edits]  # type: ignore[union-attr]
        except FixError:
            skipped.append(finding)
            continue
        merged = sites.take(spans)
        if merged is None:
            skipped.append(finding)
        else:
            planned.append((finding, merged))
    kept = _compiling(masked.text, [], planned)
    kept_ids = {id(f) for f, _ in kept}
    skipped += [f for f, _ in planned if id(f) not in kept_ids]
    applied = [f for f, _ in kept]
    if not kept:
        return text, [], _in_order(candidates, skipped)
    new = _splice(masked.text, [s for _, spans in kept for s in spans])
    return masked.unmask(new), applied, _in_order(candidates, skipped)


def unified_diff(old: str, new: str, name: str = "cell") -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{name} (before)",
        tofile=f"{name} (after)",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# --- sites: where the taken edits are, and what may join them ---------------------------

_KEYWORD = re.compile(r"^(, )?([A-Za-z_]\w*)=(?!=)")


@dataclass(order=True, frozen=True)
class _Span:
    """An edit as offsets into the masked text; `order` keeps insertions at one point in the
    order their findings were taken."""

    start: int
    end: int
    order: int
    text: str


@dataclass
class _Sites:
    """The edits taken so far: replaced ranges (never overlapping) and insertion points."""

    ranges: list[tuple[int, int]] = field(default_factory=list)  # sorted, disjoint
    points: list[int] = field(default_factory=list)  # sorted insertion offsets
    inserted: dict[int, list[_Span]] = field(default_factory=dict)  # offset -> spans, in order
    replaced: dict[tuple[int, int], _Span] = field(default_factory=dict)

    def take(self, spans: list[_Span]) -> list[_Span] | None:
        """The spans one finding needs (an edit already taken is shared, not repeated; keyword
        insertions into one call are merged), recorded as taken; None, recording nothing,
        when they collide with what is taken or with each other."""
        out = [self._join(span) for span in spans]
        if any(span is None for span in out):
            return None
        own = sorted(s for s in out if s is not None)
        for a, b in zip(own, own[1:]):
            if b.start < a.end or (b.start == a.start and a.end > a.start and b.end > b.start):
                return None
        for span in own:
            self._record(span)
        return own

    def _join(self, span: _Span) -> _Span | None:
        if span.end > span.start:
            same = self.replaced.get((span.start, span.end))
            if same is not None and same.text == span.text:
                return same
            if self._overlaps(span.start, span.end) or self._point_inside(span.start, span.end):
                return None
            return span
        if self._inside_range(span.start):
            return None
        there = self.inserted.get(span.start, [])
        for old in there:
            if old.text == span.text:
                return old
        if not there:
            return span
        if span.text.endswith("\n") and all(t.text.endswith("\n") for t in there):
            return span  # whole statements inserted before one line: each stands alone
        new = _KEYWORD.match(span.text)
        olds = [_KEYWORD.match(t.text) for t in there]
        if new and all(olds) and new.group(2) not in {m.group(2) for m in olds if m}:
            # keyword arguments added to one call by several findings: one argument list
            return _Span(span.start, span.end, span.order, span.text if new.group(1) else ", " + span.text)
        return None  # two different edits at one spot (or one keyword given twice)

    def _overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.ranges, (end, end))
        return i > 0 and self.ranges[i - 1][1] > start

    def _inside_range(self, point: int) -> bool:
        i = bisect.bisect_left(self.ranges, (point, point))
        return i > 0 and self.ranges[i - 1][1] > point

    def _point_inside(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self.points, start)
        return i < len(self.points) and self.points[i] < end

    def _record(self, span: _Span) -> None:
        if span.end > span.start:
            if (span.start, span.end) not in self.replaced:
                bisect.insort(self.ranges, (span.start, span.end))
                self.replaced[(span.start, span.end)] = span
        else:
            there = self.inserted.setdefault(span.start, [])
            if not there:
                bisect.insort(self.points, span.start)
            if span not in there:
                there.append(span)


def _compiling(
    text: str, base: list[tuple[Finding, list[_Span]]], pending: list[tuple[Finding, list[_Span]]]
) -> list[tuple[Finding, list[_Span]]]:
    """The fixes of `pending` to keep on top of `base` (which compiles): all of them when the
    result compiles (one check for the common case), else the halves in turn, so a fix that
    breaks compilation costs a logarithmic number of checks, not one per fix."""
    if not pending:
        return []
    try:
        check_compiles(_splice(text, [s for _, spans in base + pending for s in spans]))
        return pending
    except FixError:
        if len(pending) == 1:
            return []
    half = len(pending) // 2
    first = _compiling(text, base, pending[:half])
    return first + _compiling(text, base + first, pending[half:])


def _in_order(candidates: list[Finding], subset: list[Finding]) -> list[Finding]:
    ids = {id(f) for f in subset}
    return [f for f in candidates if id(f) in ids]


def _span(text: str, starts: list[int], edit: Edit, order: int) -> _Span:
    def offset(line: int, col: int) -> int:
        if not 1 <= line <= len(starts):
            raise FixError(f"edit outside the text (line {line})")
        return min(starts[line - 1] + col, len(text))

    return _Span(offset(*edit.start), offset(*edit.end), order, edit.text)


def _splice(text: str, spans: Sequence[_Span]) -> str:
    """`text` with every span replaced (they do not overlap), in one pass."""
    pieces: list[str] = []
    at = 0
    for span in sorted(set(spans)):  # an edit two findings share is made once
        pieces.append(text[at:span.start])
        pieces.append(span.text)
        at = max(at, span.end)
    pieces.append(text[at:])
    return "".join(pieces)


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            offsets.append(i + 1)
    return offsets
