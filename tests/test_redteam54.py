"""Red team 54 (blind, 11 programs: 3 projects, 2 notebooks) on APIs that need host tensors or Python
values: pack_padded_sequence / ctc_loss lengths, split / repeat_interleave sizes, bincount / histc /
unique counts feeding Python loops, multinomial / randperm on a CPU generator, NumPy interop (a CPU
tensor shares memory with its array), tolist() keys, int(t) shapes. First contact met 8 automatic
rewrites, none harmful. Probes (not blind) met one harmful category:

- redundant-tensor hoisted `torch.tensor(gain, device=device)` out of a loop that changes `gain` only
  through an ALIAS handed to a program function changing that parameter in place (`gain_t =
  torch.from_numpy(gain)`, `decay(gain_t)` with `def decay(t): t.mul_(0.5)`; also `v = tail[1:]`,
  `bump(v)`; `alias = prio`, `grow(alias)`). The loop's mutation facts followed names handed to calls
  only DOWN to their views, never up to what they are a view of. Fixed in `Facts._changed_by_helper`:
  such a name counts as changed in the loop (whole), so what it shares memory with varies too; a
  torch function in place by its name (`nn.init.constant_(yv, 5.0)`) likewise.

The other tests pin what held on first contact and in the probes.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_lines, path_units, rule_findings, source_units

from paef_jupyter.model import CellRef, SourceUnit


# --- the defect: a loop-invariant-looking build whose source changes through a handed alias --------

HELPER_ALIAS = '''import numpy as np
import torch
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def decay(t):
    t.mul_(0.5)


def bump(a):
    a[0] += 1.0


def grow(lst):
    lst.append(1.0)


def fill(buf, src):
    buf.add_(src.sum())


def show(t):
    return float(t.sum())


def run():
    gain = np.full(2, 2.0, dtype=np.float32)
    gain_t = torch.from_numpy(gain)
    tail = np.arange(4, dtype=np.float32)
    v = tail[1:]
    prio = [3.0, 1.0]
    alias = prio
    y = torch.ones(2)
    yv = y.view(2)
    acc = torch.zeros(1)
    rows = []
    for step in range(3):
        k = torch.tensor(SOURCE, device=device)
        rows.append(k.sum().item())
        CHANGE
    return rows, acc


print(run())
'''

# (what the loop builds from, how it changes it): each changes the source only through an alias
CHANGED = [("gain", "decay(gain_t)"), ("tail", "bump(v)"), ("prio", "grow(alias)"),
           ("y", "torch.nn.init.constant_(yv, 5.0)"), ("gain", "fill(gain_t, acc)")]
# near misses: the alias is only read, or another argument is the one changed, or another object
KEPT = [("gain", "show(gain_t)"), ("tail", "fill(acc, v)"), ("prio", "print(alias)"),
        ("y", "torch.nn.init.constant_(acc, 5.0)"), ("tail", "decay(gain_t)")]


def _offered(source: str, change: str) -> tuple[bool, bool]:
    """(a hoist is offered, it is automatic) for the build from `source` (`torch.tensor(y)` of a
    tensor is always for review: it warns)."""
    code = HELPER_ALIAS.replace("SOURCE", source).replace("CHANGE", change)
    found = [f for f in rule_findings(source_units(code), "redundant-tensor")
             if "torch.tensor(" + source in f.message and f.fix is not None and f.fix.edits]
    return bool(found), any(f.fixable for f in found)


@pytest.mark.parametrize(("source", "change"), CHANGED)
def test_a_source_changed_through_an_alias_handed_to_a_changing_call_is_not_hoisted(source: str, change: str) -> None:
    assert _offered(source, change) == (False, False)


@pytest.mark.parametrize(("source", "change"), KEPT)
def test_near_misses_where_the_alias_is_only_read_are_still_hoisted(source: str, change: str) -> None:
    assert _offered(source, change) == (True, source != "y")


def test_the_probe_gets_no_automatic_hoist() -> None:
    assert not automatic_lines(REDTEAM / "rt54p_rt_numpy_alias_hoist.py", "redundant-tensor")


NOTEBOOK_HELPER = ['''import numpy as np
import torch
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def decay(t):
    t.mul_(0.5)
''', '''gain = np.full(2, 2.0, dtype=np.float32)
gain_t = torch.from_numpy(gain)
rows = []
for step in range(3):
    k = torch.tensor(gain, device=device)
    rows.append(k.sum().item())
    CHANGE
print(rows)
''']


@pytest.mark.parametrize(("change", "hoisted"), [("decay(gain_t)", False), ("print(gain_t)", True)])
def test_a_helper_of_an_earlier_cell_changing_the_alias_counts_too(change: str, hoisted: bool) -> None:
    units = [SourceUnit(CellRef("nb.ipynb", i), src.replace("CHANGE", change)) for i, src in enumerate(NOTEBOOK_HELPER)]
    found = rule_findings(units, "redundant-tensor")
    assert any(f.fixable and f.ref.cell == 1 for f in found) is hoisted


# --- blind programs: what first contact met -------------------------------------------------------


def test_blind_automatic_rewrites_are_the_ones_judged_safe() -> None:
    assert automatic_lines(REDTEAM / "rt54_ct_packed_lengths.py", "ping-pong") == {(None, 49)}
    assert automatic_lines(REDTEAM / "rt54_ct_packed_lengths.py", "host-sync") == {(None, 57)}
    # Refused since red team 58 (D1): the list also takes `float(bag_mean.mean())` later, and the proof does not
    # track that `scores` and `bag_mean` are on one device (`device_use.may_span_devices`): a harmless rewrite lost.
    assert automatic_lines(REDTEAM / "rt54_lt_split_sizes.py", "list-to-tensor") == set()
    assert automatic_lines(REDTEAM / "rt54_rt_generator_streams.py", "redundant-tensor") == {(None, 27)}


@pytest.mark.parametrize("rule", ["cpu-then-move", "redundant-tensor", "ping-pong", "list-to-tensor", "host-sync"])
def test_random_draws_on_a_cpu_generator_and_shared_numpy_state_are_neverautomatic_lines(rule: str) -> None:
    found = automatic_lines(REDTEAM / "rt54_rt_generator_streams.py", rule)
    assert (None, 28) not in found and (None, 30) not in found and (None, 31) not in found


def test_reinforce_loop_in_eval_mode_is_not_wrapped() -> None:
    assert not automatic_lines(REDTEAM / "rt54_ev_beam_search.py", "eval-without-no-grad")


@pytest.mark.parametrize("name", ["rt54_nb_vocab_counts.ipynb", "rt54_nb_greedy_decode.ipynb",
                                  "rt54_pp_numpy_shared.py"])
def test_notebooks_and_numpy_interop_get_no_automatic_rewrite(name: str) -> None:
    for rule in ("host-sync", "ping-pong", "list-to-tensor", "redundant-tensor", "cpu-then-move"):
        assert not automatic_lines(REDTEAM / name, rule), rule


# --- probes that held ------------------------------------------------------------------------------


def test_integer_counts_keep_python_ints_and_wrapping_or_cast_counts_are_left() -> None:
    path = REDTEAM / "rt54p_hs_counts_as_sizes.py"
    assert automatic_lines(path, "host-sync") == {(None, 34), (None, 48)}  # int64 sums: `.item()` gives an int back


def test_lists_of_item_reads_also_used_as_python_values_are_left() -> None:
    assert not automatic_lines(REDTEAM / "rt54p_lt_item_lists_reused.py", "list-to-tensor")


def test_random_factories_moved_to_the_device_stay_on_the_host() -> None:
    found = automatic_lines(REDTEAM / "rt54p_ct_random_and_lengths.py", "cpu-then-move")
    assert found == {(None, 30), (None, 31)}  # `torch.zeros(n + 1)` and `torch.arange(n + 2)` only


def test_snapshots_of_numpy_shared_sources_are_cloned() -> None:
    path = REDTEAM / "rt54p_pp_loop_numpy_alias.py"
    found = [f for f in rule_findings(path_units(path), "ping-pong") if f.fixable]
    assert {f.line for f in found} == {41, 51}
    assert all(".clone()" in "".join(e.text for e in f.fix.edits) for f in found)
