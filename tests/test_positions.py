"""`static.positions` gives every node libcst's `PositionProvider` range, on the repository's
own programs and on the layouts that move positions (CRLF, comments, blank tails, no newline)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from paef_jupyter.static.positions import Positions

ROOT = Path(__file__).resolve().parent.parent
# Every 7th program of the fixtures, the corpus and the red team: about 350 files of all shapes.
PROGRAMS = sorted([*ROOT.glob("tests/fixtures/rules/**/*.py"), *ROOT.glob("benchmarks/corpus/**/*.py"),
                   *ROOT.glob("benchmarks/redteam/*.py")])[::7]
LAYOUTS = [
    "",
    "\n",
    "x = 1",
    "x = 1\r\ny = 2\r\n",
    "x = 1\ry = 2\r",
    "if x:\n    pass\n# trailing comment\n",
    "'''doc\nstring'''\n",
    "x = (1 +\n  2)  # c\n\n\n",
    "@deco\nclass A(B, metaclass=M):\n\n    def f(self, *a, **k) -> int:\n        return [i for i in a if i]\n",
    "with open(p) as f, open(q) as g:\n    y = lambda z=1: z\nelse_ = {**d, 'k': [*xs]}\n",
    "try:\n    pass\nexcept (A, B) as e:\n    raise\nfinally:\n    del x\n",
    "match p:\n    case [1, *rest] if rest:\n        pass\n    case {'k': v}:\n        pass\n",
    "if x:\n\ty = f'{x!r:>{w}}'\n",
]


def _same(module: cst.Module) -> None:
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    got = Positions(module)
    assert set(got) == set(expected)
    assert len(got) == len(expected)
    assert all(got[node] == expected[node] for node in expected)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_programs(path: Path) -> None:
    _same(cst.parse_module(path.read_text()))


@pytest.mark.parametrize("text", LAYOUTS)
def test_layouts(text: str) -> None:
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        pytest.skip("not Python this libcst reads")
    _same(module)


def test_an_unknown_node_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        Positions(cst.parse_module("x = 1\n"))[cst.Name("x")]
