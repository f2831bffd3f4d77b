"""The trace read with and without the events before the first line's range, on host_syncs' cell (its
demo set-up, profiled as `%%paef` profiles it: window found from the cell), in one process,
interleaved: main-thread CPU of the read (`from_activities`, with `from_first_line`'s own cost) and
of `build_profile`.

    PYTHONPATH=.:tests .venv/bin/python benchmarks/perf68/read_cut.py [ROUNDS]
"""
import dataclasses, os, statistics, sys, time
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "demo_notebooks")]
import torch
torch.set_num_threads(1)
from benchmarks.bench_profiler_overhead import demo_cells
from dynamic_helpers import Cells
from paef_jupyter.dynamic import collector
from paef_jupyter.dynamic.build import build_profile
from paef_jupyter.dynamic.line_tracer import LoopTarget
from paef_jupyter.dynamic.trace_events import from_activities
from paef_jupyter.model import CellRef

setup, cell = demo_cells("host_syncs")
body = cell.split("\n", 1)[1]
ref = CellRef("nb.ipynb", 4, "c4")
cells = Cells()
code = cells.add(body, ref)
for s in setup:
    exec(s, cells.namespace)
line = next(i for i, l in enumerate(body.splitlines(), 1) if l.startswith("for "))
seen = []
real = collector.from_first_line
collector.from_first_line = lambda found: seen.append(list(found)) or real(found)
for _ in range(3):
    run = cells.run(code, LoopTarget(ref, line, line + 8, "zip(inputs, labels)"))
found = seen[-1]
tid = run.trace.main_tid
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
res = {"read all": [], "read kept": [], "build all": [], "build kept": []}
for r in range(rounds):
    for kind in (("all", "kept") if r % 2 == 0 else ("kept", "all")):
        t = time.thread_time()
        trace = from_activities(found if kind == "all" else real(found), tid)
        res[f"read {kind}"].append(time.thread_time() - t)
        t = time.thread_time()
        build_profile(dataclasses.replace(run, trace=trace))
        res[f"build {kind}"].append(time.thread_time() - t)
med = lambda k: statistics.median(res[k]) * 1e3
print(f"{len(found)} events, {len(found) - len(real(found))} before the first line; load {os.getloadavg()[0]:.1f}")
for step in ("read", "build"):
    d = [a - b for a, b in zip(res[f"{step} kept"], res[f"{step} all"])]
    print(f"{step}: all {med(step + ' all'):.3f} ms, kept {med(step + ' kept'):.3f} ms, paired {statistics.median(d)*1e3:+.3f} ms "
          f"(lower {sum(x < 0 for x in d)}/{len(d)})")
