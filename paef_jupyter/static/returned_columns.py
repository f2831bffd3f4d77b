"""Columns of records that a program's own function or method returns: `zip(*records)`.

A replay or rollout buffer usually transposes its records inside a method (`def sample(self):
return zip(*random.sample(self.buffer, k))`) and the caller unpacks the columns
(`states, actions, log_probs = self.memory.sample()`). Read at the call, the columns are an
unknown call's result; read through the callee, they are one field of each stored record, the
same fact as `zip(*batch)` written in the caller. Only a callee this unit owns and can name for
sure (a top-level function bound once, or a method of the class the receiver was built from)
counts, and only when every `return` of it gives `zip(*E)`: a callee that returns other things on
other paths says nothing about the columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .facts import Facts, FunctionNode, method_of_object, param_names, same_object, single_method_of_object

_SAMPLERS = frozenset({"random.sample", "random.choices"})
_COPIES = frozenset({"builtins.list", "builtins.tuple"})


@dataclass(frozen=True)
class ReturnedColumns:
    """What a call's columns are columns of."""

    callee: FunctionNode
    records: cst.BaseExpression  # at the call: the call itself (stored records) or the argument passed
    stored: bool  # the records are the receiver's own (`self.buffer`): read again at every call
    attribute: str | None = None  # `buffer` of `self.buffer`, for stored records


def returned_columns(facts: Facts, call: cst.BaseExpression) -> ReturnedColumns | None:
    """`call` runs a function of this unit whose every return is `zip(*E)`, `E` the object's
    stored records (an expression of `self` attributes) or one of its parameters (then the
    records are the argument this call passes)."""
    if not isinstance(call, cst.Call):
        return None
    callee = _callee(facts, call)
    if callee is None:
        return None
    returns = [n for n in facts.walk(callee.body, into_scopes=False) if isinstance(n, cst.Return)]
    if not returns or any(isinstance(n, (cst.Yield, cst.Await)) for n in facts.walk(callee.body, into_scopes=False)):
        return None
    found: ReturnedColumns | None = None
    for ret in returns:
        records = _zip_star(facts, _bound_once(facts, callee, ret.value)) if ret.value is not None else None
        if records is None:
            return None
        here = _classify(facts, callee, call, records)
        if here is None or (found is not None and (found.stored, found.records) != (here.stored, here.records)):
            return None
        found = here
    return found


def _callee(facts: Facts, call: cst.Call) -> FunctionNode | None:
    func = call.func
    if isinstance(func, cst.Name):
        method = facts.functions.get(func.value)
        if method is None or facts.assigned_values(func.value) or facts.enclosing_function(method) is not None \
                or sum(1 for n in facts.walk(facts.module) if isinstance(n, cst.FunctionDef) and n.name.value == func.value) != 1:
            return None  # rebound, nested, or defined twice: not the one function for sure
        return method
    return single_method_of_object(facts, func)


def _bound_once(facts: Facts, callee: FunctionNode, value: cst.BaseExpression) -> cst.BaseExpression:
    """`cols` of `cols = zip(*batch); return cols`: the one value the callee gives that local."""
    if isinstance(value, cst.Name):
        values = facts.values_in(value.value, callee)
        if len(values) == 1 and value.value not in param_names(callee):
            return values[0]
    return value


def _zip_star(facts: Facts, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    if isinstance(expr, cst.Call) and facts.qualified_name(expr.func) == "builtins.zip" and len(expr.args) == 1 \
            and expr.args[0].star == "*":
        return expr.args[0].value
    return None


def _classify(facts: Facts, callee: FunctionNode, call: cst.Call, records: cst.BaseExpression) -> ReturnedColumns | None:
    inner = _bound_once(facts, callee, records)
    while isinstance(inner, cst.Call) and (facts.qualified_name(inner.func) or "") in _SAMPLERS | _COPIES and inner.args \
            and inner.args[0].keyword is None and not inner.args[0].star:
        inner = _bound_once(facts, callee, inner.args[0].value)
    if isinstance(inner, cst.Subscript):  # `self.buffer[-n:]`: the latest records
        inner = inner.value
    if isinstance(inner, cst.Attribute) and isinstance(inner.value, cst.Name) and inner.value.value == "self" \
            and isinstance(call.func, cst.Attribute):
        return ReturnedColumns(callee, call, True, inner.attr.value)
    if isinstance(inner, cst.Name) and inner.value in param_names(callee) and inner.value != "self":
        argument = _argument(callee, call, inner.value)
        return ReturnedColumns(callee, argument, False) if argument is not None else None
    return None


def _argument(callee: FunctionNode, call: cst.Call, param: str) -> cst.BaseExpression | None:
    """The expression `call` passes for `param` (plain positional or keyword arguments only)."""
    if any(a.star for a in call.args):
        return None
    params = [p.name.value for p in callee.params.params]
    if isinstance(call.func, cst.Attribute) and params and params[0] == "self":
        params = params[1:]
    for a in call.args:
        if a.keyword is not None and a.keyword.value == param:
            return a.value
    positional = [a.value for a in call.args if a.keyword is None]
    index = params.index(param) if param in params else -1
    return positional[index] if 0 <= index < len(positional) else None


_TUPLE_TYPES = frozenset({"collections.namedtuple", "typing.NamedTuple"})


def namedtuple_fields(facts: Facts, maker: cst.BaseExpression) -> list[str] | None:
    """The field names of the record type `maker` names, in order, when it is this unit's own and
    bound once: `Transition = namedtuple("Transition", ("state", "action"))` (a tuple or list of
    strings, or one string of names split by spaces or commas), `typing.NamedTuple("T", [("state",
    Tensor), ...])`, or `class T(NamedTuple):` with annotated fields. None otherwise (a rebound
    name, fields computed at run time, a library's type): then `Record(*columns).field` says
    nothing about which column the field is."""
    if not isinstance(maker, cst.Name):
        return None
    cls = facts.classes.get(maker.value)
    if cls is not None:
        if facts.assigned_values(maker.value) or not any(
                (facts.qualified_name(b.value) or "") == "typing.NamedTuple" for b in cls.bases):
            return None
        return [st.body[0].target.value for st in cls.body.body  # type: ignore[union-attr]
                if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and isinstance(st.body[0], cst.AnnAssign)
                and isinstance(st.body[0].target, cst.Name)] or None
    values = facts.assigned_values(maker.value)
    if len(values) != 1 or not isinstance(values[0], cst.Call) or len(values[0].args) < 2 \
            or (facts.qualified_name(values[0].func) or "") not in _TUPLE_TYPES:
        return None
    spec = values[0].args[1].value
    if isinstance(spec, cst.SimpleString) and isinstance(spec.evaluated_value, str):
        return spec.evaluated_value.replace(",", " ").split() or None
    if not isinstance(spec, (cst.Tuple, cst.List)):
        return None
    names = []
    for el in spec.elements:
        item = el.value
        if isinstance(item, cst.Tuple) and len(item.elements) == 2:  # `NamedTuple("T", [("state", Tensor)])`
            item = item.elements[0].value
        if not (isinstance(item, cst.SimpleString) and isinstance(item.evaluated_value, str)) or isinstance(el, cst.StarredElement):
            return None
        names.append(item.evaluated_value)
    return names or None


def stored_field_values(facts: Facts, columns: ReturnedColumns, index: int, width: int) -> list[cst.BaseExpression] | None:
    """Every value the program stores at position `index` of the records behind `columns`, or
    None when some store is not read: the callee's class appends to `self.<attribute>` only
    records of `width` fields (a tuple, `Record(*args)` of a `*args` method, fields that are the
    method's parameters), and each call of an appending method is one the analysis names (a
    method of an object of that class), passing the field plainly. The values are read where
    they are written: at the call for a parameter, in the method otherwise."""
    if not columns.stored or columns.attribute is None:
        return None
    cls = next((a for a in facts.ancestors(columns.callee) if isinstance(a, cst.ClassDef)), None)
    if cls is None:
        return None
    attr, out = columns.attribute, []
    if _stored_from_outside(facts, cls, attr):
        return None
    for method in (m for m in cls.body.body if isinstance(m, cst.FunctionDef)):
        for node in facts.walk(method.body, into_scopes=False):
            if isinstance(node, cst.AssignTarget) and _self_attr(node.target.value if isinstance(node.target, cst.Subscript) else None, attr):
                return None  # `self.data[j] = (x, y)`: records written by index, not read here
            if isinstance(node, cst.Assign) and any(_self_attr(t.target, attr) for t in node.targets) \
                    and not _renewed(node.value, attr):
                return None  # the attribute bound to other records
            if not _stores_into(node, attr):
                continue
            if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "append"
                    and len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None):
                if isinstance(node, cst.Call):
                    return None  # `extend`, `insert`, `appendleft` ... of the records: not read here
                continue
            values = _field(facts, cls, method, node.args[0].value, index, width)
            if values is None:
                return None
            out.extend(values)
    return out or None


def _stored_from_outside(facts: Facts, cls: cst.ClassDef, attr: str) -> bool:
    """`memory.buffer.append(r)`, `obj.buffer[i] = r`, `obj.buffer = rows` outside the class:
    records stored where the class's methods do not show them."""
    for node in facts.walk(facts.module):
        if not (isinstance(node, cst.Attribute) and node.attr.value == attr) or facts.contains(cls, node) \
                or isinstance(node.value, cst.Name) and node.value.value == "self":
            continue  # the class's own stores, or another class's own attribute of that name
        parent = facts.parent(node)
        if isinstance(parent, cst.Attribute) and parent.value is node and isinstance(facts.parent(parent), cst.Call) \
                and parent.attr.value not in ("clear", "pop", "popleft", "copy", "count", "index"):
            return True
        if isinstance(parent, cst.Subscript) and isinstance(facts.parent(parent), cst.AssignTarget):
            return True
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign)) or isinstance(parent, cst.Element):
            return True
    return False


def _self_attr(expr: cst.BaseExpression | None, attr: str) -> bool:
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self" \
        and expr.attr.value == attr


def _renewed(value: cst.BaseExpression, attr: str) -> bool:
    """`[]`, `deque(maxlen=n)`, `list()` (emptied), or `self.buffer[-n:]` (trimmed): no new records."""
    if isinstance(value, cst.List) and not value.elements:
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("list", "deque") \
            and all(a.keyword is not None for a in value.args):
        return True
    return isinstance(value, cst.Subscript) and _self_attr(value.value, attr)


def _stores_into(node: cst.CSTNode, attr: str) -> bool:
    """A call of a method of `self.<attr>` (`self.buffer.append(r)`), or an item written into it."""
    target = node.func.value if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) else None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
            and node.func.attr.value in ("clear", "pop", "popleft", "__len__", "copy", "count", "index"):
        return False
    return isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self" \
        and target.attr.value == attr


def _field(facts: Facts, cls: cst.ClassDef, method: FunctionNode, record: cst.BaseExpression, index: int,
           width: int) -> list[cst.BaseExpression] | None:
    star = method.params.star_arg.name.value if isinstance(method.params.star_arg, cst.Param) else None
    if isinstance(record, cst.Name) and record.value in param_names(method) and record.value != star:
        passed = _passed(facts, cls, method, record.value)
        if passed is None:
            return None
        fields = []
        for value in passed:
            got = _field_of_literal(value, index, width)
            if got is None:
                return None
            fields.append(got)
        return fields
    if isinstance(record, cst.Call) and len(record.args) == 1 and record.args[0].star == "*" \
            and isinstance(record.args[0].value, cst.Name) and record.args[0].value.value == star:
        return _passed_positional(facts, cls, method, index, width)  # `self.memory.append(Transition(*args))`
    if isinstance(record, cst.Call) and len(record.args) == width and all(not a.star and a.keyword is None for a in record.args) \
            and isinstance(record.func, cst.Name) and facts.qualified_name(record.func) not in (None, "builtins.tuple", "builtins.list"):
        record = cst.Tuple([cst.Element(a.value) for a in record.args])  # `Transition(s, a, r)`: a namedtuple's fields
    got = _field_of_literal(record, index, width)
    if got is None:
        return None
    if isinstance(got, cst.Name) and got.value in param_names(method) and got.value not in (star, "self"):
        return _passed(facts, cls, method, got.value)
    return [got]


def _field_of_literal(record: cst.BaseExpression, index: int, width: int) -> cst.BaseExpression | None:
    if isinstance(record, (cst.Tuple, cst.List)) and len(record.elements) == width \
            and not any(isinstance(el, cst.StarredElement) for el in record.elements):
        return record.elements[index].value
    return None


def _call_sites(facts: Facts, cls: cst.ClassDef, method: FunctionNode) -> list[cst.Call] | None:
    """Every call of `obj.<method name>(...)` in the unit, when each is one of `cls`'s method
    (the receiver built from `cls`, or `self` in it); None when some other call of that name
    cannot be told apart."""
    name, sites = method.name.value, []
    for call in facts.calls_in(facts.module):
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == name):
            continue
        found = method_of_object(facts, call.func)
        if found is None and isinstance(call.func.value, cst.Attribute):
            found = _self_attribute_method(facts, call.func)
        if found is None and isinstance(call.func.value, cst.Name):
            found = _inherited(facts, call.func)
        if found is None:
            return None
        if found[1] is method:
            sites.append(call)
    return sites


def _inherited(facts: Facts, func: cst.Attribute) -> tuple[cst.ClassDef, FunctionNode] | None:
    """`obj.push` where `obj` is built from a class of this unit that inherits `push` from a
    base of this unit (one base per class, followed up to four levels)."""
    made = same_object(facts.construction_of(func.value)) if isinstance(func.value, cst.Name) else None
    cls = facts.classes.get(made.func.value) if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) else None
    for _ in range(4):
        if cls is None:
            return None
        method = facts.functions.get(f"{cls.name.value}.{func.attr.value}")
        if method is not None:
            return cls, method
        bases = [b.value for b in cls.bases]
        cls = facts.classes.get(bases[0].value) if len(bases) == 1 and isinstance(bases[0], cst.Name) else None
    return None


def _self_attribute_method(facts: Facts, func: cst.Attribute) -> tuple[cst.ClassDef, FunctionNode] | None:
    """`agent.memory.push` where `agent` is built from a class whose `__init__` alone binds
    `self.memory = Buffer()`: `Buffer.push`."""
    holder = func.value
    if not (isinstance(holder, cst.Attribute) and isinstance(holder.value, cst.Name)):
        return None
    if holder.value.value == "self":
        cls = facts.enclosing_class(func)
    else:
        made = same_object(facts.construction_of(holder.value))
        cls = facts.classes.get(made.func.value) if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) else None
    if cls is None:
        return None
    stores = [n for n in facts.walk(cls) if isinstance(n, cst.Assign) and any(
        isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) and t.target.value.value == "self"
        and t.target.attr.value == holder.attr.value for t in n.targets)]
    if len(stores) != 1 or not isinstance(stores[0].value, cst.Call) or not isinstance(stores[0].value.func, cst.Name):
        return None
    made = facts.classes.get(stores[0].value.func.value)
    method = facts.functions.get(f"{made.name.value}.{func.attr.value}") if made is not None else None
    return (made, method) if made is not None and method is not None else None


def _passed(facts: Facts, cls: cst.ClassDef, method: FunctionNode, param: str) -> list[cst.BaseExpression] | None:
    sites = _call_sites(facts, cls, method)
    if not sites:
        return None
    out = []
    for call in sites:
        arg = _argument(method, call, param)
        if arg is None:
            return None
        out.append(arg)
    return out


def _passed_positional(facts: Facts, cls: cst.ClassDef, method: FunctionNode, index: int,
                       width: int) -> list[cst.BaseExpression] | None:
    sites = _call_sites(facts, cls, method)
    if not sites:
        return None
    out = []
    for call in sites:
        if any(a.star or a.keyword is not None for a in call.args) or len(call.args) != width:
            return None
        out.append(call.args[index].value)
    return out
