"""The live flame chart: an anywidget whose model is the figure's plain JSON.

plotly's `FigureWidget` validated every bar in the kernel (about a second per report) and sent
all of plotly.js (5 MB) in each report's `comm_open`. Here the model holds only the figure and
the bars' colours; the view (`flame_chart.js`, a few KB) loads plotly.js once per page, from the
labextension or, where that is missing, from the kernel once. Clicks come back as custom
messages `{"type": "click", "bar": i}`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import anywidget
import traitlets

_ESM = Path(__file__).with_name("flame_chart.js")


class FlameChart(anywidget.AnyWidget):
    _esm = _ESM
    figure = traitlets.Dict().tag(sync=True)
    # {"fill": [...], "outline": [...]}, one colour per bar; empty: the figure's own.
    colors = traitlets.Dict().tag(sync=True)

    def __init__(self, figure: dict, on_click: Callable[[int], Any] | None = None, **kwargs: Any):
        super().__init__(figure=figure, **kwargs)
        self._bars = len(figure["data"][0]["x"]) if figure.get("data") else 0
        self._on_click = on_click
        self.on_msg(self._message)

    def paint(self, fill: list[str], outline: list[str]) -> None:
        self.colors = {"fill": fill, "outline": outline}

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Front-end messages are checked like the labextension checks the kernel's: anything
        else is ignored."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "click":
            bar = content.get("bar")
            if type(bar) is int and 0 <= bar < self._bars and self._on_click is not None:
                self._on_click(bar)
        elif kind == "need_plotly":
            from .html_report import plotly_bundle

            self.send({"type": "plotly", "source": plotly_bundle()})


__all__ = ["FlameChart"]
