"""Which loop a cell's profiling window follows, including loops of earlier cells' functions."""

from __future__ import annotations

from dynamic_helpers import compile_cell

from paef_jupyter.dynamic.window_loop import choose_loop
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.unit import parse_unit

REF = CellRef("In[5]", None, "c5")


def choose(text, namespace=None, ref_of=None):
    return choose_loop(parse_unit(SourceUnit(REF, text)), namespace, ref_of)


def test_innermost_training_loop():
    train = "for epoch in range(3):\n    for xb in loader:\n        loss = f(xb)\n        loss.backward()\n        opt.step()\n"
    target, extra = choose(train)
    assert (target.line, target.end_line, target.iterable, target.inner, target.nested) == (2, 5, "loader", None, True)
    assert extra == {}


def test_first_loop_with_its_innermost_as_fallback():
    plain = "x = 0\nfor epoch in range(3):\n    for b in batches:\n        x += b.sum().item()\n"
    target, _ = choose(plain)
    assert (target.line, target.inner.line, target.inner.iterable) == (2, 3, "batches")
    assert not target.nested and target.inner.nested


def test_no_loop_and_not_python():
    assert choose("x = 1\n") == (None, {})
    assert choose("%%bash\nfor i in 1 2; do :; done\n") == (None, {})


def test_a_cell_that_calls_an_earlier_cells_training_function_windows_its_loop():
    earlier = "import math\ndef train(model, loader):\n    for xb in loader:\n        loss = model(xb)\n        loss.backward()\n    return loss\n\ndef helper():\n    for i in range(3):\n        pass\n"
    name, code = compile_cell(earlier)
    namespace: dict = {}
    exec(code, namespace)
    target, extra = choose("loss = train(model, loader)\nprint(math.pi)\n", namespace)
    earlier_ref = CellRef(path=name)
    assert extra == {name: earlier_ref}
    assert (target.ref, target.line, target.end_line, target.iterable) == (earlier_ref, 3, 5, "loader")
    # With a map of cell files, the earlier cell's own ref is used.
    mapped = CellRef("In[2]")
    target, extra = choose("train(model, loader)\n", namespace, {name: mapped}.get)
    assert target.ref == mapped and extra == {name: mapped}


def test_library_functions_are_not_followed():
    import json

    assert choose("json.dumps({})\ndumps(1)\n", {"dumps": json.dumps}) == (None, {})


def test_the_window_knows_its_loops_iterable_to_size_itself():
    text = "x = 1\nfor i, b in enumerate(batches):\n    for j in range(3):\n        pass\nwhile x:\n    x = 0\n"
    target, _ = choose(text)
    assert (target.line, target.iterable, target.inner.line, target.inner.iterable) == (2, "enumerate(batches)", 3, "range(3)")
    target, _ = choose("while x:\n    for b in batches:\n        x = b\n")
    assert (target.line, target.iterable, target.inner.iterable) == (1, "", "batches")  # a while loop has none
