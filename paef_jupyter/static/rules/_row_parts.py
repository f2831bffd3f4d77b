"""`torch.stack([row[0] for row in t])`: the same part picked from every row of a tensor the
comprehension iterates. Iterating a tensor yields `t[0], t[1], ...` (its first dimension), so the
stacked parts are `t[:, 0]`: one view instead of an indexing op per row and a copy (public check
58: a time-series transformer rebuilt every batch this way from the rows of a device tensor).

Only the expression is derived here (the rule words the hint). It is never an automatic rewrite:
the view shares memory with `t` where the stack made a copy, and an empty `t` gives an empty view
where `torch.stack([])` raises."""

from __future__ import annotations

import libcst as cst

from ..facts import Facts


def stacked_row_part(facts: Facts, elt: cst.BaseExpression, var: str) -> str | None:
    """`t[:, <parts>]` for `elt` = `var[<parts>]` when no part reads the row (`var`) or a name the
    comprehension binds: each part is an index or a slice the same for every row. None otherwise."""
    if not (isinstance(elt, cst.Subscript) and isinstance(elt.value, cst.Name) and elt.value.value == var):
        return None
    parts: list[str] = []
    for element in elt.slice:
        part = element.slice
        if isinstance(part, cst.Index):
            if part.star is not None or var in facts.names_read(part.value):
                return None
        elif isinstance(part, cst.Slice):
            if any(b is not None and var in facts.names_read(b) for b in (part.lower, part.upper, part.step)):
                return None
        else:
            return None
        parts.append(cst.Module([]).code_for_node(part))
    return ", ".join([":", *parts]) if parts else None


# Methods giving back one tensor of the same rows (iterating the result iterates those rows);
# `unbind` / `split` / `chunk` give a tuple, which `[:, k]` cannot index.
_SAME_ROWS = frozenset({"float", "double", "half", "detach", "cpu", "cuda", "to", "contiguous", "clone"})


def rows_of_one_tensor(rows: cst.BaseExpression) -> bool:
    """The iterated expression is written as one tensor the hint's `rows[:, k]` can index: a name,
    an attribute, a subscript, or a copy of one by a method that keeps its rows."""
    if isinstance(rows, (cst.Name, cst.Attribute, cst.Subscript)):
        return True
    return isinstance(rows, cst.Call) and isinstance(rows.func, cst.Attribute) \
        and rows.func.attr.value in _SAME_ROWS and rows_of_one_tensor(rows.func.value)
