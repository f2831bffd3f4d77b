"""Batch objects that pinning rebuilds or hands to the program's code.

`pin_memory=True` runs `torch.utils.data._utils.pin_memory.pin_memory` on every batch, which does
not only copy tensors: it rebuilds a tuple subclass as `type(batch)(<generator>)`, copies a mapping
or list and writes the pinned items into the copy, and calls an object's own `pin_memory()`. A
batch of a class the program defines (a tuple subclass whose `__new__` takes named fields, a dict
subclass with its own `copy`, a record with a `pin_memory` method) then reaches the loop as
another object or not at all (red team 35: `type(data)(gen)` raises `TypeError` on a
`PaddedBatch(tuple)`). Only on a machine with a GPU: the loader pins only where one is present.

The proof is a closed world over the program (the unit, its earlier cells, the local modules they
reach): no class defines `pin_memory`, `__getattr__` or `__getattribute__` (by `def` or by
assignment: red team 47's `__getattr__ = dict.__getitem__` raised KeyError out of pinning's
`hasattr`) or derives (directly or through the program's classes) from a tuple or an immutable
mapping/sequence; a dict or list subclass (copied, then filled) and a
named tuple (rebuilt field by field) count only when they change how they copy or take items.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts

# How `pin_memory` treats an instance of a subclass: a tuple or an immutable mapping/sequence is
# rebuilt as `type(batch)(items)` (its own attributes lost, its `__new__`/`__init__` given one
# iterable); a mutable mapping or list is copied (`copy.copy`) and the pinned items written into the
# copy, which keeps the object unless the class changes how it copies or takes items; a named tuple
# is rebuilt field by field.
_REBUILT = frozenset({
    "builtins.tuple", "collections.abc.Mapping", "collections.abc.Sequence", "typing.Mapping", "typing.Sequence",
    "typing.Tuple",
})
_COPIED = frozenset({
    "builtins.list", "builtins.dict", "collections.OrderedDict", "collections.defaultdict", "collections.UserDict",
    "collections.UserList", "collections.abc.MutableMapping", "collections.abc.MutableSequence", "typing.Dict",
    "typing.List", "typing.MutableMapping", "typing.MutableSequence",
})
_NAMED = frozenset({"typing.NamedTuple", "collections.namedtuple"})
# Methods by which a copied container or a named tuple makes the pinned batch another object.
_COPY_HOOKS = frozenset({"__copy__", "__reduce__", "__reduce_ex__", "__setitem__", "update", "__new__"})


def rebuilt_batch_class(units: list[Facts]) -> str | None:
    """The first class of `units` whose instances pinning would rebuild otherwise or hand to
    their own `pin_memory()`; None if none."""
    classes = [(unit, node) for unit in units for node in unit.walk(unit.module) if isinstance(node, cst.ClassDef)]
    kinds: dict[str, str] = {}  # program class -> "rebuilt" / "copied" / "named" / "changed"
    changed = True
    while changed:  # `class Padded(Batch)` of a `class Batch(tuple)`: a fixpoint over names
        changed = False
        for unit, cls in classes:
            kind = _kind(unit, cls, kinds)
            if kind is not None and kinds.get(cls.name.value) != kind:
                kinds[cls.name.value] = kind
                changed = True
    return next((cls.name.value for _, cls in classes if kinds.get(cls.name.value) in ("rebuilt", "changed")), None)


# Attribute lookup of the class's own: pinning asks `hasattr(batch, "pin_memory")` of ANY batch, which
# runs them; `__getattr__ = dict.__getitem__` (an attribute dict) raises KeyError out of `hasattr`,
# one answering every name hands `pin_memory()` something else to call (red team 47).
_LOOKUP_HOOKS = frozenset({"__getattr__", "__getattribute__"})


def _kind(unit: Facts, cls: cst.ClassDef, kinds: dict[str, str]) -> str | None:
    methods = {s.name.value for s in cls.body.body if isinstance(s, cst.FunctionDef)} | _bound_in_class(cls)
    if "pin_memory" in methods or methods & _LOOKUP_HOOKS:
        return "changed"
    found: str | None = None
    for arg in cls.bases:
        base = arg.value
        target = base.func if isinstance(base, cst.Call) else base  # `namedtuple("B", "x y")`
        qualified = unit.qualified_name(target) or "" if isinstance(target, (cst.Name, cst.Attribute)) else ""
        kind = ("rebuilt" if qualified in _REBUILT else "copied" if qualified in _COPIED
                else "named" if qualified in _NAMED else kinds.get(_name(target)))
        if kind in ("rebuilt", "changed"):
            return kind
        found = found or kind
    return "changed" if found is not None and methods & _COPY_HOOKS else found


def _bound_in_class(cls: cst.ClassDef) -> set[str]:
    """Names the class body binds by assignment (`__getattr__ = dict.__getitem__`, `update = merge`):
    methods as much as a `def` (red team 47's attribute-dict batch)."""
    found: set[str] = set()
    for stmt in cls.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) \
                else [small.target] if isinstance(small, cst.AnnAssign) and small.value is not None else []
            found |= {t.value for t in targets if isinstance(t, cst.Name)}
    return found


def _name(base: cst.BaseExpression) -> str:
    return base.value if isinstance(base, cst.Name) else base.attr.value if isinstance(base, cst.Attribute) else ""
