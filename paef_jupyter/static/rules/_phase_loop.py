"""The phase loop of a Kaggle-style trainer: `for e in loaders: if e == 'train': model.train()
else: model.eval()`, then one batch loop whose forward serves both phases and whose
`loss.backward()` runs only under the same test. The transfer-learning tutorial guards the forward
with `torch.set_grad_enabled(phase == 'train')`; without it the evaluation phase records a graph
per batch that nothing back-propagates (public check 65, p01). The loop itself trains, so the
route that reads evaluation loops never sees it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import libcst as cst

from ..facts import Facts, Loop
from ._support import grad_disabled

# Any of these in the phase loop means the program already chooses the grad mode itself.
_GRAD_SWITCHES = frozenset({
    "torch.set_grad_enabled", "torch.no_grad", "torch.enable_grad", "torch.inference_mode",
    "torch.autograd.set_grad_enabled", "torch.autograd.no_grad", "torch.autograd.grad_mode.set_grad_enabled",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode", "torch.is_grad_enabled",
})
# Calls that need a graph wherever they run: outside the training branch they make the phase need one.
_GRAPH_METHODS = frozenset({"backward", "requires_grad_", "retain_grad", "register_hook"})
_GRAPH_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward", "torch.func.grad"})


@dataclass(frozen=True)
class PhasePass:
    forward: cst.SimpleStatementLine  # the batch loop's forward, run by both phases
    model: str  # the toggled model, as written (`model`, `self.net`)
    test: str  # the test that picks the training phase, as written (`e == 'train'`)
    eval_line: int  # the line of `<model>.eval()`


def phase_passes(facts: Facts, runs_model: Callable[[cst.Call], bool]) -> Iterator[PhasePass]:
    """Each loop whose body toggles `<model>.train()` / `<model>.eval()` on a test T and holds a
    batch loop (directly) that runs `<model>` outside any test, back-propagates only under `if T:`
    and never switches the grad mode: the forward of that batch loop, once per phase loop."""
    for loop in facts.loops:
        if not isinstance(loop.node.body, cst.IndentedBlock):
            continue
        toggle = _toggle(facts, loop.node.body.body)
        if toggle is None or _switches_grad(facts, loop.node) or grad_disabled(facts, loop.node):
            continue
        model, test, eval_call = toggle
        for inner in facts.loops:
            if inner.parent is not loop:
                continue
            forward = _shared_forward(facts, inner, model, test, runs_model)
            if forward is not None:
                yield PhasePass(forward, model, test, facts.position(eval_call).start.line)
                break


def _toggle(facts: Facts, body: Sequence[cst.BaseStatement]) -> tuple[str, str, cst.Call] | None:
    """(model, training test, the `.eval()` call) for `if T: m.train() ... else: m.eval()` or
    `m.train() if T else m.eval()` among the statements; None otherwise (the reversed form,
    `if T: m.eval() else: m.train()`, is left alone: the training test is then `not T`)."""
    for stmt in body:
        if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else):
            train = _mode_calls(facts, stmt.body, "train")
            evals = _mode_calls(facts, stmt.orelse.body, "eval")
            for receiver, _ in train:
                for other, call in evals:
                    if other == receiver:
                        return receiver, facts.code(stmt.test), call
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                value = small.value if isinstance(small, cst.Expr) else None
                if isinstance(value, cst.IfExp):
                    train = _mode_call(facts, value.body, "train")
                    evaluate = _mode_call(facts, value.orelse, "eval")
                    if train is not None and evaluate is not None and train[0] == evaluate[0]:
                        return train[0], facts.code(value.test), evaluate[1]
    return None


def _mode_calls(facts: Facts, block: cst.BaseSuite, method: str) -> list[tuple[str, cst.Call]]:
    """`m.train()` (or `m.eval()`) written as statements of the branch, with their receivers."""
    smalls: list[cst.BaseSmallStatement] = []
    if isinstance(block, cst.SimpleStatementSuite):
        smalls = list(block.body)
    elif isinstance(block, cst.IndentedBlock):
        smalls = [s for stmt in block.body if isinstance(stmt, cst.SimpleStatementLine) for s in stmt.body]
    found = []
    for small in smalls:
        if isinstance(small, cst.Expr) and (hit := _mode_call(facts, small.value, method)) is not None:
            found.append(hit)
    return found


def _mode_call(facts: Facts, expr: cst.BaseExpression, method: str) -> tuple[str, cst.Call] | None:
    """`m.train()` / `m.train(True)` for "train", `m.eval()` for "eval"."""
    if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Attribute) or expr.func.attr.value != method:
        return None
    if method == "eval" and expr.args:
        return None
    if method == "train" and expr.args and not (isinstance(expr.args[0].value, cst.Name)
                                                and expr.args[0].value.value == "True"):
        return None
    return facts.code(expr.func.value), expr


def _switches_grad(facts: Facts, node: cst.CSTNode) -> bool:
    return any((facts.qualified_name(call.func) or "") in _GRAD_SWITCHES for call in facts.calls_in(node))


def _shared_forward(facts: Facts, inner: Loop, model: str, test: str,
                    runs_model: Callable[[cst.Call], bool]) -> cst.SimpleStatementLine | None:
    """The first statement of the batch loop's own body (not under a test) that runs `model`,
    when every call that needs a graph sits under `if <test>:` and at least one backward does."""
    if not isinstance(inner.node.body, cst.IndentedBlock):
        return None
    backward = False
    for call in facts.calls_in(inner.node):
        func = call.func
        needs = (isinstance(func, cst.Attribute) and func.attr.value in _GRAPH_METHODS) \
            or (facts.qualified_name(func) or "") in _GRAPH_CALLS
        if not needs:
            continue
        if not _under_training_test(facts, call, inner.node, test):
            return None
        backward = True
    if not backward:
        return None
    for stmt in inner.node.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine) or grad_disabled(facts, stmt):
            continue
        if any(runs_model(c) and _runs(facts, c, model) for c in facts.calls_in(stmt)):
            return stmt
    return None


def _under_training_test(facts: Facts, call: cst.Call, stop: cst.CSTNode, test: str) -> bool:
    """Whether `call` sits in the body (not the `else`) of an `if` whose test reads as `test`."""
    child: cst.CSTNode = call
    for anc in facts.ancestors(call):
        if anc is stop:
            return False
        if isinstance(anc, cst.If) and child is anc.body and _plain(facts.code(anc.test)) == _plain(test):
            return True
        child = anc
    return False


def _runs(facts: Facts, call: cst.Call, model: str) -> bool:
    """`model(x)` or `model.forward_all(x)`: the toggled model, called itself or by a method."""
    func = call.func
    if facts.code(func) == model:
        return True
    return isinstance(func, cst.Attribute) and facts.code(func.value) == model


def _plain(code: str) -> str:
    """A test without its spaces and with one kind of quote: `e == "train"` reads as `e=='train'`."""
    return "".join(code.split()).replace('"', "'")


def phase_tests(facts: Facts, runs_model: Callable[[cst.Call], bool]) -> list[tuple[cst.CSTNode, str]]:
    """(phase loop, its training test made plain) for each phase pass: what `in_evaluation_phase` reads."""
    found = []
    for loop in facts.loops:
        if not isinstance(loop.node.body, cst.IndentedBlock):
            continue
        toggle = _toggle(facts, loop.node.body.body)
        if toggle is None:
            continue
        model, test, _ = toggle
        if any(_shared_forward(facts, inner, model, test, runs_model) is not None
               for inner in facts.loops if inner.parent is loop):
            found.append((loop.node, _plain(test)))
    return found


def in_evaluation_phase(facts: Facts, node: cst.CSTNode, phases: list[tuple[cst.CSTNode, str]]) -> bool:
    """`node` runs in the `else:` of `if <training test>:` inside that phase loop: the validation
    phase's statement (`else: V.append(loss.item())`), not a training step's (pub65 p01)."""
    if not phases:
        return False
    ancestors = list(facts.ancestors(node))
    child: cst.CSTNode = node
    for anc in ancestors:
        if isinstance(anc, cst.If) and anc.orelse is not None and child is anc.orelse:
            test = _plain(facts.code(anc.test))
            if any(test == t and any(a is loop for a in ancestors) for loop, t in phases):
                return True
        child = anc
    return False
