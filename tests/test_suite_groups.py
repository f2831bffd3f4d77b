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


def test_the_session_wide_passes_are_drawn_first_then_the_larger_units() -> None:
    from suite_groups import unit_order

    units = {"tests/test_a.py": dict.fromkeys("abcd", False), "rule-fixtures": dict.fromkeys("abcdefgh", False),
             "tests/test_b.py": dict.fromkeys("a", False), "corpus": dict.fromkeys("abc", False),
             "tests/test_c.py": dict.fromkeys("abcdefghijklm", False),
             "tests/test_magic_transparency.py": dict.fromkeys("a", False)}
    assert unit_order(units) == ["corpus", "rule-fixtures", "tests/test_magic_transparency.py", "tests/test_c.py",
                                 "tests/test_a.py", "tests/test_b.py"]


def test_the_users_of_a_pass_run_first_the_rest_in_their_order() -> None:
    from types import SimpleNamespace

    from suite_groups import passes_first

    items = [SimpleNamespace(name=n, fixturenames=f) for n, f in
             [("a", ()), ("b", ("tmp_path", "rule_fixture_rewrites")), ("c", ("tmp_path",)), ("d", ("corpus_rewrites",)),
              ("e", ())]]
    assert [i.name for i in passes_first(items)] == ["b", "d", "a", "c", "e"]


def test_this_session_runs_each_groups_pass_before_its_other_tests(request: pytest.FixtureRequest) -> None:
    names = [item.nodeid for item in request.session.items]
    users = [i for i, item in enumerate(request.session.items)
             if any(f in SHARED_FIXTURES for f in getattr(item, "fixturenames", ()))]
    if not users:
        pytest.skip("collected without the tests that share a session fixture")
    assert max(users) < min(set(range(len(names))) - set(users))
