"""Public check 47: a device kept on a namespace attribute (`args.__device__ = device`, the neural
cellular automaton), a helper's elementwise function of a host draw (Gumbel noise) and a model moved
in a cell of its own (`model = model.to(device)`, the categorical VAE notebook)."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path
from public_findings import write_notebook

ROOT = Path(__file__).resolve().parents[1]
# own-written shapes of public check 47 p03 and p04 (the copies are kept out of the repository)
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check47"
P03 = SHAPES / "neural_ca_namespace_device.py"
P04 = SHAPES / "categorical_vae_cells.ipynb"

NET = '''import torch
import torch.nn as nn
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x) + torch.randn(x.shape[0], 4).to(device)


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)
'''
LOOP = '''opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.ones(2, 4, device=device)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def _found(path: Path, rule: str = "cpu-then-move") -> dict[tuple[int | None, int], bool]:
    report = analyze_path(str(path), rules=[rule])
    assert not report.errors
    return {(f.ref.cell, f.line): f.fixable for f in report.findings}


def _lines(path: Path) -> set[int]:
    return {line for _, line in _found(path)}


def test_neural_ca_zeros_moved_to_a_namespace_device() -> None:
    assert 27 in _lines(P03)  # `seeds = seeds.to(opts.__device__)`, built by torch.zeros at 25


def test_categorical_vae_gumbel_draw_found_as_a_hint() -> None:
    found = {(cell, line): fixable for (cell, line), fixable in _found(P04).items()}
    assert found.get((2, 10)) is False  # `gumbel_noise(logits.shape).to(device)`: a hint, other numbers
    assert found.get((4, 4)) is True  # first contact's automatic `torch.full(..., device=device)` stays


def test_model_moved_in_its_own_cell_runs_forward_per_step(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, NET, "model = Net()\n", "model = model.to(device)\n", LOOP)
    assert 12 in _lines(path)  # Net.forward's host draw, moved every step


def test_model_rebound_to_another_class_in_the_moving_cell(tmp_path: Path) -> None:
    # the cell rebinds `model` to a Plain before moving it: the moved object is not the earlier Net
    path = write_notebook(tmp_path, NET, "model = Net()\n", "model = Plain()\nmodel = model.to(device)\n", LOOP)
    assert 12 not in _lines(path)
