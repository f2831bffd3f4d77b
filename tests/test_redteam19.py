"""Red team 19's findings across units: a local module re-exporting `contextlib.suppress` (or
`ExitStack`) under another name, around a loop whose running `.item()` total host-sync reads back
after the loop (an exception the manager swallows skips the read-back). The other category of
red team 19 (a summing method whose result the caller back-propagates through an attribute call)
lives in one unit: its fixtures are under `tests/fixtures/rules/eval-without-no-grad/`."""

from __future__ import annotations

from pathlib import Path

from managed_loop import managed_loop
from paef_cli import proved_lines

GUARDS = """import contextlib
from contextlib import ExitStack as Stack
from contextlib import suppress as ignore_errors


def skip_bad_batches(*kinds):
    return ignore_errors(*kinds)


def quiet_timer():
    return contextlib.nullcontext()
"""
def _main(manager: str) -> str:
    return managed_loop("import guards\nfrom guards import Stack, ignore_errors, skip_bad_batches\n", manager)


def test_suppress_reexported_by_a_local_module_is_for_review(tmp_path: Path) -> None:
    """`from guards import ignore_errors` is `contextlib.suppress`. Fails on aed3c4f (line 17)."""
    files = {"main.py": _main("ignore_errors(FloatingPointError)"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == []


def test_suppress_reexported_reached_through_the_module_is_for_review(tmp_path: Path) -> None:
    """`guards.ignore_errors(...)`. Fails on aed3c4f (line 17)."""
    files = {"main.py": _main("guards.ignore_errors(FloatingPointError)"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == []


def test_an_exit_stack_reexported_by_a_local_module_is_for_review(tmp_path: Path) -> None:
    """`Stack()` is `contextlib.ExitStack` (it may hold a `suppress`). Fails on aed3c4f (line 17)."""
    files = {"main.py": _main("Stack()"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == []


def test_a_local_function_returning_nullcontext_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: `guards.quiet_timer()` returns `nullcontext()`, which swallows nothing."""
    files = {"main.py": _main("guards.quiet_timer()"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == [17]

