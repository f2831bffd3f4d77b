"""Before/after timing in one process, interleaved, as the project's benchmarks require.

Timings on a loaded 2-core box drift by tens of percent over a minute. Running the two
variants back to back, alternating which goes first, and comparing medians keeps that drift
out of the ratio; checking the outputs first makes sure the faster variant computes the same.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import torch


@dataclass(frozen=True)
class Comparison:
    """Wall times, and the process's CPU times of the same runs (less disturbed by other
    processes on a busy box; meaningless for GPU work, which the wall time includes)."""

    before_s: tuple[float, ...]
    after_s: tuple[float, ...]
    before_cpu_s: tuple[float, ...] = ()
    after_cpu_s: tuple[float, ...] = ()

    @property
    def before_median_s(self) -> float:
        return statistics.median(self.before_s)

    @property
    def after_median_s(self) -> float:
        return statistics.median(self.after_s)

    @property
    def ratio(self) -> float:
        """Speed-up of `after` over `before`: median time before / median time after."""
        return self.before_median_s / self.after_median_s

    @property
    def cpu_ratio(self) -> float | None:
        """The same ratio over CPU time, when it was recorded."""
        if not self.before_cpu_s or not self.after_cpu_s:
            return None
        return statistics.median(self.before_cpu_s) / statistics.median(self.after_cpu_s)

    @property
    def ratio_range(self) -> tuple[float, float]:
        """Lowest and highest ratio of the interleaved pairs: how much the ratio moved."""
        pairs = [b / a for b, a in zip(self.before_s, self.after_s)]
        return (min(pairs), max(pairs))

    def to_json(self) -> dict[str, Any]:
        return {
            "before_s": list(self.before_s),
            "after_s": list(self.after_s),
            "before_median_s": self.before_median_s,
            "after_median_s": self.after_median_s,
            "ratio": self.ratio,
            "ratio_range": list(self.ratio_range),
            "before_cpu_s": list(self.before_cpu_s),
            "after_cpu_s": list(self.after_cpu_s),
            "cpu_ratio": self.cpu_ratio,
        }


def synchronize(device: torch.device | str) -> None:
    """Wait for queued GPU work, so a timer measures it; nothing to wait for on a CPU."""
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


def time_once(fn: Callable[[], Any], device: torch.device | str = "cpu") -> tuple[float, float]:
    """Wall and process CPU seconds of one call."""
    synchronize(device)
    start, start_cpu = time.perf_counter(), time.process_time()
    fn()
    synchronize(device)
    return time.perf_counter() - start, time.process_time() - start_cpu


def interleave(
    variants: Mapping[str, Callable[[], Any]],
    repeats: int = 7,
    warmup: int = 1,
    device: torch.device | str = "cpu",
) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of `repeats` runs of each variant, the order rotated every round."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    names = list(variants)
    for _ in range(warmup):
        for name in names:
            variants[name]()
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for i in range(repeats):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            runs[name].append(time_once(variants[name], device))
    return runs


def comparison(before: list[tuple[float, float]], after: list[tuple[float, float]]) -> Comparison:
    return Comparison(
        tuple(w for w, _ in before), tuple(w for w, _ in after),
        tuple(c for _, c in before), tuple(c for _, c in after),
    )


def compare(
    before: Callable[[], Any],
    after: Callable[[], Any],
    repeats: int = 7,
    warmup: int = 1,
    device: torch.device | str = "cpu",
) -> Comparison:
    """Time `before` and `after` alternately (`repeats` pairs, order swapped every pair)."""
    runs = interleave({"before": before, "after": after}, repeats, warmup, device)
    return comparison(runs["before"], runs["after"])


def assert_same(before: Any, after: Any, rtol: float = 1e-4, atol: float = 1e-5, what: str = "") -> None:
    """Raise unless two results (tensors, or nested tuples/lists/dicts of them) are allclose."""
    label = f"{what}: " if what else ""
    if isinstance(before, torch.Tensor) or isinstance(after, torch.Tensor):
        b = torch.as_tensor(before).detach().cpu()
        a = torch.as_tensor(after).detach().cpu()
        if b.shape != a.shape:
            raise AssertionError(f"{label}shapes differ: {tuple(b.shape)} vs {tuple(a.shape)}")
        if not torch.allclose(b.double(), a.double(), rtol=rtol, atol=atol):
            worst = (b.double() - a.double()).abs().max().item()
            raise AssertionError(f"{label}results differ (max abs difference {worst:.3g})")
        return
    if isinstance(before, dict) and isinstance(after, dict):
        if before.keys() != after.keys():
            raise AssertionError(f"{label}keys differ: {sorted(before)} vs {sorted(after)}")
        for key in before:
            assert_same(before[key], after[key], rtol, atol, f"{what}[{key!r}]")
        return
    if isinstance(before, (list, tuple)) and isinstance(after, (list, tuple)):
        if len(before) != len(after):
            raise AssertionError(f"{label}lengths differ: {len(before)} vs {len(after)}")
        for i, (b, a) in enumerate(zip(before, after)):
            assert_same(b, a, rtol, atol, f"{what}[{i}]")
        return
    if before != after:
        raise AssertionError(f"{label}{before!r} != {after!r}")


def device_arguments(description: str, default_repeats: int, argv: list[str] | None = None):  # type: ignore[no-untyped-def]
    """The shared command line of the before/after scripts: repeats, threads, devices.

    Sets torch's thread count and returns (args, devices).
    """
    import argparse

    import torch

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeats", type=int, default=default_repeats,
                        help=f"interleaved before/after pairs (default {default_repeats})")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--device", choices=("cpu", "cuda"), action="append",
                        help="device to measure (default: cpu, plus cuda when available)")
    args = parser.parse_args(argv)
    devices = args.device or (["cpu", "cuda"] if torch.cuda.is_available() else ["cpu"])
    if "cuda" in devices and not torch.cuda.is_available():
        parser.error("--device cuda: no CUDA GPU is available")
    torch.set_num_threads(args.threads)
    return args, [torch.device(name) for name in devices]
