"""A re-run cell reuses its analysis only when the analysis could not tell the runs apart."""

from __future__ import annotations

import linecache
from collections import deque
from typing import Any

import pytest
import torch

from paef_jupyter import cell_cache
from paef_jupyter.api import analyze_source
from paef_jupyter.cell_cache import cached_analysis, cached_loop, namespace_fingerprint
from paef_jupyter.dynamic.window_loop import choose_loop
from paef_jupyter.model import CellRef, Report, SourceUnit
from paef_jupyter.static.unit import ParsedUnit, parse_unit

PING_PONG = "%%paef\nimport torch\nout = []\nfor i in range(2):\n    t = torch.tensor(h.tolist())\n    out.append(t)\n"
DICT_LOOP = "%%paef\nimport torch\nfor i in range(0, 4, 2):\n    xb = torch.tensor(data['x'][i : i + 2])\n"
CPU_LOOP = "%%paef\nimport torch\nfor step in range(3):\n    feats = prep(raw)\n    x = torch.as_tensor(feats)\n"


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cell_cache, "_reports", cell_cache._Cache())
    monkeypatch.setattr(cell_cache, "_loops", cell_cache._Cache())


def analysed(text: str, ref: CellRef, ns: dict, calls: list[int]) -> Report:
    def analyse() -> Report:
        calls.append(1)
        return analyze_source(text, ref, namespace=ns)

    return cached_analysis(text, ref, ns, None, analyse)


def test_a_rerun_reuses_the_report_under_this_runs_cell_reference() -> None:
    calls: list[int] = []
    first = analysed(PING_PONG, CellRef("In[3]", cell_id="c1"), {"h": torch.arange(4.0), "torch": torch}, calls)
    ref = CellRef("In[4]", cell_id="c1")
    ns = {"h": torch.arange(4.0) + 1, "torch": torch}  # new objects, the same to the analysis
    again = analysed(PING_PONG, ref, ns, calls)
    assert calls == [1] and first.findings
    assert again == analyze_source(PING_PONG, ref, namespace=ns)
    assert {f.ref for f in again.findings} == {ref} and again.sources[0].ref == ref


def _prep_a(raw):  # type: ignore[no-untyped-def]
    return raw * 2


def _prep_b(raw):  # type: ignore[no-untyped-def]
    return torch.as_tensor(raw) * 2


@pytest.mark.parametrize(
    ("text", "before", "after"),
    [
        # a column that turns mixed in its middle: the rewrite would change its dtype
        (DICT_LOOP, {"data": {"x": [0.5, 1.5, 2.5, 3.5]}}, {"data": {"x": [0.5, 1.5, 2, 3.5]}}),
        (DICT_LOOP, {"data": {"x": [0.5, 1.5, 2.5, 3.5]}}, {"data": {"x": torch.arange(4.0)}}),
        (PING_PONG, {"h": torch.arange(4.0)}, {"h": torch.arange(4.0, dtype=torch.float64)}),
        (PING_PONG, {"h": torch.arange(4.0)}, {"h": torch.arange(4, dtype=torch.int32)}),
        (CPU_LOOP, {"prep": _prep_a, "raw": [1.0, 2.0]}, {"prep": _prep_b, "raw": [1.0, 2.0]}),
    ],
)
def test_a_namespace_the_analysis_reads_differently_is_analysed_again(text: str, before: dict, after: dict) -> None:
    ref = CellRef("In[5]")
    assert analyze_source(text, ref, namespace=before) != analyze_source(text, ref, namespace=after)  # it matters
    calls: list[int] = []
    analysed(text, ref, before, calls)
    assert analysed(text, ref, after, calls) == analyze_source(text, ref, namespace=after) and calls == [1, 1]


def test_a_list_that_grows_by_one_more_float_keeps_its_fingerprint() -> None:
    assert namespace_fingerprint({"losses": [0.3, 0.2]}, "") == namespace_fingerprint({"losses": [0.3, 0.2, 0.1]}, "")
    assert namespace_fingerprint({"losses": [0.3, 0.2]}, "") != namespace_fingerprint({"losses": [0.3, 2]}, "")
    assert namespace_fingerprint({"d": deque([1.0])}, "") != namespace_fingerprint({"d": [1.0]}, "")


FLOAT_COLUMNS: list[Any] = [
    [], [0.5], [0.5] * 512, (0.5, 1.5), deque([0.5, 2.5]), [0.5, 2], [0.5, True], [[0.5, 1.5], [2.5]],
    [0.5, float("nan")], {"w": [1.0, 2.0]}, [0.5, __import__("numpy").float64(1.0)],
    __import__("collections").namedtuple("P", "a b")(0.5, 1.5),
]


@pytest.mark.parametrize("value", FLOAT_COLUMNS, ids=range(len(FLOAT_COLUMNS)))
def test_a_column_of_floats_has_the_fingerprint_its_items_fold_to(value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut for a column of plain floats gives what visiting every item gives."""
    fast = namespace_fingerprint({"col": value}, "")
    monkeypatch.setattr(cell_cache, "_all_floats", lambda items: False)
    assert fast == namespace_fingerprint({"col": value}, "")


def test_a_column_of_floats_is_not_visited_item_by_item_and_still_counts_against_the_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    visited: list[Any] = []
    summary = cell_cache._summary
    monkeypatch.setattr(cell_cache, "_summary", lambda v, d, b: visited.append(v) or summary(v, d, b))
    weights = [1.0 / (i + 1) for i in range(512)]
    assert namespace_fingerprint({"weights": weights}, "") == (("weights", (list, (float,))),)
    assert visited == [weights]
    assert namespace_fingerprint({"weights": [0.5] * cell_cache.MAX_NODES}, "") is None


def test_ipython_history_names_count_only_when_the_cell_names_them_or_they_hold_a_tensor() -> None:
    one: dict[str, Any] = {"_": 1, "_i3": "x = 1", "_3": [1], "Out": {3: [1]}}
    two: dict[str, Any] = {"_": 2, "_i3": "x = 2", "_3": [2], "Out": {3: [2]}}
    assert namespace_fingerprint(one, "y = 1") == namespace_fingerprint(two, "y = 1")
    assert namespace_fingerprint(one, "y = _3") != namespace_fingerprint(two, "y = _3")
    assert namespace_fingerprint({"_": torch.zeros(1)}, "") != namespace_fingerprint({"_": 1}, "")
    assert namespace_fingerprint({"_": torch.zeros(1)}, "") != namespace_fingerprint({"_": torch.zeros(1, dtype=torch.int8)}, "")


def test_a_namespace_too_large_to_fingerprint_is_analysed_every_time() -> None:
    ns = {"labels": list(range(cell_cache.MAX_NODES + 1))}
    assert namespace_fingerprint(ns, "") is None
    calls: list[int] = []
    analysed(DICT_LOOP, CellRef("In[1]"), ns, calls)
    analysed(DICT_LOOP, CellRef("In[1]"), ns, calls)
    assert calls == [1, 1]


def test_contents_out_of_reach_are_not_cached() -> None:
    deep: Any = [1.0]
    for _ in range(cell_cache.DEPTH + 1):
        deep = [deep]
    assert namespace_fingerprint({"deep": deep}, "") is None

    class Wide:
        pass

    wide = Wide()
    for i in range(cell_cache.ATTRIBUTES + 1):
        setattr(wide, f"a{i}", i)
    assert namespace_fingerprint({"wide": wide}, "") is None


def test_a_modules_mode_parameters_and_parts_count() -> None:
    def fingerprint(module: torch.nn.Module) -> Any:
        return namespace_fingerprint({"model": module}, "")

    base = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    assert fingerprint(base) == fingerprint(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()))
    assert fingerprint(base) != fingerprint(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.GELU()))
    assert fingerprint(base) != fingerprint(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()).double())
    assert fingerprint(base) != fingerprint(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()).eval())


def _parsed(text: str, ref: CellRef) -> ParsedUnit:
    return parse_unit(SourceUnit(ref, text))


def test_a_cells_own_loop_is_chosen_once_per_text() -> None:
    text = "%%paef\nfor e in range(2):\n    for b in range(3):\n        pass\n"
    calls: list[int] = []

    def choose(ref: CellRef) -> Any:
        return cached_loop(text, ref, lambda: (calls.append(1), choose_loop(_parsed(text, ref)))[1])

    first, _ = choose(CellRef("In[1]", cell_id="c"))
    again, extra = choose(CellRef("In[2]", cell_id="c"))
    assert calls == [1] and extra == {}
    assert again == choose_loop(_parsed(text, CellRef("In[2]", cell_id="c")))[0] and again.inner.ref.path == "In[2]"


def test_a_loop_found_through_a_namespace_function_is_chosen_every_run() -> None:
    ns: dict = {}
    source = "def train():\n    for step in range(3):\n        pass\n"
    linecache.cache["<earlier-cell>"] = (len(source), None, source.splitlines(True), "<earlier-cell>")  # as IPython keeps cells
    exec(compile(source, "<earlier-cell>", "exec"), ns)
    earlier = CellRef("In[1]")
    text = "%%paef\ntrain()\n"
    calls: list[int] = []
    for n in (2, 3):
        ref = CellRef(f"In[{n}]")
        target, _ = cached_loop(text, ref, lambda: (calls.append(1), choose_loop(
            _parsed(text, ref), ns, lambda f: earlier if f == "<earlier-cell>" else None))[1])
        assert target is not None and target.ref == earlier
    assert calls == [1, 1]


def test_a_forgotten_cell_is_analysed_again_and_other_cells_stay() -> None:
    """A first cell analysed before jedi was warm is forgotten: its next run gets the full
    analysis, and what is remembered of other cells stays."""
    calls: list[int] = []
    ns = {"h": torch.arange(4.0), "torch": torch}
    ref = CellRef("In[3]")
    analysed(PING_PONG, ref, ns, calls)
    analysed(DICT_LOOP, ref, {"data": {"x": [[1.0]] * 4}, "torch": torch}, calls)
    chosen: list[int] = []

    def choose() -> tuple[Any, dict]:
        chosen.append(1)
        return choose_loop(parse_unit(SourceUnit(ref, PING_PONG)))

    cached_loop(PING_PONG, ref, choose)
    cell_cache.forget(PING_PONG)
    analysed(PING_PONG, ref, ns, calls)
    analysed(DICT_LOOP, ref, {"data": {"x": [[1.0]] * 4}, "torch": torch}, calls)
    cached_loop(PING_PONG, ref, choose)
    assert len(calls) == 3 and len(chosen) == 2
