"""`ui.sends_batched`: a report's messages wake ipykernel's I/O thread once, in their order."""

from __future__ import annotations

import threading
from collections import deque

import pytest

from paef_jupyter import ui


class FakeIOPubThread:
    """ipykernel's `IOPubThread` as `sends_batched` uses it: a FIFO of callables and a wake-up
    per `schedule` (counted here; the I/O thread would drain the FIFO on each)."""

    def __init__(self) -> None:
        self._events: deque = deque()
        self.thread = threading.current_thread()  # alive
        self.wakes = 0
        self.sent: list[str] = []

    def schedule(self, f) -> None:
        self._events.append(f)
        self.wakes += 1

    def send_multipart(self, msg, *args, **kwargs) -> None:
        self.schedule(lambda: self._really_send(msg, *args, **kwargs))

    def _really_send(self, msg, *args, **kwargs) -> None:
        self.sent.append(msg)

    def drain(self) -> None:
        while self._events:
            self._events.popleft()()


@pytest.fixture()
def io(monkeypatch):
    fake = FakeIOPubThread()
    monkeypatch.setattr(ui, "_io_thread", lambda: fake)
    return fake


def test_messages_in_the_block_wake_the_io_thread_once_at_its_end(io):
    with ui.sends_batched():
        for name in ("comm_open", "comm_open", "display_data", "comm_msg"):
            io.send_multipart(name)
        assert io.wakes == 0
    assert io.wakes == 1
    io.drain()
    assert io.sent == ["comm_open", "comm_open", "display_data", "comm_msg"]
    assert "send_multipart" not in vars(io)  # ipykernel's own method again


def test_a_flush_inside_wakes_the_thread_and_the_held_messages_go_first(io):
    with ui.sends_batched():
        io.send_multipart("a")
        io.schedule(lambda: io.sent.append("flush"))  # what OutStream.flush schedules, then waits on
        assert io.wakes == 1
        io.drain()  # the thread, woken, runs everything queued, in order
        assert io.sent == ["a", "flush"]
        io.send_multipart("b")
    io.drain()
    assert io.sent == ["a", "flush", "b"]


def test_send_batched_now_sends_what_is_held_and_batching_goes_on(io):
    with ui.sends_batched():
        io.send_multipart("static copy")
        ui.send_batched_now()
        assert io.wakes == 1
        ui.send_batched_now()  # nothing held: no wake-up
        assert io.wakes == 1
        io.send_multipart("widget")
        io.send_multipart("head")
        assert io.wakes == 1
    assert io.wakes == 2
    io.drain()
    assert io.sent == ["static copy", "widget", "head"]


def test_another_threads_messages_are_not_held(io):
    with ui.sends_batched():
        other = threading.Thread(target=io.send_multipart, args=("from a timer",))
        other.start()
        other.join()
        assert io.wakes == 1
    assert io.wakes == 1  # nothing of this thread's was held


def test_an_error_in_the_block_still_sends_what_it_held(io):
    with pytest.raises(RuntimeError):
        with ui.sends_batched():
            io.send_multipart("a")
            raise RuntimeError("drawing failed")
    assert io.wakes == 1
    assert "send_multipart" not in vars(io)
    io.drain()
    assert io.sent == ["a"]


def test_nested_blocks_hold_until_the_outer_one_ends(io):
    with ui.sends_batched():
        with ui.sends_batched():
            io.send_multipart("a")
        assert io.wakes == 0
    assert io.wakes == 1


def test_outside_ipykernel_messages_go_as_usual(monkeypatch):
    monkeypatch.setattr(ui, "_io_thread", lambda: None)
    with ui.sends_batched():
        ui.send_batched_now()  # no-op
