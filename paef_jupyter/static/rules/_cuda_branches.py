"""Loaders built only on the CPU branch of a CUDA test.

`if config.cuda: loader = DataLoader(..., pin_memory=True) else: loader = DataLoader(...)`, with
the batches copied only under `if config.cuda and torch.cuda.is_available():`: the unpinned loader
exists only where the program uses no CUDA device, and there no batch is copied, so nothing is
staged through pageable memory. Public28 p01 (Cheneng/TextCNN) was reported for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..device_use import cuda_condition
from ..facts import Facts


def built_without_cuda(facts: Facts, loader: cst.Call, moves: Sequence[cst.Call]) -> bool:
    """`loader` lies in the `else` (or `elif`) arm of an `if` whose test is false only where the
    program uses no CUDA device, and every copy of its batches runs only under such a test."""
    return _under_cuda_test(facts, loader, "orelse") and bool(moves) \
        and all(_under_cuda_test(facts, m, "body") for m in moves)


def _under_cuda_test(facts: Facts, node: cst.CSTNode, arm: str) -> bool:
    """`node` is inside the `arm` ("body" or "orelse") of an `if` that tests for CUDA."""
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if isinstance(anc, cst.If) and child is getattr(anc, arm) and cuda_condition(facts, anc.test):
            return True
        child = anc
    return False
