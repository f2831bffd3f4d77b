"""A real CUDA profile: copies, kernels and syncs on their cell lines (needs a GPU)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from dynamic_helpers import Cells  # noqa: E402

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
