"""Red team 43 (blind, 11 programs: 3 projects, 3 notebooks) met 4 automatic rewrites on first contact;
one changed a program's meaning. main.py imported `torch.nn.functional as F`, then ran
`from augs import *`, and augs.py imports its image ops (a torchvision-style `functional`) as `F`:
Python binds names in the order the statements run, so the star import won, and operator-fusion's
`F.leaky_relu(h, 0.1)` reached the image-op module (AttributeError). The analysis let the explicit
import win over every star import. Fixed by category: a module alias (`F`, `nn`, `torch`) that a star
import run after it may bind to something else (a readable module that binds the name otherwise, or
a module that cannot be read) is not used to write a rewrite; the edit goes to review.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from paef_cli import proved_lines
from redteam_units import REDTEAM

from paef_jupyter.api import analyze_path, analyze_units
from paef_jupyter.model import CellRef, SourceUnit

_BODY = """
def block(h):
    return torch.where(h > 0, h, 0.1 * h)


print(block(torch.randn(4)))
"""
def _proved(root: Path, imports: str, modules: dict[str, str]) -> bool:
    text = imports + _BODY
    line = text.splitlines().index("    return torch.where(h > 0, h, 0.1 * h)") + 1
    for folder in {Path(n).parent for n in modules if "/" in n}:
        (root / folder).mkdir(parents=True, exist_ok=True)
    return line in proved_lines(root, {"main.py": text, **modules}, "operator-fusion")


_TORCH_F = "import torch\nimport torch.nn.functional as F\n"
_IMGOPS = "def hflip(img):\n    return img.flip(-1)\n"

# A star import run after `import torch.nn.functional as F` may bind `F` to something else.
FIRING = {
    "image_ops_module": (_TORCH_F + "from augs import *\n",
                         {"augs.py": "import imgops as F\n\n\ndef augment(x):\n    return F.hflip(x)\n", "imgops.py": _IMGOPS}),
    "assigned_count": (_TORCH_F + "from settings import *\n", {"settings.py": "N, F = 40, 5\nLR = 0.1\n"}),
    "function_named_F": (_TORCH_F + "from maths import *\n", {"maths.py": "def F(x):\n    return 2 * x\n"}),
    "module_not_read": (_TORCH_F + "from some_unreadable_toolkit.all import *\n", {}),
    "through_package_init": (_TORCH_F + "from tools import *\n",
                             {"tools/__init__.py": "from .ops import *\n", "tools/ops.py": "import imgops as F\n",
                              "imgops.py": _IMGOPS}),
    "package_star_of_unread": (_TORCH_F + "from tools import *\n",
                               {"tools/__init__.py": "from some_unreadable_toolkit.all import *\nX = 1\n"}),
    "torch_itself_rebound": ("import torch\nfrom compat import *\n", {"compat.py": "import numpy as torch\n"}),
}

# The star import cannot change what the alias means: still an automatic rewrite.
SILENT = {
    "same_functional": (_TORCH_F + "from blocks import *\n",
                        {"blocks.py": "import torch\nimport torch.nn.functional as F\n\n\ndef act(x):\n    return F.relu(x)\n"}),
    "star_before_the_import": ("from augs import *\n" + _TORCH_F,
                               {"augs.py": "import imgops as F\n", "imgops.py": _IMGOPS}),
    "all_leaves_F_out": (_TORCH_F + "from augs import *\n",
                         {"augs.py": "import imgops as F\n__all__ = ['augment']\n\n\ndef augment(x):\n    return F.hflip(x)\n",
                          "imgops.py": _IMGOPS}),
    "private_name": (_TORCH_F + "from augs import *\n", {"augs.py": "import imgops as _F\n", "imgops.py": _IMGOPS}),
    "other_names_only": (_TORCH_F + "from settings import *\n", {"settings.py": "N, D = 40, 5\nLR = 0.1\n"}),
    "re_exported_through_package": (_TORCH_F + "from nets import *\n",
                                    {"nets/__init__.py": "from .blocks import *\n",
                                     "nets/blocks.py": "import torch\nimport torch.nn.functional as F\n"}),
    "unread_star_then_import": ("from some_unreadable_toolkit.all import *\n" + _TORCH_F, {}),
    "no_star_import": (_TORCH_F + "from augs import augment\n",
                       {"augs.py": "import imgops as F\n\n\ndef augment(x):\n    return F.hflip(x)\n", "imgops.py": _IMGOPS}),
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_an_alias_a_later_star_import_may_rebind_is_not_written_with(tmp_path: Path, name: str) -> None:
    imports, modules = FIRING[name]
    assert not _proved(tmp_path, imports, modules)


@pytest.mark.parametrize("name", sorted(SILENT))
def test_an_alias_no_star_import_can_change_is_still_written_with(tmp_path: Path, name: str) -> None:
    imports, modules = SILENT[name]
    assert _proved(tmp_path, imports, modules)


def _cells(*texts: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), t) for i, t in enumerate(texts)]


def _cell_rewrites(units: list[SourceUnit]) -> list:
    return [f for f in analyze_units(units, rules=["operator-fusion"]).findings if f.fixable]


def test_a_star_import_in_a_later_cell_than_the_alias_is_for_review() -> None:
    units = _cells(_TORCH_F, "from some_unreadable_toolkit.all import *\n", "h = torch.randn(4)\nh = torch.where(h > 0, h, 0.1 * h)\n")
    assert _cell_rewrites(units) == []


def test_a_star_import_in_a_cell_after_the_method_written_with_the_alias_is_for_review() -> None:
    """Probe rt43p (not blind): `Head.forward` in cell 1 looks `F` up when cell 3's loop calls it,
    after cell 2's star import rebound `F`; `F.leaky_relu` there reached the image-op module."""
    head = ("class Head(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = torch.nn.Linear(4, 4)\n\n    def forward(self, x):\n        h = self.fc(x)\n"
            "        return torch.where(h > 0, h, 0.1 * h)\n\n\nmodel = Head()\n")
    loop = "for step in range(3):\n    print(model(torch.randn(2, 4)).sum().item())\n"
    assert len(_cell_rewrites(_cells(_TORCH_F, head, loop))) == 1
    assert _cell_rewrites(_cells(_TORCH_F, head, "from some_unreadable_toolkit.all import *\n", loop)) == []


def test_a_star_import_in_a_cell_before_the_alias_keeps_the_rewrite() -> None:
    units = _cells("from some_unreadable_toolkit.all import *\n", _TORCH_F, "h = torch.randn(4)\nh = torch.where(h > 0, h, 0.1 * h)\n")
    assert len(_cell_rewrites(units)) == 1


def test_the_red_team_project_is_no_longer_rewritten() -> None:
    report = analyze_path(str(REDTEAM / "rt43_proj_star_functional" / "main.py"), rules=["operator-fusion"])
    in_main = [f for f in report.findings if (f.ref.path or "").endswith("main.py")]
    assert in_main and not any(f.fixable for f in in_main)


def test_the_scorer_runs_exit_handlers_and_a_clean_exit_inside_the_program(tmp_path: Path) -> None:
    """rt43_atexit_running_total stops with `sys.exit(0)` and prints its total from an `atexit` hook:
    the scorer compared nothing (the hook printed after the results and broke them)."""
    from benchmarks.score_corpus import execute

    program = tmp_path / "p.py"
    program.write_text("import atexit, sys\ntotal = 0.0\n\n\n@atexit.register\ndef report():\n    print('total', total)\n\n\n"
                       "atexit.register(print, 'second')\natexit.register(print, 'dropped')\natexit.unregister(print)\n"
                       "for i in range(5):\n    total += i\n    if i == 2:\n        sys.exit(0)\n")
    assert execute(str(program)) == ["total 3.0\n"]
    program.write_text("import sys\nprint('x')\nsys.exit(2)\n")
    with pytest.raises(SystemExit):
        execute(str(program))
