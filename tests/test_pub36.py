"""Public check 36 (benchmarks/public36): first contact's right findings kept, and the one fix
of this check (ping-pong: an index brought to the host to index a host table, the result sent
back, in a helper run per iteration) held. The public programs are kept out of the repository:
the tests read own-written programs of the same shapes (tests/fixtures/public_shapes/check36)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

from paef_jupyter.api import analyze_path

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check36"


def test_dcgan_item_reads_every_step():
    found = line_rules(SHAPES / "dcgan_three_reads.py")
    assert {(25, "host-sync"), (32, "host-sync"), (39, "host-sync")} <= found


def test_eval_functions_without_no_grad():
    assert (41, "eval-without-no-grad") in line_rules(SHAPES / "gcn_graph_batches.py")
    assert (20, "eval-without-no-grad") in line_rules(SHAPES / "gcn_full_batch.py")


def test_lstm_loss_item_every_step_and_eval_silent():
    found = line_rules(SHAPES / "lstm_packed_lengths.py")
    assert {(28, "host-sync"), (29, "host-sync")} <= found
    assert not any(rule == "eval-without-no-grad" for _, rule in found)


def test_cpu_programs_stay_silent():
    assert not line_rules(SHAPES / "rnn_cpu_only.py")
    assert not line_rules(SHAPES / "schedule_gather_once.py")  # the helper runs once there


def test_extract_round_trip_reported_as_a_hint():
    result = analyze_path(str(ROOT / "benchmarks" / "corpus" / "pub35_ddpm_extract_schedule.py"))
    hits = [f for f in result.findings if f.rule == "ping-pong" and f.line == 28]
    assert len(hits) == 1
    assert not hits[0].fixable


def test_token_classification_eval_loop_found_for_review():
    """Check 35's p02: the evaluation batches come from a collator of this unit that builds new
    tensors, so they are not the training loader's: the loop is reported (its wrap is for review:
    a TransformerEncoder takes the fast path under no_grad)."""
    path = ROOT / "benchmarks" / "corpus" / "pub35_token_classification_eval_loop.py"
    hits = [f for f in analyze_path(str(path)).findings if f.rule == "eval-without-no-grad"]
    assert [f.line for f in hits] == [119]
    assert not hits[0].fixable


def test_dqn_device_rows_joined_hint():
    found = {(f.line, f.rule): f.fixable for f in analyze_path(str(SHAPES / "dqn_board_game.py")).findings}
    assert found.get((95, "list-to-tensor")) is False
    assert found.get((91, "list-to-tensor")) is False
