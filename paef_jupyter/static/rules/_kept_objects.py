"""Objects the program hands to code that may keep them: changed later through the keeper's names.

The invariance proofs follow a name's object through the name itself (writes, in-place calls,
callees' parameters). An object handed to a program class's constructor or to an object's method
(`EndlessCurriculum(x, y, mix)`, `model.register_forward_hook(calib.observe)`) may be stored on
the keeper and changed there by its own name (`self.mix[0] = ...`, `self.hist += counts`) when the
loop runs the keeper's code: `next(train_iter)`, a module's forward and hooks, a callback (red
team 31a: a curriculum loader shifting the loss weights it was given, a calibration hook filling
a histogram read by `np.cumsum(calib.hist)`). Hoisting what such an object feeds is offered for review
when the loop runs code of the program.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts, Loop
from ..names import names_read, parameter_filled, positional_params
from ..types import Kind
from ._tensor_facts import locally_bound

# Kinds whose objects can be changed in place (numbers, functions and Python modules cannot;
# models, optimizers and loaders are read for their state by other checks).
_CHANGEABLE = frozenset({Kind.TENSOR, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR, Kind.NDARRAY,
                         Kind.UNKNOWN})


def kept_by_program_code(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> str:
    """Why `expr` may not be the same every iteration of `loop` ("" when no such reason): a name
    it reads holds an object its scope hands to code of the program that may keep it, and the
    loop runs code of the program (see the module's docstring)."""
    unit = loop.facts
    read = names_read(expr) - locally_bound(facts, expr)
    names = {n.value for n in facts.walk(expr) if isinstance(n, cst.Name) and n.value in read
             and n.value not in facts.aliases and n.value not in facts.functions and n.value not in facts.classes
             and not _attribute_read(facts, n) and facts.kind(n) in _CHANGEABLE}
    # (an imported module, a function, a class are not data; `cfg.scale` is `store_hazard`'s: it
    # knows which attributes the keeper's code stores)
    if not names or not _runs_program_code(unit, loop.node):
        return ""
    scope = loop.function if loop.function is not None else unit.module
    for call in unit.calls_in(scope):
        name = _handed_over(unit, call, names)
        if name:
            line = unit.position(call).start.line
            return (f"`{name}` is handed to an object of the program (line {line}: `{unit.code(call)}`) that may keep it "
                    "and change it by its own names when the loop runs its code (a method, a hook, `next()` of its "
                    "iterator): built once, the value would not follow those changes")
    return ""


def _attribute_read(facts: Facts, name: cst.Name) -> bool:
    parent = facts.parent(name)
    return isinstance(parent, cst.Attribute) and parent.value is name


def _handed_over(facts: Facts, call: cst.Call, names: set[str]) -> str:
    """`call` gives one of `names` to an object of the program that may keep it: a class of the
    program built with it (`EndlessCurriculum(x, y, mix)`), a method of such an object
    (`trainer.attach(mix)`); or hands out a bound method of it (`calib.observe` given to
    `register_forward_hook`: the object's code runs when the hook does). Library calls and this
    unit's functions (followed by the callee checks) keep nothing out of sight."""
    for arg in call.args:
        value = arg.value
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value in names \
                and _method_of_instance(facts, value.value, value.attr.value):
            return value.value.value
    given = next((a.value.value for a in call.args if isinstance(a.value, cst.Name) and a.value.value in names), "")
    func = call.func
    if given and (facts.class_named(func) is not None or isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                  and _method_of_instance(facts, func.value, func.attr.value)):
        return given
    return ""


def _method_of_instance(facts: Facts, name: cst.Name, method: str) -> bool:
    """`name` holds an object of a class of the program (bound to its construction) that defines
    `method`."""
    value = facts.value_of(name)
    found = facts.class_named(value.func) if isinstance(value, cst.Call) else None
    return found is not None and any(isinstance(s, cst.FunctionDef) and s.name.value == method
                                     for s in found[1].body.body)


_LIBRARY_CODE = ("torch.", "numpy.", "math.", "builtins.")


def _runs_program_code(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` calls something that may run the program's code (a function or method of the
    program, an object: a module's forward and hooks, a callback; `next()` of an iterator), or
    iterates an object that is not a `range`."""
    if any(not (name := facts.qualified_name(c.func) or "").startswith(_LIBRARY_CODE)
           or name in ("builtins.next", "builtins.iter") for c in facts.calls_in(node)):
        return True
    return any(isinstance(n, cst.For) and not (isinstance(n.iter, cst.Call)
                                               and facts.qualified_name(n.iter.func) == "builtins.range")
               for n in facts.walk(node))


# Calls that keep what they are given: a container's or object's storing method, `setattr` and kin.
_KEEPING_METHODS = frozenset({"append", "extend", "insert", "add", "setdefault", "put", "push", "appendleft",
                              "update", "__setitem__"})
_KEEPING_CALLS = frozenset({"builtins.setattr", "builtins.dict", "builtins.list", "builtins.tuple", "builtins.set",
                            "types.SimpleNamespace", "collections.OrderedDict", "collections.deque"})


def callee_keeps(facts: Facts, call: cst.Call, arg: cst.Arg, depth: int = 0) -> str:
    """The function of the program (this unit, an earlier cell, a local module) that `call` runs and
    that keeps what `arg` gives it past the call ("" if none found): `dec.begin(start)` whose `begin`
    does `self.prev = start`, appends it, `setattr`s it, or hands it on to a function that does. A
    tensor built once before a loop and kept that way is one object shared by every iteration, which
    the keeper's other code may change in place (`self.prev.copy_(tok)`), unlike a fresh one per
    iteration. A call of an object runs its class's `forward` (a module: `dec(start, 3)`, `self.net(x,
    mask)`) or `__call__` (recall 68, red team 56's D2 leftover): those are followed as methods. Calls
    the analysis cannot follow (a library, an object of unknown class) are not counted here."""
    if depth > 3:
        return ""
    for func in [*facts._callees(call), *_object_call_methods(facts, call)]:
        if not isinstance(func, cst.FunctionDef):
            continue
        owner = facts.owner_of(func)
        params = positional_params(func)
        if (isinstance(call.func, cst.Attribute) or func.name.value in _CALL_METHODS) \
                and params and params[0] in ("self", "cls"):
            params = params[1:]
        param = parameter_filled(call, arg, params)
        if param is None:
            continue
        held = {param}
        for node in owner.walk(func.body):  # `x = start` aliases, in order of the text
            if isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and node.value.value in held:
                held |= {t.target.value for t in node.targets if isinstance(t.target, cst.Name)}
        for node in owner.walk(func.body):
            if isinstance(node, cst.Assign) and _holds(node.value, held) \
                    and any(not isinstance(t.target, cst.Name) for t in node.targets):
                return _qualified(owner, func)
            if isinstance(node, cst.Call):
                for inner in node.args:
                    if not (isinstance(inner.value, cst.Name) and inner.value.value in held):
                        continue
                    name = owner.qualified_name(node.func) or ""
                    if name in _KEEPING_CALLS or isinstance(node.func, cst.Attribute) \
                            and node.func.attr.value in _KEEPING_METHODS:
                        return _qualified(owner, func)
                    deeper = callee_keeps(owner, node, inner, depth + 1)
                    if deeper:
                        return deeper
    return ""


_CALL_METHODS = ("forward", "__call__")


def _object_call_methods(facts: Facts, call: cst.Call) -> list[cst.FunctionDef]:
    """What calling an object of the program runs: `model(x)` / `self.net(x)` built from a class of
    this unit, an earlier cell or a local module whose `forward` (for an `nn.Module`) or `__call__`
    is defined once there; for a parameter, the class every caller's argument was built from."""
    from .. import forward_outputs

    func = call.func
    if isinstance(func, cst.Name) and (func.value in facts.functions or facts._function_at(func) is not None):
        return []  # a function, not an object
    found: list[cst.FunctionDef] = []
    for name in _CALL_METHODS:
        method = facts._method_of_instance(func, name) if isinstance(func, cst.Name) else None
        if method is None:
            method_of = forward_outputs.method_of_object(facts, func, name)
            if method_of is not None:
                owner, method = method_of
                facts._owners.setdefault(method, owner)  # `owner_of` reads the method in its own unit
        if isinstance(method, cst.FunctionDef):
            found.append(method)
    return found


def _holds(value: cst.BaseExpression, held: set[str]) -> bool:
    """`value` is one of `held`, or a container literal with one of them among its items."""
    if isinstance(value, cst.Name):
        return value.value in held
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return any(_holds(e.value, held) for e in value.elements)
    if isinstance(value, cst.Dict):
        return any(isinstance(e, cst.DictElement) and _holds(e.value, held) for e in value.elements)
    return False


def _qualified(owner: Facts, func: cst.FunctionDef) -> str:
    holder = owner.enclosing_class(func)
    return f"{holder.name.value}.{func.name.value}" if holder is not None else func.name.value
