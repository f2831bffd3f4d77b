"""Red team 62 (blind, 10 programs: 3 projects, 2 notebooks, aimed at augmentation and self-supervised
batches: hand-written mixup / CutMix, NT-Xent and SupCon losses with labels and self-masks built per batch
from a batch size that shrinks on the last batch, MoCo queues written at a pointer, BYOL / EMA targets,
per-step generators, a dataset that reseeds torch per sample, multi-crop batches) met 5 automatic rewrites
on first contact, none harmful.

A probe (not blind) found a rewrite whose review reason was false: operator-fusion read
`e = torch.exp(sim)` through its definition into `e / e.sum(1, keepdim=True)` although the self-pairs of
`e` were zeroed in between through a view (`d = e.diagonal(); d.zero_()`, `flat = e.view(-1);
flat[::n + 1] = 0`, `top = e[:k]; top.mul_(0.5)`) or by a helper it was handed (`drop_self(e)` calling
`t.fill_diagonal_(0)`): it offered `torch.softmax(sim, dim=1)`, "the same function, rounded differently",
which brings the zeroed entries back. The fact the analysis lacked: a local is changed through the memory it
shares and by the code it is handed to, not only through its own name (`_local_changes.changed_between`).
Such a local is no longer read through its definition, so the expression is not a softmax any more.

The other tests pin what held where the programs aimed.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_lines, program_units, rule_findings, source_units

_HEAD = """import torch
import torch.nn.functional as F

device = 'cuda' if torch.cuda.is_available() else 'cpu'
z = F.normalize(torch.randn(6, 4, device=device), dim=1)


def drop_self(t):
    t.fill_diagonal_(0.0)


def stats(t):
    return t.mean().item()


def scores(sim):
    e = torch.exp(sim)
"""
_TAIL = "    return e / e.sum(dim=1, keepdim=True)\n\n\nprint(scores(z @ z.T / 0.5))\n"

# Between the exponential and the normalisation, `e` (or what it was computed from) changes other than
# through its own name: the expression is not a softmax of `sim`.
_CHANGED = {
    "diagonal_view_zeroed": "    d = e.diagonal()\n    d.zero_()\n",
    "flat_view_written": "    flat = e.view(-1)\n    flat[::7] = 0.0\n",
    "row_block_view_scaled": "    top = e[:3]\n    top.mul_(0.5)\n",
    "helper_changes_it": "    drop_self(e)\n",
    "helper_changes_a_view": "    drop_self(e[:3])\n",
    "written_by_out": "    torch.mul(e, 0.5, out=e[:2])\n",
    "input_changed_through_a_view": "    s = sim.view(-1)\n    s.mul_(2.0)\n",
    "unknown_callable": "    import some_logger\n    some_logger.mask(e)\n",
}

# Near misses: nothing between, a view only read, a helper that only reads, a copy changed, another tensor
# changed, a pure torch function: still a softmax (offered for review, as before).
_UNCHANGED = {
    "nothing_between": "",
    "view_only_read": "    d = e.diagonal()\n    print(d.sum())\n",
    "helper_only_reads": "    print(stats(e))\n",
    "copy_changed": "    c = e.clone()\n    c.fill_diagonal_(0.0)\n",
    "other_tensor_changed": "    other = torch.ones(3)\n    other.zero_()\n",
    "pure_torch_call": "    total = torch.sum(e)\n",
}


def _softmax_fixes(body: str) -> list:
    found = rule_findings(source_units(_HEAD + body + _TAIL), "operator-fusion")
    return [f for f in found if f.fix is not None and "softmax" in (f.fix.suggestion or "")]


@pytest.mark.parametrize("body", list(_CHANGED.values()), ids=list(_CHANGED))
def test_a_local_changed_through_a_view_or_a_callee_is_not_read_through_its_definition(body: str) -> None:
    assert not _softmax_fixes(body)


@pytest.mark.parametrize("body", list(_UNCHANGED.values()), ids=list(_UNCHANGED))
def test_a_local_left_alone_is_still_read_as_a_softmax(body: str) -> None:
    assert len(_softmax_fixes(body)) == 1


def test_the_probe_gets_no_softmax_rewrite() -> None:
    found = rule_findings(program_units(REDTEAM / "rt62p_of_softmax_self_views.py"), "operator-fusion")
    assert not found


def test_the_blind_supcon_keeps_its_sigmoid_hint_and_no_softmax() -> None:
    found = rule_findings(program_units(REDTEAM / "rt62_of_masked_softmax.py"), "operator-fusion")
    assert [f.line for f in found] == [47]
    assert not any(f.fix is not None and f.fix.automatic for f in found)


# --- what held on first contact and in the probes --------------------------------------------------


def test_per_batch_labels_and_masks_are_not_hoisted() -> None:
    # nt_xent's eye(2B) / arange(B) from the batch it is handed; only the fixed anchor check's arange(10) moves
    assert automatic_lines(REDTEAM / "rt62_rt_ntxent_last_batch.py", "redundant-tensor") == {(None, 83)}
    assert not automatic_lines(REDTEAM / "rt62p_rt_batch_tables.py", "redundant-tensor")
    assert not automatic_lines(REDTEAM / "rt62_proj_moco_ring" / "main.py", "redundant-tensor")
    assert not automatic_lines(REDTEAM / "rt62_nb_ntxent_drop_last.ipynb", "redundant-tensor")


def test_eval_passes_whose_callee_asks_the_grad_mode_are_not_wrapped() -> None:
    assert not automatic_lines(REDTEAM / "rt62p_ev_queue_grad_mode.py", "eval-without-no-grad")
    assert not automatic_lines(REDTEAM / "rt62_ev_linear_probe.py", "eval-without-no-grad")


def test_mixup_totals_weighted_by_lambda_stay_on_the_host() -> None:
    assert not automatic_lines(REDTEAM / "rt62p_hs_mixup_totals.py", "host-sync")
    # the plain float total is moved (float64 on the device); the lambda-weighted counts are not
    assert automatic_lines(REDTEAM / "rt62_hs_mixup_lam_logging.py", "host-sync") == {(None, 46)}


def test_randomness_per_batch_is_never_moved_or_hoisted() -> None:
    for name in ("rt62_rt_cutmix_boxes.py", "rt62_proj_noisy_student/main.py", "rt62_proj_noisy_student/augment.py",
                 "rt62_proj_multicrop/main.py"):
        for rule in ("cpu-then-move", "redundant-tensor"):
            assert not automatic_lines(REDTEAM / name, rule), (name, rule)
