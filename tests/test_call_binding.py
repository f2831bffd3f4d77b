"""Which parameter an argument fills, and what a call passes for a parameter: one reading of
Python's binding rules (positional-only parameters, `self`, keywords, unpacking) that every rule
shares, so two rules never bind the same call differently."""
from __future__ import annotations

import libcst as cst
import pytest

from paef_jupyter.static.names import argument_bound_to, parameter_filled, positional_params


def _func(source: str) -> cst.FunctionDef:
    func = cst.parse_module(source).body[0]
    assert isinstance(func, cst.FunctionDef)
    return func


def _call(source: str) -> cst.Call:
    call = cst.parse_expression(source)
    assert isinstance(call, cst.Call)
    return call


def test_positional_params_keep_positional_only_ones_first() -> None:
    assert positional_params(_func("def f(a, b, /, c, *rest, d, **kw): pass")) == ["a", "b", "c"]
    assert positional_params(_func("def step(self, batch): pass")) == ["self", "batch"]


@pytest.mark.parametrize(("call", "filled"), [
    ("f(x, y, z)", ["a", "b", "c"]),
    ("f(x, c=z, b=y)", ["a", "c", "b"]),
    ("f(x, y, z, w)", ["a", "b", "c", None]),  # past the named ones: into `*rest`
    ("f(*xs, y)", [None, None]),  # an unpacked argument hides every place
    ("f(x, **kw)", [None, None]),
    ("f(x, d=y)", ["a", "d"]),
])
def test_parameter_filled(call: str, filled: list[str | None]) -> None:
    node = _call(call)
    params = positional_params(_func("def f(a, b, /, c, *rest, d=0): pass"))
    assert [parameter_filled(node, arg, params) for arg in node.args] == filled


@pytest.mark.parametrize(("call", "param", "given"), [
    ("f(x, y)", "b", "y"),
    ("f(x, b=y)", "b", "y"),
    ("f(x)", "b", None),  # nothing passed: the default applies
    ("f(*xs)", "a", None),
    ("f(x, **kw)", "b", None),
])
def test_argument_bound_to(call: str, param: str, given: str | None) -> None:
    found = argument_bound_to(_call(call), ["a", "b"], param)
    assert (cst.Module([]).code_for_node(found) if found is not None else None) == given


def test_a_method_called_on_its_object_binds_after_self() -> None:
    params = positional_params(_func("def step(self, batch, /, scale): pass"))[1:]
    call = _call("trainer.step(xb, 2.0)")
    assert [parameter_filled(call, arg, params) for arg in call.args] == ["batch", "scale"]
