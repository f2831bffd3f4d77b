"""torch.profiler's `profile`, started without importing torch's compiler.

torch's `prepare_trace` asks `hasattr(torch, "_inductor")` only to read inductor's CUDA-graphs
flag; on torch's lazy module that question imports torch._inductor and torch._dynamo: 1-4 s on
the first profiler start of a process (inside the user's loop, or in an up-front warm-up). A
process that has not imported inductor has compiled nothing with it, so no inductor CUDA graph
exists and the flag's default (off) is the answer. Only that one question, asked by torch's
profiler module during our own profiler's `prepare_trace`, is answered without the import.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any


class _WithoutInductor:
    """torch, as torch's profiler module sees it while preparing: `_inductor` not imported."""

    def __init__(self, torch: Any) -> None:
        self._torch = torch

    def __getattr__(self, name: str) -> Any:
        if name == "_inductor":
            raise AttributeError(name)
        return getattr(self._torch, name)


def profile(**kwargs: Any) -> Any:
    """A `torch.profiler.profile(**kwargs)` whose start imports nothing of torch's compiler."""
    return _profile_class()(**kwargs)


@cache
def _profile_class() -> type:
    import torch
    import torch.profiler.profiler as module

    class Profile(torch.profiler.profile):  # type: ignore[misc, name-defined]
        def prepare_trace(self) -> None:
            if "torch._inductor" in sys.modules or getattr(module, "torch", None) is not torch:
                super().prepare_trace()
                return
            module.torch = _WithoutInductor(torch)
            try:
                super().prepare_trace()
            finally:
                module.torch = torch

    return Profile
