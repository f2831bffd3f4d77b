"""Facts a notebook's later cells give an earlier one (public24, a seq2seq translation notebook):
a class defined before the cell that runs `import torch` reads torch when its methods run, and
a step function whose model parameter a later cell fills with an earlier cell's instance runs
that instance's `forward` in its loops."""

from __future__ import annotations

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

MODEL = (
    "import torch.nn as nn\n"
    "class Net(nn.Module):\n"
    "    def __init__(self, device):\n"
    "        super().__init__()\n"
    "        self.lin = nn.Linear(4, 4)\n"
    "        self.device = device\n"
    "    def forward(self, x):\n"
    "        out = torch.zeros(x.shape[0], 4).to(self.device)\n"
    "        return self.lin(x) + out\n"
)
BUILD = (
    "import torch\n"
    "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    "model = Net(device).to(device)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)
STEP = (
    "def train_epoch(model, opt):\n"
    "    for step in range(10):\n"
    "        x = torch.randn(8, 4, device=device)\n"
    "        loss = model(x).pow(2).mean()\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
)


def _moves(*cells: str) -> list[tuple[int | None, int]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    return [(f.ref.cell, f.line) for f in analyze_units(units, rules=["cpu-then-move"]).findings]


def test_torch_imported_after_the_class_cell_is_torch_in_its_methods() -> None:
    loop = "for step in range(10):\n    loss = model(torch.randn(8, 4, device=device)).pow(2).mean()\n" \
           "    opt.zero_grad(); loss.backward(); opt.step()\n"
    assert _moves(MODEL, BUILD, loop) == [(0, 8)]


def test_a_later_cell_handing_the_model_to_an_earlier_step_function() -> None:
    assert _moves("import torch\n" + MODEL, BUILD, STEP, "train_epoch(model, opt)\n") == [(0, 9)]


def test_near_misses_stay_silent() -> None:
    # the step function is never called with the model: nothing runs `forward` per step
    assert _moves("import torch\n" + MODEL, BUILD, STEP, "print(model)\n") == []
    # a later cell binds `torch` to something else before importing: not torch's `zeros`
    loop = "for step in range(10):\n    loss = model(x).pow(2).mean()\n    opt.zero_grad(); loss.backward(); opt.step()\n"
    other = "torch = object()\nimport numpy as np\nx = np.zeros((8, 4))\nclass Net:\n    def __init__(self, d): pass\n" \
            "model = Net(None)\nopt = None\n"
    assert _moves(MODEL, other, loop) == []
