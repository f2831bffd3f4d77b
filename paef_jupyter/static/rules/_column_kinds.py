"""The Python kind of the values a dict-of-lists column is written with.

A column converted whole (`torch.tensor(d["y"])`) gives what converting each batch gave only while
every element has one Python type (and rows one width). A write after the dict literal keeps that
when its values are provably of the column's kind: `d["y"] = [1 - v for v in d["y"]]` over ints,
`d["lr"] + [0.001]` over floats, `d["x"].extend([[e + 0.5, 0.5]] * 2)` over float pairs. Any other
value (`append(2.5)` to ints, a row cut `[:n]`, a call's result) is unknown: the write refuses.

A kind is "int", "float", "bool", or ("row", width, kind) for a fixed-width list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ..facts import Facts
from ._tensor_facts import BOOL, FLOAT, INT, dtype_of, family, is_binding, mutated_in_place, reads_of

Kind = object  # "int" | "float" | "bool" | ("row", int, Kind)


@dataclass(frozen=True)
class Scope:
    """Where a write is judged: the unit, the name the dict has there (a helper's parameter),
    the column's key and kind, and what the helper's other parameters were given at the call."""

    facts: Facts
    dict_name: str
    key: str
    kind: Kind
    passed: dict[str, tuple[Facts, cst.BaseExpression]] = field(default_factory=dict)
    caller: "Scope | None" = None
    function: cst.FunctionDef | None = None  # the helper whose parameters `passed` names


def element_kind(column: object) -> Kind | None:
    """The kind of a uniform column's elements (its first's: `uniform_list` checked the rest)."""
    return kind_of_value(column[0]) if isinstance(column, list) and column else None


def kind_of_value(value: object) -> Kind | None:
    """The kind of one Python value: a number, or a fixed-width list of them."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, list) and value:
        inner = kind_of_value(value[0])
        return ("row", len(value), inner) if inner is not None else None
    return None


def is_column(scope: Scope, expr: cst.BaseExpression) -> bool:
    """`expr` is the judged column itself (`d["y"]` with `d` the dict's name in this scope)."""
    return isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and expr.value.value == scope.dict_name \
        and _key(expr) == scope.key


def list_of(scope: Scope, expr: cst.BaseExpression, binds: dict[str, Kind] | None = None, depth: int = 0) -> bool:
    """`expr` is a list every element of which has the column's kind."""
    binds = binds or {}
    if depth > 6:
        return False
    if is_column(scope, expr):
        return True  # the column (its kind kept by every write, each judged so)
    if isinstance(expr, cst.Subscript) and is_column(scope, expr.value) and len(expr.slice) == 1 \
            and isinstance(expr.slice[0].slice, cst.Slice):
        return True
    if isinstance(expr, cst.List):
        return all(isinstance(e, cst.Element) and kind_of(scope, e.value, binds, depth + 1) == scope.kind
                   for e in expr.elements)
    if isinstance(expr, cst.ListComp) and expr.for_in.inner_for_in is None and isinstance(expr.for_in.target, cst.Name):
        var = kind_of_iterated(scope, expr.for_in.iter)
        return var is not None and kind_of(scope, expr.elt, {**binds, expr.for_in.target.value: var}, depth + 1) == scope.kind
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return list_of(scope, expr.left, binds, depth + 1) and list_of(scope, expr.right, binds, depth + 1)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
        for items, times in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(times, cst.Integer) and list_of(scope, items, binds, depth + 1):
                return True
        return False
    if isinstance(expr, cst.Name):
        passed = _passed(scope, expr)
        if passed is not None:
            return list_of(passed[0], passed[1], None, depth + 1)
        value = scope.facts.value_of(expr)
        return value is not None and _only_binding(scope.facts, expr) \
            and not mutated_in_place(scope.facts, expr.value, scope.facts.module) and list_of(scope, value, binds, depth + 1)
    return False


def kind_of_iterated(scope: Scope, it: cst.BaseExpression) -> Kind | None:
    """The kind of what a `for` over `it` binds: the column's elements, `range`'s ints."""
    if is_column(scope, it):
        return scope.kind
    if isinstance(it, cst.Call) and (scope.facts.qualified_name(it.func) or "") == "builtins.range":
        return INT
    return None


_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)
_CASTS = {"builtins.float": FLOAT, "builtins.int": INT, "builtins.bool": BOOL}


def kind_of(scope: Scope, expr: cst.BaseExpression, binds: dict[str, Kind] | None = None, depth: int = 0) -> Kind | None:
    """The kind of one value written into the column, or None when not provable."""
    binds = binds or {}
    if depth > 8:
        return None
    if isinstance(expr, cst.Integer):
        return INT
    if isinstance(expr, cst.Float):
        return FLOAT
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return BOOL
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        inner = kind_of(scope, expr.expression, binds, depth + 1)
        return inner if inner in (INT, FLOAT) else None
    if isinstance(expr, cst.List):
        kinds = {kind_of(scope, e.value, binds, depth + 1) if isinstance(e, cst.Element) else None for e in expr.elements}
        return ("row", len(expr.elements), kinds.pop()) if len(kinds) == 1 and None not in kinds else None
    if isinstance(expr, cst.BinaryOperation):
        sides = (kind_of(scope, expr.left, binds, depth + 1), kind_of(scope, expr.right, binds, depth + 1))
        if not all(s in (INT, FLOAT) for s in sides):
            return None
        if isinstance(expr.operator, cst.Divide):
            return FLOAT
        if isinstance(expr.operator, _ARITHMETIC):
            return FLOAT if FLOAT in sides else INT
        return None
    if isinstance(expr, cst.Subscript) and is_column(scope, expr.value) and len(expr.slice) == 1 \
            and isinstance(expr.slice[0].slice, cst.Index):
        return scope.kind  # `d["y"][i]`: an element of the column
    if isinstance(expr, cst.Call):
        qualified = scope.facts.qualified_name(expr.func) or ""
        if qualified in _CASTS and len(expr.args) == 1:
            return _CASTS[qualified]
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "item" and not expr.args:
            fam = family(dtype_of(scope.facts, expr.func.value))  # `t.item()`: a Python number of its family
            return {FLOAT: FLOAT, INT: INT, BOOL: BOOL}.get(fam) if fam is not None else None
        return None
    if isinstance(expr, cst.Name):
        if expr.value in binds:
            return binds[expr.value]
        passed = _passed(scope, expr)
        if passed is not None:
            return kind_of(passed[0], passed[1], None, depth + 1)
        loop_kind = _loop_variable(scope, expr)
        if loop_kind is not None:
            return loop_kind
        value = scope.facts.value_of(expr)
        return kind_of(scope, value, binds, depth + 1) if value is not None and _only_binding(scope.facts, expr) else None
    return None


def _loop_variable(scope: Scope, name: cst.Name) -> Kind | None:
    """`name` is the target of a `for` around it that nothing in its body rebinds."""
    facts = scope.facts
    for loop in facts.enclosing_loops(name):
        node = loop.node
        if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == name.value:
            rebound = [n for n in reads_of(facts, name.value, node.body) if _binds(facts, n)]
            return None if rebound else kind_of_iterated(scope, node.iter)
    return None


def _binds(facts: Facts, name: cst.Name) -> bool:
    return is_binding(facts, name)


def _only_binding(facts: Facts, name: cst.Name) -> bool:
    """`name` is bound once in its function (or at top level): `value_of` is what every read sees.
    A name some function declares `global` / `nonlocal` is rebound by that function's code (red
    team 30a: `NOW` rebound to a float by `set_clock`): its one visible binding proves nothing."""
    scope = facts.enclosing_function(name) or facts.module
    bindings = [n for n in reads_of(facts, name.value, scope) if _binds(facts, n)
                and facts.enclosing_function(n) is facts.enclosing_function(name)]
    return len(bindings) == 1 and not any(u._declared_global(name.value) for u in (facts, *facts.prior.units()))


def _passed(scope: Scope, name: cst.Name) -> tuple[Scope, cst.BaseExpression] | None:
    """What the call handing the dict to a helper gave the helper's parameter `name`."""
    given = scope.passed.get(name.value)
    if given is None or scope.caller is None or scope.function is None:
        return None
    if any(_binds(scope.facts, n) for n in reads_of(scope.facts, name.value, scope.function)):
        return None  # `v = v / 2` in the helper: no longer what the call gave
    return scope.caller, given[1]


def _key(sub: cst.Subscript) -> str | None:
    if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
        return None
    key = sub.slice[0].slice.value
    return key.evaluated_value if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str) else None


