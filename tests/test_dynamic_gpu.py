"""A real CUDA profile: copies, kernels and syncs on their cell lines (needs a GPU)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from dynamic_helpers import Cells, comparable_events, without_span  # noqa: E402

from paef_jupyter.dynamic.build import build_profile  # noqa: E402
from paef_jupyter.dynamic.line_tracer import LoopTarget  # noqa: E402
from paef_jupyter.model import CellRef  # noqa: E402

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]

CELL = CellRef("gpu.ipynb", 1, "g1")
TEXT = """\
import torch
w = torch.randn(256, 256, device="cuda")
for i in range(40):
    x = torch.randn(64, 256).to("cuda")
    y = (x @ w).relu()
    v = y.sum().item()
"""


def test_cuda_profile_attributes_copies_kernels_and_syncs():
    cells = Cells()
    code = cells.add(TEXT, CELL)
    run = cells.run(code, LoopTarget(CELL, 3, 6, "range(40)"), warmup=2, window=4)
    assert run.error is None and run.device == "cuda"
    profile = build_profile(run)
    copy = profile.line(CELL, 4)
    assert copy.h2d_copies == 4 and copy.h2d_bytes == 4 * 64 * 256 * 4 and copy.pageable_copies == 4
    assert profile.line(CELL, 5).gpu_time_s > 0  # the matmul and relu kernels
    item = profile.line(CELL, 6)
    assert item.syncs == 4 and item.d2h_copies == 4
    assert item.sync_warnings >= 4  # set_sync_debug_mode("warn"), put on the cell line
    assert profile.gpu_idle_share is not None and 0 <= profile.gpu_idle_share <= 1
    assert any(f.kind == "kernel" for f in profile.gpu_tree.walk())
    assert torch.cuda.get_sync_debug_mode() == 0  # restored
    assert not torch.autograd.profiler._is_profiler_enabled


def test_a_cuda_trace_read_in_memory_is_what_the_chrome_export_writes(tmp_path):
    """CUDA runs read the Chrome export today (`collector._read`); this is the check that would
    let them read in memory too: device kernels, memcpy kinds and bytes, runtime correlations."""
    from torch.profiler import ProfilerActivity, profile

    from paef_jupyter.dynamic.trace_events import from_activities, load_chrome_trace

    w = torch.randn(64, 64, device="cuda")
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(3):
            y = (torch.randn(32, 64).to("cuda") @ w).relu()
            y.sum().item()
    read = from_activities(prof.profiler.kineto_results.trace_activities(), main_tid=7)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    exported = without_span(load_chrome_trace(str(path), main_tid=7))
    assert {"kernel", "gpu_memcpy", "cuda_runtime"} <= {e.cat for e in read.events}
    assert comparable_events(read) == comparable_events(exported)
