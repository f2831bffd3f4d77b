"""Pay paef's first-use costs off the critical path: after `%load_ext`, in a thread, between cells.

jedi's cold start (about a second of CPU), the analysis' and the view's first imports, and the
cyclic garbage they leave take seconds on a busy 2-core box. Run beside a cell they would slow
it down (the GIL, and a full garbage collection holds it throughout), so each step starts only
while no cell runs (`CellGate`, fed by IPython's pre/post_run_cell events), after a short pause:
a cell sent right after `%load_ext` runs alone. None of it changes what a cell sees: no name
lands in the user's namespace, and nothing of torch's is imported or started.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Callable

# A cell sent at once arrives within milliseconds of the previous reply: the warm-up waits this
# long after a cell before it starts a step.
PAUSE_S = 0.25


class CellGate:
    """Open while no cell runs; `hurry` opens it for good (a scan needs jedi now; unloading)."""

    def __init__(self, *, cell_running: bool) -> None:
        self._idle = threading.Event()
        self._hurry = False
        self.stepping = False  # a step is under way (a cell that starts now shares the CPU with it)
        if not cell_running:
            self._idle.set()

    def cell_starts(self, *_: object) -> None:
        if not self._hurry:
            self._idle.clear()

    def cell_ends(self, *_: object) -> None:
        self._idle.set()

    def hurry(self) -> None:
        self._hurry = True
        self._idle.set()

    def wait(self) -> None:
        """Until no cell has run for `PAUSE_S` (at once when hurried)."""
        while not self._hurry:
            self._idle.wait()
            time.sleep(PAUSE_S)
            if self._idle.is_set():
                return


def defer_full_collections() -> bool:
    """At `%load_ext`: the objects alive now (torch's, the kernel's, paef's own imports) are
    set aside from the collector (`gc.freeze`) until `collect_all` runs between cells.

    A full collection visits every object: with torch loaded, about 0.3-0.5 s with the GIL held.
    `%load_ext`'s imports make one due, and it fell inside the first cell. Set aside, nothing
    is lost: garbage among these objects is freed by `collect_all`, only later. Not done where
    something else froze objects already (theirs stay as they are)."""
    if gc.get_freeze_count():
        return False
    gc.freeze()
    return True


def collect_all() -> None:
    """A full collection of everything, the objects `defer_full_collections` set aside too."""
    gc.unfreeze()
    gc.collect()


def warm_in_background(gate: CellGate, *steps: Callable[[], None], collect: Callable[[], None] = gc.collect
                       ) -> threading.Thread:
    """One daemon thread: `steps`, then `collect` (a full garbage collection), each once the
    gate is open. Cold starts leave cyclic garbage (about 0.4 s to collect with torch loaded):
    freed here, not during the user's code, where a `__del__` run by the collector could also
    swallow a Ctrl-C (signals reach the main thread only)."""

    def run() -> None:
        for step in (*steps, collect):
            gate.wait()
            gate.stepping = True
            try:
                step()
            except Exception:  # noqa: BLE001 - warming is an optimisation only
                pass
            finally:
                gate.stepping = False

    thread = threading.Thread(target=run, name="paef-warm", daemon=True)
    thread.start()
    return thread
