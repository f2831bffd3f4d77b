"""Red team 15's findings that need more than one unit: a project whose local module changes
state a library keeps (`warnings` filters, NumPy's error mode, torch's grad mode) while the
script's loop reads it, and an evaluation loop through an LSTM defined in a local module (under
no_grad PyTorch's CPU build runs oneDNN's inference LSTM, whose last bits differ)."""

from __future__ import annotations

from pathlib import Path

from paef_cli import proved_lines

MAIN = """import warnings

import numpy as np
import torch

import setup

vals = []
for step in range(3):
    nf = torch.tensor(len(warnings.filters))
    m = torch.tensor(np.geterr()["over"] == "raise")
    g = torch.tensor(torch.is_grad_enabled())
    z = torch.zeros(3)
    setup.configure(step)
    vals.append((int(nf), bool(m), bool(g), z.numel()))
print(vals)
"""
SETUP = """import warnings

import numpy as np
import torch


def configure(step):
    warnings.simplefilter("ignore")
    np.seterr(over="raise" if step % 2 == 0 else "warn")
    torch.set_grad_enabled(step % 2 == 1)
"""


def test_library_state_a_local_module_changes_is_not_hoisted(tmp_path: Path) -> None:
    """`setup.configure` (a local module's function) calls `warnings.simplefilter`, `np.seterr` and
    `torch.set_grad_enabled`: the tensors read from that state are not loop-invariant; the
    constant `torch.zeros(3)` still is. Fails on 006fd02 (all four hoisted)."""
    assert proved_lines(tmp_path, {"main.py": MAIN, "setup.py": SETUP}, "redundant-tensor") == [13]


def test_library_state_read_by_a_loop_calling_no_local_code_is_hoisted(tmp_path: Path) -> None:
    """Near miss: the same reads in a loop that changes no library state."""
    main = MAIN.replace("    setup.configure(step)\n", "")
    assert proved_lines(tmp_path, {"main.py": main, "setup.py": SETUP}, "redundant-tensor") == [10, 11, 12, 13]


EVAL = """import torch

from model import Tagger

tagger = Tagger().eval()
batches = [torch.randn(2, 5, 8) for _ in range(3)]
sums = []
for xb in batches:
    sums.append(tagger(xb).sum().item())
print(sum(sums))
"""
MODEL = """import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.{layer}(8, 16, batch_first=True)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.head(h)
"""


def test_an_lstm_of_a_local_module_keeps_the_wrap_for_review(tmp_path: Path) -> None:
    """`Tagger` (a local module's class) runs an `nn.LSTM`: under no_grad its outputs change in
    the last bits on CPU, so the evaluation loop is reported for review. Fails on 006fd02."""
    files = {"main.py": EVAL, "model.py": MODEL.format(layer="LSTM")}
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_a_gru_of_a_local_module_is_wrapped(tmp_path: Path) -> None:
    """Near miss: the same model with an `nn.GRU`, whose outputs are the same bits under no_grad."""
    files = {"main.py": EVAL, "model.py": MODEL.format(layer="GRU")}
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == [8]
