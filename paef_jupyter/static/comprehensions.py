"""Which `for` clause of a comprehension binds a name read inside it.

A comprehension's variables live in its own scope: `v` in `{k: v.item() for k, v in
losses.items()}` is the dict's value, whatever a `v` of the enclosing function holds. The
def-use table (`Facts._defs`) records statement bindings only, so without this a read of a
comprehension variable found no binding (its kind then came from jedi) or, worse, the
enclosing function's namesake."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from .names import bound_names

if TYPE_CHECKING:
    from .facts import Facts

_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


def comprehension_binding(facts: "Facts", name: cst.Name) -> cst.CompFor | None:
    """The `for` clause whose target binds this read of `name`: the innermost clause of the
    innermost comprehension around the read that binds the name and whose scope the read is in
    (the element, the clause's own `if`s, or a later clause). The first clause's iterable runs
    in the enclosing scope: a read there is not bound by that clause. None when no clause binds
    the read (a free name of the comprehension, or no comprehension at all)."""
    for anc in facts.ancestors(name):
        if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Lambda)):
            return None  # a statement or a lambda's own scope: no comprehension encloses the read
        if not isinstance(anc, _COMPREHENSIONS):
            continue
        clauses: list[cst.CompFor] = []
        clause: cst.CompFor | None = anc.for_in
        while clause is not None:
            clauses.append(clause)
            clause = clause.inner_for_in
        for i in range(len(clauses) - 1, -1, -1):
            if name.value not in bound_names(clauses[i].target):
                continue
            if _in_scope_of(facts, name, anc, clauses, i):
                return clauses[i]
    return None


def _in_scope_of(facts: "Facts", name: cst.Name, comp: cst.CSTNode, clauses: list[cst.CompFor], i: int) -> bool:
    """The read sees clause `i`'s binding: it is in the element (`elt`, or a dict's key and
    value), in one of the clause's `if`s, or in a later clause's iterable or `if`s."""
    parts: list[cst.CSTNode] = []
    if isinstance(comp, cst.DictComp):
        parts += [comp.key, comp.value]
    else:
        parts.append(comp.elt)  # type: ignore[attr-defined]
    parts += list(clauses[i].ifs)
    for later in clauses[i + 1:]:
        parts.append(later.iter)
        parts += list(later.ifs)
    return any(facts.contains(part, name) for part in parts)
