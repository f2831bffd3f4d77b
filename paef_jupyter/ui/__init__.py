"""Views of a `Report`: the live widget, the static HTML fallback, the exported HTML file."""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
import time
from typing import Any, Callable, Iterator

from ..model import Report


def show_report(
    report: Report,
    *,
    top: int = 5,
    editor: Any = None,
    rerun: Callable[[str], Any] | None = None,
    apply_hint: str | None = None,
    key: str | None = None,
    placeholder: "Placeholder | None" = None,
    restamp: Callable[[Report], Report] | None = None,
) -> Report:
    """Display `report` in the notebook: the widget view, or static HTML (without ipywidgets,
    or for a report with nothing live: no finding, no chart). Returns the report as shown.

    `key` names the cell showing it (its id): the view that cell showed before is closed.
    `placeholder` (from `placeholder()`) is the output replaced by the static report.
    `restamp` gives the report its final figures (the overhead figure taken once the rest is
    drawn), for the static report and the live summary."""
    from IPython.display import display

    from . import flame

    layout = flame.layout(report)
    # A clean report without a chart has nothing to click, dismiss or apply: the static view
    # is the whole view, and a live one would only cost its widgets' traffic.
    view_class = _live_view() if report.findings or layout is not None else None
    if view_class is None:
        from .static_view import static_html

        _close_shown(key)
        note = None
        if report.findings and apply_hint:
            note = f"Without ipywidgets nothing can be applied from here: re-run as `{apply_hint}`."
        if restamp is not None:
            report = restamp(report)
        html = HtmlText(static_html(report, top, note))
        if placeholder is not None:
            placeholder.update(html)
        else:
            data, raw = output_of(html)
            display(data, raw=raw)
        if layout is not None:
            display(flame.figure(report, layout))
        return report
    # Where nothing was output since the placeholder, the static copy takes its place once the
    # live view is out (one message less, and the copy carries the final figures); else the
    # placeholder is emptied and the copy displayed first, so that it is the live view's
    # neighbour (`ReportView.display`).
    if placeholder is not None:
        placeholder.stop_notes()
    in_place = placeholder is not None and placeholder.last_output()
    view = view_class(report, top=top, editor=editor, rerun=rerun, apply_hint=apply_hint,
                      static_first=not in_place, placeholder=placeholder, final_later=restamp is not None)
    _close_shown(key)
    if key is not None:
        _shown[key] = view
    view.display(in_place_of=placeholder if in_place else None, restamp=restamp)
    return view.report


def _live_view() -> Any:
    """The widget view's class; None without ipywidgets."""
    try:
        from .widget import ReportView
    except ImportError:
        return None
    return ReportView


def _close_shown(key: str | None) -> None:
    old = _shown.pop(key, None) if key is not None else None
    if old is not None:
        old.close()


# The live view last shown per cell id: closed when the cell shows a new one.
_shown: dict[str, Any] = {}


class Placeholder:
    """An output shown at once while the cell runs, updated in place with what is being done,
    and replaced in place by the report.

    A note that would replace one shown less than `NOTE_AFTER_S` ago is held until then (sent
    by a timer, in the cell's context) and dropped when a newer note or the report comes first:
    on a cell of a few tens of milliseconds no eye reads it, and each was a message, sent in
    the user's time. The note shown meanwhile stays true ("running this cell ..., then
    analysing it")."""

    NOTE_AFTER_S = 0.1

    def __init__(self, text: str) -> None:
        from IPython.display import display

        self._lock = threading.Lock()
        self._held: str | None = None
        self._timer: threading.Timer | None = None
        before = _messages_sent()
        data, raw = output_of(placeholder_html(text))
        with unflushed():  # the cell's first output: it has printed nothing yet
            self._handle = display(data, raw=raw, display_id=True)
        self._shown_at = time.perf_counter()
        self._mark = _own_message(before, before)

    def update(self, obj: Any) -> None:
        with self._lock:
            self._drop_held()
            self._send(obj)

    def stop_notes(self) -> None:
        """No more notes: the report, or the end of the cell, comes next."""
        with self._lock:
            self._drop_held()

    def _drop_held(self) -> None:
        self._held = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def note(self, text: str) -> None:
        with self._lock:
            wait = self._shown_at + self.NOTE_AFTER_S - time.perf_counter()
            if wait <= 0:
                self._send(placeholder_html(text))
                return
            self._held = text
            if self._timer is None:
                self._timer = threading.Timer(wait, contextvars.copy_context().run, (self._release,))
                self._timer.daemon = True
                self._timer.start()

    def _release(self) -> None:
        """The held note, once the one before it was shown long enough (the timer's thread)."""
        with self._lock:
            self._timer = None
            text, self._held = self._held, None
            if text is not None:
                with contextlib.suppress(Exception):  # a courtesy: it never fails the cell
                    self._send(placeholder_html(text), flush=True)

    def _send(self, obj: Any, *, flush: bool = False) -> None:
        """`flush`: as IPython sends it (from the timer's thread, which must not change how
        the cell's own thread flushes, `unflushed`)."""
        before = _messages_sent()
        data, raw = output_of(obj)
        if flush:
            self._handle.update(data, raw=raw)
        else:
            with unflushed():  # an update in place: its place among the printed output is kept
                self._handle.update(data, raw=raw)
        self._shown_at = time.perf_counter()
        self._mark = _own_message(self._mark, before)

    def last_output(self) -> bool:
        """Still the cell's last output: the kernel sent no message since it was displayed
        but its own updates (ipykernel's session counts them), and no printed text waits to be
        sent."""
        with self._lock:
            return self._mark is not None and _messages_sent() == self._mark and not _text_waiting()


class Shown:
    """An output displayed with a display id (`shown`), updated in place like a `Placeholder`."""

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    def update(self, obj: Any) -> None:
        data, raw = output_of(obj)
        self._handle.update(data, raw=raw)


def shown(obj: Any) -> Shown:
    """`display(obj, display_id=True)`, an `HTML` sent as its bundle (`output_of`)."""
    from IPython.display import display

    data, raw = output_of(obj)
    return Shown(display(data, raw=raw, display_id=True))


_HTML_TEXT = "<IPython.core.display.HTML object>"


class HtmlText(str):
    """HTML text to display as IPython's `HTML(text)` is displayed (`output_of` makes the same
    bundle), without making that object: `HTML.__init__` asks the file system whether the text
    names a file (`os.path.exists` on the whole report), a system call that lets ipykernel's
    I/O thread take the GIL in the middle of drawing the report."""


def output_of(obj: Any) -> tuple[Any, bool]:
    """(what to display, whether raw): an `HTML` object (or `HtmlText`) as the mime bundle
    IPython's formatters make of it, the same message, made here and sent raw: a display
    otherwise asks every formatter (0.1 of the 0.2 ms an update took in a kernel). Anything
    else as it is."""
    if type(obj) is HtmlText:
        return {"text/plain": _HTML_TEXT, "text/html": str(obj)}, True
    from IPython.display import HTML

    if type(obj) is HTML and not obj.metadata and isinstance(obj.data, str):
        return {"text/plain": _HTML_TEXT, "text/html": obj.data}, True
    return obj, False


def _own_message(mark: int | None, before: int | None) -> int | None:
    """The count of messages after one the placeholder just sent, when it was the only one
    since `mark` (the count after its previous one); else None for good: something else was
    output after the placeholder (printed text an update in place does not move above)."""
    after = _messages_sent()
    if mark is None or before is None or after is None or before != mark or after != before + 1:
        return None
    return after


def placeholder(text: str) -> Placeholder:
    """An output shown at once while the cell runs, replaced in place by the report."""
    return Placeholder(text)


def progress_note(shown: Placeholder) -> Callable[[str], None]:
    """Updates the placeholder `shown` in place with a few words on what is being done."""
    return shown.note


def _messages_sent() -> int | None:
    """The kernel's count of messages made so far (any channel, any thread), or None."""
    from IPython import get_ipython

    session = getattr(getattr(get_ipython(), "display_pub", None), "session", None)
    count = getattr(session, "message_count", None)
    return count if isinstance(count, int) else None


def _text_waiting() -> bool:
    """Some printed text is not sent yet (or the streams are not ipykernel's: unknown)."""
    return any(getattr(stream, "_flush_pending", True) for stream in (sys.stdout, sys.stderr))


@contextlib.contextmanager
def unflushed() -> Iterator[None]:
    """Display messages sent in the block do not flush the cell's printed output first.

    ipykernel flushes stdout and stderr before every display message, each flush a round trip
    to its I/O thread: an update took 0.46 ms (median; 2.6 ms in one of ten) flushed and 0.29 ms
    (0.5 ms) not, in a kernel on this loaded box; a progress note sent from inside the profiled
    loop paid it in the user's time. Only for
    messages whose place among the printed output does not matter: an update of an output
    already shown (it replaces that output where it is), or an output that follows one just
    flushed. Elsewhere than ipykernel, displays go as usual."""
    with _flushing(_no_flush):
        yield


@contextlib.contextmanager
def flushed_if_written() -> Iterator[None]:
    """Display messages sent in the block flush the cell's printed output first only when some
    is waiting to be sent: the round trip to the I/O thread (a few ms on a loaded box) is paid
    for nothing when the cell printed nothing since the last flush. Text written is marked
    pending (ipykernel's `OutStream._flush_pending`) until the I/O thread sends it, and a
    display message queues behind a send under way, so the order stays the printed order."""
    with _flushing(_flush_written):
        yield


@contextlib.contextmanager
def _flushing(flush: Callable[[], None]) -> Iterator[None]:
    from IPython import get_ipython

    pub = getattr(get_ipython(), "display_pub", None)
    if pub is None or not hasattr(pub, "_flush_streams") or "_flush_streams" in vars(pub):
        yield
        return
    pub._flush_streams = flush
    try:
        yield
    finally:
        del pub._flush_streams


def _no_flush() -> None:
    pass


def _flush_written() -> None:
    for stream in (sys.stdout, sys.stderr):
        queued = _queued.pop(id(stream), None)
        if queued is not None and queued[0] is stream and not getattr(stream, "_flush_pending", True):
            if queued[1].wait(FLUSH_TIMEOUT_S):  # its text is queued ahead of what follows
                continue
        if getattr(stream, "_flush_pending", True):  # not ipykernel's stream: flushed as usual
            stream.flush()


FLUSH_TIMEOUT_S = 10.0  # ipykernel's own `OutStream.flush_timeout`

# Per stream (by id): (the stream, set once a flush queued by `flush_soon` has queued its text).
_queued: dict[int, tuple[Any, threading.Event]] = {}


def flush_soon() -> None:
    """Have ipykernel start sending what the cell printed, without waiting for it: called when
    the cell's code is done, so that by the time the report is drawn its text is on its way
    and the static copy (which must follow it) need not wait for the I/O thread.

    `OutStream.flush()` queues a flush on ipykernel's I/O thread and blocks until that thread
    has run it (in a kernel on this box, 1.2 ms of the 1.6 ms wall the static copy's first
    display took, for 0.4 ms of CPU). Here the flush is queued with a marker set right after
    it, which the I/O thread reaches once the text's message is queued (its FIFO of sends):
    `flushed_if_written` then waits for the marker only, usually set long before. Text
    written after this call is pending again and flushed as before. Streams that are not
    ipykernel's (or whose I/O thread is not running, or is this one) are left alone."""
    for stream in (sys.stdout, sys.stderr):
        if not getattr(stream, "_flush_pending", False):
            continue
        pub = getattr(stream, "pub_thread", None)
        thread = getattr(pub, "thread", None)
        flush = getattr(stream, "_flush", None)
        schedule = getattr(pub, "schedule", None)
        if not (callable(flush) and callable(schedule) and isinstance(thread, threading.Thread)
                and thread.is_alive() and thread.ident != threading.get_ident()):
            continue
        done = threading.Event()

        def flush_then_mark(flush: Callable[[], None] = flush, done: threading.Event = done) -> None:
            try:
                flush()
            finally:
                done.set()

        _queued[id(stream)] = (stream, done)
        schedule(flush_then_mark)


def placeholder_html(text: str) -> HtmlText:
    from .html import tag

    return HtmlText(tag("div", tag("span", "paef: ", text), class_="paef-status paef-progress",
                        style="font-size:12px;opacity:.8"))
