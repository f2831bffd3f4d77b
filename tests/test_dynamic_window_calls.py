"""window46: the window follows the loop the run iterates, not a helper the script defines.

Public yolov1 (truth15, item b): `eval_map.py`'s only loops sat in small helpers it defines
(`head` over a batch of one, `make_label` in a comprehension), and the run's loop was in
`tools.evaluate_map`, a function of its own module called once from the top level. The window
took `head`'s loop: one 2.6 ms iteration. Now a unit whose loops all sit in definitions follows
the functions its top level calls (its own, earlier cells', its local modules'), and only those.

Real profiles on this CPU build (`profile_path`, what `paef profile` runs), and `choose_loop` for
cells (`%%paef` chooses its window with the same code). Near misses outnumber positives.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dynamic_helpers import compile_cell, run_from

from paef_jupyter.api import profile_path
from paef_jupyter.dynamic.window_loop import choose_loop
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.unit import parse_unit

TOOLS = """import torch


def evaluate(model, head, batches):
    total = 0.0
    for x in batches:
        out = head(model(x))
        total += float(out.sum())
    return total


def unused_in_module():
    for i in range(5):
        pass
"""

HELPERS = """import torch

{imports}

def head(preds):
    out = []
    for p in preds:
        out.append(torch.sigmoid(p))
    return torch.stack(out)


def make_batch():
    x = torch.zeros(1, 16)
    for j in range(2):
        x[0, j] = 1.0
    return x


model = torch.nn.Linear(16, 8)
batches = [make_batch() for _ in range(40)]
"""


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(autouse=True)
def fresh_tools():
    """Each program's own `tools.py` is imported afresh, as in a `paef profile` process of its own."""
    sys.modules.pop("tools", None)
    yield
    sys.modules.pop("tools", None)


def _profile(tmp_path: Path, main: str, tools: str | None = TOOLS, where: str = "."):
    if tools is not None:
        (tmp_path / where).mkdir(parents=True, exist_ok=True)
        (tmp_path / where / "tools.py").write_text(tools)
    (tmp_path / "main.py").write_text(main)
    with run_from(tmp_path):
        report = profile_path("main.py")
    assert not report.errors, report.errors
    prof = report.profile
    return prof.window_ref.path if prof.window_ref else None, prof.window_line, prof.profiled_iterations


def test_a_local_modules_function_called_through_an_attribute_gets_the_window(tmp_path):
    main = HELPERS.format(imports="import tools") + "print(tools.evaluate(model, head, batches))\n"
    path, line, iterations = _profile(tmp_path, main)
    assert (path, line) == ("tools.py", 6) and iterations > 1  # was main.py's `head` loop, one iteration


def test_a_local_function_imported_by_name_gets_the_window(tmp_path):
    main = HELPERS.format(imports="from tools import evaluate") + (
        "if __name__ == '__main__':\n    print(evaluate(model, head, batches))\n")
    assert _profile(tmp_path, main)[:2] == ("tools.py", 6)


def test_the_scripts_own_function_called_once_wins_over_one_it_only_defines(tmp_path):
    """(Near miss of the old rule: the first loop by line was `never`'s.)"""
    main = """import torch


def never():
    for i in range(1000):
        torch.zeros(1)


def run(batches):
    total = 0.0
    for x in batches:
        total += float(torch.relu(x).sum())
    return total


print(run([torch.randn(4, 4) for _ in range(30)]))
"""
    assert _profile(tmp_path, main, tools=None)[:2] == ("main.py", 11)


def test_a_script_with_its_own_loop_keeps_it(tmp_path):
    """Near miss: a top-level call into the local module, then the script's own loop."""
    main = HELPERS.format(imports="import tools") + (
        "tools.evaluate(model, head, batches[:3])\n"
        "for x in batches:\n    y = head(model(x))\n")
    path, line, _ = _profile(tmp_path, main)
    assert (path, line) == ("main.py", 22)  # was `head`'s loop (line 7) before window46


def test_a_helpers_loop_called_inside_a_top_level_comprehension_does_not_win(tmp_path):
    """Near miss: `make_batch` runs 40 times inside the comprehension; its loop is an inner one.
    With nothing else called, the old choice stands (the first loop the unit defines)."""
    main = HELPERS.format(imports="") + "print(sum(float(head(model(x)).sum()) for x in batches))\n"
    path, line, _ = _profile(tmp_path, main, tools=None)
    assert (path, line) == ("main.py", 7)


def test_an_installed_modules_function_is_not_followed(tmp_path):
    """Near miss: `tools` found in a virtual environment inside the folder is not the program's."""
    site = ".venv/lib/python3.11/site-packages"
    main = HELPERS.format(imports=f"import sys\nsys.path.insert(0, {site!r})\nimport tools") + (
        "print(tools.evaluate(model, head, batches))\n")
    path, line, _ = _profile(tmp_path, main, where=site)
    assert path == "main.py"


REF = CellRef("In[5]", None, "c5")


def _cell(text, namespace=None, ref_of=None):
    return choose_loop(parse_unit(SourceUnit(REF, text)), namespace, ref_of)


def _earlier(text):
    name, code = compile_cell(text)
    namespace: dict = {}
    exec(code, namespace)
    return name, namespace


EARLIER = "def train(model, loader):\n    for xb in loader:\n        loss = model(xb)\n        loss.backward()\n    return loss\n"


def test_a_cell_with_its_own_loop_keeps_it_over_an_earlier_cells_function():
    """Near miss (`%%paef`): the cell calls `train` once, then loops itself."""
    _, namespace = _earlier(EARLIER)
    target, extra = _cell("train(model, loader)\nfor b in batches:\n    f(b)\n", namespace)
    assert (target.ref, target.line, extra) == (REF, 2, {})


def test_a_cell_that_defines_a_helper_and_calls_an_earlier_cells_training_function():
    """The cell's only loop is in `show`, a helper it defines and never calls: `train` wins."""
    name, namespace = _earlier(EARLIER)
    target, extra = _cell("def show(xs):\n    for x in xs:\n        print(x)\n\nloss = train(model, loader)\n", namespace)
    assert (target.ref, target.line, extra) == (CellRef(path=name), 2, {name: CellRef(path=name)})


def test_a_library_modules_function_in_the_namespace_is_not_followed_even_with_its_text_cached():
    """Near miss: `json.dumps` through an attribute; its text may be in `linecache` (a traceback
    read it), but no traced file is its: the cell's own helper loop stays the choice."""
    import linecache

    linecache.getlines(json.__file__)
    target, extra = _cell("def show(xs):\n    for x in xs:\n        print(x)\n\njson.dumps({})\n",
                          {"json": json}, lambda name: None)
    assert (target.ref, target.line, extra) == (REF, 2, {})


def test_a_cell_calling_in_a_comprehension_still_gets_the_called_functions_loop():
    """Near miss (unchanged): no loop of its own and no once-called function: the old path."""
    name, namespace = _earlier(EARLIER)
    target, _ = _cell("losses = [train(m, loader) for m in models]\n", namespace)
    assert (target.ref, target.line) == (CellRef(path=name), 2)


def test_an_epoch_loop_calling_its_training_function_still_windows_the_inner_training_loop():
    """Near miss (unchanged): the innermost training loop wins, even inside a definition."""
    text = ("def train_one_epoch(model, loader, opt):\n    for xb in loader:\n        loss = model(xb)\n"
            "        loss.backward()\n        opt.step()\n\nfor epoch in range(3):\n    train_one_epoch(model, loader, opt)\n")
    target, _ = _cell(text)
    assert (target.line, target.iterable) == (2, "loader")


def test_a_loopless_local_function_leaves_the_old_choice(tmp_path):
    """Near miss: `tools.setup()` has no loop to window: the unit's own (helper) loop stays."""
    from paef_jupyter.dynamic.run_units import _local_modules
    from paef_jupyter.static.modules import LocalModules

    (tmp_path / "tools.py").write_text("def setup():\n    return 1\n")
    main = tmp_path / "main.py"
    text = "import tools\n\ndef show(xs):\n    for x in xs:\n        print(x)\n\ntools.setup()\n"
    main.write_text(text)
    unit = SourceUnit(CellRef(str(main)), text)
    imports = LocalModules.around([unit]).importer(str(main))
    target, extra = choose_loop(parse_unit(unit), {}, _local_modules(str(main)), imports)
    assert (target.ref, target.line, extra) == (CellRef(str(main)), 4, {})


def test_a_main_function_calling_the_training_function_per_epoch_keeps_the_training_loop(tmp_path):
    """Near miss (public lstm, truth15): `main()` is called once and holds only the epoch loop;
    `train_once`'s loop over batches stays the window (an epoch is too long an iteration)."""
    main = """import torch


def train_once(model, batches, opt):
    for x in batches:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return float(loss)


def main():
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [torch.randn(16, 8) for _ in range(30)]
    for epoch in range(3):
        print(train_once(model, batches, opt))


if __name__ == "__main__":
    main()
"""
    path, line, iterations = _profile(tmp_path, main, tools=None)
    assert (path, line) == ("main.py", 5) and iterations > 1
