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


def test_torch_imported_after_load_ext_gets_its_lazy_parts_when_the_kernel_is_idle() -> None:
    """`%load_ext` before `import torch`: the lazy parts are imported in the kernel's thread
    after the cell that imported torch, on the event loop (not inside the first profiler's
    start, in the user's loop); once, and never before torch is there."""
    out = _run(
        "import asyncio, sys\n"
        "from IPython.core.events import EventManager, available_events\n"
        "from paef_jupyter.dynamic import warm\n"
        "events = EventManager(None, available_events)\n"
        "later = warm.LazyTorchLater(events)\n"
        "events.trigger('post_run_cell', None)\n"
        "later.now()\n"
        "print('torch' in sys.modules, len(events.callbacks['post_run_cell']))\n"
        "async def cell():\n"
        "    import torch\n"
        "    events.trigger('post_run_cell', None)\n"
        "    print('torch._dynamo' in sys.modules, len(events.callbacks['post_run_cell']))\n"
        "    await asyncio.sleep(0)\n"
        "    print('torch._dynamo' in sys.modules)\n"
        "asyncio.run(cell())\n"
    )
    assert out.splitlines() == ["False 1", "False 0", "True"]


def test_a_profiled_cell_imports_the_lazy_parts_before_its_code() -> None:
    """Without an event loop (terminal IPython) the next profiled cell does it, before its code."""
    out = _run(
        "import sys\n"
        "from IPython.core.events import EventManager, available_events\n"
        "from paef_jupyter.dynamic import warm\n"
        "events = EventManager(None, available_events)\n"
        "later = warm.LazyTorchLater(events)\n"
        "import torch\n"
        "events.trigger('post_run_cell', None)\n"
        "print('torch._dynamo' in sys.modules)\n"
        "later.now()\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    assert out.splitlines() == ["False", "True"]
