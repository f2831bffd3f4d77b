"""rec70: misses on public code, each fixed as the fact the analysis lacked (benchmarks/results/rec70.md).
Own-written shapes in tests/fixtures/public_shapes/rec70/.

1. A hand-written optimizer (check 57 p04's LARS): `Optimizer.__init__(params, defaults)` keeps the params in
   `self.param_groups[i]["params"]`, so `p` of `for group in self.param_groups: for p in group["params"]` is a
   model tensor; and a torch.optim subclass's `@torch.no_grad()` `step` called per training step is
   training-step code, not an evaluation pass.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "rec70"


def _findings(name: str, rule: str):
    path = SHAPES / name
    text = path.read_text()
    return text, rule_findings(path, text, rule)


def _reported(name: str, rule: str, tag: str):
    text, found = _findings(name, rule)
    return found.get(tagged_line(text, tag))


@pytest.mark.parametrize("name", ["opt_lars_full.py", "opt_lars_subclass_of_sgd.py"])
def test_hand_written_optimizer_step_reports_the_per_parameter_truth_test(name: str) -> None:
    finding = _reported(name, "host-sync", "read")
    assert finding is not None
    assert "training step" in finding.message
    assert finding.fix is None or not finding.fix.edits  # a hint: the branch is the optimizer's algorithm


def test_optimizer_near_misses_stay_silent() -> None:
    _, found = _findings("opt_near_misses.py", "host-sync")
    assert found == {}


# 2b. pub64 p01 (SASRec): the evaluation loops fold the rank into NDCG through NumPy (`1 / np.log2(rank + 2)`);
# NumPy's numeric functions return no graph, so what the loop's function returns keeps none.

def _project_findings(project: str, rule: str) -> set[tuple[str, int]]:
    from paef_jupyter.api import analyze_path

    report = analyze_path(str(SHAPES / project / "main.py"), rules=[rule])
    assert not report.errors
    return {(Path(f.ref.path).name, f.line) for f in report.findings}


def test_sasrec_evaluation_loops_with_a_numpy_metric_are_reported() -> None:
    text = (SHAPES / "sasrec_eval" / "utils.py").read_text()
    expected = {("utils.py", tagged_line(text, "eval")), ("utils.py", tagged_line(text, "eval_mean"))}
    assert _project_findings("sasrec_eval", "eval-without-no-grad") == expected


def test_sasrec_near_misses_returning_a_graph_stay_silent() -> None:
    assert _project_findings("sasrec_near", "eval-without-no-grad") == set()


# 2a. pub64 p03 (CartPole DQN) and a PPO-style rollout: a trained network's forward whose output reaches
# Python only as a number (an action) records a graph nobody back-propagates: a hint, never a rewrite.

@pytest.mark.parametrize("name", ["acting_dqn_agent.py", "acting_policy_sample.py"])
def test_acting_forward_read_only_as_a_number_is_a_hint(name: str) -> None:
    text, found = _findings(name, "eval-without-no-grad")
    assert set(found) == {tagged_line(text, "act")}
    finding = found[tagged_line(text, "act")]
    assert finding.severity.value == "low"
    assert finding.fix is not None and not finding.fix.edits and not finding.fix.safe
    assert "no_grad" in finding.fix.suggestion


def test_acting_forward_near_misses_stay_silent() -> None:
    _, found = _findings("acting_near_misses.py", "eval-without-no-grad")
    assert found == {}
