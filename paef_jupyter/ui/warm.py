"""Pay the report view's first-use costs off the critical path (at `%load_ext`, in a thread).

The first report in a kernel imports ipywidgets, anywidget and plotly's `FigureWidget`
(seconds: jsonschema, nbformat, the plotly.js bundle) and builds plotly's validators for the
flame chart's trace. Imports and an offline `go.Figure` only: no widget is constructed, so no
comm is opened and the front end sees nothing.
"""

from __future__ import annotations


def warm_view() -> None:
    """Import the view's modules and build one offline figure like the flame chart's; never raises."""
    try:
        from . import widget  # noqa: F401 - ipywidgets and the view's own modules
        import plotly.graph_objects as go
        from plotly.graph_objs import FigureWidget  # noqa: F401 - anywidget, the plotly.js bundle

        go.Figure(
            data=[go.Bar(orientation="h", base=[0.0], x=[1.0], y=[0], text=["x"], customdata=[0],
                         textfont={"size": 10, "color": "#111"}, hovertext=["x"],
                         marker={"color": ["#fff"], "line": {"color": ["#fff"], "width": 1}})],
            layout=go.Layout(title={"text": "x", "font": {"size": 13}}, xaxis={"title": {"text": "t"}},
                             yaxis={"tickvals": [0], "ticktext": ["CPU"]}, uniformtext={"mode": "hide", "minsize": 8},
                             hoverlabel={"align": "left"}),
        )
    except Exception:  # noqa: BLE001 - warming is an optimisation only (no plotly: a static view)
        pass
