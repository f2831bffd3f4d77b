"""Recall 57 (issue 8): corpus misses fixed by the fact the analysis lacked, each new finding a
hint or a review fix (`benchmarks/results/recall57.md`).

1. A Lightning-style `module.validation_step(batch, i)` that only logs `.item()` floats into the
   module does not feed the next training pass's backward (`rules/_host_logging.py`).
2. MAML's functional forward `net.manual_forward(x, fast_weights)` is a model call.
3. Split into cells, a program keeps what one file proved: a later cell's reads followed to its
   backward, data-only batches of an earlier cell's loader, a loader returned to a later cell.
"""
from __future__ import annotations

import json
from pathlib import Path

import libcst as cst
import pytest

from benchmarks.determinism_forms import split
from paef_jupyter.api import analyze_path
from paef_jupyter.static.rules import eval_without_no_grad as ewng
from paef_jupyter.static.rules._host_logging import host_keeping_calls

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus"
# own-written shapes of public programs (the copies are kept out of the repository)
SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes"
MAML = SHAPES / "check42" / "maml_fast_weights.ipynb"  # public check 42 p04's shape
DETECTOR = SHAPES / "check37" / "detector_loaders_returned.py"  # public check 37 p03's shape
EVAL = "eval-without-no-grad"


def _findings(path: Path | str, rule: str) -> list:
    return [f for f in analyze_path(str(path), rules=[rule]).findings if f.rule == rule]


def _notebook(path: Path, cells: list[str]) -> Path:
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                     "source": text} for i, text in enumerate(cells)],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))
    return path


def _review_only(findings: list) -> bool:
    return bool(findings) and all(f.fix is not None and not f.fix.automatic for f in findings)


# 1. host-logging hooks ------------------------------------------------------------------------

def test_lightning_validation_loop_reported_for_review() -> None:
    found = _findings(CORPUS / "blind3_lightning_manual.py", EVAL)
    assert [f.line for f in found] == [64]
    assert _review_only(found) and "validation_step" in found[0].fix.review


_TRAINER = '''
import torch
import torch.nn.functional as F
from torch import nn


class Lit(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 3)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
        self.seen = []

    def forward(self, x):
        return self.net(x)

    def quiet_step(self, batch):
        x, y = batch
        self.seen.append(F.cross_entropy(self(x), y).item())

    def training_step(self, batch):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.seen.append(loss.item())


def fit(module, batches):
    module.train()
    for batch in batches:
        module.training_step(batch)
    module.eval()
    for batch in batches:
        module.quiet_step(batch)


fit(Lit(), [(torch.randn(2, 4), torch.tensor([0, 1]))])
'''


def test_training_step_is_never_host_keeping(tmp_path: Path) -> None:
    """A step that back-propagates and steps an optimizer, logging `.item()` like the hook, is not
    a host-keeping call: only the logging hook is skipped, and the training loop stays silent."""
    path = tmp_path / "trainer.py"
    path.write_text(_TRAINER)
    seen: dict[int, set[str]] = {}
    original = ewng.host_keeping_calls

    def spy(facts, loop):  # type: ignore[no-untyped-def]
        found = original(facts, loop)
        seen[facts.position(loop.node).start.line] = {facts.code(c.func) for c in found}
        return found

    ewng.host_keeping_calls = spy
    try:
        found = _findings(path, EVAL)
    finally:
        ewng.host_keeping_calls = original
    lines = _TRAINER.split("\n")
    quiet = lines.index("        module.quiet_step(batch)")  # 1-based line of the `for` above it
    # the `quiet_step` loop only; automatic, as at b38e9147: `fit` reads nothing of `module` into a backward of its
    # own (`training_step` back-propagates inside), so the loop is proved without the host-keeping proof
    assert [f.line for f in found] == [quiet] and found[0].fix.automatic
    assert seen.get(quiet) == {"module.quiet_step"}
    assert "module.training_step" not in set().union(*seen.values())


@pytest.mark.parametrize("kept, skipped", [("self(x).detach()", True), ("self(x)", False)])
def test_hook_output_read_by_the_training_step(tmp_path: Path, kept: str, skipped: bool) -> None:
    """The training step adds what the hook kept to its loss: a detached copy is host-keeping (the
    call skipped; the finding automatic, as at b38e9147); the output itself is not (the call still
    counts as changing the module, and the gate for state kept across calls leaves the wrap to
    review, as at b38e9147)."""
    text = _TRAINER.replace("        self.seen = []\n", "        self.seen = []\n        self.last = torch.zeros(1)\n")
    text = text.replace("        self.seen.append(F.cross_entropy(self(x), y).item())", f"        self.last = {kept}")
    text = text.replace("        loss = F.cross_entropy(self(x), y)\n", "        loss = F.cross_entropy(self(x), y) + 0.0 * self.last.sum()\n")
    from paef_jupyter.static.facts import Facts

    facts = Facts(cst.parse_module(text))
    quiet = next(lp for lp in facts.loops if "quiet_step" in facts.code(lp.node))
    assert ({facts.code(c.func) for c in host_keeping_calls(facts, quiet)} == {"module.quiet_step"}) is skipped
    path = tmp_path / "kept.py"
    path.write_text(text)
    found = _findings(path, EVAL)
    assert len(found) == 1 and found[0].fix.automatic is skipped


def test_host_keeping_calls_direct() -> None:
    """The proof on its own: the hook of the corpus program is host-keeping, found by method name."""
    from paef_jupyter.static.facts import Facts

    module = cst.parse_module((CORPUS / "blind3_lightning_manual.py").read_text())
    facts = Facts(module)
    loop = next(lp for lp in facts.loops if facts.position(lp.node).start.line == 64)
    assert {facts.code(c.func) for c in host_keeping_calls(facts, loop)} == {"module.validation_step", "self.to_device"}
    with_grad = cst.parse_module((CORPUS / "blind3_lightning_manual.py").read_text().replace(
        'self.log("val_loss", F.cross_entropy(logits, y).item())', 'self.log("val_loss", F.cross_entropy(logits, y))'))
    facts = Facts(with_grad)
    loop = next(lp for lp in facts.loops if facts.position(lp.node).start.line == 64)
    assert {facts.code(c.func) for c in host_keeping_calls(facts, loop)} == {"self.to_device"}


# 2. functional forward ------------------------------------------------------------------------

def test_maml_manual_forward_is_a_model_call() -> None:
    found = [f for f in _findings(MAML, EVAL) if f.ref.cell == 3]
    assert [f.line for f in found] == [13]  # the pre-adaptation query loop
    assert found[0].end_line >= 15 and _review_only(found)  # through `learner.fast_forward(img, fast)`


# 3. split cells --------------------------------------------------------------------------------

def _split_notebook(tmp_path: Path, program: str | Path) -> tuple[Path, list[int]]:
    chunks, offsets = split((CORPUS / program).read_text())
    return _notebook(tmp_path / (Path(program).stem + "_split.ipynb"), chunks), offsets


def test_split_rotnet_keeps_the_probe_feature_loop(tmp_path: Path) -> None:
    path, offsets = _split_notebook(tmp_path, "blind5_rotnet_ssl.py")
    found = [f for f in _findings(path, EVAL) if f.line + offsets[f.ref.cell] == 49]
    assert len(found) == 1 and _review_only(found)


def test_split_rotnet_probe_trained_on_the_graph_stays_silent(tmp_path: Path) -> None:
    """Near miss: the later cell trains the probe on `feats[:256]` without `.detach()` (and the
    encoder with it): the loop's graph reaches that backward."""
    text = (CORPUS / "blind5_rotnet_ssl.py").read_text().replace("probe(feats[:256].detach())", "probe(feats[:256])")
    chunks, offsets = split(text)
    path = _notebook(tmp_path / "graph.ipynb", chunks)
    assert [f for f in _findings(path, EVAL) if f.line + offsets[f.ref.cell] == 49] == []


def test_split_rotnet_features_kept_in_a_list_for_the_probe_stay_silent(tmp_path: Path) -> None:
    """Near miss: the later cell puts the features, not detached, in a list the probe trains on."""
    text = (CORPUS / "blind5_rotnet_ssl.py").read_text().replace(
        "for _ in range(100):\n    loss = F.cross_entropy(probe(feats[:256].detach()), labels[:256])",
        "bank = [feats[:256]]\nfor _ in range(100):\n    loss = F.cross_entropy(probe(bank[0]), labels[:256])")
    chunks, offsets = split(text)
    path = _notebook(tmp_path / "bank.ipynb", chunks)
    assert [f for f in _findings(path, EVAL) if f.line + offsets[f.ref.cell] == 49] == []


def test_split_maskrcnn_loaders_returned_to_a_later_cell(tmp_path: Path) -> None:
    path, offsets = _split_notebook(tmp_path, DETECTOR)
    found = [f for f in _findings(path, "pageable-transfer") if f.line + offsets[f.ref.cell] == 27]  # `make_loaders`
    assert len(found) == 1 and _review_only(found) and "later cell" in found[0].fix.review


def test_split_loader_function_redefined_by_a_later_cell_is_not_linked(tmp_path: Path) -> None:
    """Near miss: a later cell defines its own `get_loaders` before calling it: the earlier cell's
    loader is never the one iterated."""
    cells = [
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
        "DEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n",
        "def get_loaders():\n    ds = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))\n"
        "    return DataLoader(ds, batch_size=8, num_workers=2), DataLoader(ds, batch_size=8, num_workers=2)\n",
        "def train(loader):\n    for x, y in loader:\n        x, y = x.to(DEVICE), y.to(DEVICE)\n",
        "def get_loaders():\n    return [(torch.randn(8, 4), torch.randn(8, 1))], []\n\n\n"
        "def main():\n    tr, va = get_loaders()\n    train(tr)\n\n\nmain()\n",
    ]
    path = _notebook(tmp_path / "redefined.ipynb", cells)
    assert [f for f in _findings(path, "pageable-transfer") if f.ref.cell == 1] == []
    cells[3] = "def main():\n    tr, va = get_loaders()\n    train(tr)\n\n\nmain()\n"
    linked = [f for f in _findings(_notebook(tmp_path / "linked.ipynb", cells), "pageable-transfer") if f.ref.cell == 1]
    assert linked and _review_only(linked)


@pytest.mark.parametrize("program", ["blind5_rotnet_ssl.py", DETECTOR])
def test_the_file_itself_is_unchanged(program: str | Path) -> None:
    """The one-file forms keep their automatic fixes (the new proofs add review only where cells split)."""
    rule = EVAL if "rotnet" in str(program) else "pageable-transfer"
    found = _findings(CORPUS / program, rule)
    assert found and all(f.fix is not None and f.fix.automatic for f in found)
