"""The kernel side of the cell-edit comm: message shapes, request ids, timeouts, closing."""

from __future__ import annotations

import queue
import time
from typing import Any, Callable

import pytest

from paef_jupyter.ui.bridge import (
    COMM_TARGET,
    STATUS_TEXT,
    CellEditBridge,
    fallback,
)


class FakeComm:
    """Records what the kernel sends; `reply`/`close` play the front end."""

    def __init__(self, target: str, data: dict[str, Any]) -> None:
        self.target = target
        self.open_data = data
        self.sent: list[dict[str, Any]] = []
        self._on_msg: Callable[[dict[str, Any]], None] | None = None
        self._on_close: Callable[[dict[str, Any]], None] | None = None

    def send(self, data: dict[str, Any]) -> None:
        self.sent.append(data)

    def on_msg(self, callback: Callable[[dict[str, Any]], None]) -> None:
        self._on_msg = callback

    def on_close(self, callback: Callable[[dict[str, Any]], None]) -> None:
        self._on_close = callback

    def reply(self, data: dict[str, Any]) -> None:
        assert self._on_msg is not None
        self._on_msg({"content": {"comm_id": "x", "data": data}})

    def close(self) -> None:
        assert self._on_close is not None
        self._on_close({"content": {"comm_id": "x", "data": {}}})


class FakeClock:
    """A scheduler whose timers fire only when the test says so."""

    def __init__(self) -> None:
        self.timers: list[dict[str, Any]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        timer = {"delay": delay, "callback": callback, "cancelled": False}
        self.timers.append(timer)
        return lambda: timer.update(cancelled=True)

    def fire(self, index: int) -> None:
        timer = self.timers[index]
        if not timer["cancelled"]:
            timer["callback"]()


@pytest.fixture
def comms() -> list[FakeComm]:
    return []


@pytest.fixture
def wired(comms: list[FakeComm]) -> tuple[CellEditBridge, FakeComm, FakeClock]:

    def open_comm(target: str, data: dict[str, Any]) -> FakeComm:
        comms.append(FakeComm(target, data))
        return comms[-1]

    clock = FakeClock()
    bridge = CellEditBridge(open_comm, clock, hello_timeout=2.0, reply_timeout=5.0)
    return bridge, comms[0], clock


def ready(comm: FakeComm) -> None:
    comm.reply({"type": "ready", "version": 1})


def test_hello_travels_in_the_open_message_and_ready_makes_it_available(wired):
    bridge, comm, clock = wired
    assert comm.target == COMM_TARGET == "paef_jupyter.cell_edit"
    assert comm.open_data == {"type": "hello", "version": 1}
    assert (bridge.state, bridge.available) == ("connecting", False)
    ready(comm)
    assert (bridge.state, bridge.available) == ("ready", True)
    clock.fire(0)  # the hello timer was cancelled by the answer
    assert bridge.available


def test_ready_with_another_version_is_not_an_answer(wired):
    bridge, comm, clock = wired
    comm.reply({"type": "ready", "version": 2})
    assert bridge.state == "connecting"
    clock.fire(0)
    assert bridge.state == "closed"


def test_replace_cell_sends_the_protocol_message_with_a_fresh_request_id(wired):
    bridge, comm, _ = wired
    ready(comm)
    first = bridge.replace_cell("c1", "x = 1\n", "x = 2\n", lambda s: None)
    second = bridge.replace_cell("c1", "x = 2\n", "x = 1\n", lambda s: None)
    assert first != second
    assert comm.sent == [
        {"type": "replace_cell", "request_id": first, "cell_id": "c1",
         "expected_source": "x = 1\n", "new_source": "x = 2\n"},
        {"type": "replace_cell", "request_id": second, "cell_id": "c1",
         "expected_source": "x = 2\n", "new_source": "x = 1\n"},
    ]


@pytest.mark.parametrize("status", ["applied", "conflict", "not_found"])
def test_front_end_status_reaches_the_callback_of_its_request_only(wired, status):
    bridge, comm, clock = wired
    ready(comm)
    got: dict[str, list[str]] = {"a": [], "b": []}
    rid_a = bridge.replace_cell("a", "1", "2", got["a"].append)
    bridge.replace_cell("b", "1", "2", got["b"].append)
    comm.reply({"type": "result", "request_id": rid_a, "status": status})
    assert got == {"a": [status], "b": []}
    reply_timer_a = clock.timers[1]
    assert reply_timer_a["delay"] == 5.0 and reply_timer_a["cancelled"]
    comm.reply({"type": "result", "request_id": rid_a, "status": "applied"})  # a duplicate
    assert got["a"] == [status]


def test_unknown_statuses_and_request_ids_are_ignored(wired):
    bridge, comm, _ = wired
    ready(comm)
    got: list[str] = []
    rid = bridge.replace_cell("a", "1", "2", got.append)
    comm.reply({"type": "result", "request_id": rid, "status": "exploded"})
    comm.reply({"type": "result", "request_id": "nope", "status": "applied"})
    assert got == []


def test_no_reply_within_the_timeout_means_no_extension(wired):
    bridge, comm, clock = wired
    ready(comm)
    got: list[str] = []
    bridge.replace_cell("a", "1", "2", got.append)
    clock.fire(1)
    assert got == ["no_extension"]
    assert bridge.state == "closed"


def test_an_answer_after_the_timeout_is_still_delivered(wired):
    bridge, comm, clock = wired
    ready(comm)
    got: list[str] = []
    rid = bridge.replace_cell("a", "1", "2", got.append)
    clock.fire(1)
    comm.reply({"type": "result", "request_id": rid, "status": "applied"})
    assert got == ["no_extension", "applied"]
    assert bridge.available


def test_silent_front_end_closes_the_bridge_and_fails_waiting_requests(wired):
    bridge, comm, clock = wired
    got: list[str] = []
    bridge.replace_cell("a", "1", "2", got.append)  # sent while the handshake is pending
    clock.fire(0)
    assert (bridge.state, got) == ("closed", ["no_extension"])
    assert clock.timers[1]["cancelled"]


def test_front_end_without_the_target_closes_the_comm(wired):
    bridge, comm, clock = wired
    comm.close()
    assert bridge.state == "closed" and clock.timers[0]["cancelled"]
    got: list[str] = []
    bridge.replace_cell("a", "1", "2", got.append)
    assert got == ["no_extension"]
    assert comm.sent == []


def test_fallback_offers_the_code_and_the_rerun_route():
    plan = fallback("x = torch.ones(3, device=dev)\n")
    assert plan.code == "x = torch.ones(3, device=dev)\n"
    assert plan.reason == STATUS_TEXT["no_extension"]
    assert "Re-run" in plan.rerun
    assert set(STATUS_TEXT) == {"applied", "conflict", "not_found", "no_extension"}


# --- a real ipykernel, with the test playing the front end over jupyter_client ---------------


def _iopub_comm(kc: Any, msg_type: str, deadline: float) -> dict[str, Any]:
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.5)
        except queue.Empty:
            continue
        if msg["msg_type"] == msg_type:
            return msg["content"]
    raise AssertionError(f"no {msg_type} from the kernel")


def _run(kc: Any, code: str) -> str:
    out: list[str] = []
    reply = kc.execute_interactive(
        code, timeout=30,
        output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
    )
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(out).strip()


@pytest.fixture(scope="module")
def kernel():
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.mark.kernel
def test_real_kernel_handshake_request_and_reply(kernel):
    kc = kernel
    kc.execute("from paef_jupyter.ui.bridge import CellEditBridge\n"
               "bridge = CellEditBridge(hello_timeout=10)\ngot = []")
    opened = _iopub_comm(kc, "comm_open", time.monotonic() + 20)
    assert opened["target_name"] == COMM_TARGET and opened["data"] == {"type": "hello", "version": 1}
    comm_id = opened["comm_id"]
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {"type": "ready", "version": 1}}))
    assert _run(kc, "print(bridge.available)") == "True"

    kc.execute("rid = bridge.replace_cell('c1', 'a = 1', 'a = 2', got.append)")
    request = _iopub_comm(kc, "comm_msg", time.monotonic() + 20)["data"]
    assert request["type"] == "replace_cell" and request["cell_id"] == "c1"
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {
        "type": "result", "request_id": request["request_id"], "status": "conflict"}}))
    assert _run(kc, "print(got, rid == %r)" % request["request_id"]) == "['conflict'] True"


@pytest.mark.kernel
def test_real_kernel_times_out_without_a_front_end(kernel):
    kc = kernel
    # The clock starts once the cell is over: the cell's own sleep does not count.
    assert _run(kc, "from paef_jupyter.ui.bridge import CellEditBridge\n"
                    "lonely = CellEditBridge(hello_timeout=0.2)\nimport time; time.sleep(0.5)\n"
                    "print(lonely.state)") == "connecting"
    time.sleep(0.6)
    assert _run(kc, "print(lonely.state)") == "closed"


@pytest.mark.kernel
def test_real_kernel_reads_a_reply_that_came_while_a_long_cell_ran(kernel):
    kc = kernel
    kc.execute("import time\nfrom paef_jupyter.ui.bridge import CellEditBridge\n"
               "slow = CellEditBridge(reply_timeout=0.3)\ngot_slow = []")
    comm_id = _iopub_comm(kc, "comm_open", time.monotonic() + 20)["comm_id"]
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {"type": "ready", "version": 1}}))
    kc.execute("slow.replace_cell('c', 'a', 'b', got_slow.append)\ntime.sleep(1.5)")
    request = _iopub_comm(kc, "comm_msg", time.monotonic() + 20)["data"]
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {
        "type": "result", "request_id": request["request_id"], "status": "applied"}}))
    # The reply waited in the queue longer than the timeout, but the clock only started after the cell.
    assert _run(kc, "print(got_slow, slow.state)") == "['applied'] ready"


def test_notebook_state_is_read_and_metadata_writes_are_new_message_types(wired):
    bridge, comm, _ = wired
    ready(comm)
    comm.reply({"type": "notebook_state", "silenced": ["host-sync", 3],
                "dismissed": {"cell-1": ["ping-pong:y = f(x)", None], "cell-2": "not a list", 5: ["x"]}})
    assert bridge.silenced == {"host-sync"} and bridge.dismissed == {"cell-1": {"ping-pong:y = f(x)"}}
    comm.reply({"type": "notebook_state", "silenced": "nonsense"})  # hostile shapes change nothing
    assert bridge.silenced == {"host-sync"}

    bridge.remember_dismissed("cell-2", {"b", "a"})
    bridge.remember_dismissed("cell-1", set())
    bridge.remember_silenced(set())
    assert comm.sent == [
        {"type": "set_metadata", "cell_id": "cell-2", "value": {"dismissed": ["a", "b"]}},
        {"type": "set_metadata", "cell_id": "cell-1", "value": {}},
        {"type": "set_metadata", "cell_id": None, "value": {}},
    ]
    assert bridge.dismissed == {"cell-1": set(), "cell-2": {"a", "b"}} and bridge.silenced == set()


def test_a_reloaded_page_answers_again_on_the_same_comm(wired):
    """A page reloaded on the same kernel takes the comm up by id and sends `ready` unasked:
    even after a request timed out (the old page was gone), the bridge is available again and
    its next request goes out on that comm."""
    bridge, comm, clock = wired
    ready(comm)
    got: list[str] = []
    bridge.replace_cell("a", "1", "2", got.append)
    clock.fire(1)
    assert (bridge.state, got) == ("closed", ["no_extension"])
    ready(comm)
    comm.reply({"type": "notebook_state", "silenced": ["host-sync"], "dismissed": {}})
    assert bridge.available and bridge.silenced == {"host-sync"}
    rid = bridge.replace_cell("a", "1", "2", got.append)
    comm.reply({"type": "result", "request_id": rid, "status": "applied"})
    assert got == ["no_extension", "applied"]


def test_a_lost_bridge_reopens_its_comm_and_keeps_what_it_remembers(wired, comms):
    """One bridge per kernel: reopened with a new hello (the old comm closed), so the views that
    hold it follow; a late `ready` or close on the old comm changes nothing."""
    bridge, old, clock = wired
    old.reply({"type": "notebook_state", "silenced": ["host-sync"], "dismissed": {"c": ["k"]}})
    clock.fire(0)  # no answer to the hello
    assert bridge.state == "closed"
    bridge.reopen()
    assert len(comms) == 2 and comms[1].open_data == {"type": "hello", "version": 1}
    assert bridge.state == "connecting" and bridge.silenced == {"host-sync"} and bridge.dismissed == {"c": {"k"}}
    ready(old)
    assert bridge.state == "connecting"
    ready(comms[1])
    bridge.reopen()  # available: nothing to do
    assert bridge.available and len(comms) == 2
    bridge.remember_silenced(set())
    assert comms[1].sent == [{"type": "set_metadata", "cell_id": None, "value": {}}] and old.sent == []
