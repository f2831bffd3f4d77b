"""Rewrite every corpus program once, two processes at a time, and run the runnable ones a
rewrite changed, for `test_rewrite_safety`, `test_fix_idempotent` and `test_corpus`.

The analysis of ~320 programs is most of those tests' time: done once, in a process pool, it
uses both cores; the same analyses say whether a second `paef fix` would change anything, and
the programs' before/after runs are batched (`score_corpus.run_all`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks.score_corpus import Run

RUNNABLE = "# corpus: runnable"


@dataclass(frozen=True)
class CorpusRewrite:
    problem: str  # why the rewrite is unsafe or failed ('' if it is not)
    unstable: tuple[str, ...]  # what a second `paef fix` would still do, per file
    run: str = ""  # why the program's own run is unusable: fails, prints nothing or varies ('' if not)


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


def rewrite_corpus(corpus: Path, out: Path) -> dict[str, CorpusRewrite]:
    """Each program rewritten in two processes, then each runnable program whose rewrite changed
    something run before and after, in batches, and compared. Only a pair that differs runs its
    original again, to tell a rewrite that changed the output from a program whose output varies.
    (A program no rewrite changed is not run: its result cannot differ.)"""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from benchmarks import score_corpus

    programs = corpus_programs(corpus)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        rewritten = list(pool.map(rewrite_program, map(str, programs), [str(out / p.name) for p in programs]))
    problems = {p.name: why for p, (why, _, _) in zip(programs, rewritten)}
    pairs = [(p.name, Path(b), Path(a)) for p, (_, runs, _) in zip(programs, rewritten) for b, a in runs]
    runs = score_corpus.run_all([path for _, before, after in pairs for path in (before, after)], timeout=240,
                                together=2)
    firsts = list(zip(runs[::2], runs[1::2]))
    differing = [i for i, (old, new) in enumerate(firsts) if not (old.ok and new.ok) or old.outputs != new.outputs]
    reruns = dict(zip(differing, score_corpus.run_all([pairs[i][1] for i in differing], timeout=240))) if differing else {}
    ran: dict[str, str] = {}
    for i, ((name, before, _), (old, new)) in enumerate(zip(pairs, firsts)):
        if i in reruns and old.ok and reruns[i].ok:
            old = score_corpus.Run(True, old.outputs + reruns[i].outputs)
        ran[name] = ran.get(name) or own_run_problem(before, old)
        if not (old.ok and new.ok):
            problems[name] = problems[name] or f"{before.name}: {'the original' if not old.ok else 'the rewrite'} " \
                                               f"fails: {old.error or new.error}"
        elif old.outputs[0] != new.outputs[0]:
            problems[name] = problems[name] or f"{before.name}: output changed by the rewrite"
    return {p.name: CorpusRewrite(problems[p.name], tuple(again), ran.get(p.name, ""))
            for p, (_, _, again) in zip(programs, rewritten)}


def own_run_problem(path: Path, run: "Run") -> str:
    """Why a corpus program's own run is unusable ('' if it is not): it fails, prints nothing,
    or prints differently each time."""
    if not run.ok:
        return f"{path.name} fails: {run.error}"
    if not run.outputs[0].strip():
        return f"{path.name} prints nothing (a runnable program must print its results)"
    if any(o != run.outputs[0] for o in run.outputs[1:]):
        return f"{path.name} prints differently when run again"
    return ""
