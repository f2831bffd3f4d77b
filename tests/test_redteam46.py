"""Red team 46 (blind, 10 programs: 4 projects, 3 notebooks, aimed at gradient mode and global state:
evaluation that needs autograd, inference-mode tensors, `requires_grad` toggles, default dtype and
device, re-seeding) met 11 automatic rewrites on first contact, none harmful. Probes after first
contact (not blind) found two facts the rewrites of Python numbers back into tensors did not read:

- a LATER notebook cell may change torch's default dtype and then call a function of an earlier cell:
  `torch.tensor(<Python floats>)` is float64 there, the joined float32 tensor is not (harmful on CPU);
- `torch.set_default_device(...)` / a `with torch.device(...)` block: `torch.tensor(<Python numbers>)`
  is made on the default device, while the rewrite writes `.cpu()` / `device="cpu"` or leaves the
  joined tensor where the values are (harmful on a GPU, by reasoning).

Fixed by category: list-to-tensor offers its rewrite for review, and ping-pong / record-buffer refuse it.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, program_units, rule_findings

from paef_jupyter.model import CellRef, SourceUnit

_CELL0 = ("import torch\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nw = torch.randn(4, device=device)\n\n\n"
          "def spread(xs):\n    vals = []\n    for x in xs:\n        vals.append((w * x).sum().item())\n"
          "    return torch.tensor(vals{opt})\n\n\nprint(spread([1.0, 2.0]))\n")
_ROUND_TRIP = ("import torch\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nX = torch.randn(3, 4)\n\n\n"
               "def rebuilt():\n    total = torch.zeros(())\n    for xb in X:\n        h = torch.relu(xb)\n"
               "        h = torch.tensor(h.cpu().tolist())\n        total = total + h.sum()\n    return total\n\n\n"
               "print(rebuilt())\n")
_COUNTS = ("import torch\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nw = torch.randn(4, device=device)\n\n\n"
           "def hits(xs):\n    vals = []\n    for x in xs:\n        vals.append((w > x).sum().item())\n"
           "    return torch.tensor(vals)\n\n\nprint(hits([0.0, 0.5]))\n")


def _notebook(*cells: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]


def _fixable(units: list[SourceUnit], rule: str) -> list[bool]:
    return [f.fixable for f in rule_findings(units, rule)]


def _review(units: list[SourceUnit], rule: str) -> list[bool]:
    return [bool(f.fix is not None and f.fix.needs_review) for f in rule_findings(units, rule)]


# A later cell (or code it runs) changes the default dtype or sets a default device: not automatic.
FIRING = {
    "later_cell_float64": (_CELL0.format(opt=""), "torch.set_default_dtype(torch.float64)\nprint(spread([3.0]))\n"),
    "later_cell_alias": (_CELL0.format(opt=""),
                         "from torch import set_default_dtype as use\nuse(torch.float64)\nprint(spread([3.0]))\n"),
    "later_cell_tensor_type": (_CELL0.format(opt=""),
                               "torch.set_default_tensor_type(torch.DoubleTensor)\nprint(spread([3.0]))\n"),
    "later_cell_inside_a_function": (_CELL0.format(opt=""),
                                     "def precise():\n    torch.set_default_dtype(torch.float64)\n\n\nprecise()\n"
                                     "print(spread([3.0]))\n"),
    "later_cell_default_device": (_CELL0.format(opt=""), "torch.set_default_device(device)\nprint(spread([3.0]))\n"),
    "later_cell_device_block": (_CELL0.format(opt=""), "with torch.device(device):\n    print(spread([3.0]))\n"),
    "default_device_by_getattr": (_CELL0.format(opt="") + "getattr(torch, 'set_default_device')(device)\n",),
    "earlier_cell_default_device": ("import torch\ntorch.set_default_device('cuda' if torch.cuda.is_available() else 'cpu')\n",
                                    _CELL0.format(opt="")),
}

# What a later cell does that does not decide the dtype or device of `torch.tensor(<Python numbers>)`.
SILENT = {
    "later_cell_other_global_state": (_CELL0.format(opt=""),
                                      "torch.set_printoptions(precision=10)\ntorch.manual_seed(1)\n"
                                      "torch.set_float32_matmul_precision('high')\nprint(spread([3.0]))\n"),
    "later_cell_float64_but_dtype_given": (_CELL0.format(opt=", dtype=torch.float32"),
                                           "torch.set_default_dtype(torch.float64)\nprint(spread([3.0]))\n"),
    "later_cell_float64_integer_counts": (_COUNTS, "torch.set_default_dtype(torch.float64)\nprint(hits([1.0]))\n"),
    "default_device_but_device_given": (_CELL0.format(opt=", device=device"),
                                        "torch.set_default_device(device)\nprint(spread([3.0]))\n"),
    "device_built_as_a_value": (_CELL0.format(opt=""), "dev = torch.device(device)\nprint(dev, spread([3.0]))\n"),
    "earlier_cell_float64": ("import torch\ntorch.set_default_dtype(torch.float64)\n", _CELL0.format(opt="")),
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_a_default_changed_later_or_a_default_device_is_for_review(name: str) -> None:
    units = _notebook(*FIRING[name])
    fixable = _fixable(units, "list-to-tensor")
    assert fixable and not any(fixable)
    assert all(_review(units, "list-to-tensor"))


@pytest.mark.parametrize("name", sorted(SILENT))
def test_other_global_state_keeps_the_rewrite_automatic(name: str) -> None:
    fixable = _fixable(_notebook(*SILENT[name]), "list-to-tensor")
    assert fixable and all(fixable)


def test_ping_pong_refuses_a_float_round_trip_before_a_later_default_dtype() -> None:
    assert _fixable(_notebook(_ROUND_TRIP), "ping-pong") == [True]
    later = _notebook(_ROUND_TRIP, "torch.set_default_dtype(torch.float64)\nprint(rebuilt())\n")
    fixable = _fixable(later, "ping-pong")
    assert fixable and not any(fixable)
    printed = _notebook(_ROUND_TRIP, "torch.set_printoptions(precision=10)\nprint(rebuilt())\n")
    assert _fixable(printed, "ping-pong") == [True]


def test_ping_pong_refuses_a_host_placement_under_a_default_device() -> None:
    fixable = _fixable(_notebook(_ROUND_TRIP, "torch.set_default_device(device)\nprint(rebuilt())\n"),
                       "ping-pong")
    assert fixable and not any(fixable)


def test_the_probes_are_no_longer_rewritten() -> None:
    for name, count in (("rt46p_nb_dtype_set_in_later_cell.ipynb", 1), ("rt46p_default_device.py", 2)):
        findings = rule_findings(program_units(REDTEAM / name), "list-to-tensor")
        assert len(findings) == count and not any(f.fixable for f in findings), name


def test_the_blind_programs_first_contact_holds() -> None:
    """A setter in the same cell keeps the dynamic dtype (`.to(torch.get_default_dtype())`): automatic."""
    findings = rule_findings(program_units(REDTEAM / "rt46_nb_default_dtype_cells.ipynb"), "list-to-tensor")
    assert [f.fixable for f in findings] == [True]
    assert "get_default_dtype" in findings[0].fix.suggestion


def test_an_earlier_cell_that_defines_nothing_still_changes_the_default_dtype() -> None:
    """`prior.units()` lists only cells that define a name: a cell that only runs the setter was not
    read, and the joined tensor was cast to float32 where `torch.tensor` made float64."""
    for setter in ("torch.set_default_dtype(torch.float64)\n", "torch.set_default_dtype(torch.float64)\nz = 1\n"):
        findings = rule_findings(_notebook("import torch\n" + setter, _CELL0.format(opt="")), "list-to-tensor")
        assert [f.fixable for f in findings] == [True]
        assert "get_default_dtype" in findings[0].fix.suggestion
    findings = rule_findings(_notebook("import torch\ntorch.set_printoptions(precision=10)\n", _CELL0.format(opt="")),
                             "list-to-tensor")
    assert [f.fixable for f in findings] == [True] and "get_default_dtype" not in findings[0].fix.suggestion
