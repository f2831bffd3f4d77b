"""Public check 40 (benchmarks/public40): first contact's right findings kept, the detection
program kept silent, and this check's categories held on the public programs that had them:
a `DeviceDataLoader` wrapper whose helper copies with `non_blocking=True` (pageable-transfer at
the wrapped loaders: the FedAvg notebook and the Siamese trainer), and the Jovian `accuracy`
read `torch.tensor(hits.item() / n)` run per training step through two helpers that an
evaluation loop also calls, under the helper's own `no_grad` (host-sync)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
PUB = ROOT / "benchmarks" / "public40"


def test_per_step_reads_found():
    assert {(173, "host-sync"), (288, "host-sync")} <= line_rules(PUB / "p05_hrnn_session_rec_train.py")
    assert (222, "host-sync") in line_rules(PUB / "p04_unet_nail_seg_train.py")
    assert (164, "host-sync") in line_rules(PUB / "p08_face_triplet_train.py")


def test_per_step_host_constructions_found():
    found = line_rules(PUB / "p03_ddpm_fashion_train.py")
    assert (93, "cpu-then-move") in found
    assert any(line == 110 for line, _ in found)


def test_detection_loop_stays_silent():
    assert not line_rules(PUB / "p07_vehicle_detection_train.py")


def test_device_loader_wrapper_with_non_blocking_helper_found():
    found = line_rules(PUB / "p06_siamese_contrastive_train.py")
    assert {(199, "pageable-transfer"), (200, "pageable-transfer"), (168, "graph-retention")} <= found


def test_fedavg_notebook_wrapper_and_rewrapped_accuracy_found():
    found = line_rules(PUB / "p02_fedavg_mnist.ipynb")
    assert (46, "host-sync") in found  # cell 9: batch_accuracy's `.item()` per client training step
    assert (56, "pageable-transfer") in found  # cell 9: `DeviceDataLoader(DataLoader(...), device)` in fit
    assert (68, "graph-retention") in found
