"""Is an expression a plain Python number (int or float)?

A running total `total += loss.item() * w` is a Python float only while `w` is one: a NumPy
scalar makes it a NumPy scalar (`float * np.float32` is an np.float32 and rounds as one; an
np.float64 prints as `np.float64(...)`), a tensor makes it a tensor. Rewriting the total into a
float64 tensor read back with `.item()` is exact only for Python ints and floats, so the operands
a rewrite keeps must be proved to be those, binding by binding.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts, FunctionNode
from ..names import bound_names

_ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
_INT_BUILTINS = frozenset({"builtins.len", "builtins.int", "builtins.float"})
_MAX_DEPTH = 4
_NOT_FLOAT_MATH = frozenset({"math.prod", "math.sumprod"})  # products of the operands' own type (np.float32 stays one)


def python_number(facts: Facts, expr: cst.BaseExpression, scope: FunctionNode | None, depth: int = 0,
                  seen: frozenset[str] = frozenset()) -> bool:
    """`expr` evaluates to a Python int or float: literals, `len(...)`, `int(...)`, `float(...)`,
    `x.item()`, `x.size(i)`, `x.numel()`, `x.shape[i]`, `math.*(...)`, a `range` / `enumerate`
    counter, `max` / `min` / `abs` / `round` of these, names every binding of which is one of
    these, and arithmetic of them."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return python_number(facts, expr.expression, scope, depth + 1, seen)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ARITH):
        return python_number(facts, expr.left, scope, depth + 1, seen) \
            and python_number(facts, expr.right, scope, depth + 1, seen)
    if isinstance(expr, cst.Call):
        return _number_call(facts, expr) or _number_of_numbers(facts, expr, scope, depth, seen)
    if isinstance(expr, cst.Subscript):  # `x.shape[0]`
        return isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape"
    if isinstance(expr, cst.Name):
        return _number_name(facts, expr.value, scope, depth, seen)
    return False


def _number_call(facts: Facts, call: cst.Call) -> bool:
    func = call.func
    if isinstance(func, cst.Attribute):
        if func.attr.value == "item" and not call.args:
            return True  # a tensor's or a NumPy value's `.item()` is a Python scalar
        if func.attr.value in ("size", "numel") and (func.attr.value == "numel" or call.args):
            return True  # `x.size(0)`, `x.numel()`: ints (`x.size()` is a torch.Size)
    qualified = facts.qualified_name(func) or ""
    return qualified in _INT_BUILTINS or (qualified.startswith("math.") and qualified.count(".") == 1
                                          and qualified not in _NOT_FLOAT_MATH)


def _number_of_numbers(facts: Facts, call: cst.Call, scope: FunctionNode | None, depth: int,
                       seen: frozenset[str]) -> bool:
    """`max(1, total)`, `min(a, b)`, `abs(x)`, `round(x, 3)` of Python numbers: `max`/`min` hand
    back one of their arguments, `abs`/`round` a Python number of one (the seq2seq's
    `tok_correct / max(1, tok_total)`). Every argument must be proved one: `max(np.float32(1), 2)`
    is an np.float32, so an argument of unknown type decides nothing."""
    qualified = facts.qualified_name(call.func) or ""
    args = call.args
    if any(a.star or a.keyword is not None for a in args):
        return False
    if qualified in ("builtins.max", "builtins.min"):
        wanted = len(args) >= 2  # one argument is an iterable: its elements are not seen here
    elif qualified == "builtins.abs":
        wanted = len(args) == 1
    elif qualified == "builtins.round":
        wanted = len(args) in (1, 2)
    else:
        return False
    return wanted and all(python_number(facts, a.value, scope, depth + 1, seen) for a in args)


def _number_name(facts: Facts, name: str, scope: FunctionNode | None, depth: int, seen: frozenset[str]) -> bool:
    if name in seen:
        return True  # `n = n + 1`: the other bindings decide
    if _rebound_out_of_sight(facts, name):
        return False
    defs = facts._scoped_defs(name, scope)
    if not defs:
        return False  # a parameter has a binding; no binding here: a global of another cell, a builtin
    inner = seen | {name}
    for d in defs:
        value = d.element if d.augmented else d.value if d.value is not None else d.element
        if value is None and d.loop is not None:
            if not _counter(d.loop.node, name):
                return False
            continue
        if value is None or not python_number(facts, value, d.function, depth + 1, inner):
            return False
    return True


_BY_NAME = frozenset({"globals", "vars", "exec", "setattr"})


def _rebound_out_of_sight(facts: Facts, name: str) -> bool:
    """Bindings the definitions index does not give to the loop's scope: a function of this unit
    or an earlier cell declaring the name `global` / `nonlocal` (a KL-annealing helper setting
    `beta = betas[step]`), a walrus, `with ... as`, `except ... as`, or a write by name
    (`globals()[...]`, `exec`)."""
    trees = [(facts, facts.module), *((cell, f) for cell in facts.prior.cells for f in cell.functions.values())]
    for owner, tree in trees:
        for n in owner.walk(tree):
            if isinstance(n, (cst.Global, cst.Nonlocal)) and any(a.name.value == name for a in n.names):
                return True
            target = n.target if isinstance(n, cst.NamedExpr) else n.asname.name if isinstance(n, cst.WithItem) \
                and n.asname is not None else n.name.name if isinstance(n, cst.ExceptHandler) and n.name is not None \
                else None
            if target is not None and name in bound_names(target):
                return True
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in _BY_NAME:
                return True
    return False


def _counter(loop: cst.CSTNode, name: str) -> bool:
    """`for i in range(...)` or `for i, x in enumerate(...)`: `i` is an int."""
    target, it = getattr(loop, "target", None), getattr(loop, "iter", None)
    if not isinstance(it, cst.Call) or not isinstance(it.func, cst.Name):
        return False
    if it.func.value == "range":
        return isinstance(target, cst.Name) and target.value == name
    if it.func.value == "enumerate":
        return isinstance(target, cst.Tuple) and bool(target.elements) \
            and isinstance(target.elements[0].value, cst.Name) and target.elements[0].value.value == name
    return False
