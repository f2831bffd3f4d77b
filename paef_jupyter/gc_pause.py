"""No garbage collection while paef's own work runs; the collector runs when due after it."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def young_garbage_only() -> Iterator[None]:
    """No garbage collection in the block; after it, the collector runs when it is due.

    paef's work builds many short-lived objects: the analysis hundreds of thousands (CSTs,
    facts with cycles), the profile a few per trace event (event, its args, its node), the
    report's view its widgets. Collected as they go, the live ones are promoted, and the older
    generations' collections then come due and visit them again: in a kernel, a warm profiled
    cell paid about three collections of the youngest generation and, every few cells, one of
    the middle one of 3-12 ms (and every few analyses a full collection visits the whole
    process: torch, jedi's caches, the user's kernel; 0.5 s on a 100-line cell that otherwise
    takes 0.2 s). After the block the allocations it counted make one collection of the
    youngest generation due at once (most of its objects are garbage by then), or none where
    the block allocated little: it never adds one. Nested blocks give the collector back at
    the outermost; where collection was disabled before (by the user), it stays so."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
