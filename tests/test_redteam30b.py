"""Red team 30b (what a unit fixed on its own cannot see): a module's global filled by its own
function is read by the files importing it. `paef fix metrics.py` detached `HISTORY.append(loss)`
where `main.py` printed `metrics.HISTORY[-1]` (its `grad_fn` lost): the importers in the project are
now read (as text) for the global's name, and a function nothing in sight calls leaves it to review."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_project_keeps_output, fixed_alone_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"

TRAIN = ("import torch.nn.functional as F\n\nHISTORY = []\n\n\n"
         "def train_epoch(model, batches, opt, device):\n"
         "    for x, y in batches:\n"
         "        x, y = x.to(device), y.to(device)\n"
         "        loss = F.mse_loss(model(x), y)\n"
         "        opt.zero_grad()\n"
         "        loss.backward()\n"
         "        opt.step()\n"
         "        HISTORY.append(loss)\n")
MAIN = ("import torch\nimport torch.nn as nn\n{imp}\n"
        "torch.manual_seed(0)\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = nn.Linear(3, 1).to(device)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]\n"
        "{call}\nprint({read})\n")


def test_module_stats_keeps_the_output(tmp_path: Path) -> None:
    """Fails on 5e08a0e: `HISTORY.append(loss.detach())` in metrics.py, `print(metrics.HISTORY[-1])`."""
    fix_project_keeps_output(tmp_path, REDTEAM / "rt30b_dev_proj_module_stats")


def _fixed_module(tmp_path: Path, imp: str, call: str, read: str, package: bool = False) -> str:
    where = tmp_path / "pkg" if package else tmp_path
    where.mkdir(exist_ok=True)
    if package:
        (where / "__init__.py").write_text("from .loops import *\n")
    (where / "loops.py").write_text(TRAIN)
    (tmp_path / "main.py").write_text(MAIN.format(imp=imp, call=call, read=read))
    return fixed_alone_keeps_output(tmp_path, where / "loops.py")


@pytest.mark.parametrize("imp, call, read, package", [
    ("import loops", "loops.train_epoch(model, batches, opt, device)", "loops.HISTORY[-1]", False),
    ("from loops import HISTORY, train_epoch", "train_epoch(model, batches, opt, device)", "HISTORY[-1]", False),
    ("from loops import *", "train_epoch(model, batches, opt, device)", "HISTORY[-1]", False),
    ("from pkg import *", "train_epoch(model, batches, opt, device)", "HISTORY[-1]", True),
    ("import pkg.loops as L", "L.train_epoch(model, batches, opt, device)", "L.HISTORY[-1].grad_fn is None", True),
])
def test_a_global_read_by_an_importer_keeps_its_graph(tmp_path: Path, imp: str, call: str, read: str, package: bool) -> None:
    text = _fixed_module(tmp_path, imp, call, read, package)
    assert "HISTORY.append(loss)\n" in text


def test_an_importer_not_reading_the_global_keeps_the_detach_to_review(tmp_path: Path) -> None:
    """The importer never names the global, but calls the function: the module alone cannot tell who
    else reads it, so the detach is not automatic either (nothing here calls `train_epoch`)."""
    text = _fixed_module(tmp_path, "import loops", "loops.train_epoch(model, batches, opt, device)", "len(batches)")
    assert "HISTORY.append(loss)\n" in text


def test_a_script_filling_its_own_global_is_still_detached(tmp_path: Path) -> None:
    """Near miss: the function is called by the script itself, nothing imports it: rewritten."""
    main = MAIN.format(imp="", call="train_epoch(model, batches, opt, device)", read="len(HISTORY)")
    (tmp_path / "train.py").write_text(TRAIN + main)
    assert "HISTORY.append(loss.detach())" in fixed_alone_keeps_output(tmp_path, tmp_path / "train.py", "train.py")


# --- eval-without-no-grad: a global the loop calls, rebound by an importer -----------------------

EV = '''import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


torch.manual_seed(0)
model = Net().to(device)


def validate(batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        out = model(x.to(device))
        total += F.mse_loss(out, y.to(device))
    model.train()
    return round(float(total) / len(batches), 5)
'''
SLOPE = '''

class SlopeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        x = x.requires_grad_(True)
        y = self.fc(x).tanh()
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        return y + g.sum(1, keepdim=True)


class Trainer:
    def __init__(self):
        self.model = SlopeNet()

'''
EV_MAIN = ("import torch\nimport torch.nn as nn\n{imp}\ntorch.manual_seed(0)\n" + SLOPE + "{rebind}\n"
           "g = torch.Generator().manual_seed(1)\n"
           "batches = [(torch.randn(8, 4, generator=g), torch.randn(8, 1, generator=g)) for _ in range(3)]\n"
           "print({call}(batches))\n")


def _fixed_ev(tmp_path: Path, imp: str, rebind: str, call: str) -> str:
    (tmp_path / "ev.py").write_text(EV)
    (tmp_path / "main.py").write_text(EV_MAIN.format(imp=imp, rebind=rebind, call=call))
    return fixed_alone_keeps_output(tmp_path, tmp_path / "ev.py")


def test_model_rebound_by_importer_keeps_the_output(tmp_path: Path) -> None:
    """Fails on 5e08a0e: `with torch.no_grad():` around ev.py's loop, `ev.model = SlopeNet()` in main.py."""
    fix_project_keeps_output(tmp_path, REDTEAM / "rt30bp_proj_model_rebound_by_importer")


@pytest.mark.parametrize("imp, rebind, call", [
    ("import ev", "ev.model = SlopeNet()", "ev.validate"),
    ("import ev as E", "E.model = SlopeNet()", "E.validate"),
    ("import ev", "setattr(ev, 'model', SlopeNet())", "ev.validate"),
])
def test_a_model_rebound_by_an_importer_refuses(tmp_path: Path, imp: str, rebind: str, call: str) -> None:
    assert "no_grad" not in _fixed_ev(tmp_path, imp, rebind, call)


def test_an_importer_not_rebinding_the_model_keeps_the_wrap(tmp_path: Path) -> None:
    """Near miss: the importer sets `self.model = SlopeNet()` on its own object, not `ev.model`."""
    assert "with torch.no_grad():" in _fixed_ev(tmp_path, "import ev", "trainer = Trainer()", "ev.validate")
