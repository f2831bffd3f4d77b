"""Which loop's iterations define the profiling window of a cell.

The innermost training loop of the cell; else its first loop, or that loop's innermost one
when the first turns out short (epochs around batches, decided at run time by the tracer).
A cell that only calls a function of an earlier cell (`train(model, loader)`) gets the loop of
that function: the tracer must then know that function's file too, which is returned.
"""

from __future__ import annotations

import ast
import linecache
from types import CodeType, FunctionType
from typing import Any, Callable, Mapping

from ..model import CellRef
from ..source import mask
from ..static.facts import LoopSpan, loop_spans
from .line_tracer import LoopTarget
from .loop_length import loop_iterable


def choose_loop(
    text: str,
    ref: CellRef,
    namespace: Mapping[str, Any] | None = None,
    ref_of: Callable[[str], CellRef | None] | None = None,
    spans: list[LoopSpan] | None = None,
) -> tuple[LoopTarget | None, dict[str, CellRef]]:
    """(the loop to window, extra code files the tracer must follow: filename -> ref).

    `spans`: the cell's loops as its static analysis found them (else it is parsed here)."""
    masked = mask(text)
    if not masked.python:
        return None, {}
    target = _choose(masked.text, ref, loop_spans(masked.text) if spans is None else spans)
    if target is not None or not namespace:
        return target, {}
    for fn in _called_functions(masked.text, namespace):
        found = _loop_of_function(fn, ref_of)
        if found is not None:
            return found
    return None, {}


def _choose(masked_text: str, ref: CellRef, spans: list[LoopSpan]) -> LoopTarget | None:
    def target(span: LoopSpan, inner: LoopTarget | None = None) -> LoopTarget:
        iterable = loop_iterable(masked_text, span.line)
        return LoopTarget(ref, span.line, span.end_line, iterable, span.depth > 0, inner)

    train = [s for s in spans if s.kind == "train"]
    if train:
        return target(max(train, key=lambda s: (s.depth, -s.line)))
    if not spans:
        return None
    first = min(spans, key=lambda s: (s.depth, s.line))
    nest = [s for s in spans if first.line < s.line <= first.end_line]
    innermost = max(nest, key=lambda s: (s.depth, -s.line)) if nest else None
    return target(first, target(innermost) if innermost else None)


def _called_functions(masked_text: str, namespace: Mapping[str, Any]) -> list[FunctionType]:
    """Plain functions of the namespace that the cell calls by name, in call order."""
    try:
        tree = ast.parse(masked_text)
    except (SyntaxError, ValueError):
        return []
    calls = sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    out: list[FunctionType] = []
    for call in calls:
        fn = namespace.get(call.func.id)  # type: ignore[attr-defined]
        if isinstance(fn, FunctionType) and fn not in out:
            out.append(fn)
    return out


def _loop_of_function(
    fn: FunctionType, ref_of: Callable[[str], CellRef | None] | None
) -> tuple[LoopTarget, dict[str, CellRef]] | None:
    code: CodeType = fn.__code__
    entry = linecache.cache.get(code.co_filename)
    if entry is None or len(entry) < 3:
        return None  # not cell code (a library function): not ours to window
    first = code.co_firstlineno
    last = max((line for _, _, line in code.co_lines() if line), default=first)
    masked = mask("".join(entry[2]))
    if not masked.python:
        return None
    spans = [s for s in loop_spans(masked.text) if first <= s.line <= last]
    ref = (ref_of(code.co_filename) if ref_of else None) or CellRef(path=code.co_filename)
    target = _choose(masked.text, ref, spans)
    return (target, {code.co_filename: ref}) if target is not None else None
