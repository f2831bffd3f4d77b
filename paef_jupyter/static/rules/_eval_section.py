"""The evaluation section of a training step: `loss.backward(); optimizer.step(); model.eval();
output = model(features, adj)` (full-batch training, pygcn's shape). After the step and `.eval()`
the forward pass only measures, yet records a graph."""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

import libcst as cst

from ..facts import Facts
from ..names import bound_names
from ._support import grad_disabled, is_grad_off_call

# Calls in the section that mean it still needs autograd (or trains): then it is no evaluation.
_TRAINING_METHODS = frozenset({"backward", "step", "requires_grad_", "retain_grad", "register_hook", "zero_grad"})
_TRAINING_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward", "torch.enable_grad", "torch.func.grad"})
# Return values read only through these carry no graph to the caller.
_GRAPHLESS = frozenset({"item", "tolist", "detach", "numpy", "argmax"})
_NUMBERS = frozenset({"float", "int", "round", "bool", "len"})
# Methods that keep their arguments in the receiver (a list of outputs, a dict of metrics).
_STORING = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "push", "put",
                      "add_", "copy_", "set_"})


def evaluation_sections(facts: Facts, runs_model: Callable[[cst.Call], bool],
                        ) -> Iterator[tuple[cst.SimpleStatementLine, list[cst.BaseStatement]]]:
    """Each model forward that runs, unguarded, after `<model>.eval()` which itself follows the
    step in the body of a training loop (or of a function called once per iteration that steps),
    with the statements of its section (up to `<model>.train()` or the end of the body). The
    section's values must reach no later statement of the body, nor the next pass before they
    are bound again."""
    bodies: list[tuple[Sequence[cst.BaseStatement], cst.FunctionDef | None]] = [
        (loop.node.body.body, None) for loop in facts.loops
        if loop.kind == "train" and isinstance(loop.node.body, cst.IndentedBlock)]
    # a function of an earlier cell called by this cell's loop is that cell's code, read there
    bodies += [(func.body.body, func) for func in facts.per_iteration_functions
               if isinstance(func, cst.FunctionDef) and isinstance(func.body, cst.IndentedBlock)
               and facts.owner_of(func) is facts]
    for body, func in bodies:
        found = _section(facts, body)
        if found is None:
            continue
        start, section = found
        flat = [s for stmt in section for s in (_guarded_body(stmt) or [stmt])]
        bound = set().union(*(facts.names_written(s) for s in flat if _eval_call(s) is None))
        after = body[start + len(section):]
        if _trains(facts, section) or _read_before_bound(facts, body[:start], bound) \
                or any(_loads(facts, s) & bound for s in after) \
                or (func is not None and _returned(facts, func, bound)):
            continue
        for stmt in flat:
            if isinstance(stmt, cst.SimpleStatementLine) and not grad_disabled(facts, stmt) \
                    and any(runs_model(c) for c in facts.calls_in(stmt)):
                yield stmt, section
                break


def evaluation_functions(facts: Facts, runs_model: Callable[[cst.Call], bool],
                         ) -> Iterator[tuple[cst.FunctionDef, cst.SimpleStatementLine, list[cst.BaseStatement]]]:
    """pygcn's / a GCN's `def test(model, x, y): model.eval(); out = model(x); return acc(out)`,
    called once per iteration of a training loop: a function of this unit that trains nothing
    (no step, no backward, no gradient asked), switches a model to eval mode at its top level,
    then forwards it with no `.train()` between, and lets no value of its own out with a graph
    (no return of one, no store into an attribute, an item, a global, or an object it did not
    make). Its first direct forward after `.eval()`, and the statements from there to the end."""
    for func, loop in facts.per_iteration_functions.items():
        if loop.kind != "train" or not isinstance(func, cst.FunctionDef) or facts.owner_of(func) is not facts \
                or not isinstance(func.body, cst.IndentedBlock):
            continue
        body = list(func.body.body)
        start = next((i + 1 for i, s in enumerate(body) if _eval_call(s) is not None), None)
        if start is None or _trains(facts, body) or _escapes(facts, func) or _grad_off_inside(facts, func):
            continue
        section = body[start:]
        if not section or _returns_graph(facts, func, runs_model):
            continue
        for stmt in section:
            if any(m == "train" for m, _ in _method_calls(facts, stmt)):
                break  # MC dropout: `.train()` before the forward turns dropout back on
            if isinstance(stmt, cst.SimpleStatementLine) and any(_direct(c) and runs_model(c) for c in facts.calls_in(stmt)):
                if not grad_disabled(facts, stmt):
                    yield func, stmt, section
                break


def _returns_graph(facts: Facts, func: cst.FunctionDef, runs_model: Callable[[cst.Call], bool]) -> bool:
    """Some `return` of `func` may hand its caller a tensor with a graph: a forward, or a name
    bound from one, unless only a graphless read (`.item()`, `.argmax()`, `float(...)`, a
    comparison) stands between. Names are followed in order through simple assignments; one
    bound inside a compound statement stays marked once marked."""
    carrying: set[str] = set()

    def carries(expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.Comparison):
            return False
        if isinstance(expr, cst.Call):
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _GRAPHLESS:
                return False
            if isinstance(expr.func, cst.Name) and expr.func.value in _NUMBERS:
                return False
        if any(runs_model(c) and not _graphless_use(facts, c, expr) for c in facts.calls_in(expr)):
            return True
        return any(isinstance(n, cst.Name) and n.value in carrying and not _read_without_graph(facts, n)
                   and not _graphless_use(facts, n, expr) for n in facts.walk(expr))

    for node in facts.walk(func.body, into_scopes=False):
        if isinstance(node, cst.Return):
            if node.value is not None and carries(node.value):
                return True
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _STORING \
                and isinstance(node.func.value, cst.Name) and any(carries(a.value) for a in node.args):
            carrying.add(node.func.value.value)  # `outs.append(model(x))`: the list now holds a graph
        elif isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and node.value is not None:
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            names = set().union(*(set(bound_names(t)) for t in targets))
            if carries(node.value) or isinstance(node, cst.AugAssign) and names & carrying:
                carrying |= names
            elif isinstance(node, cst.Assign) and isinstance(facts.parent(facts.parent(node)), cst.IndentedBlock) \
                    and facts.parent(facts.parent(facts.parent(node))) is func:
                carrying -= names  # (a plain rebinding at the function's own level)
    return False


def _direct(call: cst.Call) -> bool:
    """`model(x)`, `self.net(x)`, `self.forward(x)`: the forward itself, not another method of
    the model (`model.init_hidden(bsz)` makes a state)."""
    func = call.func
    return isinstance(func, cst.Name) or isinstance(func, cst.Attribute) and (
        func.attr.value == "forward" or isinstance(func.value, cst.Name) and func.value.value == "self")


def _grad_off_inside(facts: Facts, func: cst.FunctionDef) -> bool:
    """The function already turns gradients off somewhere (`with torch.no_grad():` around its
    batches): the user chose where."""
    return any(isinstance(n, cst.With) and any(is_grad_off_call(facts, item.item) for item in n.items)
               for n in facts.walk(func.body, into_scopes=False))


def _graphless_use(facts: Facts, use: cst.CSTNode, root: cst.BaseExpression) -> bool:
    """`use` reaches `root` only through a graphless read: a comparison (`out.argmax(1) == y`),
    the receiver of `.item()`/`.argmax()`/`.numpy()`, or `float(...)`."""
    child = use
    for anc in facts.ancestors(use):
        if isinstance(anc, cst.Comparison):
            return True
        if isinstance(anc, cst.Call):
            if isinstance(anc.func, cst.Attribute) and anc.func.attr.value in _GRAPHLESS and child is anc.func:
                return True
            if isinstance(anc.func, cst.Name) and anc.func.value in _NUMBERS and child is not anc.func:
                return True
        if anc is root:
            return False
        child = anc
    return False


def _assigned(facts: Facts, func: cst.FunctionDef) -> Iterator[str]:
    """Names `func` binds by assignment (`outs = []`), not those it only mutates (`outs.append(o)`)."""
    for node in facts.walk(func.body, into_scopes=False):
        if isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For)):
            yield from bound_names(node.target)
        elif isinstance(node, cst.AsName):
            yield from bound_names(node.name)
        elif isinstance(node, cst.NamedExpr):
            yield from bound_names(node.target)


def _escapes(facts: Facts, func: cst.FunctionDef) -> bool:
    """A value of `func` may outlive the call other than by its return: `global`/`nonlocal`, a
    generator, a store into an attribute or an item (`self.out = out`, `cache[k] = out`), or a
    storing method (`append`, `update`) on an object `func` did not bind itself."""
    own = set(_assigned(facts, func)) - {p.name.value for p in func.params.params}
    for node in facts.walk(func.body, into_scopes=False):
        if isinstance(node, (cst.Global, cst.Nonlocal, cst.Yield, cst.Await)):
            return True
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) \
                and not _plain(node.target):
            return True
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _STORING \
                and not (isinstance(node.func.value, cst.Name) and node.func.value.value in own):
            return True
    return False


def held_out_checks(facts: Facts, runs_model: Callable[[cst.Call], bool],
                    ) -> Iterator[tuple[cst.SimpleStatementLine, list[cst.BaseStatement]]]:
    """`if step % 50 == 0: out = model(test_x); acc = ...` after the step of a training loop:
    the model the step trains, run on held-out data (names the loop never binds or rebinds)
    only to measure, with the statements of that `if`. Its values must reach no later
    statement of the body, nor the next pass before they are bound again, and the block trains
    nothing."""
    for loop in facts.loops:
        if loop.kind != "train" or not isinstance(loop.node, cst.For) or not isinstance(loop.node.body, cst.IndentedBlock):
            continue
        body = loop.node.body.body
        varying = set(facts.names_written(loop.node.body)) | set(bound_names(loop.node.target))
        stepped = False
        for i, stmt in enumerate(body):
            if any(m in ("backward", "step") for m, _ in _method_calls(facts, stmt)):
                stepped = True
                continue
            if not (stepped and isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock)):
                continue
            block = list(stmt.body.body)
            found = _held_out_forward(facts, block, runs_model, varying)
            if found is None:
                continue
            first, call = found
            model = call.func.value  # type: ignore[attr-defined]
            trained = any(isinstance(c.func, cst.Name) and c.func.value == model for s in body[:i] for c in facts.calls_in(s))
            if not trained or grad_disabled(facts, stmt) or _trains(facts, block):
                continue
            # `classifier = classifier.eval()` binds the same module again: no value of the check's
            bound = set().union(*(facts.names_written(s) for s in block)) - _switched_modules(facts, block)
            fresh = bound - set(bound_names(loop.node.target))  # the loop's target is bound anew before the next pass reads it
            if any(_loads(facts, s) & bound for s in body[i + 1:]) or _read_before_bound(facts, body[:i], fresh):
                continue
            yield first, block


def _held_out_forward(facts: Facts, block: list[cst.BaseStatement], runs_model: Callable[[cst.Call], bool],
                      varying: set[str]) -> tuple[cst.SimpleStatementLine, cst.Call] | None:
    """The statement of `block` that runs a model (`out = net(x)`, `pred, _ = classifier(points)`)
    on held-out data, and its call: every input reads only names the loop never binds, or names
    the block bound before from such names (PointNet's `j, data = next(enumerate(testdataloader,
    0))`, then `points, target = data`, `.transpose`, `.cuda()`). Only such bindings and `.eval()`
    switches may come before it."""
    varying = {n for n in varying if facts.binds(n)}  # (`next(enumerate(loader))` notes `enumerate` as changed)
    held: set[str] = set()
    for stmt in block:
        if _switch(stmt) is not None:
            continue
        assign = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not isinstance(assign, cst.Assign) or not all(_plain(t.target) for t in assign.targets):
            return None
        call = assign.value
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.args and runs_model(call):
            inputs = set().union(*(facts.names_read(a.value) for a in call.args))
            clean = bool(inputs) and not any(a.keyword is not None or a.star for a in call.args) and not inputs & varying - held
            return (stmt, call) if clean and isinstance(stmt, cst.SimpleStatementLine) else None
        written = set(facts.names_written(stmt))
        held = held - written | (written if not facts.names_read(call) & varying - held else set())
    return None


def _switch(stmt: cst.BaseStatement) -> str | None:
    """`model` of `model.eval()` or of `model = model.eval()` (the same module, switched)."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    value = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "eval"
            and not value.args and isinstance(value.func.value, cst.Name)):
        return None
    name = value.func.value.value
    if isinstance(small, cst.Assign) and not (len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                                               and small.targets[0].target.value == name):
        return None
    return name


def _switched_modules(facts: Facts, block: list[cst.BaseStatement]) -> set[str]:
    """Names the block binds only by switching the module they hold (`classifier = classifier.eval()`)."""
    switched = {name for name in map(_switch, block) if name is not None}
    return switched - set().union(*(facts.names_written(s) for s in block if _switch(s) is None))


def _method_calls(facts: Facts, node: cst.CSTNode) -> Iterator[tuple[str, cst.BaseExpression]]:
    for call in facts.calls_in(node):
        if isinstance(call.func, cst.Attribute):
            yield call.func.attr.value, call.func.value


def _section(facts: Facts, body: Sequence[cst.BaseStatement]) -> tuple[int, list[cst.BaseStatement]] | None:
    stepped, start, model = False, -1, ""
    for i, stmt in enumerate(body):
        if start < 0:
            methods = list(_method_calls(facts, stmt))
            if any(m in ("backward", "step") for m, _ in methods):
                stepped = True
            elif stepped and _eval_call(stmt) is not None:
                start, model = i + 1, facts.code(_eval_call(stmt))  # type: ignore[arg-type]
            elif stepped and _guarded_body(stmt):
                start, model = i, facts.code(_eval_call(_guarded_body(stmt)[0]))  # type: ignore[arg-type,index]
            continue
        if any(m == "train" and facts.code(r) == model for m, r in _method_calls(facts, stmt)):
            return start, list(body[start:i])
    return (start, list(body[start:])) if start >= 0 else None


def _eval_call(stmt: cst.BaseStatement) -> cst.BaseExpression | None:
    """`model` of a statement that is only `model.eval()`."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
            and isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, cst.Call):
        func = stmt.body[0].value.func
        if isinstance(func, cst.Attribute) and func.attr.value == "eval" and not stmt.body[0].value.args:
            return func.value
    return None


def _guarded_body(stmt: cst.BaseStatement) -> Sequence[cst.BaseStatement]:
    """The statements of `if flag: model.eval(); out = model(x)` (no `else`, `.eval()` first):
    pygcn's optional validation pass, whose values the unconditional code after it reads
    either way ([] for any other statement)."""
    if isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock) \
            and stmt.body.body and _eval_call(stmt.body.body[0]) is not None:
        return stmt.body.body
    return []


def _trains(facts: Facts, section: list[cst.BaseStatement]) -> bool:
    for stmt in section:
        for call in facts.calls_in(stmt):
            if (isinstance(call.func, cst.Attribute) and call.func.attr.value in _TRAINING_METHODS) \
                    or (facts.qualified_name(call.func) or "") in _TRAINING_CALLS:
                return True
    return False


def _read_before_bound(facts: Facts, before: Sequence[cst.BaseStatement], names: set[str]) -> bool:
    """On the next pass, the step reads a value of the section before binding it anew."""
    return _reads_pending(facts, before, set(names))


def _reads_pending(facts: Facts, stmts: Sequence[cst.BaseStatement], pending: set[str]) -> bool:
    """`_read_before_bound` over `stmts`, narrowing `pending` as they bind. An `if` is followed
    branch by branch, in order, each branch with its own copy of `pending` (NeRF's `if
    one_image_per_step: rays_o = ...; rays_o = rays_o.reshape(...)` binds before it reads);
    after it, what any branch binds counts as bound, as it did for the whole statement before.
    Loops, `try` and `match` are still taken whole: a loop's second pass reads what its first
    bound later."""
    for stmt in stmts:
        branches = _branches(stmt)
        if branches is not None:
            assert isinstance(stmt, cst.If)
            if facts.names_read(stmt.test) & pending \
                    or any(_reads_pending(facts, branch, set(pending)) for branch in branches):
                return True
        elif _loads(facts, stmt) & pending:
            return True
        pending -= facts.names_written(stmt)
    return False


def _branches(stmt: cst.BaseStatement) -> list[Sequence[cst.BaseStatement]] | None:
    """The statement lists an `if` runs (an `elif` as a one-statement list holding its `If`),
    or None for any other statement."""
    if not (isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock)):
        return None
    branches: list[Sequence[cst.BaseStatement]] = [stmt.body.body]
    if isinstance(stmt.orelse, cst.If):
        branches.append([stmt.orelse])
    elif isinstance(stmt.orelse, cst.Else):
        if not isinstance(stmt.orelse.body, cst.IndentedBlock):
            return None
        branches.append(stmt.orelse.body.body)
    return branches


def _loads(facts: Facts, stmt: cst.BaseStatement) -> set[str]:
    """Names a statement reads (`out = model(x)` reads `model` and `x`, not `out`)."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        assign = stmt.body[0]
        reads = set(facts.names_read(assign.value))
        for target in assign.targets:
            if not _plain(target.target):
                reads |= facts.names_read(target.target)
        return reads
    return set(facts.names_read(stmt))


def _plain(target: cst.BaseExpression) -> bool:
    if isinstance(target, cst.Name):
        return True
    return isinstance(target, (cst.Tuple, cst.List)) and all(_plain(e.value) for e in target.elements)


def _returned(facts: Facts, func: cst.FunctionDef, names: set[str]) -> bool:
    for node in facts.walk(func.body, into_scopes=False):
        if isinstance(node, cst.Return) and node.value is not None:
            value = node.value
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _GRAPHLESS:
                continue
            if any(not _read_without_graph(facts, use) for use in facts.walk(value)
                   if isinstance(use, cst.Name) and use.value in names):
                return True
    return False


def _read_without_graph(facts: Facts, use: cst.Name) -> bool:
    """`loss_val.data` (pyGAT's `return loss_val.data[0]`) or `loss_val.item()`: the caller gets the
    value without its graph, the same with or without `no_grad`."""
    parent = facts.parent(use)
    if not (isinstance(parent, cst.Attribute) and parent.value is use):
        return False
    if parent.attr.value == "data":
        return True
    call = facts.parent(parent)
    return parent.attr.value in _GRAPHLESS and isinstance(call, cst.Call) and call.func is parent
