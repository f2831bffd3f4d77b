"""The lines of a NumPy round trip (`ping-pong`'s `part_lines`): where its host work is paid.

On a CPU run the copies cost nothing and the NumPy work between them is the round trip's
measurable cost (`correlate._round_trip_work`); these tests pin which lines are part of it."""

from __future__ import annotations

import textwrap

from paef_jupyter.api import analyze_source

PROGRAM = """\
import numpy as np
import torch

model = torch.nn.Linear(8, 8)
x = torch.randn(4, 8)
log = []
for step in range(10):
    h = model(x)
    a = h.detach().cpu().numpy()
    log.append(step)
    med = np.median(a, axis=1, keepdims=True)
    unrelated = np.ones(3).sum()
    mad = np.median(np.abs(a - med), axis=1, keepdims=True) + 1e-6
    scale = torch.from_numpy((1.0 / mad).astype(np.float32))
    out = h * scale
"""


def round_trip(text: str):
    report = analyze_source(textwrap.dedent(text), rules={"ping-pong"})
    return [f for f in report.findings if f.rule == "ping-pong"]


def test_the_copy_out_and_the_numpy_work_on_its_result_are_part_of_the_round_trip():
    (f,) = round_trip(PROGRAM)
    assert f.line == 14 and f.device_cost_only
    assert f.part_lines == (9, 11, 13)  # not `log.append(step)` (10) nor `unrelated = ...` (12)


def test_a_copy_and_its_way_back_on_one_line_have_no_other_lines():
    text = PROGRAM.replace(
        "    scale = torch.from_numpy((1.0 / mad).astype(np.float32))",
        "    scale = torch.from_numpy((h.detach().cpu().numpy() > 0).astype(np.float32))",
    )
    found = [f for f in round_trip(text) if f.line == 14]
    assert found and found[0].part_lines == ()
