"""Closed-world proofs for rewrites that change what a name holds.

host-sync's device accumulation turns a running Python number into a 0-d tensor until the
read-back after the loop; graph-retention's `.detach()` turns a total that carried every step's
autograd graph into one that carries none. Neither may be automatic on a list of the reads known
to *differ* (`print`, `str`, a helper, a pickle, ...): the next program shows the next one. Here
every read of the name must be on a closed list of reads known to give the same result for both
values (each entry checked on the installed torch by `benchmarks/closed_world_totals_check.py`);
the first read not on it is named, and the rewrite is left to review.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable

import libcst as cst

from ..facts import Facts, binds_locally
from ..names import bound_names

# Scopes whose body runs when they are called or iterated, not where they stand (a class body runs
# where it stands; its methods and lambdas are deferred).
_DEFERRED = (cst.FunctionDef, cst.Lambda, cst.GeneratorExp)
_COMPREHENSIONS = (cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp)

# --- where a read runs (host-sync) ----------------------------------------------------------


def binding_scope(unit: Facts, node: cst.CSTNode, name: str) -> cst.CSTNode | None:
    """The innermost function, lambda or comprehension around `node` that binds `name` locally
    (Python's rule: any binding, no `global`/`nonlocal`); None for the module's global."""
    for anc in unit.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda)) and binds_locally(anc, name):
            return anc
        if isinstance(anc, _COMPREHENSIONS) and any(
                name in bound_names(f.target) for f in unit.walk(anc.for_in) if isinstance(f, cst.CompFor)):
            return anc
    return None


def deferred_scope(unit: Facts, node: cst.CSTNode, stop: cst.CSTNode | None) -> cst.CSTNode | None:
    """The innermost `def`, `lambda` or generator expression between `node` and `stop` (exclusive;
    the module when None): code there runs when it is called or iterated, which may be while a loop
    of `stop`'s body runs. None when `node` runs where it stands."""
    for anc in unit.ancestors(node):
        if anc is stop:
            return None
        if isinstance(anc, _DEFERRED) and not _runs_in_place(unit, anc, node):
            return anc
    return None


# Builtins that consume a generator expression handed to them before they return.
_CONSUMING = frozenset({"builtins.sum", "builtins.min", "builtins.max", "builtins.any", "builtins.all",
                        "builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset", "builtins.sorted"})


def _runs_in_place(unit: Facts, scope: cst.CSTNode, node: cst.CSTNode) -> bool:
    """`node` is in a generator expression's first iterable (evaluated where it stands), or in one
    consumed at once by `sum(...)`, `max(...)`, `list(...)` (`_CONSUMING`)."""
    if not isinstance(scope, cst.GeneratorExp):
        return False
    if unit.contains(scope.for_in.iter, node):
        return True
    arg = unit.parent(scope)
    call = unit.parent(arg) if isinstance(arg, cst.Arg) else arg
    return isinstance(call, cst.Call) and (unit.qualified_name(call.func) or "") in _CONSUMING


def is_a_name_read(unit: Facts, n: cst.Name) -> bool:
    """`n` names a variable: not `obj.total` (an attribute), `f(total=...)` (a keyword), nor the
    name a `def`/`class`/`import` binds."""
    parent = unit.parent(n)
    if isinstance(parent, cst.Attribute) and parent.attr is n:
        return False
    if isinstance(parent, cst.Arg) and parent.keyword is n:
        return False
    return not (isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Param)) and parent.name is n
                or isinstance(parent, (cst.ImportAlias, cst.AsName)))  # (a parameter's default is a read)


def read_out_of_place(units: Iterable[Facts], here: Facts, total: str, home: cst.CSTNode | None) -> str:
    """host-sync's gate. The device sum holds a 0-d tensor from the first accumulation to the
    read-back after the loop; a read of `total` (the variable whose binding scope is `home`) is
    proved to see a Python number only where it runs in place: in `home`'s own body (before the
    loop or after the read-back; the caller has checked that the loop reads it nowhere but in the
    accumulation), or at the top level of an earlier cell (which ran before). A read in a `def`,
    `lambda` or generator expression runs whenever it is called or iterated, maybe
    mid-loop: the first one is named (why the rewrite is left to review), '' when there is none.
    (A class body runs where it stands; its methods and lambdas are deferred.)"""
    for unit in units:
        for n in unit.uses(total):
            if not is_a_name_read(unit, n) or binding_scope(unit, n, total) is not home:
                continue  # another variable (a local of its own function), or not a variable at all
            if unit is not here and home is not None:
                continue  # a function's local: no other unit sees it
            scope = deferred_scope(unit, n, home)
            if scope is None:
                continue
            what = {cst.Lambda: "a lambda", cst.GeneratorExp: "a generator expression"}.get(type(scope), "a function")
            where = "" if unit is here else " of an earlier cell"
            return (f"line {unit.position(n).start.line}{where} reads `{total}` in {what} "
                    f"(`{unit.code(unit.statement_of(n)).strip().splitlines()[0]}`), which may run while the loop "
                    f"runs, when `{total}` is a tensor: not proved to read it as it did a Python number")
    return ""


# --- how a read uses the value (graph-retention) ---------------------------------------------

# Tensor methods whose result is checked in place of their receiver: it keeps (or drops) the
# receiver's graph, and is itself a tensor read by the rules below.
_CARRYING_METHODS = frozenset({
    "mean", "sum", "float", "double", "half", "cpu", "cuda", "to", "clone", "abs", "sqrt", "exp", "log", "pow",
    "square", "clamp", "neg", "view", "reshape", "squeeze", "unsqueeze", "flatten", "add", "sub", "mul", "div",
    "max", "min", "amax", "amin", "norm", "std", "var", "round",
})
# ... and library functions whose result is checked in place of their (tensor) argument.
_CARRYING_FUNCTIONS = frozenset({
    "torch.stack", "torch.cat", "torch.mean", "torch.sum", "torch.abs", "torch.sqrt", "torch.exp", "torch.log",
    "torch.clamp", "torch.round", "builtins.sum", "builtins.min", "builtins.max", "builtins.abs", "builtins.round",
})
# Methods whose result is the same for a tensor with or without its graph (verified by the check).
_SAME_METHODS = frozenset({"item", "tolist", "detach", "size", "dim", "numel", "argmax", "argmin", "nelement"})
# torch functions whose result has no graph and the same value either way (a bool tensor, an index).
_GRAPHLESS_FUNCTIONS = frozenset({"torch.isfinite", "torch.isnan", "torch.isinf", "torch.is_tensor", "torch.numel"})
# Methods of library objects (by the call that builds them) that read their first argument as a number.
_NUMBER_READING_METHODS = {"torch.optim.lr_scheduler.ReduceLROnPlateau": frozenset({"step"})}
_SAME_ATTRIBUTES = frozenset({"shape", "dtype", "device", "ndim"})
# Builtins whose result is the same for both (a number, a bool, the type `Tensor` either way).
_SAME_FUNCTIONS = frozenset({"builtins.float", "builtins.int", "builtins.bool", "builtins.len",
                             "builtins.isinstance", "builtins.type"})
# Methods of a list of totals that change it and hand nothing back (a statement of their own).
_LIST_MUTATORS = frozenset({"append", "extend", "insert", "clear"})
_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")


def written(unit: Facts, n: cst.Name) -> bool:
    """`n` is (part of) the target of an assignment, a `for`, or a `del`: it binds, it reads nothing."""
    child: cst.CSTNode = n
    parent = unit.parent(n)
    while isinstance(parent, (cst.Element, cst.Tuple, cst.List, cst.StarredElement)):
        child, parent = parent, unit.parent(parent)
    if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)):
        return getattr(parent, "target", None) is child
    return isinstance(parent, cst.Del)


def carrier(unit: Facts, n: cst.BaseExpression) -> cst.BaseExpression:
    """The outermost expression around `n` whose value is a tensor derived from it: arithmetic,
    indexing, a method or function of `_CARRYING_*`. Its use is what is checked."""
    value = n
    while True:
        parent = unit.parent(value)
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)) \
                and not (isinstance(parent, cst.BinaryOperation) and _string_pattern(parent)) \
                or isinstance(parent, cst.Subscript) and parent.value is value:
            value = parent
            continue
        if isinstance(parent, cst.Attribute) and parent.value is value and parent.attr.value in _CARRYING_METHODS:
            call = unit.parent(parent)
            if isinstance(call, cst.Call) and call.func is parent:
                value = call
                continue
            return value
        outer = parent
        while isinstance(outer, (cst.Element, cst.List, cst.Tuple)):
            outer = unit.parent(outer)
        if isinstance(outer, cst.Arg) and outer.keyword is None and outer.star == "":
            call = unit.parent(outer)
            if isinstance(call, cst.Call) and (unit.qualified_name(call.func) or "") in _CARRYING_FUNCTIONS:
                value = call
                continue
        return value


def _string_pattern(op: cst.BinaryOperation) -> bool:
    return isinstance(op.operator, cst.Modulo) and isinstance(op.left, (cst.SimpleString, cst.ConcatenatedString))


def _numeric_percent(pattern: cst.BaseExpression) -> bool:
    """A literal `%` pattern whose every conversion reads a number (`%.3f`, `%d`): no `%s`/`%r`/`%a`,
    which would format the tensor's text."""
    text = pattern.evaluated_value if isinstance(pattern, cst.SimpleString) else None
    return isinstance(text, str) and not set(_PERCENT.findall(text)) & set("rsac")


def _numeric_str_format(call: cst.Call) -> bool:
    """`"{:.2f} {:d}".format(...)`: a literal pattern whose every field has a format spec and no
    conversion (`!r`, `!s`), so each argument is formatted as `format(arg, spec)` is."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString)):
        return False
    text = func.value.evaluated_value
    try:
        fields = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None] \
            if isinstance(text, str) else []
    except ValueError:
        return False
    return bool(fields) and all(spec and "{" not in spec and conv is None for _, spec, conv in fields)


def _number_reading_method(unit: Facts, call: cst.Call) -> bool:
    """`sched.step(total)` on a `ReduceLROnPlateau` the program builds: its `step` starts with
    `float(metrics)` (read in torch's source, and run by the check)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
        return False
    made = unit.value_of(func.value)
    built = unit.qualified_name(made.func) or "" if isinstance(made, cst.Call) else ""
    return func.attr.value in _NUMBER_READING_METHODS.get(built, ())


def _literal_spec(spec: cst.BaseExpression | None) -> bool:
    """`format(x, ".4f")`: a non-empty literal spec."""
    return isinstance(spec, cst.SimpleString) and isinstance(spec.evaluated_value, str) and bool(spec.evaluated_value)


def same_without_graph(unit: Facts, n: cst.Name, follow: Callable[[str, cst.CSTNode], None],
                       returned: Callable[[], bool]) -> bool:
    """graph-retention's closed list: the read `n` of the total (or of a name derived from it)
    gives the same result whether the total keeps its autograd graph or not. `follow(name, at)` is
    told of a plain name bound to a tensor derived from it (whose reads must pass too);
    `returned()` says whether every caller reads a returned value as a number."""
    if written(unit, n):
        return True  # a write (`total = 0.0`, `total += x`: the added value is the rule's to check)
    value = carrier(unit, n)
    outer = unit.parent(value)
    if isinstance(outer, cst.Attribute) and outer.value is value:
        call = unit.parent(outer)
        called = isinstance(call, cst.Call) and call.func is outer
        if called and outer.attr.value in _SAME_METHODS or not called and outer.attr.value in _SAME_ATTRIBUTES:
            return True
        return called and value is n and outer.attr.value in _LIST_MUTATORS and isinstance(unit.parent(call), cst.Expr)
    if isinstance(outer, cst.Comparison) or isinstance(outer, cst.ComparisonTarget):
        return True  # a bool tensor (or a bool) with no graph either way
    if isinstance(outer, (cst.If, cst.While, cst.IfExp, cst.Assert)) and outer.test is value:
        return True  # `bool(total)`
    if isinstance(outer, cst.FormattedStringExpression) and outer.expression is value:
        spec = outer.format_spec or ()
        return outer.conversion is None and bool(spec) and all(  # `f"{x:.4f}"`: `x.item()` formatted; not
            isinstance(part, cst.FormattedStringText) for part in spec)  # `{x:{fmt}}`, which may be empty
    if isinstance(outer, cst.BinaryOperation) and _string_pattern(outer) and outer.right is value:
        return _numeric_percent(outer.left)
    if isinstance(outer, cst.Element) and isinstance(unit.parent(outer), cst.Tuple):
        pattern = unit.parent(unit.parent(outer))
        if isinstance(pattern, cst.BinaryOperation) and _string_pattern(pattern) \
                and pattern.right is unit.parent(outer) and _numeric_percent(pattern.left):
            return True  # `"%.3f %d" % (total, n)`
    if isinstance(outer, cst.Arg) and outer.keyword is None and outer.star == "":
        call = unit.parent(outer)
        if not isinstance(call, cst.Call):
            return False
        qualified = unit.qualified_name(call.func) or ""
        if (qualified in _SAME_FUNCTIONS or qualified in _GRAPHLESS_FUNCTIONS) and call.args[0] is outer:
            return True
        if qualified == "builtins.format":
            return len(call.args) == 2 and call.args[0] is outer and _literal_spec(call.args[1].value)
        return _numeric_str_format(call) or _number_reading_method(unit, call) and call.args[0] is outer
    held = value
    while isinstance(outer, (cst.Element, cst.List, cst.Tuple, cst.DictElement, cst.Dict)) \
            and not (isinstance(outer, cst.DictElement) and outer.key is held):
        held, outer = outer, unit.parent(outer)  # `result = [total, n]`: the display is checked by its name
    if held is not value and not (isinstance(outer, cst.Assign) and outer.value is held):
        return False
    value = held
    if isinstance(outer, cst.Assign) and outer.value is value \
            and all(isinstance(t.target, cst.Name) for t in outer.targets):
        for t in outer.targets:
            follow(t.target.value, outer)  # type: ignore[union-attr]
        return True
    if isinstance(outer, cst.AugAssign) and outer.value is value and isinstance(outer.target, cst.Name):
        follow(outer.target.value, outer)
        return True
    if isinstance(outer, (cst.For, cst.CompFor)) and outer.iter is value and isinstance(outer.target, cst.Name):
        follow(outer.target.value, outer.target)  # `for h in history:`, `[h.item() for h in history]`
        return True
    if isinstance(outer, cst.Return) and outer.value is value:
        return returned()
    return False
