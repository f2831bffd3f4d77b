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


def _run(code: str) -> str:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_warm_up_thread_imports_no_part_of_torch() -> None:
    """torch._inductor and torch._dynamo import each other: imported from the warm-up thread
    while a cell imported them too, one side failed halfway (an ImportError in the user's
    first optimizer step, or 'the profiler could not start'). They are imported in the
    kernel's thread; the thread then imports nothing of torch's."""
    out = _run(
        "import sys, torch\n"
        "from paef_jupyter.dynamic import warm\n"
        "assert warm.import_lazy_torch()\n"
        "before = {m for m in sys.modules if m.startswith('torch')}\n"
        "warm.warm_in_background(lambda: None).join()\n"
        "print(sorted({m for m in sys.modules if m.startswith('torch')} - before))\n"
    )
    assert out == "[]"


def test_a_kernel_without_torch_gets_no_torch_from_the_warm_up() -> None:
    """Importing torch is the user's to do: no torch step runs, the cell's profiler pays."""
    out = _run(
        "import sys\n"
        "from paef_jupyter.dynamic import warm\n"
        "print(warm.import_lazy_torch(), 'torch' in sys.modules)\n"
        "warm.warm_in_background(lambda: None, torch_ready=False).join()\n"
        "print('torch' in sys.modules, warm._done.is_set())\n"
    )
    assert out.splitlines() == ["False False", "False True"]


def test_torch_imported_after_load_ext_is_warmed_between_cells() -> None:
    """`%load_ext` before `import torch` (the usual order): torch's lazy parts are imported
    after the cell that imported torch, and the next cell starts only once they are in."""
    out = _run(
        "import sys\n"
        "from paef_jupyter.dynamic.warm import TorchWarmUp\n"
        "w = TorchWarmUp()\n"
        "print(w.now())\n"
        "w.after_cell(None)\n"  # a cell without torch: nothing to do
        "import torch\n"
        "w.after_cell(None)\n"
        "w.before_cell(None)\n"
        "print(all(f'torch.{p}' in sys.modules for p in ('_inductor', '_dynamo')))\n"
    )
    assert out.splitlines() == ["False", "True"]
