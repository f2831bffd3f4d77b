"""Red team 49 (blind, 10 programs: 3 projects, 2 notebooks, aimed at Python control flow and scoping
that a rewrite's proof may read wrongly) met 9 automatic rewrites on first contact, 2 harmful:

- redundant-tensor hoisted `torch.full((6,), scale)` out of a loop whose `match` rebinds `scale` by a
  capture pattern (`case {"scale": scale, ...}`): the def-use analysis (`names.writes_of`) knew no
  pattern capture, nor the name of `except ... as err`. Probes (not blind) found the same through
  `case [first, *rest]` and `case Stage(width=width)`. Fixed by category: every capture of a pattern
  (`MatchAs`, `MatchStar`, a mapping's `**rest`) and a handler's `as` name are writes of that name.
- eval-without-no-grad wrapped a sanity-evaluation loop (run BEFORE training) that calls an
  `lru_cache`d feature function; training later reads the same cache entries and back-propagates
  through them into the backbone. Under no_grad the cache keeps tensors without a graph: the backbone
  never learns. A probe found the same through `functools.cache` on a method. Fixed by category: a loop
  calling, itself or through the functions it calls, a memoised function (`lru_cache`, `cache`,
  `cached_property`, a name bound to `lru_cache(...)(fn)`) is left to review.
"""

from __future__ import annotations

import libcst as cst
import pytest
from redteam_units import REDTEAM, program_units, rule_findings, source_units

from paef_jupyter.static.names import writes_of


def _findings(name: str, rule: str) -> dict[int, bool]:
    return {f.line: f.fixable for f in rule_findings(program_units(REDTEAM / name), rule)}


def _writes(code: str) -> set[str]:
    module = cst.parse_module(code)
    out: set[str] = set()

    class Visit(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            out.update(writes_of(node))
            return True

    module.visit(Visit())
    return out


@pytest.mark.parametrize("code, name", [
    ("match v:\n    case {'scale': scale}:\n        pass\n", "scale"),
    ("match v:\n    case [first, *rest]:\n        pass\n", "rest"),
    ("match v:\n    case [first, *rest]:\n        pass\n", "first"),
    ("match v:\n    case Stage(width=width):\n        pass\n", "width"),
    ("match v:\n    case {'kind': 'aug', **opts}:\n        pass\n", "opts"),
    ("match v:\n    case ('warm' | 'hot') as mode:\n        pass\n", "mode"),
    ("try:\n    pass\nexcept KeyError as label:\n    pass\n", "label"),
    ("try:\n    pass\nexcept* KeyError as group:\n    pass\n", "group"),
])
def test_pattern_and_handler_bindings_are_writes(code: str, name: str) -> None:
    assert name in _writes(code)


@pytest.mark.parametrize("code", [
    "match v:\n    case {'scale': 1.0}:\n        pass\n",  # a value pattern binds nothing
    "match v:\n    case [_, *_]:\n        pass\n",
    "match v:\n    case Stage.WIDE:\n        pass\n",
    "try:\n    pass\nexcept KeyError:\n    pass\n",
])
def test_patterns_without_captures_write_nothing(code: str) -> None:
    assert not (_writes(code) - {"_"})


def test_first_contact_match_capture_is_not_hoisted() -> None:
    found = _findings("rt49_rt_binding_forms.py", "redundant-tensor")
    assert 42 not in found  # `torch.full((6,), scale)`: the match rebinds `scale`
    assert found.get(65) is True and found.get(90) is True  # truly invariant factories: still hoisted


def test_probe_pattern_captures_are_not_hoisted() -> None:
    found = _findings("rt49p_rt_pattern_bindings.py", "redundant-tensor")
    assert not set(found) & {35, 36, 37, 38, 50}


def test_first_contact_memoised_features_go_to_review() -> None:
    assert _findings("rt49_ev_cached_features.py", "eval-without-no-grad") == {47: False}


def test_probe_cached_method_goes_to_review() -> None:
    assert _findings("rt49p_ev_cached_method.py", "eval-without-no-grad") == {37: False}


_HEAD = '''import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

data = [(torch.randn(4, 3), torch.randint(0, 2, (4,))) for _ in range(3)]
backbone = nn.Sequential(nn.Linear(3, 5), nn.Tanh())
head = nn.Linear(5, 2)
opt = torch.optim.SGD([*backbone.parameters(), *head.parameters()], lr=0.5)

'''
_TAIL = '''
head.eval()
hits = 0
for i in range(len(data)):
    hits += int((head(feats(i)).argmax(1) == data[i][1]).sum())
head.train()
for i, (_, y) in enumerate(data):
    loss = F.cross_entropy(head(backbone(data[i][0])), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
'''

FIRING = {
    "lru_cache_call": "@functools.lru_cache(maxsize=None)\ndef feats(i):\n    return backbone(data[i][0])\n",
    "lru_cache_bare": "@functools.lru_cache\ndef feats(i):\n    return backbone(data[i][0])\n",
    "cache": "@functools.cache\ndef feats(i):\n    return backbone(data[i][0])\n",
    "imported_name": "from functools import lru_cache\n\n\n@lru_cache(None)\ndef feats(i):\n    return backbone(data[i][0])\n",
    "through_helper": ("@functools.cache\ndef _memo(i):\n    return backbone(data[i][0])\n\n\n"
                       "def feats(i):\n    return _memo(i) * 1.0\n"),
    "bound_by_call": "def _raw(i):\n    return backbone(data[i][0])\n\n\nfeats = functools.lru_cache(maxsize=8)(_raw)\n",
}

SILENT = {
    "plain": "def feats(i):\n    return backbone(data[i][0])\n",
    "wraps_nothing_cached": "def feats(i):\n    return backbone(data[i][0]) * 2\n",
    "memo_unused_by_loop": ("@functools.lru_cache(maxsize=None)\ndef table(n):\n    return torch.arange(n)\n\n\n"
                            "t = table(3)\n\n\ndef feats(i):\n    return backbone(data[i][0])\n"),
    "memo_called_after_loop": ("@functools.cache\ndef summary(n):\n    return n * 2\n\n\n"
                               "def feats(i):\n    return backbone(data[i][0])\n"),
    "memo_in_a_function_the_loop_never_calls": (
        "@functools.cache\ndef _memo(i):\n    return backbone(data[i][0])\n\n\n"
        "def cached_feats(i):\n    return _memo(i)\n\n\ndef feats(i):\n    return backbone(data[i][0])\n"),
}


def _fixable(body: str, tail: str = _TAIL) -> list[bool]:
    return [f.fixable for f in rule_findings(source_units(_HEAD + body + tail), "eval-without-no-grad")]


@pytest.mark.parametrize("name", sorted(FIRING))
def test_memoised_callee_goes_to_review(name: str) -> None:
    assert _fixable(FIRING[name] + "\n\n") == [False]


@pytest.mark.parametrize("name", sorted(SILENT))
def test_no_memoised_callee_stays_automatic(name: str) -> None:
    tail = _TAIL + ("\nprint(summary(2))\n" if name == "memo_called_after_loop" else "")
    found = _fixable(SILENT[name] + "\n\n", tail)
    assert found and all(found), (name, found)
