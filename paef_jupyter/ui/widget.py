"""The live view of a report (ipywidgets): linked flame chart, cards, source, fix buttons.

Built from the same pieces as the static and exported views, as one widget model
(`live_report.LiveReport`: the summary, the flame chart's figure JSON with plotly.js loaded
once per page, the cards, their buttons and the source) in a box. A click on a frame reaches
the kernel and the cards and lines behind it are lit; selecting a card recolours its frames
and lights its lines. Cell edits go through `editor.replace_cell` (the
labextension bridge); where it cannot write, the card offers the `--apply` re-run and copyable
code.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import ipywidgets as w

from ..model import CellRef, Report
from . import flame as flame_mod
from .fixstate import CellFixes, Plan
from .html import Markup, join, tag
from .pieces import (CSS, card, errors, findings_of, fmt_time, line_table, overhead_text, source, summary,
                     units_with_findings)
from .ranks import ranks_section
from .live_report import CARD_BUTTONS, LiveReport
from .static_view import COLUMNS_CSS, Rendered, rendered, static_html

STATUS_TEXT = {
    "applied": "Applied to the cell (Undo, or Ctrl+Z in the cell, reverts it).",
    "conflict": "The cell was edited since it was analysed, so nothing was written. Re-run it.",
    "not_found": "The cell is no longer open in a notebook on this kernel.",
    "no_extension": "The paef-jupyter extension did not answer in this frontend, so the cell cannot be "
    "written from here.",
    "no_cell_id": "The frontend did not say which cell this is, so it cannot be written from here.",
}

WIDGET_CSS = Markup(
    ".paef-box .paef-card{margin:0}"
    ".paef-head{line-height:1.45}"
    ".paef-cardbox{margin:0 0 8px}"
    ".paef-box .paef-head,.paef-box .paef-chart,.paef-box .widget-box{min-width:0;max-width:100%}"
    ".paef-head,.paef-body{overflow-wrap:anywhere}"
    ".paef-body{line-height:1.45;min-width:0;max-width:100%}"
    ".paef-toolbar{display:flex;align-items:center;flex-wrap:wrap}"
    ".paef-card-buttons{display:flex;flex-flow:row wrap}"
    ".paef-code-box{width:100%;box-sizing:border-box;font-family:var(--jp-code-font-family,monospace);"
    "background:var(--jp-layout-color1,#fff);color:var(--jp-content-font-color1,#000);"
    "border:1px solid var(--jp-border-color1,#bdbdbd)}"
    ".paef-cardbox.paef-selected .paef-card{box-shadow:0 0 0 2px var(--paef-accent)}"
    ".paef-cardbox.paef-linked .paef-card{box-shadow:0 0 0 2px #8250df}"
    ".paef-cardbox.paef-dimmed{opacity:.5}"
    ".paef-cardbox.paef-dismissed{opacity:.45}"
    ".paef-cardbox.paef-dismissed .paef-card>:not(.paef-card-head){display:none}"
    ".paef-cardbox.paef-applied .paef-card{border-color:#1a7f37}"
    ".paef-box .jupyter-button:disabled{opacity:.45;cursor:not-allowed;filter:grayscale(1)}"
    ".paef-cardbox{cursor:pointer}.paef-cardbox .paef-card{cursor:auto}"
)


class ReportView:
    """One report on screen. `rerun(new_cell_text)` re-runs a fixed cell (Re-run and compare)."""

    def __init__(
        self,
        report: Report,
        *,
        top: int = 5,
        editor: Any = None,
        rerun: Callable[[str], Any] | None = None,
        apply_hint: str | None = None,
        static_first: bool = False,
        placeholder: Any = None,
        final_later: bool = False,
    ):
        """`static_first`: the static report is displayed (replacing `placeholder`) before the
        widgets are built: a front end handles a report's widget `comm_open` messages one after
        another, and an output sent after them waited for all of them. `final_later`: the
        report's final figures come with `display(restamp=...)`, which sends the static copy
        then: its output is displayed empty, so the copy is drawn once, not twice."""
        self.report = report
        self.id = uuid.uuid4().hex[:12]
        self.top = top
        self.editor = editor
        self.rerun = rerun
        self.apply_hint = apply_hint
        self.flame = flame_mod.layout(report)
        self.selected: int | None = None
        # What the notebook remembers (the bridge reads and writes its metadata): findings
        # dismissed per cell, and rules silenced for the whole notebook.
        self.memory = editor if hasattr(editor, "remember_dismissed") else None
        self.silenced: set[str] = set(self.memory.silenced) if self.memory else set()
        self.dismissed: set[int] = {i for i in range(len(report.findings)) if self._remembered(i)}
        self._static: Any = None  # the static copy's display handle, once displayed
        # Cards, sources and line table, drawn once for the live view and its static copy.
        self._rendered: Rendered = rendered(report, self.dismissed)
        if static_first:
            self._display_static(placeholder, empty=final_later)
        self.fixes: dict[tuple, CellFixes] = {}
        for unit in report.sources:
            cell = CellFixes(unit, dict(findings_of(report, unit)))
            if cell.findings:
                self.fixes[unit.ref.key] = cell
        self.units = units_with_findings(report)
        # Each widget is a model the front end opens before it draws the view: two (the box
        # and the report), whatever the number of cards, with the kernel's one layout.
        layout = _shared_layout()
        self.cards = [_Card(i) for i in range(len(report.findings))]
        self.body: LiveReport | None = None  # made with its whole first state: one comm_open
        self._output: w.Output | None = None
        self._refresh()
        for i in self.dismissed:  # the static copy was made with them
            self.cards[i].status = _status_html(self._dismissed_text(i))
        table = self._rendered.table
        figure, painted = {}, None
        if self.flame is not None:
            figure = flame_mod.figure_json(report, self.flame)
            painted = flame_mod.colors(self.flame, None, self.dismissed) if self.dismissed else None
        self.body = LiveReport(
            self.press,
            on_click=self.show_frame if self.flame is not None else None,
            css=self._css(),
            head=self._head_html(),
            figure=figure,
            colors=dict(zip(("fill", "outline"), painted)) if painted else {},
            toolbar=bool(report.findings),
            tips={"apply_all": "apply every automatic fix not dismissed",
                  "compare": "run the fixed cell now and compare its time with the first run"},
            cards=[{"html": str(card(report, i, scope=self.id, inner=self._rendered.cards[i])), "tips": self._tips(i)}
                   for i in range(len(report.findings))],
            card_state=[c.state() for c in self.cards],
            sources=[str(s) for s in self._rendered.sources],
            lines=str(table) if table is not None else "",
            controls=self._controls(),
            layout=layout,
        )
        # A box, so that the re-run's output (a widget of its own) can be added below the report.
        self.widget = w.VBox([self.body], layout=layout, _dom_classes=("paef", "paef-box"))

    # -- display --------------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        """The widget, with the static HTML view for frontends that cannot show widgets."""
        bundle = self._widget_bundle()
        bundle["text/html"] = str(static_html(self.report, self.top, dismissed=self.dismissed))
        return bundle

    def display(self, in_place_of: Any = None, restamp: Callable[[Report], Report] | None = None) -> None:
        """Two outputs: the static report, then the live view.

        A front end prefers a bundle's widget type to its HTML, so one bundle would show
        "model not found" once the kernel is gone. The static report is its own output,
        which the saved notebook, nbconvert, nbviewer and GitHub show; while the live view is
        drawn, its CSS hides that output, and the static output's CSS hides a live view that
        cannot be drawn (CSS `:has`), so the two must be neighbours. Either the static report
        was displayed already (`static_first`), or it takes the place of `in_place_of`, the
        placeholder output right before the live view, once the view is out. `restamp` gives
        the report its final figures (taken now, the view sent): the summary and the static
        report show them. The static output keeps a display id, so a Dismiss, a silenced rule
        or their Undo rewrites it (`_show_dismissed`): what the notebook saves agrees with
        what the user decided (after a page reload on the same kernel the labextension finds
        that output by its report id: `staticcopy.ts`)."""
        from IPython.display import display

        from . import HtmlText, unflushed

        if self._static is None and in_place_of is None:
            self._display_static(None)
        with unflushed():  # right after the static copy, or after the placeholder it replaces
            display(self._widget_bundle(), raw=True)
        # Both outputs of the final figures are drawn before either is sent: their two
        # messages leave back to back (the I/O thread wakes once for them, not once each while
        # the static copy is drawn).
        final: dict[str, str] = {}
        static = None
        if restamp is not None:
            shown, self.report = self.report, restamp(self.report)
            final = self._final_head(shown)
        if in_place_of is not None or restamp is not None:
            static = HtmlText(self._static_html())
        for name, value in final.items():
            setattr(self.body, name, value)
        if in_place_of is not None:
            in_place_of.update(static)
            self._static = in_place_of
        elif restamp is not None:
            with unflushed():  # an update in place
                self._static.update(static)

    def _final_head(self, shown: Report) -> dict[str, str]:
        """What the live head needs to show `self.report` where it shows `shown`: its overhead
        figure alone (`LiveReport.overhead`, tens of bytes, the head drawn once) when that is all
        that changed, as the magic's restamp changes it; else the whole head again."""
        new, old = self.report.profile, shown.profile
        if (self.report.findings is shown.findings and self.report.sources is shown.sources
                and self.report.errors is shown.errors and self.report.title == shown.title
                and new is not None and old is not None and bool(new.overhead) == bool(old.overhead)
                and replace(old, overhead=new.overhead) == new
                and replace(self.report, profile=old) == shown):
            figure = overhead_text(new)
            return {"overhead": figure} if figure != overhead_text(old) else {}
        head = self._head_html()
        return {"head": head, "overhead": ""} if head != self.body.head else {}

    def _display_static(self, placeholder: Any, empty: bool = False) -> None:
        from . import HtmlText, flushed_if_written, shown

        if placeholder is not None:
            placeholder.update(HtmlText(""))
        with flushed_if_written():  # after what the cell printed
            self._static = shown(HtmlText("" if empty else self._static_html()))

    def _static_html(self) -> str:
        return str(static_html(self.report, self.top, report_id=self.id, hide_dead_view=True,
                               dismissed=self.dismissed, reuse=self._rendered))

    def _widget_bundle(self) -> dict:
        """The view's mime bundle, as ipywidgets writes it but for its text: ipywidgets' own
        `repr` walks every trait of every widget in the view (milliseconds) for a text that
        is replaced anyway."""
        n = len(self.report.findings)
        return {"text/plain": f"paef report: {n} finding{'s' if n != 1 else ''}",
                "application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                             "model_id": self.widget.model_id}}

    def close(self) -> None:
        """Close every widget of the view (with their own layouts and styles, but not the
        kernel's shared layout) in the kernel and the front end: a re-run cell leaves no models
        behind."""
        stack: list[Any] = [self.widget]
        seen: set[int] = {id(_layout)}
        while stack:
            widget = stack.pop()
            if id(widget) in seen or not isinstance(widget, w.Widget):
                continue
            seen.add(id(widget))
            stack.extend(getattr(widget, "children", ()) or ())
            stack.extend(x for x in (getattr(widget, "layout", None), getattr(widget, "style", None)) if x is not None)
            widget.close()

    @property
    def output(self) -> w.Output:
        """Where the fixed cell's re-run prints: added below the view when it first runs."""
        if self._output is None:
            self._output = w.Output()
            self.widget.children = (*self.widget.children, self._output)
        return self._output

    def _render_head(self) -> None:
        """Summary and top list, without the dismissed findings (drawn from the report as it is
        now: its own overhead figure, no separate one)."""
        self.body.head = self._head_html()
        if self.body.overhead:
            self.body.overhead = ""

    def _css(self) -> str:
        """The view's style sheet (with the rule that hides its static copy while it is drawn):
        a trait of its own, sent once; the head is not sent again for the final overhead figure
        (`_final_head`)."""
        hide_static = Markup(f'.jp-OutputArea-child:has([data-paef-report="{self.id}"]){{display:none}}')
        return str(join([CSS, COLUMNS_CSS, WIDGET_CSS, hide_static]))

    def _head_html(self) -> str:
        return str(tag("div", summary(self.report, self.top, self.id, self.dismissed), ranks_section(self.report),
                       errors(self.report)))

    # -- linking ----------------------------------------------------------------------------

    def select(self, index: int | None) -> None:
        """Light a finding's card, frames and lines (None clears the selection)."""
        self.selected = index
        for i, c in enumerate(self.cards):
            c.mark("paef-selected", i == index)
            c.mark("paef-linked", False)
            c.mark("paef-dimmed", False)
        self._push()
        self._light_lines(set() if index is None else {index})
        self._paint(index)
        self.body.info = ""

    def show_frame(self, bar_index: int) -> list[int]:
        """The cards and lines behind a clicked frame; returns their finding indices."""
        assert self.flame is not None
        bar = self.flame.bars[bar_index]
        linked = list(bar.findings)
        for i, c in enumerate(self.cards):
            c.mark("paef-selected", False)
            c.mark("paef-linked", i in linked)
            c.mark("paef-dimmed", bool(linked) and i not in linked)
        self._push()
        self._light_lines(set(linked), extra=(bar.frame.ref, bar.frame.line))
        self.selected = None
        self._paint(None)
        behind = ", ".join(f"{self.report.findings[i].rule} (line {self.report.findings[i].line})" for i in linked)
        self.body.info = str(tag("div", flame_mod.describe(bar), " \u2014 ",
                                 f"behind it: {behind}" if linked else "no finding behind it",
                                 class_="paef-status"))
        return linked

    def _light_lines(self, findings: set[int], extra: tuple[CellRef | None, int | None] = (None, None)) -> None:
        self.body.sources = self._sources(findings, extra)

    def _sources(self, findings: set[int], extra: tuple[CellRef | None, int | None] = (None, None)) -> list[str]:
        """Each unit's source, with the lines of `findings` (and the `extra` line) lit."""
        out = []
        for unit in self.units:
            lines = {n for i in findings for n in _lines(self.report, i) if self.report.findings[i].ref.key == unit.ref.key}
            ref, line = extra
            if ref is not None and line is not None and ref.key == unit.ref.key:
                lines.add(line)
            shown = [(i, f) for i, f in findings_of(self.report, unit) if i not in self.dismissed]
            out.append(str(source(unit, shown, lines)))
        return out

    def _paint(self, selected: int | None) -> None:
        if self.flame is not None:
            self.body.paint(*flame_mod.colors(self.flame, selected, self.dismissed))

    # -- cards and their buttons ---------------------------------------------------------

    def press(self, card: int | None, name: str) -> None:
        """A button of the view pressed in the front end (`card` None: the toolbar's). A
        disabled button does nothing, as in the page; the state changes it makes travel as one
        update (but a re-run's, whose "Running" note must show while it runs)."""
        if card is None:
            if self.body.controls.get(name, {}).get("disabled"):
                return
            if name == "compare":
                self.do_compare()
                return
            action = self.do_apply_all
        else:
            if self.cards[card].disabled.get(name):
                return
            action = {"show": lambda: self.select(None if self.selected == card else card),
                      "apply": lambda: self.do_apply(card), "dismiss": lambda: self.do_dismiss(card),
                      "undo": lambda: self.do_undo(card), "silence": lambda: self.do_silence(card)}[name]
        with self.body.hold_sync():
            action()

    def _tips(self, index: int) -> dict[str, str]:
        finding = self.report.findings[index]
        tips = {"show": "light its frames and lines",
                "silence": f"dismiss every {finding.rule} finding in this notebook, now and in later runs"}
        if not finding.fixable:
            tips["apply"] = ("needs review: not applied from here (`paef fix --unsafe` applies it)"
                             if finding.fix and finding.fix.needs_review
                             else "a hint: no automatic rewrite keeps the meaning here")
        return tips

    def do_apply(self, index: int) -> None:
        fixes = self._fixes_of(index)
        if fixes is None:
            return
        plan = fixes.plan(fixes.applied | {index})
        if index not in plan.applied:
            self._card_status(index, "This fix collides with one already applied: Undo that one first.", warning=True)
            return
        self._write(fixes, plan, [index])

    def do_undo(self, index: int) -> None:
        if index in self.dismissed:
            rule = self.report.findings[index].rule
            if rule in self.silenced:  # Undo on a silenced card: the rule speaks again
                self.silenced.discard(rule)
                back = {i for i in self.dismissed if self.report.findings[i].rule == rule}
            else:
                back = {index}
            self.dismissed -= back
            self._refresh()
            self._show_dismissed()
            self._remember()
            for i in back:
                self._card_status(i, "")
            return
        fixes = self._fixes_of(index)
        if fixes is None or index not in fixes.applied:
            return
        self._write(fixes, fixes.plan(fixes.applied - {index}), [index])

    def do_dismiss(self, index: int) -> None:
        fixes = self._fixes_of(index)
        if fixes is not None and index in fixes.applied:
            self._card_status(index, "Undo the fix before dismissing it.")
            return
        self.dismissed.add(index)
        if self.selected == index:
            self.selected = None
        self._refresh()
        self._show_dismissed()
        self._remember()
        self._card_status(index, self._dismissed_text(index))

    def do_silence(self, index: int) -> None:
        """Dismiss every finding of this rule, here and in the notebook's later reports."""
        rule = self.report.findings[index].rule
        mine = {i for i, f in enumerate(self.report.findings) if f.rule == rule}
        applied = set().union(*(f.applied for f in self.fixes.values())) if self.fixes else set()
        if mine & applied:
            self._card_status(index, "Undo the applied fix of this rule before silencing it.", warning=True)
            return
        self.silenced.add(rule)
        self.dismissed |= mine
        if self.selected in mine:
            self.selected = None
        self._refresh()
        self._show_dismissed()
        self._remember()
        for i in mine:
            self._card_status(i, self._dismissed_text(i))

    def _remembered(self, index: int) -> bool:
        if self.memory is None:
            return False
        f = self.report.findings[index]
        cell = self._cell_id(index)
        return f.rule in self.silenced or (cell is not None and self._key(index) in self.memory.dismissed.get(cell, ()))

    def _remember(self) -> None:
        """Write the dismissed findings of each cell (those of silenced rules are covered by
        the rule) and, when they changed, the silenced rules, into the notebook."""
        if self.memory is None:
            return
        by_cell: dict[str, set[str]] = {}
        for i in range(len(self.report.findings)):
            cell = self._cell_id(i)
            if cell is not None:
                keys = by_cell.setdefault(cell, set(self.memory.dismissed.get(cell, ())) - self._own_keys(cell))
                if i in self.dismissed and self.report.findings[i].rule not in self.silenced:
                    keys.add(self._key(i))
        for cell, keys in by_cell.items():
            if keys != self.memory.dismissed.get(cell, set()):
                self.memory.remember_dismissed(cell, keys)
        if self.silenced != self.memory.silenced:
            self.memory.remember_silenced(self.silenced)

    def _dismissed_text(self, index: int) -> str:
        rule = self.report.findings[index].rule
        if rule in self.silenced:
            return f"{rule} is silenced for this notebook (Undo brings it back)."
        return "Dismissed" + (" (remembered in the notebook)." if self.memory is not None and self._cell_id(index)
                              else ".")

    def _cell_id(self, index: int) -> str | None:
        ref = self.report.findings[index].ref
        unit = self.report.source_of(ref)
        return ref.cell_id or (unit.ref.cell_id if unit is not None else None)

    def _key(self, index: int) -> str:
        """A finding's name that survives edits elsewhere in its cell: rule and line text."""
        f = self.report.findings[index]
        unit = self.report.source_of(f.ref)
        lines = unit.text.split("\n") if unit is not None else []
        text = lines[f.line - 1].strip() if 0 < f.line <= len(lines) else str(f.line)
        return f"{f.rule}:{text}"

    def _own_keys(self, cell: str) -> set[str]:
        return {self._key(i) for i in range(len(self.report.findings)) if self._cell_id(i) == cell}

    def _show_dismissed(self) -> None:
        """The top list, the source marks, the chart's links and the static copy follow the
        dismissed set."""
        self._render_dismissed()
        if self._static is not None:
            from . import HtmlText

            self._static.update(HtmlText(self._static_html()))

    def _render_dismissed(self) -> None:
        self._render_head()
        self._light_lines(set() if self.selected is None else {self.selected})
        self._paint(self.selected)
        table = line_table(self.report, self.dismissed)
        self.body.lines = str(table) if table is not None else ""

    def do_apply_all(self) -> None:
        for fixes in self.fixes.values():
            wanted = {i for i in fixes.findings if i not in self.dismissed} | fixes.applied
            plan = fixes.plan(wanted)
            for i in plan.skipped:
                self._card_status(i, "Not applied: it collides with a fix of higher rank.")
            if plan.applied != fixes.applied:
                self._write(fixes, plan, sorted(plan.applied ^ fixes.applied))

    def do_compare(self) -> None:
        if self.rerun is None or len(self.fixes) != 1:
            return
        (fixes,) = self.fixes.values()
        self.body.status = str(tag("span", "Running the fixed cell\u2026", class_="paef-status"))
        self.output.clear_output()
        with self.output:
            result = self.rerun(fixes.current)
        estimates = [e.estimated_saving_s for i in fixes.applied
                     if (e := self.report.findings[i].evidence) is not None and e.estimated_saving_s]
        self.body.status = str(compare_text(result, sum(estimates) if estimates else None))

    def _fixes_of(self, index: int) -> CellFixes | None:
        return self.fixes.get(self.report.findings[index].ref.key)

    def _write(self, fixes: CellFixes, plan: Plan, touched: list[int]) -> None:
        """Swap the cell's current text for the plan's; commit when the frontend confirms."""
        cell_id = fixes.unit.ref.cell_id
        if self.editor is None or not cell_id:
            self._fallback(fixes, plan, touched, "no_extension" if cell_id else "no_cell_id")
            return
        for i in touched:
            self._card_status(i, "Writing the cell\u2026")

        def done(status: str) -> None:
            if status == "applied":
                fixes.commit(plan)
                self._refresh()
                for i in touched:
                    self._card_status(i, STATUS_TEXT["applied"] if i in plan.applied else "Reverted.")
            elif status == "no_extension":
                self._fallback(fixes, plan, touched, status)
            else:
                for i in touched:
                    self._card_status(i, STATUS_TEXT.get(status, status), warning=True)

        self.editor.replace_cell(cell_id, fixes.current, plan.text, on_result=done)

    def _fallback(self, fixes: CellFixes, plan: Plan, touched: list[int], reason: str) -> None:
        rules = sorted({self.report.findings[i].rule for i in plan.applied})
        how = []
        if self.apply_hint and rules:
            how = ["Re-run the cell as ", tag("code", f"{self.apply_hint}={','.join(rules)}"),
                   " to rewrite it in place, or copy the fixed cell below."]
        else:
            how = ["Copy the fixed cell below into the notebook."]
        for i in touched:
            c = self.cards[i]
            c.status = str(tag("div", STATUS_TEXT[reason], " ", how, class_="paef-status"))
            c.code = plan.text  # the fixed cell in a box to copy from, below the card's status
        self._push()

    def _card_status(self, index: int, text: str, warning: bool = False) -> None:
        self.cards[index].status = _status_html(text, warning)
        self._push()

    def _refresh(self) -> None:
        applied = set().union(*(f.applied for f in self.fixes.values())) if self.fixes else set()
        for c in self.cards:
            c.mark("paef-applied", c.index in applied)
            c.mark("paef-dismissed", c.index in self.dismissed)
            fixable = self.report.findings[c.index].fixable
            c.disabled = {"show": False,
                          "apply": not fixable or c.index in applied or c.index in self.dismissed,
                          "dismiss": c.index in self.dismissed or c.index in applied,
                          "silence": c.index in self.dismissed or c.index in applied,
                          "undo": c.index not in applied and c.index not in self.dismissed}
        self._push()
        if self.body is not None:
            self.body.controls = self._controls()

    def _controls(self) -> dict[str, dict[str, bool]]:
        applied = any(f.applied for f in self.fixes.values())
        return {"apply_all": {"disabled": not self.fixes},
                "compare": {"disabled": self.rerun is None or not applied, "hidden": self.rerun is None}}

    def _push(self) -> None:
        """The cards' state to the front end (one trait update; several within `press`)."""
        if self.body is not None:
            self.body.card_state = [c.state() for c in self.cards]


@dataclass
class _Card:
    """What the kernel changes of a card in the page: its box's classes, its buttons'
    `disabled`, its status line, and the fixed cell to copy where it cannot be written."""

    index: int
    classes: set[str] = field(default_factory=set)
    disabled: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(CARD_BUTTONS, False))
    status: str = ""
    code: str | None = None

    def mark(self, name: str, on: bool) -> None:
        if on:
            self.classes.add(name)
        else:
            self.classes.discard(name)

    def state(self) -> dict[str, Any]:
        return {"classes": sorted(self.classes), "disabled": dict(self.disabled), "status": self.status,
                "code": self.code}


_layout: w.Layout | None = None


def _shared_layout() -> w.Layout:
    """One layout model for every view in the kernel (each is the default layout): a view's
    widgets would otherwise each open one more model in the front end."""
    global _layout
    if _layout is None or getattr(_layout, "comm", None) is None:  # none yet, or closed (`Widget.close_all`)
        _layout = w.Layout()
    return _layout


def _status_html(text: str, warning: bool = False) -> str:
    classes = "paef-status paef-warning" if warning else "paef-status"
    return str(tag("div", ("\u26a0 " if warning else ""), text, class_=classes)) if text else ""


def compare_text(result: Any, predicted_s: float | None = None) -> Markup:
    """The verdict of a `magic.Comparison`: the median ratio of interleaved warm pairs with
    its range and the number of pairs, or no verdict when the pairs disagree; with the cards'
    estimated saving (`predicted_s`, per run) next to the measured one, so the estimate can be
    checked."""
    if result.error is not None:
        return tag("span", f"The fixed cell raised {type(result.error).__name__}: {result.error}",
                   class_="paef-status paef-warning")
    remaining = len(result.report.findings)
    left = f"{remaining} finding{'s' if remaining != 1 else ''} left"
    times = (f"before {fmt_time(result.before_s)} \u2192 after {fmt_time(result.after_s)} "
             f"(median of {result.repeats} interleaved, warm, unprofiled runs each")
    low, high = result.spread or (0.0, 0.0)
    speed = result.speedup
    if speed is None:
        verdict = f"No clear difference: the ratios of the pairs range from {low:.2f}x to {high:.2f}x"
    elif speed >= 1:
        verdict = f"{speed:.2f}x faster (pairs {low:.2f}\u2013{high:.2f}x)"
    else:
        verdict = f"{1 / speed:.2f}x slower (pairs {1 / high:.2f}\u2013{1 / low:.2f}x)"
    saving = ""
    if predicted_s is not None:
        measured = result.before_s - result.after_s
        saved = fmt_time(measured) if measured >= 0 else f"none ({fmt_time(-measured)} slower)"
        saving = f". Saving per run: predicted ~{fmt_time(predicted_s)}, measured {saved}"
    return tag("span", tag("b", verdict), f": {times}; {left}){saving}", class_="paef-status")


def _lines(report: Report, index: int) -> range:
    f = report.findings[index]
    return range(f.line, f.end_line + 1)


__all__ = ["ReportView", "compare_text"]
