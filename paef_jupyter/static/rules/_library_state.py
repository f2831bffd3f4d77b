"""State that libraries keep for the whole process, read by getters and changed by library calls.

`warnings.filters`, NumPy's error mode (`np.geterr()`), torch's grad mode, seeds, deterministic
and cuDNN flags, logging levels, the working directory, the decimal context: the name-based
analysis sees no name of the program change when the loop calls `warnings.simplefilter(...)`,
`np.seterr(...)` or `torch.set_grad_enabled(False)`, or assigns `cudnn.benchmark = True`. An
expression that reads the state of a library is the same every iteration only if the loop
changes nothing of that library (red team 15). Libraries are told apart by their top-level
module; a call the analysis cannot name, code of a local module and a third-party library may
change any library's state (`lightning.seed_everything` seeds torch).
"""

from __future__ import annotations

import re
import sys

import libcst as cst

from ..facts import Facts, Loop

# A library function named like a getter of state (`np.geterr`, `torch.is_grad_enabled`,
# `torch.are_deterministic_algorithms_enabled`, `logging.getLogger`, `os.getcwd`).
_GETTER = re.compile(r"^(get|is|are)(_|[a-z])|^initial_seed$")
# A library function named like a setter (called for its effect, even when its value is kept:
# `old = np.seterr(all="raise")`).
_SETTER = re.compile(r"^(set|use_|enable|disable|reset|seed|manual_seed|simplefilter|filterwarnings|basicConfig|chdir"
                     r"|add[A-Z]|remove[A-Z]|capture)")
# Library namespaces whose module attributes are constants (`torch.float32`, `np.pi`), but for
# torch's switches.
_CONSTANT_NAMESPACES = frozenset({"torch", "numpy", "math", "builtins", "typing", "functools", "operator"})
_SWITCHES = ("torch.backends.",)
# Queries of the hardware, which a run does not change.
_HARDWARE = re.compile(r"(^|\.)(cuda|mps|xpu)\.|\.(is_available|device_count|get_device_name|get_device_capability)$")
# Libraries whose calls change only their own state: the standard library, torch and NumPy.
_SELF_CONTAINED = frozenset(sys.stdlib_module_names) | {"torch", "numpy"}
ANY = "*"  # a change the analysis cannot attribute to one library


def library_state_changed(facts: Facts, expr: cst.CSTNode, loop: Loop) -> bool:
    """`expr` reads state a library keeps and the loop may change that library's state."""
    read = library_state_read(facts, expr)
    if not read:
        return False
    changed = library_state_changes(loop)
    return ANY in changed or bool(read & changed)


def library_state_read(facts: Facts, expr: cst.CSTNode, depth: int = 0) -> set[str]:
    """The libraries (top-level modules) whose state `expr` reads: a getter called without
    arguments or with constants (`np.geterr()`, any library function called without arguments,
    `logging.getLogger(n).getEffectiveLevel()`, `getattr(torch, "is_grad_enabled")()`), a library
    module's variable (`warnings.filters`, `logging.root.manager.disable`,
    `torch.backends.cudnn.benchmark`), or a function of the program it calls that does."""
    out: set[str] = set()
    for node in facts.walk(expr):
        if isinstance(node, cst.Call):
            name = _library_name(facts, node.func)
            last = name.rsplit(".", 1)[-1]
            constant_args = all(isinstance(a.value, (cst.SimpleString, cst.Integer, cst.Float)) for a in node.args)
            if name and constant_args and (_GETTER.match(last) or not node.args and not last[:1].isupper()):
                out.add(_top(name))
            if isinstance(node.func, cst.Call):  # `getattr(torch, "is_grad_enabled")()`
                out |= {_top(n) for a in node.func.args if (n := _library_name(facts, a.value))}
            if depth < 3 and isinstance(node.func, cst.Name) and not name:
                for func in facts._callees(node):
                    out |= library_state_read(facts.owner_of(func), func.body, depth + 1)
        elif isinstance(node, cst.Attribute) and not isinstance(facts.parent(node), cst.Attribute):
            parent = facts.parent(node)
            if isinstance(parent, cst.Call) and parent.func is node:
                continue
            name = _library_name(facts, node)
            if name and (_top(name) not in _CONSTANT_NAMESPACES or name.startswith(_SWITCHES)):
                out.add(_top(name))
    return out


def library_state_changes(loop: Loop) -> set[str]:
    """The libraries whose state the loop, or code of the program it calls, may change: a library
    function called for its effect (a statement, or one named like a setter: `np.seterr`,
    `warnings.simplefilter`, `torch.set_grad_enabled`, `logging.disable`, `os.chdir`), an
    assignment into a library's namespace or into an object a library getter returned
    (`cudnn.benchmark = x`, `decimal.getcontext().prec = 4`), a program context manager's
    `__enter__` / `__exit__`; `ANY` for a call the analysis cannot name or code of a local module."""
    unit = loop.facts
    out: set[str] = set()
    bodies: list[tuple[Facts, cst.CSTNode]] = [(unit, loop.node)]
    seen: set[int] = set()
    while bodies:
        owner, body = bodies.pop()
        for node in owner.walk(body):
            if isinstance(node, (cst.AssignTarget, cst.AugAssign)):
                out |= _library_owner(owner, node.target)
            if isinstance(node, cst.With):
                for item in node.items:
                    call = item.item
                    if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in owner.classes:
                        bodies += [(owner, f.body) for key, f in owner.functions.items()
                                   if key in (f"{call.func.value}.__enter__", f"{call.func.value}.__exit__")]
            if not isinstance(node, cst.Call):
                continue
            out |= _changed_by_call(owner, node)
            qualified = owner.qualified_name(node.func) or ""
            if owner.imports is not None and "." in qualified \
                    and owner.imports.module(qualified.rsplit(".", 1)[0]) is not None:
                out.add(ANY)  # `setup.quiet()`: code of a local module
            for func in owner._callees(node):
                callee_owner = owner.owner_of(func)
                if callee_owner is not owner and not any(callee_owner is u for u in owner.prior.units()):
                    out.add(ANY)
                if id(func) not in seen and len(seen) < 50:
                    seen.add(id(func))
                    bodies.append((callee_owner, func.body))
        if ANY in out:
            break
    return out


def _changed_by_call(facts: Facts, call: cst.Call) -> set[str]:
    """The libraries whose state `call` may change: a library function named like a setter, or a
    call whose value is dropped of a library function (`warnings.simplefilter(...)`), of a
    library object a getter returned (`logging.getLogger().addHandler(h)`); `ANY` for a dropped
    call of a callable the analysis cannot name (a setter bound to a name, `setters[0](...)`,
    `getattr(np, "seterr")(...)`, `sys.modules["warnings"].simplefilter(...)`, an attribute of
    a program object that is no method of its class: `self.strict = partial(np.seterr, ...)`)."""
    name = _library_name(facts, call.func)
    if name and _SETTER.match(name.rsplit(".", 1)[-1]):
        return {_scope(name)}
    if not isinstance(facts.parent(call), cst.Expr):
        return set()
    func = call.func
    if name:
        return {_scope(name)}
    if isinstance(func, (cst.Subscript, cst.Call)):
        return {ANY}
    if isinstance(func, cst.Name):
        qualified = facts.qualified_name(func) or ""
        unknown = not qualified.startswith("builtins.") and func.value not in facts.classes and not facts._callees(call)
        return {ANY} if unknown else set()
    if not isinstance(func, cst.Attribute):
        return set()
    owned = _library_owner(facts, func)
    if owned:
        return owned
    node: cst.BaseExpression = func.value
    while isinstance(node, cst.Attribute):
        node = node.value
    if not isinstance(node, cst.Name):
        return {ANY}  # `sys.modules["warnings"].simplefilter(...)`, `import_module("numpy").seterr(...)`
    from ._tensor_facts import assigned_value
    value = assigned_value(facts, node)
    program_object = isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in facts.classes
    return {ANY} if program_object and not facts._callees(call) else set()


def _library_owner(facts: Facts, target: cst.BaseExpression) -> set[str]:
    """The library `target` (an attribute or item, or a method) belongs to: its root is a library
    module (`torch.backends.cudnn.benchmark`, `warnings.filters[:]`), the result of a library
    getter (`decimal.getcontext().prec`), or a name bound to one (`ctx = decimal.getcontext()`)."""
    node: cst.BaseExpression = target
    if isinstance(node, cst.Name):
        return set()
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
        if isinstance(node, cst.Call):
            getter = _library_getter(facts, node)
            return {_scope(getter)} if getter else set()
    if not isinstance(node, cst.Name):
        return set()
    if name := _library_name(facts, node):
        return {_scope(name)}
    from ._tensor_facts import assigned_value
    value = assigned_value(facts, node)
    getter = _library_getter(facts, value) if isinstance(value, cst.Call) else ""
    return {_scope(getter)} if getter else set()


def _library_getter(facts: Facts, call: cst.Call) -> str:
    """The qualified name of `call` when it asks a library for an object it keeps
    (`decimal.getcontext()`, `logging.getLogger(n)`), not for a new one (`torch.optim.SGD(...)`)."""
    name = _library_name(facts, call.func)
    return name if name and _GETTER.match(name.rsplit(".", 1)[-1]) else ""


def _top(qualified: str) -> str:
    return qualified.split(".")[0]


def _scope(qualified: str) -> str:
    """The library whose state a call of `qualified` changes: its own, or `ANY` for a third-party
    library (it may set torch's or NumPy's state for the program)."""
    top = _top(qualified)
    return top if top in _SELF_CONTAINED else ANY


def _library_name(facts: Facts, expr: cst.BaseExpression) -> str:
    """The qualified name of `expr` when it names an object of an imported library (not a local
    module, not a builtin, not a hardware query), '' otherwise."""
    qualified = facts.qualified_name(expr) or ""
    if not qualified or qualified.startswith("builtins.") or _HARDWARE.search(qualified):
        return ""
    if facts.imports is not None and any(facts.imports.module(prefix) is not None for prefix in _prefixes(qualified)):
        return ""
    return qualified


def _prefixes(qualified: str) -> list[str]:
    parts = qualified.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))] or [qualified]
