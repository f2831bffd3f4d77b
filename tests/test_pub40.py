"""Public check 40 (benchmarks/public40): first contact's right findings kept, the detection
program kept silent, and this check's categories held on the public programs that had them:
a `DeviceDataLoader` wrapper whose helper copies with `non_blocking=True` (pageable-transfer at
the wrapped loaders: the FedAvg notebook and the Siamese trainer), and the Jovian `accuracy`
read `torch.tensor(hits.item() / n)` run per training step through two helpers that an
evaluation loop also calls, under the helper's own `no_grad` (host-sync). The public programs are
kept out of the repository: the tests read own-written programs of the same shapes
(tests/fixtures/public_shapes/check40; the notebook shape is cells split at `# %%`, written as a
notebook by `write_notebook`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules, write_notebook

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check40"


def test_per_step_reads_found():
    assert {(37, "host-sync"), (47, "host-sync")} <= line_rules(SHAPES / "session_rec_fit.py")
    assert (19, "host-sync") in line_rules(SHAPES / "seg_running_loss.py")
    assert (24, "host-sync") in line_rules(SHAPES / "triplet_postfix.py")


def test_per_step_host_constructions_found():
    found = line_rules(SHAPES / "diffusion_timesteps.py")
    assert (16, "cpu-then-move") in found
    assert any(line == 27 for line, _ in found)


def test_detection_loop_stays_silent():
    assert not line_rules(SHAPES / "detector_epoch_print.py")


def test_device_loader_wrapper_with_non_blocking_helper_found():
    found = line_rules(SHAPES / "siamese_wrapped_loaders.py")
    assert {(80, "pageable-transfer"), (81, "pageable-transfer"), (59, "graph-retention")} <= found


def test_fedavg_notebook_wrapper_and_rewrapped_accuracy_found(tmp_path: Path):
    cells = (SHAPES / "fedavg_cells.py").read_text().split("# %%\n")
    found = line_rules(write_notebook(tmp_path, *cells))
    assert (22, "host-sync") in found  # cell 2: hit_rate's `.item()` per client training step
    assert (30, "pageable-transfer") in found  # cell 2: `OnDevice(DataLoader(...), dev)` in fit
    assert (39, "graph-retention") in found
