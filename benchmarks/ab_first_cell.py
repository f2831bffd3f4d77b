"""The first `%%paef` right after `%load_ext`, another checkout's code vs this one's: fresh
kernels interleaved (plain, before, after; then reversed), the cell sent at once.

    python benchmarks/ab_first_cell.py BEFORE_TREE ROUNDS [CELL...]

Not part of `make bench` (it needs a second checkout); its figures are in results/first_cell.md.
"""
import os, sys, time, statistics, tempfile
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from jupyter_client.manager import start_new_kernel
from benchmarks.bench_kernel_cells import workloads

TREES = {"before": os.path.abspath(sys.argv[1]), "after": ROOT}

def kernel(tree):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, tree + "/demo_notebooks"]))
    cwd = tempfile.mkdtemp(prefix="after-ab-")
    return start_new_kernel(kernel_name="python3", env=env, cwd=cwd)

def run(kc, code):
    t0 = time.perf_counter()
    r = kc.execute_interactive(code, timeout=300, output_hook=lambda m: None)
    assert r["content"]["status"] == "ok", r["content"]
    return time.perf_counter() - t0

names = sys.argv[3:] or ["ping_pong", "adam_mlp_400"]
rounds = int(sys.argv[2])
out = {n: {k: [] for k in ("plain", "before load_ext", "before first", "after load_ext", "after first")} for n in names}
for r in range(rounds):
    for name in names:
        setup, body = workloads()[name]
        for who in ("plain", "before", "after") if r % 2 == 0 else ("after", "before", "plain"):
            km, kc = kernel(TREES["after" if who == "plain" else who])
            try:
                run(kc, setup)
                if who == "plain":
                    out[name]["plain"].append(run(kc, body))
                else:
                    out[name][f"{who} load_ext"].append(run(kc, "%load_ext paef_jupyter"))
                    out[name][f"{who} first"].append(run(kc, "%%paef\n" + body))
            finally:
                kc.stop_channels(); km.shutdown_kernel(now=True)
for name, d in out.items():
    p = statistics.median(d["plain"])
    print(name, "plain first %.3f s" % p)
    for who in ("before", "after"):
        print("  %-6s %%load_ext %.2f s, first %%paef %.2f s -> extra %.2f s (runs: %s)" % (
            who, statistics.median(d[f"{who} load_ext"]), statistics.median(d[f"{who} first"]),
            statistics.median(d[f"{who} first"]) - p, [round(x, 2) for x in d[f"{who} first"]]))
