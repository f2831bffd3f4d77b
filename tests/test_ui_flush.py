"""`ui.flush_soon`: the cell's printed text queued on ipykernel's I/O thread when its code is done,
so that the report drawn after it waits for a marker, not for `OutStream.flush()`'s round trip."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

import pytest

from paef_jupyter import ui


class _IOThread:
    """ipykernel's IOPubThread as the stream sees it: a FIFO of callables run by a thread."""

    def __init__(self) -> None:
        self.queue: list[Callable[[], None]] = []
        self.thread = threading.Thread(target=threading.Event().wait, daemon=True)
        self.thread.start()

    def schedule(self, f: Callable[[], None]) -> None:
        self.queue.append(f)

    def run_all(self) -> None:
        while self.queue:
            self.queue.pop(0)()


class _Stream:
    """The parts of ipykernel's OutStream that `flush_soon` and `flushed_if_written` read."""

    def __init__(self, pub: _IOThread) -> None:
        self.pub_thread = pub
        self._flush_pending = False
        self.sent: list[str] = []
        self.blocking_flushes = 0
        self._buffer = ""

    def write(self, text: str) -> None:
        self._buffer += text
        self._flush_pending = True

    def _flush(self) -> None:
        self._flush_pending = False
        if self._buffer:
            self.sent.append(self._buffer)
            self._buffer = ""

    def flush(self) -> None:
        self.blocking_flushes += 1
        self._flush()


@pytest.fixture
def streams(monkeypatch):
    """Set in the test's own phase: pytest's output capture sets `sys.stdout` anew for each."""
    return lambda: _install(monkeypatch)


def _install(monkeypatch) -> tuple[_IOThread, _Stream, _Stream]:
    pub = _IOThread()
    out, err = _Stream(pub), _Stream(pub)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(ui, "_queued", {})
    return pub, out, err


def test_text_is_queued_without_waiting_and_the_report_waits_for_the_marker_only(streams):
    pub, out, err = streams()
    out.write("trained 29\n")
    ui.flush_soon()
    assert out.sent == [] and len(pub.queue) == 1  # queued, not waited for; stderr had nothing
    pub.run_all()  # the I/O thread gets to it while the cell is analysed
    assert out.sent == ["trained 29\n"]
    ui._flush_written()
    assert out.blocking_flushes == 0 and err.blocking_flushes == 0


def test_text_written_after_the_early_flush_is_flushed_as_before(streams):
    pub, out, _ = streams()
    out.write("a\n")
    ui.flush_soon()
    pub.run_all()
    out.write("b\n")  # pending again
    ui._flush_written()
    assert out.sent == ["a\n", "b\n"] and out.blocking_flushes == 1


def test_a_flush_still_running_is_waited_for(streams):
    pub, out, _ = streams()
    out.write("a\n")
    ui.flush_soon()
    out._flush_pending = False  # the I/O thread has started `_flush` but not queued the text yet
    runner = threading.Timer(0.05, pub.run_all)
    runner.start()
    ui._flush_written()  # returns once the marker is set: the text is queued ahead of the report
    assert out.sent == ["a\n"] and out.blocking_flushes == 0
    runner.join()


def test_streams_that_are_not_ipykernels_are_left_alone(monkeypatch):  # set in the test's phase, as above
    class Plain:
        flushed = 0

        def flush(self) -> None:
            self.flushed += 1

    plain = Plain()
    monkeypatch.setattr(sys, "stdout", plain)
    monkeypatch.setattr(ui, "_queued", {})
    ui.flush_soon()
    assert ui._queued == {}
    ui._flush_written()  # flushed as usual
    assert plain.flushed == 1
