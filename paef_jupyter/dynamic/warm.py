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

import contextlib
import gc
import importlib.util
import sys
import threading
from typing import Callable, Iterator

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


class TorchWarmUp:
    """torch's first-use costs, paid once torch is in the kernel: at `%load_ext` when it is
    there already (`now`), else right after the cell that imported it (`after_cell`, a
    `post_run_cell` hook). Its imports never run beside user code: the next cell waits for them
    (`before_cell`, a `pre_run_cell` hook; a second at most, and only when sent at once)."""

    def __init__(self) -> None:
        self._imported = threading.Event()
        self._thread: threading.Thread | None = None

    def now(self) -> bool:
        if import_lazy_torch():
            self._imported.set()
        return self._imported.is_set()

    def after_cell(self, *_: object) -> None:
        if self._thread is not None or self._imported.is_set() or sys.modules.get("torch") is None:
            return
        self._thread = threading.Thread(target=self._run, name="paef-warm-torch", daemon=True)
        self._thread.start()

    def before_cell(self, *_: object) -> None:
        if self._thread is not None:
            self._imported.wait()

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        try:
            ready = import_lazy_torch()
        finally:
            self._imported.set()
        if ready:  # beside the next cell: these import nothing more
            warm_profiler()
            warm_optimizer()


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
