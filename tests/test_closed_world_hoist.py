"""Closed-world proofs for hoists (`static/outside_values.py`): in a notebook, a local module or
the kernel's namespace, a hoist by cpu-function or redundant-tensor stays automatic only when
every value from outside the unit that the hoisted code reads is proved unchanged from a closed
list (a constant bound once; a fresh array/tensor/literal that every unit only reads). Every
refusal below was an automatic hoist on the start commit (2995cd21), most of them harmful (the
loop's call changes what the hoisted code reads); the near misses stay automatic. `benchmarks/results/closed_world_hoist.md` has the numbers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from paef_jupyter.api import analyze_cell, analyze_path
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

LOOP = "out = []\nfor epoch in range(3):\n{body}    out.append({result})\nprint(out)\n"


def _loop(*body: str, result: str = "n.sum()") -> str:
    return LOOP.format(body="".join(f"    {line}\n" for line in body), result=result)


# (earlier cell, loop cell, rule, the unproved name or "" when the hoist stays automatic)
CASES = {
    # a value returned by an earlier cell's function that also keeps it
    "returned_and_kept": (
        "import numpy as np\nHOLD = []\n\n\ndef build():\n    arr = np.ones(4)\n    HOLD.append(arr)\n    return arr\n\n\n"
        "def decay():\n    for a in HOLD:\n        a *= 0.5\n",
        "w = build()\n" + _loop("decay()", "n = np.cumsum(w)"), "cpu-function", "HOLD"),
    # an object whose method keeps (and changes) the array it was given
    "method_keeps_reference": (
        "import numpy as np\n\n\nclass Tracker:\n    def __init__(self, a):\n        self.a = a\n\n"
        "    def shrink(self):\n        self.a *= 0.5\n\n\nbase = np.ones(4)\ntr = Tracker(base)\n",
        _loop("tr.shrink()", "n = np.cumsum(base)"), "cpu-function", "base"),
    # a dict filled by a function: the helper reads what it stored
    "dict_cache_filled": (
        "import numpy as np\nCACHE = {'scale': 1.0}\n\n\ndef remember(v):\n    CACHE['scale'] = v\n\n\n"
        "def features(x):\n    return np.log1p(x) * CACHE['scale']\n\n\ndef tick():\n    remember(CACHE['scale'] + 1.0)\n",
        "raw = np.arange(1.0, 5.0)\n" + _loop("f = features(raw)", result="f.sum()"), "cpu-function", "CACHE"),
    # an array handed to a library call that keeps it (`torch.from_numpy` shares its memory)
    "handed_to_library": (
        "import numpy as np\nimport torch\nbuf = np.zeros(4)\nshared = torch.from_numpy(buf)\n",
        _loop("shared.add_(1.0)", "n = np.cumsum(buf)"), "cpu-function", "buf"),
    # views: slicing, `.data`, `.view`, `.numpy()` bound to a name
    "view_by_slicing": (
        "import numpy as np\nA = np.ones((3, 4))\nrows = A[:2]\n\n\ndef bump():\n    rows[0] += 1.0\n",
        _loop("bump()", "n = np.cumsum(A)"), "cpu-function", "A"),
    "view_by_data": (
        "import torch\nP = torch.ones(4)\nd = P.data\n\n\ndef bump():\n    d.add_(1.0)\n",
        _loop("bump()", "t = torch.tensor(P.tolist())", result="t.sum().item()"), "redundant-tensor", "P"),
    "view_by_view_method": (
        "import numpy as np\nimport torch\nW = torch.ones(3, 4)\nflat = W.view(-1)\n",
        "import numpy as np\n" + _loop("n = np.cumsum(W.numpy())"), "cpu-function", "W"),
    "view_by_numpy": (
        "import numpy as np\nimport torch\nW = torch.ones(3, 4)\nWn = W.numpy()\n",
        _loop("n = np.cumsum(Wn)"), "cpu-function", "Wn"),
    # the default of a parameter is the array itself
    "default_argument": (
        "import numpy as np\nA = np.ones(4)\n\n\ndef bump(x=A):\n    x += 1.0\n",
        _loop("bump()", "n = np.cumsum(A)"), "cpu-function", "A"),
    # an array of this cell handed to an earlier cell's function that keeps it
    "handed_to_earlier_cell": (
        "import numpy as np\nREG = []\n\n\ndef register(a):\n    REG.append(a)\n\n\n"
        "def decay():\n    for a in REG:\n        a *= 0.5\n",
        "w = np.ones(4)\nregister(w)\n" + _loop("decay()", "n = np.cumsum(w)"), "cpu-function", "w"),
    # reached by name
    "reflection": (
        "import numpy as np\nA = np.ones(4)\n\n\ndef reset(name):\n    globals()[name][:] = 0.0\n",
        _loop("n = np.cumsum(A)"), "cpu-function", "A"),
    # a constant rebound in another cell
    "constant_rebound": (
        "import numpy as np\nSCALE = 2.0\n\n\ndef feats(x):\n    return np.log1p(x) * SCALE\n\n\n"
        "def warm():\n    global SCALE\n    SCALE = SCALE * 2\n",
        "raw = np.arange(1.0, 5.0)\n" + _loop("f = feats(raw)", result="f.sum()"), "cpu-function", "SCALE"),
    # shown at the end of its cell, so IPython keeps it as `_`, which another cell picks up
    # (probe rtcwn_nb_rt_display_history: automatic and harmful on the start commit)
    "display_history": (
        "import numpy as np\nimport torch\ncounts = np.array([30.0, 10.0, 5.0])\nclass_w = counts.sum() / counts\nclass_w\n",
        "shown = _\n\n\ndef rebalance():\n    shown[0] = shown[0] * 0.5\n\n\n"
        + _loop("rebalance()", "t = torch.tensor(class_w)", result="t.sum().item()"), "redundant-tensor", "class_w"),
    # --- near misses: proved, the hoist stays automatic ---
    "shown_with_throwaway_underscores": (  # `for _ in ...`, `a, _ = ...` bind `_`: no read of the history
        "import numpy as np\nimport torch\ncounts = np.array([30.0, 10.0, 5.0])\nclass_w = counts.sum() / counts\nclass_w\n",
        "for _ in range(2):\n    pass\na, _ = 1, 2\n" + _loop("t = torch.tensor(class_w)", result="t.sum().item()"),
        "redundant-tensor", ""),
    "arithmetic_result_shown": (
        "import numpy as np\nimport torch\ncounts = np.array([30.0, 10.0, 5.0])\nclass_w = counts.sum() / counts\nclass_w\n",
        _loop("t = torch.tensor(class_w)", result="t.sum().item()"), "redundant-tensor", ""),
    "constant_bound_once": (
        "import numpy as np\nSEQ_LEN = 32\nSCALE = 2.0 * SEQ_LEN\n\n\ndef feats(x):\n    return np.log1p(x * SCALE)\n",
        "raw = np.arange(1.0, 5.0)\n" + _loop("f = feats(raw)", result="f.sum()"), "cpu-function", ""),
    "arange_never_touched": (
        "import numpy as np\nimport torch\nSEQ_LEN = 32\nPOS = torch.arange(SEQ_LEN)\nprint(POS.shape, POS.sum())\n",
        "import numpy as np\n" + _loop("t = torch.tensor(POS.tolist())", "n = np.cumsum(POS.numpy() * 1.0)",
                                       result="t.sum().item() + n.sum()"), "cpu-function", ""),
    "arange_never_touched_tensor": (
        "import numpy as np\nimport torch\nSEQ_LEN = 32\nPOS = torch.arange(SEQ_LEN)\nprint(POS.shape, POS.sum())\n",
        _loop("t = torch.tensor(POS.tolist())", result="t.sum().item()"), "redundant-tensor", ""),
    "array_read_by_pure_helpers": (
        "import numpy as np\nRAW = np.arange(1.0, 9.0)\n\n\ndef feats(x):\n    return np.log1p(x * 2.0)\n\n\n"
        "def table():\n    return np.exp(RAW / 8.0)\n",
        _loop("f = feats(RAW)", "g = table()", result="f.sum() + g.sum()"), "cpu-function", ""),
    "copy_of_a_parameter": (
        "import numpy as np\nfrom torch import nn\nmodel = nn.Linear(3, 2)\nw = model.weight.detach().numpy().copy()\n",
        _loop("n = np.linalg.norm(w, axis=1)"), "cpu-function", ""),
}


def _findings(cells: list[str], rule: str):
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    return [f for f in analyze_units(units, rules=[rule]).findings if f.ref.cell == len(cells) - 1]


@pytest.mark.parametrize("case", sorted(CASES))
def test_hoist_reading_outside_values(case: str) -> None:
    earlier, loop, rule, unproved = CASES[case]
    found = _findings([earlier, loop], rule)
    hoists = [f for f in found if f.fix is not None and f.fix.edits]
    assert hoists, "the hoist is offered"
    if unproved:
        assert all(not f.fixable for f in hoists)
        assert any(f"`{unproved}`" in f.fix.review and "closed-world" in f.fix.review for f in hoists), \
            [f.fix.review for f in hoists]
    else:
        assert all(f.fixable for f in hoists), [f.fix.review for f in hoists]


def test_later_cell_changing_the_array(tmp_path: Path) -> None:
    """A cell after the loop's may run before the loop's cell runs again."""
    first = "import numpy as np\nA = np.ones(4)\n"
    later = "A *= 2.0\n"
    found = _findings([first, _loop("n = np.cumsum(A)"), later][:2], "cpu-function")
    assert [f.fixable for f in found] == [True]
    units = [SourceUnit(CellRef("nb.ipynb", i), t) for i, t in enumerate([first, _loop("n = np.cumsum(A)"), later])]
    found = [f for f in analyze_units(units, rules=["cpu-function"]).findings if f.ref.cell == 1]
    assert [f.fixable for f in found] == [False] and "`A`" in found[0].fix.review


def _project(tmp_path: Path, prep: str, main: str) -> Path:
    (tmp_path / "prep.py").write_text(prep)
    (tmp_path / "main.py").write_text(main)
    return tmp_path / "main.py"


PREP = ("import numpy as np\n\nSEQ_LEN = 8\nTABLE = np.ones(4)\n\n\nclass Holder:\n    def __init__(self, a):\n"
        "        self.a = a\n\n    def bump(self):\n        self.a[0] += 1.0\n\n\nholder = Holder(TABLE)\n")


def test_local_module_values(tmp_path: Path) -> None:
    """A script reading a local module's array that an object of that module keeps and changes:
    review; the module's constant: automatic."""
    main = ("import numpy as np\nimport torch\n\nfrom prep import SEQ_LEN, TABLE, holder\n\n"
            + _loop("holder.bump()", "n = np.cumsum(TABLE)", "t = torch.tensor(np.arange(SEQ_LEN) * 0.5)",
                    result="n.sum() + t.sum().item()"))
    report = analyze_path(str(_project(tmp_path, PREP, main)))
    by_rule = {f.rule: f for f in report.findings if f.rule in ("cpu-function", "redundant-tensor")}
    assert not by_rule["cpu-function"].fixable and "`TABLE`" in by_rule["cpu-function"].fix.review
    assert by_rule["redundant-tensor"].fixable


def _live(tmp_path: Path, name: str, source: str) -> dict[str, object]:
    """A kernel's namespace whose functions have source (`inspect.getsource` reads the file)."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return dict(vars(module))


LIVE = ("import numpy as np\nRAW = np.ones(4)\nSEQ_LEN = 8\n\n\ndef bump():\n    RAW[0] += 1.0\n\n\n"
        "def feats(x):\n    return np.log1p(x) * SEQ_LEN\n")


def test_live_namespace(tmp_path: Path) -> None:
    """The `%paef` magic sees the kernel's objects, not the earlier cells' source: a live array is
    unproved; a constant is proved unless a live function rebinds it."""
    ns = _live(tmp_path, "cells_a", LIVE)
    loop = _loop("bump()", "n = np.cumsum(RAW)")
    found = analyze_cell(loop, CellRef("nb.ipynb", 1), namespace=ns, rules=["cpu-function"]).findings
    assert [f.fixable for f in found] == [False] and "`RAW`" in found[0].fix.review
    loop = "raw = np.arange(4.0)\n" + _loop("f = feats(raw)", result="f.sum()")
    found = analyze_cell(loop, CellRef("nb.ipynb", 1), namespace=ns, rules=["cpu-function"]).findings
    assert [f.fixable for f in found] == [True]
    ns = _live(tmp_path, "cells_b", LIVE + "\n\ndef rescale():\n    global SEQ_LEN\n    SEQ_LEN = SEQ_LEN + 1\n")
    found = analyze_cell(loop, CellRef("nb.ipynb", 1), namespace=ns, rules=["cpu-function"]).findings
    assert [f.fixable for f in found] == [False] and "`SEQ_LEN`" in found[0].fix.review
