"""Context managers that may swallow the exception leaving their body (red team 18).

A rewrite that inserts a statement after a loop (host-sync's read-back of a running sum) relies
on that statement running before anything else reads the loop's state. An exception leaving the
loop skips it; the program only goes on when something swallows the exception: a `try`, or a
`with` whose manager's exit says so (`contextlib.suppress`). The managers that can do that here:
`suppress`, an `ExitStack` (it can hold a `suppress`, or any exit callback returning true), a
class of the program whose `__exit__` may return a true value, and a `@contextmanager` generator
whose `yield` sits in a `try` with a handler that does not raise again (or a `finally` that
returns). Red team 19: a library's manager is taken not to swallow only when it is known not to
(`torch.*`, `open`, `tqdm`, `nullcontext`, ...: `_NOT_SWALLOWING`); any other one (`pytest.raises`,
`numpy.testing.assert_raises`, a `TestCase`'s `assertRaises`, `suppress` re-exported under another
name) may, and so may a program class inheriting its `__exit__` from a library class, or one whose
`__exit__` is bound by an assignment (`__exit__ = _leave`) or wrapped by a decorator.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts

_SWALLOWING = frozenset({"contextlib.suppress", "contextlib.ExitStack", "contextlib.AsyncExitStack"})
_GENERATOR_MANAGERS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})
# Library managers whose exit never swallows an exception (qualified names, or prefixes ending in
# "."): grad modes, autocast, profilers, files, progress bars, warning filters, run trackers.
_NOT_SWALLOWING = ("torch.", "contextlib.nullcontext", "contextlib.closing", "contextlib.aclosing",
                   "contextlib.redirect_stdout", "contextlib.redirect_stderr", "contextlib.chdir", "builtins.open",
                   "io.", "tqdm.", "tqdm", "warnings.catch_warnings", "numpy.errstate", "numpy.printoptions",
                   "threading.", "multiprocessing.", "concurrent.futures.", "tempfile.", "zipfile.", "tarfile.",
                   "gzip.", "wandb.", "mlflow.", "rich.", "time.", "logging.")
# Bases whose `__exit__` returns nothing (a class deriving from them decides by its own `__exit__`).
_NEUTRAL_BASES = frozenset({"builtins.object", "object", "contextlib.AbstractContextManager",
                            "contextlib.AbstractAsyncContextManager", "contextlib.ContextDecorator",
                            "contextlib.AsyncContextDecorator", "abc.ABC", "typing.Generic"})


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
    qualified = facts.qualified_name(item.func) or ""
    if qualified in _SWALLOWING:
        return True
    found = facts.class_named(item.func)
    if found is not None:
        return _class_may_swallow(*found, depth=depth)
    callees = facts._callees(item)
    if not callees:  # a library's manager, or code out of sight: only known ones are taken not to swallow
        return not _known_not_swallowing(qualified)
    for func in callees:
        owner = facts.owner_of(func)
        if any((owner.qualified_name(d.decorator) or "") in _GENERATOR_MANAGERS for d in func.decorators):
            if _generator_swallows(owner, func, depth - 1):
                return True
        elif depth == 0 or any(r.value is None or may_swallow(owner, r.value, depth - 1)
                               for r in owner.walk(func.body, into_scopes=False) if isinstance(r, cst.Return)):
            return True  # `def guard_for(kind): return contextlib.suppress(kind)`
    return False


def _known_not_swallowing(qualified: str) -> bool:
    return any(qualified == known or known.endswith(".") and qualified.startswith(known) for known in _NOT_SWALLOWING)


def _class_may_swallow(facts: Facts, cls: cst.ClassDef, depth: int = 3) -> bool:
    """A program class's `__exit__` may return true: its own, or the one it inherits (a program
    base judged the same way; a library base other than the neutral ones may swallow:
    `class Quiet(contextlib.suppress)`)."""
    if _exit_bound_otherwise(cls):
        return True
    own = _methods(cls, ("__exit__", "__aexit__"))
    if own:
        return any(f.decorators or _exit_may_return_true(facts, f) for f in own)
    for base in cls.bases:
        found = facts.class_named(base.value)
        if found is not None:
            if depth == 0 or _class_may_swallow(*found, depth=depth - 1):
                return True
            continue
        qualified = facts.qualified_name(base.value) or ""
        if qualified in _NEUTRAL_BASES or (isinstance(base.value, cst.Name) and base.value.value == "object"):
            continue
        if not _known_not_swallowing(qualified):
            return True
    return False


def _exit_bound_otherwise(cls: cst.ClassDef) -> bool:
    """`__exit__ = _leave` (or any value) in the class body: what it returns is not read here."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for line in body:
        for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
            targets = ([t.target for t in small.targets] if isinstance(small, cst.Assign)
                       else [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else [])
            if any(isinstance(t, cst.Name) and t.value in ("__exit__", "__aexit__") for t in targets):
                return True
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
            swallows = any(_no_reraise(h.body) for h in n.handlers) or (
                n.finalbody is not None and any(isinstance(m, (cst.Return, cst.Break, cst.Continue))
                                                for m in owner.walk(n.finalbody.body, into_scopes=False)))
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
