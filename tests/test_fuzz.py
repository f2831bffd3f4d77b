"""The analyzer never raises on arbitrary input: it reports, it does not crash."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import FixError, apply_findings
from paef_jupyter.units import InputError, read_units

CORPUS = sorted((Path(__file__).parent / "fixtures" / "rules").glob("*/*.py"))
SNIPPETS = [p.read_text() for p in CORPUS] or ["import torch\n"]
TOKENS = ["%time ", "!", "?", "(", ")", ":", "    ", "\n", "for x in y:", ".item()", ".tolist()",
          "torch.tensor(", "'''", "#", "\\", "lambda:", "yield", "await ", "if t:", "x += loss"]


@st.composite
def mutated_source(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(SNIPPETS)).split("\n")
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["drop", "dup", "insert", "token"]))
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "drop" and lines:
            lines.pop(i)
        elif op == "dup" and lines:
            lines.insert(i, lines[i])
        elif op == "insert":
            lines.insert(i, draw(st.text(max_size=30)))
        elif lines:
            col = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:col] + draw(st.sampled_from(TOKENS)) + lines[i][col:]
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_source())
def test_analyzer_never_raises_on_mutated_source(text: str) -> None:
    report = analyze_source(text)
    assert all(f.line >= 1 and f.end_line >= f.line for f in report.findings)
    try:
        apply_findings(text, report.findings)
    except FixError:
        pass  # refusing an unsafe combination is allowed; crashing is not


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_analyzer_never_raises_on_any_text(text: str) -> None:
    analyze_source(text)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=80, deadline=None)
@given(
    st.one_of(
        JSONISH,
        st.fixed_dictionaries({"cells": st.lists(st.dictionaries(st.sampled_from(["cell_type", "source", "id", "metadata"]), JSONISH), max_size=4),
                               "nbformat": st.sampled_from([4, 3, "4"]), "nbformat_minor": st.integers(0, 6), "metadata": JSONISH}),
    )
)
def test_notebook_reader_raises_only_input_error(tmp_path_factory, data: object) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("nb") / "x.ipynb"
    path.write_text(json.dumps(data))
    try:
        units = read_units(str(path))
    except InputError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
        return
    for unit in units:
        analyze_source(unit.text, unit.ref)
