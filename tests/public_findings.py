"""The (line, rule) pairs paef reports on a public-check program: what the public-check tests assert on."""

from __future__ import annotations

import json
from pathlib import Path

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef, Finding


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


def tagged_line(text: str, tag: str) -> int:
    """The line of an own-written public shape that ends with `# tag: <tag>` (labels survive edits)."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.endswith(f"# tag: {tag}"))


def rule_findings(path: Path, text: str, rule: str) -> dict[int, Finding]:
    """One rule's findings on `text` read as the file `path`, by line; an analysis error fails the test."""
    report = analyze_source(text, CellRef(str(path)), rules=[rule])
    assert not report.errors
    return {f.line: f for f in report.findings}
