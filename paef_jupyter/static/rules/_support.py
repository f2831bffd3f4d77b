"""Facts the rules beyond the paper share: hot loops, grad mode, loader loops, insertions.

Kept out of `facts.py` because they are rule policy (what counts as "every iteration" for a
sync, which loops read a loader), not facts about the code every rule needs.
"""

from __future__ import annotations

import libcst as cst

from ...fix.edits import replace
from ...model import Edit
from ..facts import Facts, Loop

_GRAD_OFF = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"})
_SET_GRAD = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"})
_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "trange", "progress_bar"})


def torch_alias(facts: Facts) -> str | None:
    """The local name of the `torch` module: imported by the unit, an earlier cell, or the namespace."""
    for aliases in (facts.aliases, facts.prior.aliases):
        for local, target in aliases.items():
            if target == "torch":
                return local
    value = facts.namespace.get("torch")
    return "torch" if getattr(value, "__name__", None) == "torch" else None


def hot_loop(facts: Facts, node: cst.CSTNode) -> Loop | None:
    """The loop that runs `node` once per training/eval step, if any.

    That is the innermost loop around `node` (through helpers) when it is, or sits inside, a
    training or evaluation loop, and no training/evaluation loop runs inside it: code after the
    batch loop of an epoch loop runs once per epoch, which is cheap.
    """
    loop = facts.iteration_loop(node)
    if loop is None or any(l.parent is loop and l.kind != "plain" for l in facts.loops):
        return None
    outer: Loop | None = loop
    while outer is not None:
        if outer.kind != "plain":
            return loop
        outer = outer.parent
    return None


def is_grad_off_call(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`torch.no_grad()`, `torch.inference_mode()`, `torch.set_grad_enabled(False)`."""
    if not isinstance(expr, cst.Call):
        return False
    name = facts.qualified_name(expr.func) or ""
    if name in _GRAD_OFF:
        mode = expr.args[0].value if expr.args and name.endswith("inference_mode") else None
        return not (isinstance(mode, cst.Name) and mode.value == "False")
    if name in _SET_GRAD and expr.args:
        value = expr.args[0].value
        return isinstance(value, cst.Name) and value.value == "False"
    return False


def grad_disabled(facts: Facts, node: cst.CSTNode) -> bool:
    """True if autograd is off where `node` runs: a `with`, a decorator, or a global switch."""
    for anc in facts.ancestors(node):
        if isinstance(anc, cst.With) and any(is_grad_off_call(facts, item.item) for item in anc.items):
            return True
        if isinstance(anc, cst.FunctionDef) and any(
            is_grad_off_call(facts, d.decorator) or (facts.qualified_name(d.decorator) or "") in _GRAD_OFF
            for d in anc.decorators
        ):
            return True
    line = facts.position(node).start.line
    for stmt in facts.module.body:  # `torch.set_grad_enabled(False)` at top level, before the loop
        if facts.position(stmt).start.line >= line:
            break
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Expr) and is_grad_off_call(facts, small.value):
                    return True
    return False


def iterated_name(loop: Loop) -> str | None:
    """`loader` for `for b in loader`, `enumerate(loader)`, `tqdm(loader)`."""
    if not isinstance(loop.node, cst.For):
        return None
    it: cst.BaseExpression = loop.node.iter
    while isinstance(it, cst.Call) and isinstance(it.func, (cst.Name, cst.Attribute)) and it.args:
        func = it.func.value if isinstance(it.func, cst.Name) else it.func.attr.value
        if func not in _WRAPPERS:
            return None
        it = it.args[0].value
    return it.value if isinstance(it, cst.Name) else None


def loops_over(facts: Facts, name: str) -> list[Loop]:
    return [loop for loop in facts.loops if iterated_name(loop) == name]


def insert_after(facts: Facts, stmt: cst.CSTNode, code: str) -> Edit:
    """Insert `code` (one statement) on a new line after the compound statement `stmt`."""
    rng = facts.position(stmt)
    lines = facts.lines
    first = lines[rng.start.line - 1]
    indent = first[: len(first) - len(first.lstrip())]
    end = rng.end.line
    if end < len(lines):
        return Edit(end + 1, 0, end + 1, 0, f"{indent}{code}\n")
    col = len(lines[end - 1])
    return Edit(end, col, end, col, f"\n{indent}{code}")


def keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def add_keyword(facts: Facts, call: cst.Call, name: str, value: str) -> Edit:
    """An edit giving `call` the argument `name=value`, touching only that spot (so it composes
    with other rules' edits inside the call)."""
    existing = keyword_arg(call, name)
    if existing is not None:
        return replace(facts, existing.value, value)
    if call.args:
        end = facts.position(call.args[-1]).end
        return Edit(end.line, end.column, end.line, end.column, f", {name}={value}")
    end = facts.position(call).end  # just before the closing parenthesis
    return Edit(end.line, end.column - 1, end.line, end.column - 1, f"{name}={value}")


def append_call(facts: Facts, expr: cst.BaseExpression, method: str) -> tuple[Edit, ...]:
    """Edits turning `expr` into `expr.method()` (parenthesised when it is not an atom)."""
    rng = facts.position(expr)
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not expr.lpar:
        return (Edit(rng.end.line, rng.end.column, rng.end.line, rng.end.column, f".{method}()"),)
    return (
        Edit(rng.start.line, rng.start.column, rng.start.line, rng.start.column, "("),
        Edit(rng.end.line, rng.end.column, rng.end.line, rng.end.column, f").{method}()"),
    )


def with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """`call` with `name=value` added (or replacing an existing `name=`), in the call's style."""
    existing = keyword_arg(call, name)
    arg = cst.Arg(
        value=value,
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    if existing is not None:
        return call.with_changes(args=[arg.with_changes(comma=a.comma) if a is existing else a for a in call.args])
    args = list(call.args)
    if args:
        last = args[-1]
        if isinstance(last.comma, cst.Comma):  # a trailing comma: the new argument keeps it
            arg = arg.with_changes(comma=last.comma)
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return call.with_changes(args=[*args, arg])
