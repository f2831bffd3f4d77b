"""Code that acts differently under `no_grad`, found wherever the model's code lives.

Wrapping an evaluation loop in `no_grad` keeps its meaning only if no code it reaches depends on
autograd recording. Red team 21 found such code the unit-local checks missed:

- layers with a grad-off fast path (attention and transformer layers, an LSTM on CPU: other
  numbers, zeros at padded positions) reached without a constructor call spelled `nn.X(...)`:
  imported from their defining module, subclassed, handed on as a value (`functools.partial`,
  an alias, a table of classes), or looked up on `torch.nn` by a name (`getattr(nn, ARCH)`);
- saved-tensor hooks (`torch.autograd.graph.saved_tensors_hooks`, `save_on_cpu`): autograd calls
  the pack hook only for tensors it saves for backward, so what it counts or moves changes;
- any of these, or a module hook, in a local module whose class the unit builds or whose helper
  it calls (`attach(model)` registering hooks), or in a local module that one imports in turn.

So the search covers every reference (not only calls), in every torch spelling, over the unit,
its earlier cells, the units of the classes they name and the local modules they import,
transitively.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from ..facts import Facts

# The classes themselves, by their last name; `torch.nn.` plus any of torch's submodules.
_FAST_PATH_CLASSES = frozenset({
    "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
    "TransformerDecoder", "Transformer", "LSTM",
})
# Builtins that look a class up on a module by a name.
_LOOKUPS = frozenset({"builtins.getattr", "builtins.vars"})
# Context managers whose pack hook runs only for tensors autograd saves.
_SAVED_TENSOR_HOOKS = frozenset({"torch.autograd.graph.saved_tensors_hooks", "torch.autograd.graph.save_on_cpu"})


def fast_path_class(qualified: str) -> str | None:
    """`TransformerEncoderLayer` for `torch.nn.TransformerEncoderLayer`,
    `torch.nn.modules.transformer.TransformerEncoderLayer` or `torch.nn.modules.TransformerEncoderLayer`
    (None for any other name)."""
    head, _, last = qualified.rpartition(".")
    if last not in _FAST_PATH_CLASSES or not (head == "torch.nn" or head.startswith("torch.nn.modules")):
        return None
    return last


def references(facts: Facts) -> Iterator[cst.BaseExpression]:
    """Every name or outermost dotted name of the unit (a call's callee, a base class, an argument,
    a value stored in a table); not the attribute part of `x.attr`."""
    inner: set[int] = set()
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Attribute):
            if id(node) not in inner:
                yield node
            inner.update((id(node.value), id(node.attr)))
        elif isinstance(node, cst.Name) and id(node) not in inner:
            yield node


def reached_units(facts: Facts) -> list[Facts]:
    """This unit, its earlier cells, the units defining the classes any of them names, and the
    local modules any of them imports (whole or a member: a helper function `attach(model)` that
    registers hooks, top-level code run at import), transitively."""
    found = {id(facts): facts}
    for unit in facts.prior.units():
        found.setdefault(id(unit), unit)
    todo = list(found.values())
    while todo:
        unit = todo.pop()
        more = [cls[0] for ref in references(unit) if (cls := unit.class_named(ref)) is not None]
        if unit.imports is not None:
            more += [m for target in set(unit.aliases.values()) if (m := unit.imports.module_of(target)) is not None]
        for other in more:
            if id(other) not in found:
                found[id(other)] = other
                todo.append(other)
    return list(found.values())


def _torch_nn(qualified: str) -> bool:
    return qualified == "torch.nn" or qualified.startswith("torch.nn.modules")


def _looked_up(unit: Facts, call: cst.Call) -> str | None:
    """What a lookup on `torch.nn` by name may give of the fast-path classes (red team 21's
    `getattr(nn, ARCH)` of a config-driven builder): the class a literal names, else the call
    itself (it may be any class); None for other calls and for literal names of other classes."""
    func = unit.qualified_name(call.func)
    if func not in _LOOKUPS or not call.args or not _torch_nn(unit.qualified_name(call.args[0].value) or ""):
        return None
    if func == "builtins.getattr" and len(call.args) >= 2 and isinstance(call.args[1].value, cst.SimpleString):
        name = call.args[1].value.evaluated_value
        return name if name in _FAST_PATH_CLASSES else None
    return unit.code(call)


def fast_path_classes(units: list[Facts]) -> set[str]:
    """The fast-path classes these units name anywhere, and the lookups on `torch.nn` by a name
    that may be one (`getattr(nn, ARCH)`, `vars(nn)[...]`, `nn.__dict__[...]`)."""
    used: set[str] = set()
    for unit in units:
        for ref in references(unit):
            qualified = unit.qualified_name(ref) or ""
            if (found := fast_path_class(qualified)) is not None:
                used.add(found)
            elif qualified.endswith(".__dict__") and _torch_nn(qualified[:-len(".__dict__")]):
                used.add(unit.code(ref))
        used |= {found for call in unit.calls_in(unit.module) if (found := _looked_up(unit, call)) is not None}
    return used


def saved_tensor_hooks(units: list[Facts]) -> tuple[Facts, cst.BaseExpression] | None:
    """The first reference to a saved-tensor hooks manager in these units (None if none)."""
    for unit in units:
        for ref in references(unit):
            if (unit.qualified_name(ref) or "") in _SAVED_TENSOR_HOOKS:
                return unit, ref
    return None
