"""label49's two written rules (benchmarks/results/label49.md), checked on their own shapes:
host-sync is silent on an evaluation pass of a program that trains and reports the same loop in a
program that only evaluates; pageable-transfer reports an unpinned loader only where pinning buys
overlap (worker processes, or a copy that asks for `non_blocking=True`)."""

from __future__ import annotations

import torch
from torch.utils.data import DataLoader, TensorDataset

from paef_jupyter.api import analyze
from paef_jupyter.model import CellRef, Finding, SourceUnit

HEAD = '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(6, 3).to(device)
data = TensorDataset(torch.randn(40, 6), torch.randint(0, 3, (40,)))
'''
EVALUATE = '''
def evaluate(loader):
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
    return correct
'''
TRAIN = '''
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x, y in DataLoader(data, batch_size=8, pin_memory=True):
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(evaluate(DataLoader(data, batch_size=8, pin_memory=True)))
'''
ONLY_EVALUATE = '''
model.load_state_dict(torch.load("model.pt", map_location=device))
print(evaluate(DataLoader(data, batch_size=8, pin_memory=True)))
'''


def _findings(text: str, rule: str, namespace: dict | None = None) -> list[Finding]:
    return list(analyze([SourceUnit(CellRef("t.py"), text)], namespace=namespace, rules=[rule]).findings)


def _line(text: str, finding: Finding) -> str:
    return text.splitlines()[finding.line - 1].strip()


def test_evaluation_pass_of_a_training_program_is_silent() -> None:
    assert not _findings(HEAD + EVALUATE + TRAIN, "host-sync")


def test_the_same_loop_in_a_program_that_only_evaluates_is_reported() -> None:
    text = HEAD + EVALUATE + ONLY_EVALUATE
    (finding,) = _findings(text, "host-sync")
    assert _line(text, finding).startswith("correct +=") and "every evaluation step" in finding.message
    assert finding.severity.value == "medium"


def test_training_in_a_later_cell_silences_the_evaluation_cell() -> None:
    cells = [HEAD, EVALUATE, TRAIN]
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    assert not analyze(units, rules=["host-sync"]).findings
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate([HEAD, EVALUATE, ONLY_EVALUATE])]
    (finding,) = analyze(units, rules=["host-sync"]).findings
    assert finding.ref.cell == 1


def test_a_no_grad_loop_inside_a_training_step_is_still_reported() -> None:
    text = HEAD + '''
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for episode in range(3):
    values = []
    with torch.no_grad():
        for t in range(5):
            values.append(model(torch.zeros(6, device=device)).max().item())
    loss = model(torch.zeros(6, device=device)).sum() * sum(values)
    opt.zero_grad()
    loss.backward()
    opt.step()
'''
    (finding,) = _findings(text, "host-sync")
    assert _line(text, finding).startswith("values.append")


def test_training_step_reads_are_unchanged() -> None:
    text = HEAD + TRAIN.replace("        opt.step()\n", "        opt.step()\n        print(loss.item())\n") + EVALUATE
    lines = [_line(text, f) for f in _findings(text, "host-sync")]
    assert lines == ["print(loss.item())"]


LOOP = '''
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    x, y = x.to(device{nb}), y.to(device{nb})
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def _loader_findings(loader: str, non_blocking: bool = False) -> list[Finding]:
    text = HEAD + "import argparse\nargs = argparse.Namespace(workers=2)\nkw = {'num_workers': 2}\n" \
        + f"loader = {loader}\n" + LOOP.format(nb=", non_blocking=True" if non_blocking else "")
    return [f for f in _findings(text, "pageable-transfer") if _line(text, f).startswith("loader =")]


def test_single_process_loaders_copied_blocking_are_silent() -> None:
    for loader in ("DataLoader(data, batch_size=8)", "DataLoader(data, batch_size=8, num_workers=0)",
                   "DataLoader(data, 8, True, None, None, 0)"):
        assert not _loader_findings(loader), loader


def test_loaders_worth_pinning_are_reported() -> None:
    for loader in ("DataLoader(data, batch_size=8, num_workers=4)", "DataLoader(data, batch_size=8, num_workers=args.workers)",
                   "DataLoader(data, 8, True, None, None, 2)", "DataLoader(data, batch_size=8, **kw)"):
        assert len(_loader_findings(loader)) == 1, loader
    assert len(_loader_findings("DataLoader(data, batch_size=8)", non_blocking=True)) == 1


def test_a_live_loader_is_judged_by_its_worker_count() -> None:
    cell = "for x, y in loader:\n    x, y = x.to(device), y.to(device)\n    print(model(x).shape)\n"
    data = TensorDataset(torch.randn(8, 6), torch.zeros(8))
    for workers, expected in ((0, 0), (2, 1)):
        namespace = {"torch": torch, "device": "cuda", "model": torch.nn.Linear(6, 3),
                     "loader": DataLoader(data, batch_size=4, num_workers=workers)}
        found = analyze([SourceUnit(CellRef("nb.ipynb", 1), cell)], namespace=namespace, rules=["pageable-transfer"]).findings
        assert len(found) == expected, workers
