"""Profile each truth66 program with `paef profile --json` in a worktree; print one summary per run."""
import json, os, subprocess, sys, time
WT, TAG = sys.argv[1], sys.argv[2]
only = sys.argv[3:] 
B = "benchmarks/truth66"
PROGS = ["a01_helper_list_to_tensor.py", "a02_class_ping_pong.py", "a03_getitem_dict_as_list.py",
         "a04_getitem_sync_dataloader.py", "a05_collate_redundant_tensor.py", "a06_module_method_operator_fusion.py",
         "a07_logger_cpu_function.py", "a08_notebook_graph_retention.ipynb", "a09_notebook_eval_without_no_grad.ipynb",
         "a10_project/train.py", "a11_class_cpu_then_move.py", "a12_helper_elementwise_loop.py",
         "clean/c1_lightning_style_by_hand.py", "clean/c2_accumulation_warmup_cosine.py",
         "clean/c3_callbacks_swa_ema.py", "clean/c4_padded_sequences_inference_mode.py"]
env = dict(os.environ, PYTHONPATH=WT, OMP_NUM_THREADS="1")
os.makedirs("/tmp/t66", exist_ok=True)
out = open(f"/tmp/t66/{TAG}.jsonl", "a")
for prog in PROGS:
    if only and not any(o in prog for o in only):
        continue
    path = os.path.join("/work/wt/truth66", B, prog)
    cwd = os.path.dirname(path)
    js = f"/tmp/t66/{TAG}_{os.path.basename(prog)}.json"
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
