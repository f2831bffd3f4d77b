"""Evaluation passes of a function that trains or only measures depending on a flag it is given.

Conv-TasNet's `_run_one_epoch(epoch, cross_valid=False)` steps the optimizer only under
`if not cross_valid:`; after `self.model.eval()` the solver calls it with `cross_valid=True`. The
loop is a training loop, yet that call turns every training statement in it off: it is an
evaluation pass that records an autograd graph for each forward. The call site is what runs
without training, so it is what a `torch.no_grad()` belongs around."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..facts import Facts, FunctionNode, Loop, may_train, trains_visibly
from ..types import Kind
from ._support import grad_disabled


@dataclass(frozen=True)
class Gate:
    """Every training call of `loop` runs only when parameter `param` of its function is truthy
    (`if param:`) or, with `negated`, falsy (`if not param:`)."""

    loop: Loop
    param: str
    negated: bool


@dataclass(frozen=True)
class GatedPass:
    call: cst.Call
    gate: Gate
    unseen: bool  # the loop calls code outside the gate that the analysis cannot see into


def gated_passes(facts: Facts) -> list[GatedPass]:
    """Calls, after a `.eval()` in the same block and with autograd on, that pass a constant
    turning off every training statement of a loop of the function they call."""
    out: list[GatedPass] = []
    for loop in facts.loops:
        gate = _gate(facts, loop)
        if gate is None or loop.function is None:
            continue
        for call in facts.calls_in(facts.module):
            if loop.function not in facts._callees(call) or grad_disabled(facts, call) or not _after_eval(facts, call):
                continue
            value = _passed(facts, call, loop.function, gate.param)
            if value is not None and _turns_off(value, gate.negated) and not _hands_out_tensors(facts, loop.function):
                out.append(GatedPass(call, gate, _unseen_outside_gate(facts, loop, gate)))
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
    param, negated = gates.pop()  # type: ignore[misc]
    if param in facts.names_written(func.body):
        return None  # rebound in the function: the flag a call passes is not what the test reads
    return Gate(loop, param, negated)


def _gate_of(facts: Facts, call: cst.Call, loop: Loop, func: FunctionNode) -> tuple[str, bool] | None:
    """(`p`, negated) for a training call in the body of `if not p:` / `if p:` inside the loop, `p`
    a parameter of the function (a plain name test, no `else` branch that trains instead)."""
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)}
    node: cst.CSTNode = call
    for anc in facts.ancestors(call):
        if anc is loop.node:
            return None
        if isinstance(anc, cst.If) and anc.body is node:
            test = anc.test
            negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            name = test.expression if negated else test  # type: ignore[attr-defined]
            if isinstance(name, cst.Name) and name.value in params:
                return name.value, negated
            return None
        node = anc
    return None


def _passed(facts: Facts, call: cst.Call, func: FunctionNode, param: str) -> cst.BaseExpression | None:
    """What `call` gives `param`: its keyword, its position (after `self` for a method called on
    an object), else the parameter's default; None when a starred argument hides it."""
    if any(a.star for a in call.args):
        return None
    for a in call.args:
        if a.keyword is not None and a.keyword.value == param:
            return a.value
    params = [*func.params.posonly_params, *func.params.params]
    names = [p.name.value for p in params]
    if isinstance(call.func, cst.Attribute) and names[:1] in (["self"], ["cls"]):
        names, params = names[1:], params[1:]
    positional = [a.value for a in call.args if a.keyword is None]
    if param in names and names.index(param) < len(positional):
        return positional[names.index(param)]
    chosen = next((p for p in (*params, *func.params.kwonly_params) if p.name.value == param), None)
    return chosen.default if chosen is not None else None


def _turns_off(value: cst.BaseExpression, negated: bool) -> bool:
    """A literal that skips the gated branch: truthy for `if not p:`, falsy for `if p:`."""
    truthy = {"True": True, "False": False, "None": False}.get(value.value) if isinstance(value, cst.Name) else None
    if isinstance(value, cst.Integer):
        truthy = value.evaluated_value != 0
    return truthy is not None and truthy == negated


def _after_eval(facts: Facts, call: cst.Call) -> bool:
    """An earlier statement of the block holding the call puts something in eval mode
    (`self.model.eval()`): the caller itself says this pass only measures."""
    stmt = facts.statement_of(call)
    block = facts.parent(stmt) if stmt is not None else None
    body = list(getattr(block, "body", ()))
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
                and not _python_number(facts, n.value):
            return True
        if isinstance(n, cst.AssignTarget) and isinstance(n.target, (cst.Attribute, cst.Subscript)) \
                and facts.kind(facts.parent(n).value) is Kind.TENSOR:  # type: ignore[union-attr]
            return True
    return False


def _python_number(facts: Facts, value: cst.BaseExpression) -> bool:
    """`total / (i + 1)` where every name is bound only to numbers and `.item()` results."""
    for n in facts.walk(value):
        if isinstance(n, cst.Call):
            return False
        if isinstance(n, cst.Name) and not isinstance(facts.parent(n), cst.Attribute):
            defs = facts._defs.get(n.value, ())
            if not defs or not all(_numeric_binding(facts, d) for d in defs):
                return False
    return True


def _numeric_binding(facts: Facts, d: object) -> bool:
    """A binding to a number: a literal, an `.item()` result (also added: `total += loss.item()`),
    or the counter `enumerate` gives (`for i, x in enumerate(loader)`)."""
    value = getattr(d, "element", None) if getattr(d, "augmented", False) else getattr(d, "value", None)
    loop = getattr(d, "loop", None)
    if loop is not None and value is None:
        target, it = loop.node.target, getattr(loop.node, "iter", None)
        return isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "enumerate" \
            and isinstance(target, cst.Tuple) and bool(target.elements) \
            and isinstance(target.elements[0].value, cst.Name) and target.elements[0].value.value == getattr(d, "name", None)
    if isinstance(value, (cst.Integer, cst.Float)):
        return True
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "item" \
        and not value.args


def _unseen_outside_gate(facts: Facts, loop: Loop, gate: Gate) -> bool:
    return any(may_train(facts, c) for c in facts.calls_in(loop.node.body)
               if not any(isinstance(a, cst.If) and _gate_test(a, gate) for a in facts.ancestors(c)))


def _gate_test(node: cst.If, gate: Gate) -> bool:
    test = node.test
    if gate.negated:
        return isinstance(test, cst.UnaryOperation) and isinstance(test.expression, cst.Name) \
            and test.expression.value == gate.param
    return isinstance(test, cst.Name) and test.value == gate.param
