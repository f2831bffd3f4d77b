"""A validation forward run unguarded after the step of a full-batch training loop.

A forecasting book's epoch loop (public check 63, p05): `prediction = model(x_train); loss...;
loss.backward(); optimizer.step(); val_prediction = model(x_val); val_loss = mse(val_prediction,
y_val)`, then only `val_loss.item()` is read. The forward on the held-out tensors (names the loop
never binds) only measures, yet records a graph every epoch. `held_out_checks` finds the same pass
under an `if step % k == 0:`; this is the pass without the `if`, where the loop's later statements
(and the next pass) see its values: it counts only when every read of them, anywhere in the unit and
in the other cells, takes the value without its graph (`.item()`, `.data`, `.tolist()`, `.detach()`,
`.numpy()`, `.argmax()`), so computing them under no_grad yields the same numbers.
"""

from __future__ import annotations

from typing import Callable, Iterator

import libcst as cst

from ..facts import Facts
from ._eval_section import _method_calls, _plain, _read_without_graph, _trains
from ._support import grad_disabled

_STEP_METHODS = frozenset({"backward", "step"})


def held_out_passes(facts: Facts, runs_model: Callable[[cst.Call], bool],
                    ) -> Iterator[tuple[cst.SimpleStatementLine, list[cst.BaseStatement]]]:
    """Each unguarded held-out forward after the step of a training `for` loop, with the
    statements that derive from it (`val_loss = criterion(val_out, y_val)`)."""
    for loop in facts.loops:
        if loop.kind != "train" or not isinstance(loop.node, cst.For) or not isinstance(loop.node.body, cst.IndentedBlock):
            continue
        body = list(loop.node.body.body)
        varying = set(facts.names_written(loop.node.body)) | set(facts.names_written(loop.node.target))
        stepped = False
        for i, stmt in enumerate(body):
            if any(m in _STEP_METHODS for m, _ in _method_calls(facts, stmt)):
                stepped = True
                continue
            if not stepped or not isinstance(stmt, cst.SimpleStatementLine) or grad_disabled(facts, stmt):
                continue
            call = _held_out_call(facts, stmt, runs_model, varying)
            if call is None:
                continue
            inputs = set().union(*(facts.names_read(a.value) for a in call.args))
            if inputs & set().union(*(facts.names_read(s) for s in body[:i])):
                continue  # the data the step trained on, measured again after the update: not held out
            model = call.func.value  # type: ignore[attr-defined]
            if not any(isinstance(c.func, cst.Name) and c.func.value == model for s in body[:i] for c in facts.calls_in(s)):
                continue  # a model the step does not train (a frozen teacher, a target network)
            block = _derived(facts, body, i, varying)
            bound = set().union(*(facts.names_written(s) for s in block))
            if _trains(facts, block) or not bound or not _read_only_as_numbers(facts, bound, block):
                continue
            yield stmt, block


def _held_out_call(facts: Facts, stmt: cst.SimpleStatementLine, runs_model: Callable[[cst.Call], bool],
                   varying: set[str]) -> cst.Call | None:
    """The model call of `val_out = model(x_val)` or `val_loss = criterion(model(x_val), y_val)`: a
    plain assignment whose value reads only names the loop never binds, with a forward `name(...)`
    of positional arguments in it."""
    small = stmt.body[0] if len(stmt.body) == 1 else None
    if not (isinstance(small, cst.Assign) and all(_plain(t.target) for t in small.targets)):
        return None
    if not facts.names_read(small.value) or facts.names_read(small.value) & varying:
        return None
    for call in facts.calls_in(small.value):
        if isinstance(call.func, cst.Name) and call.args and runs_model(call) \
                and not any(a.keyword is not None or a.star for a in call.args):
            return call
    return None


def _derived(facts: Facts, body: list[cst.BaseStatement], start: int, varying: set[str]) -> list[cst.BaseStatement]:
    """The forward at `start` and the plain assignments right after it that compute from its
    values and from names the loop never binds (`val_loss = mse_loss(val_prediction, y_val)`)."""
    block: list[cst.BaseStatement] = [body[start]]
    bound = set(facts.names_written(body[start]))
    for stmt in body[start + 1:]:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and all(_plain(t.target) for t in small.targets)):
            break
        reads = facts.names_read(small.value)
        if not reads & bound or reads & (varying - bound):
            break
        block.append(stmt)
        bound |= facts.names_written(stmt)
    return block


def _read_only_as_numbers(facts: Facts, names: set[str], block: list[cst.BaseStatement]) -> bool:
    """Every load of `names` outside `block`, in this unit and in the other cells, takes the
    value without its graph. A store (`val_loss = ...` elsewhere) is no read; a name of the same
    spelling in another scope counts as a read (the check stays on the safe side)."""
    inside = {id(n) for s in block for n in facts.walk(s)}
    for unit in (*facts.prior.cells, facts, *facts.later):  # an earlier cell's function may read them
        for node in unit.walk(unit.module):
            if not isinstance(node, cst.Name) or node.value not in names or id(node) in inside:
                continue
            parent = unit.parent(node)
            if isinstance(parent, cst.Attribute) and parent.attr is node:
                continue  # `obj.val_loss`: an attribute, not the variable
            if isinstance(parent, (cst.Arg, cst.Param)) and getattr(parent, "keyword", None) is node:
                continue  # `f(val_loss=...)`: a keyword's name
            if _stored(unit, node) or _read_without_graph(unit, node):
                continue
            return False
    return True


def _stored(facts: Facts, node: cst.Name) -> bool:
    """`node` is (part of) the target of an assignment or a `for`: a binding, not a read."""
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if isinstance(anc, cst.AssignTarget):
            return True
        if isinstance(anc, (cst.For, cst.CompFor)) and anc.target is child:
            return True
        if isinstance(anc, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
            child = anc
            continue
        return False
    return False
