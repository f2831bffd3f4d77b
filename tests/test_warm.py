"""The warm-up at `%load_ext` runs only between cells, and the profiler starts without
importing torch's compiler."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
import weakref

from paef_jupyter.dynamic import warm


def test_the_warm_up_waits_while_a_cell_runs(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(warm, "PAUSE_S", 0.05)
    gate = warm.CellGate(cell_running=True)  # `%load_ext` is itself a cell
    ran: list[str] = []
    thread = warm.warm_in_background(gate, lambda: ran.append("step"), collect=lambda: ran.append("collect"))
    time.sleep(0.3)
    assert ran == [] and thread.is_alive()
    gate.cell_ends()
    gate.cell_starts()  # the next cell, sent at once: still nothing beside it
    time.sleep(0.3)
    assert ran == []
    gate.cell_ends()
    thread.join(timeout=30)
    assert ran == ["step", "collect"] and not gate.stepping


def test_a_hurried_gate_opens_for_good(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`%paef scan` needs jedi now, from inside a cell: the warm-up must not wait for its end."""
    gate = warm.CellGate(cell_running=True)
    ran: list[int] = []
    thread = warm.warm_in_background(gate, lambda: ran.append(1), collect=lambda: None)
    gate.hurry()
    gate.cell_starts()
    thread.join(timeout=30)
    assert ran == [1]


def test_a_step_that_fails_does_not_stop_the_others() -> None:
    gate = warm.CellGate(cell_running=False)
    ran: list[int] = []
    thread = warm.warm_in_background(gate, lambda: 1 / 0, lambda: ran.append(1), collect=lambda: None)
    thread.join(timeout=30)
    assert ran == [1]


def test_full_collections_are_deferred_then_collect_everything() -> None:
    if gc.get_freeze_count():
        gc.unfreeze()

    class Node:
        pass

    node = Node()
    node.me = node  # a cycle: only the collector frees it
    ref = weakref.ref(node)
    del node
    assert warm.defer_full_collections() and gc.get_freeze_count() > 0
    gc.collect()
    assert ref() is not None  # set aside: not collected yet
    assert not warm.defer_full_collections()  # never on top of a freeze already made
    warm.collect_all()
    assert gc.get_freeze_count() == 0 and ref() is None


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_profiler_starts_without_importing_the_compiler() -> None:
    """torch's profiler asks `hasattr(torch, '_inductor')` (importing inductor and dynamo, 1-4 s)
    for a flag only inductor can set; ours records the same ops without that import, and asks
    torch as usual once inductor is in."""
    out = _run(
        "import sys, torch\n"
        "from torch.profiler import ProfilerActivity\n"
        "from paef_jupyter.dynamic.torch_profile import profile\n"
        "import torch.profiler.profiler as module\n"
        "p = profile(activities=[ProfilerActivity.CPU])\n"
        "p.start()\n"
        "(torch.ones(4) * 2).sum()\n"
        "p.stop()\n"
        "names = {e.name for e in p.events()}\n"
        "print('aten::mul' in names, 'torch._inductor' in sys.modules, 'torch._dynamo' in sys.modules,"
        " module.torch is torch)\n"
        "import torch._inductor\n"
        "q = profile(activities=[ProfilerActivity.CPU])\n"
        "q.start(); q.stop()\n"
        "print(q.has_cudagraphs == torch._inductor.config.triton.cudagraphs)\n"
    )
    assert out.splitlines() == ["True False False True", "True"]


def test_the_warm_up_imports_no_part_of_torch() -> None:
    """torch's lazy parts import each other: imported from a thread while a cell imports them
    too, one side fails halfway. The warm-up imports none of torch's."""
    out = _run(
        "import sys, torch\n"
        "from paef_jupyter.dynamic import warm\n"
        "from paef_jupyter.static import warm as jedi\n"
        "from paef_jupyter.ui.warm import warm_view\n"
        "before = {m for m in sys.modules if m.startswith('torch')}\n"
        "warm.warm_in_background(warm.CellGate(cell_running=False), warm_view, lambda: jedi(background=False)).join()\n"
        "print(sorted({m for m in sys.modules if m.startswith('torch')} - before))\n"
    )
    assert out == "[]"

