"""Tables a per-step function builds on the host from its input's sizes alone, then copies to the device.

SimCLR's `torch.eye(2 * n, dtype=torch.bool).to(z.device)` with `n = z1.size(0)`, SASRec's
`torch.LongTensor(np.tile(np.array(range(s.shape[1])), [s.shape[0], 1])).to(dev)`: what the table
holds depends on nothing but sizes (the batch size included) and constants, so while the sizes
repeat (a fixed batch size, a fixed length: nearly every step) each call builds and copies the
same table. `shape_derived` leaves batch sizes out because the size may change between batches,
and a table moved after it is built is `cpu-then-move`'s site; this is the fact beside those:
the rebuild itself, which the move's fix (building it on the device) does not remove. Only a
hint: a cache keyed by the sizes is a design choice the program's author makes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ..facts import Facts
from ..names import bound_names, named_params
from ._tensor_facts import mutated_in_place

# Calls that build a table from sizes: what varies along its indices (not a fill of one value).
TABLE_CALLS = frozenset({"torch.arange", "torch.eye", "torch.linspace", "torch.logspace", "torch.tril", "torch.triu",
                         "torch.tril_indices", "torch.triu_indices", "numpy.arange", "numpy.eye", "numpy.tril",
                         "numpy.triu", "numpy.linspace", "builtins.range"})
# Pure calls that build or reshape a tensor or an array from what they are given.
_BUILDERS = TABLE_CALLS | frozenset({
    "torch.ones", "torch.zeros", "torch.full", "torch.tensor", "torch.as_tensor", "torch.Tensor", "torch.LongTensor",
    "torch.FloatTensor", "torch.BoolTensor", "torch.from_numpy", "torch.cat", "torch.stack", "torch.outer",
    "numpy.array", "numpy.asarray", "numpy.tile", "numpy.repeat", "numpy.ones", "numpy.zeros", "numpy.full",
    "numpy.stack", "numpy.concatenate", "numpy.outer", "builtins.list", "builtins.int"})
# Methods that keep a table a pure function of the same sizes.
_METHODS = frozenset({"to", "cuda", "float", "long", "double", "half", "bool", "int", "unsqueeze", "view", "reshape",
                      "expand", "t", "contiguous", "repeat", "repeat_interleave", "squeeze", "flatten", "astype",
                      "type", "clone", "clamp", "clip", "abs", "flip", "tril", "triu", "transpose", "permute"})
_TYPES = frozenset({"bool", "int", "float"})
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Divide, cst.Modulo, cst.Power,
               cst.BitAnd, cst.BitOr)


@dataclass
class _Reading:
    """What a sizes-only expression read: input sizes, and a table call (not only fills)."""

    sizes: bool = False
    table: bool = False
    proved: dict[str, bool] = field(default_factory=dict)  # locals followed (False while being followed)
    values: list[cst.BaseExpression] = field(default_factory=list)  # what those locals are bound to


def moves(facts: Facts, call: cst.Call) -> bool:
    """`E.cuda()`, `E.to(device)`, `E.to(self.dev)`: a copy towards a device, or at least not a
    conversion to a dtype (`E.to(torch.float32)`, `E.to(dtype=...)`)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in ("to", "cuda") or any(a.star for a in call.args):
        return False
    if func.attr.value == "cuda":
        return True
    if any(a.keyword is not None and a.keyword.value in ("dtype", "memory_format") for a in call.args):
        return False
    positional = [a.value for a in call.args if a.keyword is None]
    return bool(call.args) and not any((facts.qualified_name(v) or "").startswith("torch.") and isinstance(v, cst.Attribute)
                                       for v in positional)


def sized_host_table(facts: Facts, move: cst.Call) -> list[cst.BaseExpression] | None:
    """`move` is `E.to(...)` / `E.cuda()` in a function and `E` is built on the host from the sizes
    of the function's inputs and constants only, through at least one table call (`arange`, `eye`,
    `range`, `tril`...): the same table for the same sizes. Returns `E` and the values of the locals
    it was followed through (None when it is not such a table)."""
    func = facts.enclosing_function(move)
    if func is None or not moves(facts, move):
        return None
    reading = _Reading()
    receiver = move.func.value  # type: ignore[attr-defined]
    if _sized(facts, receiver, func, reading, 0) and reading.sizes and reading.table:
        return [receiver, *reading.values]
    return None


def _sized(facts: Facts, expr: cst.BaseExpression, func: cst.FunctionDef, reading: _Reading, depth: int) -> bool:
    """Every value `expr` reads is a number, a dtype, a device, a size of something, a constant of
    the module or its configuration (`self.<attr>` set only in `__init__`), or a local bound once to
    such an expression and never changed in place."""
    from .redundant_tensor import _set_only_in_init  # the rule's own proof of a module's configuration

    if depth > 40:
        return False  # nesting this deep: not a table anyone writes
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Name):
        if expr.value in ("True", "False", "None") or expr.value in _TYPES \
                and facts.qualified_name(expr) == f"builtins.{expr.value}":
            return True  # `dtype=bool`
        return _sized_name(facts, expr, func, reading, depth)
    if isinstance(expr, (cst.List, cst.Tuple)):
        return all(isinstance(e, cst.Element) and _sized(facts, e.value, func, reading, depth + 1) for e in expr.elements)
    if isinstance(expr, cst.BinaryOperation):
        return isinstance(expr.operator, _ARITHMETIC) and _sized(facts, expr.left, func, reading, depth + 1) \
            and _sized(facts, expr.right, func, reading, depth + 1)
    if isinstance(expr, cst.UnaryOperation):
        return _sized(facts, expr.expression, func, reading, depth + 1)
    if isinstance(expr, cst.Comparison):
        return _sized(facts, expr.left, func, reading, depth + 1) \
            and all(_sized(facts, c.comparator, func, reading, depth + 1) for c in expr.comparisons)
    if _size_read(expr):
        reading.sizes = True
        return True
    if isinstance(expr, cst.Subscript):  # `idx[None, :]`, `rows[:n]`: a slice of a table is a table of the same sizes
        return _sized(facts, expr.value, func, reading, depth + 1) and all(
            _sized_index(facts, e.slice, func, reading, depth + 1) for e in expr.slice)
    if isinstance(expr, cst.Attribute):
        qualified = facts.qualified_name(expr) or ""
        if qualified.startswith(("torch.", "numpy.")) and not isinstance(facts.parent(expr), cst.Call):
            return True  # `torch.bool`, `np.int64`
        if expr.attr.value in ("T", "mT"):
            return _sized(facts, expr.value, func, reading, depth + 1)
        if expr.attr.value in ("device", "dtype"):
            return True  # where the input lives, not what it holds
        if isinstance(expr.value, cst.Name) and expr.value.value == "self":
            return _set_only_in_init(facts, func, expr.attr.value)  # configuration: the same on every call
        return False
    if isinstance(expr, cst.Call):
        return _sized_call(facts, expr, func, reading, depth)
    return False


def _sized_index(facts: Facts, index: cst.BaseSlice, func: cst.FunctionDef, reading: _Reading, depth: int) -> bool:
    if isinstance(index, cst.Index):
        return _sized(facts, index.value, func, reading, depth)
    bounds = [index.lower, index.upper, index.step]  # type: ignore[attr-defined]
    return all(b is None or _sized(facts, b, func, reading, depth) for b in bounds)


def _sized_call(facts: Facts, call: cst.Call, func: cst.FunctionDef, reading: _Reading, depth: int) -> bool:
    qualified = facts.qualified_name(call.func) or ""
    if qualified == "builtins.len" and len(call.args) == 1 and isinstance(call.args[0].value, cst.Name):
        reading.sizes = True  # the length of an input
        return True
    if any(a.star for a in call.args):
        return False
    args = all(_sized(facts, a.value, func, reading, depth + 1) for a in call.args)
    if qualified in _BUILDERS and qualified.count(".") == 1:
        reading.table |= qualified in TABLE_CALLS
        return args
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in _METHODS \
            and not (qualified.startswith(("torch.", "numpy.")) and qualified.count(".") == 1):
        return args and _sized(facts, call.func.value, func, reading, depth + 1)
    return False


def _size_read(expr: cst.BaseExpression) -> bool:
    """`x.size(0)`, `x.size()`, `x.shape`, `x.shape[1]`, `x.size()[1]`, `x.ndim` of a name or an attribute."""
    if isinstance(expr, cst.Subscript):
        expr = expr.value
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "size" \
            and all(isinstance(a.value, (cst.Integer, cst.UnaryOperation)) for a in expr.args):
        return isinstance(expr.func.value, (cst.Name, cst.Attribute))
    return isinstance(expr, cst.Attribute) and expr.attr.value in ("shape", "ndim") \
        and isinstance(expr.value, (cst.Name, cst.Attribute))


def _sized_name(facts: Facts, name: cst.Name, func: cst.FunctionDef, reading: _Reading, depth: int) -> bool:
    """A local of `func` bound once, by a plain assignment, to a sizes-only value (`n = z.size(0)`,
    `B, L = x.shape`) and never changed in place; or a module-level number (`G = 13`)."""
    params = named_params(func.params)
    if name.value in params:
        return False  # the input itself, not a size of it
    bindings = [n for n in facts.walk(func.body, into_scopes=False)
                if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr))
                and name.value in {b for t in _targets(n) for b in bound_names(t)}]
    if not bindings:
        return _module_number(facts, name.value)
    if name.value in reading.proved:
        return reading.proved[name.value]
    reading.proved[name.value] = False
    if len(bindings) != 1 or not isinstance(bindings[0], cst.Assign) or len(bindings[0].targets) != 1 \
            or mutated_in_place(facts, name.value, func.body):
        return False
    target, value = bindings[0].targets[0].target, bindings[0].value
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements) \
            and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        part = next(v.value for t, v in zip(target.elements, value.elements) if name.value in bound_names(t.value))
        found = _sized(facts, part, func, reading, depth + 1)  # `h, w = x.size(-2), x.size(-1)`
    elif isinstance(target, cst.Tuple):
        found = _size_read(value) and isinstance(value, cst.Attribute)  # `B, L = x.shape`
        reading.sizes |= found
    else:
        found = isinstance(target, cst.Name) and _sized(facts, value, func, reading, depth + 1)
    reading.proved[name.value] = found
    reading.values.append(value)
    return found


def _targets(node: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    if isinstance(node, cst.With):
        return [i.asname.name for i in node.items if i.asname is not None]
    return [node.target]  # type: ignore[attr-defined]


def _module_number(facts: Facts, name: str) -> bool:
    """`name` is bound at the top of the unit only, to number literals (`G, IMG = 13, 416`)."""
    values = []
    for stmt in facts.module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
                if isinstance(target, cst.Name) and target.value == name:
                    values.append(value)
                elif isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) \
                        and len(target.elements) == len(value.elements):
                    values += [v.value for t, v in zip(target.elements, value.elements)
                               if isinstance(t.value, cst.Name) and t.value.value == name]
    written = any(name in {b for t in _targets(n) for b in bound_names(t)} for n in facts.walk(facts.module)
                  if isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr))) \
        or any(isinstance(n, (cst.Global, cst.Nonlocal)) and any(a.name.value == name for a in n.names)
               for n in facts.walk(facts.module))
    return len(values) == 1 and isinstance(values[0], (cst.Integer, cst.Float)) and not written
