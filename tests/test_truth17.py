"""truth17: the window follows the program's objects to the loop that runs per batch.

Public FixMatch (pub33 p02, truth16 item c) ran without a window: `main()` -> `trainer.fit()` (an
instance of the program's class held in a local variable) -> `self.train_epoch()`, whose loop
goes round the batches; depth 2 followed only plain functions and methods of objects the
namespace holds. Now methods are resolved from the source (`trainer = FixMatchTrainer(...)`,
`self.m()`) through up to four levels of once-made calls, and an epoch loop that does not train in
its own body carries the called training loop as its `inner` (windowed when the epochs are few).

`choose_loop` on scripts (what `paef profile` chooses with) and real profiles on this CPU build.
Near misses outnumber positives.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dynamic_helpers import run_from

from paef_jupyter.api import profile_path
from paef_jupyter.dynamic.run_units import _local_modules
from paef_jupyter.dynamic.window_loop import choose_loop
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.modules import LocalModules
from paef_jupyter.static.unit import parse_unit

TRAINER = '''import torch


class Trainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            loss = self._epoch(batches)
            self.validate(batches)
        return loss

    def _epoch(self, batches):
        for x in batches:
            loss = self._step(x)
        return loss

    def _step(self, x):
        loss = self.model(x).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return float(loss)

    def validate(self, batches):
        with torch.no_grad():
            for x in batches[:4]:
                self.model(x)
'''

MAIN = '''import torch
{imports}


def main():
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [torch.randn(16, 8) for _ in range(30)]
{body}


if __name__ == "__main__":
    main()
'''

FIT = "    trainer = Trainer(model, opt)\n    trainer.fit(batches, 3)"


@pytest.fixture(autouse=True)
def fresh_modules():
    """Each program's own modules are imported afresh, as in a `paef profile` process of its own."""
    for name in ("trainer", "tools"):
        sys.modules.pop(name, None)
    yield
    for name in ("trainer", "tools"):
        sys.modules.pop(name, None)


def _choose(tmp_path: Path, imports: str, body: str, trainer: str | None = TRAINER, prelude: str = ""):
    if trainer is not None:
        (tmp_path / "trainer.py").write_text(trainer)
    main = tmp_path / "main.py"
    text = prelude + MAIN.format(imports=imports, body=body)
    main.write_text(text)
    unit = SourceUnit(CellRef(str(main)), text)
    local = LocalModules.around([unit]).importer(str(main))
    return choose_loop(parse_unit(unit), {}, _local_modules(str(main)), local)


def _lines(target) -> list[tuple[str, int]]:
    out = []
    while target is not None:
        out.append((Path(target.ref.path).name, target.line))
        target = target.inner
    return out


# --- positives ---------------------------------------------------------------------------


def test_a_local_instance_of_a_local_modules_class_is_followed_three_methods_deep(tmp_path):
    """`main()` -> `trainer.fit()` -> `self._epoch()` -> `self._step(x)`: the epoch loop of `fit`,
    with `_epoch`'s loop over batches as the one windowed when the epochs are few."""
    target, extra = _choose(tmp_path, "from trainer import Trainer", FIT)
    assert _lines(target) == [("trainer.py", 10), ("trainer.py", 16)]
    assert list(extra) == [str(tmp_path / "trainer.py")]


def test_the_class_through_its_module_attribute_is_followed_too(tmp_path):
    body = "    t = trainer.Trainer(model, opt)\n    t.fit(batches, 3)"
    target, _ = _choose(tmp_path, "import trainer", body)
    assert _lines(target) == [("trainer.py", 10), ("trainer.py", 16)]


def test_a_class_of_the_script_itself_is_followed(tmp_path):
    body = "    Trainer(model, opt)  # made and dropped: not the one trained\n" + FIT
    target, extra = _choose(tmp_path, "", body, trainer=None, prelude=TRAINER.replace("import torch\n", ""))
    assert _lines(target) == [("main.py", 9), ("main.py", 15)] and extra == {}


def test_an_inherited_method_of_a_base_class_is_followed(tmp_path):
    """`self._epoch()` defined on the base class (another local module) the trainer extends."""
    base = TRAINER.replace("class Trainer:", "class Base:")
    (tmp_path / "base.py").write_text(base)
    trainer = ("from base import Base\n\n\nclass Trainer(Base):\n    def fit(self, batches, epochs):\n"
               "        for epoch in range(epochs):\n            self._epoch(batches)\n")
    target, extra = _choose(tmp_path, "from trainer import Trainer", FIT, trainer=trainer)
    assert _lines(target) == [("trainer.py", 6), ("base.py", 16)]
    assert sorted(Path(f).name for f in extra) == ["base.py", "trainer.py"]


def test_a_training_loop_deeper_beats_a_plain_loop_of_main(tmp_path):
    """`main()` lists its files in a loop, then calls `trainer.fit()`: the listing is not the
    run's loop (the old choice stopped at the first level holding any loop)."""
    body = "    names = []\n    for i in range(5):\n        names.append(str(i))\n" + FIT
    target, _ = _choose(tmp_path, "from trainer import Trainer", body)
    assert _lines(target) == [("trainer.py", 10), ("trainer.py", 16)]


# --- near misses -------------------------------------------------------------------------


def test_a_loop_that_steps_in_its_own_body_is_kept_not_its_helpers_loop(tmp_path):
    """Near miss (MAML's meta loop calling `self.inner_loop()`, PPO's update calling a minibatch
    loop): the loop back-propagates itself, so it is the per-iteration loop: no inner from a call."""
    trainer = TRAINER.replace("            loss = self._epoch(batches)\n",
                              "            loss = self._epoch(batches)\n            loss.backward()\n")
    target, _ = _choose(tmp_path, "from trainer import Trainer", FIT, trainer=trainer)
    assert _lines(target) == [("trainer.py", 10)]


def test_the_validation_loop_is_never_the_window(tmp_path):
    """Near miss: `fit` calls `validate` (an eval loop) in its epoch loop too."""
    target, _ = _choose(tmp_path, "from trainer import Trainer", FIT)
    assert ("trainer.py", 29) not in _lines(target)


def test_a_name_bound_to_something_else_is_not_resolved(tmp_path):
    """Near miss: `trainer` is rebound to a factory's result: its class is unknown."""
    body = "    trainer = Trainer(model, opt)\n    trainer = make(trainer)\n    trainer.fit(batches, 3)"
    target, _ = _choose(tmp_path, "from trainer import Trainer\nfrom somewhere import make", body)
    assert target is None


def test_an_installed_packages_class_is_not_followed(tmp_path):
    """Near miss: `Trainer` from a package that is not the program's (not a local file)."""
    target, _ = _choose(tmp_path, "from lightning import Trainer", FIT, trainer=None)
    assert target is None


def test_a_method_called_only_in_a_comprehension_is_not_the_top_levels(tmp_path):
    """Near miss: the calls are repeated; nothing is called once, no loop of the program's."""
    body = "    trainer = Trainer(model, opt)\n    print([trainer.fit(batches, 1) for _ in range(2)])"
    target, _ = _choose(tmp_path, "from trainer import Trainer", body)
    assert target is None


def test_a_plain_epoch_loop_whose_helper_does_not_train_keeps_the_plain_choice(tmp_path):
    """Near miss: an evaluation-only program: no training loop anywhere, the first loop found."""
    trainer = "class Runner:\n    def run(self, xs):\n        for x in xs:\n            self.show(x)\n\n" \
              "    def show(self, x):\n        for v in x:\n            print(v)\n"
    body = "    r = Runner()\n    r.run(batches)"
    target, _ = _choose(tmp_path, "from trainer import Runner", body, trainer=trainer)
    assert _lines(target)[0] == ("trainer.py", 3)


def test_a_property_of_the_class_is_never_run(tmp_path):
    """Near miss: resolution reads source only; a property that raises is not run."""
    trainer = TRAINER + "\n    @property\n    def boom(self):\n        raise RuntimeError('ran')\n"
    body = "    trainer = Trainer(model, opt)\n    trainer.boom()"
    target, _ = _choose(tmp_path, "from trainer import Trainer", body, trainer=trainer)
    assert target is None


# --- real profiles -----------------------------------------------------------------------

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _profile(tmp_path: Path, body: str, trainer: str = TRAINER):
    (tmp_path / "trainer.py").write_text(trainer)
    (tmp_path / "main.py").write_text(MAIN.format(imports="from trainer import Trainer", body=body))
    with run_from(tmp_path):
        report = profile_path("main.py")
    assert not report.errors, report.errors
    return report


def test_a_fixmatch_shaped_program_is_windowed_on_its_batch_loop(tmp_path):
    """Real profile: the window is `_epoch`'s loop (3 epochs are too few to window), whole
    iterations, and no medium/high dynamic finding on this clean program."""
    report = _profile(tmp_path, FIT)
    prof = report.profile
    assert prof.mode == "window" and Path(prof.window_ref.path).name == "trainer.py" and prof.window_line == 16
    assert prof.profiled_iterations >= 3
    assert not [f for f in report.findings if f.source != "static" and f.severity in ("medium", "high")]


def test_many_epochs_keep_the_epoch_loop_as_the_window(tmp_path):
    """Near miss (PPO-like: many outer iterations): the outer loop is long enough to window."""
    body = "    trainer = Trainer(model, opt)\n    trainer.fit(batches[:2], 40)"
    prof = _profile(tmp_path, body).profile
    assert prof.mode == "window" and prof.window_line == 10


# --- item 2: the run's base time is not short by iterations the profile left out ---------

from paef_jupyter.dynamic.build import DROPPED_ITERATIONS_NOTE, _base_time, _iterations, _overhead  # noqa: E402
from paef_jupyter.dynamic.collector import Collected  # noqa: E402


def _run(**kw) -> Collected:
    base = dict(mode="window", iteration_s=0.1, iterations_before=4, recorded_iterations=3,
                window_completed=True, time_after_window_s=2.0, profiled_s=1.0, wall_s=4.0)
    return Collected(**{**base, **kw})


def test_iterations_past_the_readers_cap_still_count_in_the_base_time():
    """The reader kept 3 whole of 5 profiled iterations: the 2 it left out ran and are counted."""
    run = _run(dropped_iterations=2)
    assert _base_time(run) == pytest.approx(0.1 * (4 + 3 + 2) + 2.0)
    assert _iterations(run)[0] == 4 + 3 + 2 + 20
    # The profiled time holds the 5 iterations: the overhead compares it with 5 plain ones.
    assert _overhead(run) == pytest.approx(4.0 / (4.0 - (1.0 - 0.5)))


def test_a_cap_inside_the_window_counts_the_rest_of_the_loop():
    """The tracer's cap stopped the recording mid-window: the loop ran on, unprofiled."""
    run = _run(window_completed=False, capped=True, truncated=True, recorded_iterations=1)
    assert _base_time(run) == pytest.approx(0.1 * 5 + 2.0)
    assert _iterations(run) == (5 + 20, True)


def test_a_cut_first_iteration_counts_the_time_after_it():
    """MoE's case: 0 whole iterations recorded, the cap inside the first: the rest of the loop
    (unprofiled) is in the base time, not only the warm-up iterations."""
    run = _run(window_completed=False, capped=True, truncated=True, recorded_iterations=0, iterations_before=1)
    assert _base_time(run) == pytest.approx(0.1 + 2.0)


def test_a_loop_ending_inside_the_window_adds_nothing_after_it():
    """Near miss: no cap, the loop ended inside the window: the time after is not the loop's."""
    run = _run(window_completed=False, recorded_iterations=2)
    assert _base_time(run) == pytest.approx(0.1 * 6)
    assert _iterations(run) == (6, False)


def test_a_readers_cut_after_the_loop_ended_adds_nothing_after_it():
    """Near miss: the reader cut (truncated) but the tracer never capped and the loop ended."""
    run = _run(window_completed=False, truncated=True, recorded_iterations=2, dropped_iterations=1)
    assert _base_time(run) == pytest.approx(0.1 * 7)


def test_nothing_dropped_is_unchanged():
    """Near miss: the ordinary window: the old sum."""
    assert _base_time(_run()) == pytest.approx(0.1 * 7 + 2.0)
    assert "{n}" in DROPPED_ITERATIONS_NOTE


# --- the loop whose iteration makes the training data (PPO) -------------------------------

PPO = '''import torch
policy = torch.nn.Linear(4, 2)
opt = torch.optim.Adam(policy.parameters())
obs_buf = torch.zeros(32, 4)
adv = torch.zeros(32)
for update in range(UPDATES):
    obs = torch.randn(4)
    for step in range(32):
        with torch.no_grad():
            logits = policy(obs)
        obs_buf[step] = obs
        obs = torch.randn(4)
    running = 0.0
    for t in reversed(range(32)):
        running = 0.9 * running + float(obs_buf[t].sum())
        adv[t] = running
    for epoch in range(2):
        for start in range(0, 32, 16):
            loss = -(policy(obs_buf[start:start + 16]).log_softmax(-1)[:, 0] * adv[start:start + 16]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
'''

SUPERVISED = '''import torch
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(20)]
best = 0.0
for epoch in range(EPOCHS):
    running_loss = 0.0
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running_loss += loss.item()
    correct = 0
    with torch.no_grad():
        for x, y in loader[:4]:
            correct += int((model(x).argmax(1) == y).sum())
    best = max(best, correct)
'''


def _unit(text: str):
    return choose_loop(parse_unit(SourceUnit(CellRef("prog.py"), text)), {}, None, None)


def test_the_update_loop_that_makes_the_rollout_is_the_window_with_the_minibatch_loop_inside():
    target, _ = _unit(PPO.replace("UPDATES", "12"))
    assert (target.line, target.inner.line) == (6, 18)


def test_an_epoch_loop_around_a_loaders_batches_keeps_the_batch_loop():
    """Near miss: the validation loop beside writes `correct`, which the batch loop never reads;
    `running_loss` is bound in the epoch body but the batch loop binds it too."""
    target, _ = _unit(SUPERVISED.replace("EPOCHS", "3"))
    assert (target.line, target.inner) == (8, None)


def test_a_producer_loop_the_training_loop_does_not_read_from_is_not_chosen():
    """Near miss: a loop beside the batch loop that fills a buffer only logging reads."""
    text = SUPERVISED.replace("EPOCHS", "3").replace(
        "    running_loss = 0.0\n", "    running_loss = 0.0\n    log = []\n    for i in range(3):\n        log.append(i)\n")
    target, _ = _unit(text)
    assert (target.line, target.inner) == (11, None)


def test_a_real_ppo_profile_windows_whole_updates(tmp_path):
    """Real profile: 12 updates (not few): the update loop is windowed, so the rollout and the
    advantage loop are in the profiled iterations."""
    path = tmp_path / "ppo.py"
    path.write_text(PPO.replace("UPDATES", "12"))
    with run_from(tmp_path):
        prof = profile_path("ppo.py").profile
    assert prof.mode == "window" and prof.window_line == 6 and prof.profiled_iterations >= 3
    assert any(l.line == 16 and l.ops > 0 for l in prof.lines)  # the advantage loop's store was profiled


def test_few_updates_fall_back_to_the_minibatch_loop(tmp_path):
    """Near miss: 3 updates are too few iterations to window: the inner training loop is."""
    path = tmp_path / "ppo.py"
    path.write_text(PPO.replace("UPDATES", "3"))
    with run_from(tmp_path):
        prof = profile_path("ppo.py").profile
    assert prof.mode == "window" and prof.window_line == 18


def test_an_epoch_count_read_off_an_attribute_sizes_the_loop():
    """`range(args.epochs)` / `range(self.epochs)`: read statically (timm's `args`), so a short
    epoch loop gives way to the batch loop; a property is never run."""
    import argparse

    from paef_jupyter.dynamic.loop_length import loop_length

    class Holder:
        epochs = 3

        @property
        def boom(self):
            raise RuntimeError("ran")

    assert loop_length("range(args.epochs)", {"args": argparse.Namespace(epochs=3)}, {}) == 3
    assert loop_length("range(self.epochs)", {}, {"self": Holder()}) == 3
    assert loop_length("range(self.boom)", {}, {"self": Holder()}) is None
    assert loop_length("range(args.missing)", {"args": argparse.Namespace()}, {}) is None


def test_a_nested_loop_ending_inside_the_window_still_counts_the_rest_of_the_run():
    """A minibatch loop of 2 iterations per pass ends inside a 3-iteration window; the outer loop
    runs it again: the time after the recording is the run's too."""
    from paef_jupyter.dynamic.line_tracer import LoopTarget

    nested = LoopTarget(CellRef("ppo.py"), 18, 22, "range(0, 32, 16)", True)
    run = _run(window_completed=False, recorded_iterations=2, loop=nested)
    assert _base_time(run) == pytest.approx(0.1 * 6 + 2.0)
    top = LoopTarget(CellRef("ppo.py"), 6, 22, "range(12)", False)
    assert _base_time(_run(window_completed=False, recorded_iterations=2, loop=top)) == pytest.approx(0.1 * 6)


def test_a_library_function_called_in_the_cells_loop_is_never_parsed(monkeypatch):
    """Near miss: `dumps` (json's, its text in `linecache` with a modification time, as after a
    warning read it) called by name in the cell's own loop: the descent to per-batch loops does
    not parse library files, and the cell's loop stays the window."""
    import json
    import linecache

    from paef_jupyter.dynamic import window_loop

    linecache.getlines(json.__file__)
    linecache.getlines(json.encoder.__file__)
    parsed: list[str] = []
    real = window_loop.parse_unit

    def spy(unit):
        parsed.append(unit.ref.path or "")
        return real(unit)

    monkeypatch.setattr(window_loop, "parse_unit", spy)
    text = "for i in range(3):\n    dumps({})\n    loss.backward()\n"
    target, extra = choose_loop(real(SourceUnit(CellRef("In[2]"), text)), {"dumps": json.dumps}, lambda name: None)
    assert (target.line, extra) == (1, {}) and not any("json" in p for p in parsed)
