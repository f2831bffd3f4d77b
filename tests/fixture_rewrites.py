"""Every rule fixture rewritten once by all rules, two processes at a time, for
`test_rewrite_safety`.

Those analyses are most of that test's time; run in the test's own process they would leave
one of the two cores idle. The fixtures' runs before and after stay in the test's process
(a data-parallel fixture starts ranks of its own).
"""

from __future__ import annotations

import traceback
from itertools import islice
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FixtureRewrite:
    text: str  # after every automatic fix
    applied: bool
    error: str = ""  # why rewriting failed (a traceback), '' if it did not
    jedi: tuple = ()  # jedi's answers learnt on the way (`JediOracle.share_answers`)


def rewrite_fixture(path: str) -> FixtureRewrite:
    from corpus_rewrites import rewrite_all
    from paef_jupyter.model import CellRef, SourceUnit
    from paef_jupyter.static.types import JediOracle

    known = JediOracle.share_answers()
    before = len(known)
    try:
        [done] = rewrite_all([SourceUnit(CellRef(path), Path(path).read_text())])
    except Exception:  # noqa: BLE001 - reported against the fixture
        return FixtureRewrite("", False, traceback.format_exc())
    return FixtureRewrite(done.text, bool(done.applied), jedi=tuple(islice(known.items(), before, None)))


def rewrite_fixtures(paths: list[Path]) -> dict[Path, FixtureRewrite]:
    """Rewritten in two processes; what jedi answered them is shared with this process (the
    suite asks the same questions of the same fixtures again, one rule at a time)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from paef_jupyter.static.types import JediOracle

    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        done = dict(zip(paths, pool.map(rewrite_fixture, map(str, paths), chunksize=8)))
    for rewrite in done.values():
        JediOracle.share_answers(rewrite.jedi)
    return done
