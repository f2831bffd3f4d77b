"""The (line, rule) pairs paef reports on a public-check program: what the public-check tests assert on."""

from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path


def line_rules(path: Path) -> set[tuple[int, str]]:
    return {(f.line, f.rule) for f in analyze_path(str(path)).findings}
