"""A function that builds the data set once: `make_batches(n)`'s loop appends to the list it
returns, and the program calls it at the top level, its result the data a training or evaluation
loop iterates over. What its loop rebuilds per item is paid once per run, not per step (noise51:
public check 36's synthetic-data builders, the corpus's lead36/pub36 copies)."""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ._support import hot_loop


def builds_data_once(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` runs in a plain loop of a function that builds a list and returns it
    (`out.append((x, y))` ... `return out`), called only at the top level, outside any loop, and
    its result is what a training or evaluation loop iterates over: the loop makes the data once,
    before training."""
    loops = facts.enclosing_loops(node)
    func = facts.enclosing_function(node)
    if not loops or func is None or any(l.kind != "plain" for l in loops) or not isinstance(func, cst.FunctionDef):
        return False
    if facts.per_iteration_functions.get(func) is not None or facts.external_loop(func) is not None \
            or hot_loop(facts, node) is not None:
        return False
    calls = [use for use in facts.uses(func.name.value) if use is not func.name]
    if not calls or any(facts.enclosing_loops(use) or facts.enclosing_function(use) is not None for use in calls):
        return False  # never called here (a caller out of sight), or called in a loop or another function
    if not all(_feeds_a_step_loop(facts, use) for use in calls):
        return False
    outer = loops[-1].node
    returned = {n.value.value for n in facts.walk(func, into_scopes=False)
                if isinstance(n, cst.Return) and isinstance(n.value, cst.Name)}
    return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "append"
               and isinstance(c.func.value, cst.Name) and c.func.value.value in returned
               for c in facts.calls_in(outer))


def _feeds_a_step_loop(facts: Facts, use: cst.Name) -> bool:
    """The builder's call `use(...)` makes the data a training or evaluation loop iterates
    over: its result bound to a name such a loop iterates (`train_set = batches(6)` ...
    `for x, y in train_set:`), or handed to a call while such a loop iterates over a parameter
    of its function (`run_train(model, make_batches(1))` ... `for batch in iterator:`)."""
    call = facts.parent(use)
    if not isinstance(call, cst.Call) or call.func is not use:
        return False
    step_loops = [l for l in facts.loops if l.kind != "plain" and isinstance(l.node, cst.For)]
    iterated = {l.node.iter.value for l in step_loops if isinstance(l.node.iter, cst.Name)}  # type: ignore[union-attr]
    holder = facts.parent(call)
    if isinstance(holder, cst.Arg):
        return any(isinstance(l.node.iter, cst.Name) and (f := facts.enclosing_function(l.node)) is not None  # type: ignore[union-attr]
                   and l.node.iter.value in {p.name.value for p in f.params.params}  # type: ignore[union-attr]
                   for l in step_loops)
    while isinstance(holder, (cst.Element, cst.Tuple)):
        holder = facts.parent(holder)
    targets = facts.names_written(holder) if isinstance(holder, cst.Assign) else set()
    return bool(targets & iterated)

