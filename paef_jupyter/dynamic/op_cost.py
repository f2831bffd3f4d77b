"""What the profiler's recording adds to each torch op, measured in the profiled process.

torch's profiler records every op (its start, end, name, thread): a fixed cost per op event,
0.4-0.5 us here (truth20), paid inside the ops' ranges. A loop of many small ops (a model's
forward, backward and an optimizer's step: hundreds of op events per batch) is slower profiled
by that much, while a line of Python work (`torch.tensor(list_of_rows)`: one op) is not: the
shares of an iteration the report states are of the profiled iteration. The cost is measured
as the same tiny op timed just before and just after the profiler starts (the settling
iteration, which no share holds, pays the 0.1-0.3 ms), and said on the report where it is a
sizable part of the typical iteration (`note`). A lower bound: `torch.add` of one element is the
cheapest op to record (an op recorded for autograd, a backward node, torch's own `record_function`
ranges around an optimizer's step cost more), and the line tracer's hook on torch's Python calls
is not in it (truth20: of the ~0.45 ms a tabular notebook's batch gains profiled, ~0.1 ms).
"""

from __future__ import annotations

import time
from typing import Any

_OPS = 16  # ops per timed block; the least of `_BLOCKS` blocks (a preemption spoils one)
_BLOCKS = 3
# Said on the report from this share of the typical iteration.
NOTE_SHARE = 0.10
PROFILER_COST_NOTE = (
    "the profiler records each torch op: {events:.0f} op events per profiled iteration at {us:.2g} us or more each "
    "(the cheapest op, timed in this process) are at least {ms:.3g} ms of the {iteration_ms:.3g} ms typical iteration "
    "({share:.0%}), time the program does not spend unprofiled; shares of torch work here are too high by that much "
    "or more and shares of work outside torch too low (a line outside torch at 30% here is at least {corrected:.0%} "
    "unprofiled)"
)


def per_op_s(torch: Any) -> float | None:
    """Seconds per `torch.add` of a 1-element tensor (the least of a few blocks), or None."""
    try:
        x = torch.zeros(1)
        add = torch.add
        best = None
        for _ in range(_BLOCKS):
            t = time.perf_counter()
            for _ in range(_OPS):
                add(x, x)
            per = (time.perf_counter() - t) / _OPS
            best = per if best is None else min(best, per)
        return best
    except Exception:  # noqa: BLE001 - a measurement never touches the cell
        return None


def note(events_per_iteration: float, cost_s: float | None, iteration_s: float) -> str | None:
    """The report's note where the recording is at least `NOTE_SHARE` of the typical iteration."""
    if not cost_s or iteration_s <= 0 or events_per_iteration <= 0:
        return None
    spent = min(events_per_iteration * cost_s, iteration_s)
    share = spent / iteration_s
    if share < NOTE_SHARE or share >= 1:
        return None
    return PROFILER_COST_NOTE.format(events=events_per_iteration, us=cost_s * 1e6, ms=spent * 1e3,
                                     iteration_ms=iteration_s * 1e3, share=share,
                                     corrected=min(1.0, 0.3 / (1 - share)))
