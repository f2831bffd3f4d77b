"""Recall 61: two facts behind corpus and public misses (benchmarks/results/recall61.md).

- a torch loss module computes a new tensor: a target handed to `criterion(out, target)` is not
  changed by `loss.backward()` (the DCGAN corpus program's `torch.tensor([0.9]).cuda().expand(b, 1)`,
  gpu_only_dcgan_cuda_routes:31). Read so by `redundant-tensor` only, and reported as a hint;
- a loop of a training program that carries a device tensor from one iteration to the next is a
  chain of device steps, not an evaluation pass (public check 48, p03 101/106: per-step `.item()` in a
  Langevin sampler run after training), and its state may be a parameter every caller fills on the
  device. Hints only.
No new automatic rewrite and no existing one widened: the tests check the new findings carry no edits
and that the rules sharing the sites (`cpu-then-move`) keep their findings."""
from __future__ import annotations

import textwrap
from pathlib import Path

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "benchmarks" / "corpus"
RT = ROOT / "tests" / "fixtures" / "rules" / "redundant-tensor"
HS = ROOT / "tests" / "fixtures" / "rules" / "host-sync"


def _hint(finding: object) -> bool:
    fix = finding.fix  # type: ignore[attr-defined]
    return fix is not None and not fix.automatic and not fix.edits


def _lines(source: str, rule: str) -> dict[int, object]:
    report = analyze_source(textwrap.dedent(source), CellRef("t.py"), rules=[rule])
    assert not report.errors
    return {f.line: f for f in report.findings}


def test_dcgan_smoothed_label_is_a_hint_beside_cpu_then_move() -> None:
    found = analyze_path(str(CORPUS / "gpu_only_dcgan_cuda_routes.py")).findings
    rebuilt = [f for f in found if f.rule == "redundant-tensor"]
    assert [f.line for f in rebuilt] == [31] and _hint(rebuilt[0])
    moves = {f.line: f.fixable for f in found if f.rule == "cpu-then-move"}
    assert moves == {16: True, 23: False, 26: True}  # cpu-then-move's findings and fixes unchanged


def test_loss_target_fixture_all_hints() -> None:
    found = analyze_path(str(RT / "pos_invariant_target_read_by_a_loss_module.py"), rules=["redundant-tensor"]).findings
    assert {f.line for f in found} == {17, 33, 47} and all(_hint(f) for f in found)


def test_loss_target_near_misses_silent() -> None:
    path = RT / "neg_invariant_target_read_by_a_loss_module_near_misses.py"
    assert analyze_path(str(path), rules=["redundant-tensor"]).findings == ()


def test_target_read_by_a_loss_is_not_called_changed_in_place() -> None:
    """A target of several numbers was reported before too, but as "changed in place: clone a base
    copy" (the loss's result read as the target itself): the advice was wrong, now it is the plain
    hoist, still a hint."""
    found = _lines("""
        import torch
        from torch import nn
        device = torch.device("cuda")
        def fit(model, loader, opt):
            kl = nn.KLDivLoss(reduction="batchmean")
            for x in loader:
                prior = torch.tensor([0.2, 0.3, 0.5], device=device)
                loss = kl(model(x).log_softmax(-1), prior)
                loss.backward()
                opt.step()
        """, "redundant-tensor")
    assert set(found) == {8} and _hint(found[8])
    fix = found[8].fix  # type: ignore[attr-defined]
    assert "clone" not in fix.suggestion and "changed in place" not in fix.description


def test_program_loss_class_is_not_read_as_fresh() -> None:
    """`loss_module_call` takes torch's own classes only: a program's `nn.Module` named `...Loss`
    may hand back its target."""
    found = _lines("""
        import torch
        from torch import nn
        device = torch.device("cuda")
        class EchoLoss(nn.Module):
            def forward(self, pred, target):
                return target
        def fit(model, loader, opt):
            crit = EchoLoss()
            for x in loader:
                soft = torch.tensor([[0.9]], device=device)
                loss = crit(model(x), soft)
                loss.backward()
                opt.step()
        """, "redundant-tensor")
    assert found == {}


def test_sampler_chain_fixture_all_hints() -> None:
    found = analyze_path(str(HS / "pos_chain_carried_through_a_pass_of_a_training_program.py"), rules=["host-sync"]).findings
    assert {f.line for f in found} == {32, 41, 55, 68} and all(_hint(f) for f in found)


def test_sampler_chain_near_misses_silent() -> None:
    path = HS / "neg_chain_carried_through_a_pass_near_misses.py"
    assert analyze_path(str(path), rules=["host-sync"]).findings == ()


def test_state_parameter_of_a_non_training_program() -> None:
    """The parameter fact alone, where no training forgives evaluation passes: a Kalman-style
    update whose state the one caller makes on the device."""
    found = _lines("""
        import torch
        device = torch.device("cuda")
        F = torch.eye(4, device=device)
        def track(x, steps):
            for t in range(steps):
                x = F @ x
                print(x.norm().item())
            return x
        track(torch.zeros(4, device=device), 100)
        """, "host-sync")
    assert set(found) == {8} and _hint(found[8])


def test_state_parameter_filled_from_the_host_is_silent() -> None:
    found = _lines("""
        import torch
        device = torch.device("cuda")
        F = torch.eye(4)
        def track(x, steps):
            for t in range(steps):
                x = F @ x
                print(x.norm().item())
            return x
        track(torch.zeros(4), 100)
        """, "host-sync")
    assert found == {}
