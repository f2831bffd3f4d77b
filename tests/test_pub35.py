"""Public check 35 (programs written in the style of public code, `benchmarks/public35/`): what
the fixes of that check changed, held on the programs themselves.

- redundant-tensor: `torch.arange(N, device=device)` at the top of `recall_at_k`, which the epoch
  loop calls after its batch loop and which loops itself, runs once per pass: not reported (p08);
  the per-step `arange` in a forward (p04 line 36) still is.
- cpu-then-move: `torch.tensor([i] * n).to(device)` in the DDPM sampler's step loop is reported
  with `torch.full` as a suggestion, never rewritten (p04 line 98).
- The rest of first contact is kept: every finding listed in `benchmarks/results/public_check35.md`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path

PUBLIC = Path(__file__).resolve().parents[1] / "benchmarks" / "public35"

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _sites(name: str) -> dict[tuple[int, str], bool]:
    report = analyze_path(str(PUBLIC / name))
    return {(f.line, f.rule): f.fixable for f in report.findings}


def test_evaluation_pass_factories_are_not_per_step() -> None:
    sites = _sites("p08_two_tower_retrieval.py")
    assert not any(rule == "redundant-tensor" for _, rule in sites)
    assert (93, "cpu-then-move") in sites and not sites[(93, "cpu-then-move")]  # the randint: other draws on CUDA
    assert (98, "host-sync") in sites


def test_filled_list_moved_in_the_sampler_is_a_hint() -> None:
    sites = _sites("p04_diffusion_ema.py")
    assert (98, "cpu-then-move") in sites and not sites[(98, "cpu-then-move")]
    assert (36, "redundant-tensor") in sites  # the sinusoidal embedding's arange, per step
    assert (144, "host-sync") in sites


@pytest.mark.parametrize("name, expected", [
    ("p03_timm_train.py", {(113, "host-sync"), (125, "host-sync")}),
    ("p05_gnn_neighbor_sampling.py", {(100, "host-sync"), (101, "host-sync")}),
    ("p07_audio_classifier.py", {(63, "redundant-tensor"), (65, "cpu-function"), (114, "host-sync"), (115, "host-sync")}),
])
def test_first_contact_findings_are_kept(name: str, expected: set[tuple[int, str]]) -> None:
    assert expected <= set(_sites(name))
