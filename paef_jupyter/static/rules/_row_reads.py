"""`t[u].argmax().item()` in a loop over `u`: one host read (a device sync) per row, where one
`.tolist()` of the reduction over every row gives each row's value.

Only reductions whose result does not depend on how the elements are grouped (an index, a
maximum, a truth value: no rounding) are taken, and the row values are computed when the
first one is needed (so a loop that never reads one, or an error, happens where it did)."""

from __future__ import annotations

import libcst as cst

from ...fix.edits import fresh_name, insert_before, replace
from ...model import Fix
from ..facts import Facts
from ..types import Kind
from ._tensor_facts import changes_no_tensor, invariant, locally_bound

# `row.<name>()` -> `rows.<name>(1)<suffix>`: the same value per row, exactly.
EXACT_REDUCTIONS = {"argmax": "", "argmin": "", "amax": "", "amin": "", "max": ".values", "min": ".values",
                    "any": "", "all": ""}


def row_read_fix(facts: Facts, item: cst.Call, taken: set[str]) -> Fix | None:
    """The fix that reads every row's value at once, for `item` (`t[u].<reduction>().item()`),
    or None when it is not proved: `u` is the target of a `for u in range(...)` around it that
    does not rebind it, `t` is a tensor that loop neither rebinds nor changes in place (no
    tensor is changed in place there at all), and the reduction takes no arguments."""
    reduction = item.func.value if isinstance(item.func, cst.Attribute) and not item.args else None
    if not (isinstance(reduction, cst.Call) and not reduction.args and isinstance(reduction.func, cst.Attribute)
            and reduction.func.attr.value in EXACT_REDUCTIONS):
        return None
    row = reduction.func.value
    if not (isinstance(row, cst.Subscript) and isinstance(row.value, cst.Name) and len(row.slice) == 1
            and isinstance(row.slice[0].slice, cst.Index) and isinstance(row.slice[0].slice.value, cst.Name)):
        return None
    tensor, var = row.value, row.slice[0].slice.value.value
    loop = next((lp for lp in facts.enclosing_loops(item) if isinstance(lp.node, cst.For)
                 and isinstance(lp.node.target, cst.Name) and lp.node.target.value == var), None)
    if loop is None or not isinstance(loop.node.iter, cst.Call) or facts.qualified_name(loop.node.iter.func) != "builtins.range":
        return None  # a range's values are ints: `values[u]` picks what `t[u]` did
    if var in facts.names_written(loop.node.body) or var in locally_bound(facts, item) or facts.kind(tensor) is not Kind.TENSOR:
        return None
    if not invariant(facts, tensor, loop) or not changes_no_tensor(facts, loop.node):
        return None
    name = reduction.func.attr.value
    cache = fresh_name(facts, f"{tensor.value}_{name}", taken)
    taken.add(cache)
    # `unsqueeze(-1).flatten(1)`: one row per `t[u]` whatever `t`'s rank (1-D rows become 1-element rows)
    whole = f"{tensor.value}.unsqueeze(-1).flatten(1).{name}(1){EXACT_REDUCTIONS[name]}.tolist()"
    return Fix(
        description=f"read `{tensor.value}`'s per-row {name} once per loop (`{whole}`), when the first row's is "
                    "needed, instead of one host copy per row",
        edits=(insert_before(facts, loop.node, f"{cache} = None"),
               replace(facts, item, f"({cache} if {cache} is not None else ({cache} := {whole}))[{var}]")),
        suggestion=f"{cache} = {whole}  # before the loop: one copy\n...\n{cache}[{var}]  # in the loop",
    )
