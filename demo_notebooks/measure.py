"""Before/after timing for the demo notebooks, the way `benchmarks/` measures, in small.

Both variants run alternately (which goes first swaps every pair) and the medians are
compared; their outputs are checked equal first, so the speed-up is of the same result.
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

import torch


def same(before: Any, after: Any, rtol: float = 1e-4, atol: float = 1e-5) -> bool:
    if isinstance(before, torch.Tensor) or isinstance(after, torch.Tensor):
        b, a = torch.as_tensor(before).detach().cpu(), torch.as_tensor(after).detach().cpu()
        return b.shape == a.shape and torch.allclose(b.double(), a.double(), rtol=rtol, atol=atol)
    if isinstance(before, (list, tuple)) and isinstance(after, (list, tuple)):
        return len(before) == len(after) and all(same(b, a, rtol, atol) for b, a in zip(before, after))
    if isinstance(before, float) or isinstance(after, float):
        return abs(before - after) <= atol + rtol * abs(after)
    return before == after


def _timed(fn: Callable[[], Any]) -> float:
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return time.perf_counter() - start


def compare(before: Callable[[], Any], after: Callable[[], Any], repeats: int = 5,
            rtol: float = 1e-4, atol: float = 1e-5) -> float:
    """Print and return the speed-up of `after` over `before` (ratio of median times)."""
    if not same(before(), after(), rtol, atol):
        raise AssertionError("before and after compute different results: the fix changed the meaning")
    times: dict[str, list[float]] = {"before": [], "after": []}
    for i in range(repeats):
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        for name in order:
            times[name].append(_timed(before if name == "before" else after))
    b, a = statistics.median(times["before"]), statistics.median(times["after"])
    print(f"before {b * 1e3:.1f} ms | after {a * 1e3:.1f} ms | speed-up {b / a:.2f}x "
          f"(median of {repeats} interleaved runs, {torch.get_num_threads()} torch thread(s), outputs equal)")
    return b / a


def compare_jobs(before: Any, after: Any) -> float:
    """Print and return the speed-up of a multi-rank job's training loop (its slowest rank's,
    estimated unprofiled) from two `%paef profile --nproc-per-node N` reports: one run each, so
    noisy. The training itself changed (a sampler splits the data), so results are not compared."""
    loops = {}
    for name, report in (("before", before), ("after", after)):
        ranks = report.profile.distributed.ranks
        loops[name] = max(r.loop_time_s for r in ranks)
        shown = ", ".join(f"rank {r.rank} loop {r.loop_time_s:.2f} s ({r.busy_per_iteration_s * 1e3:.1f} ms busy + "
                          f"{r.exposed_communication_s / max(r.iterations, 1) * 1e3:.1f} ms waiting per profiled "
                          f"iteration)" for r in ranks)
        print(f"{name}: {shown}")
    b, a = loops["before"], loops["after"]
    print(f"before {b:.2f} s | after {a:.2f} s | speed-up {b / a:.2f}x (the slowest rank's training loop; "
          f"one profiled run each: noisy)")
    return b / a
