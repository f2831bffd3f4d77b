"""Every rule fixture rewritten once by all rules, and run before and after, two processes at
a time, for `test_rewrite_safety`.

Those analyses and runs are most of that test's time; in the test's own process they would
leave one of the two cores idle. A data-parallel fixture's runs stay in the test's process
(its ranks come from the suite's fork server).
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
    ran: bool = False  # run before and after here; else the test runs it (if it should run)
    differs: str = ""  # how the rewrite's `result` differs, or why a run failed ('' if same)


def rewrite_fixture(path: str) -> FixtureRewrite:
    from corpus_rewrites import rewrite_all
    from ddp_runner import is_ddp_program
    from paef_jupyter.model import CellRef, SourceUnit
    from rule_fixtures import assert_same, run_fixture
    from paef_jupyter.static.types import JediOracle

    known = JediOracle.share_answers()
    before = len(known)
    text = Path(path).read_text()
    try:
        [done] = rewrite_all([SourceUnit(CellRef(path), text)])
    except Exception:  # noqa: BLE001 - reported against the fixture
        return FixtureRewrite("", False, traceback.format_exc())
    jedi = tuple(islice(known.items(), before, None))
    if not done.applied or "result" not in text or is_ddp_program(text):
        return FixtureRewrite(done.text, bool(done.applied), jedi=jedi)
    try:
        assert_same(run_fixture(text, path), run_fixture(done.text, f"{path} (rewritten)"))
        differs = ""
    except BaseException:  # noqa: BLE001 - an AssertionError, or the code raised: the test reports it
        differs = traceback.format_exc()
    return FixtureRewrite(done.text, True, jedi=jedi, ran=True, differs=differs)


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
