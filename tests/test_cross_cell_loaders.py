"""A loader built in one notebook cell and copied to the device in a helper defined in another,
reached through a helper whose parameter has the loader's own name (course notebooks:
`train(model, train_dataloader, ...)` -> `train_step(dataloader=train_dataloader)`)."""

from __future__ import annotations

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

SETUP = (
    "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ndevice = 'cuda'\n"
    "model = torch.nn.Linear(2, 1).to(device)\n"
    "data = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))\n"
)
LOADER = "train_dataloader = DataLoader(data, batch_size=4, num_workers=2)\n"
STEP = (
    "def train_step(model, dataloader):\n"
    "    for X, y in dataloader:\n"
    "        X, y = X.to(device), y.to(device)\n"
    "        (model(X) - y).pow(2).mean().backward()\n"
)
TRAIN = (
    "def train(model, train_dataloader, epochs):\n"
    "    for epoch in range(epochs):\n"
    "        train_step(model=model, dataloader=train_dataloader)\n"
)
CALL = "train(model=model, train_dataloader=train_dataloader, epochs=2)\n"


def _findings(*cells: str) -> list[tuple[int | None, int]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    return [(f.ref.cell, f.line) for f in analyze_units(units, rules=["pageable-transfer"]).findings]


def test_a_parameter_named_like_the_loader_does_not_hide_the_later_call() -> None:
    assert _findings(SETUP, LOADER, STEP, TRAIN, CALL) == [(1, 1)]


def test_a_top_level_rebinding_before_the_call_ends_the_link() -> None:
    pinned = "train_dataloader = DataLoader(data, batch_size=4, pin_memory=True)\n"
    assert _findings(SETUP, LOADER, STEP, TRAIN, pinned, CALL) == []


def test_a_parameter_of_the_same_name_is_not_the_global() -> None:
    """`run`'s loop iterates its parameter: the call hands it another (pinned) loader."""
    run = (
        "def run(model, train_dataloader):\n"
        "    for X, y in train_dataloader:\n"
        "        X = X.to(device)\n"
    )
    other = "pinned = DataLoader(data, batch_size=4, pin_memory=True)\nrun(model, pinned)\n"
    assert _findings(SETUP, LOADER, run, other) == []


def test_a_loader_only_counted_is_quiet() -> None:
    count = "def count(model, train_dataloader):\n    return sum(len(X) for X, y in train_dataloader)\n"
    assert _findings(SETUP, LOADER, count, "n = count(model, train_dataloader=train_dataloader)\n") == []
