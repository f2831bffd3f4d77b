"""The warm-up at `%load_ext` makes a first cell wait only for what that cell itself needs."""

from __future__ import annotations

import threading

import torch

from paef_jupyter.dynamic import warm


def test_only_the_profiler_session_holds_the_profilers_turn(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A cell starting its profiler waits for the warm-up's short session, never for the
    optimizer's lazy imports (seconds on a busy box), which only an optimizer needs."""
    monkeypatch.setattr(warm, "_done", threading.Event())
    held: list[bool] = []
    real = torch.optim.Adam

    def adam(*args, **kwargs):  # type: ignore[no-untyped-def]
        held.append(warm._lock.locked())
        return real(*args, **kwargs)

    monkeypatch.setattr(torch.optim, "Adam", adam)
    thread = warm.warm_in_background(lambda: None)
    thread.join(timeout=120)
    assert not thread.is_alive() and held == [False]
    assert warm._done.is_set() and not torch.autograd.profiler._is_profiler_enabled


def test_a_cell_that_starts_first_skips_the_profiler_session(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(warm, "_done", threading.Event())
    started: list[int] = []
    monkeypatch.setattr(torch.profiler.profile, "start", lambda self: started.append(1))
    warm.before_cell()
    warm.warm_profiler()
    assert started == []
