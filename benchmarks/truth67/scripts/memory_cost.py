"""truth67: what recording the allocator (`profile_memory`, asked where a graph-retention is found)
costs a window: the same program profiled with and without it, interleaved, in one process.
Prints the profiled window's time (Profile.profiled_time_s), the cell's wall time and the
retained bytes per iteration."""
import statistics, sys, time
import torch
from paef_jupyter.api import read_units, parse_unit
from paef_jupyter.dynamic.run_units import run_units

torch.set_num_threads(1)
N = int(sys.argv[1])
for path in sys.argv[2:]:
    parsed = [parse_unit(u) for u in read_units(path)]
    res = {False: [], True: []}
    run_units(parsed, path)  # warm: first profiler, first optimizer
    for _ in range(N):
        for memory in (False, True):
            t = time.perf_counter()
            prof, _ = run_units(parsed, path, memory=memory)
            res[memory].append((prof.profiled_time_s, time.perf_counter() - t, prof.retained_bytes_per_iteration))
    for memory, rows in res.items():
        print(f"{path.split('/')[-1]} memory={memory}: window median {statistics.median(r[0] for r in rows) * 1e3:.1f} ms "
              f"(runs {[round(r[0] * 1e3, 1) for r in rows]}), wall median {statistics.median(r[1] for r in rows):.2f} s, "
              f"retained/iter {[r[2] for r in rows]}", flush=True)
