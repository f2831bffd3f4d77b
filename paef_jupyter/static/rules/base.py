"""The rule protocol: one libcst visitor per antipattern, reporting `Finding`s.

A rule reads `Facts` (types, loops, invariance) and reports nodes; fixes are built from node
replacements with `paef_jupyter.fix.edits`. Rules never touch IPython or the profiler.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider

from ...model import CellRef, Finding, Fix, Severity
from ...source import MaskedSource
from ..facts import Facts


@dataclass(frozen=True)
class RuleContext:
    ref: CellRef
    masked: MaskedSource
    facts: Facts


class Rule(cst.CSTVisitor):
    id: ClassVar[str]
    title: ClassVar[str]
    severity: ClassVar[Severity] = Severity.MEDIUM
    explanation: ClassVar[str]
    METADATA_DEPENDENCIES = (PositionProvider, ParentNodeProvider)

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__()
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
    ) -> None:
        start = self.facts.position(node).start.line
        end = self.facts.position(end_node or node).end.line
        if (start, end) in self._seen:  # one finding per place per rule
            return
        self._seen.add((start, end))
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
            )
        )
