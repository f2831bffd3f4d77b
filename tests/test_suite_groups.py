"""The parallel part's work units (`suite_groups.group_of`) keep each shared session fixture in one
worker: a test that uses one outside its group would run the whole pass again in the other."""

from __future__ import annotations

import pytest

from suite_groups import SHARED_FIXTURES, group_of


def test_every_user_of_a_shared_fixture_is_in_its_group(request: pytest.FixtureRequest) -> None:
    users = [(item.nodeid, group) for item in request.session.items
             for fixture, group in SHARED_FIXTURES.items() if fixture in getattr(item, "fixturenames", ())]
    if not users:
        pytest.skip("collected without the tests that share a session fixture")
    assert [(nodeid, group_of(nodeid)) for nodeid, group in users if group_of(nodeid) != group] == []


def test_a_file_is_one_unit_unless_grouped() -> None:
    assert group_of("tests/test_model.py::test_hint_is_not_fixable") == "tests/test_model.py"
    assert group_of("tests/test_rules.py::test_positive[host-sync/pos_a.py]") == "rule-fixtures"
    assert group_of("tests/test_rewrite_safety.py::test_every_corpus_program_rewrites_safely[a.py]") == "corpus"
