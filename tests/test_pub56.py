"""Public check 56 (benchmarks/results/public_check56.md): a fact list-to-tensor lacked.

p05 (a PPO script) rebuilds a tensor of the rollout's log-probabilities with `torch.tensor`; each
element is a detached `Categorical(...).log_prob(a)`. `Facts.kind` did not know that a
`torch.distributions` object's `sample()` / `log_prob()` / `entropy()` give tensors (the class is
neither a module nor a tensor), so the list looked like Python numbers and the conversion went
unreported. The copy's own shape (the records pass through a buffer class's `push`/`sample` and an
attribute set in another method) is still out of reach; the shapes under
tests/fixtures/public_shapes/check56/ are own-written, the public copies are kept out of the
repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check56"


def test_a_list_of_distribution_log_probs_given_to_torch_tensor_is_reported() -> None:
    path = SHAPES / "ppo_rollout_log_probs.py"
    text = path.read_text()
    found = rule_findings(path, text, "list-to-tensor")
    assert set(found) == {tagged_line(text, "collected")}
    assert "torch.tensor(log_probs)" in found[tagged_line(text, "collected")].message


def test_the_same_list_of_python_numbers_stays_silent() -> None:
    """`.item()` of the log-probability, appended to a list the caller converts: a list of Python
    floats (host-sync's matter, not this rule's), and a local class named `Categorical` is not torch's."""
    path = SHAPES / "ppo_rollout_log_probs.py"
    text = path.read_text()
    floats = text.replace("log_probs.append(dist.log_prob(action).detach())",
                          "log_probs.append(float(dist.log_prob(action)))")
    assert floats != text
    assert rule_findings(path, floats, "list-to-tensor") == {}
    local = text.replace("from torch.distributions import Categorical\n",
                         "class Categorical:\n    def __init__(self, p):\n        self.p = p\n\n"
                         "    def sample(self):\n        return 0\n\n    def log_prob(self, a):\n        return 0.5\n")
    assert local != text
    assert rule_findings(path, local, "list-to-tensor") == {}


def test_a_rollout_whose_graph_the_episode_back_propagates_is_not_an_unneeded_forward() -> None:
    """p01 (REINFORCE): the rollout keeps `probs[a]` for the episode's loss; `no_grad` there would
    break training. Distribution draws now typed as tensors must not change that."""
    path = SHAPES / "reinforce_rollout_graph.py"
    text = path.read_text()
    assert rule_findings(path, text, "eval-without-no-grad") == {}
    assert rule_findings(path, text, "list-to-tensor") == {}
