"""A tensor's rows walked on the host, each row's numbers written into fresh target tensors.

YOLO's `build_targets`: `for b, c, x, y, w, h in targets.tolist():` computes a grid cell and the
best anchor from the row's numbers (host arithmetic, a small tensor, a pure helper) and writes
`obj_mask[int(b), best, gj, gi] = True`, `tbox[...] = ...`, `tcls[...] = int(c)` into tensors the
function allocated before the loop. Each row costs Python arithmetic, small tensor ops and one
indexing op (a kernel launch on a GPU) per write, while the columns of `targets` give every row's
indices and values at once and one advanced-index write per target tensor does every row.
`_element_stores` sees loops that write numbers read from Python data at the loop's own indices;
the fact missing there is this one: indices and values *computed* per row from a tensor's rows.

What is proved (else silent): the loop iterates `t.tolist()` of a tensor `t` into plain names;
every statement of its body is a plain assignment, either of names (each bound once, read only
after its binding: nothing carried from row to row) or of one element `X[i, ...]` of a tensor `X`
made by a torch factory before the loop in the same function and never read in the loop; every
value is host arithmetic, number casts, `math`, non-random torch functions, tensor methods (no
`.item()`/`.tolist()` read back, no `append`) or a pure program function of the module, of the
row's names, names bound earlier in the body and names the loop does not write; no module call,
branch, `break`/`continue`; at least one write's index depends on the row. Always a hint: the
whole-column form of each value (and what to do where two rows share an index: the loop keeps
the last write, an advanced-index write keeps an unspecified one) is the user's to write.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..facts import Facts
from ..names import bound_names
from ..types import Kind

# Fresh allocations whose every element the program then chooses to write.
_FACTORIES = frozenset({"zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like"})
_CASTS = frozenset({"builtins.int", "builtins.float", "builtins.round", "builtins.abs", "builtins.min", "builtins.max"})
_READ_BACK = frozenset({"item", "tolist", "numpy", "append", "extend", "cpu", "backward"})


@dataclass(frozen=True)
class HostRowWrites:
    rows: cst.BaseExpression  # the tensor whose rows the loop walks
    targets: tuple[str, ...]  # the tensors written, in order


def host_row_writes(facts: Facts, loop: cst.For, is_tensor: "callable[[cst.BaseExpression], bool]") -> HostRowWrites | None:  # type: ignore[valid-type]
    """The loop's rows and written tensors when it has the shape of the module docstring."""
    it = loop.iter
    if loop.orelse is not None or not (isinstance(it, cst.Call) and not it.args and isinstance(it.func, cst.Attribute)
                                       and it.func.attr.value == "tolist" and is_tensor(it.func.value)):
        return None
    row = set(bound_names(loop.target))
    if not row or not _plain_target(loop.target):
        return None
    func = facts.enclosing_function(loop)
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    if func is None or not body:
        return None
    written_in_loop = facts.names_written(loop.body)
    derived = set(row)
    targets: list[str] = []
    row_index = False
    for stmt in body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
            return None
        target, value = small.targets[0].target, small.value
        if not _row_value(facts, value, derived, written_in_loop, is_tensor):
            return None
        if isinstance(target, cst.Subscript):
            base = target.value
            if not (isinstance(base, cst.Name) and base.value not in derived and _fresh_before(facts, base, loop, func)):
                return None
            for element in target.slice:
                part = element.slice
                if isinstance(part, cst.Index):
                    if not _row_value(facts, part.value, derived, written_in_loop, is_tensor):
                        return None
                    row_index = row_index or bool(facts.names_read(part.value) & derived)
                elif not all(b is None or isinstance(b, cst.Integer) for b in (part.lower, part.upper, part.step)):
                    return None
            if base.value not in targets:
                targets.append(base.value)
        elif _plain_target(target):
            names = set(bound_names(target))
            if names & derived:
                return None  # rebound in the body: a value carried or replaced within the row
            derived |= names
        else:
            return None
    if not targets or not row_index:
        return None
    if any(isinstance(n, cst.Name) and n.value in targets and not _store_base(facts, n) for n in facts.walk(loop.body)):
        return None  # a target read in the loop: a row may depend on an earlier row's write
    end = facts.order(loop) + sum(1 for _ in facts.walk(loop))
    for target in targets:
        for use in facts.uses(target):
            if facts.order(use) < end and facts.contains(func, use) and not facts.contains(loop.body, use) \
                    and not isinstance(facts.parent(use), cst.AssignTarget):
                return None  # read between its allocation and the loop (`alias = heat`): a row may read it through that
    return HostRowWrites(it.func.value, tuple(targets))


def _plain_target(target: cst.BaseExpression) -> bool:
    if isinstance(target, cst.Name):
        return True
    return isinstance(target, (cst.Tuple, cst.List)) and all(
        isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements)


def _store_base(facts: Facts, name: cst.Name) -> bool:
    """`name` is the tensor of an element write `name[...] = v` (not a read of it)."""
    sub = facts.parent(name)
    return isinstance(sub, cst.Subscript) and sub.value is name and isinstance(facts.parent(sub), cst.AssignTarget)


def _fresh_before(facts: Facts, name: cst.Name, loop: cst.For, func: cst.CSTNode) -> bool:
    """`name` is bound once in `func`, before the loop, to a torch factory (`torch.zeros(...)`)."""
    value = facts.value_of(name)
    if not isinstance(value, cst.Call):
        return False
    qualified = facts.qualified_name(value.func) or ""
    if not (qualified.startswith("torch.") and qualified.count(".") == 1 and qualified.split(".")[1] in _FACTORIES):
        return False
    binding = next((a for a in facts.ancestors(value) if isinstance(a, cst.Assign)), None)
    return binding is not None and facts.contains(func, binding) and facts.order(binding) < facts.order(loop) \
        and not facts.contains(loop, binding)


def _row_value(facts: Facts, expr: cst.BaseExpression, derived: set[str], written: set[str],
               is_tensor: "callable[[cst.BaseExpression], bool]") -> bool:  # type: ignore[valid-type]
    """Host arithmetic, casts, `math`, non-random torch functions, tensor methods and pure
    module-level program functions of the row's names, names bound earlier in the body, and
    names the loop does not write."""
    if facts.names_read(expr) & written - derived:
        return False  # read before this row binds it: carried from the previous row
    for n in facts.walk(expr):
        if isinstance(n, (cst.Lambda, cst.ListComp, cst.GeneratorExp, cst.DictComp, cst.SetComp, cst.Await, cst.Yield,
                          cst.NamedExpr)):
            return False
        if not isinstance(n, cst.Call):
            continue
        if any(a.star for a in n.args) or facts.draws_random(n) or facts.kind(n.func) is Kind.MODULE:
            return False
        qualified = facts.qualified_name(n.func) or ""
        if isinstance(n.func, cst.Name) and n.func.value in facts.functions:
            func = facts.functions[n.func.value]
            if facts.enclosing_class(func) is not None or not facts.is_pure_function(n.func.value):
                return False
            if any(isinstance(c.func, cst.Name) and c.func.value in facts.functions or facts.kind(c.func) is Kind.MODULE
                   for c in facts.calls_in(func.body)):
                return False  # a helper of helpers (or of a model): more than row arithmetic
            continue
        if isinstance(n.func, cst.Attribute) and not qualified:
            receiver = n.func.value
            made = isinstance(receiver, cst.Call) and (isinstance(receiver.func, cst.Name) and receiver.func.value
                                                       in facts.functions or (facts.qualified_name(receiver.func) or "")
                                                       .startswith("torch."))
            if n.func.attr.value in _READ_BACK or facts.kind(receiver) is Kind.MODULE or not (made or is_tensor(receiver)):
                return False  # (a helper's or a torch function's result: checked as a call of its own)
            continue
        if qualified in _CASTS or qualified.startswith("math."):
            continue
        if not qualified.startswith("torch.") or qualified.startswith("torch.nn.") \
                and not qualified.startswith("torch.nn.functional."):
            return False
    return True
