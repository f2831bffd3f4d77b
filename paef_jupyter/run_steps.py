"""A run split at the moment the user's code runs, so one pipeline serves sync and async code.

The steps before and after the code (profiler set-up and tear-down, analysis, the report) are
a generator that yields once, asking for the code to run, and is sent back a `Ran`. A plain
driver calls the code; an async driver awaits it on the caller's event loop (a notebook cell
with top-level `await` runs there, as it would without the magic). A generator that returns
before it yields did not need the code run (it failed or was interrupted while setting up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Generator, TypeVar

from .gc_pause import young_garbage_only

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Ran:
    """What the code did: its value, or what it raised (KeyboardInterrupt too)."""

    value: Any = None
    error: BaseException | None = None


Steps = Generator[R, Ran, T]  # yields what to run (once), is sent what it did, returns the result


def run_now(steps: Steps[R, T], execute: Callable[[R], Any]) -> T:
    """Drive `steps`, running what it asks for with `execute(request)`."""
    __tracebackhide__ = True  # noqa: F841 - IPython hides this frame in tracebacks
    try:
        request = next(steps)
    except StopIteration as done:
        return done.value
    try:
        ran = Ran(execute(request))
    except BaseException as exc:  # noqa: BLE001 - handed to the steps, which decide
        ran = Ran(error=exc)
    # After the code: paef's own work (the trace read, the profile, the analysis, the report),
    # which runs no user code; the user's code ran with the collector as the user left it.
    with young_garbage_only():
        return finish(steps, ran)


async def run_awaiting(steps: Steps[R, T], execute: Callable[[R], Awaitable[Any]]) -> T:
    """`run_now` for code that is awaited: the steps around it run synchronously, the code on
    the running event loop."""
    __tracebackhide__ = True  # noqa: F841
    try:
        request = next(steps)
    except StopIteration as done:
        return done.value
    try:
        ran = Ran(await execute(request))
    except BaseException as exc:  # noqa: BLE001 - CancelledError too: handed to the steps
        ran = Ran(error=exc)
    with young_garbage_only():
        return finish(steps, ran)


def relay(steps: Steps[Any, T], request: R) -> Steps[R, T]:
    """`steps`, asking its driver for `request` where `steps` asks to run the code."""
    try:
        next(steps)
    except StopIteration as done:
        return done.value
    ran = yield request
    return finish(steps, ran)


def finish(steps: Steps[Any, T], ran: Ran) -> T:
    try:
        steps.send(ran)
    except StopIteration as done:
        return done.value
    steps.close()
    raise RuntimeError("these steps asked to run the code twice")
