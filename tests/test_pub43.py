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
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check43"  # own-written shapes of the public programs


def test_first_contact_right_findings_kept():
    # p01: the penalty's mixing weights, the critic's and the generator's noise
    assert {(13, "cpu-then-move"), (30, "cpu-then-move"), (37, "cpu-then-move")} <= line_rules(
        SHAPES / "wgan_gp_draws.py")
    assert {(40, "host-sync"), (49, "cpu-then-move")} <= line_rules(SHAPES / "clip_pairs.py")  # p05
    assert (37, "elementwise-loop") in line_rules(SHAPES / "a2c_returns_cpu.py")  # p04: the discounted returns


def test_cpu_only_programs_and_kept_graphs_stay_silent():
    assert not {rule for _, rule in line_rules(SHAPES / "bilstm_tagger_cpu.py")} & {  # p03
        "host-sync", "pageable-transfer", "graph-retention", "sync-dataloader"}
    assert not {rule for _, rule in line_rules(SHAPES / "a2c_returns_cpu.py")} & {"host-sync", "graph-retention"}


def test_host_draw_scaled_by_numbers_in_a_helper_found_as_a_hint():
    dequant = SHAPES / "realnvp_dequant.py"  # p02
    findings = [f for f in analyze_path(str(dequant)).findings if (f.line, f.rule) == (19, "cpu-then-move")]
    assert findings, "`draw_between(0, 1, x.shape).to(x.device)` in the preprocessor's forward"
    assert all(f.fix is None or not f.fix.safe for f in findings)  # the helper, not the call, must take the device
    assert (50, "host-sync") in line_rules(dequant)
