"""Whether a function's name may hold an object that code outside the function changes.

`_needs_clone`-style checks look for in-place changes of a tensor in the scope that reads it. That
sees every change only when the scope owns the object: a module-level tensor read in a function is
changed by other functions (`centroids[k].mul_(m)` in `update_centroids`, red team 30a), a
parameter by the caller after the call returns, `self.x` by other methods. Such a name (or a local
bound to its memory: an alias, a row, a view) is reached from outside the function.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts, _own_locals


def reached_outside(facts: Facts, name: str, scope: cst.CSTNode, depth: int = 0) -> bool:
    """`name`, read in `scope` (a function, or the module: the whole unit is then in sight), may
    hold an object (or share memory with one) that code outside `scope` changes in place."""
    if not isinstance(scope, cst.FunctionDef):
        return False
    if depth > 4 or name not in _own_locals(scope):
        return True
    defs = [d for d in facts._defs.get(name, ()) if d.function is scope]
    for d in defs:
        value = facts._shared_value(d, scope)
        if value is None:
            return True  # augmented or unpacked from a call: not followed
        if any(root == name or reached_outside(facts, root, scope, depth + 1) for root in facts.shared_roots(value)):
            return True
    return not defs
