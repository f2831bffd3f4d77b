"""Red team 41 (blind, 10 programs) met 17 automatic rewrites on first contact and none changed a
program's meaning (scorer on the CPU, every diff read for the GPU). A probe after first contact (not
blind), rt41p_pp_moved_then_updated, found ping-pong's "drop the move" rewrite harmful on a GPU:
`frame = pos.to(device)` became `frame = pos`, an alias of a tensor the loop then advances in place
(`pos.add_(v)`) before `frame.tolist()` reads it back, where on a device the move was a copy taken
before the write. Fixed by category: the move is dropped automatically only when its source is fresh
memory from a torch constructor or a name nothing may change in place (nor reach from outside).
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, program_units, rule_findings

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef

_HEAD = "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"


def _drop_moves(text: str) -> list:
    report = analyze_source(_HEAD + text, CellRef("t.py"), rules=["ping-pong"])
    return [f for f in report.findings if "only ever copied back" in f.message]


# The source is written in place after the move, before (or while) the host reads the values back.
FIRING = {
    "advanced_in_place": "pos = torch.zeros(4, 2)\nvel = torch.ones(4, 2)\nout = []\nfor s in range(3):\n"
                         "    frame = pos.to(device)\n    pos.add_(vel)\n    out.append(frame.tolist())\n",
    "scaled_by_operator": "state = torch.arange(6.0)\nseen = []\nfor s in range(3):\n    obs = state.to(device)\n"
                          "    state *= 2\n    seen.append(obs.tolist())\n",
    "changed_through_view": "buf = torch.zeros(5)\nhead = buf[:2]\nlog = []\nfor s in range(3):\n"
                            "    snap = buf.to(device)\n    head.fill_(s)\n    log.append(snap.tolist())\n",
    "stepped_by_optimizer": "w = torch.zeros(3, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\nlog = []\n"
                            "for s in range(3):\n    cur = w.to(device)\n    w.sum().backward()\n    opt.step()\n"
                            "    log.append(cur.tolist())\n",
}

# Fresh memory from a torch constructor, or a source nothing changes: still an automatic rewrite.
SILENT = {
    "generator_draw": "g = torch.Generator().manual_seed(1)\nfor s in range(3):\n"
                      "    noise = torch.randn(2, generator=g).to(device)\n    print(noise.tolist())\n",
    "fresh_factory": "for s in range(3):\n    k = torch.randint(0, 5, (4,)).to(device)\n    print(k.tolist())\n",
    "fresh_arange": "for s in range(3):\n    r = torch.arange(4).to(device)\n    print(r.tolist())\n",
    "fresh_stack": "rows = [torch.ones(2), torch.zeros(2)]\nfor s in range(3):\n"
                   "    st = torch.stack(rows).to(device)\n    print(st.tolist())\n",
    "fresh_full_item": "for s in range(3):\n    f = torch.full((1,), float(s)).to(device)\n    print(f.item())\n",
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_a_move_of_a_source_changed_in_place_is_not_dropped_automatically(name: str) -> None:
    found = _drop_moves(FIRING[name])
    assert found, name
    assert all(not f.fix.automatic and "share memory" in f.fix.review for f in found), name


@pytest.mark.parametrize("name", sorted(SILENT))
def test_a_move_of_fresh_memory_is_still_dropped(name: str) -> None:
    found = _drop_moves(SILENT[name])
    assert found and all(f.fix.automatic for f in found), name


def test_the_probe_goes_to_review() -> None:
    units = program_units(REDTEAM / "rt41p_pp_moved_then_updated.py")
    found = [f for f in rule_findings(units, "ping-pong") if "only ever copied back" in f.message]
    assert found and not any(f.fix.automatic for f in found)


def test_the_blind_wave_keeps_its_generator_draw_rewrite() -> None:
    units = program_units(REDTEAM / "rt41_nb_distributions.ipynb")
    found = [f for f in rule_findings(units, "ping-pong") if "only ever copied back" in f.message]
    assert len(found) == 1 and found[0].fix.automatic
