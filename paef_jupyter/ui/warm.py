"""Pay the report view's first-use imports off the critical path (at `%load_ext`, in a thread).

The first report in a kernel imports ipywidgets, nbformat and anywidget (about a second when
the box is quiet, several when it is not). Imports only: no widget is constructed, so no comm
is opened and the front end sees nothing.
"""

from __future__ import annotations


def warm_view() -> None:
    """Import the live view's modules; never raises."""
    try:
        from . import widget  # noqa: F401 - ipywidgets, nbformat and the view's own modules
        import anywidget  # noqa: F401 - the live flame chart is an anywidget
    except Exception:  # noqa: BLE001 - warming is an optimisation only (no ipywidgets: a static view)
        pass
