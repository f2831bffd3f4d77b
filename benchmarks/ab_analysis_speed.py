"""Static analysis CPU time of two versions of the code, interleaved: is a change faster?

Each round runs, for each version in turn, a fresh process that analyses a fixed sample of the
corpus (every `--stride`-th `.py` program, after one warm-up analysis that pays jedi's cold
start) and reports its CPU seconds (`time.process_time`: the box is shared; jedi's helper
process is not counted). The versions are git revisions, extracted with `git archive`.

    .venv/bin/python -m benchmarks.ab_analysis_speed OLD_REV [NEW_REV] [--stride 4] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "benchmarks" / "corpus"

CHILD = """
import glob, json, os, sys, time
sys.path.insert(0, {tree!r})
import paef_jupyter
assert paef_jupyter.__file__.startswith({tree!r}), paef_jupyter.__file__
from paef_jupyter import api
from paef_jupyter.units import read_units
os.chdir({corpus!r})
programs = sorted(glob.glob("*.py"))[::{stride}]
api.analyze(read_units(programs[0]))
start = time.process_time()
findings = sum(len(api.analyze(read_units(p)).findings) for p in programs)
print(json.dumps({{"cpu": time.process_time() - start, "programs": len(programs), "findings": findings}}))
"""


def _extract(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev, "paef_jupyter"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def _run(tree: Path, stride: int) -> dict:
    env = {"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", CHILD.format(tree=str(tree), corpus=str(CORPUS), stride=stride)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", default="HEAD")
    parser.add_argument("--stride", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {rev: _extract(rev, Path(tmp) / str(i)) for i, rev in enumerate((args.old, args.new))}
        cpu: dict[str, list[float]] = {rev: [] for rev in trees}
        for _ in range(args.rounds):
            for rev, tree in trees.items():
                result = _run(tree, args.stride)
                cpu[rev].append(result["cpu"] / result["programs"])
                print(f"{rev}: {result['programs']} programs, {result['cpu']:.1f} s CPU, {result['findings']} findings",
                      flush=True)
    old, new = (statistics.median(cpu[rev]) for rev in trees)
    print(f"CPU per program: {args.old} {old:.3f} s, {args.new} {new:.3f} s, ratio new/old {new / old:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
