"""Public check 45 (benchmarks/public45): first contact's right findings kept, the precision traps
kept silent (a CPU-only N-BEATS script and POS-tagger notebook full of per-step reads and an early
stop, a periodic validation, evaluation under `no_grad`), and this check's category held:

- sizes read off a tensor are immutable values: SIREN's `h, w = img.shape[2:]` before the loop were
  taken for objects the loop changes (the backward through what the loop built from them, the
  module call they are handed to), so the coordinate grid rebuilt every step from them went
  unreported (redundant-tensor, p01). With them: einops' `rearrange` is a pure reshape (the grid
  helper called it), and the grid's name rebound by the periodic validation no longer stops the
  call itself from being suggested once, under a new name."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from public_findings import line_rules

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef
from paef_jupyter.static.facts import Facts

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check45"  # own-written shapes of the public programs

FIT = (
    "import torch\nfrom torch import nn\n"
    "def grid(h, w):\n"
    "    return torch.stack(torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing='ij'), -1).reshape(-1, 2)\n"
    "def fit(net, img, opt):\n"
    "    img = img.cuda()\n"
    "    {bind}\n"
    "    for i in range(10):\n"
    "        coords = grid(h, w).cuda()\n"
    "        loss = (net(coords).T.reshape(3, h, w) - img).pow(2).mean()\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "net = nn.Linear(2, 3)\n"
    "fit(net, torch.rand(3, 4, 5), torch.optim.SGD(net.parameters(), lr=0.1))\n"
)


def _grid_lines(bind: str) -> set[int]:
    text = FIT.replace("{bind}", bind)
    return {f.line for f in analyze_source(text, CellRef("fit.py"), rules=["redundant-tensor"]).findings}


def _facts(text: str) -> Facts:
    return Facts(cst.parse_module(text))


def test_first_contact_findings_kept() -> None:
    gan = line_rules(SHAPES / "context_encoder_sums.py")  # p04: six running sums of `.item()`
    assert {(n, "host-sync") for n in (25, 29, 31, 38, 39, 40)} <= gan
    assert {(18, "host-sync"), (19, "host-sync")} <= line_rules(SHAPES / "colorize_curves.ipynb")  # p05
    assert line_rules(SHAPES / "nbeats_cpu.py") == {(27, "cpu-then-move")}  # p02


def test_precision_traps_stay_silent() -> None:
    assert line_rules(SHAPES / "pos_tagger_cpu.ipynb") == set()  # p03: a CPU program
    siren = line_rules(SHAPES / "siren_grid.py")  # p01
    assert not {line for line, _ in siren} & {44, 46, 47, 48, 50, 51}  # periodic or once
    colorize = line_rules(SHAPES / "colorize_curves.ipynb")
    assert not {rule for _, rule in colorize} & {"eval-without-no-grad"}  # evaluation runs under no_grad


def test_siren_grid_rebuilt_every_step_is_reported() -> None:
    assert (38, "redundant-tensor") in line_rules(SHAPES / "siren_grid.py")


@pytest.mark.parametrize("bind", ["h, w = img.shape[1:]", "_, h, w = img.shape", "h = img.size(1); w = img.shape[2]",
                                  "h, w = img.size()[1:]"])
def test_sizes_read_off_a_tensor_are_not_changed_by_the_loop(bind: str) -> None:
    assert _grid_lines(bind) == {9}


def test_sizes_rebound_in_the_loop_stay_varying() -> None:
    # the binding moved into the loop after an in-place resize: the sizes follow the tensor each step
    text = FIT.replace("    {bind}\n", "").replace(
        "        coords = grid", "        img.resize_(3, 2 + i, 2)\n        h, w = img.shape[1:]\n        coords = grid")
    assert "resize_" in text
    assert {f.line for f in analyze_source(text, CellRef("fit.py"), rules=["redundant-tensor"]).findings} == set()


def test_metadata_only_names() -> None:
    facts = _facts(
        "import torch\n"
        "x = torch.zeros(3, 4)\n"
        "n = x.size(0)\n"
        "h, w = x.shape\n"
        "d = x.device\n"
        "k = len(x)\n"
        "m = x[0]\n"
    )
    assert facts._metadata_only("n", None) and facts._metadata_only("h", None) and facts._metadata_only("d", None)
    assert not facts._metadata_only("k", None)  # not read off the tensor's metadata (kept out: not needed here)
    assert not facts._metadata_only("m", None)  # a view: shares the tensor's memory


def test_program_attribute_named_shape_is_not_metadata() -> None:
    facts = _facts(
        "from store import load\n"
        "class Canvas:\n"
        "    def __init__(self):\n"
        "        self.shape = [4, 5]\n"
        "c = load()\n"
        "s = c.shape\n"
        "t = load().dtype\n"
    )
    assert not facts._metadata_only("s", None)  # a program class binds a (mutable) `shape`
    assert facts._metadata_only("t", None)  # nobody in the program binds `dtype`


def test_einops_reshapes_are_pure() -> None:
    facts = _facts("from einops import rearrange, repeat\nimport torch\nx = torch.zeros(2, 3)\n"
                   "y = rearrange(x, 'a b -> b a')\nz = repeat(x, 'a b -> a b c', c=2)\n")
    calls = [n for n in facts.walk(facts.module) if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)
             and n.func.value in ("rearrange", "repeat")]
    assert len(calls) == 2 and all(facts._call_is_pure(c, frozenset()) for c in calls)
