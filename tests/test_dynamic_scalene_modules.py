"""truth16 (truth15 open item e): `--engine scalene` follows the program's own modules as the
torch engine does - their lines get times, and the static findings `paef scan` reports in them
are in the profile - and still never installed code (a virtual environment inside the folder)."""

from __future__ import annotations

import pytest

from paef_jupyter import api
from paef_jupyter.dynamic.scalene_runner import profile_from_scalene
from paef_jupyter.model import CellRef

from test_dynamic_scalene import row

PREP = """def busy(n):
    s = 0
    for i in range(n):
        s += i * i
    return s
"""

MAIN = """import sys
{extra}
from prep import busy

total = 0
for k in range(40):
    total += busy(60_000)
print(total)
"""


@pytest.mark.slow
def test_a_local_modules_lines_are_profiled_under_scalene(tmp_path):
    (tmp_path / "prep.py").write_text(PREP)
    (tmp_path / "main.py").write_text(MAIN.format(extra=""))
    report = api.profile_path(str(tmp_path / "main.py"), engine="scalene")
    assert not report.errors
    in_prep = [s for s in report.profile.lines if s.ref.path and s.ref.path.endswith("prep.py")]
    assert in_prep and max(s.line for s in in_prep) <= 5
    assert sum(s.cpu_time_s for s in in_prep) > 0


@pytest.mark.slow
def test_an_installed_module_inside_the_folder_is_not_profiled_under_scalene(tmp_path):
    """Near miss: `prep` found in `.venv/.../site-packages` inside the folder is not the program's."""
    site = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (site / "prep.py").write_text(PREP)
    (tmp_path / "main.py").write_text(MAIN.format(extra=f"sys.path.insert(0, {str(site)!r})"))
    report = api.profile_path(str(tmp_path / "main.py"), engine="scalene")
    assert not report.errors
    assert not [s for s in report.profile.lines if s.ref.path and s.ref.path.endswith("prep.py")]


def _data(filename: str) -> dict:
    return {"elapsed_time_sec": 1.0, "gpu": False,
            "files": {"/tmp/x/cell_0000.py": {"lines": [row(3, python=10)]},
                      filename: {"lines": [row(2, python=50)]}}}


def test_a_file_the_resolver_does_not_know_is_left_out():
    """Near miss: Scalene's `--profile-only` matches substrings; only files `local` names count."""
    cell = CellRef("main.py")
    profile = profile_from_scalene(_data("/usr/lib/python3/json/encoder.py"), {"/tmp/x/cell_0000.py": cell},
                                   local=lambda name: None)
    assert [s.ref for s in profile.lines] == [cell]


def test_without_a_resolver_only_the_cells_count():
    """Near miss: the old call (no `local`) is unchanged."""
    cell = CellRef("main.py")
    profile = profile_from_scalene(_data("/tmp/prog/prep.py"), {"/tmp/x/cell_0000.py": cell})
    assert [s.ref for s in profile.lines] == [cell]


def test_a_resolved_module_is_mapped_to_its_ref():
    cell, prep = CellRef("main.py"), CellRef("prep.py")
    profile = profile_from_scalene(_data("/tmp/prog/prep.py"), {"/tmp/x/cell_0000.py": cell},
                                   local=lambda name: prep if name == "/tmp/prog/prep.py" else None)
    assert {s.ref for s in profile.lines} == {cell, prep}
