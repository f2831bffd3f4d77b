"""Programs that order work across CUDA streams by blocking on the host.

A program that issues work on a second stream (a prefetcher copying batches under
`torch.cuda.stream(side)`, a CUDA graph captured on its own stream) may order that stream against
the default one by nothing but the host: a blocking copy (`x.to(device)` waits for its stream) and
a per-step read-back (`loss.item()` waits for the default stream before the loop frees the tensors
the side stream's next copy reuses). Red team 36 (`rt36_pt_side_stream_prefetch`): pageable-transfer
made the side stream's copies `non_blocking=True` (the default stream read batches still in flight)
and host-sync replaced the `.item()` that kept the next copy from overwriting memory the previous
step's backward still read. Both are races a GPU shows and a CPU run never does.

Every rewrite that drops a host wait or a blocking copy (an asynchronous copy, a device
accumulation, a tensor built on the device or once before the loop instead of copied each step) is
proved for one stream only. The proof is a closed world: no unit the rewrite's program reaches
(this unit, its earlier and later cells, the local modules and classes they reach) creates, enters
or switches a stream or captures a CUDA graph.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ..names import dotted_name

# Calls that make, enter or switch to another stream (a CUDA graph captures on its own stream).
_STREAM_CALLS = frozenset({
    "torch.cuda.Stream", "torch.cuda.streams.Stream", "torch.cuda.ExternalStream",
    "torch.cuda.streams.ExternalStream", "torch.cuda.stream", "torch.cuda.StreamContext",
    "torch.cuda.set_stream", "torch.Stream", "torch.StreamContext", "torch.accelerator.set_stream",
    "torch.xpu.Stream", "torch.xpu.stream", "torch.xpu.set_stream",
    "torch.cuda.graph", "torch.cuda.graphs.graph", "torch.cuda.CUDAGraph", "torch.cuda.graphs.CUDAGraph",
    "torch.cuda.make_graphed_callables", "torch.cuda.graphs.make_graphed_callables",
})
# The same calls spelled through a name the unit does not resolve (a module handed in, `getattr`).
_STREAM_SUFFIXES = (".cuda.Stream", ".cuda.stream", ".cuda.set_stream", ".cuda.ExternalStream",
                    ".cuda.graph", ".cuda.CUDAGraph", ".cuda.make_graphed_callables")

# Rules whose automatic rewrite drops a host wait or a blocking copy.
SYNC_DROPPING_RULES = frozenset({
    "host-sync", "pageable-transfer", "ping-pong", "list-to-tensor", "cpu-then-move",
    "redundant-tensor", "record-buffer", "dict-as-list",
})


def stream_call(units: list[Facts]) -> str | None:
    """The first reference in `units` to a call that makes, enters or switches a stream (as written:
    called, or taken as a value, `make = torch.cuda.Stream`); None if none."""
    for unit in units:
        for node in unit.walk(unit.module):
            if not isinstance(node, (cst.Attribute, cst.Name)):
                continue
            qualified = unit.qualified_name(node) or ""
            dotted = dotted_name(node) or ""
            if qualified in _STREAM_CALLS or dotted.endswith(_STREAM_SUFFIXES) or qualified.endswith(_STREAM_SUFFIXES):
                return dotted or qualified
    return None


def stream_review(units: list[Facts]) -> str:
    """The review line when the program uses another stream ("" when it uses none)."""
    name = stream_call(units)
    if name is None:
        return ""
    return (f"the program uses another CUDA stream (`{name}(...)`): blocking copies and host reads may be what "
            "orders its streams (a copy waited for before the default stream reads it, a step finished before "
            "its memory is reused on the other stream); the rewrite drops such a wait, a race a GPU shows")
