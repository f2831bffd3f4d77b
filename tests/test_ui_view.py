"""The live view on hand-built reports: linking, Apply / Dismiss / Undo / Apply all, fallback."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser

from ui_samples import CELL, CELL_TEXT, sample_report

from paef_jupyter.magic import Comparison
from paef_jupyter.model import Report, SourceUnit
from paef_jupyter.ui import flame
from paef_jupyter.ui.fixstate import CellFixes
from paef_jupyter.ui.static_view import static_html
from paef_jupyter.ui.widget import ReportView, compare_text

PING_PONG, HOST_SYNC, HINT = 0, 1, 2
FIXED_5 = "    y = x.detach().clone()"
FIXED_7 = "    total += loss.detach()"


class FakeEditor:
    """Records requests; answers like the labextension would (or as told)."""

    def __init__(self, answer: str = "applied", defer: bool = False):
        self.answer = answer
        self.defer = defer
        self.cell = CELL_TEXT
        self.requests: list[tuple[str, str, str]] = []
        self.waiting = []

    def replace_cell(self, cell_id, expected_source, new_source, on_result):
        self.requests.append((cell_id, expected_source, new_source))
        if self.defer:
            self.waiting.append(on_result)
            return
        if self.answer == "applied" and expected_source != self.cell:
            on_result("conflict")
            return
        if self.answer == "applied":
            self.cell = new_source
        on_result(self.answer)


def state(view: ReportView, index: int) -> dict:
    """A card's state as the front end has it (the synced trait)."""
    return view.body.card_state[index]


def classes(view: ReportView, index: int) -> set[str]:
    return set(state(view, index)["classes"])


def disabled(view: ReportView, index: int, button: str) -> bool:
    return state(view, index)["disabled"][button]


def status(view: ReportView, index: int) -> str:
    return state(view, index)["status"]


def test_cards_sources_and_chart_are_built_from_the_report():
    view = ReportView(sample_report())
    assert len(view.cards) == 3
    assert "ping-pong" in view.body.cards[PING_PONG]["html"]
    assert view.body.figure and len(view.body.figure["data"][0]["customdata"]) == len(view.flame.bars)
    assert disabled(view, HINT, "apply")  # a hint has nothing to apply
    assert not disabled(view, PING_PONG, "apply")
    assert all(disabled(view, i, "undo") for i in range(3))
    assert view.body.controls["compare"]["hidden"]  # no rerun given


def test_selecting_a_card_lights_its_frames_and_lines():
    view = ReportView(sample_report())
    view.press(PING_PONG, "show")
    assert "paef-selected" in classes(view, PING_PONG)
    fill = view.body.colors["fill"]
    lit = [view.flame.bars[i].frame.name for i, c in enumerate(fill) if c == flame.SELECTED_COLOR]
    assert lit == ["cell line 5", "aten::_to_copy"]
    html = view.body.sources[0]
    assert 'class="paef-line has-finding paef-hl" data-line="5"' in html
    assert 'paef-hl" data-line="7"' not in html
    view.press(PING_PONG, "show")  # again: clears
    assert view.selected is None and flame.SELECTED_COLOR not in view.body.colors["fill"]


def test_clicking_a_frame_shows_the_cards_and_lines_behind_it():
    view = ReportView(sample_report())
    item = [b.frame.name for b in view.flame.bars].index("aten::item")
    # The message the chart's view sends when the frame is clicked in the browser.
    view.body._message(view.body, {"type": "click", "bar": item}, [])
    assert "paef-linked" in classes(view, HOST_SYNC)
    assert "paef-dimmed" in classes(view, PING_PONG)
    assert "host-sync (line 7)" in view.body.info
    assert 'paef-hl" data-line="7"' in view.body.sources[0]
    root = [b.frame.name for b in view.flame.bars].index("<cell>")
    assert view.show_frame(root) == [] and "no finding behind it" in view.body.info


def test_apply_then_undo_rewrites_the_cell_through_the_editor():
    editor = FakeEditor()
    view = ReportView(sample_report(), editor=editor, rerun=lambda text: None)
    view.press(PING_PONG, "apply")
    cell_id, expected, new = editor.requests[-1]
    assert cell_id == "cell-abc" and expected == CELL_TEXT and FIXED_5 in new.split("\n")
    assert disabled(view, PING_PONG, "apply") and not disabled(view, PING_PONG, "undo")
    assert "paef-applied" in classes(view, PING_PONG)
    assert not view.body.controls["compare"]["disabled"]
    view.press(HOST_SYNC, "apply")  # a second fix is applied on top of the first
    assert editor.cell.split("\n")[4] == FIXED_5 and editor.cell.split("\n")[6] == FIXED_7
    view.press(PING_PONG, "undo")  # undo one: the other stays
    assert editor.cell.split("\n")[4] == CELL_TEXT.split("\n")[4] and editor.cell.split("\n")[6] == FIXED_7
    view.press(HOST_SYNC, "undo")
    assert editor.cell == CELL_TEXT and view.body.controls["compare"]["disabled"]


def test_a_conflict_writes_nothing_and_says_so():
    editor = FakeEditor()
    editor.cell = CELL_TEXT + "\n# edited by the user"
    view = ReportView(sample_report(), editor=editor)
    view.press(PING_PONG, "apply")
    assert editor.cell.endswith("# edited by the user") and "y = torch.tensor" in editor.cell
    assert "edited since it was analysed" in status(view, PING_PONG)
    assert "paef-warning" in status(view, PING_PONG)  # styled as a warning
    assert not disabled(view, PING_PONG, "apply") and disabled(view, PING_PONG, "undo")


def test_without_the_extension_the_card_offers_the_rerun_and_the_code():
    view = ReportView(sample_report(), editor=FakeEditor("no_extension"), apply_hint="%%paef --apply")
    view.press(HOST_SYNC, "apply")
    card = state(view, HOST_SYNC)
    assert "did not answer" in card["status"]
    assert "%%paef --apply=host-sync" in card["status"]
    # The code box is drawn when it is first needed, as the card's last part.
    assert FIXED_7 in card["code"].split("\n")
    assert state(view, PING_PONG)["code"] is None
    assert card["disabled"]["undo"]  # nothing was applied


def test_without_a_cell_id_or_editor_the_fallback_is_immediate():
    report = sample_report()
    no_id = replace(CELL, cell_id=None)
    report = Report(findings=tuple(replace(f, ref=no_id) for f in report.findings),
                    sources=(SourceUnit(no_id, CELL_TEXT),))
    view = ReportView(report, editor=FakeEditor())
    view.press(PING_PONG, "apply")
    assert "did not say which cell" in status(view, PING_PONG)
    view = ReportView(sample_report(), editor=None)
    view.press(PING_PONG, "apply")
    assert FIXED_5 in state(view, PING_PONG)["code"].split("\n")


def test_apply_all_applies_every_fix_not_dismissed_in_one_write():
    editor = FakeEditor()
    view = ReportView(sample_report(), editor=editor)
    view.press(HOST_SYNC, "dismiss")
    assert "paef-dismissed" in classes(view, HOST_SYNC) and not disabled(view, HOST_SYNC, "undo")
    view.press(None, "apply_all")
    assert len(editor.requests) == 1
    lines = editor.cell.split("\n")
    assert lines[4] == FIXED_5 and lines[6] != FIXED_7
    view.press(HOST_SYNC, "undo")  # undo the dismissal
    assert "paef-dismissed" not in classes(view, HOST_SYNC)
    view.press(None, "apply_all")
    assert editor.cell.split("\n")[6] == FIXED_7 and len(editor.requests) == 2


def test_the_cell_is_committed_only_when_the_frontend_confirms():
    editor = FakeEditor(defer=True)
    view = ReportView(sample_report(), editor=editor)
    view.press(PING_PONG, "apply")
    fixes = view.fixes[CELL.key]
    assert fixes.applied == frozenset() and "Writing" in status(view, PING_PONG)
    editor.waiting.pop()("applied")
    assert fixes.applied == {PING_PONG} and FIXED_5 in fixes.current.split("\n")


def test_rerun_and_compare_runs_the_current_text_and_shows_both_times():
    seen = []
    editor = FakeEditor()

    def rerun(text):
        seen.append(text)
        print("training output")
        return Comparison((2.0, 2.1, 1.9), (0.5, 0.52, 0.5), None, Report())

    view = ReportView(sample_report(), editor=editor, rerun=rerun)
    assert view.body.controls["compare"]["disabled"]
    view.press(PING_PONG, "apply")
    view.press(None, "compare")
    assert seen == [editor.cell]
    assert "4.00x faster (pairs 3.80\u20134.04x)" in view.body.status
    assert "before 2.00 s \u2192 after 500.0 ms (median of 3 interleaved, warm, unprofiled runs each" in view.body.status
    # The applied card's estimate next to what the re-run measured.
    assert "Saving per run: predicted ~700.0 ms, measured 1.50 s" in view.body.status


def test_compare_claims_no_ratio_when_the_pairs_disagree():
    cmp = Comparison((1.0, 1.2, 0.9), (1.1, 1.0, 1.0), None, Report())
    assert cmp.speedup is None and cmp.repeats == 3
    assert "No clear difference: the ratios of the pairs range from 0.90x to 1.20x" in compare_text(cmp)
    assert Comparison((1.0,), (0.5,), None, Report()).speedup is None  # one pair is no evidence
    slower = Comparison((1.0, 1.0, 1.0), (2.0, 2.5, 2.2), None, Report())
    assert "2.20x slower (pairs 2.00\u20132.50x)" in compare_text(slower)
    assert "predicted ~300.0 ms, measured none (1.20 s slower)" in compare_text(slower, 0.3)
    assert "Saving per run" not in compare_text(slower)  # no card estimate, no comparison


def test_compare_text_reports_a_failing_rerun():
    text = compare_text(Comparison((), (), ValueError("<bad>"), Report()))
    assert "ValueError" in text and "&lt;bad&gt;" in text


def test_mimebundle_of_a_view_displayed_alone_carries_the_widget_and_a_static_fallback():
    bundle = ReportView(sample_report())._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == "paef report: 3 findings"
    assert bundle["text/html"].count('class="paef-card ') == 3


def test_static_view_has_every_card_diff_and_the_copyable_fixed_cell():
    html = str(static_html(sample_report()))
    for rule in ("ping-pong", "host-sync", "redundant-tensor"):
        assert f'<code class="paef-rule">{rule}</code>' in html
    assert html.count('class="paef-diff"') == 2  # the hint shows its suggestion instead
    assert "with every automatic fix applied" in html
    assert "<script" not in html


def test_fixes_state_composes_and_reports_collisions():
    report = sample_report()
    same = report.findings[PING_PONG]  # identical edits would be shared: these differ on one site
    colliding = replace(same, rule="list-to-tensor",
                        fix=replace(same.fix, edits=tuple(replace(e, text=e.text + "  ") for e in same.fix.edits)))
    findings = dict(enumerate(report.findings + (colliding,)))
    fixes = CellFixes(SourceUnit(CELL, CELL_TEXT), findings)
    assert set(fixes.findings) == {PING_PONG, HOST_SYNC, 3}  # the hint has no edits
    plan = fixes.plan({PING_PONG, 3})
    assert plan.applied == {PING_PONG} and plan.skipped == {3}
    assert fixes.plan({HOST_SYNC}).text.split("\n")[6] == FIXED_7
    fixes.commit(fixes.plan({PING_PONG, HOST_SYNC}))
    assert fixes.plan(fixes.applied - {PING_PONG}).text.split("\n")[4] == CELL_TEXT.split("\n")[4]


def test_static_html_parses_and_balances():
    checker = _Balance()
    checker.feed(str(static_html(sample_report())))
    assert checker.stack == []


class _Balance(HTMLParser):
    VOID = {"meta", "br", "img", "input", "link", "hr"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (self.stack[-3:], tag)
        self.stack.pop()


def test_the_chart_model_holds_the_figure_not_plotly_js_and_ignores_malformed_clicks(monkeypatch):
    """Issue 11.12: plotly.js (MBs) travelled in every report's comm_open; the chart's model
    is now its figure, and the library is sent only on the page's request, once."""
    import json

    view = ReportView(sample_report())
    state = view.body.get_state()
    assert len(json.dumps(state)) < 40_000, len(json.dumps(state))
    assert "Copyright" not in state["_esm"] and len(state["_esm"]) < 16_000
    for bad in (None, [], {"type": "click"}, {"type": "click", "bar": "1"}, {"type": "click", "bar": 10**6},
                {"type": "click", "bar": -1}, {"type": "click", "bar": True}, {"type": "eval"}):
        view.body._message(view.body, bad, [])
    assert view.body.info == "" and not any("paef-linked" in classes(view, i) for i in range(3))
    sent = []
    monkeypatch.setattr(view.body, "send", lambda content, buffers=None: sent.append(content))
    view.body._message(view.body, {"type": "need_plotly"}, [])
    (reply,) = sent
    assert reply["type"] == "plotly" and "plotly.js" in reply["source"][:400]


def test_the_view_module_sent_is_the_file_without_its_comment_lines():
    """Each report's comm_open carries the module's text: it goes without its whole-line
    comments, blank lines and indentation, and with every other line, in order, as written."""
    from paef_jupyter.ui.live_report import _ESM, LiveReport

    sent = ReportView(sample_report()).body.get_state()["_esm"]
    assert sent == LiveReport._esm.default_value
    source = _ESM.read_text(encoding="utf-8")
    code = [line.strip() for line in source.split("\n") if line.strip() and not line.strip().startswith("//")]
    assert sent.split("\n")[:-1] == code and sent.endswith("\n")
    assert "//" not in "".join(line[:2] for line in sent.split("\n"))
    assert len(sent) < 0.8 * len(source), (len(sent), len(source))
    # A comment after code stays: `//` inside a string or regex is never cut.
    assert 'url.replace(/\\/$/, "")' in sent


def test_without_ipywidgets_the_report_shows_as_static_html_and_a_figure(monkeypatch):
    import sys

    import IPython.display

    from paef_jupyter.ui import show_report

    shown = []
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    monkeypatch.delitem(sys.modules, "paef_jupyter.ui.widget", raising=False)
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append(_output(obj, raw)))
    show_report(sample_report(), apply_hint="%%paef --apply")
    html, fig = shown
    assert html.data.count('class="paef-card ') == 3 and "re-run as `%%paef --apply`" in html.data
    assert type(fig).__name__ == "Figure" and len(fig.data[0].base) == 5


def _live_widgets() -> int:
    from ipywidgets.widgets.widget import _instances

    return len(_instances)


def _output(obj, raw=False):
    """What was displayed: an HTML bundle sent raw (`ui.output_of`) as the `HTML` it stands for."""
    import IPython.display

    if raw and isinstance(obj, dict) and set(obj) == {"text/plain", "text/html"}:
        assert obj["text/plain"] == "<IPython.core.display.HTML object>"
        return IPython.display.HTML(obj["text/html"])
    return obj


class Outputs:
    """A cell's output area as the front end keeps it: `display` appends an output (as
    `IPython.display.display` does), and a display id's handle rewrites that output in place
    (`update_display_data`)."""

    def __init__(self) -> None:
        self.shown: list = []

    def __call__(self, obj, raw=False, display_id=None):
        self.shown.append(_output(obj, raw))
        if display_id is None:
            return None
        index = len(self.shown) - 1

        class Handle:
            def update(handle, new, raw=False) -> None:  # noqa: N805 - the handle of output `index`
                self.shown[index] = _output(new, raw)

        return Handle()

    def notebook_html(self) -> str:
        """`jupyter nbconvert --to html` of a saved notebook whose one cell holds these outputs."""
        import nbformat
        from nbconvert import HTMLExporter

        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("%%paef\n...")
        cell.outputs = [nbformat.v4.new_output("display_data", data=o if isinstance(o, dict) else {"text/html": o.data})
                        for o in self.shown]
        nb.cells = [cell]
        return HTMLExporter().from_notebook_node(nb)[0]


def test_show_report_emits_a_static_report_then_the_live_view(monkeypatch):
    """The saved notebook keeps a full report of its own; the widget output carries no HTML
    a front end could prefer it to (a reopened notebook would say "model not found")."""
    import IPython.display

    from paef_jupyter.ui import show_report

    outputs = Outputs()
    widgets_when_shown = []
    monkeypatch.setattr(IPython.display, "display",
                        lambda *a, **kw: (widgets_when_shown.append(_live_widgets()), outputs(*a, **kw))[1])
    before = _live_widgets()
    show_report(sample_report())
    static, live = outputs.shown
    # Sent before the widgets are built: a front end opens their models one after another, and
    # an output sent after them waits for all.
    assert widgets_when_shown[0] == before < widgets_when_shown[1]
    report_id = re.search(r'data-paef-report="(\w+)"', static.data).group(1)
    assert static.data.count('class="paef-card ') == 3 and "<svg" in static.data and "<script" not in static.data
    assert "<rect" in static.data  # the chart, drawn without plotly.js
    assert set(live) == {"application/vnd.jupyter.widget-view+json", "text/plain"}
    assert ":not(:has(.paef-box))" in static.data  # hides a dead view next to it
    view_css = _widget_html(live)
    assert f'[data-paef-report="{report_id}"]){{display:none}}' in view_css  # the live view hides it


def _widget_html(bundle) -> str:
    from ipywidgets.widgets.widget import _instances

    root = _instances[bundle["application/vnd.jupyter.widget-view+json"]["model_id"]]
    return "".join(c.css + c.head for c in root.children if hasattr(c, "head"))


def test_a_cell_shown_again_closes_its_old_view(monkeypatch):
    import IPython.display

    from paef_jupyter.ui import show_report

    monkeypatch.setattr(IPython.display, "display", Outputs())
    show_report(sample_report(), key="cell-a")
    before = _live_widgets()
    for _ in range(3):
        show_report(sample_report(), key="cell-a")
    assert _live_widgets() == before
    show_report(sample_report(), key="cell-b")  # another cell keeps its view
    assert _live_widgets() > before


def test_a_clean_report_without_a_chart_is_static_html_alone_and_closes_the_cells_old_view(monkeypatch):
    """No finding and no chart: nothing to click, dismiss or apply, so no widget (a re-run
    `--no-profile` cell pays no widget traffic); the cell's earlier live view goes."""
    import IPython.display

    from paef_jupyter.model import CellRef
    from paef_jupyter.ui import show_report

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False, **kw: shown.append(_output(obj, raw)))
    show_report(sample_report(), key="cell-c")
    before = _live_widgets()
    shown.clear()
    clean = Report(sources=(SourceUnit(CellRef("In[3]"), "%%paef --no-profile\nx = 1\n"),))
    show_report(clean, key="cell-c", apply_hint="%%paef --no-profile --apply")
    (static,) = shown
    assert 'class="paef-summary"' in static.data and 'class="paef-card ' not in static.data and "re-run as" not in static.data
    assert _live_widgets() < before  # the old view's widgets closed, none made


def test_nbconvert_html_of_a_saved_view_shows_the_whole_report(monkeypatch):
    """What `jupyter nbconvert --to html` (and nbviewer, GitHub) make of the saved outputs."""
    import IPython.display

    from paef_jupyter.ui import show_report

    outputs = Outputs()
    monkeypatch.setattr(IPython.display, "display", outputs)
    show_report(sample_report())
    html = outputs.notebook_html()
    assert html.count('class="paef-card ') == 3 and "paef-flame-svg" in html
    assert "model not found" not in html


def _static_cards(outputs: Outputs) -> list[str]:
    """The rules of the cards in the static copy (the first output) and in its nbconvert HTML."""
    static = re.findall(r'class="paef-rule">([\w-]+)<', outputs.shown[0].data)
    converted = re.findall(r'class="paef-rule">([\w-]+)<', outputs.notebook_html())
    assert static == converted
    return static


def test_dismiss_silence_and_undo_rewrite_the_saved_static_copy(monkeypatch):
    """The static copy is what a reopened notebook, nbconvert and nbviewer show: a Dismiss, a
    silenced rule and their Undo rewrite it in place; a report of a cell whose findings the
    notebook remembers as dismissed is saved without them from the start."""
    import IPython.display

    from paef_jupyter.ui import show_report

    outputs = Outputs()
    monkeypatch.setattr(IPython.display, "display", outputs)
    memory = MemoryEditor()
    show_report(sample_report(), editor=memory, key="cell-abc")
    view = _shown_view("cell-abc")
    assert _static_cards(outputs) == ["ping-pong", "host-sync", "redundant-tensor"]
    view.do_dismiss(PING_PONG)
    assert _static_cards(outputs) == ["host-sync", "redundant-tensor"] and len(outputs.shown) == 2
    static = outputs.shown[0].data
    assert "Dismissed: ping-pong (line 5)" in static
    assert FIXED_5 not in static.split("every automatic fix applied")[1]  # nor its fix in the fixed cell
    assert "ping-pong" not in static.split("paef-top")[1].split("</ol>")[0]  # nor in the top list
    view.do_silence(HOST_SYNC)
    assert _static_cards(outputs) == ["redundant-tensor"]
    view.do_undo(HOST_SYNC)
    assert _static_cards(outputs) == ["host-sync", "redundant-tensor"]

    again = Outputs()  # the cell re-run: the remembered dismissal shapes the first static copy
    monkeypatch.setattr(IPython.display, "display", again)
    show_report(sample_report(), editor=memory, key="cell-abc")
    assert _static_cards(again) == ["host-sync", "redundant-tensor"]
    _shown_view("cell-abc").do_undo(PING_PONG)
    assert _static_cards(again) == ["ping-pong", "host-sync", "redundant-tensor"]


def _shown_view(key: str) -> ReportView:
    from paef_jupyter.ui import _shown

    return _shown[key]


def test_every_time_names_its_basis():
    """Whole run or per profiled iteration; the window's span is not called CPU time."""
    html = str(static_html(sample_report()))
    assert "cell time, whole run" in html and "profiled, per iteration (over 20 profiled)" in html
    assert "CPU time" not in html
    assert "time per iteration (over 20 profiled):" in html and "40.0 ms" in html
    assert "est. saving per run" in html and "share of the run" in html
    assert "40.0 ms per iteration (62.0% of the run), saves ~700.0 ms per run" in html


def test_card_ids_are_unique_to_each_rendering():
    """Two reports (or one, live and static) in a page: a top-list link reaches its own card."""
    first, second = str(static_html(sample_report())), str(static_html(sample_report()))
    ids = re.findall(r'id="(paef-[^"]*card-0)"', first + second)
    assert len(ids) == 2 and ids[0] != ids[1]
    assert f'href="#{ids[0]}"' in first
    view = ReportView(sample_report())
    assert f'id="paef-{view.id}-card-0"' in view.body.cards[0]["html"]


def test_inline_code_in_finding_text_is_code_and_still_escaped():
    from paef_jupyter.ui.pieces import prose

    assert prose("`x.cpu().tolist()` copies `x` <b>") == (
        "<code>x.cpu().tolist()</code> copies <code>x</code> &lt;b&gt;")
    assert prose("an odd ` backtick") == "an odd ` backtick"
    assert "<code>&lt;script&gt;</code>" in prose("`<script>`")


class MemoryEditor(FakeEditor):
    """A bridge that also keeps the notebook's remembered state, as the labextension does."""

    def __init__(self, silenced=(), dismissed=None):
        super().__init__()
        self.silenced = set(silenced)
        self.dismissed = {k: set(v) for k, v in (dismissed or {}).items()}
        self.writes: list[tuple] = []

    def remember_dismissed(self, cell_id, keys):
        self.dismissed[cell_id] = set(keys)
        self.writes.append(("cell", cell_id, sorted(keys)))

    def remember_silenced(self, rules):
        self.silenced = set(rules)
        self.writes.append(("notebook", sorted(rules)))


def test_dismiss_and_silence_are_remembered_and_shape_the_next_report():
    memory = MemoryEditor()
    view = ReportView(sample_report(), editor=memory)
    view.do_dismiss(0)
    assert memory.writes == [("cell", "cell-abc", ["ping-pong:y = torch.tensor(x.cpu().tolist())"])]
    assert "ping-pong" not in view.body.head.split("paef-top")[1]  # out of the top list
    view.do_silence(1)
    assert memory.writes[-1] == ("notebook", ["host-sync"]) and view.dismissed == {0, 1}

    # The next run of the cell (its text unchanged or shifted) starts with both dismissed.
    again = ReportView(sample_report(), editor=memory)
    assert again.dismissed == {0, 1} and "silenced" in status(again, 1)
    assert "paef-dismissed" in classes(again, 0) and disabled(again, 0, "apply")
    again.do_undo(1)  # Undo on a silenced card: the rule speaks again, for the notebook
    assert memory.silenced == set() and again.dismissed == {0}
    again.do_undo(0)
    assert memory.dismissed == {"cell-abc": set()} and again.dismissed == set()
    assert not ReportView(sample_report(), editor=memory).dismissed


def test_silence_refuses_a_rule_whose_fix_is_applied():
    view = ReportView(sample_report(), editor=MemoryEditor())
    view.do_apply(0)
    view.do_silence(0)
    assert view.dismissed == set() and "Undo the applied fix" in status(view, 0)


def test_a_report_of_any_size_is_two_widget_models():
    """A front end opens a report's widget models one after another (a comm_open each, with
    its state) before it draws the view: the summary, the chart, the cards, their buttons and
    the source are one model in a box, with the kernel's one layout, so a report is two models
    however many cards it has; the re-run's output exists only once needed."""
    from ipywidgets.widgets.widget import _instances

    ReportView(sample_report())  # the kernel's shared layout exists from the first view on
    before = set(_instances)
    view = ReportView(sample_report(), rerun=lambda text: None)
    assert len(view.cards) == 3 and len(set(_instances) - before) == 2
    assert view.widget.layout is view.body.layout
    assert [type(c).__name__ for c in view.widget.children] == ["LiveReport"]
    assert view._output is None
    assert view.output is view.widget.children[-1] and view.output is view.output
    view.close()  # leaves the shared layout to the other views
    assert view.body.comm is None and ReportView(sample_report()).widget.layout.comm is not None


def test_a_press_from_the_page_is_checked_and_a_disabled_button_does_nothing():
    editor = FakeEditor()
    view = ReportView(sample_report(), editor=editor)
    for bad in (None, [], {"type": "press"}, {"type": "press", "card": "0", "name": "apply"},
                {"type": "press", "card": 3, "name": "apply"}, {"type": "press", "card": True, "name": "apply"},
                {"type": "press", "card": 0, "name": "eval"}, {"type": "press", "card": None, "name": "apply"},
                {"type": "click", "card": 0, "name": "apply"}):
        view.body._message(view.body, bad, [])
    assert editor.requests == [] and view.body.card_state == [c.state() for c in view.cards]
    view.press(HINT, "apply")  # a hint's Apply is disabled
    assert editor.requests == []
    # The message the page sends when Apply is pressed: one state update for all it changes.
    sent = []
    view.body.send_state = lambda key=None: sent.append(key)
    view.body._message(view.body, {"type": "press", "card": PING_PONG, "name": "apply"}, [])
    assert len(editor.requests) == 1 and "paef-applied" in classes(view, PING_PONG)
    assert len(sent) == 1


def test_a_clean_report_is_drawn_with_a_few_widgets():
    """Nothing to apply, compare or dismiss: the chart, its caption, the summary and the line
    table are live; the columns are one HTML that says so."""
    from ipywidgets.widgets.widget import _instances

    clean = replace(sample_report(), findings=())
    before = set(_instances)
    view = ReportView(clean, rerun=lambda text: None)
    assert len(set(_instances) - before) <= 3  # models a front end opens (layouts and styles too)
    assert view.cards == [] and not view.body.toolbar and view.body.cards == []
    assert [type(c).__name__ for c in view.widget.children] == ["LiveReport"]
    view.do_compare()  # nothing to compare: no error
    view.close()


def test_outputs_updated_in_place_do_not_flush_the_cells_printed_output(monkeypatch):
    """ipykernel flushes stdout and stderr before each display message, a round trip to its
    I/O thread each: a progress note sent from the profiled loop paid it in the user's time."""
    import types

    import IPython

    from paef_jupyter import ui

    class Publisher:
        def __init__(self):
            self.flushes = 0

        def _flush_streams(self):
            self.flushes += 1

        def publish(self, data, **kwargs):
            self._flush_streams()

    pub = Publisher()
    monkeypatch.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace(display_pub=pub))
    with ui.unflushed():
        pub.publish({})
        with ui.unflushed():  # nested: still unflushed, and restored once, by the outer block
            pub.publish({})
        pub.publish({})
    assert pub.flushes == 0
    pub.publish({})
    assert pub.flushes == 1
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)  # no kernel: nothing to change
    with ui.unflushed():
        pass


def test_the_static_copy_flushes_the_printed_output_only_when_some_is_waiting(monkeypatch):
    """The static copy must follow what the cell printed; when nothing is waiting to be sent,
    the flush (a round trip to ipykernel's I/O thread) is skipped."""
    import sys
    import types

    import IPython

    from paef_jupyter import ui

    class Stream:
        def __init__(self, pending):
            self._flush_pending = pending
            self.flushes = 0

        def flush(self):
            self.flushes += 1
            self._flush_pending = False

    class Publisher:
        def _flush_streams(self):
            sys.stdout.flush()
            sys.stderr.flush()

        def publish(self, data, **kwargs):
            self._flush_streams()

    pub, out, err = Publisher(), Stream(False), Stream(True)
    monkeypatch.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace(display_pub=pub))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with ui.flushed_if_written():
        pub.publish({})  # stderr has text waiting: flushed; stdout has none
        pub.publish({})  # nothing waits any more
    assert (out.flushes, err.flushes) == (0, 1)
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(flush=lambda: setattr(out, "flushes", 9)))
    with ui.flushed_if_written():
        pub.publish({})  # a stream that is not ipykernel's: flushed as usual
    assert out.flushes == 9
    pub.publish({})
    assert "_flush_streams" not in vars(pub)


def test_the_static_copy_uses_the_views_pieces_and_is_the_html_drawn_from_scratch():
    """The live view draws the cards, sources and line table once and its static copy reuses
    them (`Rendered`): the copy is the very HTML `static_html` draws on its own, for the report
    as shown, restamped (a new overhead figure, which no reused piece shows), and after a
    Dismiss (which the pieces drawn before do not fit)."""
    from paef_jupyter.ui.pieces import card, card_inner
    from paef_jupyter.ui.static_view import diffs

    report = sample_report()
    view = ReportView(report)

    def from_scratch() -> str:
        return str(static_html(view.report, view.top, report_id=view.id, hide_dead_view=True,
                               dismissed=view.dismissed))

    assert view._rendered.fits(view.report, view.dismissed)
    assert view._static_html() == from_scratch()
    view.report = replace(report, profile=replace(report.profile, overhead=2.5))
    assert view._rendered.fits(view.report, view.dismissed)
    assert "2.50x" in view._static_html() and view._static_html() == from_scratch()
    view.do_dismiss(HOST_SYNC)
    assert not view._rendered.fits(view.report, view.dismissed)
    assert view._static_html() == from_scratch()
    other = replace(report, findings=tuple(list(report.findings)))  # equal, but not the same drawn ones
    assert not view._rendered.fits(other, frozenset())
    d = diffs(report)
    for i in range(len(report.findings)):
        assert card(report, i, d.get(i), scope="x") == card(report, i, scope="x", inner=card_inner(report, i, d.get(i)))


def test_restamp_shows_the_final_overhead_in_the_summary_and_the_static_copy(monkeypatch):
    """The magic takes the overhead figure again once the live view is out: the live summary and
    the saved static copy both show it."""
    import IPython.display

    from paef_jupyter.ui import show_report

    outputs = Outputs()
    monkeypatch.setattr(IPython.display, "display", outputs)
    report = sample_report()
    report = replace(report, profile=replace(report.profile, overhead=1.25))
    final = replace(report, profile=replace(report.profile, overhead=1.5))
    shown = show_report(report, restamp=lambda r: final if r is report else None)
    assert shown is final
    static, live = outputs.shown
    assert "1.50x" in static.data and "1.25x" not in static.data
    view = _instances_view(live)
    assert "1.50x" in _head_as_shown(view) and "1.25x" not in _head_as_shown(view)


def _head_as_shown(body) -> str:
    """The live head as the page draws it (`live_report.js`, `render`): the `head` trait, its
    overhead stat's figure replaced by the `overhead` trait where that is set."""
    if not body.overhead:
        return body.head
    marked = re.compile(r'(<div class="paef-stat paef-overhead"><b>)[^<]*(</b>)')
    assert len(marked.findall(body.head)) == 1, "the head has one overhead stat for the figure"
    return marked.sub(lambda m: m.group(1) + body.overhead + m.group(2), body.head)


def test_the_final_overhead_figure_travels_alone_and_the_head_is_drawn_once(monkeypatch):
    """The magic's restamp changes the overhead figure only: the live head is drawn once and
    the figure follows as its own small trait (tens of bytes, not the 2 kB head again); the
    head as the page shows it is the head drawn from the final report. Anything else changed
    (another report's findings, a figure that appears) sends the whole head again."""
    import IPython.display

    from paef_jupyter.ui import show_report
    from paef_jupyter.ui.widget import ReportView

    drawn = []
    original = ReportView._head_html
    monkeypatch.setattr(ReportView, "_head_html", lambda self: drawn.append(1) or original(self))
    outputs = Outputs()
    monkeypatch.setattr(IPython.display, "display", outputs)
    report = sample_report()
    report = replace(report, profile=replace(report.profile, overhead=1.25))
    final = replace(report, profile=replace(report.profile, overhead=1.5))
    show_report(report, restamp=lambda r: final)
    view = _instances_view(outputs.shown[-1])
    assert len(drawn) == 1 and view.overhead == "1.50x" and "1.25x" in view.head
    assert view._on_press.__self__.report is final
    assert _head_as_shown(view) == original(view._on_press.__self__)  # drawn from the final report

    # A Dismiss draws the head again from the report as it is (the final one): its own figure.
    view._on_press.__self__.do_dismiss(0)
    assert view.overhead == "" and "1.50x" in view.head and "1.25x" not in view.head

    # The same figure: nothing more to send.
    same = replace(report, profile=replace(report.profile))
    outputs.shown.clear()
    drawn.clear()
    show_report(report, restamp=lambda r: same)
    view = _instances_view(outputs.shown[-1])
    assert len(drawn) == 1 and view.overhead == "" and "1.25x" in view.head

    # More than the figure changed (fewer findings), or a figure appears where the head had
    # none: the head is drawn again and no separate figure is kept.
    for before, after in ((report, replace(final, findings=final.findings[:1])),
                          (replace(report, profile=replace(report.profile, overhead=None)), final)):
        outputs.shown.clear()
        drawn.clear()
        show_report(before, restamp=lambda r, after=after: after)
        view = _instances_view(outputs.shown[-1])
        assert len(drawn) == 2 and view.overhead == "" and view.head == original(view._on_press.__self__)
        assert "1.50x" in view.head


def _instances_view(bundle):
    from ipywidgets.widgets.widget import _instances

    root = _instances[bundle["application/vnd.jupyter.widget-view+json"]["model_id"]]
    return root.children[0]


def test_a_note_too_soon_after_the_last_waits_and_a_newer_one_or_the_report_drops_it(monkeypatch):
    """A progress note replacing one shown less than NOTE_AFTER_S ago is held (each note is a
    message in the user's time, and one that short is never read); a timer sends it later,
    unless a newer note or the report came first."""
    import time

    import IPython.display

    from paef_jupyter import ui

    sent: list[str] = []

    class Handle:
        def update(self, obj, raw=False):
            sent.append(_output(obj, raw).data)

    monkeypatch.setattr(IPython.display, "display",
                        lambda obj, raw=False, **kw: sent.append(_output(obj, raw).data) or Handle())
    monkeypatch.setattr(ui.Placeholder, "NOTE_AFTER_S", 0.2)
    shown = ui.placeholder("running")
    shown.note("profiling")  # at once: held
    shown.note("analysing")  # replaces the held one
    assert len(sent) == 1 and "running" in sent[0]
    deadline = time.monotonic() + 5
    while len(sent) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(sent) == 2 and "analysing" in sent[1] and "profiling" not in "".join(sent)
    shown.note("later")  # just after one was shown: held ...
    shown.update(IPython.display.HTML("the report"))  # ... and dropped: the report came first
    shown.note("stale")
    shown.stop_notes()  # the cell is over: a held note is dropped
    time.sleep(0.3)
    assert sent[2:] == ["the report"]
    assert not shown.last_output()  # no kernel to count messages: never taken in place


def test_html_is_sent_as_the_bundle_ipythons_formatters_make_of_it():
    """Outputs of HTML skip IPython's formatters (sent raw), with the same mime bundle."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.display import HTML

    from paef_jupyter.ui import output_of

    formatter = InteractiveShell.instance().display_formatter
    for html in ("", '<div class="paef">a &amp; b</div>'):
        bundle, raw = output_of(HTML(html))
        assert raw and (bundle, {}) == formatter.format(HTML(html))
    widget = {"application/vnd.jupyter.widget-view+json": {"model_id": "x"}}
    assert output_of(widget) == (widget, False)


def test_html_text_is_sent_as_the_bundle_of_the_html_it_stands_for():
    """`HtmlText` is displayed exactly as `HTML` of the same text (the same raw bundle)."""
    from IPython.display import HTML

    from paef_jupyter.ui import HtmlText, output_of, placeholder_html

    for text in ("", '<div class="paef">a &amp; b</div>', str(placeholder_html("running"))):
        assert output_of(HtmlText(text)) == output_of(HTML(text))
        assert type(output_of(HtmlText(text))[0]["text/html"]) is str
    assert type(placeholder_html("running")) is HtmlText
    # Text that names a file is still that text (`HTML` would show the file's contents).
    assert output_of(HtmlText("pyproject.toml"))[0]["text/html"] == "pyproject.toml"


def test_a_report_is_drawn_without_asking_the_file_system_whether_its_html_is_a_file(monkeypatch):
    """IPython's `HTML(text)` checks `os.path.exists(text)`: a system call, during which the
    kernel's I/O thread takes the GIL from the drawing. No output of the report path makes
    one, placeholder and restamped static copy included; what is shown is unchanged."""
    import IPython.display

    from paef_jupyter import ui
    from paef_jupyter.ui import show_report

    import os
    import sys

    made: list[str] = []
    real_init = IPython.display.HTML.__init__

    def init(self, data=None, *a, **kw):
        if sys._getframe(1).f_code.co_filename.startswith(os.path.dirname(ui.__file__)):
            made.append(data)  # made by the view (not by this test's record of the outputs)
        real_init(self, data, *a, **kw)

    outputs = Outputs()
    monkeypatch.setattr(IPython.display, "display", outputs)
    report = sample_report()
    holder = ui.placeholder("running this cell")
    monkeypatch.setattr(IPython.display.HTML, "__init__", init)
    holder.note("analysing")
    show_report(report, placeholder=holder, restamp=lambda r: r)
    show_report(Report(sources=report.sources))  # static alone: a clean report without a chart
    assert made == []
    monkeypatch.setattr(IPython.display.HTML, "__init__", real_init)
    drawn = [o.data if isinstance(o, IPython.display.HTML) else o for o in outputs.shown]
    assert any('class="paef-card ' in d for d in drawn if isinstance(d, str))


def test_a_static_copy_shown_before_the_view_is_drawn_once_when_its_final_figures_follow(monkeypatch):
    """Displayed before the live view (the cell printed), the static copy's output is empty
    until the final figures come after the view (`restamp`): the copy is drawn once, with
    them, not once before and again after."""
    import IPython.display

    from paef_jupyter.ui import show_report, widget

    outputs = Outputs()
    monkeypatch.setattr(IPython.display, "display", outputs)
    drawn = []
    inner = widget.static_html
    monkeypatch.setattr(widget, "static_html", lambda *a, **kw: drawn.append(a[0]) or inner(*a, **kw))
    final = replace(sample_report(), title="with its final figures")
    shown = show_report(sample_report(), restamp=lambda report: final)
    static, live = outputs.shown
    assert drawn == [final] and shown is final
    assert "with its final figures" in static.data and 'class="paef-summary"' in static.data
    assert "application/vnd.jupyter.widget-view+json" in live
