"""Rewrite every corpus program once, two processes at a time, for `test_rewrite_safety`.

The analysis of ~190 programs is most of that test's time: done in a process pool it uses
both cores, and the programs' before/after runs are batched (`score_corpus.run_all`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

RUNNABLE = "# corpus: runnable"


def rewrite_all(units: list) -> list:
    """The default rewrite (checked: compiles), and the `--unsafe` one when any fix needs review."""
    from paef_jupyter import api
    from paef_jupyter.fix.apply import check_compiles

    done = api.rewrite(units)
    for r in done:
        check_compiles(_masked(r.text))
    if any(r.review for r in done):
        for r in api.rewrite(units, unsafe=True):
            check_compiles(_masked(r.text))
    return done


def _masked(text: str) -> str:
    from paef_jupyter.source import mask

    masked = mask(text)
    return masked.text if masked.python else "pass"


def rewrite_program(program: str, out: str) -> tuple[str, list[tuple[str, str]]]:
    """Rewrite `program` into `out`: (why it failed or '', the (before, after) files to run).

    A directory is copied whole and its modules rewritten in place; a file is written to
    `out` only when a rewrite applied. Files to run are the runnable `.py` files of a program
    whose rewrite changed something.
    """
    from paef_jupyter.units import read_units

    source, target = Path(program), Path(out)
    if source.is_dir():
        before, after = target / "before", target / "after"
        shutil.copytree(source, before)
        shutil.copytree(source, after)
        files = [(before / f.relative_to(after), f) for f in sorted(after.rglob("*.py"))]
    else:
        target.mkdir(parents=True, exist_ok=True)
        files = [(source, target / source.name)]
    runs, changed = [], False
    for original, rewritten in files:
        try:
            [*done] = rewrite_all(read_units(str(rewritten if source.is_dir() else original)))
        except Exception as exc:  # noqa: BLE001 - reported against the program
            return f"{original.name}: {type(exc).__name__}: {exc}", []
        changed = changed or any(r.applied for r in done)
        if original.suffix != ".py":
            continue
        if source.is_dir() or done[0].applied:
            rewritten.write_text(done[0].text)
        if RUNNABLE in original.read_text()[:500] and rewritten.exists():
            runs.append((str(original), str(rewritten)))
    return "", runs if changed else []
