"""Red team 17's findings that need more than one unit: a local module's trainer returns a
running total of the losses its step back-propagated; the callers are in another module, so
whether any of them reads the total as a tensor (`requires_grad`, printed, back-propagated) is
not seen, and the `.detach()` is left to review."""

from __future__ import annotations

from pathlib import Path

from paef_cli import proved_lines

MAIN = """import trainer

ret = trainer.Returner().train()
print(ret.requires_grad)
"""
TRAINER = """import torch
from torch import nn

BATCHES = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]


class Returner:
    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)

    def training_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def train(self):
        tr_loss = torch.zeros(())
        for x, y in BATCHES:
            tr_loss += self.training_step(x, y)
        return tr_loss
"""


def test_a_total_returned_to_callers_in_another_module_is_for_review(tmp_path: Path) -> None:
    """`train` returns the total and its caller (main.py) asks `requires_grad`: not seen from
    trainer.py, so not automatic. Fails on 29334b4 (line 22 fixable)."""
    files = {"main.py": MAIN, "trainer.py": TRAINER}
    assert proved_lines(tmp_path, files, "graph-retention", entry="trainer.py") == []


def test_a_total_kept_inside_the_module_is_detached(tmp_path: Path) -> None:
    """Near miss: the total is turned into a number before `train` returns it."""
    trainer = TRAINER.replace("        return tr_loss\n", "        return tr_loss.item()\n")
    files = {"main.py": MAIN.replace("ret.requires_grad", "ret"), "trainer.py": trainer}
    assert proved_lines(tmp_path, files, "graph-retention", entry="trainer.py") == [22]


def test_a_total_returned_to_a_caller_reading_its_graph_is_for_review(tmp_path: Path) -> None:
    """Scanned from main.py, the caller is seen: `ret.requires_grad` reads the graph the detach
    would cut. Fails on 29334b4 (line 22 fixable)."""
    files = {"main.py": MAIN, "trainer.py": TRAINER}
    assert proved_lines(tmp_path, files, "graph-retention") == []


def test_a_total_returned_to_a_caller_reading_a_number_is_detached(tmp_path: Path) -> None:
    """Near miss: the caller, once per epoch, binds the total and reads it only as `ret.item()`."""
    main = "from trainer import Returner\n\nr = Returner()\nfor epoch in range(2):\n    ret = r.train()\n    print(ret.item())\n"
    files = {"main.py": main, "trainer.py": TRAINER}
    assert proved_lines(tmp_path, files, "graph-retention") == [22]


def test_a_returned_total_read_as_a_tensor_outside_the_callers_loop_is_for_review(tmp_path: Path) -> None:
    """main.py reads the total as a number once per epoch, then once more outside the loop as a
    tensor (`last.requires_grad`): every call in that unit counts, not only those in its loop.
    Fails on 29334b4 (line 22 fixable)."""
    main = ("from trainer import Returner\n\nr = Returner()\nfor epoch in range(2):\n    ret = r.train()\n"
            "    print(ret.item())\nlast = r.train()\nprint(last.requires_grad)\n")
    assert proved_lines(tmp_path, {"main.py": main, "trainer.py": TRAINER}, "graph-retention") == []
