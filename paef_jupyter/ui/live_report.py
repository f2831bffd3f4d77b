"""A report's live view as one anywidget: summary, flame chart, note, line table, toolbar, cards,
source.

A front end opens a report's widget models one after another (a `comm_open` each, with its
whole state, the view's module text included) before it draws the view, and the kernel sends
each as a message of its own. With ipywidgets every card was nine models (box, body, button
row, five buttons, status) and a one-card report 34; a summary, a chart and a body as widgets
of their own were still six models with their layouts and styles. Here it is one model
(`live_report.js` draws it) in a box that shares the kernel's one layout: two `comm_open`s per
report of any size.

The chart's part holds only the figure's plain JSON and the bars' colours: plotly's
`FigureWidget` validated every bar in the kernel (about a second per report) and sent all of
plotly.js (5 MB) in each report's `comm_open`; the view loads plotly.js once per page, from the
labextension or, where that is missing, from the kernel once (`need_plotly`).

What the kernel changes (the summary, a card's classes, its buttons' `disabled`, its status,
the lit source lines, the bars' colours) travels as small trait updates. The page's messages
are checked (anything else is ignored): a button press `{"type": "press", "card": <index or
null>, "name": <button>}`, a click on a bar `{"type": "click", "bar": <index>}`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import anywidget
import ipywidgets
import traitlets

_ESM = Path(__file__).with_name("live_report.js")

def _module_text(source: str) -> str:
    """The view's module as sent: without its whole-line comments, blank lines and indentation.

    Every report's `comm_open` carries the module's text (each model's state holds it), and
    a third of `live_report.js` is comments for its readers: 11.5 kB of text, 8.2 kB sent.
    Only whole lines go (a comment after code stays, so no string or regex with `//` in it is
    cut) and no line break is removed (JavaScript's automatic semicolons see the same lines);
    the module has no multi-line string or template for a dropped line to be part of
    (`test_the_view_module_sent_is_the_file_without_its_comment_lines`)."""
    kept = (line.strip() for line in source.split("\n"))
    return "\n".join(line for line in kept if line and not line.startswith("//")) + "\n"


CARD_BUTTONS = ("show", "apply", "dismiss", "undo", "silence")
TOOLBAR_BUTTONS = ("apply_all", "compare")


class LiveReport(anywidget.AnyWidget):
    # anywidget's own __init__ adds these two to every instance (`add_traits`, which makes a
    # class per widget: about 0.8 ms of the 1.1 ms a report's model took to make); declared
    # once here, and that __init__ skipped but in Colab, where it also sets up the front end.
    _esm = traitlets.Unicode(_module_text(_ESM.read_text(encoding="utf-8"))).tag(sync=True)
    _anywidget_id = traitlets.Unicode(f"{__name__}.LiveReport").tag(sync=True)
    css = traitlets.Unicode().tag(sync=True)  # the view's style sheet: sent once, never changes
    head = traitlets.Unicode().tag(sync=True)  # summary, ranks and errors (HTML)
    # The summary's overhead figure as taken once the view is out ("1.72x"; "": the head's own),
    # written into the head's `paef-overhead` stat: a message of tens of bytes, not the head again.
    overhead = traitlets.Unicode().tag(sync=True)
    # The flame chart's plotly figure; empty: no chart. Sent as one JSON text (`_json_text`).
    figure = traitlets.Dict().tag(sync=True, to_json=lambda value, _widget: _json_text(value))
    # {"fill": [...], "outline": [...]}, one colour per bar; empty: the figure's own.
    colors = traitlets.Dict().tag(sync=True)
    toolbar = traitlets.Bool(False).tag(sync=True)  # Apply all, Re-run and compare, status
    tips = traitlets.Dict().tag(sync=True)  # the toolbar buttons' tooltips
    cards = traitlets.List().tag(sync=True)  # [{"html", "tips": {button: tooltip}}]: never changes
    card_state = traitlets.List().tag(sync=True)  # [{"classes", "disabled", "status", "code"}]
    sources = traitlets.List().tag(sync=True)  # the source of each unit with findings (HTML)
    info = traitlets.Unicode().tag(sync=True)  # what a clicked frame has behind it
    lines = traitlets.Unicode().tag(sync=True)  # the per-line table
    status = traitlets.Unicode().tag(sync=True)  # the toolbar's (Re-run and compare's verdict)
    controls = traitlets.Dict().tag(sync=True)  # {toolbar button: {"disabled", "hidden"}}

    def __init__(self, on_press: Callable[[int | None, str], Any],
                 on_click: Callable[[int], Any] | None = None, **kwargs: Any):
        if "google.colab" in sys.modules:
            super().__init__(**kwargs)
        else:
            ipywidgets.DOMWidget.__init__(self, **kwargs)
        self._on_press = on_press
        self._on_click = on_click
        self._bars = len(self.figure["data"][0]["x"]) if self.figure.get("data") else 0
        self.on_msg(self._message)

    def paint(self, fill: list[str], outline: list[str]) -> None:
        self.colors = {"fill": fill, "outline": outline}

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Anything but a press of a button this view drew, a click on one of its bars, or
        the chart's request for plotly.js is ignored."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "press":
            card, name = content.get("card"), content.get("name")
            if card is None:
                if name in TOOLBAR_BUTTONS and self.toolbar:
                    self._on_press(None, name)
            elif type(card) is int and 0 <= card < len(self.cards) and name in CARD_BUTTONS:
                self._on_press(card, name)
        elif kind == "click":
            bar = content.get("bar")
            if type(bar) is int and 0 <= bar < self._bars and self._on_click is not None:
                self._on_click(bar)
        elif kind == "need_plotly" and self._bars:
            from .html_report import plotly_bundle

            self.send({"type": "plotly", "source": plotly_bundle()})


def _json_text(value: dict) -> str:
    """A figure as JSON text: ipywidgets walks every list and dict of a trait's value for
    binary buffers (a figure has none), element by element, before the message is encoded;
    one string is neither walked nor encoded element by element (the walk was 0.26 ms of a
    host_syncs report's state). The view parses it (`live_report.js`, `figureOf`); the trait still holds
    the figure itself."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False) if value else ""


__all__ = ["CARD_BUTTONS", "LiveReport", "TOOLBAR_BUTTONS"]
