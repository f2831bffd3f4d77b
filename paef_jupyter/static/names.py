"""Small pure helpers over libcst nodes: dotted names, names read, names bound or written.

libcst computes `node.children` by visiting the node, which costs as much as a traversal;
the walkers here take a `children` function so `Facts` can pass its cached one.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

import libcst as cst

from .mutating_calls import table_written_arguments, unbound_inplace_target, writes_receiver

Children = Callable[[cst.CSTNode], Sequence[cst.CSTNode]]

# Methods that change their receiver (besides torch's in-place `*_` methods).
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard",
    "setdefault", "popitem", "sort", "reverse", "step", "zero_grad", "backward", "fill_",
    "load_state_dict", "train", "eval", "send", "write", "put", "push", "fill", "resize", "itemset",
})
# Functions that write into their first argument: `np.copyto(dst, src)`, `np.random.shuffle(a)`,
# `random.shuffle(xs)`, `np.put(a, idx, v)`, `np.put_along_axis(a, idx, v, axis)`... (a ufunc's
# `.at`, `np.add.at(a, idx, v)`, too).
ARGUMENT_MUTATORS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "shuffle", "put_along_axis",
                               "assign_fields_by_name"})
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def type_test(*classes: type) -> Callable[[object], bool]:
    """`isinstance(node, classes)`, memoised per node type. libcst's node classes are ABCs: a
    failing `isinstance` on one runs `ABCMeta.__instancecheck__` (about 6x a plain class's
    cost, once per class of a tuple), and the walks here ask hundreds of thousands of times
    per 100 lines."""
    known: dict[type, bool] = {}

    def test(node: object) -> bool:
        kind = type(node)
        found = known.get(kind)
        if found is None:
            found = known[kind] = issubclass(kind, classes)
        return found

    return test


is_scope = type_test(*_SCOPES)


def _children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    return node.children


def walk(node: cst.CSTNode, children: Children = _children, into_scopes: bool = True) -> Iterator[cst.CSTNode]:
    """Pre-order walk; with `into_scopes=False`, nested function/class/lambda bodies are skipped."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if not into_scopes and current is not node and is_scope(current):
            continue
        stack.extend(reversed(children(current)))


def dotted_name(node: cst.CSTNode) -> str | None:
    """`torch.nn.functional` for the expression `torch.nn.functional`, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def root_name(node: cst.CSTNode) -> str | None:
    """`x` for `x`, `x.a.b`, `x[i]`, `x.f()`."""
    while True:
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        else:
            return None


# Operator methods that change their receiver when called by name (`t.__setitem__(0, v)`, `t.__iadd__(x)`).
INPLACE_DUNDERS = frozenset({"__setitem__", "__delitem__", "__setstate__", "__ilshift__", "__irshift__"} | {
    f"__i{op}__" for op in ("add", "sub", "mul", "truediv", "floordiv", "matmul", "mod", "pow", "and", "or", "xor")})


def is_inplace_method(name: str) -> bool:
    """`name` changes its receiver: a listed method, an in-place dunder, a trailing `_`, or a
    Tensor / ndarray method the generated table knows to write its receiver (`a.partition(k)`)."""
    return name in MUTATING_METHODS or name in INPLACE_DUNDERS or (name.endswith("_") and not name.endswith("__")) \
        or writes_receiver(name)


def mutated_arguments(call: cst.Call) -> Iterator[cst.BaseExpression]:
    """`_mutated_arguments`, a list or tuple display given as one (`sgd([w], [g], bufs, ...)`)
    opened into the tensors it holds; each once."""
    seen: set[int] = set()
    for arg in _mutated_arguments(call):
        for one in [el.value for el in arg.elements] if isinstance(arg, (cst.List, cst.Tuple)) else [arg]:
            if id(one) not in seen:
                seen.add(id(one))
                yield one


def _mutated_arguments(call: cst.Call) -> Iterator[cst.BaseExpression]:
    """Arguments `call` writes into in place: `out=x`; what the generated table
    (`mutating_calls`) knows from ATen's `Tensor(a!)` annotations and NumPy (`F.batch_norm(x, rm,
    rv, training=True)`, `np.add(a, 1, a)`, `torch.ops.aten.add_.Tensor(buf, x)`); an in-place
    method called unbound (`torch.Tensor.add_(buf, x)`); a `functools.partial` binding a writer
    (`partial(torch.Tensor.copy_, dst)`); and the syntactic fallbacks for names the table does not
    know (`np.add.at(x, ...)`, `_foreach_*_`). Syntactic (no types): a method of the same name
    counts too, which only makes the analysis keep more values loop-variant."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "out":
            yield arg.value
    func = call.func
    dotted = dotted_name(func)
    yield from table_written_arguments(call, dotted)
    target = unbound_inplace_target(call, dotted, is_inplace_method)
    if target is not None:
        yield target
    if dotted is not None and dotted.rsplit(".", 1)[-1] == "partial" and call.args and call.args[0].keyword is None:
        # `partial(torch.Tensor.copy_, dst)`: what the bound call would write, written when it runs
        yield from mutated_arguments(cst.Call(func=call.args[0].value, args=call.args[1:]))
    first = next((a.value for a in call.args if a.keyword is None and not a.star), None)
    if first is None or not isinstance(func, cst.Attribute):
        return
    if func.attr.value in ARGUMENT_MUTATORS or (func.attr.value == "at" and isinstance(func.value, cst.Attribute)):
        yield first
    elif func.attr.value.startswith("_foreach_") and func.attr.value.endswith("_"):
        # `torch._foreach_add_([t, u], 1.0)`: every tensor of the list it is given changes in place
        if isinstance(first, (cst.List, cst.Tuple)):
            yield from (el.value for el in first.elements)
        else:
            yield first


def keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def named_params(params: cst.Parameters) -> set[str]:
    """The names a signature binds to one argument each (`*args` and `**kw` left out)."""
    return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


def positional_params(func: cst.FunctionDef) -> list[str]:
    """The parameters a call can fill by position, in order (`self` included)."""
    return [p.name.value for p in (*func.params.posonly_params, *func.params.params)]


def parameter_filled(call: cst.Call, arg: cst.Arg, params: Sequence[str]) -> str | None:
    """The parameter among `params` (those after any `self`) that `arg` of `call` fills: its
    keyword, else its place among the positional arguments. None when an unpacked argument
    (`*args`, `**kw`) makes places unknown, or the argument falls past `params` (into `*args`)."""
    if arg.keyword is not None:
        return arg.keyword.value
    if any(a.star for a in call.args):
        return None
    index = [a for a in call.args if a.keyword is None].index(arg)
    return params[index] if index < len(params) else None


def argument_bound_to(call: cst.Call, params: Sequence[str], name: str) -> cst.BaseExpression | None:
    """What `call` passes for parameter `name`, by keyword or by position among `params` (the
    parameters after any `self`). None when it passes nothing there, or when any argument is
    unpacked (`*args`, `**kw`): what that fills is unknown."""
    given = None
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if (arg.keyword.value if arg.keyword else params[i] if i < len(params) else None) == name:
            given = arg.value
    return given


def bound_names(target: cst.CSTNode) -> Iterable[str]:
    """Names a target binds: `a`, `a, (b, c)`, `*rest`."""
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for el in target.elements:
            yield from bound_names(el.value)
    elif isinstance(target, cst.StarredElement):
        yield from bound_names(target.value)


def names_read(node: cst.CSTNode, children: Children = _children) -> set[str]:
    """Free names an expression reads (attribute names, keywords and comprehension/lambda
    variables excluded)."""
    out: set[str] = set()
    _reads(node, children, frozenset(), out)
    return out


_reads_specially = type_test(cst.Name, cst.Attribute, cst.Arg, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp,
                             cst.Lambda)


def _reads(node: cst.CSTNode, children: Children, bound: frozenset[str], out: set[str]) -> None:
    stack: list[tuple[cst.CSTNode, frozenset[str]]] = [(node, bound)]
    while stack:
        current, scope = stack.pop()
        if not _reads_specially(current):
            stack.extend((child, scope) for child in children(current))
            continue
        if isinstance(current, cst.Name):
            if current.value not in scope:
                out.add(current.value)
            continue
        if isinstance(current, cst.Attribute):
            stack.append((current.value, scope))
            continue
        if isinstance(current, cst.Arg):
            stack.append((current.value, scope))
            continue
        if isinstance(current, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            comp: cst.CompFor | None = current.for_in
            names: set[str] = set()
            while comp is not None:
                names.update(bound_names(comp.target))
                comp = comp.inner_for_in
            scope = scope | names
        elif isinstance(current, cst.Lambda):
            scope = scope | {p.name.value for p in current.params.params}
            stack.append((current.body, scope))
            continue
        stack.extend((child, scope) for child in children(current))


_may_write = type_test(cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.Del, cst.For, cst.WithItem, cst.NamedExpr,
                       cst.FunctionDef, cst.ClassDef, cst.Global, cst.Call, cst.Import, cst.ImportFrom,
                       cst.MatchAs, cst.MatchStar, cst.MatchMapping, cst.ExceptHandler, cst.ExceptStarHandler)


def writes_of(node: cst.CSTNode) -> Iterator[str]:
    """Names this one node rebinds or mutates (not its children): the def-use 'defs'."""
    if not _may_write(node):  # most nodes: answered without the chain of checks below
        return
    if isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.Del)):
        yield from _target_names(node.target)
    elif isinstance(node, cst.For):
        yield from _target_names(node.target)
    elif isinstance(node, cst.WithItem) and node.asname is not None:
        yield from _target_names(node.asname.name)
    elif isinstance(node, cst.NamedExpr):
        yield from _target_names(node.target)
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        yield node.name.value
    elif isinstance(node, cst.Global):
        yield from (n.name.value for n in node.names)
    elif isinstance(node, (cst.MatchAs, cst.MatchStar)) and node.name is not None:
        # `case {"scale": scale}`, `case [first, *rest]`, `case Stage(width=width)`, `case ... as mode`:
        # a pattern's capture binds the name in the enclosing scope like an assignment (red team 49)
        yield node.name.value
    elif isinstance(node, cst.MatchMapping) and node.rest is not None:
        yield node.rest.value  # `case {"kind": "aug", **opts}`
    elif isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) and node.name is not None:
        yield from _target_names(node.name.name)  # `except E as err` binds `err` (and unbinds it after)
    elif isinstance(node, cst.Call):
        yield from mutated_names(node)
        if isinstance(node.func, cst.Name) and node.func.value == "next" and node.args:
            root = root_name(node.args[0].value)
            if root:
                yield root
    elif isinstance(node, cst.Import):
        for alias in node.names:
            name = dotted_name(alias.asname.name) if alias.asname else dotted_name(alias.name)
            if name:
                yield name.split(".")[0]
    elif isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
        for alias in node.names:
            name = dotted_name(alias.asname.name if alias.asname else alias.name)
            if name:
                yield name


def _target_names(target: cst.CSTNode) -> Iterator[str]:
    names = list(bound_names(target))
    if names:
        yield from names
    else:
        root = root_name(target)
        if root:
            yield root


def mutated_names(node: cst.CSTNode) -> Iterator[str]:
    """Names whose object `node` changes without rebinding them."""
    if isinstance(node, cst.AugAssign):
        root = root_name(node.target)
        if root:
            yield root
    elif isinstance(node, cst.AssignTarget) and not isinstance(node.target, cst.Name):
        if isinstance(node.target, (cst.Tuple, cst.List)):
            targets = [el.value for el in node.target.elements]
        else:
            targets = [node.target]
        for target in targets:
            root = root_name(target)
            if root and isinstance(target, (cst.Subscript, cst.Attribute)):
                yield root
    elif isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and is_inplace_method(func.attr.value):
            root = root_name(func.value)
            if root:
                yield root
        looked_up = _looked_up_method(node, called=False) or _looked_up_method(func, called=True)
        if looked_up:
            yield looked_up
        for arg in mutated_arguments(node):
            root = root_name(arg)
            if root:
                yield root
    elif isinstance(node, cst.Attribute) and is_inplace_method(node.attr.value):
        # a bound in-place method taken to be called later or elsewhere: `shrink = t.mul_`,
        # `functools.partial(t.add_, 1)`, `stack.callback(t.zero_)` (a call's own `func` too)
        root = root_name(node.value)
        if root:
            yield root


def _looked_up_method(node: cst.CSTNode, called: bool) -> str | None:
    """The receiver's name of `getattr(t, "mul_")` (an in-place method taken by its name), and,
    when the result is `called`, of `getattr(t, name)(...)` with a name that is not a literal
    (any method may run)."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "getattr"
            and len(node.args) >= 2):
        return None
    name = node.args[1].value
    literal = isinstance(name, cst.SimpleString) and isinstance(name.evaluated_value, str)
    if literal and is_inplace_method(name.evaluated_value) or called and not literal:  # type: ignore[arg-type]
        return root_name(node.args[0].value)
    return None


def names_written(node: cst.CSTNode, children: Children = _children) -> set[str]:
    """Names a block rebinds or mutates; nested function/class bodies are their own scope."""
    return names_written_in(walk(node, children, into_scopes=False))


def names_written_in(nodes: Iterable[cst.CSTNode]) -> set[str]:
    """`names_written` over a block's own nodes, however the caller walks them."""
    out: set[str] = set()
    for current in nodes:
        out.update(writes_of(current))
    return out


def block_statements(block: cst.CSTNode | None) -> list[cst.CSTNode]:
    """The statements a block holds, in order; none for a node that holds no list of them. A
    statement's parent is not always a block: an `elif` is the `If` in its outer `If`'s `orelse`,
    and that `If`'s `body` is one node, not a sequence."""
    body = getattr(block, "body", ())
    return list(body) if isinstance(body, (list, tuple)) else []
