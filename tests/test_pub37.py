"""Public check 37 (benchmarks/public37): first contact's right findings kept, the CPU and silent
programs kept silent, and the one wrong category of this check (host-sync on a test or a read of
host draws: the CutMix/MixUp gate `i >= start and torch.rand(1) < p`, torchvision's RandomChoice
`int(torch.multinomial(torch.tensor(p), 1))`) held silent. The public programs are kept out of the
repository: the tests read own-written programs of the same shapes
(tests/fixtures/public_shapes/check37)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

from paef_jupyter.api import analyze_source

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check37"


def test_per_step_item_reads_found():
    assert {(15, "host-sync"), (20, "host-sync")} <= line_rules(SHAPES / "engine_step_reads.py")
    assert (32, "host-sync") in line_rules(SHAPES / "detector_loss_dict.py")
    assert (37, "host-sync") in line_rules(SHAPES / "vae_postfix.py")


def test_vit_mixup_reads_found_and_host_draws_silent():
    found = line_rules(SHAPES / "mixup_gate_amp.py")
    assert {(39, "host-sync"), (43, "host-sync"), (50, "host-sync")} <= found
    assert not {(16, "host-sync"), (31, "host-sync"), (33, "host-sync")} & found


def test_cpu_test_loop_without_no_grad_found():
    assert (32, "eval-without-no-grad") in line_rules(SHAPES / "factorization_cpu_test.py")


def test_train_mode_evaluation_under_no_grad_silent():
    found = line_rules(SHAPES / "detector_loss_dict.py")
    assert not any(rule == "eval-without-no-grad" for _, rule in found)


@pytest.mark.parametrize("name", ["teacher_student_step.py", "seq2seq_logged_every_hundred.py", "encoder_finetune_plain.py"])
def test_clean_programs_stay_silent(name: str):
    assert not line_rules(SHAPES / name)


_GATE = """
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(4):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    if epoch > 1 and {test}:
        x = x * 0.5
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


@pytest.mark.parametrize(("test", "reported"), [
    ("torch.rand(1) < 0.5", False),
    ("not (torch.rand(1) > 0.5)", False),
    ("torch.bernoulli(torch.full((1,), 0.5)).bool()", False),
    ("int(torch.multinomial(torch.tensor([0.3, 0.7]), 1)) == 1", False),
    ("loss > 1.0", True),
    ("not (loss < 1.0)", True),
    ("torch.multinomial(model(x).softmax(-1)[0], 1) == 0", True),
])
def test_and_joined_gate_reported_only_for_a_device_part(test: str, reported: bool):
    findings = [f for f in analyze_source(_GATE.format(test=test)).findings if f.rule == "host-sync"]
    assert bool(findings) is reported
