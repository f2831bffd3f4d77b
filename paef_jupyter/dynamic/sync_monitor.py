"""GPU->CPU syncs as torch itself reports them: `set_sync_debug_mode("warn")`, per cell line.

torch warns "called a synchronizing CUDA operation" from the innermost Python frame. A sync is
the *user's* when the cell's own call made it: the innermost frame is the cell, or only
torch's tensor protocol lies between (`print(t)`, `float(t)`, `f"{t}"`, `np.asarray(t)` go
through `torch/_tensor.py` and `torch/_tensor_str.py`). A sync made inside any other library
function (an optimizer, `clip_grad_norm_`, a scheduler, `GradScaler.step`, a metrics package)
is that library's implementation: counted apart, never put on the user's line. Every `torch.cuda` call is guarded: on a CPU build `set_sync_debug_mode`
asserts whatever the mode, so there the monitor only captures (nothing will warn).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections import Counter
from typing import Any

from . import warning_memory
from .code_files import CodeFiles

SYNC_WARNING = "called a synchronizing CUDA operation"
# Files of torch's tensor protocol: a value read through them is the caller's own read.
TENSOR_PROTOCOL = tuple(
    os.path.join("torch", name) for name in ("_tensor.py", "_tensor_str.py", "overrides.py", "_utils.py")
)


def is_tensor_protocol(filename: str) -> bool:
    return filename.endswith(TENSOR_PROTOCOL)


class SyncMonitor:
    def __init__(self, files: CodeFiles, cuda: bool):
        self.files = files
        self.cuda = cuda
        self.counts: Counter[tuple[int, int]] = Counter()  # (file index, code line) -> warnings
        self.unattributed = 0
        self.library: Counter[tuple[int, int]] = Counter()  # syncs made inside library calls
        self._previous_mode: int | None = None
        self._filter: Any = None
        self._previous_show: Any = None

    def start(self) -> None:
        self._previous_show = warnings.showwarning
        warnings.showwarning = self._show
        if self.cuda:
            # Not `catch_warnings()`: restoring the whole filter list on stop would also undo
            # filters the cell itself sets meanwhile. Only our own filter comes and goes, and
            # the warnings shown before are not shown again for it (`warning_memory`). On a
            # CPU build nothing warns: the filters are left alone.
            with warning_memory.kept():
                warnings.filterwarnings("always", message=SYNC_WARNING)
            self._filter = warnings.filters[0]
            try:
                import torch

                self._previous_mode = torch.cuda.get_sync_debug_mode()
                torch.cuda.set_sync_debug_mode("warn")
            except (AssertionError, RuntimeError, AttributeError):
                self._previous_mode = None

    def stop(self) -> None:
        if self._previous_mode is not None:
            try:
                import torch

                torch.cuda.set_sync_debug_mode(self._previous_mode)
            except (AssertionError, RuntimeError, AttributeError):
                pass
            self._previous_mode = None
        if self._filter is not None:
            if self._filter in warnings.filters:
                with warning_memory.kept():
                    warnings.filters.remove(self._filter)
                    warnings._filters_mutated()  # type: ignore[attr-defined]  # as filterwarnings does
            self._filter = None
        if warnings.showwarning == self._show:
            warnings.showwarning = self._previous_show

    def _show(self, message: Any, category: Any, filename: str, lineno: int, *rest: Any, **kw: Any) -> None:
        if SYNC_WARNING not in str(message):
            self._previous_show(message, category, filename, lineno, *rest, **kw)
            return
        frame = sys._getframe(1)
        own = True  # no library frame between the sync and the cell
        while frame is not None:
            idx = self.files.index(frame.f_code.co_filename)
            if idx is not None:
                (self.counts if own else self.library)[(idx, frame.f_lineno)] += 1
                return
            name = frame.f_code.co_filename
            own = own and (is_tensor_protocol(name) or name == warnings.__file__)
            frame = frame.f_back
        self.unattributed += 1
