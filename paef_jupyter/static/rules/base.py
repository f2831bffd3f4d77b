"""The rule protocol: one visitor per antipattern, reporting `Finding`s.

A rule is written like a libcst visitor (`visit_Call(node)`, `leave_For(node)`, return False
from a visit to skip the subtree) but all rules ride ONE shared walk (`drive`): a libcst
traversal costs ~40 ms per 100 lines, so thirteen separate visits would blow the latency
budget. Rules read their metadata from `Facts` (positions, parents, types, loops), which
plays the part of libcst's metadata providers; fixes are built with `paef_jupyter.fix.edits`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, ClassVar, Sequence

import libcst as cst

from ...model import CellRef, Finding, Fix, Severity
from ...source import MaskedSource
from ..constant_flags import in_dead_branch
from ..facts import Facts
from ._tensor_facts import library_patched


@dataclass(frozen=True)
class RuleContext:
    ref: CellRef
    masked: MaskedSource
    facts: Facts


class Rule:
    id: ClassVar[str]
    title: ClassVar[str]
    severity: ClassVar[Severity] = Severity.MEDIUM
    explanation: ClassVar[str]

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.facts = ctx.facts
        self.findings: list[Finding] = []
        self._seen: set[tuple[int, int]] = set()

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        *,
        fix: Fix | None = None,
        severity: Severity | None = None,
        end_node: cst.CSTNode | None = None,
        part_of: Sequence[cst.CSTNode] = (),
        device_cost_only: bool = False,
    ) -> None:
        start = self.facts.position(node).start.line
        end = self.facts.position(end_node or node).end.line
        if (start, end) in self._seen:  # one finding per place per rule
            return
        if in_dead_branch(self.facts, node, named_only=True):
            return  # under a switch false on every path (`if USE_CUDA:` with `USE_CUDA = False`): no run reaches it
        self._seen.add((start, end))
        if fix is not None and fix.automatic:
            patch = library_patched(self.facts)
            if patch:
                fix = dataclasses.replace(fix, review=f"the program replaces a library function (`{patch}`): what the "
                                          "rewrite calls or removes may not be what it assumes")
        self.findings.append(
            Finding(
                rule=self.id,
                ref=self.ctx.ref,
                line=start,
                end_line=end,
                severity=severity or self.severity,
                message=message,
                explanation=self.explanation,
                fix=fix,
                part_lines=tuple(self.facts.position(n).start.line for n in part_of),
                device_cost_only=device_cost_only,
            )
        )


Handler = Callable[[cst.CSTNode], object]


def drive(facts: Facts, rules: Sequence[Rule]) -> dict[Rule, tuple[cst.CSTNode, Exception]]:
    """Walk the unit once, calling each rule's `visit_<Node>` / `leave_<Node>`. A rule that
    raises is stopped there and returned with the node and the error; the others walk on (one
    rule's bug costs its own findings, not the report). Too deep a tree stops the whole unit."""
    visits: dict[type, list[tuple[Rule, Handler]]] = {}
    leaves: dict[type, list[tuple[Rule, Handler]]] = {}
    skipping: dict[int, cst.CSTNode] = {}  # id(rule) -> node whose subtree it skips
    failed: dict[Rule, tuple[cst.CSTNode, Exception]] = {}

    def handlers(table: dict[type, list[tuple[Rule, Handler]]], prefix: str, cls: type) -> list[tuple[Rule, Handler]]:
        found = table.get(cls)
        if found is None:
            name = prefix + cls.__name__
            found = table[cls] = [(r, getattr(r, name)) for r in rules if hasattr(r, name)]
        return found

    def call(rule: Rule, handler: Handler, node: cst.CSTNode) -> object:
        try:
            return handler(node)
        except RecursionError:
            raise
        except Exception as error:  # noqa: BLE001 - a rule's own bug, reported with the unit's errors
            failed[rule] = (node, error)
            skipping[id(rule)] = facts.module  # never cleared: the module is left last
            return None

    stack: list[tuple[cst.CSTNode, bool]] = [(facts.module, False)]
    while stack:
        node, leaving = stack.pop()
        cls = type(node)
        if leaving:
            for rule, leave in handlers(leaves, "leave_", cls):
                if id(rule) not in skipping:
                    call(rule, leave, node)
            for key in [k for k, v in skipping.items() if v is node]:
                del skipping[key]
            continue
        for rule, visit in handlers(visits, "visit_", cls):
            if id(rule) not in skipping and call(rule, visit, node) is False:
                skipping[id(rule)] = node
        stack.append((node, True))
        stack.extend((kid, False) for kid in reversed(facts.children(node)))
    return failed
