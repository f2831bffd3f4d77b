"""Which lines of a dataset's `__getitem__` do per-item work.

A DataLoader without workers runs `__getitem__` in the training process. Work there that depends
on the item (it reads the index, or a value computed from it, or draws a random number per item:
an augmentation) is what loading costs: workers would take it off the critical path, so it is
the `sync-dataloader` finding's evidence. Work that does not depend on the item
(`np.std(self.rows, axis=0)` per item) is the same every call: its fix is to compute it once,
a `cpu-function` of its own (truth66/67).

Pure: the text of one unit in, line numbers out. A statement is per-item when it reads the
index parameter or a local assigned from per-item work, or calls something named like a random
draw (`rng`, `random`, `rand...`, `normal`, `shuffle`...). Names assigned by a per-item statement
become per-item, and so does the body of a per-item branch or loop; loops are followed to a
fixed point.
"""

from __future__ import annotations

import ast
import re

ITEM_METHODS = frozenset({"__getitem__", "__getitems__"})
# A call whose dotted name has one of these parts draws a new value per call (a per-item
# random augmentation); `self.rng.integers`, `np.random.normal`, `torch.randn`, `random.random`.
_RANDOM_PART = re.compile(r"^(rng|random|rand\w*|normal|uniform|integers|choice|shuffle|permutation|"
                          r"generator|bernoulli|multinomial|poisson)$")


def per_item_lines(text: str) -> set[int]:
    """The 1-based lines of every `__getitem__` statement that depends on the item."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ITEM_METHODS:
            found |= _function_lines(node)
    return found


def _function_lines(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    if len(params) < 2:  # (self, index): the index is the item
        return set()
    tainted = {params[1]}
    statements = [s for s in ast.walk(func) if isinstance(s, ast.stmt) and s is not func]
    lines: set[int] = set()
    changed = True
    while changed:  # a loop's later statement can taint a name an earlier one reads
        changed = False
        for stmt in statements:
            header = _header_parts(stmt)
            if not any(_depends(part, tainted) for part in header):
                continue
            # a per-item branch or loop: what its body does depends on the item too
            inner = [stmt, *(s for s in ast.walk(stmt) if isinstance(s, ast.stmt) and s is not stmt)] \
                if header is not None and header[:1] != [stmt] else [stmt]
            for target in {name for s in inner for name in bound_names(s)}:
                if target not in tainted:
                    tainted.add(target)
                    changed = True
            span = range(stmt.lineno, (stmt.end_lineno if len(inner) > 1 else _header_end(stmt)) + 1)
            if not lines.issuperset(span):
                lines.update(span)
                changed = True
    return lines


def _header_parts(stmt: ast.stmt) -> list[ast.AST]:
    """What a statement itself evaluates (a compound statement's header, not its body)."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in stmt.items]
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        return []
    return [stmt]


def _header_end(stmt: ast.stmt) -> int:
    parts = _header_parts(stmt)
    if parts == [stmt]:
        return stmt.end_lineno or stmt.lineno
    return max((p.end_lineno or stmt.lineno for p in parts), default=stmt.lineno)


def bound_names(stmt: ast.stmt) -> set[str]:
    """Every name a statement binds, nested targets included (`for (a, b) in`, `with ... as c`)."""
    targets: list[ast.AST] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
    names: set[str] = set()
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                names.add(n.id)
    return names


def _depends(node: ast.AST, tainted: set[str]) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in tainted:
            return True
        if isinstance(n, ast.Call) and any(_RANDOM_PART.match(p) for p in _dotted(n.func)):
            return True
    return False


def _dotted(func: ast.AST) -> list[str]:
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return parts
