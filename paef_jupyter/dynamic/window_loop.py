"""Which loop's iterations define the profiling window of a cell.

The innermost training loop of the cell; else its first loop, or that loop's innermost one
when the first turns out short (epochs around batches, decided at run time by the tracer).
A cell that only calls a function of an earlier cell (`train(model, loader)`) gets the loop of
that function: the tracer must then know that function's file too, which is returned.

A unit whose loops all sit inside function definitions (none of them a training loop) runs the
loops of the functions its top level calls, not those it merely defines: a script with small
helpers (`head`, `make_label`) that spends its run in `tools.evaluate_map(...)` of its own module
was windowed on a helper's loop, one iteration of a batch of one (truth15, item b). So the top
level's calls (not those inside a loop, comprehension or definition: those callees' loops are
inner loops) are followed first - its own definitions, earlier cells' functions, and functions
of the program's local modules (`import tools` / `from tools import f`, read as `paef scan`
reads them), never installed code. A loop of the top level itself wins over a definition's.

truth16 (item d): a method of an object the namespace holds (`maml.main_loop()`, its class
defined in an earlier cell) is followed like a function; and when no function the top level calls
holds a loop, the calls those functions make once are followed one level more (`main()` ->
`train()`, both the program's), with the same ranking.
"""

from __future__ import annotations

import inspect
import linecache
from types import CodeType, FunctionType, ModuleType
from typing import Any, Callable, Iterator, Mapping

import libcst as cst

from ..model import CellRef, SourceUnit
from ..static.facts import Facts, Loop
from ..static.modules import ModuleImports
from ..static.unit import ParsedUnit, parse_unit
from .line_tracer import LoopTarget


def choose_loop(
    unit: ParsedUnit,
    namespace: Mapping[str, Any] | None = None,
    ref_of: Callable[[str], CellRef | None] | None = None,
    imports: ModuleImports | None = None,
) -> tuple[LoopTarget | None, dict[str, CellRef]]:
    """(the loop to window, extra code files the tracer must follow: filename -> ref).

    Read from the cell's `ParsedUnit`, which its analysis then reuses after the run.
    `ref_of`: the ref of a traced file (a cell's, a local module's) by filename, None for code
    the tracer does not follow; `imports`: the program's local modules as seen from this unit."""
    if unit.module is None:
        return None, {}
    facts = unit.loops
    if any(loop.function is None for loop in facts.loops):
        return _choose(facts, unit.ref, facts.loops), {}  # its own loop: kept as ever
    called = _loop_of_top_level_call(unit, namespace or {}, ref_of, imports)
    if called is not None:
        return called
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
    # A loop of the unit's own top level before one inside a definition (a helper it may call
    # per iteration, or never): the top level's is the one the run goes round.
    first = min(loops, key=lambda l: (l.function is not None, l.depth, l.line))
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


# (facts of its file, its loops, its file's ref, files to follow, its definition if known)
_Callee = tuple[Facts, list[Loop], CellRef, dict[str, CellRef], "cst.FunctionDef | None"]


def _loop_of_top_level_call(
    unit: ParsedUnit, namespace: Mapping[str, Any],
    ref_of: Callable[[str], CellRef | None] | None, imports: ModuleImports | None,
) -> tuple[LoopTarget, dict[str, CellRef]] | None:
    """The loop of the first function the top level calls that holds a training loop, else of
    the first that holds any loop. Not when the unit defines a training loop itself: the
    `main()` called once holds the epoch loop that calls `train_once` (public lstm), and the
    unit's innermost training loop (the batches) stays the choice, as before."""
    if any(l.kind == "train" for l in unit.loops.loops):
        return None
    callees = [c for call in _top_level_calls(unit.module)
               if (c := _callee(call, unit.loops, unit.ref, namespace, ref_of, imports))]
    found = _ranked_choice(callees)
    if found is not None or any(c[1] for c in callees):
        return found
    # No called function holds a loop (`main()` sets up, then calls `train()`): one level more.
    deeper = []
    for facts, _, ref, extra, node in callees:
        if node is None:
            continue
        here = namespace if ref == unit.ref else {}
        for call in _top_level_calls(node.body):
            callee = _callee(call, facts, ref, here, ref_of, imports if ref == unit.ref else None)
            if callee is not None:
                deeper.append((*callee[:3], {**extra, **callee[3]}, callee[4]))
    return _ranked_choice(deeper)


def _ranked_choice(callees: list[_Callee]) -> tuple[LoopTarget, dict[str, CellRef]] | None:
    """The first callee holding a training loop, else the first holding any loop."""
    ranked = [c for c in callees if any(l.kind == "train" for l in c[1])] + callees
    for facts, loops, ref, extra, _ in ranked:
        target = _choose(facts, ref, loops)
        if target is not None:
            return target, extra
    return None


_REPEATED = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.For, cst.While,
             cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _top_level_calls(node: cst.CSTNode) -> Iterator[cst.Call]:
    """Calls the top level makes once each, in textual order (an `if __name__ == ...` block's
    included; a call inside a loop, comprehension or definition is not the top level's)."""
    for child in node.children:
        if isinstance(child, _REPEATED):
            continue
        yield from _top_level_calls(child)
        if isinstance(child, cst.Call):
            yield child


def _callee(
    call: cst.Call, facts: Facts, unit_ref: CellRef, namespace: Mapping[str, Any],
    ref_of: Callable[[str], CellRef | None] | None, imports: ModuleImports | None,
) -> _Callee | None:
    """(facts, the callee's loops, its file's ref, files to follow, its definition) for a call of
    one of the program's functions: this unit's, an earlier cell's, a local module's, or a method
    of an object of the namespace whose class is the program's."""
    func = call.func
    if isinstance(func, cst.Name):
        name = func.value
        node = facts.functions.get(name)
        if node is not None:
            return facts, _loops_in(facts, node), unit_ref, {}, _as_def(node)
        qualified = facts.aliases.get(name)
        obj = namespace.get(name)
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        module = facts.aliases.get(func.value.value)
        qualified = f"{module}.{func.attr.value}" if module else None
        held = namespace.get(func.value.value)
        obj = getattr(held, func.attr.value, None) if isinstance(held, ModuleType) else _method(held, func.attr.value)
    else:
        return None
    if qualified and imports is not None and ref_of is not None:
        found = imports.function(qualified)
        if found is not None and found[0].imports is not None:
            filename = str(found[0].imports.path)
            ref = ref_of(filename)
            if ref is not None:  # a file the tracer follows
                return found[0], _loops_in(found[0], found[1]), ref, {filename: ref}, _as_def(found[1])
    if isinstance(obj, FunctionType):
        return _callee_of_function(obj, ref_of, strict=isinstance(func, cst.Attribute))
    return None


def _method(held: Any, name: str) -> FunctionType | None:
    """The plain function behind `held.name()` when `held` is an instance (read off its class
    without running a property or `__getattr__`); None for anything else."""
    if held is None or isinstance(held, (type, ModuleType)):
        return None
    found = inspect.getattr_static(type(held), name, None)
    return found if isinstance(found, FunctionType) else None


def _as_def(node: Any) -> cst.FunctionDef | None:
    return node if isinstance(node, cst.FunctionDef) else None


def _loops_in(facts: Facts, node: cst.CSTNode) -> list[Loop]:
    span = facts.position(node)
    return [l for l in facts.loops if span.start.line <= l.line <= span.end.line]


def _callee_of_function(
    fn: FunctionType, ref_of: Callable[[str], CellRef | None] | None, strict: bool = False,
) -> _Callee | None:
    """An earlier cell's function (its text in `linecache`), or a local module's (read from its
    file); `strict`: only files `ref_of` knows (an attribute of a module object may be a library's,
    whose text `linecache` may hold too, from a traceback)."""
    code: CodeType = fn.__code__
    ref = ref_of(code.co_filename) if ref_of else None
    entry = linecache.cache.get(code.co_filename)
    if entry is not None and len(entry) >= 3 and (ref is not None or not strict):
        text = "".join(entry[2])
    elif ref is not None:
        try:
            with open(code.co_filename, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            return None
    else:
        return None
    ref = ref or CellRef(path=code.co_filename)
    unit = parse_unit(SourceUnit(ref, text))
    if unit.module is None:
        return None
    first = code.co_firstlineno
    last = max((line for _, _, line in code.co_lines() if line), default=first)
    loops = [l for l in unit.loops.loops if first <= l.line <= last]
    return unit.loops, loops, ref, {code.co_filename: ref}, _def_at(unit.loops, first, last)


def _def_at(facts: Facts, first: int, last: int) -> cst.FunctionDef | None:
    """The definition whose code spans `first`-`last` (`co_firstlineno` is its first decorator's
    line, or its `def`'s): the outermost one starting there."""
    spans = [(facts.position(node).start.line, node) for node in facts.functions.values()
             if isinstance(node, cst.FunctionDef)]
    inside = [(line, node) for line, node in spans if first <= line <= last]
    return min(inside, key=lambda pair: pair[0])[1] if inside else None
