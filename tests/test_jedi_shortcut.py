"""Questions whose answer jedi cannot change are answered without it, and agree with it.

A builtin the unit never binds (`len`, `range`) and a name bound only by a top-level `import`
are about half of the questions the rules ask jedi (measured over the corpus, the red team and
the rule fixtures: 2750 of 6027, none disagreeing). For a variable, also a name bound nowhere and
a name bound only by one undecorated top-level `def`/`class`; and, asked before jedi, a loop's
counter (`range`, `enumerate`) and a method's receiver. Anything that could give the name another
meaning sends the question to jedi as before.
"""

from __future__ import annotations

import libcst as cst
import pytest

from paef_jupyter.static.facts import Facts
from paef_jupyter.static.types import Kind, kind_of_jedi_type

SOURCE = '''import torch
import torch.nn as nn
import os.path
import numpy as np
from torch.utils.data import DataLoader


def steps(xs):
    total = 0
    for i in range(len(xs)):
        total += int(xs[i]) + float(i)
    print(total, list(xs), dict(a=1), sorted(xs), isinstance(xs, list), True)
    return torch.zeros(3), nn.Linear(2, 2), np.ones(2), os.path.join("a"), DataLoader


steps([1, 2])


class Box:
    def size(self, batches):
        for k, b in enumerate(batches):
            print(k, b, self, undefined_here, np.pi)
        return Box, steps


Box().size([1])
'''


def _facts(source: str, namespace: dict | None = None) -> Facts:
    return Facts(cst.parse_module(source), namespace)


def test_known_answers_agree_with_jedi_on_every_name():
    facts = _facts(SOURCE)
    names = [n for n in facts._order if isinstance(n, cst.Name)]
    answered = 0
    for name in names:
        known = facts._jedi_would_say(name.value, facts._variable(name))
        if known is None:
            continue
        answered += 1
        pos = facts.position(name).start
        assert known is kind_of_jedi_type(facts.jedi.type_name(pos.line, pos.column)), name.value
    assert answered >= 14


@pytest.mark.parametrize("name, line", [("i", 11), ("k", 22), ("self", 22)])
def test_loop_counters_and_receivers_agree_with_jedi(name: str, line: int):
    facts = _facts(SOURCE)
    read = next(n for n in facts.uses(name) if facts.position(n).start.line == line)
    pos = facts.position(read).start
    assert facts.kind(read) is kind_of_jedi_type(facts.jedi.type_name(pos.line, pos.column))


@pytest.mark.parametrize("name, kind", [
    ("len", Kind.UNKNOWN), ("range", Kind.UNKNOWN), ("print", Kind.UNKNOWN), ("int", Kind.NUMBER),
    ("float", Kind.NUMBER), ("list", Kind.LIST), ("dict", Kind.DICT), ("torch", Kind.UNKNOWN),
    ("nn", Kind.UNKNOWN), ("os", Kind.UNKNOWN), ("np", Kind.UNKNOWN),
])
def test_builtins_and_imported_modules_are_known(name: str, kind: Kind):
    assert _facts(SOURCE)._jedi_would_say(name, True) is kind


@pytest.mark.parametrize("name", ["Box", "steps", "undefined_here"])
def test_program_definitions_and_unbound_variables_are_known(name: str):
    facts = _facts(SOURCE)
    assert facts._jedi_would_say(name, True) is Kind.UNKNOWN
    assert facts._jedi_would_say(name, False) is None  # an attribute of that name: jedi decides


@pytest.mark.parametrize("source, name", [
    (SOURCE, "DataLoader"),  # a from-import: a class, a function or a module: jedi says
    (SOURCE, "True"),  # a constant, not a builtin type or function
    (SOURCE, "xs"),  # a parameter
    ("@torch.no_grad()\ndef f():\n    pass\nf()\n", "f"),  # a decorated function: what the decorator returns
    ("def f():\n    pass\nf = 3\n", "f"),  # also assigned
    ("def f():\n    pass\ndef f():\n    return 1\n", "f"),  # defined twice
    ("def g():\n    def f():\n        pass\n    return f\n", "f"),  # a function's own
    ("class C:\n    pass\ndef g(C):\n    return C\n", "C"),  # also a parameter
    ("def f(len):\n    return len\nprint(len([]))\n", "len"),  # a parameter elsewhere shadows it there
    ("print(len([]))\nlen = 3\n", "len"),  # rebound later in the unit
    ("class A:\n    range = 3\nfor i in range(2):\n    pass\n", "range"),  # bound in a class body
    ("def f():\n    global print\n    print = id\nprint(1)\n", "print"),
    ("print([len for len in 'ab'])\nlen('a')\n", "len"),  # a comprehension's variable
    ("from torch import *\nzeros(1)\nlen([])\n", "len"),  # a star import may bind anything
    ("import torch\ntorch = torch.nn\n", "torch"),  # imported, then rebound
    ("import torch as t\nimport numpy as t\n", "t"),  # two modules under one name
    ("import torch.optim.sgd as s\n", "s"),  # a module name jedi's kinds read as an optimizer
    ("def f():\n    import torch\n    return torch\n", "torch"),  # imported inside a function
    ("len([])\nnonlocal x\n", "len"),  # the compiler refuses the unit
])
def test_anything_that_may_give_a_name_another_meaning_asks_jedi(source: str, name: str):
    assert _facts(source)._jedi_would_say(name, True) is None


def test_a_name_of_the_kernel_namespace_asks_jedi():
    """jedi reads the namespace's prelude: `len` defined in an earlier cell is that value."""
    assert _facts("len([])\n", {"len": lambda x: 0})._jedi_would_say("len", True) is None
