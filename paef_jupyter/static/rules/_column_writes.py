"""Whether a dict-of-lists column may hold other values than its dict literal says.

dict-as-list judges a column (`data["ids"]`) by the value the dict literal gives it (a uniform
list: `.tolist()` of a tensor, a literal list of numbers of one type). Code between the literal
and the loop can change that: the column rebound (`data["ids"] = [row[:n] for ...]`: ragged rows;
`data["ts"] = [t if t else mean for t in ...]`: ints mixed with a float), changed in place
(`.extend(...)`, `data["ids"][k] = row[:2]`, `del`), handed to a function or bound to another name
that may do either, or the dict itself updated (`data.update(...)`). Converting the whole column
once then differs from converting each batch (a ValueError on ragged rows, float32 for every batch
where only some held a float). Read-only uses (indexing, `len`, iteration in a comprehension, the
per-batch constructors themselves) keep the literal's verdict."""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ..names import is_inplace_method, root_name
from ._tensor_facts import reads_of

# Calls that read a list without changing it or keeping it.
_READERS = frozenset({
    "builtins.len", "builtins.sum", "builtins.min", "builtins.max", "builtins.sorted", "builtins.any", "builtins.all",
    "builtins.print", "builtins.repr", "builtins.str", "builtins.list", "builtins.tuple", "builtins.set",
    "builtins.zip", "builtins.enumerate", "statistics.mean", "statistics.median", "statistics.fmean",
})
# Dict methods that only read it (`keys`) or hand out a column (`get`, `items`, `values`: treated as changes).
_DICT_READERS = frozenset({"keys", "copy", "__contains__"})


def column_written(facts: Facts, d: str, key: str | None, literal: cst.Dict | None = None) -> bool:
    """`facts`' unit may change column `key` (every column when None) of the dict named `d`
    other than through the binding to `literal`."""
    for name in reads_of(facts, d):
        parent = facts.parent(name)
        if isinstance(parent, cst.AssignTarget):
            stmt = facts.parent(parent)
            if literal is not None and isinstance(stmt, cst.Assign) and stmt.value is literal:
                continue
            return True  # `d = ...` again: another dict
        if isinstance(parent, cst.Subscript) and parent.value is name:
            other = _literal_key(parent)
            if key is not None and other is not None and other != key:
                continue  # another column
            if _column_use_writes(facts, parent):
                return True
            continue
        if isinstance(parent, cst.Attribute) and parent.value is name:
            if parent.attr.value not in _DICT_READERS:
                return True  # `d.update(...)`, `d.setdefault(...)`, `for k, col in d.items(): col.append(...)`
            continue
        if isinstance(parent, cst.Arg):
            call = facts.parent(parent)
            if not (isinstance(call, cst.Call) and (facts.qualified_name(call.func) or "") in _READERS):
                return True  # a function given the dict may change it
            continue
        if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.Element, cst.AugAssign, cst.Del)):
            return True  # another name (or a container) for the dict
    return False


def _column_use_writes(facts: Facts, column: cst.Subscript) -> bool:
    """`d["k"]` (or a row / element of it: `d["k"][i]`) is assigned, deleted, changed by a method,
    handed to a call that may change or keep it, or bound to another name; iterated by a `for`
    whose body changes its rows."""
    top: cst.CSTNode = column
    while isinstance(parent := facts.parent(top), cst.Subscript) and parent.value is top:
        top = parent
    parent = facts.parent(top)
    if isinstance(parent, (cst.AssignTarget, cst.Del)) or isinstance(parent, cst.AugAssign) and parent.target is top:
        return True
    if isinstance(parent, cst.Attribute) and parent.value is top:
        call = facts.parent(parent)
        return isinstance(call, cst.Call) and call.func is parent and is_inplace_method(parent.attr.value)
    if isinstance(parent, cst.Arg):
        call = facts.parent(parent)
        qualified = facts.qualified_name(call.func) if isinstance(call, cst.Call) else None
        return not (qualified in _READERS or (qualified or "").startswith(("torch.", "numpy.")))
    if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.Element, cst.WithItem, cst.Return)) \
            and getattr(parent, "value", None) is top or isinstance(parent, (cst.Element, cst.NamedExpr)):
        return True  # `rows = d["k"]`: changed (or kept) through another name
    if isinstance(parent, cst.For) and parent.iter is top:
        targets = {n.value for n in facts.walk(parent.target) if isinstance(n, cst.Name)}
        return any(_changes(facts, node, targets) for node in facts.walk(parent.body))
    return False


def _changes(facts: Facts, node: cst.CSTNode, names: set[str]) -> bool:
    """`node` changes an object one of `names` holds: `row[i] = ...`, `row += ...`, `row.append(...)`."""
    if isinstance(node, cst.AssignTarget) and not isinstance(node.target, cst.Name):
        return root_name(node.target) in names
    if isinstance(node, cst.AugAssign):
        return root_name(node.target) in names
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and is_inplace_method(node.func.attr.value):
        return root_name(node.func.value) in names
    return False


def _literal_key(sub: cst.Subscript) -> str | None:
    if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
        return None
    key = sub.slice[0].slice.value
    return key.evaluated_value if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str) else None
