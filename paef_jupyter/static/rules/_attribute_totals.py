"""A running total kept on the object: `self.current_loss -= loss` in the training loop.

The name-based check in `graph_retention` follows a local `total`; a total stored as an
attribute of `self` outlives the step the same way (public34 p08: a skip-gram trainer adds each
step's loss tensor, graph included, into `self.current_loss`, then folds that into
`self.epoch_loss`). What must be known before reporting it:

- which attributes hold the total: the attribute itself and any other `self.<attr>` it is added
  or assigned into (`self.epoch_loss -= self.current_loss`), followed to a fixed point;
- whether any read of those attributes may reach a backward (then the graph is the point: a
  gradient accumulated over steps), which the caller decides per statement;
- whether the loop binds the attribute afresh on every step (a per-step sum, not a total).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..facts import Facts, Loop
from ._periodic_reset import periodic_reset


def self_attribute(expr: cst.BaseExpression) -> str | None:
    """`self.total` -> "total"; anything else -> None."""
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        return expr.attr.value
    return None


def _targets(stmt: cst.CSTNode) -> list[cst.BaseExpression]:
    """What an assignment statement binds (each element of a tuple target)."""
    out: list[cst.BaseExpression] = []
    if isinstance(stmt, cst.Assign):
        todo = [t.target for t in stmt.targets]
    elif isinstance(stmt, (cst.AugAssign, cst.AnnAssign)):
        todo = [stmt.target]
    else:
        return out
    while todo:
        t = todo.pop()
        if isinstance(t, (cst.Tuple, cst.List)):
            todo.extend(el.value for el in t.elements)
        else:
            out.append(t)
    return out


def _value(stmt: cst.CSTNode) -> cst.BaseExpression | None:
    return stmt.value if isinstance(stmt, (cst.Assign, cst.AugAssign, cst.AnnAssign)) else None


def holders(facts: Facts, attr: str) -> set[str]:
    """`attr` and every `self.<other>` whose assigned value reads `self.<attr>` (transitively)."""
    found = {attr}
    stmts = [n for n in facts.walk(facts.module) if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign))]
    changed = True
    while changed:
        changed = False
        for stmt in stmts:
            value = _value(stmt)
            if value is None or not any(self_attribute(n) in found for n in facts.walk(value)
                                        if isinstance(n, cst.Attribute)):
                continue
            for t in _targets(stmt):
                name = self_attribute(t)
                if name is not None and name not in found:
                    found.add(name)
                    changed = True
    return found


def reads(facts: Facts, names: set[str], skip: cst.CSTNode) -> list[cst.Attribute]:
    """Every `<anything>.<name>` read in the unit outside the statement `skip` (a pure rebinding
    `self.total = 0` is not a read). Any receiver counts, not only `self`: a caller's
    `trainer.total.backward()` reads the same total."""
    inside = set(facts.walk(skip))
    out: list[cst.Attribute] = []
    for n in facts.walk(facts.module):
        if n in inside or not isinstance(n, cst.Attribute) or n.attr.value not in names:
            continue
        stmt = facts.statement_of(n)
        if isinstance(stmt, cst.SimpleStatementLine):
            small = [s for s in stmt.body if n in set(facts.walk(s))]
            if small and isinstance(small[0], cst.Assign) and n in _targets(small[0]):
                continue  # `self.total = 0`, `self.cnt, self.total = 0, 0`
        out.append(n)
    return out


def rebound_each_step(facts: Facts, loop: Loop, attr: str, accumulation: cst.CSTNode) -> bool:
    """The loop body binds `self.<attr>` on every step (not under an `if` that leaves the
    accumulation out): the total never outlives a step."""
    for n in facts.walk(loop.node.body, into_scopes=False):
        if isinstance(n, cst.Assign) and any(self_attribute(t) == attr for t in _targets(n)) \
                and not periodic_reset(facts, n, loop.node, accumulation):
            return True
    return False


def reaches_backward(facts: Facts, found: list[cst.Attribute], may_backward: Callable[[cst.CSTNode], bool]) -> bool:
    """Any read of the total sits in a statement that may back-propagate through it."""
    return any(may_backward(facts.statement_of(n)) for n in found)
