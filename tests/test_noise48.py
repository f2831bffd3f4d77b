"""noise48: findings a reader calls noise, cut by category without losing a labelled TP.

Kept cut (host-sync, `HostSync._decides_the_step`): a branch whose tensor value decides what this
very step does is the algorithm, not a cost to remove -- a decoding loop that stops on a token
(`if tok.item() == EOS: break` / `return`) and a guard that skips the rest of the step, its
backward pass or optimizer step included (`if not torch.isfinite(loss): continue`). On main these
were 8 low-severity findings of the static corpus, all `ok` (debatable). Near misses that stay:
early stopping on a threshold, a guard that raises, a `continue` that skips no update, a token
test whose arm lets the step go on. Fixtures: `host-sync/neg_branch_that_decides_the_step.py`,
`host-sync/pos_branch_near_misses_of_step_decisions.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus"


def _host_sync_lines(program: str) -> set[int]:
    report = analyze_path(str(CORPUS / program), rules=["host-sync"])
    return {f.line for f in report.findings if f.rule == "host-sync"}


@pytest.mark.parametrize(("program", "line"), [
    ("blind2_seq2seq_attention.py", 100),  # `if topi.item() == EOS: break` (greedy decoding)
    ("blind5_caption_lstm.py", 53),  # `if word.item() == vocab["<end>"]: break`
    ("blind_seq2seq_teacher.py", 124),  # a training unroll without teacher forcing stops on EOS
    ("blind_seq2seq_teacher.py", 165),
    ("blind4_checkpoint_compile.py", 67),  # `if not torch.isfinite(grad_norm): skipped += 1; continue`
    ("blind6_amp_checkpointing.py", 65),  # `if not torch.isfinite(loss): ...; continue` before backward
    ("pub10_detection_try_step.py", 48),  # `if bool(loss == 0): continue` before backward
    ("blind4_fgsm_attack.py", 50),  # `if init_pred.item() != target.item(): continue` before the attack's backward
])
def test_step_decisions_are_silent(program: str, line: int) -> None:
    assert line not in _host_sync_lines(program)


@pytest.mark.parametrize(("program", "line"), [
    ("direct_tensor_conditions.py", 16),  # `if torch.isnan(loss): raise` (a check: every N steps will do)
    ("direct_tensor_conditions.py", 21),  # `if grad_norm > 5.0:` (the arm lets the step go on)
    ("misses11_tracking_sync.py", 41),  # `if float(d2) > 9.0: ...; continue` skips no update
    ("nb_direct_antipatterns.ipynb", 9),  # early stopping on a threshold
    ("blind6_gat_dense.py", 86),  # best-loss bookkeeping
    ("blind4_fgsm_attack.py", 59),  # `if final_pred.item() == target.item(): correct += 1`
])
def test_near_misses_stay_reported(program: str, line: int) -> None:
    assert line in _host_sync_lines(program)
