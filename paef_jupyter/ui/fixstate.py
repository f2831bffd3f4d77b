"""Which fixes of one cell are applied. The cell text is always `original + applied fixes`.

Keeping the applied set (not a stack of texts) makes Apply, Undo and Apply all one operation:
compute the text for a new set from the original and ask the editor to swap the current text
for it. Nothing here talks to a frontend; the view commits a plan once the edit succeeded.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..fix import FixError, apply_findings, unified_diff
from ..model import Finding, Fix, SourceUnit


@dataclass(frozen=True)
class Plan:
    text: str
    applied: frozenset[int]
    skipped: frozenset[int]


class CellFixes:
    """The automatic fixes of one unit, keyed by the finding's index in its `Report`."""

    def __init__(self, unit: SourceUnit, findings: Mapping[int, Finding]):
        self.unit = unit
        self.findings = {i: f for i, f in findings.items() if f.fixable}
        self.current = unit.text
        self.applied: frozenset[int] = frozenset()

    def plan(self, wanted: Iterable[int]) -> Plan:
        """The text with exactly `wanted` applied; colliding fixes land in `skipped`."""
        chosen = set(wanted)
        order = [i for i in sorted(self.findings) if i in chosen]
        try:
            text, done, skipped = apply_findings(self.unit.text, [self.findings[i] for i in order])
        except FixError:
            return Plan(self.current, self.applied, frozenset(order) - self.applied)
        ids = {id(f): i for i, f in self.findings.items()}
        return Plan(text, frozenset(ids[id(f)] for f in done), frozenset(ids[id(f)] for f in skipped))

    def commit(self, plan: Plan) -> None:
        self.current = plan.text
        self.applied = plan.applied


def fix_diff(unit: SourceUnit, finding: Finding, name: str) -> str | None:
    """The unified diff of one fix on its own (automatic, or one to review before applying it
    by hand), or None when it has none.

    The rewritten unit is cached by what it depends on (the text and the fix; not the
    finding's measured figures, new on every run, nor the unit's name, `In[N]` with the
    cell's new count): the widget and its static copy show the same diffs, a re-run cell
    shows them again, and each rewrite costs a parse and a compile of the unit."""
    fix = finding.fix
    if fix is None or not (fix.automatic or fix.needs_review):
        return None
    key = (unit.text, fix)
    if key not in _rewritten:
        try:
            new, done, _ = apply_findings(unit.text, [finding], unsafe=True)
        except FixError:
            new, done = unit.text, []
        _rewritten[key] = new if done else None
        while len(_rewritten) > 256:
            _rewritten.popitem(last=False)
    else:
        _rewritten.move_to_end(key)
    new = _rewritten[key]
    return unified_diff(unit.text, new, name) if new is not None else None


_rewritten: OrderedDict[tuple[str, Fix], str | None] = OrderedDict()
