"""Build `Edit`s from libcst nodes: replace a node, insert before a statement, hoist."""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import libcst as cst

from ..model import Edit
from ..static.facts import Facts, Loop


def replace(facts: Facts, node: cst.CSTNode, new: cst.CSTNode | str) -> Edit:
    """Replace `node` by `new` (a node, rendered in the unit's style, or code text)."""
    rng = facts.position(node)
    text = new if isinstance(new, str) else facts.module.code_for_node(new)
    return Edit(rng.start.line, rng.start.column, rng.end.line, rng.end.column, text)


def indent_of(facts: Facts, stmt: cst.CSTNode) -> str:
    line = facts.source_line(facts.position(stmt).start.line)
    return line[: len(line) - len(line.lstrip())]


def insert_before(facts: Facts, stmt: cst.CSTNode, code: str) -> Edit:
    """Insert `code` (one or more statements) on the lines before `stmt`, at its indent."""
    indent = indent_of(facts, stmt)
    text = "".join(f"{indent}{line}\n" if line else "\n" for line in code.split("\n"))
    line = facts.position(stmt).start.line
    return Edit(line, 0, line, 0, text)


def delete_statement(facts: Facts, stmt: cst.SimpleStatementLine) -> Edit:
    """Remove a whole statement line; a block it would leave empty gets `pass`."""
    rng = facts.position(stmt)
    block = facts.parent(stmt)
    lines = facts.lines
    if isinstance(block, cst.IndentedBlock) and len(block.body) == 1:
        return Edit(rng.start.line, rng.start.column, rng.end.line, len(lines[rng.end.line - 1]), "pass")
    if rng.end.line < len(lines):
        return Edit(rng.start.line, 0, rng.end.line + 1, 0, "")
    return Edit(rng.start.line, 0, rng.end.line, len(lines[rng.end.line - 1]), "")


def hoist_statement(facts: Facts, stmt: cst.SimpleStatementLine, loop: Loop) -> tuple[Edit, Edit]:
    """Move a loop-invariant statement to just before `loop`."""
    first, *rest = hoist_statements(facts, [stmt], loop)
    return first, rest[0]


def hoist_statements(facts: Facts, stmts: Sequence[cst.SimpleStatementLine], loop: Loop) -> tuple[Edit, ...]:
    """Move loop-invariant statements (in order) to just before `loop`."""
    lines = [facts.module.code_for_node(s.with_changes(leading_lines=())).strip() for s in stmts]
    return (insert_before(facts, loop.node, "\n".join(lines)), *(delete_statement(facts, s) for s in stmts))


def hoist_expression(facts: Facts, expr: cst.BaseExpression, loop: Loop, name: str) -> tuple[Edit, Edit]:
    """Compute `expr` once before `loop` as `name`, and use `name` in its place."""
    code = facts.module.code_for_node(expr)
    return insert_before(facts, loop.node, f"{name} = {code}"), replace(facts, expr, name)


def fresh_name(facts: Facts, base: str, taken: Iterable[str] = ()) -> str:
    """A name not used anywhere in the unit, the namespace, an earlier cell (which may have
    bound it) or a later cell (which may read the earlier cell's value)."""
    used = facts.names_read(facts.module) | set(facts.namespace) | set(taken)
    for later in facts.later:
        used |= later.names_read(later.module)
    base = re.sub(r"\W+", "_", base).strip("_") or "value"
    if base[0].isdigit():
        base = "_" + base
    name, n = base, 1
    while name in used or name in facts.aliases or facts.prior.defines(name):
        n += 1
        name = f"{base}_{n}"
    return name
