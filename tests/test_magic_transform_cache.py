"""The `%%paef` body's IPython transform, remembered per text only where nothing else decides it."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

from paef_jupyter import magic


@pytest.fixture()
def shell():
    ip = InteractiveShell.instance()  # the process's one shell, as other tests share it
    magic._transforms.clear()
    yield ip
    magic._transforms.clear()


BODIES = ["x = 1\ny = 2", "%time 1\nz = 3", "a = !ls\nb = 1", "  x = 1\n  y = 2", "x?\ny = 1", "\n\nq = 1\nr = 2"]


@pytest.mark.parametrize("body", BODIES)
def test_a_multi_line_body_transforms_as_ipython_does_and_is_remembered(shell, body):
    expected = shell.transform_cell(body)
    assert magic._transformed(shell, body) == expected
    assert len(magic._transforms) == 1
    assert magic._transformed(shell, body) == expected  # the remembered one


def test_a_one_line_body_is_never_remembered(shell):
    # IPython's dynamic prefilter (autocall, which reads the namespace) applies to one line.
    assert magic._transformed(shell, "f 1") == shell.transform_cell("f 1")
    assert not magic._transforms


def test_a_users_transformer_runs_on_every_run(shell):
    runs = []

    def counting(lines: list[str]) -> list[str]:
        runs.append(1)
        return lines + [f"n = {len(runs)}\n"]

    shell.input_transformers_post.append(counting)
    try:
        assert magic._transformed(shell, "x = 1\ny = 2").endswith("n = 1\n")
        assert magic._transformed(shell, "x = 1\ny = 2").endswith("n = 2\n")
    finally:
        shell.input_transformers_post.remove(counting)
    assert not magic._transforms


def test_a_users_cleanup_transformer_is_not_bypassed(shell):
    def upper_x(lines: list[str]) -> list[str]:
        return [ln.replace("x", "X") for ln in lines]

    shell.input_transformers_cleanup.append(upper_x)
    try:
        assert "X = 1" in magic._transformed(shell, "x = 1\ny = 2")
        assert not magic._transforms
    finally:
        shell.input_transformers_cleanup.remove(upper_x)
    assert "x = 1" in magic._transformed(shell, "x = 1\ny = 2")


def test_the_extensions_own_await_transform_is_no_obstacle(shell):
    from paef_jupyter import magic_async

    magic_async.install(shell)
    try:
        body = "x = 1\ny = 2"
        assert magic._transformed(shell, body) == shell.transform_cell(body)
        assert len(magic._transforms) == 1  # remembered with it installed (as in a kernel)
        one = "%%paef\nawait f()"  # a nested cell magic: one line, rewritten by it, never remembered
        assert magic._transformed(shell, one) == shell.transform_cell(one)
        assert len(magic._transforms) == 1
    finally:
        magic_async.uninstall(shell)


def test_a_shell_that_transforms_its_own_way_is_asked_every_time(shell, monkeypatch):
    calls = []
    original = type(shell).transform_cell

    class Custom(type(shell)):
        def transform_cell(self, raw_cell):
            calls.append(raw_cell)
            return original(self, raw_cell)

    monkeypatch.setattr(shell, "__class__", Custom)
    magic._transformed(shell, "x = 1\ny = 2")
    magic._transformed(shell, "x = 1\ny = 2")
    assert len(calls) == 2 and not magic._transforms
