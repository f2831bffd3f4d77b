"""Public check 41 (benchmarks/public41): first contact's right finding kept, the precision traps
kept silent (REINFORCE's kept log-probabilities, host-tensor reads in CPU-only programs), and this
check's category held on the public program that had it: a `DataLoader` reaching the training
loop as the parameter of a method of an object proven made by a class of the notebook
(`trainer.train(dataloader)`, `trainer = Trainer(...)`), and a loader stored on `self` in
`__init__` and handed back as `probe.train(probe.train_loader)` (pageable-transfer, the SimCLR
assignment notebook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
PUB = ROOT / "benchmarks" / "public41"


def test_replay_buffer_rebuilt_every_step_found():
    assert (110, "record-buffer") in line_rules(PUB / "p06_dqn_params_pool_train.py")


def test_reinforce_log_probs_and_host_reads_stay_silent():
    assert not line_rules(PUB / "p04_reinforce_cartpole.ipynb")
    assert not {rule for _, rule in line_rules(PUB / "p05_gcn_cora_by_hand.ipynb")} & {"host-sync", "graph-retention"}
    assert not {rule for _, rule in line_rules(PUB / "p07_ozone_lstm_train.py")} & {"host-sync", "pageable-transfer"}


def test_loaders_handed_to_an_object_method_found():
    found = line_rules(PUB / "p03_simclr_linear_probe.ipynb")
    assert (8, "pageable-transfer") in found  # cell 8: `dataloader`, looped in `Trainer.train` via `trainer.train(dataloader)`
    assert (11, "pageable-transfer") in found  # cell 14: `self.train_loader`, handed back as `probe.train(probe.train_loader)`
