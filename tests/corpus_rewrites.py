"""Rewrite every corpus program once, two processes at a time, for `test_rewrite_safety`
and `test_fix_idempotent`.

The analysis of ~320 programs is most of those tests' time: done once, in a process pool, it
uses both cores; the same analyses say whether a second `paef fix` would change anything, and
the programs' before/after runs are batched (`score_corpus.run_all`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

RUNNABLE = "# corpus: runnable"


@dataclass(frozen=True)
class CorpusRewrite:
    problem: str  # why the rewrite is unsafe or failed ('' if it is not)
    unstable: tuple[str, ...]  # what a second `paef fix` would still do, per file


def corpus_programs(corpus: Path) -> list[Path]:
    if not corpus.is_dir():
        return []
    return sorted(p for p in corpus.iterdir() if p.suffix in (".py", ".ipynb") or (p.is_dir() and p.name != "__pycache__"))


def rewrite_all(units: list) -> list:
    """The default rewrite (checked: compiles), and the `--unsafe` one when any fix needs review."""
    return rewrite_all_and_recheck(units)[0]


def rewrite_all_and_recheck(units: list) -> tuple[list, list[str]]:
    """`rewrite_all`, and what a second `paef fix` of its default rewrite would still do."""
    from fix_stability import rewrite_and_recheck
    from paef_jupyter import api
    from paef_jupyter.fix.apply import check_compiles

    done, unstable = rewrite_and_recheck(units)
    for r in done:
        check_compiles(_masked(r.text))
    if any(r.review for r in done):
        for r in api.rewrite(units, unsafe=True):
            check_compiles(_masked(r.text))
    return done, unstable


def _masked(text: str) -> str:
    from paef_jupyter.source import mask

    masked = mask(text)
    return masked.text if masked.python else "pass"


def rewrite_program(program: str, out: str) -> tuple[str, list[tuple[str, str]], list[str]]:
    """Rewrite `program` into `out`: (why it failed or '', the (before, after) files to run,
    what a second `paef fix` of each file would still do).

    A directory is copied whole and its modules rewritten in place; a file is written to
    `out` only when a rewrite applied. Files to run are the runnable `.py` files of a program
    whose rewrite changed something.
    """
    from paef_jupyter.static.types import JediOracle
    from paef_jupyter.units import read_units

    JediOracle.share_answers()  # this child analyses each file several ways (see conftest)
    source, target = Path(program), Path(out)
    if source.is_dir():
        before, after = target / "before", target / "after"
        shutil.copytree(source, before)
        shutil.copytree(source, after)
        files = [(before / f.relative_to(after), f) for f in sorted(after.rglob("*.py"))]
    else:
        target.mkdir(parents=True, exist_ok=True)
        files = [(source, target / source.name)]
    runs, changed, unstable = [], False, []
    for original, rewritten in files:
        try:
            [*done], again = rewrite_all_and_recheck(read_units(str(rewritten if source.is_dir() else original)))
        except Exception as exc:  # noqa: BLE001 - reported against the program
            return f"{original.name}: {type(exc).__name__}: {exc}", [], []
        unstable += [f"{original.name}: {line}" for line in again]
        changed = changed or any(r.applied for r in done)
        if original.suffix != ".py":
            continue
        if source.is_dir() or done[0].applied:
            rewritten.write_text(done[0].text)
        if RUNNABLE in original.read_text()[:500] and rewritten.exists():
            runs.append((str(original), str(rewritten)))
    return "", runs if changed else [], unstable


def rewrite_corpus(programs: list[Path], out: Path) -> dict[str, CorpusRewrite]:
    """Each program rewritten in two processes, then its runnable files run before and after
    (a dozen per process) and their outputs compared."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from benchmarks import score_corpus

    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        rewritten = list(pool.map(rewrite_program, map(str, programs), [str(out / p.name) for p in programs]))
    pairs = [(p.name, Path(b), Path(a)) for p, (_, runs, _) in zip(programs, rewritten) for b, a in runs]
    flat = [path for _, before, after in pairs for path in (before, after)]
    runs = iter(score_corpus.run_all(flat, timeout=120, together=2))
    problems = {p.name: why for p, (why, _, _) in zip(programs, rewritten)}
    for name, before, after in pairs:
        old, new = next(runs), next(runs)
        if not (old.ok and new.ok):
            problems[name] = problems[name] or f"{before.name}: {'the original' if not old.ok else 'the rewrite'} " \
                                               f"fails: {old.error or new.error}"
        elif old.outputs != new.outputs:
            problems[name] = problems[name] or f"{before.name}: output changed by the rewrite"
    return {p.name: CorpusRewrite(problems[p.name], tuple(again)) for p, (_, _, again) in zip(programs, rewritten)}
