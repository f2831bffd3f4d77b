"""Notebook cells analysed together, for tests of what one cell's rewrite means to the others."""

from __future__ import annotations

from paef_jupyter.static.analyzer import analyze_units
from paef_jupyter.model import CellRef, SourceUnit

# A small CPU training setup and a training cell whose running total keeps each step's graph.
SETUP = ("import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
         "data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]\n"
         "model = nn.Linear(3, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n")
TRAIN = ("running = 0.0\nfor x, y in data:\n    loss = nn.functional.mse_loss(model(x), y)\n"
         "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    running += loss\n")


def cell_findings(rule: str, *cells: str) -> list[tuple[int | None, int, bool]]:
    """(cell, line, fixable) of `rule`'s findings over `cells` as one notebook."""
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    return [(f.ref.cell, f.line, f.fixable) for f in analyze_units(units, rules=[rule]).findings]
