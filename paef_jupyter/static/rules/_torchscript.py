"""Code that `torch.jit` compiles or records instead of Python running it.

Every automatic rewrite is proved for Python's semantics. Code that TorchScript compiles
(`@torch.jit.script`, `torch.jit.script(fn)`, a scripted module's methods, and every function they
call) is statically typed from its annotations and first assignments: a rewrite that changes a
value's type - a `List[float]` that now receives tensors (list-to-tensor), a float total made a
tensor (host-sync), a constant hoisted out to a module global - no longer compiles, and the program
fails where it is scripted (red team 38: `rt38b_jit_scripted_totals`, list-to-tensor's
`errs.append(x.detach())` into `errs: List[float]`). Code that `torch.jit.trace` records runs once:
a `.item()` or `.tolist()` there is baked into the trace as a constant, the tensor op a rewrite puts
in its place is recorded live, so later calls of the traced function compute otherwise.

The proof is a closed world: no automatic edit lands inside a function or class that `torch.jit`
compiles or traces, seen from this unit, its earlier and later cells and the units they reach. A
`torch.jit.script(...)`/`trace(...)` of something other than a function or class named in this
unit (a model instance, a parameter) may compile any class of this unit: then every class counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import libcst as cst

from ...model import Finding
from ..facts import Facts
from ..names import dotted_name
from ._grad_only_code import reached_units

# torch.jit entry points that compile (script) or record (trace) the code handed to them.
_JIT = frozenset({
    "torch.jit.script", "torch.jit._script.script", "torch.jit.script_method", "torch.jit.export",
    "torch.jit.interface", "torch.jit.trace", "torch.jit._trace.trace", "torch.jit.trace_module",
    "torch.jit.script_if_tracing",
})
# The same spelled through a name the unit does not resolve (`jit.script` of `from torch import jit`
# is resolved; `ts.script` of a module handed in is not).
_SUFFIXES = (".jit.script", ".jit.script_method", ".jit.export", ".jit.interface", ".jit.trace",
             ".jit.trace_module", ".jit.script_if_tracing")

def _is_jit(unit: Facts, expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Call):  # `@torch.jit.script(optimize=...)`-like decorator factories
        expr = expr.func
    if not isinstance(expr, (cst.Name, cst.Attribute)):
        return False
    qualified = unit.qualified_name(expr) or ""
    dotted = dotted_name(expr) or ""
    return qualified in _JIT or any(name.endswith(_SUFFIXES) for name in (qualified, dotted))


def _jit_calls(unit: Facts) -> Iterator[cst.Call]:
    for node in unit.walk(unit.module):
        if isinstance(node, cst.Call) and _is_jit(unit, node.func):
            yield node


def _roots(facts: Facts, units: list[Facts]) -> list[tuple[cst.CSTNode, str]]:
    """The functions and classes of `facts` that torch.jit compiles or traces (decorated in this
    unit, or named in a `torch.jit` call of any unit), each with the decorator or call that does it;
    every class of `facts` when some unit hands torch.jit what it cannot name (an instance, a
    parameter)."""
    roots: list[tuple[cst.CSTNode, str]] = []
    for node in facts.walk(facts.module):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            jit = next((d.decorator for d in node.decorators if _is_jit(facts, d.decorator)), None)
            if jit is not None:
                roots.append((node, f"@{_spelled(jit)}"))
    for unit in units:
        for call in _jit_calls(unit):
            what = f"`{_spelled(call.func)}(...)`"
            arg = call.args[0].value if call.args else None
            if isinstance(arg, cst.Call):  # `torch.jit.script(Net())`: the class made there
                arg = arg.func
            name = arg.value if isinstance(arg, cst.Name) else None
            if name is not None and name in facts.functions:
                roots.append((facts.functions[name], what))
            elif name is not None and name in facts.classes:
                roots.append((facts.classes[name], what))
            else:  # an instance, a parameter, an attribute: any class of this unit may be what it holds
                roots.extend((cls, what) for cls in facts.classes.values())
    return roots


def _spelled(expr: cst.BaseExpression) -> str:
    return dotted_name(expr.func if isinstance(expr, cst.Call) else expr) or "torch.jit"


def _compiled(facts: Facts, units: list[Facts]) -> list[tuple[int, int, str]]:
    """The line spans of `facts` that torch.jit compiles or traces, each with what does it: the
    roots and, transitively, the functions of this unit they call (TorchScript compiles callees; a
    trace records them)."""
    spans: list[tuple[int, int, str]] = []
    seen: set[int] = set()
    work = _roots(facts, units)
    while work and len(seen) < 200:
        node, what = work.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        pos = facts.position(node)
        spans.append((pos.start.line, pos.end.line, what))
        for call in facts.calls_in(node):
            work.extend((func, what) for func in facts._callees(call) if facts.owner_of(func) is facts)
    return spans


def _units(facts: Facts) -> list[Facts]:
    units = reached_units(facts)
    return units + [later for later in facts.later if all(later is not u for u in units)]


def jit_review(found: list[Finding], facts: Facts) -> list[Finding]:
    """`found` with every automatic fix that edits code torch.jit compiles or traces left to review."""
    if not any(f.fix is not None and f.fix.automatic for f in found):
        return found
    spans = _compiled(facts, _units(facts))
    if not spans:
        return found
    out = []
    for f in found:
        what = _edited_span(f, spans) if f.fix is not None and f.fix.automatic else None
        if what is None:
            out.append(f)
            continue
        review = (f"this code is compiled or traced by torch.jit ({what}): TorchScript types each value from its "
                  "annotations and first assignment and a trace bakes host reads in as constants, so a rewrite "
                  "that changes a value's type or turns a host read into a tensor op may not compile or may "
                  "compute otherwise")
        out.append(replace(f, fix=replace(f.fix, review=review)))
    return out


def _edited_span(f: Finding, spans: list[tuple[int, int, str]]) -> str | None:
    """What compiles or traces the first span an edit of `f` touches (None: no edit does)."""
    assert f.fix is not None
    for e in f.fix.edits:
        for lo, hi, what in spans:
            if lo <= e.line <= hi or lo <= e.end_line <= hi or e.line <= lo <= e.end_line:
                return what
    return None
