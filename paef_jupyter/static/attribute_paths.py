"""Changes of an object's attributes, tracked per attribute path.

`args.global_step += 1` in a loop changes `args.global_step`, not `args.batch_size`: an
expression reading only `args.batch_size` keeps its value across iterations. And
`loss.backward()` writes the `.grad` of the tensors the loss was built from, not the sizes
and options it read (`calc_loss(args, ...)`). Whole-name invariance (`Facts.varying_names`)
counts `args` as changed in both cases; this module says which paths changed, and only for
an object that stays private to its name: never aliased (`a = args`), handed to code this
analysis cannot see inside the loop (`f(args)`, `setattr(args, ...)`, `vars(args)`,
`args.__dict__`, a method of `args`), nor an attribute of it deleted. Anything else keeps
the whole name changed, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import libcst as cst

from .names import bound_names, writes_of

if TYPE_CHECKING:
    from .facts import Facts, FunctionNode, Loop

Path = tuple[str, ...]
# What a `backward()` changes in the objects its loss was built from: some `.grad` below them.
GRAD: Path = ("<grad>",)
# Calls whose arguments are read for their values only (never a `.grad`, never kept).
_VALUE_PREFIXES = ("torch.", "numpy.", "math.", "builtins.")
_NAMESPACE_CALLS = frozenset({"builtins.vars", "builtins.setattr", "builtins.delattr", "builtins.getattr",
                              "builtins.id", "copy.copy", "copy.deepcopy"})


def chain_path(expr: cst.BaseExpression) -> tuple[str, Path] | None:
    """`args.opt.lr` -> ("args", ("opt", "lr")); None unless attributes of a name, no dunder."""
    attrs: list[str] = []
    while isinstance(expr, cst.Attribute):
        if expr.attr.value.startswith("__"):
            return None
        attrs.append(expr.attr.value)
        expr = expr.value
    if not isinstance(expr, cst.Name) or not attrs:
        return None
    return expr.value, tuple(reversed(attrs))


def store_path(node: cst.CSTNode) -> tuple[str, Path] | None:
    """The name and path a store changes: `args.step += 1`, `args.best = v`, `args.hist[k] = v`
    (the object at `args.hist`); None for any other write."""
    if not isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
        return None
    target = node.target
    if isinstance(target, cst.Subscript):
        target = target.value
    return chain_path(target)


def attribute_arguments(facts: Facts, made: cst.BaseExpression) -> dict[str, set[Path]]:
    """Names `made` (a constructor call) reads only as attribute paths handed straight to it as
    arguments (`lr=args.lr`), with those paths: the object built holds what is at the path."""
    if not isinstance(made, cst.Call):
        return {}
    out: dict[str, set[Path]] = {}
    direct: set[int] = set()
    for arg in made.args:
        path = chain_path(arg.value) if not arg.star else None
        if path is not None and immutable_path(facts, *path, stored=False):
            out.setdefault(path[0], set()).add(path[1])
            direct.add(id(arg.value))
    for node in facts.walk(made):
        if isinstance(node, cst.Name) and node.value in out:
            top = _chain_top(facts, node)
            if top is not None and id(top) not in direct:
                out.pop(node.value)  # also read another way: `Adam(args.model.parameters())`
    return out


def overlaps(a: Path, b: Path) -> bool:
    return a[:len(b)] == b or b[:len(a)] == a


def rebinding_writes(facts: Facts, loop: Loop) -> set[str]:
    """Names of `loop.writes` changed other than by attribute stores (`x = ...`, `x[i] = ...`,
    `x.append(...)`, the loop's target): these change the whole name."""
    attribute_only: set[str] = set()
    whole: set[str] = set()
    body = loop.node.body
    for node in facts.walk(body, into_scopes=False):
        path = store_path(node)
        for name in writes_of(node):
            (attribute_only if path is not None and path[0] == name else whole).add(name)
    if isinstance(loop.node, cst.For):
        whole |= set(bound_names(loop.node.target))
    return set(loop.writes) - (attribute_only - whole)


def immutable_path(facts: Facts, name: str, path: Path, stored: bool = True) -> bool:
    """Every store of the unit to `name.path` puts a constant there (`args.step = 0`,
    `args.step += 1`), nothing stores below it or calls a method of it: its value is a number
    or string, which a callee given it cannot change, nor reach `name` through. With
    `stored=False`, also when the unit never stores there (`lr=args.lr` of a parsed namespace):
    nothing this unit puts there holds a reference back to `name`."""
    required = stored
    dotted = ".".join((name, *path))
    stored = False
    for node in facts.walk(facts.module):
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
            text = facts.code(node.target)
            if text == dotted:
                value = node.value if isinstance(node, (cst.AugAssign, cst.AnnAssign)) else facts.parent(node).value
                if value is None or not facts._immutable(value):
                    return False
                stored = True
            elif text.startswith((dotted + ".", dotted + "[")):
                return False
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and facts.code(node.func.value) == dotted:
            return False
    return stored or not required


def private_object(facts: Facts, name: str, loop: Loop) -> bool:
    """`name` holds an object only this name reaches: every use in the unit is an attribute of
    it (no dunder, not a method called on it), a binding of the name itself, an argument of this
    unit's function that only reads attributes of its parameter, or, outside the loop and the
    functions it runs, an argument of any call (run before or after the loop: what it does there
    is not a change between iterations, as for any name the loop only reads)."""
    if facts._imported(name):
        return False
    hot = facts.per_iteration_functions
    for use in facts.uses(name):
        if not _same_variable(facts, use, loop.function):
            continue
        parent = facts.parent(use)
        if isinstance(parent, cst.Arg) and not parent.star and not _runs_in(facts, use, loop, hot) \
                and isinstance(facts.parent(parent), cst.Call):
            continue
        if isinstance(parent, cst.Attribute) and parent.value is use:
            if parent.attr.value.startswith("__") or _called_method(facts, parent):
                return False
            continue
        if isinstance(parent, cst.Attribute) and parent.attr is use:
            continue  # `other.args`: another object's attribute of the same spelling
        if _binds(parent, use) or isinstance(parent, (cst.Param, cst.Global, cst.Nonlocal)):
            continue
        if isinstance(parent, cst.Arg) and _read_only_argument(facts, parent, loop):
            continue
        return False
    return True


def _same_variable(facts: Facts, use: cst.Name, function: FunctionNode | None) -> bool:
    """`use` names the variable `function` (None: the module) binds: the innermost function
    around it that binds the name is `function` (a closure's free name counts; another
    function's local or parameter of the same spelling is another variable)."""
    from .facts import _own_locals, param_names
    scope = facts.enclosing_function(use)
    while scope is not None and scope is not function:
        if use.value in param_names(scope) or use.value in _own_locals(scope):
            return False
        scope = facts.enclosing_function(scope)
    return scope is function


def _runs_in(facts: Facts, node: cst.CSTNode, loop: Loop, hot: Mapping) -> bool:
    """`node` is in the loop, in a function run per iteration, or in a nested scope (run anywhen)."""
    if loop.node in set(facts.ancestors(node)):
        return True
    func = facts.enclosing_function(node)
    return func is not None and (func in hot or func is not loop.function)


def _binds(parent: cst.CSTNode | None, use: cst.Name) -> bool:
    return isinstance(parent, (cst.AssignTarget, cst.AnnAssign)) and parent.target is use


def _called_method(facts: Facts, attribute: cst.Attribute) -> bool:
    """`args.sub.method(...)` (anywhere up the chain): code of the object runs."""
    node: cst.CSTNode = attribute
    while True:
        parent = facts.parent(node)
        if isinstance(parent, cst.Call) and parent.func is node:
            return True
        if not (isinstance(parent, cst.Attribute) and parent.value is node):
            return False
        node = parent


def _read_only_argument(facts: Facts, arg: cst.Arg, loop: Loop) -> bool:
    """`calc_loss(args, ...)`: a positional or keyword argument of this unit's function whose
    parameter is only read through attributes (so it keeps no reference and changes nothing)."""
    call = facts.parent(arg)
    if not isinstance(call, cst.Call) or arg.star or not isinstance(call.func, cst.Name):
        return False
    name = call.func.value
    func = facts.functions.get(name)
    if func is None or name in facts._redefined or name in facts._defs or name in facts.aliases:
        return False  # `def f` twice, or also assigned/imported: another body may run
    param = param_of(func, call, arg)
    return param is not None and read_only_parameter(facts, func, param)


def param_of(func: FunctionNode, call: cst.Call, arg: cst.Arg) -> str | None:
    """The parameter of `func` a plain call `f(...)` binds `arg` to (None for a method call,
    whose receiver takes the first parameter, or a starred call)."""
    if any(a.star for a in call.args) or not isinstance(call.func, cst.Name):
        return None
    if arg.keyword is not None:
        return arg.keyword.value
    p = func.params
    names = [x.name.value for x in (*p.posonly_params, *p.params)]
    index = [a for a in call.args if a.keyword is None].index(arg)
    return names[index] if index < len(names) else None


def read_only_parameter(facts: Facts, func: FunctionNode, param: str) -> bool:
    """Every use of `param` in `func` reads an attribute (no dunder, no method called, no store,
    no deletion, not handed to a call that may change or keep it) and nothing rebinds it."""
    owner = facts.owner_of(func)
    for node in owner.walk(func.body):
        if isinstance(node, cst.Name) and node.value == param:
            parent = owner.parent(node)
            if not (isinstance(parent, cst.Attribute) and parent.value is node):
                if isinstance(parent, cst.Attribute) and parent.attr is node:
                    continue
                return False
            if parent.attr.value.startswith("__") or _called_method(owner, parent) or _stored(owner, parent) \
                    or _handed_over(owner, parent):
                return False
    return True


def _handed_over(facts: Facts, attribute: cst.Attribute) -> bool:
    """The chain holding `attribute` is an argument of a call not known to leave its arguments
    alone (`record(args.sub)`; not `torch.arange(args.n)` nor `t.to(args.device)`)."""
    top: cst.CSTNode = attribute
    while isinstance(facts.parent(top), cst.Attribute) and facts.parent(top).value is top:
        top = facts.parent(top)
    arg = facts.parent(top)
    call = facts.parent(arg) if isinstance(arg, cst.Arg) else None
    return isinstance(call, cst.Call) and not facts._leaves_arguments(call)


def _stored(facts: Facts, attribute: cst.Attribute) -> bool:
    """The chain holding `attribute` is written: a store target, a deleted one, or subscripted into."""
    node: cst.CSTNode = attribute
    while True:
        parent = facts.parent(node)
        if isinstance(parent, cst.Attribute) and parent.value is node or isinstance(parent, cst.Subscript) and parent.value is node:
            node = parent
            continue
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and parent.target is node:
            return True
        return isinstance(parent, (cst.Del, cst.Element)) and _inside_del(facts, parent)


def _inside_del(facts: Facts, node: cst.CSTNode) -> bool:
    return any(isinstance(a, cst.Del) for a in (node, *facts.ancestors(node)))


def varying_paths(facts: Facts, node: cst.CSTNode, loop: Loop) -> Mapping[str, frozenset[Path]]:
    """Names varying in `loop` as seen from `node` only through these attribute paths."""
    func = facts.enclosing_function(node)
    changes = dict(facts.path_changes(loop))
    if func is None or func is loop.function:
        return changes
    from .facts import _own_locals, param_names
    shadowed = param_names(func) | _own_locals(func) | facts.names_written(func.body)
    out = {n: p for n, p in changes.items() if n not in shadowed}
    out.update(facts.param_paths(func))
    return out


def _chain_top(facts: Facts, name: cst.Name) -> cst.CSTNode | None:
    """The outermost attribute read starting at `name` (`args.model.lr` for `args`), or `name`
    itself; None where `name` is an attribute's own name (the `lr` of `x.lr`), not a variable."""
    parent = facts.parent(name)
    if isinstance(parent, cst.Attribute) and parent.attr is name:
        return None
    top: cst.CSTNode = name
    while isinstance(facts.parent(top), cst.Attribute) and facts.parent(top).value is top:
        top = facts.parent(top)
    return top


def reads_clear(facts: Facts, expr: cst.CSTNode, name: str, changed: frozenset[Path]) -> bool:
    """Every read of `name` in `expr` is an attribute path none of `changed` touches, whose value
    goes straight to arithmetic, an index or a torch / NumPy / math / builtin call (values read,
    nothing kept, no `.grad`): `torch.arange(0, args.batch_size)`."""
    found = False
    for node in facts.walk(expr):
        if not isinstance(node, cst.Name) or node.value != name:
            continue
        top = _chain_top(facts, node)
        if top is None:
            continue
        found_path = chain_path(top) if isinstance(top, cst.Attribute) else None
        if found_path is None:
            return False
        path = found_path[1]
        if GRAD in changed and "grad" in path or any(overlaps(path, c) for c in changed if c != GRAD):
            return False
        if not _value_consumer(facts, top, grad=GRAD in changed):
            return False
        found = True
    return found


def _value_consumer(facts: Facts, top: cst.CSTNode, grad: bool) -> bool:
    parent = facts.parent(top)
    if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget,
                           cst.Index, cst.Slice)):
        return True
    if isinstance(parent, cst.Arg) and not parent.star:
        call = facts.parent(parent)
        if not isinstance(call, cst.Call):
            return False
        qualified = facts.qualified_name(call.func) or ""
        return qualified.startswith(_VALUE_PREFIXES) and qualified not in _NAMESPACE_CALLS \
            and not (grad and "grad" in qualified)
    return False


def param_paths(facts: Facts, func: FunctionNode) -> dict[str, frozenset[Path]]:
    """Parameters of a per-iteration helper that vary only through attribute paths: every
    per-iteration call passes a name whose object the calling loop changes only there (or not at
    all), and the helper only reads attributes of the parameter."""
    invariant = facts.invariant_params(func)
    out: dict[str, set[Path]] = {}
    dropped: set[str] = set()
    for caller, call in facts.per_iteration_call_sites(func):
        loop = caller.iteration_loop(call)
        if loop is None:
            continue
        if any(a.star for a in call.args):
            return {}
        for arg in call.args:
            param = param_of(func, call, arg)
            if param is None or param in invariant or param in dropped or caller.is_invariant(arg.value, loop):
                continue
            if not isinstance(arg.value, cst.Name) or not read_only_parameter(facts, func, param):
                dropped.add(param)
                continue
            paths = varying_paths(caller, call, loop).get(arg.value.value)
            if paths is None:
                dropped.add(param)
                continue
            out.setdefault(param, set()).update(paths)
    return {p: frozenset(paths) for p, paths in out.items() if p not in dropped}
