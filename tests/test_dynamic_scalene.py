"""The Scalene engine: its JSON mapped back to cells, and one real run in a subprocess."""

from __future__ import annotations

import glob
import os
import tempfile

import nbformat
import pytest

from paef_jupyter import api
from paef_jupyter.dynamic.scalene_runner import profile_from_scalene
from paef_jupyter.model import CellRef

CELL = CellRef("nb.ipynb", 2, "c2")


def row(lineno: int, python: float = 0.0, native: float = 0.0, system: float = 0.0, **kw) -> dict:
    return {"lineno": lineno, "line": "...", "n_cpu_percent_python": python, "n_cpu_percent_c": native,
            "n_sys_percent": system, "n_gpu_percent": 0.0, "n_peak_mb": 0.0, "n_copy_mb_s": 0.0, **kw}


def test_scalene_json_maps_percentages_of_elapsed_time_to_cell_lines():
    data = {
        "elapsed_time_sec": 2.0,
        "max_footprint_mb": 3.0,
        "gpu": False,
        "files": {
            "/tmp/x/cell_0002.py": {"lines": [row(1), row(4, python=30, native=10, system=5, n_peak_mb=12.5),
                                               row(5, native=20, n_copy_mb_s=3.0)]},
            "/tmp/x/driver.py": {"lines": [row(3, python=50)]},
        },
    }
    data["stacks"] = [
        [["/tmp/x/driver.py <module>:12;", "/tmp/x/cell_0002.py <module>:4;"], {"cpu_samples": 0.5}],
        [["/tmp/x/driver.py <module>:12;", "/tmp/x/cell_0002.py <module>:5;", "/tmp/x/cell_0001.py f:2;"],
         {"cpu_samples": 0.25}],
        [["/tmp/x/driver.py <module>:12;", "/tmp/x/cell_0002.py <module>:0;"], {"cpu_samples": 0.1}],  # on entry
        "not a stack",
    ]
    texts = {"/tmp/x/cell_0002.py": ["import numpy", "", "", "a = busy()", "b = f(a)"]}
    profile = profile_from_scalene(data, {"/tmp/x/cell_0002.py": CELL}, texts)
    assert profile.engine == "scalene" and profile.wall_time_s == 2.0
    assert [(s.line, s.ref) for s in profile.lines] == [(4, CELL), (5, CELL)]  # empty line and driver dropped
    line4 = profile.line(CELL, 4)
    assert line4.python_cpu_s == pytest.approx(0.6) and line4.native_cpu_s == pytest.approx(0.2)
    assert line4.system_cpu_s == pytest.approx(0.1) and line4.cpu_time_s == pytest.approx(0.9)
    assert line4.peak_memory_mb == 12.5 and profile.line(CELL, 5).copy_mb_s == 3.0
    assert profile.cpu_time_s == pytest.approx(1.3) and profile.peak_memory_bytes == 3 << 20
    tree = profile.cpu_tree  # from the sampled stacks, cell frames only (cell_0001 is not mapped)
    assert [(f.name, f.line, round(f.duration_s, 3)) for f in tree.children] == [("a = busy()", 4, 1.0),
                                                                              ("b = f(a)", 5, 0.5)]
    assert any("CPU-only" in n for n in profile.notes)


def test_the_runs_own_files_are_not_the_programs_modules_when_tmp_is_inside_its_folder(tmp_path):
    # A notebook in /tmp: Scalene's private folder (driver, cell copies) is inside the program's
    # folder, and a sample landing in the driver made a frame of a "module" no cell knows (the CI
    # failure of stop 51: `KeyError: None` in the real run below, one run in several).
    from paef_jupyter.dynamic.run_units import _local_modules

    private = tmp_path / "paef-scalene-x"
    private.mkdir()
    (private / "driver.py").write_text("pass\n")
    (tmp_path / "helpers.py").write_text("pass\n")
    local = _local_modules(str(tmp_path / "work.ipynb"), private=str(private))
    assert local(str(private / "driver.py")) is None
    assert local(str(tmp_path / "helpers.py")) == CellRef(str(tmp_path / "helpers.py"))
    data = {"elapsed_time_sec": 1.0, "files": {str(private / "driver.py"): {"lines": [row(1, python=50)]}},
            "stacks": [[[f"{private / 'driver.py'} <module>:1;"], {"cpu_samples": 0.5}]]}
    profile = profile_from_scalene(data, {}, local=local)
    assert not profile.lines
    assert profile.cpu_tree is None or not any(f.ref for f in profile.cpu_tree.walk())


@pytest.mark.slow
def test_scalene_run_of_a_notebook_finds_the_hot_cell_line(tmp_path, monkeypatch):
    # A temporary folder of its own: another process's scalene run in the shared one is not this run's leftover.
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# work"),
        nbformat.v4.new_code_cell("def busy(n):\n    s = 0\n    for i in range(n):\n        s += i * i\n    return s"),
        nbformat.v4.new_code_cell("%time x = 1\ntotal = 0\nfor k in range(60):\n    total += busy(50_000)"),
        nbformat.v4.new_code_cell("raise ValueError('stop here')"),
        nbformat.v4.new_code_cell("never = 1"),
    ]
    path = tmp_path / "work.ipynb"
    nbformat.write(nb, str(path))
    report = api.profile_path(str(path), engine="scalene")
    profile = report.profile
    assert profile.engine == "scalene" and profile.wall_time_s > 0
    hot = max(profile.lines, key=lambda s: s.cpu_time_s)
    assert hot.ref.cell == 1 and hot.line in (3, 4) and hot.python_cpu_s > 0
    (error,) = report.errors
    assert error.ref.cell == 3 and error.line == 1 and "ValueError: stop here" in error.message
    cells = {1: 5, 2: 4, 3: 1}  # cell -> its line count; a sample may land in the raising cell, never after it
    framed = [f for f in profile.cpu_tree.walk() if f.ref]
    assert framed and all(1 <= f.line <= cells[f.ref.cell] for f in framed)
    assert tempfile.gettempdir() == str(scratch)
    assert not glob.glob(os.path.join(scratch, "*scalene*"))  # nothing left behind


def test_scalene_failure_is_one_line_naming_the_file(tmp_path, monkeypatch):
    import subprocess

    from paef_jupyter.dynamic import scalene_runner
    from paef_jupyter.units import InputError

    def no_profile(cmd, **kw):
        return subprocess.CompletedProcess(cmd, 1, "", "Traceback...\nModuleNotFoundError: No module named 'scalene'")

    monkeypatch.setattr(scalene_runner.subprocess, "run", no_profile)
    script = tmp_path / "t.py"
    script.write_text("x = 1\n")
    with pytest.raises(InputError, match=r"t\.py: scalene wrote no profile \(exit 1\): ModuleNotFoundError"):
        api.profile_path(str(script), engine="scalene")


@pytest.mark.slow
def test_scalene_passes_the_script_its_own_arguments(tmp_path):
    """As under the torch engine: the script parses `sys.argv` = [PATH, *ARGS], not Scalene's
    driver's command line (which would stop a public script at `parse_args()`)."""
    script = tmp_path / "train.py"
    out = tmp_path / "argv.txt"
    script.write_text(
        "import argparse, sys\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--out')\n"
        "args = parser.parse_args()\n"
        "open(args.out, 'w').write(repr(sys.argv[1:]) + ' ' + str(sys.argv[0].endswith('train.py')))\n"
    )
    report = api.profile_path(str(script), engine="scalene", script_args=["--out", str(out)])
    assert report.errors == ()
    assert out.read_text() == repr(["--out", str(out)]) + " True"
