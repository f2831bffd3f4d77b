"""GPU->CPU syncs as torch itself reports them: `set_sync_debug_mode("warn")`, per cell line.

torch warns "called a synchronizing CUDA operation" from the innermost Python frame, which is
often library code; the hook walks the stack to the innermost *cell* frame so the sync lands
on the user's line. Every `torch.cuda` call is guarded: on a CPU build `set_sync_debug_mode`
asserts whatever the mode, so there the monitor only captures (nothing will warn).
"""

from __future__ import annotations

import sys
import warnings
from collections import Counter
from typing import Any

from .code_files import CodeFiles

SYNC_WARNING = "called a synchronizing CUDA operation"


class SyncMonitor:
    def __init__(self, files: CodeFiles, cuda: bool):
        self.files = files
        self.cuda = cuda
        self.counts: Counter[tuple[int, int]] = Counter()  # (file index, code line) -> warnings
        self.unattributed = 0
        self._previous_mode: int | None = None
        self._filter: Any = None
        self._previous_show: Any = None

    def start(self) -> None:
        # Not `catch_warnings()`: restoring the whole filter list on stop would also undo
        # filters the cell itself sets meanwhile. Only our own filter and hook come and go.
        warnings.filterwarnings("always", message=SYNC_WARNING)
        self._filter = warnings.filters[0]
        self._previous_show = warnings.showwarning
        warnings.showwarning = self._show
        if self.cuda:
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
        while frame is not None:
            idx = self.files.index(frame.f_code.co_filename)
            if idx is not None:
                self.counts[(idx, frame.f_lineno)] += 1
                return
            frame = frame.f_back
        self.unattributed += 1
