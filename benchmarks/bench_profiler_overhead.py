"""Profiler overhead on the demo training cells: profiled / plain wall time, and report latency.

For each demo notebook, the set-up cells run once; then its `%%paef` cell runs plain
(`exec` of the body), through `api.profile_cell` (default mode: a window of the detected
loop) and through `profile_cell(full=True)` (everything), interleaved, in this one process. "profiled" is the cell's run as the user waits for
it under the profiler (`Profile.wall_time_s`: hook installed to code finished, profiler
start/stop included); "end -> report" is from the code's end to the finished report (trace
export, parsing, attribution, call trees, correlation: `Profile.postprocess_s`); static
analysis runs before the cell and is measured by `bench_static`. The first profiler in a
process pays a one-off start-up cost, taken in a warm-up run and reported apart.

    .venv/bin/python -m benchmarks.bench_profiler_overhead [--repeats 7] [--only NAME]...
"""

from __future__ import annotations

import argparse
import contextlib
import io
import linecache
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
import torch

from benchmarks.tables import Table, command_line, machine, write
from paef_jupyter import api
from paef_jupyter.model import CellRef

DEMOS = Path(__file__).resolve().parents[1] / "demo_notebooks"
TARGET = 1.3


def demo_cells(name: str) -> tuple[list[str], str]:
    """(set-up code cells, the `%%paef` cell) of a demo notebook."""
    nb = nbformat.read(str(DEMOS / f"{name}.ipynb"), as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    paef = next(i for i, s in enumerate(code) if s.startswith("%%paef"))
    setup = [s for s in code[:paef] if not s.lstrip().startswith("%")]
    return setup, code[paef]


def _has_paef_cell(path: Path) -> bool:
    nb = nbformat.read(str(path), as_version=4)
    return any(c.cell_type == "code" and c.source.startswith("%%paef") for c in nb.cells)


class Case:
    def __init__(self, name: str):
        self.name = name
        setup, self.text = demo_cells(name)
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        for i, source in enumerate(setup):
            exec(compile(source, f"<{name} setup {i}>", "exec"), self.namespace)
        self.body = self.text.split("\n", 1)[1]
        self.filename = f"/tmp/ipykernel_bench/{name}.py"
        linecache.cache[self.filename] = (len(self.body), None, self.body.splitlines(True), self.filename)
        self.code = compile(self.body, self.filename, "exec")
        self.ref = CellRef(f"{name}.ipynb", 4, name)

    def run(self) -> tuple[float, float]:
        """(wall, thread CPU) seconds of the cell's code."""
        wall, cpu = time.perf_counter(), time.thread_time()
        exec(self.code, self.namespace)
        return time.perf_counter() - wall, time.thread_time() - cpu

    def profiled(self, full: bool = False) -> tuple[tuple[float, float], api.CellRun]:
        """The cell through `profile_cell`; the window starts and stops inside its code."""
        timed: list[tuple[float, float]] = []
        run = api.profile_cell(
            self.text,
            self.namespace,
            ref=self.ref,
            execute=lambda: timed.append(self.run()),
            filename_to_ref={self.filename: self.ref},
            full=full,
        )
        if run.error is not None:
            raise run.error
        return timed[0], run


VARIANTS = ("plain", "window", "full")


def measure(case: Case, repeats: int) -> dict[str, Any]:
    plain: list[tuple[float, float]] = []
    profiled: list[tuple[float, float]] = []
    full: list[tuple[float, float]] = []
    report_s: list[float] = []
    profile = None
    for i in range(repeats):
        for which in VARIANTS[i % 3 :] + VARIANTS[: i % 3]:  # each variant goes first in turn
            if which == "plain":
                plain.append(case.run())
            elif which == "full":
                full.append(case.profiled(full=True)[0])
            else:
                timed, run = case.profiled()
                profiled.append(timed)
                profile = run.report.profile
                report_s.append(profile.postprocess_s)

    def ratio(k: int, of: list[tuple[float, float]] = profiled) -> float:
        return statistics.median(p[k] for p in of) / statistics.median(p[k] for p in plain)

    pairs = [p[0] / q[0] for p, q in zip(profiled, plain)]
    return {
        "plain_s": [p[0] for p in plain],
        "profiled_s": [p[0] for p in profiled],
        "plain_cpu_s": [p[1] for p in plain],
        "profiled_cpu_s": [p[1] for p in profiled],
        "report_s": report_s,
        "full_s": [p[0] for p in full],
        "ratio": ratio(0),
        "cpu_ratio": ratio(1),
        "full_ratio": ratio(0, full),
        "pair_range": [min(pairs), max(pairs)],
        "mode": profile.mode,
        "iterations": profile.iterations,
        "profiled_iterations": profile.profiled_iterations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args()
    torch.set_num_threads(1)
    # Every demo with a `%%paef` cell (ddp_training profiles a script on ranks instead).
    names = args.only or sorted(p.stem for p in DEMOS.glob("*.ipynb") if _has_paef_cell(p))
    os.chdir(DEMOS)  # the set-up cells import `measure` from there, as in a kernel
    sys.path.insert(0, str(DEMOS))
    rows = []
    data: dict[str, Any] = {}
    cold = None
    with contextlib.redirect_stdout(io.StringIO()):  # the cells print their results
        for name in names:
            case = Case(name)
            case.run()  # warm-up: lazy imports, first optimizer step
            start = time.perf_counter()
            case.profiled()  # warm-up: static analysis caches; the first one also the profiler
            if cold is None:
                cold = time.perf_counter() - start
            data[name] = result = measure(case, args.repeats)
            rows.append(
                (
                    name,
                    f"{result['mode']} {result['profiled_iterations']}/{result['iterations']}",
                    statistics.median(result["plain_s"]) * 1e3,
                    statistics.median(result["profiled_s"]) * 1e3,
                    f"{result['ratio']:.2f}x",
                    f"{result['pair_range'][0]:.2f}–{result['pair_range'][1]:.2f}",
                    f"{result['cpu_ratio']:.2f}x",
                    statistics.median(result["report_s"]) * 1e3,
                    f"{result['full_ratio']:.2f}x",
                )
            )
    ratios = [d["ratio"] for d in data.values()]
    cpu_ratios = [d["cpu_ratio"] for d in data.values()]
    table = Table(
        name="profiler_overhead",
        title="Profiler overhead on the demo `%%paef` cells (default mode), CPU",
        columns=("demo cell", "window (profiled/all iterations)", "plain (ms)", "profiled (ms)", "wall ratio",
                 "pair range", "CPU-time ratio", "end -> report (ms)", "full-mode ratio"),
        rows=tuple(rows),
        notes=(
            f"Target: at most {TARGET}x. Wall ratio over the cells: median {statistics.median(ratios):.2f}x, "
            f"worst {max(ratios):.2f}x; CPU-time ratio: median {statistics.median(cpu_ratios):.2f}x, "
            f"worst {max(cpu_ratios):.2f}x.",
            "wall ratio = median profiled / median plain wall time of the cell's code, interleaved in "
            "one process (the window's profiler start/stop happen inside it); pair range = lowest and "
            "highest ratio of one plain/profiled pair; CPU-time ratio = the same with this thread's "
            "CPU time, less disturbed by other processes on a loaded box; full-mode ratio = "
            "`profile_cell(full=True)` (every iteration profiled, lines marked), for scale.",
            f"First profile_cell in the process (profiler start-up, jedi, imports): {cold:.2f} s, once.",
        ),
        machine=machine(),
        command=command_line(),
        data=data,
    )
    write(table)


if __name__ == "__main__":
    main()
