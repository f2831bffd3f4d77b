"""`paef fix` is stable: what a second `paef fix` of a rewrite would still do.

Shared by `test_fix_idempotent` (demos, rule fixtures) and the corpus pass of
`corpus_rewrites`, which checks every corpus program in the same analysis that rewrites it.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable

from paef_jupyter import api
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import Finding, Report, SourceUnit


def _written_lines(old: str, new: str) -> set[int]:
    """1-based lines of `new` that the rewrite inserted or changed."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    return {j + 1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal" for j in range(j1, j2)}


def _on(finding: Finding, lines: set[int]) -> bool:
    return any(finding.line <= n <= max(finding.end_line, finding.line) for n in lines)


def problems(units: list[SourceUnit], fixed: list[SourceUnit], writers: list[set[str]], left: Report,
             before: Callable[[], Report], rules: set[str] | None = None) -> list[str]:
    """What a second `paef fix` of `fixed` (`units` after the fixes of the rules `writers[i]`
    in unit i; `left` its analysis, `before` that of `units`) would still apply, from `rules`
    (default all), or report anew on a rewritten line. Other rules may report a rewritten line:
    one fix can uncover another (a hoisted constant makes the loop using it vectorisable), which
    is why `api.rewrite` re-analyses."""
    found: list[str] = []
    for unit, out, wrote in zip(units, fixed, writers):
        mine = [f for f in left.top(len(left.findings)) if f.ref.key == out.ref.key]
        _, done, _ = apply_findings(out.text, [f for f in mine if rules is None or f.rule in rules])
        found += [f"a second fix applies {f.rule} at line {f.line}: {f.message[:120]}" for f in done]
        written = _written_lines(unit.text, out.text)
        suspects = [f for f in mine if f.rule in wrote and _on(f, written)]
        if not suspects:
            continue
        known = Counter((f.rule, f.message) for f in before().findings if f.ref.key == unit.ref.key)
        found += [
            f"{f.rule} reports its own rewrite at line {f.line} (cell {f.ref.cell}): {f.message[:120]}"
            for f in suspects
            if known[(f.rule, f.message)] == 0  # else the same concern as before the fix, left by it
        ]
    return found


def rewrite_and_recheck(units: list[SourceUnit]) -> tuple[list[Any], list[str]]:
    """`api.rewrite(units)` and what a second `paef fix` of its output would still do; the
    analyses `api.rewrite` makes are reused (its first is of `units`, its last of the output
    when it ended with nothing left to apply). Remembered per source: a demo is checked by
    test_rewrite_safety and test_fix_idempotent alike (a dozen seconds each)."""
    rewrites, found = _rewrite_and_recheck(tuple(units))
    return list(rewrites), list(found)


@lru_cache(maxsize=64)
def _rewrite_and_recheck(sources: tuple[SourceUnit, ...]) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    units = list(sources)
    analyze = api.analyze
    reports: list[Report] = []

    def recorded(*args: Any, **kwargs: Any) -> Report:
        reports.append(analyze(*args, **kwargs))
        return reports[-1]

    api.analyze = recorded
    try:
        rewrites = api.rewrite(units)
    finally:
        api.analyze = analyze
    if not any(r.applied for r in rewrites):
        return tuple(rewrites), ()  # a second run would be this same run
    fixed = [replace(r.unit, text=r.text) for r in rewrites]
    last = reports[-1]
    # `api.rewrite` stops after an analysis of its final text that applies nothing; else it ran out of rounds.
    left = last if [u.text for u in last.sources] == [u.text for u in fixed] else analyze(fixed)
    return tuple(rewrites), tuple(problems(units, fixed, [{f.rule for f in r.applied} for r in rewrites], left,
                                           lambda: reports[0]))
