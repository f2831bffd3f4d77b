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

Graph capture is the same closed world (red team 40: `rt40_of_fx_fake_quant_pass`,
`rt40_nb_compile_export_function`). `torch.fx.symbolic_trace`, `torch.export.export`,
`torch.onnx.export` and `torch._dynamo.export` record the code handed to them as a graph of ops, and
`torch.compile` with a backend of the program's own hands that graph to the program. The graph is
then the program's product: an FX pass that matches nodes by target (fake-quantizing after every
`F.leaky_relu`) computes otherwise once a hand-written `torch.where` became `F.leaky_relu`, and an
exported program's op list changes when `torch.arange(n).to(d)` becomes `torch.arange(n, device=d)`.
Python's semantics, which each rule proves, say nothing about the captured graph, so an automatic
edit there is left to review. `torch.compile` with a named backend keeps Python's semantics and stays
automatic.
"""

from __future__ import annotations

import weakref
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
# Entry points that capture the code handed to them as a graph of ops the program then holds.
# FX graph-mode quantization traces the model and matches its ops by target; `torch.fx.GraphModule`
# is how a graph traced by a `Tracer` of the program's own is made into a module.
_CAPTURE = frozenset({
    "torch.fx.symbolic_trace", "torch.fx._symbolic_trace.symbolic_trace", "torch.export.export",
    "torch.export.export_for_training", "torch._dynamo.export", "torch.onnx.export", "torch.onnx.dynamo_export",
    "torch.fx.GraphModule", "torch.fx.graph_module.GraphModule",
    "torch.ao.quantization.quantize_fx.prepare_fx", "torch.ao.quantization.quantize_fx.prepare_qat_fx",
    "torch.quantization.quantize_fx.prepare_fx", "torch.quantization.quantize_fx.prepare_qat_fx",
})
_CAPTURE_SUFFIXES = (".fx.symbolic_trace", ".export.export", ".export.export_for_training", "._dynamo.export",
                     ".onnx.export", ".onnx.dynamo_export", ".fx.GraphModule", ".quantize_fx.prepare_fx",
                     ".quantize_fx.prepare_qat_fx")
# `torch.compile(fn, backend=b)` and `torch._dynamo.optimize(b)`: with `b` the program's own callable.
_COMPILE = frozenset({"torch.compile", "torch._dynamo.optimize"})


def _kind(unit: Facts, expr: cst.BaseExpression) -> str | None:
    """"jit" where `expr` (a decorator or a call) compiles or traces with torch.jit, "capture" where it
    captures a graph the program holds (fx, export, onnx, `torch.compile` with the program's own
    backend), else None."""
    call = expr if isinstance(expr, cst.Call) else None
    if call is not None:  # `@torch.jit.script(optimize=...)`-like decorator factories
        expr = call.func
    if not isinstance(expr, (cst.Name, cst.Attribute)):
        return None
    qualified = unit.qualified_name(expr) or ""
    dotted = dotted_name(expr) or ""
    if qualified in _JIT or any(name.endswith(_SUFFIXES) for name in (qualified, dotted)):
        return "jit"
    if qualified in _CAPTURE or any(name.endswith(_CAPTURE_SUFFIXES) for name in (qualified, dotted)):
        return "capture"
    if call is not None and (qualified in _COMPILE or dotted in _COMPILE) and _own_backend(call, qualified or dotted):
        return "capture"
    return None


def _is_optimize(unit: Facts, call: cst.Call) -> bool:
    """`call` is `torch._dynamo.optimize(...)`, whose own argument is a backend, not captured code."""
    name = unit.qualified_name(call.func) or dotted_name(call.func) or ""
    return name == "torch._dynamo.optimize"


def _own_backend(call: cst.Call, name: str) -> bool:
    """`torch.compile(..., backend=b)` / `torch._dynamo.optimize(b)` with `b` not a string: a callable
    that receives the FX graph."""
    backend = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "backend"), None)
    if backend is None and name.endswith("optimize") and call.args and call.args[0].keyword is None:
        backend = call.args[0].value
    return backend is not None and not isinstance(backend, (cst.SimpleString, cst.ConcatenatedString,
                                                            cst.FormattedString))


_SITES: "weakref.WeakKeyDictionary[Facts, _Sites]" = weakref.WeakKeyDictionary()


class _Sites:
    """One walk of a unit: its torch.jit-decorated functions and classes and its torch.jit calls."""

    def __init__(self, unit: Facts) -> None:
        self.decorated: list[tuple[cst.CSTNode, str, str]] = []
        self.calls: list[tuple[cst.Call, str]] = []
        for node in unit.walk(unit.module):
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.decorators:
                for d in node.decorators:
                    kind = _kind(unit, d.decorator)
                    if kind is not None:
                        self.decorated.append((node, f"@{_spelled(d.decorator)}", kind))
                        break
            elif isinstance(node, cst.Call):
                if isinstance(node.func, cst.Call) and _is_optimize(unit, node.func):
                    kind = _kind(unit, node.func)  # `torch._dynamo.optimize(b)(fn)`: `fn` is what it captures
                else:
                    kind = None if _is_optimize(unit, node) else _kind(unit, node)  # its argument: a backend
                if kind is not None:
                    self.calls.append((node, kind))


def _sites(unit: Facts) -> _Sites:
    found = _SITES.get(unit)
    if found is None:
        found = _SITES[unit] = _Sites(unit)
    return found


Root = tuple[Facts, cst.CSTNode, str, str]


def _roots(units: list[Facts]) -> list[Root]:
    """The functions and classes of `units` that torch.jit compiles or traces, each with its owner
    and the decorator or call that does it: decorated ones, and those a `torch.jit` call of any unit
    names (by name: a function or class of whichever unit defines it); every class of every unit
    when such a call hands over what it cannot name (an instance, a parameter)."""
    roots: list[Root] = [(unit, node, what, kind) for unit in units for node, what, kind in _sites(unit).decorated]
    for unit in units:
        for call, kind in _sites(unit).calls:
            what = f"`{_spelled(call.func)}(...)`"
            arg = call.args[0].value if call.args else None
            if isinstance(arg, cst.Call):  # `torch.jit.script(Net())`: the class made there
                arg = arg.func
            name = arg.value if isinstance(arg, cst.Name) else None
            named: list[Root] = []
            if name is not None:
                named = [(u, u.functions[name], what, kind) for u in units if name in u.functions]
                named += [(u, u.classes[name], what, kind) for u in units if name in u.classes]
            # an instance, a parameter, an attribute: any class may be what it holds
            roots += named or [(u, cls, what, kind) for u in units for cls in u.classes.values()]
    return roots


def _spelled(expr: cst.BaseExpression) -> str:
    return dotted_name(expr.func if isinstance(expr, cst.Call) else expr) or "torch.jit"


Span = tuple[int, int, str, str]


def _compiled(facts: Facts, units: list[Facts]) -> list[Span]:
    """The line spans of `facts` that torch.jit compiles or traces, each with what does it: the
    roots and, transitively, the functions they call wherever those are defined (TorchScript
    compiles callees; a trace records them): a later cell's scripted function calling this cell's
    helper compiles the helper."""
    spans: list[Span] = []
    seen: set[tuple[int, str]] = set()
    work = _roots(units)
    while work and len(seen) < 500:
        owner, node, what, kind = work.pop()
        if (id(node), kind) in seen:
            continue
        seen.add((id(node), kind))
        if owner is facts:
            pos = facts.position(node)
            spans.append((pos.start.line, pos.end.line, what, kind))
        for call in owner.calls_in(node):
            work.extend((owner.owner_of(func), func, what, kind) for func in owner._callees(call))
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
        hit = _edited_span(f, spans) if f.fix is not None and f.fix.automatic else None
        if hit is None:
            out.append(f)
            continue
        what, kind = hit
        if kind == "jit":
            review = (f"this code is compiled or traced by torch.jit ({what}): TorchScript types each value from "
                      "its annotations and first assignment and a trace bakes host reads in as constants, so a "
                      "rewrite that changes a value's type or turns a host read into a tensor op may not compile "
                      "or may compute otherwise")
        else:
            review = (f"this code is captured as a graph ({what}): the graph records each op by its target and "
                      "the program holds it (an FX pass matching nodes, an exported or ONNX program, a compile "
                      "backend of its own), so a rewrite changes the graph it gets and what it does with it")
        out.append(replace(f, fix=replace(f.fix, review=review)))
    return out


def _edited_span(f: Finding, spans: list[Span]) -> tuple[str, str] | None:
    """What compiles, traces or captures the first span an edit of `f` touches, and how (None: no edit
    does)."""
    assert f.fix is not None
    for e in f.fix.edits:
        for lo, hi, what, kind in spans:
            if lo <= e.line <= hi or lo <= e.end_line <= hi or e.line <= lo <= e.end_line:
                return what, kind
    return None
