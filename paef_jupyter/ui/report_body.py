"""The live view's part below the chart as one anywidget: note, line table, toolbar, cards, source.

A front end opens a report's widget models one after another (a `comm_open` each, with its
whole state) before it draws the view. With ipywidgets every card was nine models (box, body,
button row, five buttons, status) and a one-card report 34; here the cards, their buttons
and the source are one model (`report_body.js` draws them), and a report of any size is six.
What the kernel changes (a card's classes, its buttons' `disabled`, its status, the lit source
lines) travels as small trait updates; a button press comes back as a custom message
`{"type": "press", "card": <index or null>, "name": <button>}`, checked like the chart's clicks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import anywidget
import traitlets

_ESM = Path(__file__).with_name("report_body.js")

CARD_BUTTONS = ("show", "apply", "dismiss", "undo", "silence")
TOOLBAR_BUTTONS = ("apply_all", "compare")


class ReportBody(anywidget.AnyWidget):
    _esm = _ESM
    toolbar = traitlets.Bool(False).tag(sync=True)  # Apply all, Re-run and compare, status
    tips = traitlets.Dict().tag(sync=True)  # the toolbar buttons' tooltips
    cards = traitlets.List().tag(sync=True)  # [{"html", "tips": {button: tooltip}}]: never changes
    card_state = traitlets.List().tag(sync=True)  # [{"classes", "disabled", "status", "code"}]
    sources = traitlets.List().tag(sync=True)  # the source of each unit with findings (HTML)
    info = traitlets.Unicode().tag(sync=True)  # what a clicked frame has behind it
    lines = traitlets.Unicode().tag(sync=True)  # the per-line table
    status = traitlets.Unicode().tag(sync=True)  # the toolbar's (Re-run and compare's verdict)
    controls = traitlets.Dict().tag(sync=True)  # {toolbar button: {"disabled", "hidden"}}

    def __init__(self, on_press: Callable[[int | None, str], Any], **kwargs: Any):
        super().__init__(**kwargs)
        self._on_press = on_press
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Anything but a press of a button this view drew is ignored."""
        if not isinstance(content, dict) or content.get("type") != "press":
            return
        card, name = content.get("card"), content.get("name")
        if card is None:
            if name in TOOLBAR_BUTTONS and self.toolbar:
                self._on_press(None, name)
        elif type(card) is int and 0 <= card < len(self.cards) and name in CARD_BUTTONS:
            self._on_press(card, name)


__all__ = ["CARD_BUTTONS", "ReportBody", "TOOLBAR_BUTTONS"]
