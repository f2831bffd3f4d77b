"""Predicted vs measured saving (truth68 A1): `savings.py N OUT.jsonl WORKTREE... [-- filter...]`.

For each program of rounds 66/67 with a fixed twin: the top finding's estimated saving and the run's
base time from `paef profile` with each WORKTREE's code (one after the other, same load), then the
loop's unprofiled time, program vs twin (min of N, alternating). A saving is honest when the share
it claims of the run is near the share the twin saves of the loop (ratio of shares ~1)."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from benchmarks.truth_round import _loop_time  # noqa: E402

PROGRAMS = {  # program -> the header of its loop (the one the twin's saving is measured on)
    "truth67/b01_two_in_one_loop.py": "range(30)",
    "truth67/b02_short_steps_dict_as_list.py": "range(800)",
    "truth67/b03_long_steps_cpu_function.py": "range(4)",
    "truth67/b06_project/train.py": "range(2)",
    "truth67/b07_while_list_to_tensor.py": "while step < 60:",
    "truth66/a01_helper_list_to_tensor.py": "range(3)",
    "truth66/a03_getitem_dict_as_list.py": "range(2)",
    "truth66/a05_collate_redundant_tensor.py": "range(3)",
    "truth66/a07_logger_cpu_function.py": "range(2)",
    "truth66/a12_helper_elementwise_loop.py": "range(2)",
}


def profile(worktree: str, path: Path) -> dict:
    js = Path("/tmp/t68") / f"sav_{abs(hash((worktree, str(path))))}.json"
    env = dict(os.environ, PYTHONPATH=worktree, OMP_NUM_THREADS="1")
    load = os.getloadavg()[0]
    subprocess.run(["nice", "-n", "5", sys.executable, "-m", "paef_jupyter.cli", "profile", str(path), "--json", str(js)],
                   cwd=path.parent, env=env, capture_output=True, text=True)
    d = json.loads(js.read_text())
    f = d["findings"][0] if d["findings"] else None
    p = d.get("profile") or {}
    ev = (f or {}).get("evidence") or {}
    return {"worktree": worktree, "load": round(load, 1), "top": f and (f["rule"], f["line"], f["severity"]),
            "saving": ev.get("estimated_saving_s"), "base": p.get("base_time_s"), "iterations": p.get("iterations"),
            "model": [n for n in ev.get("notes", []) if n.startswith("saving = ")]}


def main(argv: list[str]) -> None:
    n, out = int(argv[0]), argv[1]
    rest = argv[2:]
    trees = rest[:rest.index("--")] if "--" in rest else rest
    only = rest[rest.index("--") + 1:] if "--" in rest else []
    Path("/tmp/t68").mkdir(exist_ok=True)
    with open(out, "a") as fh:
        for prog, loop in PROGRAMS.items():
            if only and not any(o in prog for o in only):
                continue
            path = ROOT / "benchmarks" / prog
            fixed = path.parent / "fixed" / path.name if "_project" not in prog else \
                path.parent.parent / "fixed" / path.parent.name / path.name
            rows = [profile(w, path) for w in trees]
            orig, twin = [], []
            for _ in range(n):
                orig.append(_loop_time(path, loop))
                twin.append(_loop_time(fixed, loop))
            o, t = min(orig), min(twin)
            rec = {"prog": prog, "loop": o, "twin": t, "twin_saving": o - t, "twin_share": (o - t) / o,
                   "load": round(os.getloadavg()[0], 1), "profiles": rows, "time": time.strftime("%H:%M:%S")}
            fh.write(json.dumps(rec) + "\n")
            fh.flush()
            parts = []
            for r in rows:
                share = r["saving"] / r["base"] if r["saving"] and r["base"] else 0.0
                ratio = share / rec["twin_share"] if rec["twin_share"] > 0 else float("nan")
                parts.append(f"{r['top']} pred {r['saving'] or 0:.3f}s/{r['base'] or 0:.3f}s={share:.0%} "
                             f"ratio {ratio:.2f} it {r['iterations']}")
            print(f"{prog}: twin saves {o - t:.3f}s of {o:.3f}s ({rec['twin_share']:.0%}) | " + " | ".join(parts),
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
