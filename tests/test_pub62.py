"""Public check 62 (benchmarks/results/public_check62.md): a file CPython runs and the analysis could not read.

p01 (a SimCLR research repository) indents two branches of its optimizer helper with a tab followed
by spaces under four-space code. CPython accepts it (both readings of the tab agree); libcst's
tokenizer rejects it ("no matching outer block for dedent"), so the whole training script was an
analysis error and the per-step work it drives in the loss module went unreported. Now such a unit
is read with the tabs of its indentation expanded as CPython reads them (lines unchanged; lines
inside a multi-line string untouched); its findings are reported and never rewritten, since their
columns are the expanded text's. The shapes under tests/fixtures/public_shapes/check62/ are
own-written; the public copies are kept out of the repository."""
from __future__ import annotations

import ast
from pathlib import Path

from paef_jupyter.api import analyze_source
from paef_jupyter.fix.apply import apply_findings
from paef_jupyter.model import CellRef
from paef_jupyter.static.unit import retabbed
from public_findings import tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check62"
TABBED = SHAPES / "tabbed_option_branches.py"
RULES = ("cpu-then-move", "host-sync")


def _report(path: Path, text: str | None = None):
    text = path.read_text() if text is None else text
    return text, analyze_source(text, CellRef(str(path)), rules=list(RULES))


def test_a_file_indented_with_a_tab_and_spaces_is_analysed() -> None:
    text, report = _report(TABBED)
    assert not report.errors
    found = {(f.line, f.rule) for f in report.findings}
    assert found == {(tagged_line(text, "move"), "cpu-then-move"), (tagged_line(text, "item"), "host-sync")}


def test_its_findings_are_never_rewritten() -> None:
    text, report = _report(TABBED)
    assert report.findings and all(f.fix is None for f in report.findings)
    assert all("not rewritten: this file indents with tabs" in f.message for f in report.findings
               if f.rule == "cpu-then-move")
    new, applied, _ = apply_findings(text, report.findings, unsafe=True)
    assert new == text and not applied


def test_the_same_program_indented_with_spaces_or_tabs_only_keeps_its_fix() -> None:
    """Near misses: libcst reads both, so nothing is expanded and the rewrite is offered as before."""
    for name in ("spaced_option_branches.py", "tab_only_option_branches.py"):
        text, report = _report(SHAPES / name)
        assert not report.errors, name
        by_rule = {f.rule: f for f in report.findings}
        assert by_rule["cpu-then-move"].line == tagged_line(text, "move"), name
        assert by_rule["cpu-then-move"].fixable, name
        assert by_rule["host-sync"].line == tagged_line(text, "item"), name
        assert not any("not rewritten: this file indents" in f.message for f in report.findings), name


def test_a_file_cpython_rejects_for_its_tabs_stays_an_error() -> None:
    """Near miss: `TabError` (the two readings of the tab disagree) is not expanded into a program."""
    path = SHAPES / "taberror_option_branches.py"
    _, report = _report(path)
    assert not report.findings
    assert [e.line for e in report.errors] == [3]


def test_the_expansion_is_cpythons_reading_and_leaves_strings_alone() -> None:
    text = TABBED.read_text()
    expanded = retabbed(text)
    assert expanded is not None
    assert ast.dump(ast.parse(expanded)) == ast.dump(ast.parse(text))  # the same program, the same string values
    assert expanded.count("\n") == text.count("\n")
    assert "\n\tthis line starts with a tab inside a string" in expanded
    assert "\n" + " " * 15 + "return torch.optim.SGD(" in expanded
    assert retabbed((SHAPES / "spaced_option_branches.py").read_text()) is None


# --- p05: CTC length tensors moved to the device, which `ctc_loss` copies back to the host ---

CTC = SHAPES / "ctc_step_lengths.py"


def _ping_pong(text: str) -> dict[int, object]:
    report = analyze_source(text, CellRef(str(CTC)), rules=["ping-pong"])
    assert not report.errors
    return {f.line: f for f in report.findings}


def test_ctc_lengths_moved_to_the_device_are_a_round_trip() -> None:
    """ATen's `ctc_loss` (and its cuDNN check) converts length tensors to CPU int64 before it runs."""
    text = CTC.read_text()
    found = _ping_pong(text)
    assert set(found) == {tagged_line(text, "tl"), tagged_line(text, "il"), tagged_line(text, "il_kw")}
    assert "as CTC lengths" in found[tagged_line(text, "il")].message


def test_lengths_read_on_the_device_or_by_other_code_stay_silent() -> None:
    """Near misses: a length tensor also masked on the device, handed to the program's own loss, the
    targets (not lengths) moved, and lengths left on the host."""
    text = CTC.read_text()
    found = _ping_pong(text)
    for tag in ("masked", "own", "targets", "host"):
        assert tagged_line(text, tag) not in found, tag


def test_the_rewrite_is_review_only_and_keeps_the_loss(tmp_path: Path) -> None:
    """Dropping the move is offered for review (another CTC kernel may run on a GPU; CUDA-graph capture
    needs device lengths); applied, the program prints the same loss."""
    import subprocess
    import sys

    text = CTC.read_text()
    report = analyze_source(text, CellRef(str(CTC)), rules=["ping-pong"])
    assert report.findings and all(f.fix is not None and not f.fix.automatic and f.fix.needs_review
                                   for f in report.findings)
    new, applied, _ = apply_findings(text, report.findings, unsafe=True)
    assert len(applied) == 3 and ".to(device)  # tag: il\n" not in new
    outs = []
    for name, code in (("before.py", text), ("after.py", new)):
        (tmp_path / name).write_text(code)
        run = subprocess.run([sys.executable, str(tmp_path / name)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        outs.append(run.stdout)
    assert outs[0] == outs[1]
