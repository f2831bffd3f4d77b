"""Recall of session 55 on public check 41's misses: a DQN target network's forward outside
`no_grad` in a training step (p02, detached after; p06, not detached) and a TensorBoard histogram
of an activation logged in every LBFGS closure evaluation (p01). The public programs are kept out
of the repository: the tests read own-written programs of the same shapes
(tests/fixtures/public_shapes/check41; p02's detached target network is the same fact as check
36's p07, read from tests/fixtures/public_shapes/check36/dqn_board_game.py)."""

from __future__ import annotations

import json
from pathlib import Path

from public_findings import write_notebook

from tests.paef_cli import paef

ROOT = Path(__file__).resolve().parent.parent
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes"


def _findings(path: Path, rule: str) -> list[dict]:
    done = paef("scan", "--format", "json", "--rule", rule, str(path))
    return json.loads(done.stdout)["findings"]


def test_p02_target_network_detached_after_its_forward():
    found = _findings(SHAPES / "check36" / "dqn_board_game.py", "eval-without-no-grad")
    assert [f["line"] for f in found] == [98]
    assert "`.detach()`" in found[0]["message"]


def test_p06_target_network_not_detached():
    found = _findings(SHAPES / "check41" / "q_pool_replay.py", "eval-without-no-grad")
    assert [f["line"] for f in found] == [67]
    assert "`backward()` also runs through it, filling `.grad` of `self.frozen_q`'s parameters" in found[0]["message"]


def test_p01_histogram_of_an_activation_in_every_closure_evaluation(tmp_path: Path):
    notebook = write_notebook(tmp_path, (SHAPES / "check41" / "style_closure_cells.py").read_text())
    found = _findings(notebook, "host-sync")
    assert [(f["cell"], f["line"]) for f in found] == [(0, 42)]
    assert "`writer.add_histogram` of the tensor `activation`" in found[0]["message"]
    assert "every evaluation of `closure`" in found[0]["message"]
