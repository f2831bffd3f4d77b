"""Which later lines of a loop body are the same hoist as a loop-invariant line.

A `cpu-function` on `cov = np.cov(table)` inside a loop is fixed by computing it once before the
loop; `vals, vecs = np.linalg.eigh(cov)` on the next line reads only that result and loop-invariant
names, so it moves with it: one hoist, whose measured cost is the sum of its lines (truth67 b03:
the `eigh` line, measured alone, ranked as a dynamic low `cpu-function` above the static card on
`np.cov`, the first line of the same fix).

Pure: the text of one unit and a line in, line numbers out. A later statement of the same loop
body joins the chain when it is a plain assignment (names or tuples of names) that reads at least
one name the chain assigned, reads no name the loop body assigns otherwise (the loop's target, a
variable the loop updates), assigns no name the loop assigns elsewhere, and calls nothing but
functions of numeric modules (`np.`, `numpy.`, `torch.`, `math.`, `scipy.`) other than random
draws, and methods of chain values (`.astype`, `.T` ...): a call of a model or of a user function
(`probe(x)`) may read state the loop changes, and ends nothing but is never joined.
"""

from __future__ import annotations

import ast
import re

from .item_work import bound_names

_NUMERIC_MODULES = frozenset({"np", "numpy", "torch", "math", "scipy", "sp", "F"})
# Dotted parts of a call that draw a new value per call: never loop-invariant.
_RANDOM_PART = re.compile(r"^(rng|random|rand\w*|normal|uniform|integers|choice|shuffle|permutation|"
                          r"generator|bernoulli|multinomial|poisson|manual_seed|seed)$")
# torch calls that read or change state a loop updates (a module's parameters, the grad mode).
_STATEFUL_PART = re.compile(r"^(nn|optim|autograd|no_grad|enable_grad|set_grad_enabled|save|load|cuda)$")


# Methods that change their receiver (besides torch's in-place `x.add_()`).
_MUTATORS = frozenset({"append", "extend", "update", "add", "pop", "insert", "remove", "clear", "setdefault",
                       "sort", "reverse", "step", "zero_grad", "backward", "load_state_dict", "train", "eval"})


def hoist_chain(text: str, line: int) -> tuple[int, ...]:
    """The lines (each statement's first to last) of the later statements in `line`'s loop body
    that consume its result and are loop-invariant with it; empty when there are none."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return ()
    found = _loop_body(tree, line)
    if found is None:
        return ()
    loop, body, index = found
    first = body[index]
    chain = _assigned_names(first)
    if chain is None or not chain:
        return ()
    stored = _stored_in(loop)
    counts: dict[str, int] = {}
    for stmt in ast.walk(loop):
        if isinstance(stmt, ast.stmt):
            for name in bound_names(stmt):
                counts[name] = counts.get(name, 0) + 1
    if any(counts.get(name, 0) > 1 for name in chain):
        return ()
    lines: list[int] = []
    for stmt in body[index + 1:]:
        targets = _assigned_names(stmt)
        if not targets:
            continue
        reads = _reads(stmt)
        if not reads & chain:
            continue
        variant = (reads - chain) & stored
        if variant or any(counts.get(name, 0) > 1 for name in targets) or not _calls_are_pure(stmt, chain):
            continue
        chain |= targets
        end = getattr(stmt, "end_lineno", None) or stmt.lineno
        lines.extend(range(stmt.lineno, end + 1))
    return tuple(lines)


def _loop_body(tree: ast.AST, line: int) -> tuple[ast.stmt, list[ast.stmt], int] | None:
    """The innermost `for`/`while` whose body holds a statement starting at `line`."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            for i, stmt in enumerate(node.body):
                if stmt.lineno == line:
                    best = (node, node.body, i)  # ast.walk goes outer to inner: the last is innermost
    return best


def _assigned_names(stmt: ast.stmt) -> set[str] | None:
    """The names a plain assignment binds (`a = ...`, `a, b = ...`); None for anything else."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    else:
        return None
    names: set[str] = set()
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif not isinstance(node, (ast.Tuple, ast.List, ast.Store, ast.Starred)):
                return None  # `a[i] = ...`, `self.x = ...`: a store into something else
    return names


def _stored_in(loop: ast.stmt) -> set[str]:
    """Every name the loop binds or updates: its target, and each name stored in its body."""
    names = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    # a name whose value the loop changes in place (`x.append(...)`, `x[i] = ...`, `x += ...`)
    for node in ast.walk(loop):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and (node.func.attr.endswith("_") or node.func.attr in _MUTATORS):
            base = node.func.value
            while isinstance(base, (ast.Subscript, ast.Attribute, ast.Call)):
                base = base.func if isinstance(base, ast.Call) else base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
    return names


def _reads(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _dotted(node: ast.AST) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _calls_are_pure(stmt: ast.stmt, chain: set[str]) -> bool:
    """Every call is a numeric module's function (no random draw, no stateful part) or a method of
    a chain value."""
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        parts = _dotted(func)
        if parts is not None and len(parts) >= 2 and parts[0] in _NUMERIC_MODULES:
            if any(_RANDOM_PART.match(p) or _STATEFUL_PART.match(p) for p in parts[1:]):
                return False
            continue
        if parts is not None and len(parts) >= 2 and parts[0] in chain:
            continue  # `vecs.T.copy()`, `cov.astype(...)`
        if isinstance(func, ast.Attribute) and not isinstance(func.value, ast.Name):
            # a method of a computed value: `(vecs / s).astype(...)`: pure when its receiver's calls are
            if _receiver_is_chain_value(func.value, chain):
                continue
        return False
    return True


def _receiver_is_chain_value(node: ast.AST, chain: set[str]) -> bool:
    """An expression whose names are chain values or numeric modules (its calls are checked on their own)."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return bool(names & chain) and names <= chain | _NUMERIC_MODULES
