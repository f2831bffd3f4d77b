"""`%%paef` on cells with top-level `await` (issue 11, item 7), in a real ipykernel: each runs
as the same cell runs without the magic (namespace, value, output, exception), profiled."""

from __future__ import annotations

import json
import re
import time

import pytest
from test_magic import Kernel

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def kernel():
    k = Kernel()
    k.ok("%load_ext paef_jupyter\nimport asyncio, torch\ntorch.set_num_threads(1)")
    yield k
    k.close()


AWAITING = {
    "sleep": "await asyncio.sleep(0)\nprint('slept')",
    "value": "async def answer():\n    await asyncio.sleep(0.01)\n    return 41\nv = await answer()\nv + 1",
    "async comprehension": (
        "async def agen(n):\n    for i in range(n):\n        await asyncio.sleep(0)\n        yield i * i\n"
        "squares = [s async for s in agen(4)]\nsquares"
    ),
    "error after await": "await asyncio.sleep(0)\nraise ValueError('after the await')",
    # A future of the kernel's own loop, made by an earlier cell: awaited on any other loop it fails.
    "the kernel's loop": "await fut",
}


def _shown(result) -> tuple:
    error = result.error()
    return (result.status, result.stdout(), result.value(),
            (error["ename"], error["evalue"]) if error else None)


@pytest.mark.parametrize("flags", ["-q", "--no-profile -q"])
@pytest.mark.parametrize("name", list(AWAITING))
def test_a_cell_that_awaits_runs_as_without_the_magic(kernel, name, flags):
    body = AWAITING[name]
    setup = ("fut = asyncio.get_running_loop().create_future()\n"
             "asyncio.get_running_loop().call_later(0.05, fut.set_result, 'from the kernel loop')")
    kernel.ok(setup)
    plain = kernel.run(body)
    kernel.ok(setup)
    magic = kernel.run(f"%%paef {flags}\n{body}")
    assert _shown(magic) == _shown(plain)
    assert plain.status == ("error" if name == "error after await" else "ok")
    if magic.status == "error":
        shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(magic.error()["traceback"]))
        assert "after the await" in shown and "----> 3" in shown  # the cell's own line, with the magic line counted
        assert "magic_async" not in shown and "run_steps" not in shown and "collector" not in shown
    if "--no-profile" not in flags:
        mode = kernel.ok("_r = %paef last\nprint(_r.profile.mode)").stdout().strip()
        assert mode in ("full", "window")


def test_a_torch_loop_in_an_async_function_is_profiled_and_analysed(kernel):
    r = kernel.ok(
        "%%paef -q\nasync def train():\n    x = torch.ones(4)\n    for step in range(40):\n"
        "        x = torch.tensor(x.tolist()) * 1.0\n        await asyncio.sleep(0)\n    return float(x.sum())\n"
        "await train()"
    )
    assert r.value() == "4.0"
    info = json.loads(kernel.ok(
        "import json\nr = %paef last\nprint(json.dumps({'mode': r.profile.mode, 'n': r.profile.profiled_iterations, "
        "'lines': {l.line: l.cpu_time_s for l in r.profile.lines}, 'rules': [(f.rule, f.line) for f in r.findings]}))"
    ).stdout())
    assert info["mode"] == "window" and info["n"] >= 3, info  # the loop in the awaited function is windowed
    assert info["lines"].get("5", 0) > 0, info  # its ops land on their line, across the awaits
    assert ["ping-pong", 5] in info["rules"], info


def test_ctrl_c_in_an_awaiting_cell_stops_it_and_leaves_no_profiler(kernel):
    msg_id = kernel.send("%%paef\nprint('waiting', flush=True)\nfor i in range(300):\n    await asyncio.sleep(0.1)")
    kernel.collect(msg_id, until_stdout="waiting")
    time.sleep(0.5)
    kernel.km.interrupt_kernel()
    r = kernel.collect(msg_id, timeout=60)
    assert r.status == "error"
    assert int(kernel.ok("print(i)").stdout()) < 299
    assert kernel.ok("import torch.autograd.profiler as P\nprint(P._is_profiler_enabled)").stdout() == "False\n"
    kernel.ok("%%paef -q\nfor j in range(30):\n    y = torch.ones(3) * j\n    await asyncio.sleep(0)")
    assert kernel.ok("_r = %paef last\nprint(_r.profile.mode)").stdout() == "window\n"


def test_with_autoawait_off_an_await_is_the_same_syntax_error_as_without_the_magic(kernel):
    kernel.ok("%autoawait off")
    try:
        plain = kernel.run("await asyncio.sleep(0)")
        magic = kernel.run("%%paef -q\nawait asyncio.sleep(0)")
    finally:
        kernel.ok("%autoawait on")
    assert plain.status == magic.status == "error"
    assert plain.reply["ename"] == "SyntaxError"
    shown = "\n".join(o.get("text", "") + "\n".join(o.get("traceback", [])) for o in magic.outputs)
    assert "SyntaxError" in shown and "outside function" in shown
