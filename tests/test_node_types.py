"""libcst's node classes answer `isinstance` / `issubclass` as before, through plain type checks."""

from __future__ import annotations

import abc

import libcst as cst

import paef_jupyter.static  # noqa: F401 - applies the plain checks
from paef_jupyter.static.annotated import Assign as AnnotatedAssign
from paef_jupyter.static.node_types import PlainChecks, use_plain_checks


def _node_classes() -> list[type]:
    out, stack = [], [cst.CSTNode]
    while stack:
        cls = stack.pop()
        if cls not in out:
            out.append(cls)
            stack.extend(cls.__subclasses__())
    return [c for c in out if c.__module__.startswith(("libcst", "paef_jupyter"))]  # not a test's own


def test_every_node_class_has_plain_checks() -> None:
    classes = _node_classes()
    assert len(classes) > 200
    assert all(type(c) is PlainChecks for c in classes), [c for c in classes if type(c) is not PlainChecks]


def test_answers_are_the_class_hierarchy() -> None:
    classes = _node_classes()
    for a in classes:
        for b in classes:
            assert issubclass(a, b) == (b in a.__mro__)
    name, call = cst.Name("x"), cst.Call(cst.Name("f"))
    assert isinstance(name, cst.Name) and isinstance(name, cst.BaseExpression) and isinstance(name, cst.CSTNode)
    assert not isinstance(name, cst.Attribute) and not isinstance(call, (cst.Name, cst.Attribute))
    assert isinstance(call, (cst.Name, cst.Call)) and not isinstance(3, cst.CSTNode)


def test_a_class_derived_later_inherits_them() -> None:
    assert type(AnnotatedAssign) is PlainChecks
    assert issubclass(AnnotatedAssign, cst.Assign) and not issubclass(cst.Assign, AnnotatedAssign)


def test_a_class_with_a_virtual_subclass_keeps_abc_checks() -> None:
    class Base(cst.CSTNode, abc.ABC):
        pass

    class Foreign:
        pass

    Base.__class__ = abc.ABCMeta  # as a class made before the checks were applied
    Base.register(Foreign)
    use_plain_checks()
    assert type(Base) is abc.ABCMeta and isinstance(Foreign(), Base)
