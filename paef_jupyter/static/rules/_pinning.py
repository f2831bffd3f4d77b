"""When pinning a DataLoader's batches buys something (label49's rule for unpinned loaders).

`pin_memory=True` makes the loader copy each batch into page-locked memory, so that the copy to
the GPU is one DMA that can run while the host goes on. Who makes that host copy decides whether
it pays: with worker processes (`num_workers > 0`) the loader's own pin-memory thread pins each
batch off the training thread, ahead of time; with `num_workers=0` (the default) the loader pins
inline, on the training thread (`_SingleProcessDataLoaderIter._next_data`), which is the same
host copy the driver's pinned staging buffer makes for a pageable copy - the step waits for it
either way. So an unpinned loader is worth a finding when it has (or may have) worker processes,
or when the loop already asks for an asynchronous copy (`non_blocking=True`), which from pageable
memory is staged synchronously and so silently does not overlap. A single-process loader whose
batches are copied with a blocking `.to(device)` is left alone: the finding would cost a reader's
time and the fix buys no overlap.
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from ..facts import Facts
from ._support import keyword_value, may_carry

_WORKERS_POSITION = 5  # DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, ...)


def may_have_workers(facts: Facts, loader: cst.Call) -> bool:
    """`num_workers` given, by keyword, position or a `**` dict, and not the literal 0."""
    given, value = keyword_value(facts, loader, "num_workers")
    if not given:
        positional = [a for a in loader.args if a.keyword is None and a.star != "**"]
        if any(a.star == "*" for a in positional):
            return True
        if len(positional) <= _WORKERS_POSITION:
            return False
        given, value = True, positional[_WORKERS_POSITION].value
    return not (isinstance(value, cst.Integer) and value.evaluated_value == 0)


def asks_for_overlap(copies: Sequence[tuple[Facts, cst.Call]]) -> bool:
    """A copy of the batches (with the facts of the unit holding it) that carries, or may carry,
    `non_blocking=`: the program asks for an asynchronous copy, which pageable memory cannot give."""
    return any(may_carry(owner, move, "non_blocking") for owner, move in copies)


def pinning_pays(facts: Facts, loader: cst.Call, copies: Sequence[tuple[Facts, cst.Call]]) -> bool:
    """The rule above: worker processes, or an asynchronous copy already asked for."""
    return may_have_workers(facts, loader) or asks_for_overlap(copies)


def live_pinning_pays(loader: object) -> bool:
    """The same for a live `DataLoader` object (its settings read from the kernel's namespace)."""
    return bool(getattr(loader, "num_workers", 0))
