"""What a container, record or iterator holds: the objects whose memory it shares.

`held = [t.numpy()]; a = held[0]` (or a tuple, a dict, `Stats(t.numpy(), 1)`, `SimpleNamespace(arr=...)`,
`later.append(t.numpy())`, `copy.copy(model)`, `zip(target.parameters(), ...)`): the container does
not copy the tensor or array it is given, so `t.add_(1)` in a loop changes what `a` reads, and the
other way, `for p_t, _ in zip(target.parameters(), ...): p_t.mul_(tau)` changes `target`.
`Facts.shared_roots` follows views and zero-copy conversions only; this module adds what a
container or record built from them holds, so loop invariance sees the change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from .names import positional_params, root_name

if TYPE_CHECKING:
    from .facts import Facts, FunctionNode

# Calls whose result holds (not copies) the objects of their arguments: containers and iterators
# over them, shallow copies, namespaces and bound partials, datasets over tensors.
_HOLDING_CALLS = frozenset({
    "builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset", "builtins.dict", "builtins.zip",
    "builtins.enumerate", "builtins.reversed", "builtins.sorted", "builtins.iter", "builtins.filter", "builtins.map",
    "builtins.next", "copy.copy", "itertools.chain", "itertools.chain.from_iterable", "itertools.islice",
    "itertools.cycle", "itertools.tee", "itertools.zip_longest", "itertools.compress", "itertools.repeat",
    "types.SimpleNamespace", "argparse.Namespace", "functools.partial", "collections.OrderedDict",
    "collections.deque", "collections.ChainMap", "collections.UserDict", "collections.UserList",
    "torch.utils.data.TensorDataset", "torch.utils.data.Subset", "torch.utils.data.ConcatDataset",
    "torch.utils.data.dataset.TensorDataset", "torch.utils.data.dataset.Subset",
})
_RECORD_FACTORIES = frozenset({"collections.namedtuple", "typing.NamedTuple", "dataclasses.make_dataclass"})
# Methods whose result holds the receiver's members (a module's live tensors, a dict's values, a
# list's shallow copy).
_HOLDING_METHODS = frozenset({
    "parameters", "named_parameters", "buffers", "named_buffers", "children", "named_children", "modules",
    "named_modules", "state_dict", "values", "items", "copy", "get", "pop", "setdefault",
})
# Functions that put their later arguments into their first.
_STORING_CALLS = frozenset({
    "heapq.heappush", "heapq.heappushpop", "heapq.heapreplace", "bisect.insort", "bisect.insort_left",
    "bisect.insort_right", "operator.setitem", "operator.iadd", "operator.iconcat", "builtins.list.append",
    "builtins.list.insert", "builtins.list.extend", "builtins.dict.__setitem__", "builtins.dict.update",
    "builtins.dict.setdefault", "builtins.set.add", "builtins.object.__setattr__", "collections.deque.append",
    "collections.deque.appendleft", "builtins.setattr",
})
# Calls that put their argument into the receiver: `later.append(t.numpy())`, `d.update(x=...)`.
_STORING_METHODS = frozenset({"append", "appendleft", "extend", "extendleft", "insert", "add", "update",
                              "setdefault", "__setitem__", "put", "put_nowait"})


def held_roots(facts: "Facts", value: cst.BaseExpression, depth: int = 0) -> frozenset[str]:
    """Names whose objects `value` is, views, or holds as an element, member or field."""
    roots = facts.shared_roots(value)
    if depth > 4:
        return roots
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return roots.union(*(held_roots(facts, e.value, depth + 1) for e in value.elements if not _copied_value(facts, e.value)))
    if isinstance(value, cst.Dict):
        return roots.union(*(held_roots(facts, e.value, depth + 1) for e in value.elements
                             if isinstance(e, (cst.DictElement, cst.StarredDictElement)) and not _copied_value(facts, e.value)))
    if isinstance(value, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        return roots | _comprehension_roots(facts, value, depth)
    if isinstance(value, (cst.Subscript, cst.Attribute)) and not roots:
        return held_roots(facts, value.value, depth + 1)
    if isinstance(value, cst.Call):
        return roots | _call_roots(facts, value, depth)
    return roots


def _comprehension_roots(facts: "Facts", comp: cst.BaseExpression, depth: int) -> frozenset[str]:
    """`[t.numpy() for t in ts]` holds views of `ts`'s elements: the element's roots, with each
    comprehension target replaced by what its iterable holds."""
    elements = [comp.key, comp.value] if isinstance(comp, cst.DictComp) else [comp.elt]  # type: ignore[attr-defined]
    roots: frozenset[str] = frozenset().union(*(held_roots(facts, e, depth + 1) for e in elements))
    for_in: cst.CompFor | None = comp.for_in  # type: ignore[attr-defined]
    while for_in is not None:
        targets = {n.value for n in facts.walk(for_in.target) if isinstance(n, cst.Name)}
        if roots & targets:
            roots = (roots - targets) | held_roots(facts, for_in.iter, depth + 1)
        for_in = for_in.inner_for_in
    return roots


def _call_roots(facts: "Facts", call: cst.Call, depth: int) -> frozenset[str]:
    qualified = facts.qualified_name(call.func) or ""
    func = call.func
    if qualified in _HOLDING_CALLS or _is_record_class(facts, func):
        return frozenset().union(*(held_roots(facts, a.value, depth + 1) for a in _held_args(facts, call)))
    if isinstance(func, cst.Attribute) and func.attr.value in _HOLDING_METHODS \
            and not (func.attr.value == "copy" and _array_like(facts, func.value)):
        return held_roots(facts, func.value, depth + 1)
    return _returned_roots(facts, call, depth)


def _array_like(facts: "Facts", expr: cst.BaseExpression) -> bool:
    from .types import Kind

    return facts.kind(expr) in (Kind.TENSOR, Kind.NDARRAY)


def _is_record_class(facts: "Facts", func: cst.BaseExpression) -> bool:
    """A class of the program (a dataclass, a plain class keeping its arguments) or a record type
    made by `namedtuple(...)`: its instance keeps the objects it is built from."""
    if not isinstance(func, cst.Name):
        return False
    if func.value in facts.classes or facts.prior.classes.get(func.value) is not None:
        return True
    made = facts.value_of(func)
    return isinstance(made, cst.Call) and (facts.qualified_name(made.func) or "") in _RECORD_FACTORIES


def _returned_roots(facts: "Facts", call: cst.Call, depth: int) -> frozenset[str]:
    """`pack(t.numpy())` with `def pack(a): return {"a": a}`: a function of the program whose
    return value holds one of its parameters holds the arguments given for it."""
    func = facts._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if not isinstance(func, cst.FunctionDef) or depth > 2:
        return frozenset()
    owner = facts.owner_of(func)
    params = positional_params(func)
    returned: set[str] = set()
    for node in owner.walk(func.body):
        if isinstance(node, (cst.Return, cst.Yield)) and isinstance(node.value, cst.BaseExpression):
            returned |= held_roots(owner, node.value, depth + 2)
    if not returned & (set(params) | {p.name.value for p in func.params.kwonly_params}):
        return frozenset()
    return frozenset(r for a in _held_args(facts, call) for r in held_roots(facts, a.value, depth + 1))


def _copied_value(facts: "Facts", value: cst.BaseExpression) -> bool:
    """An element that is a number, or an attribute not known to be a tensor, array or container
    (`(losses, args.global_step)`): as `Facts._views_of` takes `n = model.n_classes`, a copy."""
    from .types import Kind

    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)) or facts.kind(value) is Kind.NUMBER:
        return True
    return isinstance(value, cst.Attribute) and facts.kind(value) not in (
        Kind.TENSOR, Kind.NDARRAY, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR) \
        and value.attr.value not in ("weight", "bias", "running_mean", "running_var", "data", "grad")


def _held_args(facts: "Facts", call: cst.Call) -> list[cst.Arg]:
    """The arguments whose objects the result may keep: not numbers (immutable: kept or copied, the
    same). `*xs` counts: its container is unpacked, but its elements are handed over and kept
    (`first, _ = zip(*[(r, 0) for r in t])` holds the rows of `t`). `**` counts for a dict literal or
    comprehension (`Namespace(**{"a": arr})` holds `arr`), not for a name (`Namespace(**config)`:
    the dict is not kept, and counting it would make the namespace share `config` as a whole; what
    a mutable value of `config` shares through it is a known gap)."""
    return [a for a in call.args if unpacked_elements_kept(a) and not _copied_value(facts, a.value)]


def unpacked_elements_kept(arg: cst.Arg) -> bool:
    """`arg` is not `**name`: a plain argument, `*xs`, or `**` of a dict written out."""
    return arg.star != "**" or isinstance(arg.value, (cst.Dict, cst.DictComp))


def stored_into(facts: "Facts", function: "FunctionNode | None", within: "cst.CSTNode | None" = None) -> dict[str, set[str]]:
    """container name -> the names whose objects `function`'s scope (only `within` it, if given)
    stores into it: `later.append(t.numpy())`, `table["k"] = a`, `cfg.arr = a`, `setattr(cfg, "arr", a)`,
    `buf += [a]`."""
    out: dict[str, set[str]] = {}
    scope = within if within is not None else function.body if function is not None else facts.module
    for node in facts.walk(scope):
        if facts.enclosing_function(node) is not function:
            continue
        pairs: list[tuple[cst.BaseExpression, list[cst.BaseExpression]]] = []
        if isinstance(node, cst.Call) and len(node.args) > 1 and (facts.qualified_name(node.func) or "") in _STORING_CALLS:
            # a library function keeping one argument in the first (`heapq.heappush(heap, a)`,
            # `operator.setitem(d, k, a)`, `list.append(buf, a)`)
            pairs.append((node.args[0].value, [a.value for a in node.args[1:]]))
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _STORING_METHODS:
            pairs.append((node.func.value, [a.value for a in node.args]))
        elif isinstance(node, cst.Call) and node.args and _unseen_method(facts, node):
            # `tracker.track(a)` of a class out of sight may keep `a` (`self.kept = a`)
            pairs.append((node.func.value, [a.value for a in node.args if not _copied_value(facts, a.value)]))  # type: ignore[attr-defined]
        elif isinstance(node, cst.Call) and (facts.qualified_name(node.func) or "") == "builtins.setattr" and len(node.args) > 2:
            pairs.append((node.args[0].value, [node.args[2].value]))
        elif isinstance(node, cst.Assign):  # (`x[0] = a` into a tensor or array copies `a`'s values)
            pairs.extend((t.target.value, [node.value]) for t in node.targets
                         if isinstance(t.target, cst.Attribute)
                         or isinstance(t.target, cst.Subscript) and not _array_like(facts, t.target.value))
        elif isinstance(node, cst.AugAssign) and isinstance(node.value, (cst.List, cst.Tuple)):
            pairs.append((node.target, [node.value]))
        if isinstance(node, cst.Call) and node.args:
            pairs.extend(_stored_by_callee(facts, node))
        for target, values in pairs:
            for owner in facts.shared_roots(target) or {root_name(target)} - {None}:  # (`vars(ns)["a"] = v`: `ns`)
                for value in values:
                    out.setdefault(owner, set()).update(held_roots(facts, value) - {owner})
    return {k: v for k, v in out.items() if v}


def _stored_by_callee(facts: "Facts", call: cst.Call) -> list[tuple[cst.BaseExpression, list[cst.BaseExpression]]]:
    """`register(t.numpy())` with `def register(a): REGISTRY.append(a)`: a function of the program
    that stores a parameter into a global container or object makes that global hold the argument."""
    func = facts._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if not isinstance(func, cst.FunctionDef) or func in _VISITING:
        return []
    owner = facts.owner_of(func)
    params = positional_params(func)
    _VISITING.add(func)
    try:
        inner = stored_into(owner, func)
    finally:
        _VISITING.discard(func)
    local = set(params) | {n for n in owner.names_written(func.body) if _bound_in(owner, func, n)}
    out: list[tuple[cst.BaseExpression, list[cst.BaseExpression]]] = []
    receiver = call.func.value if isinstance(call.func, cst.Attribute) and params and params[0] == "self" else None
    if receiver is not None:
        params = params[1:]  # a method called bound: `bank.add(a)` stores `a` into `bank` (its `self`)
    for container, sources in inner.items():
        if container == "self" and receiver is not None and sources & set(params):
            given = [a.value for i, a in enumerate(call.args) if a.keyword is None and not a.star
                     and i < len(params) and params[i] in sources]
            out.append((receiver, given))
            continue
        if container in local or not sources & set(params):
            continue
        given = [a.value for i, a in enumerate(call.args) if a.keyword is None and not a.star
                 and i < len(params) and params[i] in sources]
        given += [a.value for a in call.args if a.keyword is not None and a.keyword.value in sources]
        if given:
            out.append((cst.Name(container), given))
    return out


_VISITING: set[cst.CSTNode] = set()


def _unseen_method(facts: "Facts", call: cst.Call) -> bool:
    from .outside_calls import unseen_method

    return unseen_method(facts, call)


def _bound_in(owner: "Facts", func: cst.FunctionDef, name: str) -> bool:
    """`name` is a local of `func` (assigned there without `global`), not a global it changes."""
    if any(isinstance(n, (cst.Global, cst.Nonlocal)) and any(a.name.value == name for a in n.names)
           for n in owner.walk(func.body)):
        return False
    return any(isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name) and n.target.value == name
               or isinstance(n, (cst.For, cst.CompFor)) and any(isinstance(t, cst.Name) and t.value == name
                                                               for t in owner.walk(n.target))
               for n in owner.walk(func.body))


def unpacked_links(facts: "Facts", call: cst.Call, n: int) -> list[tuple[int, int]]:
    """`state, held = setup()` with `setup` returning `(t, [t.numpy()])`: the pairs of positions of
    the returned tuple whose objects share memory (held roots in common inside the callee)."""
    func = facts._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if not isinstance(func, cst.FunctionDef):
        return []
    owner = facts.owner_of(func)
    links: set[tuple[int, int]] = set()
    for node in owner.walk(func.body):
        if isinstance(node, cst.Return) and isinstance(node.value, (cst.Tuple, cst.List)) and len(node.value.elements) == n:
            roots = [held_roots(owner, e.value) for e in node.value.elements]
            links |= {(i, j) for i in range(n) for j in range(n) if i != j and roots[i] & roots[j]}
    return sorted(links)
