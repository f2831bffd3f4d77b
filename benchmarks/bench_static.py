"""Static analysis latency: a 100-line and a 1,000-line cell, cold and warm.

Cold: the first analysis in a fresh process (imports, libcst, jedi's first inference).
Warm: later analyses of a *different* cell of the same size in the same process (so no
per-source cache helps), median of several. Target (issue 2): 100 lines under 0.2 s warm.

    .venv/bin/python -m benchmarks.bench_static
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from benchmarks.tables import Table, command_line, machine, write

BLOCK = '''
for epoch_{i} in range(2):
    for xb_{i}, yb_{i} in loader:
        xb_{i} = xb_{i}.to(device)
        mask_{i} = torch.tensor(weights)
        vals_{i} = pred.cpu().tolist()
        back_{i} = torch.tensor(vals_{i})
        losses_{i}.append(loss.item())
        h_{i} = 0.5 * xb_{i} * (1 + torch.tanh(0.79788456 * (xb_{i} + 0.044715 * xb_{i} ** 3)))
        loss_{i} = ((model(xb_{i}) - yb_{i}) ** 2).mean()
        opt.zero_grad()
        loss_{i}.backward()
        opt.step()
        total_{i} += loss_{i}
'''
HEADER = '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
device = "cpu"
model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 4)), batch_size=4)
weights = [1.0, 2.0, 3.0, 4.0]
pred = torch.zeros(4)
'''


def make_cell(lines: int, salt: int) -> str:
    out, i = HEADER, 0
    while out.count("\n") < lines:
        out += BLOCK.format(i=f"{salt}_{i}")
        i += 1
    return "\n".join(out.split("\n")[:lines]) + "\n"


COLD = """
import sys, time
sys.path.insert(0, '.')
from benchmarks.bench_static import make_cell
cell = make_cell({lines}, 0)
t0 = time.perf_counter()
from paef_jupyter.api import analyze_source
report = analyze_source(cell)
print(time.perf_counter() - t0, len(report.findings))
"""


def cold(lines: int) -> tuple[float, int]:
    proc = subprocess.run([sys.executable, "-c", COLD.format(lines=lines)], capture_output=True, text=True, check=True)
    seconds, findings = proc.stdout.split()
    return float(seconds), int(findings)


def warm(lines: int, repeats: int) -> list[float]:
    from paef_jupyter.api import analyze_source

    analyze_source(make_cell(lines, 999))  # imports and jedi paid here
    times = []
    for salt in range(1, repeats + 1):
        cell = make_cell(lines, salt)
        t0 = time.perf_counter()
        analyze_source(cell)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    from paef_jupyter.static import warm as warm_jedi

    warm_jedi(background=False)
    rows, data = [], {}
    for lines, repeats in ((100, 15), (1000, 5)):
        cold_s = statistics.median(cold(lines)[0] for _ in range(3))
        samples = warm(lines, repeats)
        _, findings = cold(lines)
        rows.append((lines, findings, round(cold_s, 3), round(statistics.median(samples), 4), round(max(samples), 4)))
        data[str(lines)] = {"cold_s": cold_s, "warm_s": samples}
    write(Table(
        name="static",
        title="Static analysis latency (all rules)",
        columns=("cell lines", "findings", "cold s (fresh process)", "warm s (median)", "warm s (max)"),
        rows=tuple(rows),
        notes=("Target: a 100-line cell under 0.2 s warm.", "Cold includes importing paef_jupyter, libcst and jedi's first inference."),
        machine=machine(),
        command=command_line(),
        data=data,
    ))


if __name__ == "__main__":
    main()
