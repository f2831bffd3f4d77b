"""The harness of a blind top-1 round (benchmarks/truthNN/): profile each program, and time its loop against the
fixed twin. Each round's scripts only list their programs; this keeps the method the same from round to round."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def _brief(f: dict) -> dict:
    ev = f.get("evidence") or {}
    return {"rule": f["rule"], "cell": f.get("cell"), "line": f["line"], "sev": f["severity"], "src": f["source"],
            "meas": ev.get("measurable"), "share": round(ev["share"], 3) if ev.get("share") is not None else None,
            "save": round(ev.get("estimated_saving_s") or 0, 4), "notes": ev.get("notes", [])}


def measure(round_dir: Path, progs: list[str], argv: list[str]) -> None:
    """`measure.py WORKTREE TAG [filter...]`: `paef profile --json` of each program with WORKTREE's code; one summary
    line each, records appended to /tmp/<round>/TAG.jsonl."""
    worktree, tag, only = argv[0], argv[1], argv[2:]
    env = dict(os.environ, PYTHONPATH=worktree, OMP_NUM_THREADS="1")
    out_dir = Path("/tmp") / round_dir.name
    out_dir.mkdir(exist_ok=True)
    with open(out_dir / f"{tag}.jsonl", "a") as out:
        for prog in progs:
            if only and not any(o in prog for o in only):
                continue
            path = round_dir / prog
            js = out_dir / f"{tag}_{path.name}.json"
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            r = subprocess.run(["nice", "-n", "5", sys.executable, "-m", "paef_jupyter.cli", "profile", str(path),
                                "--json", str(js)], cwd=path.parent, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            try:
                d = json.loads(js.read_text())
            except (OSError, ValueError):
                print(prog, "NO JSON", r.returncode, r.stderr[-800:], flush=True)
                continue
            fs, p = d["findings"], d.get("profile") or {}
            rec = {"prog": prog, "tag": tag, "load": round(load, 2), "wall": round(wall, 1), "errors": d.get("errors"),
                   "top": _brief(fs[0]) if fs else None,
                   "medhigh": [_brief(f) for f in fs[1:] if f["severity"] in ("medium", "high")],
                   "low": [(f["rule"], f.get("cell"), f["line"]) for f in fs if f["severity"] not in ("medium", "high")],
                   "overhead": p.get("overhead"), "cpu_wait": p.get("cpu_wait_share"),
                   "iters": p.get("profiled_iterations"), "window": (p.get("window_line"), p.get("window_end_line")),
                   "base": p.get("base_time_s"), "profiled": p.get("profiled_time_s")}
            out.write(json.dumps(rec) + "\n")
            out.flush()
            t = rec["top"]
            top = t and (t["rule"], t["cell"], t["line"], t["sev"], t["src"], t["meas"], t["share"])
            print(f"{prog}: load {rec['load']} wall {rec['wall']}s top={top} "
                  f"medhigh={[(m['rule'], m['cell'], m['line'], m['sev']) for m in rec['medhigh']]} low={rec['low']} "
                  f"ovh={rec['overhead']} wait={rec['cpu_wait']} err={rec['errors']}", flush=True)
            if t:
                print("   notes:", t["notes"], flush=True)


# Runs one program with a clock started at the first line of its named loop (a `for ... in <header>:` or the
# `while` line given); prints the loop's time.
_TIMED = r"""import os, re, sys, time, builtins
import numpy, torch, torch.nn, torch.utils.data
p, loop = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(p)); os.chdir(os.path.dirname(p))
builtins.LOOP_START = []
pat = r"^( *)(" + re.escape(loop) + r")" if loop.startswith("while ") else r"^( *)(for \w+ in " + re.escape(loop) + r":)"
mark = "__import__('builtins').LOOP_START.append(__import__('time').perf_counter())\n"
src, k = re.subn(pat, lambda m: m.group(1) + mark + m.group(1) + m.group(2), open(p).read(), count=1, flags=re.M)
assert k == 1, loop
exec(compile(src, p, 'exec'), {'__name__': '__main__', '__file__': p})
print('T', time.perf_counter() - builtins.LOOP_START[0])
"""


def _loop_time(path: Path, loop: str) -> float:
    r = subprocess.run([sys.executable, "-c", _TIMED, str(path), loop], capture_output=True, text=True,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
    t = [line for line in r.stdout.splitlines() if line.startswith("T ")]
    if not t:
        print(r.stderr[-500:])
    return float(t[-1].split()[1]) if t else float("nan")


def time_loops(round_dir: Path, loops: dict[str, str], argv: list[str]) -> None:
    """`time_loop.py N [filter...]`: unprofiled loop time of each program and its fixed twin (`fixed/`),
    alternating, min of N; the antipattern's share of the loop is what the fix saves."""
    n, only = int(argv[0]), argv[1:]
    for prog, loop in loops.items():
        if only and not any(o in prog for o in only):
            continue
        orig, fixed = [], []
        for _ in range(n):
            orig.append(_loop_time(round_dir / prog, loop))
            fixed.append(_loop_time(round_dir / "fixed" / prog, loop))
        o, f = min(orig), min(fixed)
        print(f"{prog}: loop orig {o:.3f}s fixed {f:.3f}s antipattern share of the loop {(o - f) / o:.1%}  "
              f"runs orig {[round(x, 2) for x in orig]} fixed {[round(x, 2) for x in fixed]} "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
