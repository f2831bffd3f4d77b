"""Kernel side of the `paef_jupyter.cell_edit` comm (DESIGN.md, protocol v1).

The Apply button's `on_click` runs inside the kernel's handler of a shell message (with
ipykernel 7 and jupyterlab_widgets, on a subshell thread), and the front end's replies arrive
as shell messages too: waiting for a reply there would deadlock.
So every call here returns at once and results are delivered to callbacks when the reply,
or a timeout, comes. The hello handshake starts when the bridge is built (at `%load_ext`, or
while `%%paef` runs), so by the time the user clicks, `available` is known.

Beside v1, two message types (new, so v1 peers ignore them) keep what the user said about
findings in the notebook's metadata, where it survives saving, reopening and restarts:
- front end -> kernel, after `ready`: `{"type": "notebook_state", "silenced": [rule, ...],
  "dismissed": {cell_id: [finding key, ...]}}` (notebook metadata `paef.silenced`, cell metadata
  `paef.dismissed`);
- kernel -> front end: `{"type": "set_metadata", "cell_id": id or null, "value": {...}}` sets the
  cell's (or, for null, the notebook's) metadata `paef` to `value`, or removes it when empty.

A page reloaded on the same kernel never saw the comm's open message, so it would drop every
message on it (Apply timed out, metadata writes were lost). The labextension asks the kernel for
its open comms on this target (`comm_info_request`) when it connects, takes the comm up by id
(as ipywidgets does with its models) and answers the hello again, unasked: `ready` and then
`notebook_state`. A `ready` on the current comm makes the bridge available again, even after a
reply timeout. The bridge is one per kernel: when it lost its front end it reopens its comm
(a new hello) and keeps what it remembers, so every view showing it follows.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Literal, Protocol

COMM_TARGET = "paef_jupyter.cell_edit"
PROTOCOL_VERSION = 1
HELLO = {"type": "hello", "version": PROTOCOL_VERSION}
FRONTEND_STATUSES = frozenset({"applied", "conflict", "not_found"})

Status = Literal["applied", "conflict", "not_found", "no_extension"]
State = Literal["connecting", "ready", "closed"]
ResultCallback = Callable[[Status], None]
Cancel = Callable[[], None]


class CommLike(Protocol):
    """What the bridge needs of a kernel comm (`comm.base_comm.BaseComm` has it)."""

    def send(self, data: dict[str, Any]) -> None: ...
    def on_msg(self, callback: Callable[[dict[str, Any]], None]) -> None: ...
    def on_close(self, callback: Callable[[dict[str, Any]], None]) -> None: ...
    def close(self) -> None: ...


CommFactory = Callable[[str, dict[str, Any]], CommLike]
Scheduler = Callable[[float, Callable[[], None]], Cancel]


def open_kernel_comm(target: str, data: dict[str, Any]) -> CommLike:
    """Opens a comm to the front end from the running kernel, carrying `data` in its open message."""
    import comm

    return comm.create_comm(target_name=target, data=data)


def call_later(delay: float, callback: Callable[[], None]) -> Cancel:
    """Runs `callback` once `delay` seconds after the kernel is next idle; returns a canceller.

    The clock starts only when the event loop gets control back, that is after the running cell
    or handler: a reply that came while a long cell ran is still read before the timeout fires.
    Outside an event loop (plain IPython) a daemon timer thread does it.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        timer = threading.Timer(delay, callback)
        timer.daemon = True
        timer.start()
        return timer.cancel
    handles: list[asyncio.Handle] = []
    handles.append(loop.call_soon(lambda: handles.append(loop.call_later(delay, callback))))
    return lambda: [handle.cancel() for handle in handles]


class CellEditBridge:
    """One comm to the labextension: handshake on creation, then `replace_cell` requests."""

    def __init__(
        self,
        open_comm: CommFactory = open_kernel_comm,
        schedule: Scheduler = call_later,
        hello_timeout: float = 2.0,
        reply_timeout: float = 5.0,
    ) -> None:
        self._lock = threading.Lock()
        self._schedule = schedule
        self._reply_timeout = reply_timeout
        self._state: State = "connecting"
        self._pending: dict[str, tuple[ResultCallback, Cancel]] = {}
        self._timed_out: dict[str, ResultCallback] = {}
        self.silenced: set[str] = set()
        self.dismissed: dict[str, set[str]] = {}
        self._open_comm = open_comm
        self._hello_timeout = hello_timeout
        self._open()

    def _open(self) -> None:
        """A new comm carrying the hello; messages and a close on an older one are told apart."""
        comm = self._open_comm(COMM_TARGET, dict(HELLO))
        self._comm = comm
        comm.on_msg(lambda msg: self._on_msg(msg, comm))
        comm.on_close(lambda msg: self._on_close(msg, comm))
        self._cancel_hello = self._schedule(self._hello_timeout, self._on_hello_timeout)

    def reopen(self) -> None:
        """After the front end was lost (no answer, or the comm closed): a new comm and hello.

        The old comm is closed, so a page asking for this target's comms finds only the new one."""
        if self._state != "closed":
            return
        old = self._comm
        self._state = "connecting"
        self._open()
        try:
            old.close()
        except Exception:  # noqa: BLE001 - the kernel's comm manager may be gone (shutting down)
            pass

    @property
    def state(self) -> State:
        return self._state

    @property
    def available(self) -> bool:
        """True once the front end answered the hello and has not gone away since."""
        return self._state == "ready"

    def replace_cell(
        self, cell_id: str, expected_source: str, new_source: str, on_result: ResultCallback
    ) -> str:
        """Asks the front end to rewrite a cell; returns the request id at once.

        `on_result` gets `applied`, `conflict` or `not_found` from the front end, or
        `no_extension` when the comm is closed or nothing answers within the timeout. A real
        answer that arrives after such a timeout is delivered too, as a second call.
        """
        request_id = uuid.uuid4().hex
        if self._state == "closed":
            on_result("no_extension")
            return request_id
        cancel = self._schedule(self._reply_timeout, lambda: self._on_reply_timeout(request_id))
        with self._lock:
            self._pending[request_id] = (on_result, cancel)
        self._comm.send(
            {
                "type": "replace_cell",
                "request_id": request_id,
                "cell_id": cell_id,
                "expected_source": expected_source,
                "new_source": new_source,
            }
        )
        return request_id

    def _on_msg(self, msg: dict[str, Any], comm: CommLike) -> None:
        data = _comm_data(msg)
        kind = data.get("type")
        version = data.get("version")
        if kind == "ready" and type(version) is int and version == PROTOCOL_VERSION:  # True == 1: not a version
            if comm is self._comm:  # a page answering on a comm this bridge left would hear nothing more
                self._cancel_hello()
                self._state = "ready"
        elif kind == "notebook_state":
            self._on_state(data)
        elif kind == "result":
            request_id, status = data.get("request_id"), data.get("status")
            if isinstance(request_id, str) and isinstance(status, str) and status in FRONTEND_STATUSES:
                self._deliver(request_id, status)  # type: ignore[arg-type]

    def _on_state(self, data: dict[str, Any]) -> None:
        silenced, dismissed = data.get("silenced"), data.get("dismissed")
        if isinstance(silenced, list):
            self.silenced = {r for r in silenced if isinstance(r, str)}
        if isinstance(dismissed, dict):
            self.dismissed = {cell: {k for k in keys if isinstance(k, str)} for cell, keys in dismissed.items()
                              if isinstance(cell, str) and isinstance(keys, list)}

    def remember_dismissed(self, cell_id: str, keys: set[str]) -> None:
        """The findings dismissed in a cell, kept in its metadata."""
        self.dismissed[cell_id] = set(keys)
        self._set_metadata(cell_id, {"dismissed": sorted(keys)} if keys else {})

    def remember_silenced(self, rules: set[str]) -> None:
        """The rules silenced for the notebook, kept in its metadata."""
        self.silenced = set(rules)
        self._set_metadata(None, {"silenced": sorted(rules)} if rules else {})

    def _set_metadata(self, cell_id: str | None, value: dict[str, Any]) -> None:
        if self._state != "closed":
            self._comm.send({"type": "set_metadata", "cell_id": cell_id, "value": value})

    def _deliver(self, request_id: str, status: Status) -> None:
        with self._lock:
            entry = self._pending.pop(request_id, None)
            late = self._timed_out.pop(request_id, None)
            if late is not None:
                self._state = "ready"  # it answers after all
        if entry is not None:
            callback, cancel = entry
            cancel()
        elif late is not None:
            callback = late
        else:
            return
        callback(status)

    def _on_hello_timeout(self) -> None:
        if self._state == "connecting":
            self._fail_all()

    def _on_reply_timeout(self, request_id: str) -> None:
        with self._lock:
            entry = self._pending.pop(request_id, None)
            if entry is not None:
                self._timed_out[request_id] = entry[0]
        if entry is not None:
            # A front end that stops answering (page reloaded, extension gone) counts as gone.
            self._state = "closed"
            entry[0]("no_extension")

    def _on_close(self, _msg: dict[str, Any], comm: CommLike) -> None:
        if comm is self._comm:
            self._cancel_hello()
            self._fail_all()

    def _fail_all(self) -> None:
        with self._lock:
            self._state = "closed"
            pending, self._pending = self._pending, {}
        for callback, cancel in pending.values():
            cancel()
            callback("no_extension")


def _comm_data(msg: Any) -> dict[str, Any]:
    """A comm message's `content.data`, or {} when any level is not an object (hostile or broken peer):
    the same checks as the TypeScript side, so nothing the front end sends can raise here."""
    content = msg.get("content") if isinstance(msg, dict) else None
    data = content.get("data") if isinstance(content, dict) else None
    return data if isinstance(data, dict) else {}


_shared: CellEditBridge | None = None


def shared_bridge() -> CellEditBridge:
    """The kernel's bridge; it reopens (a fresh handshake) when it lost its front end."""
    global _shared
    if _shared is None:
        _shared = CellEditBridge()
    else:
        _shared.reopen()
    return _shared


STATUS_TEXT: dict[Status, str] = {
    "applied": "Applied to the cell; Undo, or Ctrl+Z in the cell, reverts it.",
    "conflict": "The cell changed since it was analysed, so nothing was written: re-run it.",
    "not_found": "The cell is no longer open in a notebook on this kernel.",
    "no_extension": "The paef-jupyter front-end extension did not answer, so the cell cannot "
    "be edited from the kernel.",
}


@dataclass(frozen=True)
class Fallback:
    """The manual route DESIGN.md prescribes when there is no extension to write the cell."""

    reason: str
    rerun: str
    code: str


def fallback(new_source: str) -> Fallback:
    """Apply by re-running the cell (its run can call `set_next_input(code, replace=True)`) or copy."""
    return Fallback(
        reason=STATUS_TEXT["no_extension"],
        rerun="Re-run the cell to put the fixed code in its place, or copy the code below.",
        code=new_source,
    )
