"""Columns of records that a program's own function or method returns: `zip(*records)`.

A replay or rollout buffer usually transposes its records inside a method (`def sample(self):
return zip(*random.sample(self.buffer, k))`) and the caller unpacks the columns
(`states, actions, log_probs = self.memory.sample()`). Read at the call, the columns are an
unknown call's result; read through the callee, they are one field of each stored record, the
same fact as `zip(*batch)` written in the caller. Only a callee this unit owns and can name for
sure (a top-level function bound once, or a method of the class the receiver was built from)
counts, and only when every `return` of it gives `zip(*E)`: a callee that returns other things on
other paths says nothing about the columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .facts import Facts, FunctionNode, method_of_object, param_names

_SAMPLERS = frozenset({"random.sample", "random.choices"})
_COPIES = frozenset({"builtins.list", "builtins.tuple"})


@dataclass(frozen=True)
class ReturnedColumns:
    """What a call's columns are columns of."""

    callee: FunctionNode
    records: cst.BaseExpression  # at the call: the call itself (stored records) or the argument passed
    stored: bool  # the records are the receiver's own (`self.buffer`): read again at every call


def returned_columns(facts: Facts, call: cst.BaseExpression) -> ReturnedColumns | None:
    """`call` runs a function of this unit whose every return is `zip(*E)`, `E` the object's
    stored records (an expression of `self` attributes) or one of its parameters (then the
    records are the argument this call passes)."""
    if not isinstance(call, cst.Call):
        return None
    callee = _callee(facts, call)
    if callee is None:
        return None
    returns = [n for n in facts.walk(callee.body, into_scopes=False) if isinstance(n, cst.Return)]
    if not returns or any(isinstance(n, (cst.Yield, cst.Await)) for n in facts.walk(callee.body, into_scopes=False)):
        return None
    found: ReturnedColumns | None = None
    for ret in returns:
        records = _zip_star(facts, _bound_once(facts, callee, ret.value)) if ret.value is not None else None
        if records is None:
            return None
        here = _classify(facts, callee, call, records)
        if here is None or (found is not None and (found.stored, found.records) != (here.stored, here.records)):
            return None
        found = here
    return found


def _callee(facts: Facts, call: cst.Call) -> FunctionNode | None:
    func = call.func
    if isinstance(func, cst.Name):
        method = facts.functions.get(func.value)
        if method is None or facts.assigned_values(func.value) or facts.enclosing_function(method) is not None \
                or sum(1 for n in facts.walk(facts.module) if isinstance(n, cst.FunctionDef) and n.name.value == func.value) != 1:
            return None  # rebound, nested, or defined twice: not the one function for sure
        return method
    found = method_of_object(facts, func)
    if found is None:
        return None
    cls, method = found
    if sum(1 for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == method.name.value) != 1:
        return None
    return method


def _bound_once(facts: Facts, callee: FunctionNode, value: cst.BaseExpression) -> cst.BaseExpression:
    """`cols` of `cols = zip(*batch); return cols`: the one value the callee gives that local."""
    if isinstance(value, cst.Name):
        values = facts.values_in(value.value, callee)
        if len(values) == 1 and value.value not in param_names(callee):
            return values[0]
    return value


def _zip_star(facts: Facts, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    if isinstance(expr, cst.Call) and facts.qualified_name(expr.func) == "builtins.zip" and len(expr.args) == 1 \
            and expr.args[0].star == "*":
        return expr.args[0].value
    return None


def _classify(facts: Facts, callee: FunctionNode, call: cst.Call, records: cst.BaseExpression) -> ReturnedColumns | None:
    inner = _bound_once(facts, callee, records)
    while isinstance(inner, cst.Call) and (facts.qualified_name(inner.func) or "") in _SAMPLERS | _COPIES and inner.args \
            and inner.args[0].keyword is None and not inner.args[0].star:
        inner = _bound_once(facts, callee, inner.args[0].value)
    if isinstance(inner, cst.Subscript):  # `self.buffer[-n:]`: the latest records
        inner = inner.value
    if isinstance(inner, cst.Attribute) and isinstance(inner.value, cst.Name) and inner.value.value == "self" \
            and isinstance(call.func, cst.Attribute):
        return ReturnedColumns(callee, call, True)
    if isinstance(inner, cst.Name) and inner.value in param_names(callee) and inner.value != "self":
        argument = _argument(callee, call, inner.value)
        return ReturnedColumns(callee, argument, False) if argument is not None else None
    return None


def _argument(callee: FunctionNode, call: cst.Call, param: str) -> cst.BaseExpression | None:
    """The expression `call` passes for `param` (plain positional or keyword arguments only)."""
    if any(a.star for a in call.args):
        return None
    params = [p.name.value for p in callee.params.params]
    if isinstance(call.func, cst.Attribute) and params and params[0] == "self":
        params = params[1:]
    for a in call.args:
        if a.keyword is not None and a.keyword.value == param:
            return a.value
    positional = [a.value for a in call.args if a.keyword is None]
    index = params.index(param) if param in params else -1
    return positional[index] if 0 <= index < len(positional) else None
