"""Which loop's iterations define the profiling window of a cell.

The innermost training loop of the cell; else its first loop, or that loop's innermost one
when the first turns out short (epochs around batches, decided at run time by the tracer).
A cell that only calls a function of an earlier cell (`train(model, loader)`) gets the loop of
that function: the tracer must then know that function's file too, which is returned.
"""

from __future__ import annotations

import linecache
from types import CodeType, FunctionType
from typing import Any, Callable, Mapping

import libcst as cst

from ..model import CellRef, SourceUnit
from ..static.facts import Facts, Loop
from ..static.unit import ParsedUnit, parse_unit
from .line_tracer import LoopTarget


def choose_loop(
    unit: ParsedUnit,
    namespace: Mapping[str, Any] | None = None,
    ref_of: Callable[[str], CellRef | None] | None = None,
) -> tuple[LoopTarget | None, dict[str, CellRef]]:
    """(the loop to window, extra code files the tracer must follow: filename -> ref).

    Read from the cell's `ParsedUnit`, which its analysis then reuses after the run."""
    if unit.module is None:
        return None, {}
    facts = unit.loops
    target = _choose(facts, unit.ref, facts.loops)
    if target is not None or not namespace:
        return target, {}
    for fn in _called_functions(facts, namespace):
        found = _loop_of_function(fn, ref_of)
        if found is not None:
            return found
    return None, {}


def _choose(facts: Facts, ref: CellRef, loops: list[Loop]) -> LoopTarget | None:
    def target(loop: Loop, inner: LoopTarget | None = None) -> LoopTarget:
        # The iterable's source, read by the tracer for the loop's length (`loop_length`).
        iterable = facts.code(loop.node.iter) if isinstance(loop.node, cst.For) else ""
        return LoopTarget(ref, loop.line, loop.end_line, iterable, loop.depth > 0, inner)

    train = [l for l in loops if l.kind == "train"]
    if train:
        return target(max(train, key=lambda l: (l.depth, -l.line)))
    if not loops:
        return None
    first = min(loops, key=lambda l: (l.depth, l.line))
    nest = [l for l in loops if first.line < l.line <= first.end_line]
    innermost = max(nest, key=lambda l: (l.depth, -l.line)) if nest else None
    return target(first, target(innermost) if innermost else None)


def _called_functions(facts: Facts, namespace: Mapping[str, Any]) -> list[FunctionType]:
    """Plain functions of the namespace that the cell calls by name, in call order."""
    out: list[FunctionType] = []
    for call in facts.calls_in(facts.module):  # pre-order: textual order
        fn = namespace.get(call.func.value) if isinstance(call.func, cst.Name) else None
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
    ref = (ref_of(code.co_filename) if ref_of else None) or CellRef(path=code.co_filename)
    unit = parse_unit(SourceUnit(ref, "".join(entry[2])))
    if unit.module is None:
        return None
    loops = [l for l in unit.loops.loops if first <= l.line <= last]
    target = _choose(unit.loops, ref, loops)
    return (target, {code.co_filename: ref}) if target is not None else None
