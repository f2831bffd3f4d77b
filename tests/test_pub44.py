"""Public check 44 (benchmarks/public44): first contact's right findings kept, the precision traps
kept silent (a CPU-only seq2seq notebook full of per-step reads, loaders over device-resident
tensors or of Python-list batches, a periodic print), and this check's category held:

- a function's global bound at the top level only by a library constructor: the speech-commands
  tutorial's `test(model, epoch)` advances `pbar`, entered by `with tqdm(...) as pbar:` in a
  later cell; the global's binding was not followed from inside the function, so `pbar.update()`
  read as a training step (its name) and the evaluation loop outside `no_grad` went unreported
  (eval-without-no-grad, p01)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check44"  # own-written shapes of the public programs

SETUP = (
    "import torch\nfrom torch import nn\nfrom tqdm import tqdm\n"
    "model = nn.Linear(4, 3)\n"
    "loader = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]\n"
)
TEST = (
    "def test(model):\n"
    "    model.eval()\n"
    "    correct = 0\n"
    "    for x, y in loader:\n"
    "        out = model(x)\n"
    "        correct += (out.argmax(1) == y).sum()\n"
    "        pbar.update(1)\n"
    "    return correct\n"
)
RUN = "with tqdm(total=3) as pbar:\n    test(model)\n"


def _evaluation_loops(*cells: str) -> list[tuple[int | None, int]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    report = analyze_units(units, rules=["eval-without-no-grad"])
    return sorted((f.ref.cell, f.line) for f in report.findings)


def test_first_contact_findings_kept() -> None:
    assert (12, "host-sync") in line_rules(SHAPES / "speech_bar.ipynb")  # p01: cell 4, `losses.append(loss.item())`
    siamese = line_rules(SHAPES / "siamese_pairs.ipynb")  # p03
    assert {(9, "host-sync"), (19, "cpu-then-move"), (13, "elementwise-loop")} <= siamese


def test_precision_traps_stay_silent() -> None:
    assert line_rules(SHAPES / "seq2seq_cpu.ipynb") == set()  # p02: a CPU program
    assert line_rules(SHAPES / "river_resident.ipynb") == set()  # p04: device-resident loaders, no per-step read
    assert not {rule for _, rule in line_rules(SHAPES / "siamese_pairs.ipynb")} & {"pageable-transfer"}
    assert not {rule for _, rule in line_rules(SHAPES / "speech_bar.ipynb")} & {"pageable-transfer"}


def test_speech_commands_evaluation_loop_found() -> None:
    assert (4, "eval-without-no-grad") in line_rules(SHAPES / "speech_bar.ipynb")  # p01: cell 5, `test`


def test_bar_entered_in_a_later_cell_is_a_progress_bar() -> None:
    assert _evaluation_loops(SETUP, TEST, RUN) == [(1, 4)]


def test_bar_bound_at_the_top_of_the_same_cell() -> None:
    assert _evaluation_loops(SETUP, TEST + "pbar = tqdm(total=3)\ntest(model)\n") == [(1, 4)]


def test_bar_rebound_to_an_unknown_object_in_a_later_cell_may_train() -> None:
    assert _evaluation_loops(SETUP, TEST, RUN, "from helpers import Adapter\npbar = Adapter(model)\ntest(model)\n") == []


def test_bar_bound_before_the_function_by_an_earlier_cell_is_not_followed() -> None:
    # the earlier cell's value is what the global holds unless a later cell rebinds it: not followed
    assert _evaluation_loops(SETUP + "pbar = tqdm(total=3)\n", TEST, "test(model)\n") == []


def test_bar_made_by_a_loop_of_a_later_cell_may_be_anything() -> None:
    assert _evaluation_loops(SETUP, TEST, "for pbar in [tqdm(total=3)]:\n    test(model)\n") == []
