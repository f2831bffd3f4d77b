"""Public check 49: value-sized results (`torch.unique`, `nonzero`) of device labels in a
prototypical network's `forward`, whose callers in later cells pass `.cuda()` tensors. The public
programs are kept out of the repository: these cells are own-written in the shape of p02; p04's
loader returned by a method in a tuple is the sync-dataloader fixture
`pos_loaders_returned_by_a_method.py` (with its near misses)."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path
from public_findings import write_notebook

MODEL = '''import torch
import torch.nn as nn


class Proto(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)

    def forward(self, support, labels, query):
        z = self.lin(support)
        n_way = len(torch.unique(labels))
        protos = torch.cat([z[torch.nonzero(labels == k)].mean(0) for k in range(n_way)])
        return -torch.cdist(self.lin(query), protos)


model = Proto().cuda()
'''
TRAIN = '''opt = torch.optim.Adam(model.parameters())
for episode in range(3):
    labels = torch.arange(2).repeat_interleave(3)
    loss = model(torch.randn(6, 8).cuda(), {labels}, torch.randn(4, 8).cuda()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def _lines(path: Path, rule: str) -> set[tuple[int | None, int]]:
    report = analyze_path(str(path), rules=[rule])
    assert not report.errors
    return {(f.ref.cell, f.line) for f in report.findings}


def test_instance_calls_in_a_later_cell_put_forward_parameters_on_the_device(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, MODEL, TRAIN.format(labels="labels.cuda()"))
    assert _lines(path, "host-sync") == {(0, 12), (0, 13)}


def test_value_sized_findings_offer_no_automatic_rewrite(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, MODEL, TRAIN.format(labels="labels.cuda()"))
    sized = analyze_path(str(path), rules=["host-sync"]).findings
    assert sized and all(f.fix is None or not f.fix.safe for f in sized)


def test_a_caller_passing_host_labels_leaves_forward_silent(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, MODEL, TRAIN.format(labels="labels"))
    assert _lines(path, "host-sync") == set()


def test_a_cpu_instance_leaves_forward_silent(tmp_path: Path) -> None:
    cpu = MODEL.replace("model = Proto().cuda()", "model = Proto()")
    path = write_notebook(tmp_path, cpu, TRAIN.format(labels="labels").replace(".cuda()", ""))
    assert _lines(path, "host-sync") == set()
