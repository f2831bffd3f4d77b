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
    node = elt
    while isinstance(node, cst.Subscript):
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
    return RowGather(node, sources, f"{data}[{', '.join([rows, *rest])}]")  # type: ignore[list-item]


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


def _grouped(original: cst.BaseExpression, text: str) -> str:
    return f"({text})" if isinstance(original, cst.BinaryOperation) else text
