"""Context managers that may swallow the exception leaving their body (red team 18).

A rewrite that inserts a statement after a loop (host-sync's read-back of a running sum) relies
on that statement running before anything else reads the loop's state. An exception leaving the
loop skips it; the program only goes on when something swallows the exception: a `try`, or a
`with` whose manager's exit says so (`contextlib.suppress`). The managers that can do that here:
`suppress`, an `ExitStack` (it can hold a `suppress`, or any exit callback returning true), a
class of the program whose `__exit__` may return a true value, and a `@contextmanager` generator
whose `yield` sits in a `try` with a handler that does not raise again. A library's other
managers (`torch.no_grad()`, `open(...)`, `tqdm(...)`) are taken not to swallow.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts

_SWALLOWING = frozenset({"contextlib.suppress", "contextlib.ExitStack", "contextlib.AsyncExitStack"})
_GENERATOR_MANAGERS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})


def may_swallow(facts: Facts, item: cst.BaseExpression, depth: int = 3) -> bool:
    """`item` (a `with` item's expression) may swallow an exception leaving the `with` body.
    A name bound to no value seen here (a parameter: `def fit(guard): with guard:`), an attribute
    or a subscript may hold any manager, `suppress` included; a program function returning a
    manager is judged by what it returns."""
    if isinstance(item, cst.IfExp):
        return may_swallow(facts, item.body, depth) or may_swallow(facts, item.orelse, depth)
    if isinstance(item, cst.Name):
        value = facts.value_of(item)  # `stack = ExitStack()` ... `with stack:`
        return value is None or depth == 0 or may_swallow(facts, value, depth - 1)
    if isinstance(item, (cst.Attribute, cst.Subscript)):
        return True  # `with self.guard:`, `with managers[kind]:`: a manager made elsewhere, any kind
    if not isinstance(item, cst.Call):
        return False
    if (facts.qualified_name(item.func) or "") in _SWALLOWING:
        return True
    found = facts.class_named(item.func)
    if found is not None:
        owner, cls = found
        return any(_exit_may_return_true(owner, f) for f in _methods(cls, ("__exit__", "__aexit__")))
    for func in facts._callees(item):
        owner = facts.owner_of(func)
        if any((owner.qualified_name(d.decorator) or "") in _GENERATOR_MANAGERS for d in func.decorators):
            if _generator_swallows(owner, func, depth - 1):
                return True
        elif depth == 0 or any(r.value is None or may_swallow(owner, r.value, depth - 1)
                               for r in owner.walk(func.body, into_scopes=False) if isinstance(r, cst.Return)):
            return True  # `def guard_for(kind): return contextlib.suppress(kind)`
    return False


def _methods(cls: cst.ClassDef, names: tuple[str, ...]) -> list[cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value in names]


def _exit_may_return_true(facts: Facts, func: cst.FunctionDef) -> bool:
    """A `return` in `__exit__` whose value is not `None` / `False` (a value computed at run time
    may be true)."""
    for n in facts.walk(func.body, into_scopes=False):
        if isinstance(n, cst.Return) and n.value is not None and not (
                isinstance(n.value, cst.Name) and n.value.value in ("None", "False")):
            return True
    return False


def _generator_swallows(facts: Facts, func: cst.FunctionDef, depth: int = 2) -> bool:
    """A `yield` in the body of a `try` with a handler whose last statement is not a `raise`, or
    of a `with` whose own manager may swallow (`with contextlib.suppress(E): yield`)."""
    owner = facts.owner_of(func)
    for n in owner.walk(func.body, into_scopes=False):
        if isinstance(n, (cst.Try, cst.TryStar)):
            swallows = any(_no_reraise(h.body) for h in n.handlers)
        elif isinstance(n, cst.With):
            swallows = any(may_swallow(owner, item.item, depth) for item in n.items)
        else:
            continue
        if swallows and any(isinstance(m, cst.Yield) for m in owner.walk(n.body, into_scopes=False)):
            return True
    return False


def _no_reraise(block: cst.BaseSuite) -> bool:
    body = block.body if isinstance(block, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    return not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise))
