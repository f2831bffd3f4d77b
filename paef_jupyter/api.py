"""The one pipeline. The magic and the CLI are thin faces over these functions.

source -> facts -> findings -> (profile) -> ranked findings -> Report
"""

from __future__ import annotations

from typing import Collection, Mapping, Sequence

from .model import CellRef, Report, SourceUnit
from .static.analyzer import analyze_units
from .units import read_units


def analyze(
    units: Sequence[SourceUnit],
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
    title: str = "",
) -> Report:
    """Static analysis of some cells/files. `namespace` is the live kernel namespace, if any."""
    return analyze_units(units, namespace=namespace, rules=rules, title=title)


def analyze_source(
    text: str,
    ref: CellRef = CellRef(),
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
) -> Report:
    return analyze([SourceUnit(ref, text)], namespace=namespace, rules=rules)


def analyze_path(path: str, rules: Collection[str] | None = None) -> Report:
    """Static analysis of a `.py` or `.ipynb` file; raises `units.InputError` if unreadable."""
    return analyze(read_units(path), rules=rules, title=path)


# --- profiling (see paef_jupyter/dynamic) ----------------------------------------------
