"""Recall of session 55 on public check 41's misses: a DQN target network's forward outside
`no_grad` in a training step (p02 cell 6:30, detached after; p06 line 194, not detached) and a
TensorBoard histogram of an activation logged in every LBFGS closure evaluation (p01 cell 2:236)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.paef_cli import paef

ROOT = Path(__file__).resolve().parent.parent


def _findings(path: Path, rule: str) -> list[dict]:
    done = paef("scan", "--format", "json", "--rule", rule, str(path))
    return json.loads(done.stdout)["findings"]


def test_p02_target_network_detached_after_its_forward():
    found = _findings(ROOT / "benchmarks/corpus/pub41_dqn_cartpole.ipynb", "eval-without-no-grad")
    assert [(f["cell"], f["line"]) for f in found] == [(6, 30)]
    assert "`.detach()`" in found[0]["message"]


def test_p06_target_network_not_detached():
    found = _findings(ROOT / "benchmarks/public41/p06_dqn_params_pool_train.py", "eval-without-no-grad")
    assert [f["line"] for f in found] == [194]
    assert "`backward()` also runs through it, filling `.grad` of `self.q_target_net`'s parameters" in found[0]["message"]


def test_p01_histogram_of_an_activation_in_every_closure_evaluation():
    found = _findings(ROOT / "benchmarks/public41/p01_style_transfer_tbx.ipynb", "host-sync")
    assert [(f["cell"], f["line"]) for f in found] == [(2, 236)]
    assert "`writer.add_histogram` of the tensor `parameters`" in found[0]["message"]
    assert "every evaluation of `closure`" in found[0]["message"]
