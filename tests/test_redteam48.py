"""Red team 48 (blind, 10 programs: 3 projects, 2 notebooks, aimed at snapshots, serialisation, hooks
and random streams) met 4 automatic rewrites on first contact, none harmful. Probes after first contact
(not blind) found eval-without-no-grad harmful in a module fixed on its own (`paef fix evaluate.py`):
its evaluation helper runs a model it is HANDED, and the files that build that model and hand it over
(main.py, or a probes.py main.py calls) register a forward hook keeping the outputs; saved with
torch.save and loaded back they lost `requires_grad` under the wrap's no_grad. Fixed by category: in a
module fixed on its own whose loop calls a handed object, a project file that registers a module hook,
builds a fast-path layer (attention, transformer, LSTM) or defines a forward asking for autograd or
reading the grad mode sends the wrap to review.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from redteam_units import REDTEAM, rule_findings

from paef_jupyter.model import CellRef, SourceUnit

_RULE = "eval-without-no-grad"
_EVALUATE = '''import torch
import torch.nn.functional as F


def evaluate(model, loader, device):
    model.eval()
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        logits = model(xb)
        total += F.cross_entropy(logits, yb, reduction="sum").item()
    model.train()
    return total
'''
_MAIN_HEAD = '''import torch
import torch.nn as nn

from evaluate import evaluate

model = nn.Sequential(nn.Linear(3, 7), nn.Tanh(), nn.Linear(7, 2))
data = [(torch.randn(4, 3), torch.randint(0, 2, (4,)))]
'''
_MAIN_TAIL = "print(evaluate(model, data, 'cpu'))\n"


def _module(path: Path) -> list[SourceUnit]:
    return [SourceUnit(CellRef(str(path), None), path.read_text())]


def _fixable(tmp_path: Path, files: dict[str, str]) -> list[bool]:
    """The wrap's fixability in evaluate.py of a project made of `files` (plus evaluate.py)."""
    (tmp_path / "evaluate.py").write_text(_EVALUATE)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [f.fixable for f in rule_findings(_module(tmp_path / "evaluate.py"), _RULE)]


_NOTEBOOK = ('{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, '
             '"source": ["%%time\\n", "from evaluate import evaluate\\n", '
             '"model[0].register_forward_hook(lambda m, i, o: kept.append(o))\\n"]}], '
             '"metadata": {}, "nbformat": 4, "nbformat_minor": 5}')

# Another project file builds or hooks the handed model in a way no_grad changes: review.
FIRING = {
    "hook_in_the_caller": {"main.py": _MAIN_HEAD + "kept = []\nmodel[1].register_forward_hook(lambda m, i, o: kept.append(o))\n"
                           + _MAIN_TAIL},
    "hook_in_a_third_module": {
        "probes.py": "def attach(layer, store):\n    return layer.register_forward_hook(store)\n",
        "main.py": _MAIN_HEAD + "from probes import attach\nkept = []\nattach(model[1], lambda m, i, o: kept.append(o))\n"
        + _MAIN_TAIL},
    "pre_hook_by_name": {"main.py": _MAIN_HEAD + "getattr(model[0], 'register_forward_pre_hook')(lambda m, i: None)\n"
                         + _MAIN_TAIL},
    "global_module_hook": {"main.py": _MAIN_HEAD + "torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: o)\n"
                           + _MAIN_TAIL},
    "fast_path_layer_in_the_caller": {"main.py": _MAIN_HEAD.replace(
        "nn.Sequential(nn.Linear(3, 7), nn.Tanh(), nn.Linear(7, 2))",
        "nn.Sequential(nn.TransformerEncoderLayer(3, 1, 8, batch_first=True), nn.Flatten(), nn.LazyLinear(2))")
        + _MAIN_TAIL},
    "lstm_in_a_model_module": {
        "net.py": "import torch.nn as nn\n\n\nclass Tagger(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.rnn = nn.LSTM(3, 4, batch_first=True)\n\n    def forward(self, x):\n        return self.rnn(x)[0]\n",
        "main.py": "from evaluate import evaluate\nfrom net import Tagger\n\nprint(evaluate(Tagger(), [], 'cpu'))\n"},
    "forward_reads_grad_mode": {
        "net.py": "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.fc = nn.Linear(3, 2)\n        self.calls = 0\n\n    def forward(self, x):\n"
                  "        if torch.is_grad_enabled():\n            self.calls += 1\n        return self.fc(x)\n",
        "main.py": "from evaluate import evaluate\nfrom net import Net\n\nprint(evaluate(Net(), [], 'cpu'))\n"},
    "forward_registers_a_tensor_hook": {
        "net.py": "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.fc = nn.Linear(3, 2)\n\n    def forward(self, x):\n        out = self.fc(x)\n"
                  "        out.register_hook(print)\n        return out\n",
        "main.py": "from evaluate import evaluate\nfrom net import Net\n\nprint(evaluate(Net(), [], 'cpu'))\n"},
    "hook_in_a_notebook_of_the_project": {"analysis.ipynb": _NOTEBOOK, "main.py": _MAIN_HEAD + _MAIN_TAIL},
    # the notebook is the only importer: read as its code cells, not as JSON whose lines start with quotes
    "a_notebook_is_the_only_importer": {"analysis.ipynb": _NOTEBOOK},
    "a_notebook_written_by_nbformat_is_the_only_importer": {"analysis.ipynb": json.dumps(json.loads(_NOTEBOOK), indent=1)},
}

# Near misses: nothing in the project's other files changes under no_grad, so the wrap stays automatic.
SILENT = {
    "plain_caller": {"main.py": _MAIN_HEAD + _MAIN_TAIL},
    "hook_only_in_a_comment": {"main.py": _MAIN_HEAD + "# model[1].register_forward_hook(keep) was removed\n" + _MAIN_TAIL},
    "hook_named_in_a_sentence": {"main.py": _MAIN_HEAD + "NOTE = 'no register_forward_hook here'\n" + _MAIN_TAIL},
    "buffers_and_parameters_registered": {"main.py": _MAIN_HEAD + "model.register_buffer('scale', torch.ones(1))\n"
                                          "model.register_parameter('bias2', nn.Parameter(torch.zeros(2)))\n" + _MAIN_TAIL},
    "lstm_cell_is_no_fast_path": {"main.py": _MAIN_HEAD.replace("nn.Tanh()", "nn.Identity()") + "cell = nn.LSTMCell(3, 3)\n"
                                  + _MAIN_TAIL},
    "tensor_hook_in_a_training_function": {"train.py": "def step(model, x):\n    out = model(x)\n"
                                           "    out.register_hook(print)\n    out.sum().backward()\n",
                                           "main.py": _MAIN_HEAD + _MAIN_TAIL},
    "grad_read_outside_forward": {
        "net.py": "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.fc = nn.Linear(3, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n\n"
                  "    def grad_norm(self):\n        return sum(p.grad.norm() for p in self.parameters() if p.requires_grad)\n",
        "main.py": "from evaluate import evaluate\nfrom net import Net\n\nprint(evaluate(Net(), [], 'cpu'))\n"},
    "trainer_backward_outside_any_forward": {
        "train.py": "def fit(model, opt, data):\n    for x, y in data:\n        model(x).sum().backward()\n        opt.step()\n",
        "main.py": _MAIN_HEAD + _MAIN_TAIL},
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_a_handed_model_built_or_hooked_out_of_sight_is_for_review(tmp_path: Path, name: str) -> None:
    fixable = _fixable(tmp_path, FIRING[name])
    assert fixable and not any(fixable)


@pytest.mark.parametrize("name", sorted(SILENT))
def test_a_handed_model_whose_project_changes_nothing_under_no_grad_is_rewritten(tmp_path: Path, name: str) -> None:
    fixable = _fixable(tmp_path, SILENT[name])
    assert fixable and all(fixable)


def test_a_module_nobody_imports_is_not_read_against_its_folder(tmp_path: Path) -> None:
    """A script fixed alone with no importer: its callers are in sight, the folder's other files are not
    its project's code."""
    (tmp_path / "other.py").write_text("import torch.nn as nn\nnn.Linear(2, 2).register_forward_hook(print)\n")
    (tmp_path / "script.py").write_text(_EVALUATE + "\n" + _MAIN_HEAD.replace("from evaluate import evaluate\n", "")
                                        + _MAIN_TAIL)
    fixable = [f.fixable for f in rule_findings(_module(tmp_path / "script.py"), _RULE)]
    assert fixable and all(fixable)


@pytest.mark.parametrize("project", ["rt48p_proj_hooked_eval", "rt48p_proj_probe_elsewhere", "rt48p_proj_fastpath_eval"])
def test_the_probe_projects_evaluation_helper_is_no_longer_wrapped(project: str) -> None:
    findings = rule_findings(_module(REDTEAM / project / "evaluate.py"), _RULE)
    assert findings and not any(f.fixable for f in findings)


def test_the_blind_programs_first_contact_holds() -> None:
    """What held on first contact: the EMA project's evaluation helper, handed only library models
    built without hooks or fast-path layers, is still wrapped."""
    findings = rule_findings(_module(REDTEAM / "rt48_proj_ema_snapshots" / "evaluate.py"), _RULE)
    assert findings and all(f.fixable for f in findings)
