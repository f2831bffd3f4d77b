"""Red team 55 (blind, 10 programs: 3 projects, 2 notebooks, aimed at graphs, sparse tensors, ragged
batches, recommendation and replay) met 5 automatic rewrites on first contact, 1 harmful: list-to-tensor
stacked a list of Python ints (`sizes.append(n)` for `k, (edges, n) in enumerate(batch)`), which raises.

The fact the analysis lacked: jedi's answer for a name unpacked from a tuple that passed through a
typeshed generic (`enumerate`, `list`, `sorted`, `iter`, `next`, `list.pop`) is the type of the tuple's
FIRST element, for every position. `Facts._collapsed_unpack` refuses jedi's kind for a later position when
it equals the first name's (a homogeneous tuple looks the same: no evidence either way).

The other tests pin what held where the programs aimed: hoisted index tensors the loop changes in place,
snapshots of rows overwritten later, evaluation loops that need autograd.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units

_HEAD = """import random
import torch

device = 'cuda' if torch.cuda.is_available() else 'cpu'
items = [(torch.randn(3, device=device), random.randint(1, 9)) for _ in range(8)]
mixed = [(random.randint(1, 9), torch.randn(3, device=device)) for _ in range(8)]
"""

# A Python int unpacked beside a tensor, through a generic: never rebuilt with `torch.stack`.
_PYTHON_NUMBERS = {
    "enumerate_nested": "vals = []\nfor k, (t, n) in enumerate(items):\n    vals.append(n)\nout = torch.tensor(vals)\n",
    "list_call": "vals = []\nfor t, n in list(items):\n    vals.append(n)\nout = torch.tensor(vals)\n",
    "sorted_call": "vals = []\nfor t, n in sorted(items, key=lambda r: r[1]):\n    vals.append(n)\nout = torch.tensor(vals)\n",
    "popped": "vals = []\npool = list(items)\nwhile pool:\n    t, n = pool.pop()\n    vals.append(n)\n"
              "out = torch.tensor(vals)\n",
    "pair_unpacked_later": "vals = []\nfor k, pair in enumerate(items):\n    t, n = pair\n    vals.append(n)\n"
                           "out = torch.tensor(vals)\n",
    "next_of_iter": "vals = []\nfor _ in range(3):\n    t, n = next(iter(items))\n    vals.append(n)\nout = torch.tensor(vals)\n",
}

# Near misses: a tensor in the first position (jedi is right there), or a tuple jedi reads position by
# position (iterated directly), keep their automatic rewrite.
_TENSORS = {
    "first_position_through_enumerate": "vals = []\nfor k, (t, n) in enumerate(items):\n    vals.append(t.norm().item())\n"
                                        "out = torch.tensor(vals)\n",
    "second_position_iterated_directly": "vals = []\nfor n, t in mixed:\n    vals.append(t.norm().item())\n"
                                         "out = torch.tensor(vals)\n",
}


@pytest.mark.parametrize("body", list(_PYTHON_NUMBERS.values()), ids=list(_PYTHON_NUMBERS))
def test_a_python_number_unpacked_beside_a_tensor_is_not_stacked(body: str) -> None:
    found = rule_findings(source_units(_HEAD + body), "list-to-tensor")
    assert not automatic_fixes(found)


@pytest.mark.parametrize("body", list(_TENSORS.values()), ids=list(_TENSORS))
def test_a_tensor_read_where_jedi_answers_position_by_position_is_still_rebuilt(body: str) -> None:
    found = rule_findings(source_units(_HEAD + body), "list-to-tensor")
    assert len(automatic_fixes(found)) == 1


def _fixable(name: str, rule: str) -> dict[int, bool]:
    return {f.line: f.fixable for f in rule_findings(program_units(REDTEAM / name), rule)}


def test_the_graph_batching_sizes_are_left_as_python_ints() -> None:
    """First contact's harmful rewrite: `sizes.append(n)` in `pack` (line 33) was stacked. The per-graph
    predictions read with `.item()` from a row of a buffer written later (line 110) stay automatic:
    `argmax` makes a new tensor, and the rewrite copies it anyway."""
    found = _fixable("rt55_lt_graph_batching.py", "list-to-tensor")
    assert not found.get(33)
    assert found.get(110) is True


def test_the_probe_lists_of_unpacked_numbers_are_not_stacked() -> None:
    assert not any(_fixable("rt55p_lt_unpacked_kinds.py", "list-to-tensor").values())


def test_index_tensors_changed_in_place_are_not_hoisted() -> None:
    """Masks and index tensors built in the loop and changed through a NumPy view, `index_fill_`,
    `masked_fill_`, an `out=` sort, a helper, a `view(-1).scatter_`, a dict entry: none is hoisted."""
    assert not any(_fixable("rt55p_rt_index_hoists.py", "redundant-tensor").values())
    assert not any(_fixable("rt55_rt_bpr_negatives.py", "redundant-tensor").get(line) for line in (89,))


def test_the_ragged_slot_index_reset_per_batch_is_not_hoisted() -> None:
    units = program_units(REDTEAM / "rt55_nb_ragged_sets.ipynb")
    assert not automatic_fixes(rule_findings(units, "redundant-tensor"))


def test_evaluation_loops_that_need_autograd_are_not_wrapped() -> None:
    assert not any(_fixable("rt55p_ev_eval_moves_embeddings.py", "eval-without-no-grad").values())
    units = program_units(REDTEAM / "rt55_nb_ragged_sets.ipynb")
    assert not automatic_fixes(rule_findings(units, "eval-without-no-grad"))


def test_index_round_trips_keep_their_dtypes_and_order() -> None:
    """int32 / uint8 / float16 round trips, a first-seen dedupe and a set are not rewritten; the one
    snapshot of a row overwritten after it is rewritten with a copy taken before the overwrite."""
    found = rule_findings(program_units(REDTEAM / "rt55p_pp_index_roundtrips.py"), "ping-pong")
    fixes = automatic_fixes(found)
    assert [f.line for f in fixes] == [32]
    assert ".clone()" in "".join(e.text for e in fixes[0].fix.edits)


def test_dict_columns_rewritten_or_mixed_are_not_converted_once() -> None:
    assert not any(_fixable("rt55p_da_ragged_columns.py", "dict-as-list").values())
