"""Public check 38 (benchmarks/public38): first contact's right findings kept, the CPU and silent
programs kept silent, and this check's categories held on the public programs that had them:
a helper run with a constant flag that selects its `no_grad` branch (the molecular GNN's
`forward_regressor(batch, train=False)`: no eval-without-no-grad), a per-example error count over
`enumerate(zip(output, ratings))` with an `abs(o - r) > 0.7` test (elementwise-loop), and a legacy
constructor of a NumPy fill moved every step (`torch.FloatTensor(np.zeros((M, N))).to(device)`:
cpu-then-move). The public programs are kept out of the repository: the tests read own-written
programs of the same shapes (tests/fixtures/public_shapes/check38)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

from paef_jupyter.api import analyze_source

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check38"


def test_per_step_reads_found():
    assert {(10, "host-sync"), (35, "host-sync")} <= line_rules(SHAPES / "audio_cnn_reads.py")
    assert (64, "host-sync") in line_rules(SHAPES / "contrastive_host_labels.py")
    assert (35, "host-sync") in line_rules(SHAPES / "ratings_error_count.py")
    assert (32, "host-sync") in line_rules(SHAPES / "price_mlp_postfix.py")


def test_constant_labels_built_on_the_host_found():
    assert (26, "cpu-then-move") in line_rules(SHAPES / "contrastive_host_labels.py")


def test_molecular_gnn_padding_fill_found_and_flagged_test_pass_silent():
    found = line_rules(SHAPES / "molecule_block_pad.py")
    assert {(24, "cpu-then-move"), (70, "host-sync")} <= found
    assert not any(rule == "eval-without-no-grad" for _, rule in found)


def test_per_example_error_count_found():
    assert (49, "elementwise-loop") in line_rules(SHAPES / "ratings_error_count.py")


def test_cpu_programs_stay_silent():
    assert not line_rules(SHAPES / "ticker_lstm_cpu.py")
    # REINFORCE accumulates its pseudo-loss graph on purpose and back-propagates it once per update
    found = line_rules(SHAPES / "policy_gradient_returns.py")
    assert not {rule for _, rule in found} & {"graph-retention", "host-sync", "list-to-tensor"}


_FLAGGED = """
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 1)

    def run(self, x, train):
        y = torch.cat([x, x])
        if train:
            return self.lin(y)
        with torch.no_grad():
            out = self.lin(y)
        return {tail}

model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(2, 4) for _ in range(3)]
for x in data:
    loss = model.run(x, train=True).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

def evaluate():
    model.eval()
    total = 0.0
    for x in data:
        total += float(model.run(x, {flag}).sum())
    return total
"""


@pytest.mark.parametrize(("flag", "tail", "reported"), [
    ("train=False", "out.cpu().numpy()", False),
    ("False", "out.cpu().numpy()", False),
    ("train=False", "out", False),
    ("train=True", "out.cpu().numpy()", True),
    ("train=False", "out @ self.lin.weight", True),
])
def test_flag_selected_no_grad_branch(flag: str, tail: str, reported: bool):
    findings = [f for f in analyze_source(_FLAGGED.format(flag=flag, tail=tail)).findings
                if f.rule == "eval-without-no-grad"]
    assert bool(findings) is reported
