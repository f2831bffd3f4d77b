"""Public check 52: an on-policy agent's acting loop between updates (p03, vanilla PPO on
CartPole) runs the policy with autograd on and keeps only Python numbers; eval-without-no-grad
called it "this evaluation loop" at medium severity. Without `.eval()` or an evaluation name
before it the loop is not known to evaluate: inside a loop that trains it is reported as a
rollout between updates, at low severity; outside one, as a loop whose kept outputs hold their
graphs (medium), not called an evaluation; a loop under an evaluation name keeps the evaluation
wording. The shape is
own-written; the public copy is kept out of the repository."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.model import Severity
from public_findings import rule_findings, tagged_line

ROOT = Path(__file__).resolve().parents[1]
SHAPE = ROOT / "tests" / "fixtures" / "public_shapes" / "check52" / "policy_rollout.py"


def _findings(text: str) -> dict[int, tuple[str, Severity]]:
    return {line: (f.message, f.severity) for line, f in rule_findings(SHAPE, text, "eval-without-no-grad").items()}


def test_a_rollout_loop_is_not_called_an_evaluation_loop() -> None:
    text = SHAPE.read_text()
    found = _findings(text)
    message, severity = found[tagged_line(text, "rollout")]
    assert "evaluation loop" not in message and "between training updates" in message
    assert severity == Severity.LOW


def test_an_unmarked_loop_outside_training_is_not_a_rollout_nor_an_evaluation() -> None:
    text = SHAPE.read_text()
    message, severity = _findings(text)[tagged_line(text, "inference")]
    assert "evaluation loop" not in message and "rollout" not in message and "activations alive" in message
    assert severity == Severity.MEDIUM


def test_a_loop_after_eval_keeps_the_evaluation_wording() -> None:
    text = SHAPE.read_text()
    found = _findings(text)
    message, severity = found[tagged_line(text, "evaluation")]
    assert message.startswith("this evaluation loop") and severity == Severity.MEDIUM


def test_a_rollout_under_no_grad_stays_silent() -> None:
    text = SHAPE.read_text()
    wrapped = text.replace("                prob = policy.pi(torch.from_numpy(state).float())\n",
                           "                with torch.no_grad():\n"
                           "                    prob = policy.pi(torch.from_numpy(state).float())\n")
    assert wrapped != text
    assert tagged_line(wrapped, "rollout") not in _findings(wrapped)
