"""Micro-benchmarks: each antipattern's statement in a loop, before vs after its fix.

    .venv/bin/python -m benchmarks.micro [--repeats N] [--threads N] [--device cpu|cuda]

Runs on the CPU, and on the GPU as well when one is present; one results table per device.
"""

from __future__ import annotations


import torch

from benchmarks.micro_cases import CASES, Case
from benchmarks.tables import Table, command_line, machine, write
from benchmarks.timing import assert_same, compare, device_arguments


def measure(case: Case, device: torch.device, repeats: int) -> dict[str, object]:
    inputs = case.make(False, device)
    assert_same(case.before(inputs), case.after(inputs), what=f"{case.rule} / {case.name}")
    result = compare(lambda: case.before(inputs), lambda: case.after(inputs), repeats=repeats, device=device)
    return {"rule": case.rule, "case": case.name, **result.to_json()}


def table(device: torch.device, measured: list[dict[str, object]]) -> Table:
    gpu = device.type == "cuda"
    rows = []
    for case, m in zip(CASES, measured):
        low, high = m["ratio_range"]  # type: ignore[misc]
        rows.append(
            (
                case.rule,
                case.loop,
                m["before_median_s"] * 1e3,  # type: ignore[operator]
                m["after_median_s"] * 1e3,  # type: ignore[operator]
                f"{m['ratio']:.2f}x",
                f"{low:.2f}–{high:.2f}",
                f"{m['cpu_ratio']:.2f}x" if not gpu and m["cpu_ratio"] else None,
                f"{case.paper_cpu}x / {case.paper_gpu}x" if case.paper_cpu else None,
            )
        )
    info = machine(str(device))
    notes = tuple(
        f"{c.rule}: {c.note}" for c in CASES if c.note
    ) + (
        "ours = median wall time before / median after over interleaved repeats; pair range = lowest "
        "and highest ratio of one before/after pair; ours, CPU time = the same ratio over the process's "
        "CPU time (on a CPU run, less disturbed by other processes on a busy box). Outputs checked "
        "equal (torch.allclose) before timing.",
    )
    label = f"GPU ({info['gpu']})" if gpu else "CPU"
    return Table(
        name=f"micro_{device.type}",
        title=f"Micro-benchmarks, {label}, {info['torch_threads']} torch thread(s)",
        columns=("rule", "timed loop", "before (ms)", "after (ms)", "ours", "pair range", "ours, CPU time",
                 "paper CPU / GPU"),
        rows=tuple(rows),
        notes=notes,
        machine=info,
        command=command_line(),
        data={"measurements": measured},
    )


def main(argv: list[str] | None = None) -> int:
    args, devices = device_arguments(__doc__.splitlines()[0], 9, argv)
    for device in devices:
        measured = [measure(case, device, args.repeats) for case in CASES]
        write(table(device, measured))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
