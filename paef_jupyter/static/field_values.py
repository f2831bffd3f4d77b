"""Whether an attribute read of an object of unknown kind hands back a copy or a shared object.

`ema = state.ema` before a loop binds `ema` to the very object `state.ema` holds. When that is a
number or a string, nothing done to `state` later changes what `ema` names; when it is an array,
a tensor, a list, a dict or a program object, `state.ema *= 0.5` (or `tracker.update(v)`, or a
helper handed `state`) changes it through everyone who holds it. A read is a copy only when the
unit proves the field immutable: every store and declaration of that attribute name puts a
number, string, `True`/`False`/`None` there, and at least one exists. The class of the object is
not known, so every store of the attribute name counts, whatever the receiver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from .facts import Facts

# Annotations of a field whose value Python never changes in place.
_IMMUTABLE_TYPES = frozenset({"int", "float", "str", "bool", "complex", "bytes"})
# Number-valued builtins: their result is a new immutable value.
_NUMBER_CALLS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.str", "builtins.len",
                           "builtins.round", "builtins.abs", "math.sqrt", "math.log", "math.exp", "math.ceil",
                           "math.floor"})


def immutable_field(facts: Facts, read: cst.Attribute) -> bool:
    """`read` (`cfg.lr`, `self.count`) holds a number or a string by every store of its attribute
    name in the unit (`x.lr = 0.1`, `x.count += 1`, a class field `lr: float = 0.1`, a keyword
    `Config(lr=0.1)`), and none stores below it, calls a method of it or sets it by `setattr`."""
    attr = read.attr.value
    found = _torch_dtype(facts, read)  # `half = torch.float64`: a dtype, unless the program stores over it
    for node in facts.walk(facts.module):
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
            verdict = _store_verdict(facts, node, attr)
            if verdict is False:
                return False
            found = found or verdict is True
        elif isinstance(node, cst.Call):
            if not _call_leaves_field(facts, node, attr):
                return False
            if any(a.keyword is not None and a.keyword.value == attr for a in node.args):
                found = True
    return found


# torch's dtype objects: singletons with read-only attributes, which nothing changes in place.
_TORCH_DTYPES = frozenset(f"torch.{n}" for n in (
    "float32", "float", "float64", "double", "float16", "half", "bfloat16", "int64", "long", "int32", "int", "int16",
    "short", "int8", "uint8", "bool", "complex64", "cfloat", "complex128", "cdouble", "complex32", "chalf"))


def _torch_dtype(facts: Facts, read: cst.Attribute) -> bool:
    """`read` is `torch.float64` (or an alias of torch's module: `th.long`): a dtype, not a field
    of a program object (fix49: `half = torch.float64` was taken for a shared view of `torch`,
    which cost red team `ctm_cases:11` its invariant hoist of `torch.ones(3).to(half)`)."""
    return (facts.qualified_name(read) or "") in _TORCH_DTYPES


def _store_verdict(facts: Facts, node: cst.AssignTarget | cst.AugAssign | cst.AnnAssign, attr: str) -> bool | None:
    """True: a store of `attr` putting an immutable value; False: one that may not (or a store
    below it, `x.attr[k] = v`); None: no store of `attr`."""
    target = node.target
    below = False
    while isinstance(target, (cst.Subscript, cst.Attribute)):
        if isinstance(target, cst.Attribute) and target.attr.value == attr:
            break
        below = True
        target = target.value
    else:
        if isinstance(target, cst.Name) and target.value == attr and _class_field(facts, node):
            return _declared_immutable(facts, node)
        return None
    if below:
        return False  # `x.attr[k] = v`, `x.attr.y = v`: a container or an object
    if isinstance(node, cst.AugAssign):
        return immutable_value(facts, node.value)
    if isinstance(node, cst.AnnAssign):
        return _declared_immutable(facts, node)
    return immutable_value(facts, facts.parent(node).value)  # type: ignore[union-attr]


def _class_field(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` is a statement of a class body (a dataclass field, a class attribute)."""
    stmt = facts.parent(node)
    if isinstance(node, cst.AssignTarget):
        stmt = facts.parent(stmt)
    block = facts.parent(stmt) if stmt is not None else None
    return isinstance(facts.parent(block), cst.ClassDef) if block is not None else False


def _declared_immutable(facts: Facts, node: cst.AssignTarget | cst.AugAssign | cst.AnnAssign) -> bool:
    """A field annotated `int`/`float`/`str`/`bool` (its value, if any, immutable too), or assigned
    an immutable value without annotation."""
    if isinstance(node, cst.AnnAssign):
        annotation = node.annotation.annotation
        if not (isinstance(annotation, cst.Name) and annotation.value in _IMMUTABLE_TYPES):
            return False
        return node.value is None or immutable_value(facts, node.value)
    value = node.value if isinstance(node, cst.AugAssign) else facts.parent(node).value  # type: ignore[union-attr]
    return immutable_value(facts, value)


def _call_leaves_field(facts: Facts, call: cst.Call, attr: str) -> bool:
    """The call neither sets `attr` by name (`setattr(x, "attr", v)`, a keyword `attr=v` with a
    value not proven immutable: `SimpleNamespace(attr=arr)`) nor calls a method of `x.attr`."""
    func = call.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute) and func.value.attr.value == attr:
        return False  # `x.attr.append(v)`: a container
    qualified = facts.qualified_name(func) or ""
    if qualified == "builtins.setattr":
        return False
    if qualified.startswith(("torch.", "numpy.")):
        return True  # `SGD(params, lr=cfg.lr)`: a library's option, no field of the program's objects
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == attr and not immutable_value(facts, arg.value):
            return False
        if arg.star == "**":
            return False  # `Config(**values)`: any field, any value
    return True


def immutable_value(facts: Facts, value: cst.BaseExpression | None, depth: int = 0) -> bool:
    """A constant, a number-valued builtin's result, arithmetic or a choice between such values."""
    if value is None or depth > 4:
        return False
    if facts._immutable(value):
        return True
    if isinstance(value, cst.UnaryOperation):
        return immutable_value(facts, value.expression, depth + 1)
    if isinstance(value, cst.BinaryOperation):
        return immutable_value(facts, value.left, depth + 1) and immutable_value(facts, value.right, depth + 1)
    if isinstance(value, cst.IfExp):
        return immutable_value(facts, value.body, depth + 1) and immutable_value(facts, value.orelse, depth + 1)
    if isinstance(value, cst.Call):
        return (facts.qualified_name(value.func) or "") in _NUMBER_CALLS
    return False
