"""The work units of `make test`'s parallel part (one xdist worker each; `conftest.py` gives
them to xdist): a file, or a group of tests that share a session's work.

Groups: the corpus pass, the rule fixtures' pool (and the jedi answers it shares with the
per-rule tests), the browser's Jupyter servers. By node id, since xdist's controller sees no
fixtures (and its own `xdist_group` marks do not reach pytest 9's node ids);
`test_suite_groups.py` checks that every user of a shared fixture is in its group.
"""

from __future__ import annotations

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


def group_of(nodeid: str) -> str:
    path, _, test = nodeid.partition("::")
    file = path.rsplit("/", 1)[-1]
    return _GROUP_OF_TEST.get(f"{file}::{test.split('[', 1)[0]}") or _GROUP_OF_FILE.get(file, path)
