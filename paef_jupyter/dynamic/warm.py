"""Pay the profiler's first-use costs off the critical path (at `%load_ext`, in a thread).

The first torch.profiler session in a process, the first profiler range and the first
optimizer construction and step each cost up to a second of lazy imports and set-up. None of
it changes what a cell sees: no name lands in the user's namespace, and torch's global state
is left as found.

torch's lazily imported parts (torch._inductor, torch._dynamo) import each other: imported from
this thread while a cell imports them too (its first optimizer step, its profiler's start), the
two imports meet halfway and one fails (an ImportError in the user's code, or a cell left
unprofiled). They are imported in the kernel's own thread instead (`import_lazy_torch`), and
the thread's torch steps run only when that was done.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.util
import sys
import threading
from typing import Any, Callable, Iterator

_done = threading.Event()
_lock = threading.Lock()


# What the profiler's and an optimizer's first use import lazily; `hasattr` on torch imports one.
LAZY_TORCH_PARTS = ("_inductor", "_dynamo")


def import_lazy_torch() -> bool:
    """In the kernel's thread, at `%load_ext`: True when torch's lazy parts are imported (a
    second, once). A kernel that has not imported torch gets none of it: its first cell may
    import torch at any moment, and the warm-up's torch steps are then left out."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    try:
        import torch.profiler  # noqa: F401

        for part in LAZY_TORCH_PARTS:
            hasattr(torch, part)  # torch.__getattr__ imports it
    except Exception:  # noqa: BLE001 - warming is an optimisation only
        return False
    with contextlib.suppress(Exception):  # a profiler session's last lazy import (a leaf)
        importlib.import_module("torch.profiler._cupti_monitor")
    return all(f"torch.{part}" in sys.modules for part in LAZY_TORCH_PARTS)


class LazyTorchLater:
    """torch's lazy parts for a kernel that imports torch only after `%load_ext`: imported in
    the kernel's thread once a cell has imported torch, as soon as the kernel is idle (while the
    user writes the next cell), and at the latest before a profiled cell's code (`now`).
    Otherwise the first profiler start imports them inside the user's loop: 1.7 s on a quiet
    box, 2-4 s beside the warm-up, counted in the cell's own time. `events` is IPython's
    `shell.events` (post_run_cell)."""

    def __init__(self, events: Any) -> None:
        self._events = events
        self._due = False
        events.register("post_run_cell", self._after_cell)

    def _after_cell(self, _result: Any = None) -> None:
        if "torch" not in sys.modules:
            return
        self.close()
        self._due = True
        with contextlib.suppress(RuntimeError):  # no event loop (terminal IPython): `now` does it
            asyncio.get_running_loop().call_soon(self.now)  # after the cell's reply

    def now(self) -> None:
        """The import, when a cell imported torch and it is not done yet (a second, once)."""
        if self._due:
            self._due = False
            import_lazy_torch()

    def close(self) -> None:
        with contextlib.suppress(ValueError):  # not registered (any more)
            self._events.unregister("post_run_cell", self._after_cell)


def warm_profiler() -> None:
    """Import torch and its profiler, run one tiny profiled op; never raises. Only the session
    itself holds the profiler's turn (a cell starting its own profiler waits for that much)."""
    try:
        import torch
        from torch.profiler import ProfilerActivity, profile

        from .collector import _line_range, _quiet_fd2
    except Exception:  # noqa: BLE001 - warming is an optimisation only
        _done.set()
        return
    with _lock:
        if _done.is_set():
            return
        try:
            if not torch.autograd.profiler._is_profiler_enabled:  # never end a user's session
                prof = profile(activities=[ProfilerActivity.CPU])
                with _quiet_fd2():
                    prof.start()
                try:
                    with _line_range(torch)("paef|warm|0"):
                        (torch.zeros(2, requires_grad=True) * 2).sum().backward()
                finally:
                    with _quiet_fd2():
                        prof.stop()
        except Exception:  # noqa: BLE001 - warming is an optimisation only
            pass
        _done.set()


def warm_optimizer() -> None:
    """The first optimizer construction and step in a process import much of torch lazily
    (about a second): paid here, unprofiled, on a parameter of its own; never raises."""
    try:
        import torch

        param = torch.zeros(2, requires_grad=True)
        opt = torch.optim.Adam([param], lr=0.1)
        (param * 2).sum().backward()
        opt.step()
    except Exception:  # noqa: BLE001 - warming is an optimisation only
        pass


def before_cell() -> None:
    """A cell is about to run: a profiler warm-up not yet begun is skipped (the cell's own
    profiler pays those costs, in the iteration it leaves unrecorded). Never waits."""
    _done.set()


@contextlib.contextmanager
def profiler_turn() -> Iterator[None]:
    """Held while a cell's profiler starts: the profiler is global, so a warm-up session in
    progress ends first, and none begins meanwhile (it would see the cell's and step aside)."""
    with _lock:
        yield


def warm_in_background(first: Callable[[], None], *then: Callable[[], None],
                       torch_ready: bool = True) -> threading.Thread:
    """One daemon thread: the profiler's warm-up (the short one; a cell that starts meanwhile
    waits for it only where its own profiler starts), `first` (jedi's), `then` (the
    analysis', the view's), the optimizer's (no cell waits for it), and a full garbage
    collection; the torch steps only when `torch_ready` (`import_lazy_torch` returned True).
    Cold starts leave cyclic garbage (about 0.4 s to collect with torch loaded): freed here, not during the user's code, where
    a `__del__` run by the collector could also swallow a Ctrl-C (signals reach the main
    thread only). A first cell sent at once runs beside this thread (its report says so)."""

    def run() -> None:
        if torch_ready:
            steps = (warm_profiler, first, *then, warm_optimizer, gc.collect)
        else:
            _done.set()  # the cell's own profiler pays its start-up
            steps = (first, *then, gc.collect)
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - see warm_profiler
                pass

    thread = threading.Thread(target=run, name="paef-warm", daemon=True)
    thread.start()
    return thread
