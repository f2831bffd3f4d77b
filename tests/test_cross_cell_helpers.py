"""Facts across notebook cells (public11). A helper defined in one cell and called from the
training loop of a later cell is judged at that call: a call under `if step % N == 0:` runs every N steps, not every step
(public11: an HF course notebook's `evaluate()`, whose final `loss.item()` was reported as a
sync "on every training step" because its caller sat in another cell). A module imported in an
earlier cell is no object a later cell's loop changes."""

from __future__ import annotations

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

SETUP = (
    "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ndevice = 'cuda'\n"
    "model = torch.nn.Linear(2, 1).to(device)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "loader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), batch_size=4, pin_memory=True)\n"
)
HELPER = (
    "def evaluate():\n"
    "    model.eval()\n"
    "    losses = []\n"
    "    for x, y in loader:\n"
    "        with torch.no_grad():\n"
    "            losses.append((model(x.to(device, non_blocking=True)) - y.to(device, non_blocking=True)).pow(2).mean())\n"
    "    loss = torch.stack(losses).mean()\n"
    "    return loss.item()\n"
)


def _loop(call_line: str, guard: str | None) -> str:
    body = f"        {call_line}\n" if guard is None else f"        if {guard}:\n            {call_line}\n"
    return (
        "eval_steps, accumulation = 50, 4\n"
        "for epoch in range(2):\n"
        "    for step, (x, y) in enumerate(loader, start=1):\n"
        "        model.train()\n"
        "        loss = (model(x.to(device, non_blocking=True)) - y.to(device, non_blocking=True)).pow(2).mean()\n"
        "        loss.backward()\n"
        "        opt.step()\n"
        "        opt.zero_grad()\n"
        + body
    )


def _syncs(*cells: str) -> list[tuple[int | None, int]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    return [(f.ref.cell, f.line) for f in analyze_units(units, rules=["host-sync"]).findings]


def test_a_helper_called_on_every_step_of_a_later_cell_is_reported() -> None:
    assert _syncs(SETUP, HELPER, _loop("val = evaluate()", None)) == [(1, 8)]


def test_a_call_under_a_modulo_test_in_a_later_cell_is_periodic() -> None:
    assert _syncs(SETUP, HELPER, _loop("val = evaluate()", "step % eval_steps == 0")) == []


def test_a_parenthesised_modulo_of_a_product_is_periodic() -> None:
    guard = "(step % (eval_steps * accumulation)) == 0"
    assert _syncs(SETUP, HELPER, _loop("eval_loss = evaluate()", guard)) == []


def test_a_modulo_test_joined_with_another_condition_is_periodic() -> None:
    assert _syncs(SETUP, HELPER, _loop("val = evaluate()", "step > 0 and step % eval_steps == 0")) == []


def test_a_call_in_the_helper_cell_itself_still_counts() -> None:
    """The same helper called on every step of a loop of its own cell: reported as before."""
    own = HELPER + "for step, (x, y) in enumerate(loader):\n    opt.step()\n    print(evaluate())\n"
    assert _syncs(SETUP, own) == [(1, 8)]


def test_one_periodic_and_one_per_step_call_site_is_per_step() -> None:
    both = _loop("val = evaluate()", "step % eval_steps == 0") + "        last = evaluate()\n"
    assert _syncs(SETUP, HELPER, both) == [(1, 8)]


def test_a_module_imported_in_an_earlier_cell_is_no_object_the_loop_changes() -> None:
    """`np.random.choice(...)` in a later cell's loop does not make `np` (imported in the first
    cell) a changing name: `np.eye(voc_size)` there is the same array every iteration."""
    imports = "import numpy as np\nimport torch\n"
    helper = (
        "voc_size = 6\n"
        "def random_batch(pairs, size):\n"
        "    rows = []\n"
        "    for i in np.random.choice(range(len(pairs)), size, replace=False):\n"
        "        rows.append(np.eye(voc_size)[pairs[i][0]])\n"
        "    return rows\n"
    )
    loop = "pairs = [[1, 2], [3, 4]]\nfor step in range(3):\n    x = torch.tensor(np.stack(random_batch(pairs, 2)))\n"
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate((imports, helper, loop))]
    found = [(f.ref.cell, f.line) for f in analyze_units(units, rules=["cpu-function"]).findings]
    assert found == [(1, 5)]
    same_cell = [SourceUnit(CellRef("nb.ipynb", 0), imports + helper + loop)]
    assert [f.line for f in analyze_units(same_cell, rules=["cpu-function"]).findings] == [7]


TRAIN_STEP = (
    "def update(x, y):\n"
    "    loss = (model(x.to(device, non_blocking=True)) - y.to(device, non_blocking=True)).pow(2).mean()\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
    "    return loss.item()\n"
)


def _agent_loop(guard: str) -> str:
    return (
        "memory = []\n"
        "x, y = torch.randn(4, 2), torch.randn(4, 1)\n"
        "for frame in range(100):\n"
        "    memory.append(frame)\n"
        f"    if {guard}:\n"
        "        losses = update(x, y)\n"
    )


def test_a_guard_around_a_helper_that_is_the_training_step_still_counts_every_step() -> None:
    """`if len(memory) > 32: agent.update_parameters(...)` (a replay agent), `if frame % 4 == 0:`:
    the guard picks when to train; each call is one optimizer step, which reads the loss."""
    assert _syncs(SETUP, TRAIN_STEP, _agent_loop("len(memory) > 32")) == [(1, 6)]
    assert _syncs(SETUP, TRAIN_STEP, _agent_loop("frame % 4 == 0")) == [(1, 6)]
