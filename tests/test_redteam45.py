"""Red team 45 (blind, 10 programs: 3 projects, 3 notebooks, aimed at numerics and edge cases) met 6
automatic rewrites on first contact, none harmful. A probe after first contact (not blind) found
dict-as-list harmful on an EMPTY selection: `torch.tensor(table["y"][9:12])` is `torch.tensor([])`, a
float32 tensor of shape (0,), whatever the column holds, while the same slice of the column converted
once keeps its dtype (int64, bool) and its row width ((0, 2)); a ceil-sized last fold printed
`float32` where it had printed `int64`, and `torch.cat` of the folds' labels changed dtype. Fixed by
category: a selection is converted automatically only where an empty one converts alike (a 1-D column
of plain floats, or a fixed dtype over a column of numbers) or none can be empty (a slice `[s:s + K]`
with `s` over a literal range inside an unwritten column literal; a gather over `range(s, s + K)` or
literal non-empty index rows).
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, program_units, rule_findings, source_units

_HEAD = "import math\nimport torch\n\n"


def _fixable(body: str) -> list[bool]:
    return [f.fixable for f in rule_findings(source_units(_HEAD + body), "dict-as-list")]


# The selection may be empty and the column is not plain floats: review.
FIRING = {
    "ceil_fold_ints": ("data = {'y': [0, 1, 1, 0, 1, 0, 1, 1, 0]}\nsize = math.ceil(9 / 4)\n"
                       "for k in range(4):\n    s = k * size\n    yb = torch.tensor(data['y'][s:s + size])\n"),
    "range_past_the_end_rows": ("data = {'x': [[0.5, 1.0], [1.5, 2.0], [2.5, 3.0], [3.5, 4.0]]}\n"
                                "for s in range(0, 6, 2):\n    xb = torch.tensor(data['x'][s:s + 2])\n"),
    "stop_not_literal_bools": ("data = {'m': [True, False, True, True]}\n"
                               "for s in range(0, len(data['m']) + 2, 2):\n    mb = torch.tensor(data['m'][s:s + 2])\n"),
    "rows_built_by_code": ("data = {'u': [3, 1, 4, 1, 5]}\nfolds = [list(range(k, min(k + 2, 5))) for k in range(0, 8, 2)]\n"
                           "for idx in folds:\n    ub = torch.tensor([data['u'][i] for i in idx])\n"),
    "column_of_unknown_kind": ("table = {'ids': torch.arange(6).tolist()}\n"
                               "for s in range(0, 8, 2):\n    ib = torch.tensor(table['ids'][s:s + 2])\n"),
    "column_written_later": ("data = {'y': [0, 1, 1, 0]}\ndata['y'] = data['y'][2:]\n"
                             "for s in range(0, 4, 2):\n    yb = torch.tensor(data['y'][s:s + 2])\n"),
    "start_rebound_in_body": ("data = {'y': [0, 1, 1, 0]}\n"
                              "for s in range(0, 4, 2):\n    s = s + 3\n    yb = torch.tensor(data['y'][s:s + 2])\n"),
    "index_rows_rebound": ("data = {'u': [3, 1, 4, 1]}\n"
                           "for idx in [[0, 1], [2, 3]]:\n    idx = idx[4:]\n    ub = torch.tensor([data['u'][i] for i in idx])\n"),
}

# An empty selection converts alike, or none can be empty: still automatic.
SILENT = {
    "plain_floats": ("data = {'w': [0.5, 1.0, 1.5, 2.0, 2.5]}\nsize = math.ceil(5 / 4)\n"
                     "for k in range(4):\n    s = k * size\n    wb = torch.tensor(data['w'][s:s + size])\n"),
    "dtype_option": ("data = {'y': [0, 1, 1, 0, 1]}\nsize = math.ceil(5 / 4)\n"
                     "for k in range(4):\n    s = k * size\n    yb = torch.tensor(data['y'][s:s + size], dtype=torch.float32)\n"),
    "literal_range_inside": ("data = {'x': [[0.5, 1.0], [1.5, 2.0], [2.5, 3.0], [3.5, 4.0]]}\n"
                             "for s in range(0, 4, 2):\n    xb = torch.tensor(data['x'][s:s + 2])\n"),
    "gather_over_a_fixed_width_range": ("data = {'u': [3, 1, 4, 1, 5, 9]}\n"
                                        "for s in range(0, 6, 3):\n    ub = torch.tensor([data['u'][i] for i in range(s, s + 3)])\n"),
    "gather_over_literal_rows": ("data = {'u': [3, 1, 4, 1, 5, 9]}\n"
                                 "for idx in [[0, 5], [2, 1, 3]]:\n    ub = torch.tensor([data['u'][i] for i in idx])\n"),
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_a_selection_that_may_be_empty_is_for_review(name: str) -> None:
    fixable = _fixable(FIRING[name])
    assert fixable and not any(fixable)


@pytest.mark.parametrize("name", sorted(SILENT))
def test_a_selection_that_converts_alike_when_empty_or_is_never_empty_is_rewritten(name: str) -> None:
    fixable = _fixable(SILENT[name])
    assert fixable and all(fixable)


def test_the_probe_is_no_longer_rewritten() -> None:
    findings = rule_findings(program_units(REDTEAM / "rt45p_dal_empty_fold.py"), "dict-as-list")
    assert len(findings) == 2 and not any(f.fixable for f in findings)


def test_the_blind_programs_first_contact_holds() -> None:
    """What held on first contact: integer counts divided or scaled into a float total are summed in
    float64 (`.double()`); an integer sum into a float total, and a Python-int fingerprint past 2**63,
    stay on the host."""
    findings = rule_findings(program_units(REDTEAM / "rt45_hs_integer_counts_to_float.py"), "host-sync")
    fixable = {f.line for f in findings if f.fixable}
    lines = (REDTEAM / "rt45_hs_integer_counts_to_float.py").read_text().splitlines()
    assert {lines[n - 1].split("+=")[0].strip() for n in fixable} == {"acc_sum", "weighted_tokens"}
