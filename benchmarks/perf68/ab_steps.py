"""Two kernels (before tree, this tree), interleaved rounds: plain and %%paef; kernel CPU (all threads), the
breakdown's step timers (main-thread CPU), iopub bytes per cell."""
import json, statistics, sys, os
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))); sys.path.insert(0, ROOT)
from benchmarks.ab_warm_cells import TreeKernel
from benchmarks.bench_kernel_cells import settle, workloads
from benchmarks.bench_cell_breakdown import TIMERS, RESET, READ, traffic
before, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
setup, body = workloads()[name]
ks = {"before": TreeKernel(before), "after": TreeKernel(ROOT)}
out = {w: {"plain": [], "paef": [], "steps": [], "bytes": [], "msgs": []} for w in ks}
try:
    for k in ks.values():
        k.must(setup); k.must("%load_ext paef_jupyter"); k.must(TIMERS.replace("{clock}", "thread_time"))
    for k in ks.values():
        settle(k); k.must(body); k.must("%%paef\n" + body)
    order = list(ks)
    for r in range(rounds):
        for w in (order if r % 2 == 0 else order[::-1]):
            k = ks[w]
            for v, code in (("plain", body), ("paef", "%%paef\n" + body)):
                k.must(RESET); c = k.cpu_s()
                _, counts = traffic(k, code)
                out[w][v].append(k.cpu_s() - c)
                if v == "paef":
                    out[w]["steps"].append(json.loads(k.output(READ)))
                    out[w]["bytes"].append(sum(b for n, b in counts.values()))
                    out[w]["msgs"].append(sum(n for n, b in counts.values()))
finally:
    for k in ks.values(): k.close()
med = lambda xs: statistics.median(xs)
def extra(w): return [a - b for a, b in zip(out[w]["paef"], out[w]["plain"])]
for w in ks:
    print(f"{name} {w:6s} plain {med(out[w]['plain'])*1e3:5.1f} paef {med(out[w]['paef'])*1e3:5.1f} extra {med(extra(w))*1e3:5.2f} ms "
          f"ratio {med([a/b for a,b in zip(out[w]['paef'], out[w]['plain'])]):.3f} bytes {med(out[w]['bytes'])/1e3:.1f} kB msgs {med(out[w]['msgs'])}")
d = [a - b for a, b in zip(extra("after"), extra("before"))]
print(f"{name} paired extra after-before {med(d)*1e3:+.2f} ms (lower {sum(x<0 for x in d)}/{len(d)}) load {os.getloadavg()[0]:.2f}")
keys = list(dict.fromkeys(k for w in ks for s in out[w]["steps"] for k in s))
for key in keys:
    a = [s.get(key, 0) for s in out["after"]["steps"]]; b = [s.get(key, 0) for s in out["before"]["steps"]]
    dd = [x - y for x, y in zip(a, b)]
    if abs(med(dd)) > 0.00004 or key.startswith(("draw", "messages")):
        print(f"   {key:70s} before {med(b)*1e3:6.3f} after {med(a)*1e3:6.3f} paired {med(dd)*1e3:+.3f} (lower {sum(x<0 for x in dd)}/{len(dd)})")
json.dump(out, open(f"/tmp/perf68/abs_{name}_{os.getpid()}.json", "w"))
