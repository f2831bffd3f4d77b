"""truth15 (issue 9 points 1 and 5): on a CPU run a GPU-only cost (a device sync, a host-device
copy) is a prediction, and the card's own words say so - not only a note under them. Seen on
public pix2pix (pub32 p02): `disc_loss.item()` cards read "the CPU waits for all queued GPU work
each time (a device sync), so the GPU idles" on a CPU-only run.

Real profiles of small programs on this CPU build (`profile_path`, what `paef profile` runs).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from paef_jupyter.correlate import PREDICTED, PREDICTION_LEAD, correlate
from paef_jupyter.model import Report

from dynamic_helpers import profile_window

# The pix2pix shape: a device picked at run time, a loss read back every step.
GAN_STEP = """import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(32, 1).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 32, device=device)
total = 0.0
for step in range(40):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
model.eval()
for step in range(3):
    val = model(x).mean()
    print(val.item())
"""


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def gan_report(tmp_path_factory) -> Report:
    torch.set_num_threads(1)
    return profile_window(tmp_path_factory.mktemp("gan"), GAN_STEP)


def _syncs(report: Report):
    return [f for f in report.findings if f.rule == "host-sync"]


def test_a_predicted_sync_in_the_window_is_worded_as_a_prediction(gan_report):
    (sync,) = [f for f in _syncs(gan_report) if f.line == 14]
    assert sync.message.startswith(PREDICTION_LEAD) and "`loss.item()`" in sync.message
    assert PREDICTED["host-sync"] in sync.evidence.notes and not sync.evidence.measurable


def test_a_predicted_sync_outside_the_window_is_worded_as_a_prediction_too(gan_report):
    outside = [f for f in _syncs(gan_report) if f.line == 18]
    for f in outside:  # the eval read-back after the window (if the rule reports it)
        assert f.message.startswith(PREDICTION_LEAD)
        assert PREDICTED["host-sync"] in f.evidence.notes and not f.evidence.measurable


def test_the_same_findings_on_a_gpu_profile_keep_the_static_words(gan_report):
    """Near miss: on a GPU run the sync is measurable; the words stay the rule's own."""
    static = Report(findings=tuple(replace(f, message=f.message.removeprefix(PREDICTION_LEAD), evidence=None)
                                   for f in gan_report.findings), sources=gan_report.sources)
    on_gpu = correlate(static, replace(gan_report.profile, device="cuda"))
    assert on_gpu.findings and not any(f.message.startswith(PREDICTION_LEAD) for f in on_gpu.findings)


def test_measured_and_non_device_findings_keep_their_words_on_a_cpu(tmp_path):
    """Near misses: a dynamic `cpu-function` card and a static rule whose cost is not a
    device's (`eval-without-no-grad`) are measured on the CPU and say nothing of a GPU."""
    report = profile_window(tmp_path, """import torch
import torch.nn as nn

model = nn.Linear(16, 4)
xs = [torch.randn(8, 16) for _ in range(30)]


def slow_python(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


total = 0
for x in xs:
    total += slow_python(20000)
    y = model(x)
model.eval()
for x in xs[:5]:
    out = model(x)
""")
    assert report.findings
    assert not any(f.message.startswith(PREDICTION_LEAD) for f in report.findings)
    assert any(f.rule == "cpu-function" for f in report.findings)


def test_the_lead_is_never_doubled(gan_report):
    """Near miss: correlating a report again (Re-run and compare) keeps one lead."""
    again = correlate(Report(findings=gan_report.findings, sources=gan_report.sources), gan_report.profile)
    assert not any(f.message.startswith(PREDICTION_LEAD * 2) for f in again.findings)
