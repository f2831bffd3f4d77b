"""truth67: unprofiled loop time: each program and its fixed twin, minus the same program with its loop
run zero times (setup only). In-process after imports, alternating, min of N."""
import os, subprocess, sys
B = "/work/wt/truth67/benchmarks/truth67"
N = int(sys.argv[1]); only = sys.argv[2:]
# program -> the loop header text that, set to zero iterations, leaves the setup only
PROGS = {"b01_two_in_one_loop.py": "range(30)", "b02_short_steps_dict_as_list.py": "range(800)",
         "b03_long_steps_cpu_function.py": "range(4)", "b04_eval_loop_elementwise.py": "range(3)",
         "b05_notebook_split_operator_fusion_cells.py": "range(2)", "b06_project/train.py": "range(2)",
         "b07_while_list_to_tensor.py": None, "b08_trainer_graph_retention.py": "range(2)"}
CODE = r"""import sys, time, os
import numpy, torch, torch.nn, torch.utils.data
p, zero = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(p)); os.chdir(os.path.dirname(p))
import re, builtins
src = open(p).read()
builtins.T67 = []
pat = r"^( *)(while step < 60:)" if zero == "None" else r"^( *)(for \w+ in " + re.escape(zero) + r":)"
src, k = re.subn(pat, lambda m: m.group(1) + "__import__('builtins').T67.append(__import__('time').perf_counter())\n" + m.group(1) + m.group(2), src, count=1, flags=re.M)
assert k == 1, zero
code = compile(src, p, 'exec')
g = {'__name__': '__main__', '__file__': p}
exec(code, g)
print('T', time.perf_counter() - builtins.T67[0])
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
        res["orig"].append(run(f"{B}/{prog}", str(zero)))
        res["fixed"].append(run(f"{B}/fixed/{prog}", str(zero)))

    o, f = min(res["orig"]), min(res["fixed"])
    print(f"{prog}: loop orig {o:.3f}s fixed {f:.3f}s antipattern share of the loop {(o - f) / o:.1%}  "
          f"runs orig {[round(x, 2) for x in res['orig']]} fixed {[round(x, 2) for x in res['fixed']]} load {os.getloadavg()[0]:.1f}", flush=True)
