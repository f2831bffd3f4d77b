"""Reads of a parametrized tensor: an attribute read that runs code.

After `torch.nn.utils.parametrize.register_parametrization(layer, "weight", p)` (and the
`torch.nn.utils.parametrizations` helpers built on it: `spectral_norm`, `weight_norm`,
`orthogonal`), `layer.weight` is a property: every read runs the parametrization's `forward`.
That may change state or draw random numbers: spectral norm's power iteration updates its `_u` /
`_v` vectors in place on each read in training mode; a DropConnect parametrization draws a fresh
mask on each read. A hoist that builds `torch.zeros_like(layer.weight)` (or a snapshot of
`layer.weight`) once before the loop runs that code once instead of once per iteration, so the
vectors, the random stream and every later value differ (red team 42: 3 harmful hoists of 5).

Which object a parametrization reaches is not followed here; the tensor's name is (a literal
name, `"weight"` by default for the `parametrizations` helpers; any name when it is computed).
A hoisted expression that reads an attribute of that name from an object that is not a plain
value (a module, an object of unknown type) is left for review, naming the read.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Iterable

import libcst as cst

from ..types import Kind
from ._tensor_facts import assigned_value, local_units

if TYPE_CHECKING:
    from ..facts import Facts

_REGISTER = "torch.nn.utils.parametrize.register_parametrization"
_HELPERS = "torch.nn.utils.parametrizations."
ANY = "*"  # the parametrized name is computed: every attribute read may run one
_DEPTH = 3  # program functions a hoisted call is followed into
# Kinds whose attributes are plain values: no parametrization is registered on them.
_PLAIN = frozenset({Kind.TENSOR, Kind.NDARRAY, Kind.NUMBER, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST,
                    Kind.DICT_OF_TENSOR, Kind.MODULE_OBJ, Kind.FUNCTION})
_NAMES: "weakref.WeakKeyDictionary[Facts, frozenset[str]]" = weakref.WeakKeyDictionary()


def parametrized_read(facts: Facts, nodes: Iterable[cst.CSTNode]) -> str:
    """Why hoisting `nodes` may change what reading a parametrized tensor does ('' if none of
    them reads an attribute the program parametrizes)."""
    names = _parametrized_names(facts)
    if not names:
        return ""
    for top in nodes:
        found = _first_read(facts, top, names, set(), _DEPTH)
        if found:
            return (f"{found}, a tensor the program parametrizes (`register_parametrization`, "
                    "`parametrizations.spectral_norm` ...): every read runs the parametrization, which may change "
                    "its state (spectral norm's power iteration) or draw random numbers; built once before the loop, "
                    "it would run once instead of on every iteration")
    return ""


def _first_read(facts: Facts, top: cst.CSTNode, names: frozenset[str], seen: set[int], depth: int) -> str:
    """Where `top` reads a parametrized name: directly, or in a function of the program it calls
    (`torch.zeros(weight_shape(enc))` with `def weight_shape(m): return m.weight.shape`), followed
    `depth` calls deep. In a called function the receiver's kind is not known: any read counts."""
    for node in facts.walk(top):
        read = _read_name(facts, node) if depth == _DEPTH else _any_read_name(node)
        if read is not None and (read in names or ANY in names):
            return f"`{facts.code(node)}` reads `{read}`"
    if depth == 0:
        return ""
    for call in facts.calls_in(top):
        for func in facts._callees(call):
            if id(func) in seen:
                continue
            seen.add(id(func))
            owner = facts.owner_of(func)
            found = _first_read(owner, func, names, seen, depth - 1)
            if found:
                return f"`{facts.code(call)}` calls `{func.name.value}`, which {found[found.index('reads'):]}"
    return ""


def _any_read_name(node: cst.CSTNode) -> str | None:
    """The attribute `node` reads, whatever its receiver (but a `parametrizations` container)."""
    if isinstance(node, cst.Attribute) and not _container(node):
        return node.attr.value
    return None


def _container(node: cst.Attribute) -> bool:
    """`layer.parametrizations.weight`: the list of parametrizations, a read that runs none."""
    return isinstance(node.value, cst.Attribute) and node.value.attr.value == "parametrizations"


def _read_name(facts: Facts, node: cst.CSTNode) -> str | None:
    """The attribute name `node` reads from an object that is not a plain value: `layer.weight`,
    `getattr(layer, "weight")` (a computed name reads as ANY)."""
    if isinstance(node, cst.Attribute):
        if facts.kind(node.value) in _PLAIN or _container(node):
            return None
        return node.attr.value
    if isinstance(node, cst.Call) and (facts.qualified_name(node.func) or "") == "builtins.getattr" \
            and len(node.args) >= 2 and facts.kind(node.args[0].value) not in _PLAIN:
        name = node.args[1].value
        return name.evaluated_value if isinstance(name, cst.SimpleString) and isinstance(name.evaluated_value, str) \
            else ANY
    return None


def _parametrized_names(facts: Facts) -> frozenset[str]:
    """The tensor names any unit of the program (this one, the earlier cells, the local modules
    it imports) registers a parametrization for."""
    found = _NAMES.get(facts)
    if found is None:
        names: set[str] = set()
        for unit in (facts, *facts.prior.units(), *(m for _, m in local_units(facts))):
            for call in unit.calls_in(unit.module):
                name = _registered_name(unit, call)
                if name is not None:
                    names.add(name)
        found = _NAMES[facts] = frozenset(names)
    return found


def _registered_name(facts: Facts, call: cst.Call) -> str | None:
    """The tensor name `call` parametrizes (ANY when computed), or None when it registers none.
    `register_parametrization(module, tensor_name, p)`; `spectral_norm(module, name="weight")`."""
    func: cst.BaseExpression = call.func
    qualified = facts.qualified_name(func) or ""
    if isinstance(func, cst.Name) and not qualified.startswith((_REGISTER, _HELPERS)):
        value = assigned_value(facts, func)  # `sn = spectral_norm`
        qualified = (facts.qualified_name(value) or "") if value is not None else qualified
    if qualified == _REGISTER:
        keyword, default = "tensor_name", None
    elif qualified.startswith(_HELPERS):
        keyword, default = "name", "weight"
    else:
        return None
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    named = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
    given = named if named is not None else positional[1] if len(positional) > 1 else None
    if given is None:
        return default if default is not None else ANY
    if isinstance(given, cst.SimpleString) and isinstance(given.evaluated_value, str):
        return given.evaluated_value
    return ANY
