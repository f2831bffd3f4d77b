"""State that libraries keep for the whole process, read by getters and changed by library calls.

`warnings.filters`, NumPy's error mode (`np.geterr()`), torch's grad mode, seeds, deterministic
and cuDNN flags, logging levels, the working directory, the decimal context: the name-based
analysis sees no name of the program change when the loop calls `warnings.simplefilter(...)`,
`np.seterr(...)` or `torch.set_grad_enabled(False)`, or assigns `cudnn.benchmark = True`. An
expression that reads such state is the same every iteration only if the loop changes no
library state (red team 15).
"""

from __future__ import annotations

import re

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


def reads_library_state(facts: Facts, expr: cst.CSTNode, depth: int = 0) -> bool:
    """`expr` reads state a library keeps: a getter of a library called without arguments, or with
    constants (`np.geterr()`, any library function called without arguments,
    `logging.getLogger(n).getEffectiveLevel()`, `getattr(torch, "is_grad_enabled")()`), a library
    module's variable (`warnings.filters`, `logging.root.manager.disable`,
    `torch.backends.cudnn.benchmark`), or a function of the program it calls that does."""
    for node in facts.walk(expr):
        if isinstance(node, cst.Call):
            name = _library_name(facts, node.func)
            last = name.rsplit(".", 1)[-1] if name else ""
            constant_args = all(isinstance(a.value, (cst.SimpleString, cst.Integer, cst.Float)) for a in node.args)
            if name and constant_args and (_GETTER.match(last) or not node.args and not last[:1].isupper()):
                return True
            if isinstance(node.func, cst.Call) and any(_library_name(facts, a.value) for a in node.func.args):
                return True  # `getattr(torch, "is_grad_enabled")()`
            if depth < 3 and isinstance(node.func, cst.Name) and not name:
                if any(reads_library_state(facts.owner_of(f), f.body, depth + 1) for f in facts._callees(node)):
                    return True
        elif isinstance(node, cst.Attribute) and not isinstance(facts.parent(node), cst.Attribute):
            parent = facts.parent(node)
            if isinstance(parent, cst.Call) and parent.func is node:
                continue
            name = _library_name(facts, node)
            if name and (name.split(".")[0] not in _CONSTANT_NAMESPACES or name.startswith(_SWITCHES)):
                return True
    return False


def library_state_changed(facts: Facts, loop: Loop) -> bool:
    """The loop, or code of the program it calls, may change state a library keeps: it calls a
    library function for its effect (a statement, or one named like a setter: `np.seterr`,
    `warnings.simplefilter`, `torch.set_grad_enabled`, `logging.disable`, `os.chdir`), assigns
    into a library's namespace or into an object a library call returned (`cudnn.benchmark = x`,
    `decimal.getcontext().prec = 4`), or calls code of a local module (not followed here)."""
    unit = loop.facts
    bodies: list[tuple[Facts, cst.CSTNode]] = [(unit, loop.node)]
    seen: set[int] = set()
    while bodies:
        owner, body = bodies.pop()
        for node in owner.walk(body):
            if isinstance(node, (cst.AssignTarget, cst.AugAssign)) and _library_owned(owner, node.target):
                return True
            if isinstance(node, cst.With):  # a program context manager: its `__enter__` and `__exit__` run
                for item in node.items:
                    call = item.item
                    if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in owner.classes:
                        bodies += [(owner, f.body) for key, f in owner.functions.items()
                                   if key in (f"{call.func.value}.__enter__", f"{call.func.value}.__exit__")]
            if not isinstance(node, cst.Call):
                continue
            if _changes_library_state(owner, node):
                return True
            qualified = owner.qualified_name(node.func) or ""
            if owner.imports is not None and "." in qualified \
                    and owner.imports.module(qualified.rsplit(".", 1)[0]) is not None:
                return True  # `setup.quiet()`: code of a local module
            for func in owner._callees(node):
                callee_owner = owner.owner_of(func)
                if callee_owner is not owner and not any(callee_owner is u for u in owner.prior.units()):
                    return True
                if id(func) not in seen and len(seen) < 50:
                    seen.add(id(func))
                    bodies.append((callee_owner, func.body))
    return False


def _changes_library_state(facts: Facts, call: cst.Call) -> bool:
    """`call` may run a library function for its effect: one named like a setter, or a call whose
    value is dropped of a library function (`warnings.simplefilter(...)`), of a library object a
    getter returned (`logging.getLogger().addHandler(h)`), or of a callable the analysis cannot
    name (a setter bound to a name, `setters[0](...)`, `getattr(np, "seterr")(...)`,
    `sys.modules["warnings"].simplefilter(...)`, an attribute of a program object that is no
    method of its class: `self.strict = partial(np.seterr, ...)`)."""
    name = _library_name(facts, call.func)
    if name and _SETTER.match(name.rsplit(".", 1)[-1]):
        return True
    if not isinstance(facts.parent(call), cst.Expr):
        return False
    func = call.func
    if name or isinstance(func, (cst.Subscript, cst.Call)):
        return True
    if isinstance(func, cst.Name):
        qualified = facts.qualified_name(func) or ""
        return not qualified.startswith("builtins.") and func.value not in facts.classes and not facts._callees(call)
    if not isinstance(func, cst.Attribute):
        return False
    node: cst.BaseExpression = func.value
    while isinstance(node, cst.Attribute):
        node = node.value
    if not isinstance(node, cst.Name) or _library_owned(facts, func):
        return True
    from ._tensor_facts import assigned_value
    value = assigned_value(facts, node)
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in facts.classes \
        and not facts._callees(call)


def _library_owned(facts: Facts, target: cst.BaseExpression) -> bool:
    """`target` (an attribute or item, or a method) belongs to a library: its root is a library module
    (`torch.backends.cudnn.benchmark`, `warnings.filters[:]`), the result of a library
    getter (`decimal.getcontext().prec`), or a name bound to one (`ctx = decimal.getcontext()`)."""
    node: cst.BaseExpression = target
    if isinstance(node, cst.Name):
        return False
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
        if isinstance(node, cst.Call):
            return _library_getter(facts, node)
    if not isinstance(node, cst.Name):
        return False
    if _library_name(facts, node):
        return True
    from ._tensor_facts import assigned_value
    value = assigned_value(facts, node)
    return isinstance(value, cst.Call) and _library_getter(facts, value)


def _library_getter(facts: Facts, call: cst.Call) -> bool:
    """`call` asks a library for an object it keeps (`decimal.getcontext()`, `logging.getLogger(n)`),
    not for a new one (`torch.optim.SGD(...)`)."""
    name = _library_name(facts, call.func)
    return bool(name) and bool(_GETTER.match(name.rsplit(".", 1)[-1]))


def _library_name(facts: Facts, expr: cst.BaseExpression) -> str:
    """The qualified name of `expr` when it names an object of an imported library (not a local
    module, not a builtin), '' otherwise."""
    qualified = facts.qualified_name(expr) or ""
    if not qualified or qualified.startswith("builtins.") or _HARDWARE.search(qualified):
        return ""
    if facts.imports is not None and any(facts.imports.module(prefix) is not None for prefix in _prefixes(qualified)):
        return ""
    return qualified


def _prefixes(qualified: str) -> list[str]:
    parts = qualified.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))] or [qualified]
