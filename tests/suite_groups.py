"""The work units of `make test`'s parallel part (one xdist worker each; `conftest.py` gives
them to xdist): a file, or a group of tests that share a session's work.

Groups: the corpus pass, the rule fixtures' pool (and the jedi answers it shares with the
per-rule tests), the browser's Jupyter servers. By node id, since xdist's controller sees no
fixtures (and its own `xdist_group` marks do not reach pytest 9's node ids);
`test_suite_groups.py` checks that every user of a shared fixture is in its group.
"""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

T = TypeVar("T")

SHARED_FIXTURES = {"corpus_rewrites": "corpus", "rule_fixture_rewrites": "rule-fixtures"}
_GROUP_OF_TEST = {
    "test_corpus.py::test_runnable_programs_run_print_and_compare_deterministically": "corpus",
    "test_fix_idempotent.py::test_fix_twice_is_a_no_op_on_every_corpus_program": "corpus",
    "test_rewrite_safety.py::test_every_corpus_program_rewrites_safely": "corpus",
}
_GROUP_OF_FILE = {
    "test_rules.py": "rule-fixtures", "test_rule_overlap.py": "rule-fixtures",
    "test_fix_idempotent.py": "rule-fixtures", "test_rewrite_safety.py": "rule-fixtures",
    "test_ui_browser.py": "browser", "test_cell_edit.py": "browser",
}


# The units that hold a session-wide pass or servers, drawn first whatever their number of tests: a
# worker that drew one of them last would run it while the other, its queue empty, idles (xdist orders
# units by their number of tests: the two passes came first by chance, the browser's unit 71st of 165).
FIRST = ("corpus", "rule-fixtures", "browser")
# Then files of a few tests that each start a kernel or run programs in new interpreters (CPU seconds
# of the file, children included, measured in session 65): by their number of tests they were the last
# units drawn, the run's tail (`test_magic_transparency` the very last) with one worker idle.
SLOW_FOR_THEIR_SIZE = ("tests/test_magic_memory.py", "tests/test_pub46.py", "tests/test_magic_transparency.py",
                       "tests/test_paef_cli_runs.py", "tests/test_redteam24.py", "tests/test_fuzz.py",
                       "tests/test_redteam26.py", "tests/test_score_culprits.py", "tests/test_determinism.py")


def group_of(nodeid: str) -> str:
    path, _, test = nodeid.partition("::")
    file = path.rsplit("/", 1)[-1]
    return _GROUP_OF_TEST.get(f"{file}::{test.split('[', 1)[0]}") or _GROUP_OF_FILE.get(file, path)


def unit_order(units: dict[str, dict[str, bool]]) -> list[str]:
    """The order the workers draw the units in: `FIRST`, `SLOW_FOR_THEIR_SIZE`, then the others by
    number of tests, most first (xdist's own order), so the last units drawn are small and quick."""
    known = FIRST + SLOW_FOR_THEIR_SIZE
    return sorted(units, key=lambda unit: (known.index(unit) if unit in known else len(known), -len(units[unit])))


def passes_first(items: Sequence[T]) -> list[T]:
    """`items` (pytest's) with the users of a shared session fixture first, the rest in their order
    (stable): a worker runs a unit's tests in collection order, and the pass's answers (jedi's, shared
    process-wide) then serve the rest of its group instead of being asked again before it."""
    def uses_a_pass(item: Any) -> bool:
        return any(f in SHARED_FIXTURES for f in getattr(item, "fixturenames", ()))

    return sorted(items, key=lambda item: not uses_a_pass(item))
