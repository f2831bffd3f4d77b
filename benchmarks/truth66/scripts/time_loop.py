"""Unprofiled loop time: each program and its fixed twin, minus the same program with its loop
run zero times (setup only). In-process after imports, alternating, min of N."""
import os, subprocess, sys
B = "/work/wt/truth66/benchmarks/truth66"
N = int(sys.argv[1]); only = sys.argv[2:]
# program -> the loop header text that, set to zero iterations, leaves the setup only
PROGS = {"a01_helper_list_to_tensor.py": "range(3)", "a02_class_ping_pong.py": "range(3)",
         "a03_getitem_dict_as_list.py": "range(2)", "a04_getitem_sync_dataloader.py": "range(2)",
         "a05_collate_redundant_tensor.py": "range(3)", "a06_module_method_operator_fusion.py": "range(2)",
         "a07_logger_cpu_function.py": "range(2)", "a08_notebook_graph_retention_cells.py": "range(2)",
         "a09_notebook_eval_without_no_grad_cells.py": "range(len(X_test))", "a10_project/train.py": "range(3)",
         "a11_class_cpu_then_move.py": "range(60)", "a12_helper_elementwise_loop.py": "range(2)"}
CODE = r"""import sys, time, os
import numpy, torch, torch.nn, torch.utils.data
p, zero = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(p)); os.chdir(os.path.dirname(p))
import re, builtins
src = open(p).read()
builtins.T66 = []
src, k = re.subn(r"^( *)(for \w+ in " + re.escape(zero) + r":)", lambda m: m.group(1) + "__import__('builtins').T66.append(__import__('time').perf_counter())\n" + m.group(1) + m.group(2), src, count=1, flags=re.M)
assert k == 1, zero
code = compile(src, p, 'exec')
g = {'__name__': '__main__', '__file__': p}
exec(code, g)
print('T', time.perf_counter() - builtins.T66[0])
"""
env = dict(os.environ, OMP_NUM_THREADS="1")
def run(path, zero):
    r = subprocess.run(["/work/main/.venv/bin/python", "-c", CODE, path, zero], capture_output=True, text=True, env=env)
    t = [l for l in r.stdout.splitlines() if l.startswith("T ")]
    if not t: print(r.stderr[-500:])
    return float(t[-1].split()[1]) if t else float("nan")
for prog, zero in PROGS.items():
    if only and not any(o in prog for o in only): continue
    res = {"orig": [], "fixed": [], "setup": []}
    for _ in range(N):
        res["orig"].append(run(f"{B}/{prog}", zero))
        res["fixed"].append(run(f"{B}/fixed/{prog}", zero))

    o, f = min(res["orig"]), min(res["fixed"])
    print(f"{prog}: loop orig {o:.3f}s fixed {f:.3f}s antipattern share of the loop {(o - f) / o:.1%}  "
          f"runs orig {[round(x, 2) for x in res['orig']]} fixed {[round(x, 2) for x in res['fixed']]} load {os.getloadavg()[0]:.1f}", flush=True)
