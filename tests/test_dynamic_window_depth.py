"""truth16 (truth15 open item d): windows for two more shapes of "the loop is somewhere else".

Public MAML-Sines (pub30 n01): the meta-training loop is a method of a class defined in cell 5,
called from cell 8 (`maml.main_loop(...)`): the cell had no loop and called no plain function,
so it ran without a window (no per-iteration evidence). And a script whose `main()` only sets
up and calls `train()` of its own module (two levels of calls) kept a helper's loop.

`choose_loop` on cells and scripts (what `%%paef` and `paef profile` choose with). Near misses
outnumber positives.
"""

from __future__ import annotations

from pathlib import Path

import torch

from dynamic_helpers import compile_cell

from paef_jupyter.dynamic.run_units import _local_modules
from paef_jupyter.dynamic.window_loop import choose_loop
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.modules import LocalModules
from paef_jupyter.static.unit import parse_unit

REF = CellRef("In[8]", None, "c8")

MAML_CELL = """class MAML:
    def __init__(self, n):
        self.n = n

    @property
    def broken(self):
        raise RuntimeError("a property must not run while choosing a window")

    def main_loop(self, iterations):
        total = 0.0
        for it in range(iterations):
            total += self.n * it
        return total
"""


def _earlier(text: str, make: str = "maml = MAML(3)\n") -> tuple[str, dict]:
    name, code = compile_cell(text + make)
    namespace: dict = {}
    exec(code, namespace)
    return name, namespace


def _cell(text: str, namespace: dict, known: dict[str, CellRef] | None = None):
    known = known or {}
    return choose_loop(parse_unit(SourceUnit(REF, text)), namespace, lambda name: known.get(name))


def test_a_method_of_an_earlier_cells_class_gets_the_window():
    name, namespace = _earlier(MAML_CELL)
    ref = CellRef(path=name)
    target, extra = _cell("maml.main_loop(12)\n", namespace, {name: ref})
    assert (target.ref, target.line, extra) == (ref, 11, {name: ref})


def test_a_method_called_per_element_of_a_comprehension_is_not_the_top_levels():
    """Near miss: the calls are repeated (an inner loop each); the cell's own helper loop stays."""
    name, namespace = _earlier(MAML_CELL)
    text = "def show(xs):\n    for x in xs:\n        print(x)\n\nout = [maml.main_loop(k) for k in range(3)]\n"
    target, extra = _cell(text, namespace, {name: CellRef(path=name)})
    assert (target.ref, target.line, extra) == (REF, 2, {})


def test_a_library_objects_method_is_not_followed():
    """Near miss: `model.forward` is torch's code, not a traced file: the cell's helper loop stays."""
    model = torch.nn.Linear(2, 2)
    text = "def show(xs):\n    for x in xs:\n        print(x)\n\ny = model.forward(x)\n"
    target, extra = _cell(text, {"model": model, "x": torch.zeros(2)})
    assert (target.ref, target.line, extra) == (REF, 2, {})


def test_choosing_never_runs_a_property_of_the_object():
    """Near miss: `maml.broken` is a property that raises; the choice reads the class only."""
    name, namespace = _earlier(MAML_CELL)
    target, _ = _cell("maml.broken()\n", namespace, {name: CellRef(path=name)})
    assert target is None


TRAIN = """import torch


def train(model, batches, opt):
    for x in batches:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return float(loss)
"""

MAIN = """import torch
{imports}


def show(rows):
    for r in rows:
        print(r)


def main():
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [torch.randn(16, 8) for _ in range(30)]
{body}


if __name__ == "__main__":
    main()
"""


def _script(tmp_path: Path, imports: str, body: str, tools: str = TRAIN):
    (tmp_path / "tools.py").write_text(tools)
    main = tmp_path / "main.py"
    text = MAIN.format(imports=imports, body=body)
    main.write_text(text)
    unit = SourceUnit(CellRef(str(main)), text)
    local = LocalModules.around([unit]).importer(str(main))
    return choose_loop(parse_unit(unit), {}, _local_modules(str(main)), local)


def test_main_calling_a_local_modules_train_gets_its_loop(tmp_path):
    target, extra = _script(tmp_path, "from tools import train", "    print(train(model, batches, opt))")
    tools = str(tmp_path / "tools.py")
    assert target.line == 5 and target.ref.path.endswith("tools.py") and tools in extra


def test_main_calling_it_through_the_module_attribute_gets_its_loop_too(tmp_path):
    target, _ = _script(tmp_path, "import tools", "    print(tools.train(model, batches, opt))")
    assert target.line == 5 and target.ref.path.endswith("tools.py")


def test_main_with_an_epoch_loop_of_its_own_keeps_it_with_trains_loop_inside(tmp_path):
    """Depth 1 holds a loop (main's epoch loop calls `train`): it stays the window, with `train`'s
    loop over batches as its `inner` (windowed when the epochs turn out short). truth17 changed
    this contract: it was main's loop alone, so three epochs were three 'iterations'."""
    body = "    for epoch in range(3):\n        train(model, batches, opt)"
    target, extra = _script(tmp_path, "from tools import train", body)
    tools = str(tmp_path / "tools.py")
    assert target.ref.path.endswith("main.py") and target.line == 14 and list(extra) == [tools]
    assert target.inner.ref.path.endswith("tools.py") and target.inner.line == 5


def test_main_calling_train_only_inside_a_comprehension_is_not_followed(tmp_path):
    """Near miss: the call is repeated, not the top level's once: the old choice (`show`)."""
    body = "    print([train(model, batches, opt) for _ in range(2)])"
    target, extra = _script(tmp_path, "from tools import train", body)
    assert target.ref.path.endswith("main.py") and target.line == 6 and extra == {}


def test_main_calling_a_loopless_local_function_keeps_the_old_choice(tmp_path):
    """Near miss: nothing at depth 2 has a loop: the unit's own helper loop, as before."""
    target, extra = _script(tmp_path, "from tools import setup", "    setup()",
                            tools="def setup():\n    return 1\n")
    assert target.ref.path.endswith("main.py") and target.line == 6 and extra == {}


def test_main_calling_a_library_function_is_not_followed(tmp_path):
    """Near miss: `json.dumps` at depth 2 is not the program's."""
    target, extra = _script(tmp_path, "import json", "    print(json.dumps({}))")
    assert target.ref.path.endswith("main.py") and target.line == 6 and extra == {}
