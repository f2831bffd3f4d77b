"""`paef scan | fix` against the CLI contract of DESIGN.md, in a subprocess as users run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

SLOW_CELL = "import torch\ndevice = 'cpu'\nfor step in range(3):\n    buf = torch.zeros(4).to(device)\n    buf += step\nresult = buf\n"


def paef(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paef_jupyter.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture()
def notebook(tmp_path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# title"),
        nbformat.v4.new_code_cell("%matplotlib inline\nx = (\n"),  # does not parse
        nbformat.v4.new_code_cell("%%time\n" + SLOW_CELL),
        nbformat.v4.new_code_cell("%%bash\nls\n"),
    ]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell{i}"
    path = tmp_path / "train.ipynb"
    nbformat.write(nb, path)
    return path


def test_scan_json_contract(notebook: Path) -> None:
    proc = paef("scan", str(notebook), "--format", "json", "--rule", "cpu-then-move")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["schema"] == "paef/1"
    [finding] = data["findings"]
    assert finding["cell"] == 2 and finding["cell_id"] == "cell2"
    assert finding["line"] == 5  # the %%time line counts as line 1
    assert finding["rule"] == "cpu-then-move" and finding["fixable"] is True
    [error] = data["errors"]
    assert error["cell"] == 1 and error["message"].startswith("SyntaxError")


def test_scan_clean_file_exits_zero(tmp_path: Path) -> None:
    path = tmp_path / "ok.py"
    path.write_text("import torch\nx = torch.zeros(3)\n")
    proc = paef("scan", str(path))
    assert proc.returncode == 0 and "0 findings" in proc.stdout


@pytest.mark.parametrize(
    "content, name, reason",
    [("{not json", "bad.ipynb", "not a valid notebook"), (None, "missing.py", "no such file"), ("x", "data.txt", "unsupported file type")],
)
def test_unreadable_input_is_one_line_exit_2(tmp_path: Path, content: str | None, name: str, reason: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    proc = paef("scan", str(path))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and reason in proc.stderr and str(path) in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_rule_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    proc = paef("scan", str(path), "--rule", "no-such-rule")
    assert proc.returncode == 2 and "no-such-rule" in proc.stderr


def test_fix_py_in_place_keeps_orig(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(SLOW_CELL)
    proc = paef("fix", str(path), "--rule", "cpu-then-move")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "train.py.orig").read_text() == SLOW_CELL
    assert "torch.zeros(4, device=device)" in path.read_text()


def test_fix_notebook_to_output_keeps_original_source(notebook: Path, tmp_path: Path) -> None:
    out = tmp_path / "fixed.ipynb"
    proc = paef("fix", str(notebook), "-o", str(out), "--rule", "cpu-then-move")
    assert proc.returncode == 1  # one cell does not parse: reported, others still fixed
    fixed = nbformat.read(out, as_version=4)
    original = nbformat.read(notebook, as_version=4)
    cell = fixed.cells[2]
    assert cell.source.startswith("%%time\n") and "device=device" in cell.source
    assert cell.metadata["paef"]["original_source"] == original.cells[2].source
    assert [c.source for i, c in enumerate(fixed.cells) if i != 2] == [c.source for i, c in enumerate(original.cells) if i != 2]
    assert not (tmp_path / "train.ipynb.orig").exists()
