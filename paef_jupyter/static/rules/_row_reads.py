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


ROW_HINT = """\
# before the loop over rows: every row's value at once, one copy to the host
values = <the expression with t[u] -> t, per-row reductions over dim 1, per-row picks as index tensors>.tolist()
# in the loop
value = values[u]"""


def row_read_fix(facts: Facts, item: cst.Call, taken: set[str]) -> Fix | str | None:
    """For `item` (`<expr>.item()` reading row `u` of a loop `for u in range(...)`): the fix
    that reads every row's value at once, or why that is not proved, or None when `item`
    reads no row of such a loop. Proved for `t[u].<reduction>()` only: `u` is not rebound in
    the loop, `t` is a tensor the loop neither rebinds nor changes in place (no tensor is
    changed in place there at all), and the reduction takes no arguments."""
    receiver = item.func.value if isinstance(item.func, cst.Attribute) and not item.args else None
    if receiver is None:
        return None
    loop = next((lp for lp in facts.enclosing_loops(item) if isinstance(lp.node, cst.For)
                 and isinstance(lp.node.target, cst.Name) and lp.node.target.value in facts.names_read(receiver)), None)
    if loop is None or not isinstance(loop.node.iter, cst.Call) or facts.qualified_name(loop.node.iter.func) != "builtins.range":
        return None
    var = loop.node.target.value  # type: ignore[union-attr]
    reduction = receiver
    row = reduction.func.value if isinstance(reduction, cst.Call) and isinstance(reduction.func, cst.Attribute) else None
    whole_row = isinstance(row, cst.Subscript) and isinstance(row.value, cst.Name) and len(row.slice) == 1 \
        and isinstance(row.slice[0].slice, cst.Index) and isinstance(row.slice[0].slice.value, cst.Name) \
        and row.slice[0].slice.value.value == var
    per_row = (facts.names_read(receiver) & facts.names_written(loop.node.body)) - {var}
    if whole_row:
        per_row.discard(row.value.value)  # type: ignore[union-attr]  # the tensor itself: checked below
    if per_row:
        names = ", ".join(f"`{n}`" for n in sorted(per_row))
        return (f"{names} is computed row by row in this loop and picks what is read: compute every row's {names} "
                "first (one tensor), then read all rows with one vectorised expression; not rewritten, since that "
                "splits the loop in two and needs the ranks of the tensors read, which the analysis does not prove")
    if not whole_row:
        return f"only `t[{var}].<reduction>()` (a whole row `{var}` of a tensor) is rewritten"
    name = reduction.func.attr.value  # type: ignore[union-attr]
    if name not in EXACT_REDUCTIONS or reduction.args:  # type: ignore[union-attr]
        return (f"`.{name}(...)` of every row at once may round or group differently from row by row: only "
                f"{', '.join(f'`{r}()`' for r in sorted(EXACT_REDUCTIONS))} are rewritten")
    tensor = row.value
    if var in facts.names_written(loop.node.body) or var in locally_bound(facts, item):
        return f"`{var}` is rebound inside the loop"
    if facts.kind(tensor) is not Kind.TENSOR:
        return f"`{tensor.value}` is not proved to be a tensor"
    if not invariant(facts, tensor, loop) or not changes_no_tensor(facts, loop.node):
        return f"the loop may change `{tensor.value}` (or a tensor sharing its memory) between the rows it reads"
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
