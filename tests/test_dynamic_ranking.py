"""On real profiles of small programs: the first finding is the antipattern that dominates the
cost, with measured evidence; the false alarms seen on clean code stay silent.

Each program runs through `profile_path` (what `paef profile` runs) on this CPU build.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from paef_jupyter.api import profile_path
from paef_jupyter.model import Report

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def one_thread():
    # Two OpenMP threads on a loaded 2-core box can be 100x slower: timings would be noise.
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _profile_text(tmp_path: Path, text: str) -> Report:
    path = tmp_path / "prog.py"
    path.write_text(text)
    report = profile_path(str(path))
    assert not report.errors and report.profile is not None and report.profile.mode == "window"
    return report


@pytest.mark.parametrize(
    "program, rule, line",
    [
        ("dict_as_list.py", "dict-as-list", 17),
        ("ping_pong.py", "ping-pong", 10),
        ("redundant_tensor.py", "redundant-tensor", 11),
        ("list_to_tensor.py", "list-to-tensor", 11),
    ],
)
def test_the_dominant_antipattern_is_first_with_measured_evidence(program, rule, line):
    report = profile_path(str(FIXTURES / "dominant" / program))
    assert not report.errors
    first = report.findings[0]
    assert (first.rule, first.line) == (rule, line), [(f.rule, f.line) for f in report.findings]
    ev = first.evidence
    assert first.source == "both" and ev is not None and ev.measurable and ev.estimated_saving_s > 0
    assert ev.iterations >= 3  # a window, not one noisy iteration
    assert any(n.startswith("saving = ") for n in ev.notes)  # the saving states its model


ADAM_MLP = """import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 16)
y = torch.randint(0, 4, (64,))
for step in range(STEPS):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_adam_step_counters_are_no_host_sync(tmp_path):
    # Adam reads its CPU step counters with `.item()` inside `opt.step()`: not the user's sync.
    report = _profile_text(tmp_path, ADAM_MLP.replace("STEPS", "30"))
    assert [f for f in report.findings if f.rule == "host-sync"] == []
    assert report.profile.syncs_per_iteration == 0  # a CPU: nothing waits on a device


def test_lstm_adamw_clip_grad_norm_is_no_host_sync(tmp_path):
    text = """import torch
import torch.nn as nn

emb, lstm, head = nn.Embedding(20, 16), nn.LSTM(16, 16, batch_first=True), nn.Linear(16, 20)
params = [*emb.parameters(), *lstm.parameters(), *head.parameters()]
opt = torch.optim.AdamW(params, lr=1e-3)
tokens = torch.randint(0, 20, (8, 11))
for step in range(10):
    out, _ = lstm(emb(tokens[:, :-1]))
    loss = nn.functional.cross_entropy(head(out).reshape(-1, 20), tokens[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
"""
    report = _profile_text(tmp_path, text)
    assert [(f.rule, f.line) for f in report.findings if f.rule == "host-sync"] == []


def test_one_line_update_is_torch_work_not_cpu_function(tmp_path):
    text = ADAM_MLP.replace("STEPS", "30").replace(
        "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n", "    opt.zero_grad(); loss.backward(); opt.step()\n"
    )
    report = _profile_text(tmp_path, text)
    assert [f for f in report.findings if f.rule == "cpu-function"] == []
    step = report.profile.line(report.profile.window_ref, 12)
    assert step is not None and step.op_time_s >= 0.75 * step.cpu_time_s  # backward + step are torch


def test_cpu_work_outside_torch_on_a_line_is_cpu_function(tmp_path):
    # Positive: pure-Python work every iteration dominates, and it is not torch's.
    text = """import torch
x = torch.randn(64, 16)
w = torch.randn(16, 4)
for step in range(12):
    table = sorted((i * 7919) % 1000 for i in range(20000))
    y = x @ w
"""
    report = _profile_text(tmp_path, text)
    found = [(f.rule, f.line, f.source) for f in report.findings]
    assert found[0] == ("cpu-function", 5, "dynamic"), found


def test_user_item_on_a_cpu_is_a_prediction_never_above_a_measured_cost(tmp_path):
    text = """import torch
x = torch.randn(64, 16)
w = torch.randn(16, 4)
rows = [[float(i + j) for j in range(16)] for i in range(2000)]
for step in range(12):
    lookup = torch.tensor(rows)
    loss = (x @ w).sum()
    value = loss.item()
"""
    report = _profile_text(tmp_path, text)
    rules = [f.rule for f in report.findings]
    assert rules[0] == "redundant-tensor", rules
    syncs = [f for f in report.findings if f.rule == "host-sync"]
    for f in syncs:  # the static rule's finding: predicted, worded for this CPU
        assert not f.evidence.measurable
        assert "on a GPU this line would stall" in f.evidence.notes[0]
        assert "not measurable on this CPU run" in f.evidence.notes[0]


def _window_spread_ms(report: Report) -> tuple[float, float]:
    """(fastest, slowest) profiled iteration in ms, from the profile's spread note."""
    note = next(n for n in report.profile.notes if " profiled iterations: median " in n)
    low, high = re.search(r"from ([\d.]+) to ([\d.]+) ms", note).groups()
    return float(low), float(high)


def test_one_slow_iteration_cannot_decide_the_ranking(tmp_path):
    # A line that runs every iteration is slow in one of them only (a preemption, a collection
    # on a loaded box); the median iteration is what it costs, so it is no cpu-function.
    text = """import time
import torch
x = torch.randn(64, 16)
w = torch.randn(16, 4)
for step in range(60):
    y = x @ w
    deadline = time.perf_counter() + (0.06 if step == 4 else 0.0)
    while time.perf_counter() < deadline: time.sleep(0.002)
"""
    # Sleeping in small steps, not spinning: a spin traces a line event per pass, and on a quick
    # box 60 ms of them reach the window's cap on traced lines, which ends the window early.
    report = _profile_text(tmp_path, text)
    assert report.profile.profiled_iterations >= 3
    low, high = _window_spread_ms(report)
    assert high >= 60 > 10 * low  # the slow iteration was profiled, and the spread shows it
    assert [(f.rule, f.line) for f in report.findings if f.rule == "cpu-function"] == []
    spin = report.profile.line(report.profile.window_ref, 8)
    assert spin is not None and spin.cpu_time_s * 1e3 < 0.5 * high  # not the slow iteration's time


def test_a_line_slow_in_every_iteration_is_still_cpu_function(tmp_path):
    # The near-miss of the test above: the same sleep in every iteration is the line's cost.
    text = """import time
import torch
x = torch.randn(64, 16)
w = torch.randn(16, 4)
for step in range(60):
    y = x @ w
    deadline = time.perf_counter() + 0.02
    while time.perf_counter() < deadline: pass
"""
    report = _profile_text(tmp_path, text)
    found = [(f.rule, f.line) for f in report.findings]
    assert found[0] == ("cpu-function", 8), found
