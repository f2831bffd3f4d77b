"""How the multi-rank merge scales: what one rank ships, and merging 2 / 64 / 1,024 of them.

One real 2-rank gloo job of the demo script (`demo_notebooks/ddp_training.ipynb`) through
torchrun gives two real rank records; larger worlds are those records repeated under new rank
numbers (their times jittered, so the slowest/median choice has work to do): the merge's cost
and the report's size depend on the number and shape of records, not on where they ran.

Then what profiling adds to the job: the same script under a plain `torchrun --standalone`
and under `run_job` (torchrun + each rank profiled + records), interleaved, PAIRS pairs, wall
time of the whole job (start-up included: what the user waits).

    OMP_NUM_THREADS=1 .venv/bin/python -m benchmarks.bench_ddp_merge
"""

from __future__ import annotations

import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from paef_jupyter.distributed.launch import Launch, LaunchResult, run_job
from paef_jupyter.distributed.merge import merge_ranks
from paef_jupyter.model import CellRef, Report
from paef_jupyter.ui.html_report import render_report

ROOT = Path(__file__).resolve().parents[1]
WORLDS = (2, 64, 1024)
PAIRS = 3


def demo_script() -> str:
    """The DDP script the demo notebook writes (the string literal in its first code cell)."""
    import ast

    nb = nbformat.read(ROOT / "demo_notebooks" / "ddp_training.ipynb", as_version=4)
    source = next(c.source for c in nb.cells if c.cell_type == "code" and "write_text(" in c.source)
    call = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)
                and getattr(n.func, "attr", "") == "write_text")
    return ast.literal_eval(call.args[0])


def scaled(result: LaunchResult, world: int, rng: random.Random) -> LaunchResult:
    records, sizes = {}, {}
    base = [result.records[r] for r in sorted(result.records)]
    for rank in range(world):
        record = copy.deepcopy(base[rank % len(base)])
        record["rank"] = record["local_rank"] = rank
        factor = rng.uniform(0.8, 1.2)
        record["split"] = {k: v * factor if isinstance(v, float) else v for k, v in record["split"].items()}
        records[rank] = record
        sizes[rank] = result.record_bytes[rank % len(base)]
    return LaunchResult(0, records, sizes, {})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "ddp_train.py"
        script.write_text(demo_script())
        started = time.perf_counter()
        result = run_job(str(script), [], Launch(2))
        job_s = time.perf_counter() - started
    if len(result.records) != 2:
        raise SystemExit(f"the job did not give two records: {result.output_tail[-2000:]}")
    rank0 = result.records[0]
    print(f"one 2-rank job of the demo script: {job_s:.1f} s wall (torchrun, 2 ranks, profiled)")
    print(f"per rank: window trace {rank0['trace_bytes'] / 1024:.0f} KiB (stays on the rank), "
          f"record sent {result.record_bytes[0] / 1024:.1f} KiB, "
          f"{len(rank0['profile']['lines'])} lines, profiled iterations {rank0['profile']['profiled_iterations']}")
    rng = random.Random(0)
    print("| ranks | records read | merge | merged report JSON | HTML export | flame frames |")
    print("|---|---|---|---|---|---|")
    for world in WORLDS:
        job = scaled(result, world, rng)
        launch = Launch(world)
        t0 = time.perf_counter()
        profile, _ = merge_ranks(job, launch, CellRef(str(script)))
        merge_s = time.perf_counter() - t0
        report = Report(profile=profile)
        size = len(json.dumps(report.to_json()))
        t0 = time.perf_counter()
        html = render_report(report)
        html_s = time.perf_counter() - t0
        frames = sum(1 for _ in profile.cpu_tree.walk()) if profile.cpu_tree else 0
        print(f"| {world} | {sum(job.record_bytes.values()) / 2**20:.2f} MiB | {merge_s * 1e3:.0f} ms | "
              f"{size / 1024:.0f} KiB | {len(html) / 2**20:.2f} MiB in {html_s:.2f} s | {frames} |")
    overhead()


def overhead() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "ddp_train.py"
        script.write_text(demo_script())
        plain_cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2", str(script)]
        env = dict(os.environ, OMP_NUM_THREADS="1")
        times: dict[str, list[float]] = {"plain": [], "profiled": []}
        for i in range(PAIRS):
            for name in (("plain", "profiled") if i % 2 == 0 else ("profiled", "plain")):
                t0 = time.perf_counter()
                if name == "plain":
                    subprocess.run(plain_cmd, env=env, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   check=True)
                else:
                    run_job(str(script), [], Launch(2))
                times[name].append(time.perf_counter() - t0)
    plain, profiled = statistics.median(times["plain"]), statistics.median(times["profiled"])
    ratios = [p / q for p, q in zip(times["profiled"], times["plain"])]
    print(f"job wall time, median of {PAIRS} interleaved pairs: plain torchrun {plain:.1f} s, profiled {profiled:.1f} s "
          f"(x{profiled / plain:.2f}; pairs x{min(ratios):.2f}-x{max(ratios):.2f}); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
