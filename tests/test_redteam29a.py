"""Red team 29a: three facts the automatic rewrites lacked.

- list-to-tensor turned every `.append(x.item())` of a list into `.append(x.detach())` and the
  `torch.tensor(list)` into `torch.stack(list)` without asking whether the scope owns the list: a
  module-level list appended and converted in a function (the script dumps it to JSON), a
  caller's list handed in as a parameter, a notebook list started (and appended) in an earlier
  cell or read by a later one. The others then see tensors, and floats already in the list make
  `torch.stack` raise.
- operator-fusion's leaky ReLU (`torch.where(x > 0, x, s * x)` -> `F.leaky_relu(x, s)`) is bitwise
  the same forward, but the fused op saves its input for the backward where the hand-written form
  saves only the mask: an in-place write to the input before the backward (a residual `h += ...`,
  the caller of an `lrelu` helper changing its argument) makes the fused form raise.
- the dtype analysis took `torch.matmul` / `mm` / `bmm` / `einsum` as float: of int64 tensors
  they are int64, and `F.leaky_relu` has no integer kernel."""

from __future__ import annotations

from pathlib import Path

import pytest

from cell_findings import cell_findings
from dtype_cases import assert_dtype_agrees
from paef_cli import fix_keeps_output

from paef_jupyter.api import analyze_path

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt29a_of_residual_leaky_mlp.py", "rt29a_of_path_count_features.py",
            "rt29a2_ltt_module_list_appended_in_train_fn.py", "rt29a2_of_lrelu_helper_inplace_caller.py",
            "rt29a2_of_cooccurrence_einsum.py", "rt29a_ltt_global_val_losses.py", "rt29a_ltt_resumed_loss_log.py",
            "rt29a2_ltt_caller_keeps_history.py", "rt29a2_ltt_triangle_counts.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """The first five fail on 9d323d3 (a fused op raising in backward or on int64, a JSON dump of tensors)."""
    fix_keeps_output(tmp_path, REDTEAM / program)


@pytest.mark.parametrize("notebook", ["rt29a_nb_history_started_in_warmup_cell.ipynb",
                                      "rt29a2_nb_later_cell_reads_recorded_list.ipynb"])
def test_notebook_lists_of_other_cells_are_not_rewritten(notebook: str) -> None:
    report = analyze_path(str(REDTEAM / notebook))
    assert [f.line for f in report.findings if f.rule == "list-to-tensor" and f.fixable] == []


SETUP = "import torch\nadj = (torch.arange(16).reshape(4, 4) % 3 == 0).long()\nfl = adj.float()\nhot = torch.nn.functional.one_hot(torch.tensor([0, 2, 1]), 3)\n"


@pytest.mark.parametrize("code", ["torch.matmul(adj, adj)", "torch.mm(adj, adj)", "adj.mm(adj)", "adj.matmul(adj)",
                                  "torch.bmm(adj[None], adj[None])", 'torch.einsum("ti,tj->ij", hot, hot)',
                                  "torch.matmul(fl, fl)", "fl.mm(fl)", 'torch.einsum("ij,jk->ik", fl, fl)', "adj @ adj",
                                  "torch.mm(adj, adj) - 1", "torch.matmul(adj, adj).sum()"])
def test_dtype_of_products_follows_torch(code: str) -> None:
    assert_dtype_agrees(SETUP, code)


LIST = "import torch\nw = torch.randn(3)\n"
FILL = "vals = []\nfor i in range(3):\n    vals.append((w * i).sum().item())\n"


def test_a_list_started_in_an_earlier_cell_is_not_rewritten() -> None:
    """Cell 2 appends to the list cell 1 started; cell 3 appends more and converts it: the list is
    not cell 3's own (floats of cell 2 would meet tensors in `torch.stack`)."""
    assert [f for f in cell_findings("list-to-tensor", LIST + "vals = []\n", "vals.append(1.5)\n",
                                     "for i in range(3):\n    vals.append((w * i).sum().item())\nt = torch.tensor(vals)\n")
            if f[2]] == []


def test_a_list_started_in_the_cell_keeps_the_rewrite() -> None:
    found = cell_findings("list-to-tensor", LIST, "print('ready')\n", FILL + "t = torch.tensor(vals)\n")
    assert found == [(2, 3, True)]


@pytest.mark.parametrize("caller", ["h = lrelu(x)\nx.mul_(2.0)\n", "h = lrelu(x)\nx += 1.0\n", "h = lrelu(x[:, :2])\nx.zero_()\n",
                                    "h = lrelu(*[x])\n"])
def test_leaky_input_written_by_the_caller_is_refused(caller: str) -> None:
    code = ("import torch\n\ndef lrelu(v):\n    return torch.where(v > 0, v, 0.2 * v)\n\n"
            "x = torch.randn(3, 4, requires_grad=True) * 1.0\n" + caller)
    assert [f[2] for f in cell_findings("operator-fusion", code)] == [False]


@pytest.mark.parametrize("caller", ["h = lrelu(x)\ny = x * 2.0\n", "h = lrelu(x * 2.0)\nx.mul_(2.0)\n",
                                    "h = lrelu(torch.randn(3))\n"])
def test_leaky_input_nobody_writes_keeps_the_rewrite(caller: str) -> None:
    code = ("import torch\n\ndef lrelu(v):\n    return torch.where(v > 0, v, 0.2 * v)\n\n"
            "x = torch.randn(3, 4, requires_grad=True) * 1.0\n" + caller)
    assert [f[2] for f in cell_findings("operator-fusion", code)] == [True]


def test_leaky_input_written_in_a_later_cell_is_refused() -> None:
    """Probe after the fixes (not blind): the input is a notebook name a later cell changes in place."""
    setup = "import torch\nx = torch.randn(3, 4, requires_grad=True) * 1.0\n"
    act = "a = torch.where(x > 0, x, 0.2 * x)\n"
    assert [f[2] for f in cell_findings("operator-fusion", setup, act, "x.add_(1.0)\na.sum().backward()\n")] == [False]
    assert [f[2] for f in cell_findings("operator-fusion", setup, act, "a.sum().backward()\n")] == [True]


@pytest.mark.parametrize(("code", "fixable"), [
    # a global read in a function, changed in place by the script after the call
    ("g = torch.randn(3, requires_grad=True) * 1.0\n\ndef f():\n    return torch.where(g > 0, g, 0.2 * g)\n\n"
     "a = f()\ng.mul_(2.0)\n", False),
    ("g = torch.randn(3, requires_grad=True) * 1.0\n\ndef f():\n    return torch.where(g > 0, g, 0.2 * g)\n\na = f()\n", True),
    # a buffer of the module changed in place after the activation read it
    ("class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer('mem', torch.zeros(3))\n"
     "    def forward(self, x):\n        a = torch.where(self.mem > 0, self.mem, 0.2 * self.mem)\n        self.mem.mul_(0.9)\n"
     "        return a + x\n", False),
])
def test_leaky_input_written_elsewhere_probes(code: str, fixable: bool) -> None:
    """Probes after the fixes (not blind)."""
    assert [f[2] for f in cell_findings("operator-fusion", "import torch\n" + code)] == [fixable]
