"""How `paef fix` scales with the number of fixable lines in one cell (issue 11, item 9).

Applying the fixes once re-parsed and compiled the whole cell per candidate fix (quadratic:
1,000 fixable lines took minutes); now the combined result is validated once and only a
failure is bisected. This times the analysis and the application separately, per size.

    PYTHONPATH=$PWD .venv/bin/python -m benchmarks.bench_fix_scaling [SIZES...]
"""

from __future__ import annotations

import sys
import time

import torch

HEADER = 'import torch\n\ndev = "cpu"\nout = []\nfor i in range(3):\n'
LINE = "    w_{n} = torch.tensor([0.5, 1.5, float(i + {n})], dtype=torch.float32).to(dev)\n"


def make_cell(fixable: int) -> str:
    """A loop with `fixable` lines, each with one automatic fix (cpu-then-move)."""
    return HEADER + "".join(LINE.format(n=n) for n in range(fixable)) + "    out.append(w_0.sum())\nresult = out\n"


def measure(fixable: int) -> tuple[float, float, int, int]:
    from paef_jupyter.api import analyze_source
    from paef_jupyter.fix import apply_findings

    cell = make_cell(fixable)
    t0 = time.perf_counter()
    report = analyze_source(cell, rules=["cpu-then-move"])
    t1 = time.perf_counter()
    _, applied, skipped = apply_findings(cell, report.findings)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, len(applied), len(skipped)


def main(argv: list[str]) -> None:
    torch.set_num_threads(1)
    sizes = [int(a) for a in argv] or [100, 300, 1000]
    measure(5)  # imports and the first inference paid here
    print(f"{'fixable lines':>14} {'analyse s':>10} {'apply s':>9} {'applied':>8} {'skipped':>8}")
    for n in sizes:
        analyse_s, apply_s, applied, skipped = measure(n)
        print(f"{n:>14} {analyse_s:>10.2f} {apply_s:>9.3f} {applied:>8} {skipped:>8}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
