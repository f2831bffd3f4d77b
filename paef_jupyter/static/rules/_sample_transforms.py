"""Is a class a per-sample dataset transform?

A callable class (`__call__`) listed in a torchvision `Compose` runs once per sample only when
that `Compose` is the `transform=` of a dataset (directly, through a name, through a function
returning it, or as a dataset's own `self.transform`). The same `Compose` applied to a batch in
a training loop runs once per batch: there is nothing to report. So the evidence asked for is the
whole path from the construction to a `transform=` keyword, in this unit or in a unit that
imports it (a local module's `train_transform()` passed to a dataset in `data.py`).
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ..types import Kind

# Keywords a dataset applies to each sample it returns.
TRANSFORM_KEYWORDS = frozenset({"transform", "transforms", "target_transform"})


def fed_as_sample_transform(facts: Facts, cls: cst.ClassDef) -> bool:
    """`cls()` is built inside a torchvision `Compose` (or alone) that reaches a dataset's
    `transform=`; False whenever a step of that path is not seen."""
    for _, call in facts._constructions(cls.name.value):
        expr: cst.BaseExpression = call
        compose = _enclosing_compose(facts, call)
        if compose is not None:
            expr = compose
        if _reaches_transform(facts, expr):
            return True
    return False


def _enclosing_compose(facts: Facts, call: cst.Call) -> cst.Call | None:
    """The `transforms.Compose([...])` whose list holds `call` as an element."""
    element = facts.parent(call)
    seq = facts.parent(element) if isinstance(element, cst.Element) else None
    arg = facts.parent(seq) if isinstance(seq, (cst.List, cst.Tuple)) else None
    compose = facts.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(compose, cst.Call):
        return None
    qualified = facts.qualified_name(compose.func) or ""
    if qualified.startswith("torchvision.transforms") and qualified.endswith(".Compose"):
        return compose
    return None


def _reaches_transform(facts: Facts, expr: cst.BaseExpression) -> bool:
    parent = facts.parent(expr)
    if _is_transform_arg(parent):
        return True
    if isinstance(parent, cst.Return):
        func = facts.enclosing_function(parent)
        if isinstance(func, cst.FunctionDef) and facts.enclosing_class(func) is None:
            return any(_calls_fed(unit, func.name.value) for unit in (facts, *facts.callers))
        return False
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1:
        return False
    target = parent.targets[0].target
    if isinstance(target, cst.Name):
        return any(_is_transform_arg(facts.parent(use)) for use in facts.uses(target.value))
    if isinstance(target, cst.Attribute) and target.attr.value in TRANSFORM_KEYWORDS:
        owner = facts.enclosing_class(parent)
        return owner is not None and facts._kind_of_class(owner) is Kind.DATASET
    return False


def _calls_fed(unit: Facts, name: str) -> bool:
    """A call `name()` / `module.name()` in `unit` given as a `transform=` argument."""
    for node in unit.walk(unit.module):
        if not isinstance(node, cst.Call) or node.args:
            continue
        func = node.func
        called = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
        if called == name and _is_transform_arg(unit.parent(node)):
            return True
    return False


def _is_transform_arg(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value in TRANSFORM_KEYWORDS
