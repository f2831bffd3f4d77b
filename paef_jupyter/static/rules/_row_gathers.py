"""`torch.stack([h[i, idx[i]] for i in range(B)])`: one element (or row) picked per row `i`,
stacked. One advanced index, `h[torch.arange(B, device=h.device), idx]`, picks them all.

Only the expression is derived here (the rule words the hint): whether `idx[i]` is one index
or several (then the row index needs `[:, None]`) and whether the range covers every row of
`idx` are not provable from the text, so this is never an automatic rewrite."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..facts import Facts

_ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


@dataclass(frozen=True)
class RowGather:
    data: cst.BaseExpression  # the tensor rows are picked from
    sources: tuple[cst.BaseExpression, ...]  # the tensors read row by row for the indices (`idx` of `idx[i]`)
    gather: str  # the advanced index doing every row at once


def row_gather(facts: Facts, elt: cst.BaseExpression, var: str, count: str,
               per_row: dict[str, str]) -> RowGather | None:
    """`elt` indexes a tensor with `var` first and, after it, indices computed only from row
    `var` of other tensors (`idx[i]`, `lengths[i] - 1`, or a name standing for such a row,
    `per_row`: `j` of `enumerate(t)` is `t[i]`), numbers and names the row does not change."""
    parts: list[cst.BaseExpression] = []
    trailing = 0  # full slices after the indices (`x[b, idx[b], :]`): kept as they are after the gather
    node = elt
    if isinstance(node, cst.Subscript):
        elements = list(node.slice)
        while elements and _full_slice(elements[-1].slice):
            elements.pop()
            trailing += 1
        if trailing and (not elements or not all(isinstance(el.slice, cst.Index) for el in elements)):
            return None
        if trailing:
            parts = [el.slice.value for el in elements]  # type: ignore[union-attr]
            node = node.value
    while isinstance(node, cst.Subscript) and not trailing:
        if not all(isinstance(el.slice, cst.Index) for el in node.slice):
            return None
        parts = [el.slice.value for el in node.slice] + parts  # type: ignore[union-attr]
        node = node.value
    if not isinstance(node, (cst.Name, cst.Attribute)) or var in facts.names_read(node) or len(parts) < 2:
        return None
    if not (isinstance(parts[0], cst.Name) and parts[0].value == var):
        return None
    rest = [_whole(facts, p, var, per_row) for p in parts[1:]]
    if None in rest or not any(_reads_row(facts, p, var, per_row) for p in parts[1:]):
        return None  # `h[i, 0]` picks a fixed column: a slice, `h[:B, 0]`, not a gather
    data = facts.code(node)
    rows = f"torch.arange({count}, device={data}.device)"
    sources = tuple(s.value for p in parts[1:] for s in facts.walk(p)
                    if isinstance(s, cst.Subscript) and facts.names_read(s.slice[0]) == {var})
    return RowGather(node, sources, f"{data}[{', '.join([rows, *rest, *[':'] * trailing])}]")  # type: ignore[list-item]


def _full_slice(part: cst.BaseSlice) -> bool:
    """`:` (every index of a dimension)."""
    return isinstance(part, cst.Slice) and part.lower is None and part.upper is None and part.step is None


def _reads_row(facts: Facts, expr: cst.BaseExpression, var: str, per_row: dict[str, str]) -> bool:
    return bool(facts.names_read(expr) & ({var} | set(per_row)))


def _whole(facts: Facts, expr: cst.BaseExpression, var: str, per_row: dict[str, str]) -> str | None:
    """The index over every row: `idx[i]` -> `idx`, `lengths[i] - 1` -> `lengths - 1`; None when
    the row variable is used any other way (`i` itself as a value, a call on the row)."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return facts.code(expr)
    if isinstance(expr, cst.Name):
        if expr.value in per_row:
            return per_row[expr.value]
        return None if expr.value == var else facts.code(expr)
    scalar = _scalar_of(expr)
    if scalar is not None and scalar.value in per_row:  # `j.item()`, `int(j)`, legacy `j.data[0]`: the row's one value
        return per_row[scalar.value]
    if isinstance(expr, cst.Attribute):
        return None if facts.names_read(expr) & ({var} | set(per_row)) else facts.code(expr)
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
            and isinstance(expr.slice[0].slice.value, cst.Name) and expr.slice[0].slice.value.value == var \
            and isinstance(expr.value, (cst.Name, cst.Attribute)) and var not in facts.names_read(expr.value):
        return facts.code(expr.value)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ARITH):
        left, right = _whole(facts, expr.left, var, per_row), _whole(facts, expr.right, var, per_row)
        if left is None or right is None:
            return None
        op = facts.code(expr.operator).strip()
        return f"{_grouped(expr.left, left)} {op} {_grouped(expr.right, right)}"
    return None


def _scalar_of(expr: cst.BaseExpression) -> cst.Name | None:
    """`j` of `j.item()`, `int(j)` and of `j.data[0]` (PyTorch 0.3's spelling of a 1-element value)."""
    if isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) \
            and expr.func.attr.value == "item" and isinstance(expr.func.value, cst.Name):
        return expr.func.value
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "int" \
            and len(expr.args) == 1 and isinstance(expr.args[0].value, cst.Name):
        return expr.args[0].value
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
            and isinstance(expr.slice[0].slice.value, cst.Integer) and expr.slice[0].slice.value.value == "0" \
            and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "data" \
            and isinstance(expr.value.value, cst.Name):
        return expr.value.value
    return None


def _grouped(original: cst.BaseExpression, text: str) -> str:
    return f"({text})" if isinstance(original, cst.BinaryOperation) else text
