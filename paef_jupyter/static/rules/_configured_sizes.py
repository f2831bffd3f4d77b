"""A loop bound that is a module's configured size, tied to a tensor the module built of that size.

`for next_tag in range(self.tagset_size)` in the CRF tutorial's forward algorithm runs once per row
of `self.transitions`, built in `__init__` as `nn.Parameter(torch.randn(self.tagset_size, ...))`:
the bound is not `len(t)` or `t.size(0)`, so no per-row check saw which tensor the loop covers.
The fact proved here: the bound `self.<n>` is bound only in `__init__`, the tensor attribute
`self.<t>` is bound exactly once, in `__init__`, to a torch factory (optionally wrapped in
`nn.Parameter`) whose first dimension is `self.<n>` (or the `__init__` parameter `self.<n>` was
set from, never rebound there), and no other method rebinds `self.<t>`. Then `range(self.<n>)`
covers the first dimension of `self.<t>` on every call.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts, param_names

# torch factories whose positional arguments (or first argument, a size tuple) give the sizes.
_FACTORIES = frozenset({"randn", "rand", "zeros", "ones", "empty", "full", "randint"})
_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def configured_row_tensor(facts: Facts, loop: cst.For, bound: cst.BaseExpression) -> cst.Attribute | None:
    """`self.<t>` when `bound` is `self.<n>` and `range(bound)` covers `self.<t>`'s first
    dimension (see the module docstring); the loop must read `self.<t>[var]` for the tensor to
    matter, so only such attributes are tried."""
    from .redundant_tensor import _set_only_in_init  # the rules' own proof of a module's configuration

    if not (_self_attribute(bound) and isinstance(loop.target, cst.Name)):
        return None
    func = facts.enclosing_function(loop)
    if not isinstance(func, cst.FunctionDef) or not _set_only_in_init(facts, func, bound.attr.value):  # type: ignore[attr-defined]
        return None
    init = _init_of(facts, func)
    if init is None:
        return None
    size = bound.attr.value  # type: ignore[attr-defined]
    for read in _row_reads(facts, loop, loop.target.value):
        attr = read.attr.value
        if attr == size or not _set_only_in_init(facts, func, attr):
            continue
        bindings = [n for n in facts.walk(init.body) if isinstance(n, cst.Assign) and any(
            _is_self_attr(t.target, attr) for t in n.targets)]
        if len(bindings) != 1 or len(bindings[0].targets) != 1:
            continue
        first = _first_dimension(facts, bindings[0].value)
        if first is not None and _same_size(facts, init, first, size):
            return read
    return None


def _self_attribute(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self"


def _is_self_attr(expr: cst.BaseExpression, attr: str) -> bool:
    return _self_attribute(expr) and expr.attr.value == attr  # type: ignore[attr-defined]


def _init_of(facts: Facts, func: cst.FunctionDef) -> cst.FunctionDef | None:
    cls = facts.enclosing_class(func)
    if cls is None:
        return None
    inits = [m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"]
    return inits[0] if len(inits) == 1 else None


def _row_reads(facts: Facts, loop: cst.For, var: str) -> list[cst.Attribute]:
    """The `self.<t>` of every `self.<t>[var, ...]` in the loop body, in order, once each."""
    found: dict[str, cst.Attribute] = {}
    for n in facts.walk(loop.body):
        if isinstance(n, cst.Subscript) and _self_attribute(n.value) and n.slice \
                and isinstance(n.slice[0].slice, cst.Index) and isinstance(n.slice[0].slice.value, cst.Name) \
                and n.slice[0].slice.value.value == var:
            found.setdefault(n.value.attr.value, n.value)  # type: ignore[attr-defined]
    return list(found.values())


def _first_dimension(facts: Facts, value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The first size of `torch.<factory>(n, ...)` / `torch.<factory>((n, ...))`, through `nn.Parameter`."""
    if isinstance(value, cst.Call) and (facts.qualified_name(value.func) or "") in _PARAMETER and value.args:
        value = value.args[0].value
    if not (isinstance(value, cst.Call) and value.args and not value.args[0].star and not value.args[0].keyword):
        return None
    qualified = facts.qualified_name(value.func) or ""
    if not (qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1] in _FACTORIES and qualified.count(".") == 1):
        return None
    first = value.args[0].value
    if qualified == "torch.randint":
        return None  # `randint(low, high, size)`: the first arguments are values, not sizes
    if isinstance(first, (cst.Tuple, cst.List)):
        element = first.elements[0] if first.elements else None
        return element.value if isinstance(element, cst.Element) else None
    return None if qualified == "torch.full" else first


def _same_size(facts: Facts, init: cst.FunctionDef, first: cst.BaseExpression, size: str) -> bool:
    """`first` is `self.<size>`, or the `__init__` parameter `self.<size>` is bound to (neither rebound)."""
    if _is_self_attr(first, size):
        return True
    if not isinstance(first, cst.Name) or first.value not in param_names(init):
        return False
    if first.value in facts.names_written(init.body):
        return False  # `n = n * 2` before the table: another size
    return any(isinstance(n, cst.Assign) and len(n.targets) == 1 and _is_self_attr(n.targets[0].target, size)
               and isinstance(n.value, cst.Name) and n.value.value == first.value for n in facts.walk(init.body))
