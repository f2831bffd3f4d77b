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

truth17: the loop that runs per batch, at any depth up to `_MAX_CALL_DEPTH`. Public FixMatch:
`main()` -> `trainer.fit()` (an instance of the program's class held in a local variable) ->
`self.train_epoch()`, whose loop goes round the batches. Methods are resolved statically: a
name bound to a call of one of the program's classes (`trainer = FixMatchTrainer(...)`, its
class in this unit, an earlier cell or a local module) and `self.m()` inside a method (its class,
then its bases). Levels of once-made calls are searched until one holds a training loop (a plain
loop of a shallower level is kept only when no level holds one: a file-listing loop in `main()`
is not the run's loop). And a chosen loop that does not train in its own body (an epoch loop
calling `self.train_epoch()`) gives way to the training loop of a program function it calls: an
epoch is too long an iteration to window; a loop that back-propagates or steps in its own body
(MAML's meta loop calling `self.inner_loop()`) is the per-batch loop and is kept.
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
from ..static.names import names_read, names_written
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
    # Its own training loop, with the per-batch loop of what it calls as `inner` when it does not
    # train in its own body (an epoch loop calling `self._epoch()`).
    own = _per_batch((facts, facts.loops, unit.ref, {}, None), namespace or {}, ref_of, imports, unit.ref)
    if any(loop.function is None for loop in facts.loops):
        return own or (_choose(facts, unit.ref, facts.loops), {})  # its own loop: kept as ever
    called = _loop_of_top_level_call(unit, namespace or {}, ref_of, imports)
    if called is not None:
        return called
    if own is not None:
        return own
    target = _choose(facts, unit.ref, facts.loops)
    if target is not None or not namespace:
        return target, {}
    for fn in _called_functions(facts, namespace):
        found = _loop_of_function(fn, ref_of)
        if found is not None:
            return found
    return None, {}


def _choose(facts: Facts, ref: CellRef, loops: list[Loop]) -> LoopTarget | None:
    picked = _pick(loops)
    if picked is None:
        return None
    loop, innermost = picked
    return _target(facts, ref, loop, _target(facts, ref, innermost) if innermost else None)


def _target(facts: Facts, ref: CellRef, loop: Loop, inner: LoopTarget | None = None) -> LoopTarget:
    # The iterable's source, read by the tracer for the loop's length (`loop_length`).
    iterable = facts.code(loop.node.iter) if isinstance(loop.node, cst.For) else ""
    return LoopTarget(ref, loop.line, loop.end_line, iterable, loop.depth > 0, inner, _body_last(facts, loop))


def _body_last(facts: Facts, loop: Loop) -> int:
    """First line of the loop body's last top-level statement: an iteration that did not reach it
    left early (the tracer puts the window off past such iterations). 0 for a one-line body."""
    body = loop.node.body
    if not isinstance(body, cst.IndentedBlock) or not body.body:
        return 0
    return facts.position(body.body[-1]).start.line


def _pick(loops: list[Loop]) -> tuple[Loop, Loop | None] | None:
    """(the loop `_choose` windows, the inner one it falls back to when the first is short)."""
    train = [l for l in loops if l.kind == "train"]
    if train:
        chosen = max(train, key=lambda l: (l.depth, -l.line))
        outer = _producing_loop(chosen, loops)
        return (outer, chosen) if outer is not None else (chosen, None)
    if not loops:
        return None
    # A loop of the unit's own top level before one inside a definition (a helper it may call
    # per iteration, or never): the top level's is the one the run goes round.
    first = min(loops, key=lambda l: (l.function is not None, l.depth, l.line))
    nest = [l for l in loops if first.line < l.line <= first.end_line]
    return first, (max(nest, key=lambda l: (l.depth, -l.line)) if nest else None)


def _producing_loop(train: Loop, loops: list[Loop]) -> Loop | None:
    """The loop around `train` whose iteration makes the data `train` learns from: an ancestor
    holding another loop (not on `train`'s chain) that writes a name `train` reads without binding
    it. PPO (cleanrl): the update loop's rollout loop fills `obs_buf[step]`, its GAE loop
    `advantages[t]`, and the minibatch loop two levels down reads them; the innermost training
    loop's iterations leave the rollout and GAE - the run's other costs - out of the window. The
    ancestor is the window then, the training loop its `inner` (when the updates are few). An
    epoch loop around batches from a loader made outside it, or with a validation loop beside,
    makes nothing the batch loop reads: the batch loop stays."""
    reads = names_read(train.node) - names_written(train.node)
    chain = _ancestors(train)
    for outer in chain:
        siblings = [l for l in loops if l is not train and outer in _ancestors(l)
                    and l not in chain and train not in _ancestors(l)]
        if any(reads & names_written(l.node) for l in siblings):
            return outer
    return None


def _ancestors(loop: Loop) -> list[Loop]:
    out, parent = [], loop.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def _trains_itself(loop: Loop) -> bool:
    """Back-propagates or steps an optimizer in its own body (not only through a call)."""
    return "backward" in loop.methods or {"step", "zero_grad"} <= loop.methods


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


_MAX_CALL_DEPTH = 4  # main() -> trainer.fit() -> self.train_epoch() -> self._step(batch)


def _loop_of_top_level_call(
    unit: ParsedUnit, namespace: Mapping[str, Any],
    ref_of: Callable[[str], CellRef | None] | None, imports: ModuleImports | None,
) -> tuple[LoopTarget, dict[str, CellRef]] | None:
    """The per-batch loop of the first function the top level calls that holds a training loop,
    searched level by level through calls made once (up to `_MAX_CALL_DEPTH`); else the loop of
    the first function of the shallowest level that holds any. Not when the unit defines a
    training loop itself: the `main()` called once holds the epoch loop that calls `train_once`
    (public lstm), and the unit's innermost training loop (the batches) stays the choice."""
    if any(l.kind == "train" for l in unit.loops.loops):
        return None
    level = [c for call in _top_level_calls(unit.module)
             if (c := _callee(call, unit.loops, unit.ref, namespace, ref_of, imports))]
    fallback = None
    seen: set[int] = set()
    for _ in range(_MAX_CALL_DEPTH):
        ranked = [c for c in level if any(l.kind == "train" for l in c[1])] + level
        for callee in ranked:
            found = _per_batch(callee, namespace, ref_of, imports, unit.ref)
            if found is not None:
                return found
            if fallback is None and callee[1]:
                fallback = _ranked_choice([callee])  # a plain loop: kept unless a deeper level trains
        seen.update(id(c[4]) for c in level if c[4] is not None)
        level = [deeper for c in level if c[4] is not None
                 for deeper in _calls_made_once(c, namespace, ref_of, imports, unit.ref)
                 if deeper[4] is None or id(deeper[4]) not in seen]
        if not level:
            break
    return fallback


def _calls_made_once(
    callee: _Callee, namespace: Mapping[str, Any], ref_of: Callable[[str], CellRef | None] | None,
    imports: ModuleImports | None, unit_ref: CellRef,
) -> list[_Callee]:
    """The program's functions a callee's body calls once each (its extra files carried on)."""
    facts, _, ref, extra, node = callee
    if node is None:
        return []
    here, own_imports = _scope(facts, ref, unit_ref, namespace, imports)
    out = []
    for call in _top_level_calls(node.body):
        found = _callee(call, facts, ref, here, ref_of, own_imports)
        if found is not None:
            out.append((*found[:3], {**extra, **found[3]}, found[4]))
    return out


def _scope(facts: Facts, ref: CellRef, unit_ref: CellRef, namespace: Mapping[str, Any],
           imports: ModuleImports | None) -> tuple[Mapping[str, Any], ModuleImports | None]:
    """The namespace and imports a callee's calls resolve in: the unit's for its own code, a
    local module's own imports for that module's code (relative imports start there)."""
    if ref == unit_ref:
        return namespace, imports
    return {}, facts.imports


def _per_batch(
    callee: _Callee, namespace: Mapping[str, Any], ref_of: Callable[[str], CellRef | None] | None,
    imports: ModuleImports | None, unit_ref: CellRef, depth: int = 0,
) -> tuple[LoopTarget, dict[str, CellRef]] | None:
    """The loop a callee's iterations should be windowed on, when it holds a training loop on
    some path: its chosen loop when that loop trains in its own body. When it does not (an epoch
    loop calling `self.train_epoch()`), that loop with the per-batch loop of a program function
    its body calls as its `inner`: the tracer windows the inner one when the outer turns out
    short (`SHORT_LOOP`: epochs), and keeps the outer when it is long - a PPO update loop whose
    rollout is in its own body and whose `agent.update()` loops over minibatches is the one the
    run goes round. None when no training loop is reached (the caller keeps a plain loop as a
    fallback only)."""
    facts, loops, ref, extra, _ = callee
    picked = _pick(loops)
    if picked is None:
        return None
    loop, innermost = picked
    if not _trains_itself(loop) and depth < _MAX_CALL_DEPTH:
        here, own_imports = _scope(facts, ref, unit_ref, namespace, imports)
        for call in facts.calls_in(loop.node):
            inner = _callee(call, facts, ref, here, ref_of, own_imports)
            if inner is None or inner[4] is callee[4] or not any(l.kind == "train" for l in inner[1]):
                continue
            found = _per_batch(inner, namespace, ref_of, imports, unit_ref, depth + 1)
            if found is not None:
                return _target(facts, ref, loop, found[0]), {**extra, **found[1]}
    if loop.kind != "train":
        return None
    return _target(facts, ref, loop, _target(facts, ref, innermost) if innermost else None), extra


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
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and not isinstance(held, ModuleType):
        return _method_callee(call, func, facts, unit_ref, namespace, ref_of, imports)
    return None


def _method_callee(
    call: cst.Call, func: cst.Attribute, facts: Facts, unit_ref: CellRef, namespace: Mapping[str, Any],
    ref_of: Callable[[str], CellRef | None] | None, imports: ModuleImports | None,
) -> _Callee | None:
    """`self.m()` in a method (its class's `m`, else a base's), or `obj.m()` where `obj` is bound
    to a call of one of the program's classes (`trainer = FixMatchTrainer(...)`: this unit's, a
    local module's, or an earlier cell's, whose class object the namespace holds). Read off the
    source: nothing is run, and a name bound twice or to anything else resolves to nothing."""
    receiver, name = func.value, func.attr.value
    assert isinstance(receiver, cst.Name)
    if receiver.value == "self":
        cls = facts.enclosing_class(call)
        found = (facts, cls) if cls is not None else None
    else:
        made = facts.construction_of(receiver)
        if made is None or not isinstance(made.func, (cst.Name, cst.Attribute)):
            return None
        own = facts.classes.get(made.func.value) if isinstance(made.func, cst.Name) else None
        found = (facts, own) if own is not None else None
        if found is None:
            qualified = facts.qualified_name(made.func)
            found = imports.class_def(qualified) if qualified and imports is not None else None
        if found is None and isinstance(made.func, cst.Name):
            held = namespace.get(made.func.value)  # an earlier cell's class
            fn = inspect.getattr_static(held, name, None) if isinstance(held, type) else None
            return _callee_of_function(fn, ref_of) if isinstance(fn, FunctionType) else None
    if found is None:
        return None
    method = _method_of_class(*found, name)
    if method is None:
        return None
    owner, node = method
    if owner is facts:
        ref, extra = unit_ref, {}
    else:
        filename = str(owner.imports.path) if owner.imports is not None else None
        ref = ref_of(filename) if filename and ref_of else None
        if ref is None:
            return None  # a file the tracer does not follow
        extra = {filename: ref}
    return owner, _loops_in(owner, node), ref, extra, _as_def(node)


def _method_of_class(facts: Facts, cls: cst.ClassDef, name: str, depth: int = 4) -> tuple[Facts, Any] | None:
    """`cls.name` in `facts`, else in its bases (this unit's classes, then other units')."""
    node = facts.functions.get(f"{cls.name.value}.{name}")
    if node is not None:
        return facts, node
    if depth <= 0:
        return None
    for base in cls.bases:
        own = facts.classes.get(base.value.value) if isinstance(base.value, cst.Name) else None
        if own is not None and own is not cls:
            found = _method_of_class(facts, own, name, depth - 1)
            if found is not None:
                return found
    inherited = facts._inherited_method(facts, cls, name, depth)
    return (facts.owner_of(inherited), inherited) if inherited is not None else None


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
    # A cell's text is in `linecache` with no modification time (IPython's and ipykernel's
    # caching compiler); a library file a warning or traceback read has one: never parsed here
    # (a loop calling `softmax(x)` must not make the window choice parse torch's functional.py).
    if entry is not None and len(entry) >= 3 and (ref is not None or (not strict and entry[1] is None)):
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
