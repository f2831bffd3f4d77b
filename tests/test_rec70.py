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
from redteam_units import automatic_fixes

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


@pytest.mark.parametrize("name", ["acting_near_misses.py", "acting_near_hook.py"])
def test_acting_forward_near_misses_stay_silent(name: str) -> None:
    _, found = _findings(name, "eval-without-no-grad")
    assert found == {}


# 3. red team 60's left: `moved_between` / `moves_in_loop` follow a move made inside what the call graph
# resolves: a function of another module (`helpers.place(model, ...)`) and a method of the program's class
# (`placer.place(...)`, whose body runs `self.model.to(where)`). A callee it cannot resolve is not read.

def _module_helper_findings(main: str) -> dict[str, bool]:
    from paef_jupyter.api import analyze_path

    report = analyze_path(str(SHAPES / "moved_by_module_helper" / main), rules=["list-to-tensor", "host-sync"])
    assert not report.errors
    return {f.rule: bool(f.fix is not None and f.fix.automatic) for f in report.findings}


def test_a_model_placed_by_another_modules_helper_keeps_total_and_history_as_written() -> None:
    assert _module_helper_findings("main.py") == {"host-sync": False, "list-to-tensor": False}


def test_batches_moved_by_another_modules_helper_to_one_device_keep_both_rewrites() -> None:
    assert _module_helper_findings("main_keep.py") == {"host-sync": True, "list-to-tensor": True}


_PLACER = """import torch
import torch.nn as nn
import torch.nn.functional as F
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(64, 4)
y = X.sum(1, keepdim=True)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)


class Placer:
    def __init__(self, m):
        self.model = m

    def place(self, epoch, *ts):
        where = device if epoch >= 2 else 'cpu'
        MOVE
        return [t.to(where) for t in ts]

    def _park(self, where):
        self.model.to(where)


placer = Placer(model)
hist = []
total = 0.0
for epoch in range(4):
    for i in range(0, 64, 16):
        xb, yb = placer.place(epoch, X[i:i + 16], y[i:i + 16])
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    hist.append(loss.item())
h = torch.tensor(hist)
print(total)
"""

_PLACER_MOVES = {
    "method_moves_its_model_in_place": "self.model.to(where)",
    "method_rebinds_its_model": "self.model = self.model.to(where)",
    "method_calls_a_method_that_moves": "self._park(where)",
}


@pytest.mark.parametrize("move", _PLACER_MOVES.values(), ids=_PLACER_MOVES.keys())
def test_a_model_moved_by_an_objects_method_in_the_loop_keeps_total_and_history(move: str) -> None:
    from redteam_units import rule_findings as unit_findings, source_units

    units = source_units(_PLACER.replace("MOVE", move))
    assert not automatic_fixes(unit_findings(units, "list-to-tensor"))
    assert not automatic_fixes(unit_findings(units, "host-sync"))


_PLACER_STAYS = {
    "method_moves_only_the_batch": "where = device",
    "method_converts_the_model_dtype": "where = device\n        self.model.to(torch.float32)",
}


@pytest.mark.parametrize("move", _PLACER_STAYS.values(), ids=_PLACER_STAYS.keys())
def test_an_objects_method_that_moves_nothing_between_devices_leaves_both_rewrites(move: str) -> None:
    from redteam_units import rule_findings as unit_findings, source_units

    units = source_units(_PLACER.replace("MOVE", move))
    assert len(automatic_fixes(unit_findings(units, "list-to-tensor"))) == 1
    assert len(automatic_fixes(unit_findings(units, "host-sync"))) == 1
