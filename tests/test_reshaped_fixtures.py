"""Every rule survives rare ways to write a program: the rule fixtures, reshaped (see
`reshapes.py`), are analysed with all rules and no rule fails on them. An `elif` whose test reads a
tensor crashed four rules' statement walks (a statement's parent there is an `If`, not a block)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef
from paef_jupyter.static.types import without_vague_annotations
from reshapes import SHAPES, reshape
from rule_fixtures import FIXTURES, assert_same, run_fixture

# Every 24th fixture (by name), so that each rule's folder is sampled and the test stays short.
_SAMPLE = [p for p in sorted(FIXTURES.glob("*/*.py")) if not p.name.endswith(".out.py")][::24]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_no_rule_fails_on_reshaped_fixtures(shape: str) -> None:
    failures = []
    for path in _SAMPLE:
        text = reshape(path.read_text(), shape)
        if text is None:
            continue
        report = analyze_source(text, CellRef(str(path)))
        failures += [f"{path.parent.name}/{path.name}:{e.line}: {e.message}" for e in report.errors]
    assert not failures, "\n".join(failures[:10])


# Every eighth rewrite pair's program (data-parallel ones left out: they need ranks).
_PAIRS = [p for p in sorted(FIXTURES.glob("*/*.in.py"))
          if not p.name.startswith("review_") and "init_process_group" not in p.read_text()][::8]


@pytest.mark.parametrize("shape", ["annotated", "walrus", "elif", "match"])
def test_automatic_rewrites_of_reshaped_programs_keep_their_result(shape: str) -> None:
    """A reshaped program computes what the original did, so paef's automatic rewrites of it must
    too (an annotated accumulator grown in place was hoisted by redundant-tensor on 0a16905)."""
    for path in _PAIRS:
        text = reshape(path.read_text(), shape)
        if text is None:
            continue
        report = analyze_source(text, CellRef(str(path)))
        after, _, _ = apply_findings(text, report.findings)
        if after == text:
            continue
        compile(after, str(path), "exec")
        try:
            before = run_fixture(text, str(path))
        except torch.jit.frontend.UnsupportedNodeError:
            continue  # the reshape broke the program itself: TorchScript compiles no `match` (a `jit.script` fixture)
        assert_same(before, run_fixture(after, str(path)), f"{path.parent.name}/{path.name} ({shape})")


def _findings(text: str, path: Path) -> list[tuple[str, int | None, bool]]:
    report = analyze_source(text, CellRef(str(path)))
    return sorted((f.rule, f.line, f.fixable) for f in report.findings)


# Fixtures whose findings rest on jedi typing a name bound with `x: object = v`: jedi answers from
# an annotation, not from the value, so before `types.without_vague_annotations` their annotated
# copies lost findings (a loop over `data: object = [(x, y) ...]` yielded no tensors). Always checked.
_JEDI_READS_THE_VALUE = [FIXTURES / name for name in (
    "pageable-transfer/neg_batch_comprehension_near_misses.py",
    "elementwise-loop/pos_counting.py",
    "host-sync/pos_tensor_read_as_a_size.py",
    "redundant-tensor/refuse_factory_in_per_step_helper_with_loop.py",
)]


def test_an_annotation_changes_no_finding() -> None:
    """`x: object = v` binds as `x = v` does (it keeps every line where it was), so the findings,
    and which are automatic, are the same. On c0424f5 446 of the 1586 fixtures differed, and
    red-team programs given annotations had `no_grad` wrapped around code whose results were
    back-propagated (`static/annotated.py`)."""
    differ = []
    for path in sorted(set(_SAMPLE) | set(_JEDI_READS_THE_VALUE)):
        text = path.read_text()
        shaped = reshape(text, "annotated")
        if shaped is None:
            continue
        annotated, plain = _findings(shaped, path), _findings(text, path)
        name = f"{path.parent.name}/{path.name}"
        if annotated != plain:
            differ.append(name)
    assert not differ, differ


def test_jedi_reads_a_vaguely_annotated_name_from_its_value_at_the_same_positions() -> None:
    source = "data: object = [1]\nn: int = 2\n\u00e9: typing.Any = 3\nfor a in data: pass\nk: Any\n"
    blanked = without_vague_annotations(source)
    assert blanked.split("\n") == ["data         = [1]", "n: int = 2", "\u00e9             = 3", "for a in data: pass", "k: Any", ""]
    assert without_vague_annotations("x = (1,\n") == "x = (1,\n"  # does not parse: as it was
