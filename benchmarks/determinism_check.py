"""Does a program get the same findings however it is analysed (issue 8)?

Analyses each program (a) in a fresh process of its own (forked from a parent that has only
imported paef) and (b) all in one process, in sorted and in reversed order, and prints every
(file, line, rule, kind, fix text) that differs between the three. `kind` is `auto`,
`review`, `hint` or `none` (see `model.Fix`). State carried from one analysis to the next
(a cache keyed by something unstable, a registry filled by one analysis and read by another)
shows up here: `paef scan dir/` and the magic analyse many units in one process.

    PYTHONPATH=. .venv/bin/python -m benchmarks.determinism_check [--corpus DIR ...] [--only PREFIX]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path

Row = tuple[str, int, str, str, str]


def findings(path: str) -> frozenset[Row]:
    """What `analyze_path` reports on `path`, as comparable rows."""
    from paef_jupyter.api import analyze_path

    rows = set()
    for f in analyze_path(path).findings:
        fix = f.fix
        kind = ("none" if fix is None else "auto" if fix.automatic
                else "review" if fix.needs_review else "hint")
        text = "" if fix is None else repr([(e.line, e.col, e.end_line, e.end_col, e.text) for e in fix.edits])
        where = f"{f.ref.path}:{f.ref.cell}" if f.ref.cell is not None else str(f.ref.path)
        rows.add((where, f.line, f.rule, kind, text))
    return frozenset(rows)


def _all(paths: list[str]) -> dict[str, frozenset[Row]]:
    return {p: findings(p) for p in paths}


def _shared(paths: list[str]) -> dict[str, frozenset[Row]]:
    """As the scorer runs: jedi's answers shared across analyses (`JediOracle.share_answers`)."""
    from paef_jupyter.static.types import JediOracle

    JediOracle.share_answers()
    return _all(paths)


def one_process(paths: list[str], shared: bool = False) -> dict[str, frozenset[Row]]:
    """All programs, in this order, in one process forked for them."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(_shared if shared else _all, (paths,))


def fresh(paths: list[str]) -> dict[str, frozenset[Row]]:
    """Each program in a process forked for it alone."""
    with multiprocessing.get_context("fork").Pool(1, maxtasksperchild=1) as pool:
        return dict(zip(paths, pool.map(findings, paths, chunksize=1)))


def programs(corpora: list[str], only: str, containing: str) -> list[str]:
    return sorted(str(p) for c in corpora for p in Path(c).glob("*.py")
                  if p.name.startswith(only) and not p.name.startswith("_") and containing in p.read_text())


RUNS = {"fresh": fresh, "one": one_process, "one-reversed": lambda paths: one_process(paths[::-1]),
        "shared-reversed": lambda paths: one_process(paths[::-1], shared=True)}


def differences(runs: dict[str, dict[str, frozenset[Row]]]) -> list[str]:
    """One line per row that some run has and another lacks."""
    out = []
    names = list(runs)
    for path in next(iter(runs.values())):
        union = frozenset().union(*(r[path] for r in runs.values()))
        for row in sorted(union):
            present = [n for n in names if row in runs[n][path]]
            if len(present) != len(names):
                out.append(f"{path}: {row[:4]} {row[4][:120]} in {present} only")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", help="directory of programs (repeatable)")
    ap.add_argument("--only", default="", help="file-name prefix")
    ap.add_argument("--containing", default="", help="only programs whose text contains this")
    ap.add_argument("--runs", default="fresh,one,one-reversed", help="which of %s (comma-separated)" % ", ".join(RUNS))
    ap.add_argument("--json", help="also write each run's rows here")
    ap.add_argument("--compare", nargs="+", help="diff runs written by --json instead of analysing")
    args = ap.parse_args(argv)
    if args.compare:
        runs = {f"{file}:{name}": {p: frozenset(map(tuple, rows)) for p, rows in run.items()}
                for file in args.compare for name, run in json.loads(Path(file).read_text()).items()}
    else:
        paths = programs(args.corpus or ["benchmarks/corpus"], args.only, args.containing)
        import paef_jupyter.api  # noqa: F401  (imported before forking: the children share it)

        runs = {name: RUNS[name](paths) for name in args.runs.split(",")}
        if args.json:
            Path(args.json).write_text(json.dumps({n: {p: sorted(rows) for p, rows in r.items()} for n, r in runs.items()}))
    diff = differences(runs)
    print("\n".join(diff))
    keys = {d.split(" in [")[0] for d in diff}
    print(f"{len(next(iter(runs.values())))} programs, {len(keys)} differing rows", file=sys.stderr)
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
