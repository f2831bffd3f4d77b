"""`redundant-tensor`'s severity follows what the rebuild costs: a tensor of a size the code
writes with literals, at most `TINY_ELEMENTS` elements, is one small allocation per iteration
(truth13: `torch.full((32, 1), BOS)`, the decoder's start column in a teacher-forced seq2seq,
was a medium on a clean program and measured nothing). Still reported, as a hint (low)."""

from __future__ import annotations

from paef_jupyter.api import analyze_source
from paef_jupyter.model import Severity

PROGRAM = """\
import torch
import torch.nn as nn

model = nn.Linear(8, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(32, 8)
n = 32
TABLE = [[float(i * j) for j in range(64)] for i in range(64)]
for step in range(10):
    start = torch.full((32, 1), 1)
    w = torch.tensor([0.2, 0.3, 0.5, 1.0])
    z = torch.zeros(32, 4)
    big = torch.zeros(512, 512)
    t = torch.tensor(TABLE)
    s = torch.full((64, 64), 0.5)
    named = torch.zeros(n, 4)
    moved = torch.tensor([0.2, 0.3]).to("cuda" if torch.cuda.is_available() else "cpu")
    like = torch.zeros_like(x)
    loss = (model(x) * w + z).sum() + start.sum() + big.sum() + t.sum() + s.sum() + named.sum() + moved.sum() + like.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def _severities() -> dict[int, Severity]:
    report = analyze_source(PROGRAM)
    return {f.line: f.severity for f in report.findings if f.rule == "redundant-tensor"}


def test_a_tiny_tensor_of_literal_size_rebuilt_per_iteration_is_a_hint() -> None:
    found = _severities()
    assert {line: found.get(line) for line in (10, 11, 12)} == {10: Severity.LOW, 11: Severity.LOW, 12: Severity.LOW}
    message = next(f.message for f in analyze_source(PROGRAM).findings if f.line == 10)
    assert "a tiny tensor of 32 elements" in message


def test_a_large_unknown_or_moved_rebuild_keeps_its_severity() -> None:
    # Near misses: 262144 elements; a Python table of unknown length; 4096 elements; a size
    # read from a name; a tiny tensor copied to a device each time (a copy per iteration); a
    # size taken from another tensor.
    found = _severities()
    for line in (13, 14, 15, 16, 17, 18):
        assert found.get(line, Severity.MEDIUM) == Severity.MEDIUM, (line, found)
    assert found.get(13) == found.get(14) == found.get(15) == Severity.MEDIUM


CHAINS = """\
import torch
import torch.nn as nn

model = nn.Linear(2, 2)
x = torch.randn(4, 2)
for step in range(10):
    chained = torch.tensor([0.2, 0.3]).float()
    moved = torch.tensor([0.2, 0.3]).cuda()
    moved_to = torch.tensor([0.2, 0.3]).to("cuda")
    made_there = torch.tensor([0.2, 0.3], device="cuda")
    loss = (model(x) * chained).sum() + moved.sum() + moved_to.sum() + made_there.sum()
    loss.backward()
"""


def test_a_tiny_tensor_copied_to_a_device_each_iteration_keeps_its_severity() -> None:
    # Near misses: `.cuda()` / `.to("cuda")` after it copy it every iteration; a dtype chain, or
    # the tensor made on the device (`device=`), is still one tiny allocation.
    found = {f.line: f.severity for f in analyze_source(CHAINS).findings if f.rule == "redundant-tensor"}
    assert found == {7: Severity.LOW, 8: Severity.MEDIUM, 9: Severity.MEDIUM, 10: Severity.LOW}, found
