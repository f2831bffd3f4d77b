"""What the parts of a module call's tuple output are, where the module is not a name the
unit built itself.

`logits, hidden = model(x, h)` is typed from `Net.forward`'s `return` statements when `model` was
made by `Net(...)` in the same scope (`Facts._method_of_instance`). A training function's model is
most often a *parameter* (`def train(model, loader): enc, dec, cls = model(x)`, public check 61
p04), or an attribute (`self.net(x)` with `self.net = Net()`), and a recurrent layer of torch
(`out, h = self.gru(x)`) has no `forward` in the program at all. Without these the parts are
untyped, and host-sync, graph-retention and list-to-tensor miss every read of them.

One level only: the class whose `forward` is read is the one every visible construction of the
object names (each caller's argument for a parameter, each store for an attribute); a class of
this unit, an earlier cell or a local module. Any other value (a factory's result, two classes,
an argument built elsewhere) leaves the parts untyped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from .names import positional_params
from .types import Kind

if TYPE_CHECKING:
    from .facts import Facts, FunctionNode

# torch's recurrent layers: `(output, h_n)` for GRU / RNN; `(output, (h_n, c_n))` for LSTM, whose
# second part is a pair, not a tensor.
_RECURRENT = {"torch.nn.GRU": 2, "torch.nn.RNN": 2, "torch.nn.LSTM": 1}


def returned_parts(facts: "Facts", call: cst.Call, index: int, n: int) -> "list[tuple[Facts, cst.BaseExpression]] | None":
    """The expression each `return` of the function `call` runs gives in place `index` of its
    `n`-tuple (or list), with the unit it is read in: this unit's function, the `forward` of a
    model of this unit's class, one method of the class its receiver was built from
    (`g, d = self.model.pair_step(batch)`), or the `forward` of `forward_of`. A list
    comprehension's one expression stands for every element (`return [acc(k) for k in topk]`).
    None when the callee is unknown or some `return` is not such a tuple."""
    func = call.func
    owner: "Facts" = facts
    if isinstance(func, cst.Name):
        target = facts.functions.get(func.value) or facts._method_of_instance(func, "forward")
    else:
        target = facts._own_method(func)
    if target is None:
        found = forward_of(facts, func)
        if found is None:
            return None
        owner, target = found
    parts: list[tuple[Facts, cst.BaseExpression]] = []
    for node in owner.walk(target.body, into_scopes=False):
        if isinstance(node, cst.Return):
            value = node.value
            if isinstance(value, cst.ListComp):
                parts.append((owner, value.elt))
                continue
            if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != n \
                    or any(isinstance(el, cst.StarredElement) for el in value.elements):
                return None
            parts.append((owner, value.elements[index].value))
    return parts or None


def forward_of(facts: "Facts", func: cst.BaseExpression) -> "tuple[Facts, FunctionNode] | None":
    """The `forward` (and its unit) that calling `func` runs: a parameter every caller fills with an
    instance of one class of the program, or `self.<attr>` every store into which builds one."""
    return method_of_object(facts, func, "forward")


def method_of_object(facts: "Facts", func: cst.BaseExpression, method: str) -> "tuple[Facts, FunctionNode] | None":
    """`forward_of` for any method name (`__call__` of a plain class's object)."""
    constructions = _constructions(facts, func)
    if not constructions:
        return None
    found: set[tuple[int, int]] = set()
    result = None
    for unit, made in constructions:
        from .facts import same_object  # facts imports this module

        made = unit._wrapped_module(same_object(made))  # `nn.DataParallel(Net())`: the module's `forward` runs
        if not isinstance(made, cst.Call):
            return None
        named = unit.class_named(made.func)
        if named is None and isinstance(made.func, cst.Name):  # `ConvAE6 = ConvAutoEncoder`: another name for the class
            alias = unit.assigned_values(made.func.value)
            named = unit.class_named(alias[0]) if len(alias) == 1 and isinstance(alias[0], cst.Name) else None
        if named is None:
            return None
        owner, cls = named
        forward = owner.functions.get(f"{cls.name.value}.{method}")
        defined = sum(isinstance(m, cst.FunctionDef) and m.name.value == method for m in cls.body.body)
        if forward is None or defined != 1:
            return None
        found.add((id(owner), id(forward)))
        result = (owner, forward)
    return result if len(found) == 1 else None


def recurrent_output(facts: "Facts", func: cst.BaseExpression, index: int, n: int) -> Kind | None:
    """`out, h = self.gru(x)`: the parts of a torch recurrent layer's output that are tensors (both for
    GRU / RNN, the first for LSTM, whose second part is the `(h, c)` pair). None when `func` is not
    such a layer in every visible construction."""
    if n != 2:
        return None
    layer = _recurrent_layer(facts, func)
    if layer is None:
        return None
    return Kind.TENSOR if index < _RECURRENT[layer] else None


def _recurrent_layer(facts: "Facts", func: cst.BaseExpression) -> str | None:
    """The torch recurrent layer class every visible construction of `func` names (None: another, or unknown)."""
    names = set()
    for unit, made in _constructions(facts, func) or [(facts, None)]:
        from .facts import same_object

        made = same_object(made)
        if not isinstance(made, cst.Call):
            return None
        names.add(unit.qualified_name(made.func) or "")
    return next(iter(names)) if len(names) == 1 and next(iter(names)) in _RECURRENT else None


def nested_kind(facts: "Facts", call: cst.Call, path: "tuple[tuple[int, int], ...]", depth: int = 4) -> Kind:
    """The kind of a name a nested tuple target binds (`h` of `out, (h, c) = self.lstm(x)`, path
    ((1, 2), (0, 2))): both parts of an LSTM's `(h_n, c_n)` are tensors; in a program's function or
    `forward`, the part every `return` puts there (`return logits, (h, c)`, or a name holding what
    a call returned: `out, hidden = self.lstm(x); return y, hidden`)."""
    (index, n), rest = path[0], path[1:]
    if not rest:
        return facts._kind_of_unpacked(call, index, n)
    if depth <= 0:
        return Kind.UNKNOWN
    if (index, n) == (1, 2) and len(rest) == 1 and rest[0][1] == 2 and _recurrent_layer(facts, call.func) == "torch.nn.LSTM":
        return Kind.TENSOR
    parts = returned_parts(facts, call, index, n)
    if parts is None:
        return Kind.UNKNOWN
    kinds = {_part_kind(owner, part, rest, depth - 1) for owner, part in parts}
    return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN


def _part_kind(facts: "Facts", expr: cst.BaseExpression, path: "tuple[tuple[int, int], ...]", depth: int) -> Kind:
    """The kind at `path` inside what `expr` holds (a tuple written out, a name, a call's result)."""
    if depth <= 0:
        return Kind.UNKNOWN
    (index, n), rest = path[0], path[1:]
    if isinstance(expr, (cst.Tuple, cst.List)):
        if len(expr.elements) != n or any(isinstance(el, cst.StarredElement) for el in expr.elements):
            return Kind.UNKNOWN
        inner = expr.elements[index].value
        return facts.kind(inner) if not rest else _part_kind(facts, inner, rest, depth - 1)
    if isinstance(expr, cst.Call):
        return nested_kind(facts, expr, path, depth - 1)
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr)
        if value is not None:
            return _part_kind(facts, value, path, depth - 1)
        unpacked = facts.unpacked_from(expr)
        if unpacked is not None:
            call, i, m = unpacked
            return nested_kind(facts, call, ((i, m), *path), depth - 1)
    return Kind.UNKNOWN


def _constructions(facts: "Facts", func: cst.BaseExpression) -> "list[tuple[Facts, cst.BaseExpression]]":
    """Every expression that built the object `func` holds, with its unit: the name's own binding,
    each caller's argument for a parameter (its construction in the caller's scope), every
    `self.<attr> = ...` of the unit. Empty when one of them cannot be read."""
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        values = facts.self_assigned_values(func.attr.value)
        defs = facts._defs.get("self." + func.attr.value, ())
        if not values or len(values) != len(defs):
            return []
        return [(facts, v) for v in values]
    if not isinstance(func, cst.Name):
        return []
    made = facts.construction_of(func)
    if made is not None:
        return [(facts, made)]
    scope = facts.enclosing_function(func)
    if not isinstance(scope, cst.FunctionDef) or func.value not in positional_params(scope) \
            or _rebound(facts, scope, func.value):
        return []
    return _arguments(facts, scope, func.value)


def _rebound(facts: "Facts", scope: cst.FunctionDef, name: str) -> bool:
    """The function binds `name` again (an assignment, a loop, `with ... as`): not the argument."""
    from .cpu_parameters import _rebound as rebound  # the same test: a binding, not a method call on it

    return rebound(facts, scope, name)


def _arguments(facts: "Facts", scope: cst.FunctionDef, param: str) -> "list[tuple[Facts, cst.BaseExpression]]":
    """What each visible call of `scope` passes for `param`, as the construction of that value in
    the caller (`train(model, ...)` with `model = Net().to(device)`)."""
    facts.per_iteration_functions  # noqa: B018 - fills the call sites
    sites = list(facts._call_sites.get(scope, [])) + list(facts._foreign_sites.get(scope, []))
    sites += [site for site in facts._direct_calls.get(scope, ()) if site not in sites]
    names = positional_params(scope)
    if names[:1] in (["self"], ["cls"]):
        names = names[1:]
    out: list[tuple[Facts, cst.BaseExpression]] = []
    for caller, call in sites:
        if any(a.star for a in call.args):
            return []
        arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
        plain = [a.value for a in call.args if a.keyword is None]
        if arg is None and param in names and names.index(param) < len(plain):
            arg = plain[names.index(param)]
        if arg is None:
            return []
        made = caller.construction_of(arg) if isinstance(arg, cst.Name) else arg if isinstance(arg, cst.Call) else None
        if made is None:
            return []
        out.append((caller, made))
    return out
