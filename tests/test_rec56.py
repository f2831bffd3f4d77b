"""Recall 56 (benchmarks/results/recall56.md): facts the analysis lacked behind the corpus's misses.

A method of a class defined in an earlier notebook cell, called on an object a later cell builds
(`faster_net = OmniglotNet(n).to(device)` in the task loop, then `faster_net.manual_forward(x, params)`)
or that an earlier cell built (`net = Net()` in its own cell), runs what it calls on every iteration
of the later cell's loop: public check 42's MAML notebook builds two CPU tensors and copies them to the
device in `batchnorm`, three times per `manual_forward` (its own-written shape:
tests/fixtures/public_shapes/check42/maml_fast_weights.ipynb). The call graph saw methods by
name in the cell holding the loop only, so the helper was not per-iteration code."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.api import analyze_path
from paef_jupyter.static.analyzer import analyze_units

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]

IMPORTS = "import torch\nfrom torch import nn\nimport torch.nn.functional as F\ndevice = 'cuda'\n"
CLASSES = (
    "def shift(x):\n"
    "    bias = torch.zeros(x.shape[1]).cuda()\n"  # the waste: line 2 of cell 1
    "    return x + bias\n"
    "\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(4, 1)\n"
    "\n"
    "    def manual_forward(self, x, w, b):\n"
    "        return F.linear(shift(x), w, b)\n"
    "\n"
    "class Other(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(4, 1)\n"
    "\n"
    "    def manual_forward(self, x, w, b):\n"
    "        return F.linear(x, w, b)\n"
)
WASTE = [("cpu-then-move", 1, 2)]


def _findings(*cells: str) -> list[tuple[str, int | None, int]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate([IMPORTS, CLASSES, *cells])]
    return sorted((f.rule, f.ref.cell, f.line) for f in analyze_units(units, rules=["cpu-then-move"]).findings)


def _loop(build: str, call: str = "net.manual_forward(x, w, b)") -> str:
    return (
        "for task in range(3):\n"
        f"    net = {build}\n"
        "    w, b = net.fc.weight, net.fc.bias\n"
        "    for step in range(5):\n"
        "        x = torch.randn(8, 4, device=device)\n"
        f"        loss = {call}.pow(2).mean()\n"
        "        g = torch.autograd.grad(loss, [w, b])\n"
    )


def test_a_method_of_an_earlier_cell_class_on_an_object_built_in_the_loop_runs_per_iteration() -> None:
    assert _findings(_loop("Net().to(device)")) == WASTE


def test_a_method_on_an_object_an_earlier_cell_built_runs_per_iteration() -> None:
    steps = ("for step in range(5):\n    x = torch.randn(8, 4, device=device)\n"
             "    loss = net.manual_forward(x, net.fc.weight, net.fc.bias).pow(2).mean()\n    loss.backward()\n")
    assert _findings("net = Net().to(device)\n", steps) == WASTE


def test_the_pub42_maml_notebook_helper_is_per_iteration() -> None:
    # an own-written shape of public check 42 p04 (the copy is kept out of the repository): `plain_norm`'s two
    # host buffers copied by `.cuda()`, called by `fast_forward`, which a later cell's task loop runs
    maml = ROOT / "tests" / "fixtures" / "public_shapes" / "check42" / "maml_fast_weights.ipynb"
    report = analyze_path(str(maml), rules=["cpu-then-move"])
    assert {(f.ref.cell, f.line) for f in report.findings} == {(1, 11), (1, 12)}


# --- near misses: the object is not known to be of the class whose method wastes ---------------

def test_another_class_with_a_method_of_the_same_name_is_not_the_one_called() -> None:
    assert _findings(_loop("Other().to(device)")) == []


def test_a_call_outside_any_loop_is_silent() -> None:
    once = "net = Net().to(device)\nx = torch.randn(8, 4, device=device)\nout = net.manual_forward(x, net.fc.weight, net.fc.bias)\n"
    assert _findings(once) == []


def test_an_object_a_function_returns_is_not_resolved() -> None:
    assert _findings("def make():\n    return Net()\n", _loop("make()")) == []


def test_a_later_cell_rebinding_the_name_hides_the_earlier_object() -> None:
    steps = "net = Other()\nfor step in range(5):\n    x = torch.randn(8, 4, device=device)\n    y = net.manual_forward(x, 1, 2)\n"
    assert _findings("net = Net().to(device)\n", steps) == []


def test_a_parameter_of_unknown_class_is_not_resolved() -> None:
    assert _findings("def run(net, x):\n    for i in range(5):\n        y = net.manual_forward(x, 1, 2)\n") == []


# --- a host helper now resolved is plumbing, not a model run (public check 39 p01) ---------------

GENERATOR = (
    "import numpy as np\nimport torch\nfrom torch import nn\nimport torch.nn.functional as F\n",
    "class Chars:\n"
    "    def __init__(self, text):\n"
    "        self.vocab = sorted(set(text))\n"
    "        self.index = {c: i for i, c in enumerate(self.vocab)}\n"
    "\n"
    "    def one_hot(self, chars, index):\n"
    "        out = np.zeros((len(chars), len(self.vocab)), dtype=np.float32)\n"
    "        for i, c in enumerate(chars):\n"
    "            out[i, index[c]] = 1.0\n"
    "        return out\n",
    "data = Chars('hello world')\nmodel = nn.Linear(len(data.vocab), len(data.vocab))\n",
    "def predict(model, ch):\n"
    "    x = torch.from_numpy(data.one_hot(ch, data.index))\n"
    "    with torch.no_grad():\n"
    "        out = model(x)\n"
    "        probs = F.softmax(out, dim=1)\n"
    "    return data.vocab[int(probs.argmax())]\n",
    "def sample(model, size):\n"
    "    model.eval()\n"
    "    chars = ['h']\n"
    "    for _ in range(size):\n"
    "        chars.append(predict(model, chars[-1]))\n"
    "    return ''.join(chars)\n",
    "print(sample(model, 5))\n",
)


def _eval_findings(*cells: str) -> list[tuple[int | None, int]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    return [(f.ref.cell, f.line) for f in analyze_units(units, rules=["eval-without-no-grad"]).findings]


def test_a_loop_whose_helper_runs_the_model_under_no_grad_beside_a_host_method_is_silent() -> None:
    """`predict` runs the model under `no_grad`; beside it, `data.one_hot(...)` (a NumPy method of an
    earlier cell's object, now resolved) cannot record a graph: the generation loop records none."""
    assert _eval_findings(*GENERATOR) == []


def test_a_helper_running_the_model_with_grad_on_still_counts() -> None:
    cells = list(GENERATOR)
    cells[3] = cells[3].replace("    with torch.no_grad():\n        out = model(x)\n        probs", "    out = model(x)\n    if True:\n        probs")
    assert _eval_findings(*cells) != []
