"""Issue 11, item 5: memory added by `%%paef` stays under 300 MB whatever the cell does,
measured in a real kernel (peak resident size over the plain run's peak)."""

from __future__ import annotations

import json

import pytest
from test_magic import Kernel

pytestmark = pytest.mark.kernel

HELPER = "def chunk(x, n):\n    for _ in range(n):\n        x = x + 1\n    return x\n"
CELLS = {
    # 50k tiny ops (5 profiler events each) per iteration of the windowed loop: 500k in all.
    "cell loop": "x = torch.zeros(1)\nfor epoch in range(10):\n    for j in range(50000):\n        x = x + 1",
    # The same ops in a module's loop: no cell line runs while they are recorded.
    "library loop": "import helper_ops\nx = torch.zeros(1)\nfor epoch in range(10):\n    x = helper_ops.chunk(x, 50000)",
    # No loop to window: 300k iterations of one line.
    "comprehension": "one = torch.ones(1)\nx = [one + i for i in range(300000)]",
}


@pytest.mark.parametrize("name", list(CELLS))
def test_many_tiny_ops_are_capped_in_memory(name, tmp_path):
    (tmp_path / "helper_ops.py").write_text(HELPER)
    cell = CELLS[name]
    k = Kernel()
    try:
        k.ok(f"%load_ext paef_jupyter\nimport sys, gc, resource, torch\nsys.path.insert(0, {str(tmp_path)!r})\n"
             "torch.set_num_threads(1)\n"
             "def peak_mb():\n    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024\n")
        k.ok("%%paef -q\nfor i in range(5):\n    y = torch.ones(2) + 1")  # jedi, the profiler: paid once
        k.ok(f"{cell}\ndel x\ngc.collect()\nplain_peak = peak_mb()", timeout=300)
        k.ok(f"%%paef -q\n{cell}", timeout=300)
        info = json.loads(k.ok(
            "import json, torch.autograd.profiler as P\ndel x\ngc.collect()\nr = %paef last\n"
            "print(json.dumps({'added': peak_mb() - plain_peak, 'notes': r.profile.notes, "
            "'on': bool(P._is_profiler_enabled)}))").stdout())
    finally:
        k.close()
    print(f"%%paef on {name}: +{info['added']} MB peak; notes {info['notes']}")
    assert any("cap on the profiled part" in n for n in info["notes"]), info
    assert not info["on"]
    assert info["added"] < 300, info
