"""Red team 29b (multi-file projects, notebooks, framework-shaped loops): two facts the rewrites
lacked, both met in a module fixed on its own (`paef fix trainer.py`, as the scorer does for
every file of a project):

- graph-retention took a name for a tensor because the loop calls `.backward()` on it, even where
  that call sits under a branch (`if torch.is_tensor(loss): loss.backward()`): a Lightning-shaped
  `training_step` that returns `0.0` for an unlabelled batch made `epoch_loss += loss.detach()`
  fail on a float;
- the dtype analysis read every matrix product (`einsum`, `matmul`, `mm`, `bmm`) as a float, so
  host-sync summed an int64 count of agreeing one-hot codes with `.double()` and printed `48.0`
  where the program printed `48`.

The dtype cases are checked against torch itself: the analysis gives torch's dtype, its family,
or None (unknown), never a wrong one."""

from __future__ import annotations

import shutil
from pathlib import Path

import libcst as cst
import pytest

from dtype_cases import assert_dtype_agrees
from paef_cli import fix_project_keeps_output, paef

from paef_jupyter.static.rules._tensor_facts import dtype_of, family
from test_facts import facts_of

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROJECTS = ["rt29b_proj_token_tagger"]


@pytest.mark.parametrize("project", PROJECTS)
def test_fix_keeps_the_output(tmp_path: Path, project: str) -> None:
    """Fails on 9d323d3: `epoch_loss += loss.detach()` on a float, an int64 count summed as float64."""
    fix_project_keeps_output(tmp_path, REDTEAM / project)


def test_trainer_alone_still_detaches_nothing_unproven_and_sums_counts_exactly(tmp_path: Path) -> None:
    """The tagger's trainer fixed alone: the total of a maybe-float loss is left to review, the
    one-hot agreement count is still rewritten (exactly, without `.double()`)."""
    target = tmp_path / "trainer.py"
    shutil.copy(REDTEAM / "rt29b_proj_token_tagger" / "trainer.py", target)
    done = paef("fix", str(target), "-o", str(target))
    assert done.returncode in (0, 1), done.stderr
    text = target.read_text()
    assert "epoch_loss += loss\n" in text
    assert '.item()\n' not in text.split("agree +=")[1].split("\n")[0] + "\n"
    assert "F.one_hot(known, n_tags)).detach()\n" in text


SETUP = ("import torch.nn.functional as F\ncodes = torch.randint(0, 4, (6,))\noh = F.one_hot(codes, 4)\n"
         "small = oh.int()\nx = torch.randn(6, 4)\nxd = x.double()\n")


@pytest.mark.parametrize("code", [
    'torch.einsum("nc,nc->", oh, oh)', "torch.mm(oh, oh.T)", "torch.matmul(oh, oh.T)", "oh.matmul(oh.T)",
    "oh.mm(oh.T)", "torch.bmm(oh.unsqueeze(1), oh.unsqueeze(2))", "torch.mv(oh.T, codes)", "torch.dot(codes, codes)",
    "torch.outer(codes, codes)", "torch.inner(codes, codes)", "torch.mm(small, small.T)", "torch.mm(x, x.T)",
    'torch.einsum("nc,nc->n", x, x)', "torch.matmul(xd, xd.T)", "x.mm(x.T)", "torch.matmul(x.softmax(1), oh.float().T)",
    'torch.einsum("nc,nc->", oh, oh).sum()', "torch.mm(oh, oh.T).sum()", 'torch.einsum("nc,nc->", [oh, oh])',
])
def test_dtype_of_matrix_products(code: str) -> None:
    assert_dtype_agrees(SETUP, code)


@pytest.mark.parametrize("code", ['torch.einsum("nc,nc->", oh, oh)', "torch.mm(oh, oh.T)", "torch.mm(x, x.T)",
                                  "torch.matmul(x.softmax(1), oh.float().T)"])
def test_dtype_of_matrix_products_is_known(code: str) -> None:
    """The fix does not give up where the operands' dtypes are known."""
    facts = facts_of(f"import torch\n{SETUP}y = {code}\ny\n")
    name = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == "y"][-1]
    assert family(dtype_of(facts, name)) is not None


# --- eval-without-no-grad: a model handed to the evaluation helper by a later cell -------------------

from cell_findings import cell_findings  # noqa: E402

NB_SETUP = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
            "held = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(2)]\n"
            "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))\n")
GRAD_NET = ("class GradNet(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.body = nn.Linear(4, 1)\n\n    def forward(self, x):\n"
            "        x = x.clone().requires_grad_(True)\n        e = self.body(x)\n"
            "        (gx,) = torch.autograd.grad(e.sum(), x)\n        return e + gx.sum(1, keepdim=True)\n")
EVALUATE = ("def evaluate(net, batches):\n    net.eval()\n    total = 0.0\n    for x, y in batches:\n"
            "        total += F.mse_loss(net(x), y).item()\n    return total / len(batches)\n")
CALL = "print(evaluate(model, held))\n"


def _eval(*cells: str) -> list[tuple[int | None, int, bool]]:
    return cell_findings("eval-without-no-grad", *cells)


@pytest.mark.parametrize("cells", [
    (NB_SETUP, EVALUATE, CALL, GRAD_NET + "print(evaluate(GradNet(), held))\n"),  # the class in the later cell
    (NB_SETUP + GRAD_NET, EVALUATE, CALL, "print(evaluate(GradNet(), held))\n"),  # defined earlier, handed on later
    (NB_SETUP, EVALUATE, CALL, GRAD_NET),  # defined later, not called in sight (a cell run by hand)
])
def test_a_model_needing_grad_in_reach_of_the_helper_refuses(cells: tuple[str, ...]) -> None:
    """Automatic on 9d323d3 (the first two raise after the rewrite: `element 0 of tensors does not require grad`)."""
    assert _eval(*cells) == [(1, 4, False)]


@pytest.mark.parametrize("later", ["print(evaluate(model, held))\n",
                                   "other = nn.Linear(4, 1)\nprint(evaluate(other, held))\n",
                                   "class Plain(nn.Module):\n    def forward(self, x):\n        return x.sum(1, keepdim=True)\n"
                                   "print(evaluate(Plain(), held))\n"])
def test_models_that_need_no_grad_keep_the_rewrite(later: str) -> None:
    assert _eval(NB_SETUP, EVALUATE, CALL, later) == [(1, 4, True)]


# --- host-sync: a method of an earlier cell reads the running total mid-loop -------------------------

HS_SETUP = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
            "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]\n"
            "model = nn.Linear(4, 1).to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n")
HS_LOOP = ("total = 0.0\nfor i, (x, y) in enumerate(data):\n    x, y = x.to(device), y.to(device)\n"
           "    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
           "    log.step(i)\n    total += loss.item()\nprint(total)\n")


def _host_sync(*cells: str) -> list[tuple[int | None, int, bool]]:
    return cell_findings("host-sync", *cells)


@pytest.mark.parametrize("logger", [
    "class Logger:\n    def __init__(self):\n        self.rows = []\n\n    def step(self, i):\n"
    "        self.rows.append((i, round(total, 4)))\n\n\nlog = Logger()\n",
    "class Logger:\n    @staticmethod\n    def step(i):\n        print(i, f'{total:.3f}')\n\n\nlog = Logger()\n",
])
def test_an_earlier_cells_method_reading_the_total_refuses(logger: str) -> None:
    """Automatic on 9d323d3: the method rounds a tensor (`round(total, 4)` raises on a 0-d tensor)."""
    assert [f for f in _host_sync(HS_SETUP, logger, HS_LOOP) if f[0] == 2] == [(2, 9, False)]


def test_an_earlier_cells_method_not_reading_the_total_keeps_the_rewrite() -> None:
    logger = ("class Logger:\n    def __init__(self):\n        self.rows = []\n\n    def step(self, i):\n"
              "        self.rows.append(i)\n\n\nlog = Logger()\n")
    assert [f for f in _host_sync(HS_SETUP, logger, HS_LOOP) if f[0] == 2] == [(2, 9, True)]


# --- graph-retention: a list the caller hands in, the module fixed on its own -----------------------

LOOPS = ("import torch.nn.functional as F\n\n\ndef train_epoch(model, loader, opt, history):\n"
         "    for x, y in loader:\n        loss = F.mse_loss(model(x), y)\n        opt.zero_grad()\n"
         "        loss.backward()\n        opt.step()\n        history.append(loss)\n")
MAIN = ("import torch\nimport torch.nn as nn\nfrom loops import train_epoch\ntorch.manual_seed(0)\n"
        "model = nn.Linear(3, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "loader = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]\nhistory = []\n"
        "train_epoch(model, loader, opt, history)\nprint(history[-1])\n")


def test_a_list_handed_in_by_the_caller_keeps_its_graph(tmp_path: Path) -> None:
    """On 9d323d3 `paef fix loops.py` detached the appended losses: main.py's `print(history[-1])`
    lost its `grad_fn=<MseLossBackward0>`."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "loops.py").write_text(LOOPS)
    (project / "main.py").write_text(MAIN)
    fix_project_keeps_output(tmp_path / "run", project)


PATCH = ("def forward_with_slope(self, x):\n    x = x.clone().requires_grad_(True)\n    e = self.body(x)\n"
         "    (gx,) = torch.autograd.grad(e.sum(), x)\n    return e + gx.sum(1, keepdim=True)\n\n\n")
NET = ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.body = nn.Linear(4, 1)\n\n"
       "    def forward(self, x):\n        return self.body(x)\n\n\nnet = Net()\n")
EVAL_GLOBAL = ("def evaluate():\n    net.eval()\n    total = 0.0\n    for x, y in held:\n"
               "        total += F.mse_loss(net(x), y).item()\n    return total / len(held)\n")


@pytest.mark.parametrize("cells", [
    (NB_SETUP + NET, EVAL_GLOBAL, "print(evaluate())\n", PATCH + "Net.forward = forward_with_slope\nprint(evaluate())\n"),
    (NB_SETUP + NET, PATCH + "Net.forward = forward_with_slope\n" + EVAL_GLOBAL, "print(evaluate())\n"),
    (NB_SETUP + NET, EVAL_GLOBAL, PATCH + "setattr(net, 'forward', types.MethodType(forward_with_slope, net))\n"),
])
def test_a_forward_patched_with_grad_code_refuses(cells: tuple[str, ...]) -> None:
    """Automatic on 9d323d3: the patched forward raises under no_grad (`element 0 of tensors does not require grad`)."""
    cells = ("import types\n" + cells[0], *cells[1:])
    assert [(cell, fixable) for cell, _, fixable in _eval(*cells)] == [(1, False)]


def test_a_forward_patched_with_plain_code_keeps_the_rewrite() -> None:
    plain = "def forward_scaled(self, x):\n    return self.body(x) / 2\n\n\nNet.forward = forward_scaled\nprint(evaluate())\n"
    assert _eval(NB_SETUP + NET, EVAL_GLOBAL, "print(evaluate())\n", plain) == [(1, 4, True)]
