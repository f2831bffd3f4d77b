"""Public check 41 (benchmarks/public41): first contact's right finding kept, the precision traps
kept silent (REINFORCE's kept log-probabilities, host-tensor reads in CPU-only programs). The public
programs are kept out of the repository: the tests read own-written programs of the same shapes
(tests/fixtures/public_shapes/check41; notebook shapes are cells split at `# %%`, written as a
notebook by `write_notebook`). This check's category (a `DataLoader` reaching the training loop as
the parameter of a method of an object proven made by a class of the notebook,
`trainer.train(dataloader)`, and a loader stored on `self` in `__init__` and handed back as
`probe.fit(probe.train_loader)`: pageable-transfer, p03) is proved by the rule fixture
tests/fixtures/rules/pageable-transfer/pos_loader_handed_to_an_object_method.py (both loaders
reported) and its near misses, so its public-program test was deleted."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules, write_notebook

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check41"


def _notebook(tmp_path: Path, name: str) -> Path:
    return write_notebook(tmp_path, *(SHAPES / name).read_text().split("# %%\n"))


def test_replay_buffer_rebuilt_every_step_found():
    assert (49, "record-buffer") in line_rules(SHAPES / "q_pool_replay.py")


def test_reinforce_log_probs_and_host_reads_stay_silent(tmp_path: Path):
    assert not line_rules(_notebook(tmp_path, "reinforce_cells.py"))
    found = line_rules(_notebook(tmp_path, "gcn_by_hand_cells.py"))
    assert not {rule for _, rule in found} & {"host-sync", "graph-retention"}
    assert not {rule for _, rule in line_rules(SHAPES / "ozone_lstm_cpu.py")} & {"host-sync", "pageable-transfer"}
