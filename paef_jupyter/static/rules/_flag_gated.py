"""Evaluation passes of a function that trains or only measures depending on a flag it is given.

Conv-TasNet's `_run_one_epoch(epoch, cross_valid=False)` steps the optimizer only under
`if not cross_valid:`; after `self.model.eval()` the solver calls it with `cross_valid=True`. The
loop is a training loop, yet that call turns every training statement in it off: it is an
evaluation pass that records an autograd graph for each forward. The call site is what runs
without training, so it is what a `torch.no_grad()` belongs around.

The gate is a test of one parameter: `if train:`, `if not cross_valid:`, `if optimizer is not
None:`, `if phase == "train":`. The caller says the pass only measures by a `.eval()` before the
call, or the function says it by switching to eval mode on the same test (`model.train(train)`,
`model.train() if train else model.eval()`, `if phase != "train": model.eval()`)."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..facts import Facts, FunctionNode, Loop, may_train, trains_visibly
from ..names import argument_bound_to, block_statements, named_params, positional_params
from ..types import Kind
from ._python_numbers import python_number
from ._support import exclusive_arms_before, grad_disabled


@dataclass(frozen=True)
class Test:
    """A test of parameter `param`: `kind` "truthy" (`if p:`), "falsy" (`if not p:`), "not_none"
    (`if p is not None:`), "none" (`if p is None:`), "eq" / "ne" (`if p == "train":` / `!=`, with
    `literal` the string compared)."""

    param: str
    kind: str
    literal: str | None = None

    def opposite(self) -> "Test":
        return Test(self.param, _OPPOSITE[self.kind], self.literal)

    def passes(self, value: cst.BaseExpression) -> bool | None:
        """Whether a call passing the literal `value` passes the test (None: not a literal known here)."""
        if self.kind in ("eq", "ne"):
            if not isinstance(value, cst.SimpleString):
                return None
            equal = value.evaluated_value == self.literal
            return equal if self.kind == "eq" else not equal
        if self.kind in ("not_none", "none"):
            if isinstance(value, cst.Name) and value.value == "None":
                return self.kind == "none"
            if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)) or (
                    isinstance(value, cst.Name) and value.value in ("True", "False")):
                return self.kind == "not_none"
            return None
        truthy = {"True": True, "False": False, "None": False}.get(value.value) if isinstance(value, cst.Name) else None
        if isinstance(value, cst.Integer):
            truthy = value.evaluated_value != 0
        if truthy is None:
            return None
        return truthy if self.kind == "truthy" else not truthy


_OPPOSITE = {"truthy": "falsy", "falsy": "truthy", "not_none": "none", "none": "not_none", "eq": "ne", "ne": "eq"}


@dataclass(frozen=True)
class Gate:
    """Every training call of `loop` runs only where `test` passes."""

    loop: Loop
    test: Test

    @property
    def param(self) -> str:
        return self.test.param


@dataclass(frozen=True)
class GatedPass:
    call: cst.Call
    gate: Gate
    unseen: bool  # the loop calls code outside the gate that the analysis cannot see into
    switches: bool  # the function switches to eval mode where the gate is off (else: `.eval()` before the call)


def gated_passes(facts: Facts) -> list[GatedPass]:
    """Calls, after a `.eval()` in the same block and with autograd on, that pass a constant
    turning off every training statement of a loop of the function they call."""
    out: list[GatedPass] = []
    for loop in facts.loops:
        gate = _gate(facts, loop)
        if gate is None or loop.function is None:
            continue
        switches = _switches_to_eval(facts, loop, gate.test)
        for call in facts.calls_in(facts.module):
            if loop.function not in facts._callees(call) or grad_disabled(facts, call) \
                    or not (switches or _after_eval(facts, call)):
                continue
            value = _passed(facts, call, loop.function, gate.param)
            if value is not None and gate.test.passes(value) is False and not _hands_out_tensors(facts, loop.function):
                out.append(GatedPass(call, gate, _unseen_outside_gate(facts, loop, gate), switches))
    return out


def _gate(facts: Facts, loop: Loop) -> Gate | None:
    func = loop.function
    if not isinstance(func, cst.FunctionDef) or not isinstance(loop.node, cst.For):
        return None
    # `optimizer.zero_grad()` trains nothing by itself, but outside the gate it says the
    # function is a training step whichever flag is passed: it counts here
    training = [c for c in facts.calls_in(loop.node.body) if trains_visibly(facts, c)
                or isinstance(c.func, cst.Attribute) and c.func.attr.value == "zero_grad"]
    if not training:
        return None
    gates = {_gate_of(facts, c, loop, func) for c in training}
    if len(gates) != 1 or None in gates:
        return None
    test = gates.pop()
    assert test is not None
    if sum(d.function is func for d in facts._defs.get(test.param, ())) > 1:
        return None  # rebound in the function: the flag a call passes is not what the test reads
    return Gate(loop, test)


def _params(func: FunctionNode) -> set[str]:
    return named_params(func.params)


def _gate_of(facts: Facts, call: cst.Call, loop: Loop, func: FunctionNode) -> Test | None:
    """The test of the innermost `if` inside the loop whose body holds the training call `call`, a
    test of one parameter of the function (no `else` branch that trains instead)."""
    node: cst.CSTNode = call
    for anc in facts.ancestors(call):
        if anc is loop.node:
            return None
        if isinstance(anc, cst.If) and anc.body is node:
            return _test_of(anc.test, _params(func))
        node = anc
    return None


def _test_of(test: cst.BaseExpression, params: set[str]) -> Test | None:
    """`p`, `not p`, `p is (not) None`, `p ==/!= "literal"` for a parameter `p`, as a `Test`."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _test_of(test.expression, params)
        return inner.opposite() if inner is not None and inner.kind == "truthy" else None
    if isinstance(test, cst.Name):
        return Test(test.value, "truthy") if test.value in params else None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name) \
            and test.left.value in params:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        if isinstance(right, cst.Name) and right.value == "None":
            if isinstance(op, cst.IsNot):
                return Test(test.left.value, "not_none")
            if isinstance(op, cst.Is):
                return Test(test.left.value, "none")
        if isinstance(right, cst.SimpleString) and isinstance(right.evaluated_value, str):
            if isinstance(op, cst.Equal):
                return Test(test.left.value, "eq", right.evaluated_value)
            if isinstance(op, cst.NotEqual):
                return Test(test.left.value, "ne", right.evaluated_value)
    return None


def excluded_by_call(facts: Facts, node: cst.CSTNode, call: cst.Call, func: FunctionNode) -> bool:
    """`node` (in `func`'s body) sits in a branch of an `if` on one parameter of `func` that
    `call` rules out with a constant: in `if train:` when `call` passes `train=False`, in the
    `else:` when it passes `True`. The molecular GNN's `forward_regressor(batch, train=False)`
    reaches only the branch that runs its model under `no_grad`."""
    params = _params(func)
    for branch, _, runs_when in exclusive_arms_before(facts, node, func):
        # `if train: ...; return loss` before `node`: `node` runs only where the test fails
        test = _test_of(branch.test, params)
        if test is not None and sum(d.function is func for d in facts._defs.get(test.param, ())) <= 1:
            value = _passed(facts, call, func, test.param)
            passes = test.passes(value) if value is not None else None
            if passes is not None and passes != runs_when:
                return True
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if anc is func:
            return False
        if isinstance(anc, cst.If):
            test = _test_of(anc.test, params)
            if test is not None and sum(d.function is func for d in facts._defs.get(test.param, ())) <= 1:
                value = _passed(facts, call, func, test.param)
                passes = test.passes(value) if value is not None else None
                if passes is not None and ((anc.body is child and not passes) or (anc.orelse is child and passes)):
                    return True
        child = anc
    return False


def _switches_to_eval(facts: Facts, loop: Loop, test: Test) -> bool:
    """Before its loop, the function puts a model in eval mode exactly where the gate is off:
    `model.train(train)`, `model.eval()` in the branch of `if`/`else` (or a conditional
    expression) that the gate's test does not take, `model.train(phase == "train")`."""
    func = loop.function
    if not isinstance(func, cst.FunctionDef):
        return False
    start = facts.position(loop.node).start.line
    for call in facts.calls_in(func.body):
        if not isinstance(call.func, cst.Attribute) or facts.position(call).start.line >= start:
            continue
        method = call.func.attr.value
        if method == "train" and len(call.args) == 1 and getattr(call.args[0].keyword, "value", "mode") == "mode":
            if _test_of(call.args[0].value, {test.param}) == test:
                return True
        elif method == "eval" and not call.args and _in_branch_not_taken(facts, call, test, func):
            return True
    return False


def _in_branch_not_taken(facts: Facts, node: cst.CSTNode, test: Test, func: cst.FunctionDef) -> bool:
    """`node` runs only where `test` fails: in the `else` of a test like it, or the body of its
    opposite, or after an `if` on a test like it whose arm ends in `return` (no `else:` needed)."""
    for branch, _, runs_when in exclusive_arms_before(facts, node, func):
        form = _test_of(branch.test, {test.param})
        if form is not None and (form == test and not runs_when or form == test.opposite() and runs_when):
            return True
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if anc is func:
            return False
        if isinstance(anc, (cst.If, cst.IfExp)):
            form = _test_of(anc.test, {test.param})
            if form is not None:
                in_body = anc.body is child
                return form == test.opposite() if in_body else (form == test and anc.orelse is child)
        child = anc
    return False


def _passed(facts: Facts, call: cst.Call, func: FunctionNode, param: str) -> cst.BaseExpression | None:
    """What `call` gives `param`: its keyword, its position (after `self` for a method called on
    an object), else the parameter's default; None when a starred argument hides it."""
    if any(a.star for a in call.args):
        return None
    names = positional_params(func)
    if isinstance(call.func, cst.Attribute) and names[:1] in (["self"], ["cls"]):
        names = names[1:]
    given = argument_bound_to(call, names, param)
    if given is not None:
        return given
    chosen = next((p for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
                   if p.name.value == param), None)
    return chosen.default if chosen is not None else None


def _after_eval(facts: Facts, call: cst.Call) -> bool:
    """An earlier statement of the block holding the call puts something in eval mode
    (`self.model.eval()`): the caller itself says this pass only measures."""
    return after_eval(facts, facts.statement_of(call))


def after_eval(facts: Facts, stmt: cst.CSTNode | None) -> bool:
    """An earlier statement of the block holding `stmt` is `<something>.eval()`."""
    block = facts.parent(stmt) if stmt is not None else None
    body = block_statements(block)
    if stmt not in body:
        return False
    for earlier in body[: body.index(stmt)]:
        if isinstance(earlier, cst.SimpleStatementLine) and any(
                isinstance(s, cst.Expr) and isinstance(s.value, cst.Call) and isinstance(s.value.func, cst.Attribute)
                and s.value.func.attr.value == "eval" and not s.value.args for s in earlier.body):
            return True
    return False


def _hands_out_tensors(facts: Facts, func: FunctionNode) -> bool:
    """The function returns, yields or keeps on an object a value that may be a tensor (with its
    graph, which a caller could back-propagate)."""
    for n in facts.walk(func.body):
        if isinstance(n, (cst.Return, cst.Yield)) and n.value is not None and facts.kind(n.value) in (Kind.TENSOR, Kind.UNKNOWN) \
                and not _python_numbers(facts, n.value, func):
            return True
        if isinstance(n, cst.AssignTarget) and isinstance(n.target, (cst.Attribute, cst.Subscript)) \
                and facts.kind(facts.parent(n).value) is Kind.TENSOR:  # type: ignore[union-attr]
            return True
    return False


def _python_numbers(facts: Facts, value: cst.BaseExpression, scope: FunctionNode) -> bool:
    """`total / len(loader.dataset)`, `(loss_sum / n, correct / n)`: Python numbers, each of them."""
    if isinstance(value, (cst.Tuple, cst.List)):
        return all(not isinstance(e, cst.StarredElement) and python_number(facts, e.value, scope) for e in value.elements)
    return python_number(facts, value, scope)


def _unseen_outside_gate(facts: Facts, loop: Loop, gate: Gate) -> bool:
    return any(may_train(facts, c) for c in facts.calls_in(loop.node.body)
               if not any(isinstance(a, cst.If) and _gate_test(a, gate) for a in facts.ancestors(c)))


def _gate_test(node: cst.If, gate: Gate) -> bool:
    return _test_of(node.test, {gate.param}) == gate.test
