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
from ._column_kinds import Kind, Scope, kind_of, list_of
from ._tensor_facts import reads_of

# Calls that read a list without changing it or keeping it.
_READERS = frozenset({
    "builtins.len", "builtins.sum", "builtins.min", "builtins.max", "builtins.sorted", "builtins.any", "builtins.all",
    "builtins.print", "builtins.repr", "builtins.str", "builtins.list", "builtins.tuple", "builtins.set",
    "builtins.zip", "builtins.enumerate", "statistics.mean", "statistics.median", "statistics.fmean",
})
# Dict methods that only read it (`keys`) or hand out a column (`get`, `items`, `values`: treated as changes).
# (`copy` is not one: a shallow copy holds the same column lists, see `_shallow_copy_written`.)
_DICT_READERS = frozenset({"keys", "__contains__"})


def column_written(facts: Facts, d: str, key: str | None, literal: cst.Dict | None = None,
                   kind: Kind | None = None) -> bool:
    """`facts`' unit may change column `key` (every column when None) of the dict named `d`
    other than through the binding to `literal`. With the column's `kind` (its elements' Python
    type, rows' width), a write whose values are provably of that kind does not count, and a local
    function handed the dict is read: its writes are judged the same way."""
    scope = Scope(facts, d, key, kind) if key is not None and kind is not None else None
    return any(_written_by(facts, name, d, key, literal, scope) for name in reads_of(facts, d))


def _written_by(facts: Facts, name: cst.Name, d: str, key: str | None, literal: cst.Dict | None,
                scope: Scope | None, depth: int = 0) -> bool:
    """This read of the dict's name may change the column."""
    parent = facts.parent(name)
    if isinstance(parent, cst.AssignTarget):
        stmt = facts.parent(parent)
        return not (literal is not None and isinstance(stmt, cst.Assign) and stmt.value is literal)  # `d = ...` again
    if isinstance(parent, cst.Subscript) and parent.value is name:
        other = _literal_key(parent)
        if key is not None and other is not None and other != key:
            return False  # another column
        return _column_use_writes(facts, parent, scope)
    if isinstance(parent, cst.Attribute) and parent.value is name:
        if parent.attr.value == "update" and scope is not None:
            return not _update_keeps_kind(facts, parent, scope)
        if parent.attr.value == "copy":
            return _shallow_copy_written(facts, facts.parent(parent), key, scope, depth)
        return parent.attr.value not in _DICT_READERS  # `d.setdefault(...)`, `for k, col in d.items(): ...`
    if isinstance(parent, cst.StarredDictElement):  # `{**d, ...}`: a new dict holding the same column lists
        return _shallow_copy_written(facts, facts.parent(parent), key, scope, depth)
    if isinstance(parent, cst.Arg):
        call = facts.parent(parent)
        if isinstance(call, cst.Call) and (facts.qualified_name(call.func) or "") in _READERS:
            return False
        return not (scope is not None and isinstance(call, cst.Call) and _helper_keeps_kind(facts, call, parent, scope, depth))
    if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.Element, cst.AugAssign, cst.Del)):
        return True  # another name (or a container) for the dict
    if scope is not None and scope.caller is not None:
        return not isinstance(parent, (cst.Comparison, cst.ComparisonTarget))  # in a helper: `return d`, `yield d`, ...
    return False


def _shallow_copy_written(facts: Facts, copy: cst.CSTNode | None, key: str | None, scope: Scope | None,
                          depth: int) -> bool:
    """`c = d.copy()` / `c = {**d, ...}`: a new dict whose columns are the same list objects (red team
    30a: `report["ts"][k] = mean_ts` through the copy changed the training dict's column). Judged as
    the dict itself through every read of `c`; a copy not bound to one plain name may be changed
    anywhere (written)."""
    parent = facts.parent(copy) if copy is not None else None
    if isinstance(copy, cst.Call) and isinstance(parent, cst.Call):
        return True  # `d.copy()(...)`: not a plain copy
    target = parent.targets[0].target if isinstance(parent, cst.Assign) and len(parent.targets) == 1 else None
    if depth > 3 or not isinstance(target, cst.Name) or (isinstance(copy, cst.Dict) and key is not None and any(
            isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString) and el.key.evaluated_value == key
            for el in copy.elements)):
        return not isinstance(target, cst.Name)  # (the copy's own literal entry replaces the column: not shared)
    inner = Scope(facts, target.value, scope.key, scope.kind, scope.passed, scope.caller, scope.function) \
        if scope is not None else None
    return any(_written_by(facts, n, target.value, key, None, inner, depth + 1) for n in reads_of(facts, target.value)
               if n is not target)


def _update_keeps_kind(facts: Facts, attr: cst.Attribute, scope: Scope) -> bool:
    """`d.update(k=[...])` / `d.update({"k": [...]})` writes the column with a list of its kind
    (other keys are other columns)."""
    call = facts.parent(attr)
    if not isinstance(call, cst.Call) or call.func is not attr:
        return False
    for arg in call.args:
        if arg.star:
            return False
        if arg.keyword is not None:
            if arg.keyword.value == scope.key and not list_of(scope, arg.value):
                return False
            continue
        if not isinstance(arg.value, cst.Dict):
            return False
        for el in arg.value.elements:
            if not isinstance(el, cst.DictElement) or not isinstance(el.key, cst.SimpleString):
                return False
            if el.key.evaluated_value == scope.key and not list_of(scope, el.value):
                return False
    return True


def _helper_keeps_kind(facts: Facts, call: cst.Call, arg: cst.Arg, scope: Scope, depth: int) -> bool:
    """`call` runs a plain function of this unit given the dict positionally: every use of its
    parameter there keeps the column's kind (judged with what the call passed for the others)."""
    if depth > 3 or not isinstance(call.func, cst.Name) or arg.keyword is not None or arg.star:
        return False
    callees = facts._callees(call)
    if len(callees) != 1 or not isinstance(callees[0], cst.FunctionDef) \
            or not any(f is callees[0] for f in facts.functions.values()):
        return False  # (a function of another unit: its body is not in `facts`)
    func = callees[0]
    params = func.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT and not isinstance(params.star_arg, cst.ParamStar) \
            or params.star_kwarg is not None or params.posonly_params:
        return False
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args) or len(positional) > len(params.params):
        return False
    names = [p.name.value for p in params.params]
    param = names[positional.index(arg)]
    passed = {names[i]: (facts, a.value) for i, a in enumerate(positional)}
    passed.update({a.keyword.value: (facts, a.value) for a in call.args if a.keyword is not None})
    inner = Scope(facts, param, scope.key, scope.kind, passed, scope, func)
    reads = [n for n in reads_of(facts, param, func) if facts.enclosing_function(n) is func]
    return not any(_written_by(facts, n, param, scope.key, None, inner, depth + 1) for n in reads
                   if not (isinstance(facts.parent(n), cst.Param)))


def _column_use_writes(facts: Facts, column: cst.Subscript, scope: Scope | None = None) -> bool:
    """`d["k"]` (or a row / element of it: `d["k"][i]`) is assigned, deleted, changed by a method,
    handed to a call that may change or keep it, or bound to another name; iterated by a `for`
    whose body changes its rows. With a `scope`, a write of values of the column's kind is not."""
    top: cst.CSTNode = column
    while isinstance(parent := facts.parent(top), cst.Subscript) and parent.value is top:
        top = parent
    parent = facts.parent(top)
    if scope is not None and _keeps_kind(facts, column, top, parent, scope):
        return False
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


def _keeps_kind(facts: Facts, column: cst.Subscript, top: cst.CSTNode, parent: cst.CSTNode, scope: Scope) -> bool:
    """A write of the column whose values are provably of its kind: `d["k"] = <list of it>`,
    `d["k"] += <list>`, `d["k"].append(<value>)` / `.extend(<list>)` / `.insert(i, <value>)`,
    `d["k"][i] = <value>`, `d["k"][a:b] = <list>`."""
    stmt = facts.parent(parent) if isinstance(parent, cst.AssignTarget) else None
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1:
        if top is column:
            return list_of(scope, stmt.value)
        if isinstance(top, cst.Subscript) and top.value is column and len(top.slice) == 1:
            index = top.slice[0].slice
            return list_of(scope, stmt.value) if isinstance(index, cst.Slice) else kind_of(scope, stmt.value) == scope.kind
        return False
    if isinstance(parent, cst.AugAssign) and parent.target is column and isinstance(parent.operator, cst.AddAssign):
        return list_of(scope, parent.value)
    if isinstance(parent, cst.Attribute) and parent.value is column:
        call = facts.parent(parent)
        if not isinstance(call, cst.Call) or call.func is not parent or any(a.keyword or a.star for a in call.args):
            return False
        values = [a.value for a in call.args]
        method = parent.attr.value
        if method == "append" and len(values) == 1:
            return kind_of(scope, values[0]) == scope.kind
        if method == "extend" and len(values) == 1:
            return list_of(scope, values[0])
        if method == "insert" and len(values) == 2:
            return kind_of(scope, values[1]) == scope.kind
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
