"""Profile each truth67 program with `paef profile --json` in a worktree; print one summary per run."""
import json, os, subprocess, sys, time
WT, TAG = sys.argv[1], sys.argv[2]
only = sys.argv[3:] 
B = "benchmarks/truth67"
PROGS = ["b01_two_in_one_loop.py", "b02_short_steps_dict_as_list.py", "b03_long_steps_cpu_function.py",
         "b04_eval_loop_elementwise.py", "b05_notebook_split_operator_fusion.ipynb", "b06_project/train.py",
         "b07_while_list_to_tensor.py", "b08_trainer_graph_retention.py", "clean/k1_short_steps_sliced_tensors.py",
         "clean/k2_notebook_split_cells.ipynb", "clean/k3_plateau_early_stopping.py"]
env = dict(os.environ, PYTHONPATH=WT, OMP_NUM_THREADS="1")
os.makedirs("/tmp/t67", exist_ok=True)
out = open(f"/tmp/t67/{TAG}.jsonl", "a")
for prog in PROGS:
    if only and not any(o in prog for o in only):
        continue
    path = os.path.join("/work/wt/truth67", B, prog)
    cwd = os.path.dirname(path)
    js = f"/tmp/t67/{TAG}_{os.path.basename(prog)}.json"
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    r = subprocess.run(["nice", "-n", "5", "/work/main/.venv/bin/python", "-m", "paef_jupyter.cli", "profile", path, "--json", js],
                       cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    try:
        d = json.load(open(js))
    except Exception as e:
        print(prog, "NO JSON", r.returncode, r.stderr[-800:], flush=True); continue
    fs = d["findings"]
    def brief(f):
        ev = f.get("evidence") or {}
        return {"rule": f["rule"], "cell": f.get("cell"), "line": f["line"], "sev": f["severity"], "src": f["source"],
                "meas": ev.get("measurable"), "share": round(ev["share"], 3) if ev.get("share") is not None else None,
                "save": round(ev.get("estimated_saving_s") or 0, 4), "notes": ev.get("notes", [])}
    p = d.get("profile") or {}
    rec = {"prog": prog, "tag": TAG, "load": round(load, 2), "wall": round(wall, 1), "errors": d.get("errors"),
           "top": brief(fs[0]) if fs else None,
           "medhigh": [brief(f) for f in fs[1:] if f["severity"] in ("medium", "high")],
           "low": [(f["rule"], f.get("cell"), f["line"]) for f in fs if f["severity"] not in ("medium", "high")],
           "overhead": p.get("overhead"), "cpu_wait": p.get("cpu_wait_share"), "iters": p.get("profiled_iterations"),
           "window": (p.get("window_line"), p.get("window_end_line")), "base": p.get("base_time_s"), "profiled": p.get("profiled_time_s")}
    out.write(json.dumps(rec) + "\n"); out.flush()
    t = rec["top"]
    print(f"{prog}: load {rec['load']} wall {rec['wall']}s top={t and (t['rule'], t['cell'], t['line'], t['sev'], t['src'], t['meas'], t['share'])} "
          f"medhigh={[(m['rule'], m['cell'], m['line'], m['sev']) for m in rec['medhigh']]} low={rec['low']} ovh={rec['overhead']} wait={rec['cpu_wait']} err={rec['errors']}", flush=True)
    if t: print("   notes:", t["notes"], flush=True)
