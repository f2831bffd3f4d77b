"""In one kernel: %%paef cells with the window variants interleaved; kernel CPU (all threads) and step CPU."""
import json, statistics, sys, os
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from benchmarks.bench_kernel_cells import Kernel, settle, workloads
from benchmarks.perf68._variants import interleaved
from benchmarks.bench_cell_breakdown import TIMERS
VARIANTS = {
 "default": "import paef_jupyter.dynamic.line_tracer as _lt; _lt.MIN_WINDOW=3; _lt.LineTracer.settles=_lt_settles",
 "no settling": "_lt.MIN_WINDOW=3; _lt.LineTracer.settles=property(lambda s: False)",
 "window 2": "_lt.MIN_WINDOW=2; _lt.LineTracer.settles=_lt_settles",
 "window 2 no settling": "_lt.MIN_WINDOW=2; _lt.LineTracer.settles=property(lambda s: False)",
}
name, rounds = sys.argv[1], int(sys.argv[2])
setup, body = workloads()[name]
k = Kernel()
try:
    k.must(setup); k.must("%load_ext paef_jupyter"); k.must(TIMERS.replace("{clock}", "thread_time"))
    k.must("import paef_jupyter.dynamic.line_tracer as _lt; _lt_settles = _lt.LineTracer.settles")
    settle(k)
    k.must(body); k.must("%%paef\n" + body)
    out = interleaved(k, body, VARIANTS, rounds)
    k.must(VARIANTS["default"])
finally:
    k.close()
CODE = "the cell's code (profiled)"
med = lambda xs: statistics.median(xs) * 1e3
plain = out["plain"]["cpu"]
for v in VARIANTS:
    d = out[v]
    extra = [a - b for a, b in zip(d["cpu"], plain)]
    vs = [a - b for a, b in zip(d["cpu"], out["default"]["cpu"])]
    st = lambda key: med([s.get(key, 0) for s in d["steps"]])
    print(f"{name} {v:22s} cpu {med(d['cpu']):6.1f} extra {med(extra):5.1f} ratio {statistics.median(a/b for a,b in zip(d['cpu'],plain)):.2f} vs default {med(vs):+5.2f} (lower {sum(x<0 for x in vs)}/{len(vs)}) | code {st(CODE):5.1f} stop {st('profiler stop'):4.2f} read {st('read the trace'):4.2f} build {st('profile from the trace'):4.2f} draw {st('draw: all'):4.2f}")
print(f"{name} plain cpu {med(plain):.1f} load {os.getloadavg()[0]:.2f}")
json.dump(out, open(f"/tmp/perf68/win_{name}.json", "w"))
