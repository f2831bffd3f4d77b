"""A frozen teacher built and put in `.eval()` in an earlier notebook cell, run outside no_grad
in the next cell's training loop (determinism56: `blind2_distill_kd.py:41` split into cells):
the frozen-network proof reads the earlier cells as the in-file proof reads the file, and stays
silent where a cell rebinds, unfreezes, re-trains or hands over the teacher."""

from __future__ import annotations

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

SETUP = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    "X, Y = torch.randn(64, 8), torch.randint(0, 3, (64,))\n"
    "loader = [(X[i:i + 16], Y[i:i + 16]) for i in range(0, 64, 16)]\n"
    "student = nn.Linear(8, 3)\n"
    "s_opt = torch.optim.SGD(student.parameters(), lr=0.1)\n"
)
TEACHER = "teacher = nn.Linear(8, 3)\nteacher.eval()\n"
LOOP = (
    "for epoch in range(2):\n"
    "    for xb, yb in loader:\n"
    "        t_logits = teacher(xb)\n"
    "        s_logits = student(xb)\n"
    "        loss = F.kl_div(F.log_softmax(s_logits, 1), F.softmax(t_logits, 1).detach(), reduction='batchmean')\n"
    "        s_opt.zero_grad()\n"
    "        loss.backward()\n"
    "        s_opt.step()\n"
)


def _frozen(*cells: str) -> list[tuple[int | None, int, bool]]:
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    found = analyze_units(units, rules=["eval-without-no-grad"]).findings
    return [(f.ref.cell, f.line, f.fix is not None and f.fix.automatic) for f in found]


def test_teacher_frozen_in_an_earlier_cell_is_found_for_review() -> None:
    assert _frozen(SETUP, TEACHER, LOOP) == [(2, 3, False)]
    assert _frozen(SETUP + TEACHER, LOOP) == [(1, 3, False)]


def test_same_program_in_one_cell_is_found_as_before() -> None:
    assert _frozen(SETUP + TEACHER + LOOP) == [(0, 12, False)]


def test_teacher_retrained_in_a_later_cell_stays_silent() -> None:
    retrain = "teacher.train()\nt_opt = torch.optim.SGD(teacher.parameters(), lr=0.1)\n"
    assert _frozen(SETUP, TEACHER, LOOP, retrain) == []
    # an optimizer of the teacher's parameters, built earlier, stepped by a later cell
    built = TEACHER + "t_opt = torch.optim.SGD(teacher.parameters(), lr=0.1)\n"
    assert _frozen(SETUP, built, LOOP, "t_opt.step()\n") == []


def test_teacher_rebound_in_another_cell_stays_silent() -> None:
    assert _frozen(SETUP, TEACHER, LOOP, "teacher = nn.Linear(8, 3)\n") == []
    assert _frozen(SETUP, TEACHER, "teacher = nn.Linear(8, 3)\n", LOOP) == []


def test_teacher_unfrozen_after_freezing_stays_silent() -> None:
    assert _frozen(SETUP, TEACHER, "teacher.train()\n", LOOP) == []
    assert _frozen(SETUP, TEACHER, "for p in teacher.parameters():\n    p.requires_grad = False\n", LOOP) == []
    assert _frozen(SETUP, "teacher = nn.Linear(8, 3)\n", LOOP) == []  # never put in eval


def test_teacher_already_under_no_grad_or_unknown_stays_silent() -> None:
    guarded = LOOP.replace("        t_logits = teacher(xb)\n", "        with torch.no_grad():\n            t_logits = teacher(xb)\n")
    assert _frozen(SETUP, TEACHER, guarded) == []
    assert _frozen(SETUP, "teacher.eval()\n", LOOP) == []  # bound by the live namespace only
    assert _frozen(SETUP, TEACHER, "wrapped = nn.Sequential(teacher)\n", LOOP) == []  # handed over


def test_optimizer_of_an_earlier_cell_that_steps_the_teacher_stays_silent() -> None:
    both = SETUP.replace("SGD(student.parameters()", "SGD(list(student.parameters()) + list(teacher.parameters())")
    assert _frozen(TEACHER, both, LOOP) == []


def test_eval_in_the_loop_cell_of_a_teacher_bound_earlier_is_found() -> None:
    assert _frozen(SETUP, "teacher = nn.Linear(8, 3)\n", "teacher.eval()\n" + LOOP) == [(2, 4, False)]
    assert _frozen(SETUP, TEACHER, "teacher.train()\n" + LOOP) == []
