"""A tensor concatenated with copies of itself on every step (`torch.cat(n * [x], dim=0)`,
`torch.stack([x for _ in range(n)])`) where a broadcast view reads it once (public check 51 p04).

`torch.cat([x] * n, dim=d)` allocates `n` times `x` and copies `x` into each slice, on every
forward: when `x` has size 1 along `d` the result holds the same values as `x.expand(...)`, a
view that allocates and copies nothing (and autograd sums the gradient back to `x` either way).
`torch.stack` of `n` copies is `x.unsqueeze(d).expand(...)` whatever `x`'s shape. Which `x` has
size 1 along `d` is proved from its bindings (a factory with a literal size 1 there, through
shape-keeping calls such as `nn.Parameter`, `.to`, `softmax`, `unsqueeze(d)`); a `cat` whose `x`
is not proved so would be a `repeat`, a copy either way, and stays silent.

A view is not a fresh tensor: the result must not be written in place (`r[i] = ...`, `r.add_(...)`,
`out=r`), reshaped with `.view` (which refuses some strides), or handed to code this analysis
does not read (a program function, a return, an attribute): those stay silent. Always a hint:
whether a consumer accepts the expanded strides is not proved here.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts

_JOIN = {"torch.cat": "cat", "torch.concat": "cat", "torch.concatenate": "cat", "torch.stack": "stack"}
# Calls that keep their first argument's shape (and so a size 1 along a dimension).
_SAME_SHAPE_CALLS = frozenset({
    "torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.softmax", "torch.nn.functional.softmax",
    "torch.log_softmax", "torch.nn.functional.log_softmax", "torch.sigmoid", "torch.tanh", "torch.relu",
    "torch.nn.functional.relu", "torch.exp", "torch.abs", "torch.clone", "torch.zeros_like", "torch.ones_like",
    "torch.randn_like", "torch.rand_like", "torch.empty_like", "torch.full_like", "torch.nn.functional.normalize"})
_SAME_SHAPE_METHODS = frozenset({
    "to", "cuda", "float", "double", "half", "bfloat16", "detach", "clone", "softmax", "log_softmax", "sigmoid",
    "tanh", "relu", "exp", "abs", "contiguous", "requires_grad_"})
_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.randn", "torch.rand", "torch.empty", "torch.full"})
# Reads of the joined tensor that take any strides and write nothing.
_VIEW_UNSAFE_METHODS = frozenset({"view", "data_ptr", "storage", "untyped_storage", "numpy", "resize_", "set_",
                                  "share_memory_", "is_contiguous", "stride"})
_DEPTH = 4


def repeated_copy(facts: Facts, call: cst.Call) -> tuple[str, str, str] | None:
    """(joined expression, the kind `cat`/`stack`, the suggested view) for a join of `n` copies
    of one tensor whose result only feeds reads that take a view; None otherwise."""
    kind = _JOIN.get(facts.qualified_name(call.func) or "")
    if kind is None or not call.args or call.args[0].keyword is not None or call.args[0].star:
        return None
    copies = _copies(call.args[0].value)
    if copies is None:
        return None
    item, count = copies
    dim = _dim(call)
    if dim is None:
        return None
    if kind == "cat" and not _size_one(facts, item, dim, facts.enclosing_function(call), 0):
        return None
    if not _only_read(facts, call):
        return None
    x, n = facts.code(item), facts.code(count)
    before = f"*{x}.shape[:{dim}], " if dim else ""
    if kind == "cat":
        view = f"{x}.expand({before}{n}, *{x}.shape[{dim + 1}:])"
    else:
        view = f"{x}.unsqueeze({dim}).expand({before}{n}, *{x}.shape[{dim}:])"
    return facts.code(item), kind, view


def _copies(arg: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(x, n) of `n * [x]`, `[x] * n`, `(x,) * n`, `[x for _ in range(n)]` (x not reading `_`)."""
    if isinstance(arg, cst.BinaryOperation) and isinstance(arg.operator, cst.Multiply):
        for seq, count in ((arg.left, arg.right), (arg.right, arg.left)):
            if isinstance(seq, (cst.List, cst.Tuple)) and len(seq.elements) == 1 \
                    and not isinstance(seq.elements[0], cst.StarredElement) \
                    and not isinstance(count, (cst.List, cst.Tuple)):
                return seq.elements[0].value, count
        return None
    if isinstance(arg, (cst.ListComp, cst.GeneratorExp)) and arg.for_in.inner_for_in is None and not arg.for_in.ifs:
        it = arg.for_in.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range"
                and len(it.args) == 1):
            return None
        bound = {n.value for n in _walk(arg.for_in.target) if isinstance(n, cst.Name)}
        if any(isinstance(n, cst.Name) and n.value in bound for n in _walk(arg.elt)):
            return None  # `[x[i] for i in range(n)]`: different pieces, not copies
        if any(isinstance(n, cst.Call) for n in _walk(arg.elt)):
            return None  # `[torch.randn(3) for _ in range(n)]`: a new tensor each round
        return arg.elt, it.args[0].value
    return None


def _dim(call: cst.Call) -> int | None:
    """The literal non-negative dimension joined along (0 when absent)."""
    dims = [a.value for a in call.args[1:] if a.keyword is None] + \
        [a.value for a in call.args if a.keyword is not None and a.keyword.value in ("dim", "axis")]
    if not dims:
        return 0
    if len(dims) == 1 and isinstance(dims[0], cst.Integer):
        return int(dims[0].value)
    return None


def _size_one(facts: Facts, expr: cst.BaseExpression, dim: int, function: cst.CSTNode | None, depth: int) -> bool:
    """`expr` has size 1 along `dim`, proved from its bindings."""
    if depth > _DEPTH:
        return False
    if isinstance(expr, cst.Name):
        values = _reaching(facts, expr, function)
        return bool(values) and all(_size_one(facts, v, dim, function, depth + 1) for v in values)
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        values = _self_stores(facts, expr)
        return bool(values) and all(_size_one(facts, v, dim, facts.enclosing_function(v), depth + 1) for v in values)
    if isinstance(expr, cst.Subscript) and dim == 0 and len(expr.slice) >= 1 \
            and isinstance(expr.slice[0].slice, cst.Index) and isinstance(expr.slice[0].slice.value, cst.Name) \
            and expr.slice[0].slice.value.value == "None":
        return True  # `x[None]`
    if not isinstance(expr, cst.Call):
        return False
    name = facts.qualified_name(expr.func) or ""
    positional = [a.value for a in expr.args if a.keyword is None and not a.star]
    if name in _FACTORIES:
        sizes = positional[:-1] if name == "torch.full" else positional
        if len(sizes) == 1 and isinstance(sizes[0], (cst.Tuple, cst.List)):
            sizes = [e.value for e in sizes[0].elements]
        return len(sizes) > dim and isinstance(sizes[dim], cst.Integer) and sizes[dim].value == "1"
    if name in _SAME_SHAPE_CALLS and positional:
        return _size_one(facts, positional[0], dim, function, depth + 1)
    if isinstance(expr.func, cst.Attribute):
        method = expr.func.attr.value
        if method == "unsqueeze" and len(positional) == 1 and isinstance(positional[0], cst.Integer):
            return int(positional[0].value) == dim
        if method in _SAME_SHAPE_METHODS:
            return _size_one(facts, expr.func.value, dim, function, depth + 1)
    return False


def _reaching(facts: Facts, read: cst.Name, function: cst.CSTNode | None) -> list[cst.BaseExpression]:
    """The bindings of `read`'s name in `function` that may reach it: those before it in straight-line
    code; every one (its own right-hand side included) when a loop of the function runs round it."""
    values = facts.values_in(read.value, function)
    if _in_own_loop(facts, read, function):
        return values
    return [v for v in values if facts.order(v) < facts.order(read) and not any(a is v for a in facts.ancestors(read))]


def _in_own_loop(facts: Facts, node: cst.CSTNode, function: cst.CSTNode | None) -> bool:
    """A loop (or comprehension) inside `function` runs round `node`."""
    for anc in facts.ancestors(node):
        if anc is function:
            return False
        if isinstance(anc, (cst.For, cst.While, cst.BaseComp)):
            return True
    return function is not None


def _self_stores(facts: Facts, attr: cst.Attribute) -> list[cst.BaseExpression]:
    """Every value assigned to `self.<attr>` in the unit (None-free); [] when one is not a plain assignment."""
    values: list[cst.BaseExpression] = []
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Assign):
            for t in node.targets:
                if isinstance(t.target, cst.Attribute) and t.target.attr.value == attr.attr.value:
                    values.append(node.value)
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and isinstance(node.target, cst.Attribute) \
                and node.target.attr.value == attr.attr.value:
            return []
    return values


def _only_read(facts: Facts, call: cst.Call) -> bool:
    """The join's result (through chained out-of-place methods) is read only by arithmetic, library
    tensor functions and out-of-place methods: never written, `.view`ed or handed on."""
    expr: cst.CSTNode = call
    while True:
        parent = facts.parent(expr)
        if isinstance(parent, cst.Attribute) and parent.value is expr:
            grand = facts.parent(parent)
            if not (isinstance(grand, cst.Call) and grand.func is parent):
                return False  # `.data`, `.T`: an attribute read this check does not follow
            if _unsafe_method(parent.attr.value):
                return False
            expr = grand
            continue
        break
    parent = facts.parent(expr)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        name = parent.targets[0].target.value
        function = facts.enclosing_function(call)
        if function is None:
            return False
        others = [v for v in facts.values_in(name, function) if v is not parent.value]
        if _in_own_loop(facts, parent, function) or any(facts.order(v) > facts.order(parent) for v in others):
            return False  # rebound after it (or round a loop): a read may be of another value
        reads = [n for n in _walk(function) if isinstance(n, cst.Name) and n.value == name
                 and not isinstance(facts.parent(n), cst.AssignTarget) and not _spelled_only(facts, n)
                 and not any(a is call for a in facts.ancestors(n))]
        return bool(reads) and all(_read_only_use(facts, n) for n in reads)
    return _read_only_use(facts, expr)


def _spelled_only(facts: Facts, name: cst.Name) -> bool:
    """`name` is an attribute's or a keyword's spelling (`self.W`, `f(W=...)`), not a read of the local."""
    parent = facts.parent(name)
    return (isinstance(parent, cst.Attribute) and parent.attr is name) or (isinstance(parent, cst.Arg) and parent.keyword is name)


def _read_only_use(facts: Facts, node: cst.CSTNode) -> bool:
    parent = facts.parent(node)
    if isinstance(parent, cst.BinaryOperation):
        return True
    if isinstance(parent, cst.Attribute) and parent.value is node:
        grand = facts.parent(parent)
        return isinstance(grand, cst.Call) and grand.func is parent and not _unsafe_method(parent.attr.value)
    if isinstance(parent, cst.Arg) and parent.keyword is None:
        call = facts.parent(parent)
        name = facts.qualified_name(call.func) if isinstance(call, cst.Call) else None
        return name is not None and name.startswith(("torch.", "torch.nn.functional.")) \
            and not name.rsplit(".", 1)[-1].endswith("_") and all(
                a.keyword is None or a.keyword.value != "out" for a in call.args)
    if isinstance(parent, cst.Subscript) and parent.value is node:
        grand = facts.parent(parent)
        return not (isinstance(grand, (cst.AssignTarget, cst.AugAssign)) or
                    (isinstance(grand, cst.Assign) and parent in [t.target for t in grand.targets]))
    return False


def _unsafe_method(method: str) -> bool:
    return method in _VIEW_UNSAFE_METHODS or (method.endswith("_") and not method.endswith("__"))


def _walk(node: cst.CSTNode):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)
