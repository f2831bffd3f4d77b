"""noise51 (issue 8, strict precision on public code): two debatable categories of the public
checks made silent - lengths copied to the host for a `forward` that packs them
(`pack_padded_sequence` requires host lengths), and a tiny tensor rebuilt in the loop of a
function that builds the data set once - while every right finding of those programs stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
PUB = ROOT / "benchmarks" / "public36"
CORPUS = ROOT / "benchmarks" / "corpus"


def _found(path: Path) -> set[tuple[int, str]]:
    return {(f.line, f.rule) for f in analyze_path(str(path)).findings}


def test_lstm_imdb_packing_lengths_and_stand_in_builder_silent():
    found = _found(PUB / "p05_lstm_imdb_train_test.py")
    assert (27, "host-sync") not in found  # `text_lengths.cpu()` for the packing forward
    assert (110, "redundant-tensor") not in found  # `torch.arange(12)` in the once-run data builder
    assert {(38, "host-sync"), (39, "host-sync")} <= found  # the right reads stay


def test_gcn_stand_in_builder_silent():
    found = _found(PUB / "p03_gcn_enzyme_graphs.py")
    assert (65, "redundant-tensor") not in found
    assert (48, "eval-without-no-grad") in found


def test_corpus_debatable_sites_silent():
    imdb = _found(CORPUS / "pub36_lstm_imdb_train_test.py")
    assert (31, "host-sync") not in imdb and (114, "redundant-tensor") not in imdb
    assert {(42, "host-sync"), (43, "host-sync")} <= imdb
    assert (53, "redundant-tensor") not in _found(CORPUS / "lead36_trainer_methods.py")


def test_public36_findings_after():
    """Check 36's programs: exactly the findings kept (12 right, 4 debatable)."""
    found = {(p.name[:3], line, rule) for p in sorted(PUB.glob("p*.py")) for line, rule in _found(p)}
    assert found == {
        ("p01", 56, "host-sync"), ("p01", 69, "host-sync"), ("p01", 84, "host-sync"),
        ("p03", 48, "eval-without-no-grad"),
        ("p04", 23, "eval-without-no-grad"), ("p04", 26, "host-sync"),
        ("p05", 38, "host-sync"), ("p05", 39, "host-sync"), ("p05", 112, "cpu-then-move"),
        ("p07", 111, "host-sync"), ("p07", 128, "record-buffer"), ("p07", 144, "list-to-tensor"),
        ("p07", 145, "list-to-tensor"), ("p07", 146, "list-to-tensor"), ("p07", 150, "list-to-tensor"),
        ("p08", 122, "host-sync"),
    }
