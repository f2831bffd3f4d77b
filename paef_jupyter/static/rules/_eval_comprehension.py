"""Evaluation written as a comprehension: `preds = torch.cat([model(x).argmax(1) for x, _ in
test_loader])` after `model.eval()`. No `for` statement, so no evaluation loop, yet every element
is a forward pass that records an autograd graph."""

from __future__ import annotations

import re
from typing import Callable, Iterator

import libcst as cst

from ..facts import Facts, may_train
from ..names import bound_names
from ..types import Kind
from ._flag_gated import after_eval
from ._support import grad_disabled

_COMPREHENSIONS = (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)
_HELD_OUT = re.compile(r"(?i)(test|val|valid|eval|dev|holdout|predict|infer)")
# Uses of a bound value that back-propagate, or ask for autograd, through it.
_GRAPH_USES = frozenset({"backward", "requires_grad", "grad_fn", "retain_grad", "register_hook", "grad"})
_GRAPH_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})


def comprehension_passes(facts: Facts, runs_model: Callable[[cst.Call], bool]) -> Iterator[cst.SimpleStatementLine]:
    """Statements outside any loop, with autograd on, whose comprehension iterates a loader (or
    held-out data by its name) and runs a model per element, after `.eval()` in the same block or
    in a function named for evaluation. The statement trains nothing, and what it binds is never
    back-propagated nor read for its graph."""
    for stmt in _statements(facts):
        comps = [n for n in facts.walk(stmt) if isinstance(n, _COMPREHENSIONS)]
        if not comps or grad_disabled(facts, stmt) or facts.enclosing_loops(stmt) \
                or facts.iteration_loop(stmt) is not None:
            continue
        if not (after_eval(facts, stmt) or _in_eval_function(facts, stmt)):
            continue
        if not any(_over_held_out(facts, c) and any(runs_model(call) for call in facts.calls_in(c)) for c in comps):
            continue
        if any(may_train(facts, c) and not runs_model(c) for c in facts.calls_in(stmt)) or _graph_read_later(facts, stmt):
            continue
        yield stmt


def _statements(facts: Facts) -> Iterator[cst.SimpleStatementLine]:
    for node in facts.walk(facts.module):
        if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 \
                and isinstance(node.body[0], (cst.Assign, cst.AnnAssign, cst.Expr, cst.Return)):
            yield node


def _over_held_out(facts: Facts, comp: cst.BaseExpression) -> bool:
    it = comp.for_in.iter  # type: ignore[attr-defined]
    if facts.kind(it) is Kind.DATALOADER:
        return True
    text = facts.code(it)
    return bool(_HELD_OUT.search(text))


def _in_eval_function(facts: Facts, stmt: cst.SimpleStatementLine) -> bool:
    func = facts.enclosing_function(stmt)
    return isinstance(func, cst.FunctionDef) and bool(_HELD_OUT.search(func.name.value))


def _graph_read_later(facts: Facts, stmt: cst.SimpleStatementLine, depth: int = 2) -> bool:
    """What the statement gives is back-propagated or read for its graph: a name it binds is read,
    in its scope, by a statement that may train or reads graph state (`requires_grad`, `.grad`);
    or, returned, a caller does the same with the call's result (every call seen here)."""
    small = stmt.body[0]
    if isinstance(small, cst.Return):
        func = facts.enclosing_function(stmt)
        sites = [c for c in facts.calls_in(facts.module) if func in facts._callees(c)]
        return depth == 0 or not sites or any(_site_reads_graph(facts, c, depth) for c in sites)
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
        [small.target] if isinstance(small, cst.AnnAssign) else []
    names = {n for t in targets for n in bound_names(t)}
    if any(not isinstance(t, cst.Name) for t in targets):
        return True  # `self.preds = ...`: read anywhere
    scope = facts.enclosing_function(stmt) or facts.module
    for node in facts.walk(scope):
        if isinstance(node, cst.SimpleStatementLine) and node is not stmt \
                and names & {n.value for n in facts.walk(node) if isinstance(n, cst.Name)} and _reads_graph(facts, node):
            return True
    return False


def _site_reads_graph(facts: Facts, call: cst.Call, depth: int) -> bool:
    stmt = facts.statement_of(call)
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return True
    if any(isinstance(a, cst.Call) and may_train(facts, a) for a in facts.ancestors(call)):
        return True
    return _reads_graph(facts, stmt) or (isinstance(stmt.body[0], (cst.Assign, cst.AnnAssign, cst.Return))
                                         and _graph_read_later(facts, stmt, depth - 1))


def _reads_graph(facts: Facts, node: cst.CSTNode) -> bool:
    for n in facts.walk(node):
        if isinstance(n, cst.Attribute) and n.attr.value in _GRAPH_USES:
            return True
        if isinstance(n, cst.Call) and ((facts.qualified_name(n.func) or "") in _GRAPH_CALLS or may_train(facts, n)):
            return True
    return False
