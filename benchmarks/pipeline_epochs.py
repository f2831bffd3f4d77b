"""Whole-pipeline benchmark: training time of each demo pipeline before vs after its fixes.

    .venv/bin/python -m benchmarks.pipeline_epochs [--repeats N] [--threads N] [--device cpu|cuda] [--pipeline dqn]...

`--pipeline NAME` re-measures only that pipeline (niser, dqn); the other pipelines' rows are
carried over from the table already written for that device, and say so.

Two "after"s per pipeline: the hand-fixed one (`after` in benchmarks/pipelines/<name>.py) and
what `paef fix` makes of the hurried `before` (its module rewritten, then imported).
Every pair's outputs (losses, metrics, final weights) are checked equal before timing.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import torch

from benchmarks.pipelines import dqn, niser
from benchmarks.tables import RESULTS_DIR, Table, command_line, machine, write
from benchmarks.timing import assert_same, comparison, device_arguments, interleave

ROOT = Path(__file__).resolve().parents[1]
RTOL, ATOL = 1e-3, 1e-4  # a whole training run: fused ops round differently, steps compound it


@dataclass(frozen=True)
class Pipeline:
    name: str
    module: ModuleType
    paper_cpu: str
    paper_gpu: str


PIPELINES = (
    Pipeline("NISER-like session recommender", niser, "1.09x", "1.64x"),
    Pipeline("BCD4Rec-like DQN recommender", dqn, "up to 6.5x", "up to 7.6x"),
)


def paef_fixed(module: ModuleType, workdir: Path) -> tuple[ModuleType | None, str]:
    """Run `paef fix` on the pipeline's source (a file: no live namespace, so only what the
    static analysis can type on its own); the rewritten module, or why there is none."""
    source = Path(module.__file__ or "")
    out = workdir / f"paef_fixed_{source.stem}.py"
    if importlib.util.find_spec("paef_jupyter.cli") is None:
        return None, "paef_jupyter.cli not importable"
    proc = subprocess.run(
        [sys.executable, "-m", "paef_jupyter.cli", "fix", str(source), "-o", str(out)],
        capture_output=True, text=True, cwd=ROOT,
    )
    if proc.returncode not in (0, 1) or not out.exists():
        return None, f"paef fix failed (exit {proc.returncode}): {proc.stderr.strip()[-300:]}"
    changed = sum(
        1 for line in difflib.unified_diff(source.read_text().splitlines(), out.read_text().splitlines(), n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    )
    spec = importlib.util.spec_from_file_location(out.stem, out)
    assert spec and spec.loader
    fixed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixed)
    return fixed, f"paef fix changed {changed} line(s) of `before`'s module ({proc.stdout.strip() or proc.stderr.strip()})"


def check(before: Callable[[Any], Any], after: Callable[[Any], Any], data: Any) -> str | None:
    """Why `after` does not compute what `before` does, or None when it does."""
    try:
        assert_same(before(data), after(data), rtol=RTOL, atol=ATOL)
    except AssertionError as exc:
        return str(exc)
    return None


def measure(module: ModuleType, fixed: ModuleType | None, data: Any, device: torch.device,
            repeats: int) -> dict[str, dict[str, Any]]:
    """Before, hand-fixed and (when there is one) paef-fixed, timed in the same interleaved
    rounds, so both fixes are compared with the same runs of `before`."""
    afters = {"hand": module.after} | ({"paef": fixed.before} if fixed else {})
    out: dict[str, dict[str, Any]] = {}
    timed = {"before": lambda: module.before(data)}
    for name, fn in afters.items():
        why = check(module.before, fn, data)
        out[name] = {"equal": why is None, "why": why}
        if why is None:
            timed[name] = lambda fn=fn: fn(data)
    runs = interleave(timed, repeats=repeats, device=device)
    for name in afters:
        if name in runs:
            out[name] |= comparison(runs["before"], runs[name]).to_json()
    return out


def _without_paths(text: str) -> str:
    return re.sub(r"/\S*/", "", text)


def row(pipeline: Pipeline, variant: str, m: dict[str, Any], gpu: bool) -> tuple[Any, ...]:
    paper = f"{pipeline.paper_cpu} / {pipeline.paper_gpu}"
    if not m.get("equal"):
        return (pipeline.name, variant, None, None, f"not timed: {m.get('why')}", None, None, paper)
    low, high = m["ratio_range"]
    cpu = f"{m['cpu_ratio']:.2f}x" if m["cpu_ratio"] and not gpu else None
    return (pipeline.name, variant, m["before_median_s"], m["after_median_s"], f"{m['ratio']:.2f}x",
            f"{low:.2f}–{high:.2f}", cpu, paper)


def short_name(pipeline: Pipeline) -> str:
    return pipeline.module.__name__.rsplit(".", 1)[-1]


def _previous(device: torch.device) -> dict[str, Any]:
    path = RESULTS_DIR / f"pipelines_{device.type}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def run(device: torch.device, repeats: int, only: list[str] | None = None) -> Table:
    gpu = device.type == "cuda"
    rows, notes, data_out = [], [], {}
    previous = _previous(device) if only else {}
    with tempfile.TemporaryDirectory() as tmp:
        for p in PIPELINES:
            if only and short_name(p) not in only:
                kept = [tuple(r) for r in previous.get("rows", []) if r[0] == p.name]
                if kept:
                    carried = f"{p.name}: rows carried over from the previous run (not re-measured with the others)."
                    rows.extend(kept)
                    notes.extend(n for n in previous.get("notes", []) if n.startswith(f"{p.name}:") and n != carried)
                    notes.append(carried)
                    data_out[p.module.__name__] = previous.get("data", {}).get(p.module.__name__)
                continue
            data = p.module.make_data(False, device)
            fixed, why = paef_fixed(p.module, Path(tmp))
            measured = measure(p.module, fixed, data, device, repeats)
            rows.append(row(p, "hand-fixed", measured["hand"], gpu))
            if "paef" in measured:
                rows.append(row(p, "paef fix", measured["paef"], gpu))
                notes.append(f"{p.name}: {_without_paths(why)}.")
            else:
                notes.append(f"{p.name}: `paef fix` variant not measured: {why}.")
            data_out[p.module.__name__] = measured
    info = machine(str(device))
    notes.append(
        "Time = one training run (NISER: one epoch; DQN: 40 environment steps of 256 users), median of "
        "interleaved rounds (before, hand-fixed and paef-fixed in the same rounds; CPU-time ratio beside it); outputs (losses, metrics, final weights) checked equal within "
        f"rtol={RTOL}, atol={ATOL} before timing."
    )
    label = f"GPU ({info['gpu']})" if gpu else "CPU"
    return Table(
        name=f"pipelines_{device.type}",
        title=f"Demo pipelines, {label}, {info['torch_threads']} torch thread(s)",
        columns=("pipeline", "after =", "before (s)", "after (s)", "ours", "pair range", "ours, CPU time",
                 "paper CPU / GPU"),
        rows=tuple(rows),
        notes=tuple(notes),
        machine=info,
        command=command_line(),
        data=data_out,
    )


def main(argv: list[str] | None = None) -> int:
    pick = argparse.ArgumentParser(add_help=False)
    pick.add_argument("--pipeline", action="append", choices=[short_name(p) for p in PIPELINES])
    chosen, rest = pick.parse_known_args(argv)
    args, devices = device_arguments(__doc__.splitlines()[0], 5, rest)
    for device in devices:
        write(run(device, args.repeats, chosen.pipeline))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
