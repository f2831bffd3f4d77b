"""Issue 11, item 6: the first Ctrl-C of the first `%%paef` in a kernel interrupts, whenever it
lands: while the extension's warm-up (jedi, in a thread) still runs beside the cell, while the
profiler starts or records the window, or after it."""

from __future__ import annotations

import json
import os
import queue
import signal
import time

import pytest
from test_magic import Kernel

pytestmark = pytest.mark.kernel

# A long loop that allocates (so the collector runs, finalizing the warm-up's garbage in this
# thread) and records, at each iteration, whether the warm-up thread is still alive.
FIRST_CELL = """%%paef
import threading
print('started', flush=True)
for i in range(10_000_000):
    warming = any(t.name == 'paef-warm' for t in threading.enumerate())
    y = torch.ones(8) * i
    junk = [{'k': [i, str(i)]} for _ in range(20)]
"""


# The warm-up's profiler step stalled (as on a loaded box, where it took 5 s here): the cell's
# profiler waits for it to end, and a Ctrl-C that SIGINT delivered to another thread used to
# wait with it.
STALLED_WARM_UP = ("import time\n_adam_step = torch.optim.Adam.step\n"
                   "def _stalled(self, *a, **kw):\n    time.sleep(20)\n    return _adam_step(self, *a, **kw)\n"
                   "torch.optim.Adam.step = _stalled")


@pytest.mark.parametrize("delay, stalled", [
    (0.0, False), (0.3, False), (1.0, False), (3.0, False),
    # Interrupted while its profiler waits for the warm-up's: the report used to wait for the
    # whole warm-up (jedi's too) before the KeyboardInterrupt was raised.
    (1.0, True),
])
def test_the_first_interrupt_of_the_first_cell_interrupts(delay, stalled, tmp_path):
    k = Kernel()
    stacks = tmp_path / "stacks.txt"
    try:
        # Where the kernel's threads are if the interrupt is lost (SIGUSR1, below).
        k.ok(f"import faulthandler, signal\n_stacks = open({str(stacks)!r}, 'w')\n"
             "faulthandler.register(signal.SIGUSR1, file=_stacks, all_threads=True)")
        k.ok("import torch\ntorch.set_num_threads(1)")
        if stalled:
            k.ok(STALLED_WARM_UP)
        load = k.send("%load_ext paef_jupyter")
        first = k.send(FIRST_CELL)
        k.collect(load)
        k.collect(first, until_stdout="started")
        time.sleep(delay)
        k.km.interrupt_kernel()
        sent = time.monotonic()
        try:
            r = k.collect(first, timeout=60)
        except queue.Empty:
            pytest.fail(f"the interrupt sent {delay} s after the cell started was lost: the cell ran on\n"
                        + _where_the_kernel_is(k, first, stacks))
        took = time.monotonic() - sent
        assert r.status == "error" and r.reply["ename"] == "KeyboardInterrupt", (delay, r.reply, r.outputs)
        if stalled:
            assert took < 10, f"the interrupt took {took:.1f} s: it waited for the warm-up"
            k.ok("torch.optim.Adam.step = _adam_step")
        shown = "\n".join(r.reply["traceback"])
        assert "Unexpected exception" not in shown and "collector" not in shown and "line_tracer" not in shown
        state = json.loads(k.ok(
            "import json, torch.autograd.profiler as P\n"
            "print(json.dumps({'i': globals().get('i', -1), 'warming': globals().get('warming'), "
            "'profiler_on': bool(P._is_profiler_enabled)}))"
        ).stdout())
        assert state["i"] < 10_000_000 - 1 and not state["profiler_on"], state
        if delay == 0.0:
            print("interrupted while the warm-up ran beside the cell:", state["warming"])
        k.ok("%%paef -q\nfor j in range(30):\n    y = torch.ones(3) * j")
        profile = json.loads(k.ok("r = %paef last\nprint(json.dumps([r.profile.mode, r.profile.profiled_iterations]))")
                             .stdout())
        assert profile[0] == "window" and profile[1] > 0, profile
    finally:
        k.close()


def _where_the_kernel_is(k: Kernel, cell: str, stacks) -> str:
    """The kernel's thread stacks at the loss, then what a second interrupt brought out."""
    os.kill(k.km.provisioner.process.pid, signal.SIGUSR1)
    time.sleep(2)
    where = stacks.read_text()
    k.km.interrupt_kernel()
    try:
        after = k.collect(cell, timeout=30)
        then = f"a second interrupt ended it ({after.status}); its outputs: {json.dumps(after.outputs)[:4000]}"
    except queue.Empty:
        then = "a second interrupt was lost too"
    return f"thread stacks at the loss:\n{where}\n{then}"


# `%load_ext` first, `import torch` in the next cell, and a training cell sent at once after it:
# torch's lazy parts load between the two (never beside user code), and both the user's first
# optimizer step and the cell's profiler start find them whole.
TRAIN = """%%paef
model = torch.nn.Linear(4, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(30):
    loss = model(torch.ones(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_torch_imported_after_load_ext_and_a_cell_sent_at_once():
    k = Kernel()
    try:
        k.ok("%load_ext paef_jupyter")
        imported = k.send("import torch\ntorch.set_num_threads(1)")
        train = k.send(TRAIN)
        k.collect(imported)
        r = k.collect(train, timeout=120)
        assert r.status == "ok", r.reply
        profile = json.loads(k.ok("import json\nr = %paef last\nprint(json.dumps([r.profile.mode, r.profile.notes]))").stdout())
        assert profile[0] == "window" and not any("could not start" in n for n in profile[1]), profile
    finally:
        k.close()
