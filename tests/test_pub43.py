"""Public check 43 (benchmarks/public43): first contact's right findings kept (WGAN-GP's noise and gradient-penalty
mixing weights drawn on the host every critic iteration, per-step `loss.item()`, a discounted-return double loop over
0-dim tensors, an evaluation batch's `torch.arange(n).to(device)`), the precision traps kept silent (host-tensor
reads in CPU-only programs, an actor-critic's kept log-probabilities and values), and this check's category held
on the public program that had it: a helper of the program returning a host draw scaled and shifted by numbers
(`def uniform_dist(a,b,size): std_unif = torch.rand(size); return std_unif*(b-a)+a`), moved by its caller every
step (`x + uniform_dist(0,1,x.shape).to(x.device)`, RealNVP's dequantization): cpu-then-move, a hint only."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

from paef_jupyter.api import analyze_path

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
PUB = ROOT / "benchmarks" / "public43"


def test_first_contact_right_findings_kept():
    assert {(146, "cpu-then-move"), (230, "cpu-then-move"), (247, "cpu-then-move")} <= line_rules(
        PUB / "p01_wgan_gp_celeb.py")
    assert {(220, "host-sync"), (282, "cpu-then-move")} <= line_rules(PUB / "p05_clip_fashion.py")
    assert (154, "elementwise-loop") in line_rules(PUB / "p04_a2c_cartpole.py")


def test_cpu_only_programs_and_kept_graphs_stay_silent():
    assert not {rule for _, rule in line_rules(PUB / "p03_lstm_crf_ner.py")} & {
        "host-sync", "pageable-transfer", "graph-retention", "sync-dataloader"}
    assert not {rule for _, rule in line_rules(PUB / "p04_a2c_cartpole.py")} & {"host-sync", "graph-retention"}


def test_host_draw_scaled_by_numbers_in_a_helper_found_as_a_hint():
    findings = [f for f in analyze_path(str(PUB / "p02_realnvp_shapes.py")).findings
                if (f.line, f.rule) == (96, "cpu-then-move")]
    assert findings, "`uniform_dist(0,1,x.shape).to(x.device)` in the preprocessor's forward"
    assert all(f.fix is None or not f.fix.safe for f in findings)  # the helper, not the call, must take the device
    assert (390, "host-sync") in line_rules(PUB / "p02_realnvp_shapes.py")
