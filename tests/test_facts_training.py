"""Facts behind the rewrite-safety guarantees: what may train, what a loop may change, whether
a loop runs at all, and which code runs inside a forward pass."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from paef_jupyter.static.facts import Facts, may_train, module_methods

PRELUDE = "import torch\nfrom torch import nn\nmodel = nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"


def facts_of(code: str) -> Facts:
    return Facts(cst.parse_module(PRELUDE + textwrap.dedent(code)))


@pytest.mark.parametrize("body,trains", [
    ("out = model(x)\nacc = (out.argmax(1) == y).sum().item()", False),
    ("loss = model(x).sum()\nloss.backward()", True),
    ("opt.step()", True),
    ("from helpers import run_batch\nrun_batch(model, x)", True),  # another module: unknown
    ("agent.observe(x)", True),  # a method of an object of unknown type
    ("fns[0](x)", True),  # not resolved
    ("out = model(x)\nprint(out.shape, len(x))", False),
    ("logits = torch.nn.functional.softmax(model(x), -1)\nvals = logits.max(1).values.cpu().numpy()", False),
])
def test_may_train(body: str, trains: bool) -> None:
    code = "for x, y in [(torch.randn(1, 2), torch.zeros(1))]:\n" + textwrap.indent(body, "    ") + "\n"
    facts = facts_of(code)
    assert may_train(facts, facts.loops[-1].node) is trains


def test_may_train_follows_the_units_functions_and_classes() -> None:
    facts = facts_of("""
        def apply(loss):
            loss.backward()


        class Agent:
            def learn(self, x):
                apply(model(x).sum())

            def act(self, x):
                return model(x).argmax(1)


        agent = Agent()
        for x in [torch.randn(1, 2)]:
            agent.learn(x)
        for x in [torch.randn(1, 2)]:
            a = agent.act(x)
        """)
    learn, act = facts.loops[-2:]
    assert may_train(facts, learn.node) and not may_train(facts, act.node)
    assert learn.kind == "train"  # the backward two calls away counts for the loop's role


def test_loops_in_module_methods_and_their_helpers() -> None:
    facts = facts_of("""
        def stack(layers, x):
            for layer in layers:
                x = layer(x)
            return x


        class Net(nn.Module):
            def forward(self, x):
                return stack([model], x)
        """)
    assert facts.functions["stack"] in module_methods(facts)
    assert facts.functions["Net.forward"] in module_methods(facts)


def test_mutated_in_loop_sees_receivers_builders_and_helpers() -> None:
    facts = facts_of("""
        sched = torch.optim.lr_scheduler.StepLR(opt, 1)
        seen = []


        def remember(v):
            seen.append(v)


        for step in range(3):
            metric.add_batch(step)
            sched.step()
            remember(step)
            total = torch.zeros(2).sum().item()
        """)
    mutated = facts.mutated_in_loop(facts.loops[-1])
    assert {"metric", "sched", "opt", "seen"} <= mutated
    assert "torch" not in mutated


@pytest.mark.parametrize("header,empty", [
    ("for i in range(3):", False),
    ("for i in range(0):", True),
    ("for i, v in enumerate([1, 2]):", False),
    ("for i in range(n):", True),
    ("for b in loader:", True),
    ("while True:", False),
])
def test_may_run_zero_times(header: str, empty: bool) -> None:
    facts = facts_of(f"{header}\n    pass\n")
    assert facts.may_run_zero_times(facts.loops[-1]) is empty


@pytest.mark.parametrize("helper,reported", [
    ("def step_fn(m, x):\n    m(x).sum().backward()\n", False),  # an earlier cell's helper that trains
    ("def score(m, x):\n    return m(x).argmax(1)\n", True),
])
def test_may_train_follows_an_earlier_cells_function(helper: str, reported: bool) -> None:
    from paef_jupyter.api import analyze
    from paef_jupyter.model import CellRef, SourceUnit

    name = helper.split("(")[0].removeprefix("def ")
    cells = ["import torch\nmodel = torch.nn.Linear(2, 2)\n" + helper,
             f"model.eval()\nfor x in [torch.randn(1, 2)]:\n    out = {name}(model, x)\n    y = model(x)\n"]
    units = [SourceUnit(CellRef("nb.ipynb", i, f"c{i}"), text) for i, text in enumerate(cells)]
    assert bool(analyze(units, rules=["eval-without-no-grad"]).findings) is reported
