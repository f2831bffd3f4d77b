"""A function parameter that holds the CPU at every call of its function.

`def evaluate(model, data, device): scores.to(device)` called only as `evaluate(..., device=DEVICE)`
with `DEVICE = torch.device("cpu")` moves nothing to an accelerator: the parameter's spelling
(`device`) is what the device reading falls back on, but here the calls say what it holds. The
answer is yes only when every use of the function in its unit is a plain call, each call passes
(or leaves to a default) a value that reads as the CPU, the body never rebinds the parameter, and
no other unit calls the function (a local module's caller could pass anything).
"""

from __future__ import annotations

import libcst as cst

from .facts import Facts


def cpu_parameter(facts: Facts, name: cst.Name, depth: int = 2) -> bool:
    """`name` reads a parameter of a function of this unit that every call fills with the CPU."""
    func = facts.enclosing_function(name)
    if not isinstance(func, cst.FunctionDef) or facts.functions.get(func.name.value) is not func or facts.callers:
        return False
    params = list(func.params.params)
    index = next((i for i, p in enumerate(params) if p.name.value == name.value), None)
    if index is None or func.params.star_arg is not cst.MaybeSentinel.DEFAULT and func.params.star_arg is not None \
            or _rebound(facts, func, name.value):
        return False
    calls = _plain_calls(facts, func.name.value)
    return bool(calls) and all(_passes_cpu(facts, call, params, index, depth) for call in calls)


def _rebound(facts: Facts, func: cst.FunctionDef, name: str) -> bool:
    return any(isinstance(n, cst.Name) and n.value == name
               and isinstance(facts.parent(n), (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Element, cst.For,
                                                cst.WithItem, cst.AsName, cst.NamedExpr))
               for n in facts.walk(func.body))


def _plain_calls(facts: Facts, fname: str) -> list[cst.Call] | None:
    """Every call `fname(...)` in the unit; empty when the name is used any other way (handed on
    as a callback, rebound, read as an attribute's receiver), since then its calls are unknown."""
    calls: list[cst.Call] = []
    for node in facts.walk(facts.module):
        if not (isinstance(node, cst.Name) and node.value == fname):
            continue
        parent = facts.parent(node)
        if isinstance(parent, cst.FunctionDef) and parent.name is node:
            continue
        if isinstance(parent, cst.Call) and parent.func is node and not any(a.star for a in parent.args):
            calls.append(parent)
            continue
        return []
    return calls


def _passes_cpu(facts: Facts, call: cst.Call, params: list[cst.Param], index: int, depth: int) -> bool:
    from .device_use import reads_as_cpu  # device_use reads this module: imported here, not at load

    param = params[index]
    positional = [a.value for a in call.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    passed = positional[index] if index < len(positional) else keywords.get(param.name.value, param.default)
    if passed is None:
        return False
    if reads_as_cpu(facts, passed):
        return True
    return isinstance(passed, cst.Name) and depth > 0 and cpu_parameter(facts, passed, depth - 1)
