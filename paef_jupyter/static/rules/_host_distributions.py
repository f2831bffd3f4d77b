"""Which `torch.distributions` objects draw on the host (public check 48, p03 line 156).

A distribution samples where its parameters live: `MultivariateNormal(torch.zeros(2), torch.eye(2))`
holds host tensors, so `noise.sample((n,))` builds the draw in host memory and a `.to(device)` after
it copies it every step. The object is often built once at the top level and handed to the training
function as a parameter (`train(energy, noise, loader, ...)`), so the name is followed into every
call of that function in the unit: each must pass a host distribution.

Host parameters by a closed list: number literals (`Normal(0., 1.)` makes CPU tensors of them), and
torch factories (`torch.zeros(2)`, `torch.eye(2)`, `torch.ones(d) * 0.5`) given no `device=`. A
tensor of unknown place, a helper's result or a `device=` argument proves nothing: silent.
"""
from __future__ import annotations

import libcst as cst

from ..facts import Facts

_DRAW_METHODS = frozenset({"sample", "rsample", "sample_n"})
_HOST_BUILDERS = frozenset({
    "zeros", "ones", "full", "eye", "arange", "linspace", "logspace", "tensor", "rand", "randn",
})
_SAME_PLACE_METHODS = frozenset({"float", "double", "unsqueeze", "view", "reshape", "expand", "diag"})


def distribution_draw(facts: Facts, call: cst.Call) -> str | None:
    """`noise.sample(...)` / `.rsample(...)` of a name that holds a host distribution (built in the
    same scope, or passed by every caller of the enclosing function): the distribution's source
    text, else None."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _DRAW_METHODS and isinstance(func.value, cst.Name)):
        return None
    built = _distribution_held(facts, func.value)
    return facts.code(built) if built is not None else None


def _distribution_held(facts: Facts, name: cst.Name) -> cst.Call | None:
    value = facts.value_of(name)
    if value is not None:
        return value if isinstance(value, cst.Call) and _host_distribution(facts, value) else None
    scope = facts.enclosing_function(name)
    if not isinstance(scope, cst.FunctionDef) or sum(d.function is scope for d in facts._defs.get(name.value, ())) > 1:
        return None  # bound again in the function (a loop target, an assignment): not the caller's object
    index = parameter_index(scope, name.value)
    if index is None:
        return None
    calls = [c for c in facts.calls_in(facts.module) if scope in facts._callees(c)]
    found: cst.Call | None = None
    for c in calls:
        arg = argument_for(c, name.value, index)
        if arg is None:
            return None
        if isinstance(arg, cst.Name):
            arg = facts.value_of(arg)
        if not (isinstance(arg, cst.Call) and _host_distribution(facts, arg)):
            return None
        found = found or arg
    return found


def parameter_index(scope: cst.FunctionDef, name: str) -> int | None:
    """The position of plain parameter `name` (None for keyword-only, `*args`, or not a parameter)."""
    plain = [*scope.params.posonly_params, *scope.params.params]
    for i, p in enumerate(plain):
        if p.name.value == name:
            return i
    return None


def argument_for(call: cst.Call, name: str, index: int) -> cst.BaseExpression | None:
    """What `call` binds to the parameter (None when unpacked, left to a default, or not seen)."""
    if any(a.star for a in call.args):
        return None
    for a in call.args:
        if a.keyword is not None and a.keyword.value == name:
            return a.value
    if not isinstance(call.func, cst.Name):
        return None  # a method call shifts the positions by its receiver: only keywords are read there
    positional = [a for a in call.args if a.keyword is None]
    return positional[index].value if index < len(positional) else None


def _host_distribution(facts: Facts, call: cst.Call) -> bool:
    qualified = facts.qualified_name(call.func) or ""
    if not qualified.startswith("torch.distributions.") or not call.args:
        return False
    if any(a.star for a in call.args):
        return False
    params = [a.value for a in call.args if a.keyword is None or a.keyword.value != "validate_args"]
    return bool(params) and all(_host_value(facts, v, 3) for v in params)


def _host_value(facts: Facts, expr: cst.BaseExpression, depth: int) -> bool:
    """A number literal, or a torch factory given no `device=` (through arithmetic with numbers and
    same-place methods): a tensor in host memory."""
    if depth < 0:
        return False
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _host_value(facts, expr.expression, depth)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)):
        sides = (expr.left, expr.right)
        return all(_host_value(facts, s, depth - 1) for s in sides)
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr)
        return value is not None and _host_value(facts, value, depth - 1)
    if not isinstance(expr, cst.Call):
        return False
    if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _SAME_PLACE_METHODS \
            and not (facts.qualified_name(expr.func) or "").startswith("torch."):
        return _host_value(facts, expr.func.value, depth - 1)
    qualified = facts.qualified_name(expr.func) or ""
    name = qualified.rsplit(".", 1)[-1]
    if name == "tensor":  # `torch.tensor(t)` of a device tensor stays there: literals only
        return qualified == "torch.tensor" and bool(expr.args) and _literal_data(expr.args[0].value) \
            and not any(a.keyword is not None and a.keyword.value == "device" for a in expr.args)
    return qualified == f"torch.{name}" and name in _HOST_BUILDERS \
        and not any(a.keyword is not None and a.keyword.value in ("device", "out") for a in expr.args) \
        and not any(a.star for a in expr.args)


def _literal_data(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _literal_data(expr.expression)
    return isinstance(expr, (cst.List, cst.Tuple)) and all(_literal_data(e.value) for e in expr.elements)
