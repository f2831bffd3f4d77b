"""The report as static HTML: the notebook's no-widget fallback and the body of the HTML file.

Cards, sources and diffs come from `pieces`; automatic fixes also show the whole fixed unit,
so the code can be copied where no extension can write it.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import AbstractSet, Mapping

from ..fix import FixError, apply_findings
from ..model import Finding, Fix, Report
from . import flame as flame_mod
from .fixstate import fix_diff
from .html import Markup, join, tag
from .pieces import (CSS, card, card_inner, code_block, errors, findings_of, line_table, source, summary,
                     unit_label, units_with_findings)
from .ranks import ranks_section


def diffs(report: Report) -> dict[int, str]:
    """The diff of each automatic fix, against the unit it edits.

    Each is the fix applied and its result compiled (about a millisecond): the report shown
    last is remembered, since its static copy, its live view and every re-rendering of the
    static copy (a Dismiss, an Undo) ask again."""
    global _last_diffs
    if _last_diffs is not None and _last_diffs[0] is report:
        return dict(_last_diffs[1])
    out: dict[int, str] = {}
    for i, f in enumerate(report.findings):
        unit = report.source_of(f.ref)
        if unit is not None:
            diff = fix_diff(unit, f, unit_label(unit.ref))
            if diff:
                out[i] = diff
    _last_diffs = (report, out)
    return dict(out)


_last_diffs: tuple[Report, dict[int, str]] | None = None


@dataclass(frozen=True)
class Rendered:
    """The pieces a live view drew of a report (card contents, sources without lit lines, the
    line table) for its static copy: made once, not twice, per report shown."""

    report: Report
    dismissed: frozenset[int]
    cards: Mapping[int, Markup]  # `card_inner` of every finding, dismissed or not
    sources: tuple[Markup, ...]  # one per unit with findings, the dismissed ones unmarked
    table: Markup | None

    def fits(self, report: Report, dismissed: AbstractSet[int]) -> bool:
        """Drawn of the same findings, sources and measurements (a restamped report differs in
        its overhead figure only, which no piece shows) with the same findings dismissed."""
        mine = self.report
        if mine.findings is not report.findings or mine.sources is not report.sources:
            return False
        if (mine.profile is None) != (report.profile is None):
            return False
        if mine.profile is not None and replace(mine.profile, overhead=report.profile.overhead) != report.profile:
            return False
        return self.dismissed == frozenset(dismissed)


def rendered(report: Report, dismissed: AbstractSet[int] = frozenset()) -> Rendered:
    d = diffs(report)
    active = frozenset(dismissed)
    return Rendered(report, active,
                    {i: card_inner(report, i, d.get(i)) for i in range(len(report.findings))},
                    tuple(source(u, [(i, f) for i, f in findings_of(report, u) if i not in active])
                          for u in units_with_findings(report)),
                    line_table(report, active))


def cards_and_sources(report: Report, flame: Markup | None = None, scope: str = "",
                      dismissed: AbstractSet[int] = frozenset(), reuse: Rendered | None = None) -> Markup:
    """Flame chart (if given) above two columns: the cards and the source they point at.
    `dismissed` findings have no card, no mark in the source and no entry in the line table.
    `reuse`: pieces drawn already, used where they fit."""
    if reuse is None or not reuse.fits(report, dismissed):
        reuse = rendered(report, dismissed)
    cards = [card(report, i, scope=scope, inner=reuse.cards[i]) for i in range(len(report.findings))
             if i not in dismissed]
    return join([flame, reuse.table, columns(cards, list(reuse.sources))])


def columns(cards: list[Markup], sources: list[Markup]) -> Markup:
    """The cards beside the source they point at."""
    return tag(
        "div",
        tag("div", tag("h4", "Antipatterns"), cards or tag("div", "None found.", class_="paef-note"),
            class_="paef-col paef-cards"),
        tag("div", tag("h4", "Source"), sources, class_="paef-col paef-sources"),
        class_="paef-cols",
    )


# The source column stays in view while the cards beside it scroll by (sticky, where the
# page is the scroller: the exported file; in a notebook the labextension moves it).
COLUMNS_CSS = Markup(
    ".paef-cols{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}"
    ".paef-col{flex:1 1 420px;min-width:0}"
    ".paef-sources{position:sticky;top:0;max-height:100vh;overflow:auto;align-self:flex-start}"
)


def static_html(report: Report, top: int = 5, fallback_note: str | None = None, report_id: str | None = None,
                hide_dead_view: bool = False, dismissed: AbstractSet[int] = frozenset(),
                reuse: Rendered | None = None) -> Markup:
    """Self-contained HTML fragment (no script) for a notebook output without widgets: what a
    saved notebook, nbconvert, nbviewer and GitHub show. The chart is inline SVG.

    `dismissed` findings (what the user dismissed or silenced in the live view) are named in
    one line and left out of everything else: the saved copy must agree with the live view,
    since no script can apply the notebook's metadata where it is read. `reuse`: the pieces a
    live view drew of the same report (`Rendered`)."""
    scope = f"s{report_id}" if report_id else secrets.token_hex(4)
    layout = flame_mod.layout(report)
    chart = (tag("div", Markup(flame_mod.svg(layout, report.findings, dismissed=dismissed)),
                 class_="paef-flame-static")
             if layout is not None else None)
    return tag(
        "div",
        tag("style", CSS, COLUMNS_CSS, _hide_dead_view(report_id) if hide_dead_view and report_id else None),
        summary(report, top, scope, dismissed),
        tag("div", fallback_note, class_="paef-note") if fallback_note else None,
        _dismissed_note(report, dismissed),
        ranks_section(report),
        errors(report),
        cards_and_sources(report, chart, scope, dismissed, reuse),
        _fixed_units(report, dismissed),
        class_="paef paef-static",
        data_paef_report=report_id,
    )


def _hide_dead_view(report_id: str) -> Markup:
    """Hide the next output (this report's live view) while it shows no live view: after
    a reopen with a new kernel it would only say "Error displaying widget"."""
    return Markup(f'.jp-OutputArea-child:has([data-paef-report="{report_id}"])'
                  "+.jp-OutputArea-child:not(:has(.paef-box)){display:none}")


def _dismissed_note(report: Report, dismissed: AbstractSet[int]) -> Markup | None:
    if not dismissed:
        return None
    names = ", ".join(f"{report.findings[i].rule} (line {report.findings[i].line})" for i in sorted(dismissed))
    return tag("div", f"Dismissed: {names}.", class_="paef-note paef-dismissed-note")


def _fixed_units(report: Report, dismissed: AbstractSet[int] = frozenset()) -> Markup | None:
    """Every unit with all its automatic fixes applied (but the dismissed ones): copyable where
    nothing can apply it."""
    blocks = []
    for unit in units_with_findings(report):
        text = _all_fixed(unit.text, [f for i, f in findings_of(report, unit) if i not in dismissed])
        if text is not None:
            blocks.append(tag("h4", f"{unit_label(unit.ref)} with every automatic fix applied"))
            blocks.append(code_block(text))
    return tag("div", blocks, class_="paef-fixed") if blocks else None


def _all_fixed(text: str, findings: list[Finding]) -> str | None:
    """`text` with the fixes of `findings` applied in order, or None when none applies. Cached
    by what it depends on (the text and the fixes, not the findings' measured figures, new on
    every run): each costs a parse and a compile of the rewritten unit, and a re-run cell asks
    again."""
    key = (text, tuple(f.fix for f in findings))
    if key not in _fixed:
        try:
            new, applied, _ = apply_findings(text, findings)
        except FixError:
            new, applied = text, []
        _fixed[key] = new if applied else None
        while len(_fixed) > 64:
            _fixed.popitem(last=False)
    return _fixed[key]


_fixed: OrderedDict[tuple[str, tuple[Fix | None, ...]], str | None] = OrderedDict()
