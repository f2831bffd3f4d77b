"""The (line, rule) pairs paef reports on a public-check program: what the public-check tests assert on."""

from __future__ import annotations

import json
from pathlib import Path

from paef_jupyter.api import analyze_path


def line_rules(path: Path) -> set[tuple[int, str]]:
    return {(f.line, f.rule) for f in analyze_path(str(path)).findings}


def write_notebook(tmp_path: Path, *cells: str) -> Path:
    """A notebook of these code cells (`nb.ipynb` in `tmp_path`), as a public notebook is read."""
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                     "source": c.splitlines(True)} for c in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    return path
