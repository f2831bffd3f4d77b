"""alias45: a torch/NumPy call's result is fresh only when that is known (`static/fresh_calls.py`,
table `static/_fresh_table.py` generated from ATen's alias annotations, `np.ufunc` and an
explained list); anything else may share an argument's memory. Red team 25a (`rt25a_*`) found 33
harmful hoists on main through names no view list had; the programs are executed before and after
`paef fix` here. Fixtures: `cpu-function/neg_views_by_library_names_beyond_lists`,
`neg_torch_results_returning_input`, `fresh_results_near_misses`,
`redundant-tensor/neg_factory_through_unlisted_alias`, `factory_through_fresh_op_near_misses`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

ROOT = Path(__file__).resolve().parent.parent
REDTEAM = ROOT / "benchmarks" / "redteam"
HARMFUL_ON_MAIN = ["rt25a_numpy_masked_views.py", "rt25a_numpy_linalg_and_einsum_views.py",
                   "rt25a_numpy_out_returns_buffer.py", "rt25a_torch_annotated_aliases.py",
                   "rt25a_torch_returns_input_unannotated.py", "rt25a_torch_inplace_and_out.py"]


@pytest.mark.parametrize("qualified", [
    "torch.as_tensor", "torch.from_numpy", "torch.asarray", "torch.Tensor.to", "torch.Tensor.numpy",
    "torch.Tensor.cpu", "torch.Tensor.float", "torch.Tensor.contiguous", "torch.Tensor.detach", "torch.Tensor.type_as",
    "torch.Tensor.view", "torch.Tensor.reshape", "torch.Tensor.to_dense", "torch.Tensor.dequantize", "torch.dropout",
    "torch.nn.functional.dropout", "torch.nn.functional.relu", "torch.broadcast_tensors", "torch.einsum",
    "torch.positive", "torch.resolve_conj", "torch.split", "torch.atleast_1d", "torch.nn.Parameter",
    "numpy.asarray", "numpy.asarray_chkfinite", "numpy.atleast_2d", "numpy.require", "numpy.ascontiguousarray",
    "numpy.squeeze", "numpy.einsum", "numpy.ma.filled", "numpy.linalg.matrix_transpose", "numpy.linalg.diagonal",
    "numpy.ravel", "numpy.ndarray.view", "numpy.ndarray.reshape", "numpy.ndarray.ravel",
])
def test_may_share(qualified: str) -> None:
    from paef_jupyter.static.fresh_calls import fresh_call

    assert not fresh_call(qualified)


@pytest.mark.parametrize("qualified", ["torch.exp", "torch.matmul", "torch.cat", "torch.tensor", "torch.zeros",
                                       "torch.nn.functional.cross_entropy", "torch.nn.functional.softmax",
                                       "torch.Tensor.sum", "torch.Tensor.clone", "torch.Tensor.tolist",
                                       "numpy.mean", "numpy.sqrt", "numpy.sort", "numpy.copy", "numpy.array",
                                       "numpy.ndarray.copy", "numpy.ndarray.flatten", "numpy.ndarray.astype"])
def test_fresh(qualified: str) -> None:
    from paef_jupyter.static.fresh_calls import fresh_call

    assert fresh_call(qualified)
    assert not fresh_call(qualified, no_out=False)  # `out=` / `copy=False` given


def test_fresh_entries_share_no_memory_on_samples() -> None:
    """Every fresh Tensor method, torch function and NumPy function that runs on a sample input
    with no other argument returns memory of its own (a sampled check of the table's sources)."""
    import numpy as np
    import torch

    from paef_jupyter.static._fresh_table import FRESH_NDARRAY_METHODS, FRESH_NUMPY_FUNCTIONS, FRESH_TENSOR_METHODS, \
        FRESH_TORCH_FUNCTIONS

    def tensors(value: object) -> list[torch.Tensor]:
        if isinstance(value, torch.Tensor):
            return [value]
        return [t for v in value for t in tensors(v)] if isinstance(value, (tuple, list)) else []

    x = torch.arange(1.0, 7.0).reshape(2, 3)
    base = x.untyped_storage().data_ptr()
    shared, tried = [], 0
    calls = [(f"Tensor.{n}", getattr(x, n)) for n in FRESH_TENSOR_METHODS if not n.startswith("__")]
    for q in FRESH_TORCH_FUNCTIONS:
        module, _, name = q.rpartition(".")
        calls.append((q, lambda m=module, n=name: getattr(eval(m, {"torch": torch}), n)(x)))  # noqa: S307
    for name, call in calls:
        try:
            result = call()
        except Exception:  # noqa: BLE001 - needs other arguments
            continue
        tried += 1
        if any(t.layout == torch.strided and t.untyped_storage().data_ptr() == base for t in tensors(result)):
            shared.append(name)
    a = np.arange(1.0, 7.0).reshape(2, 3)
    for q in FRESH_NUMPY_FUNCTIONS:
        module, _, name = q.rpartition(".")
        try:
            result = getattr(eval(module, {"numpy": np}), name)(a)  # noqa: S307
        except Exception:  # noqa: BLE001
            continue
        tried += 1
        if isinstance(result, np.ndarray) and np.shares_memory(result, a):
            shared.append(q)
    for name in FRESH_NDARRAY_METHODS:
        try:
            result = getattr(a, name)()
        except Exception:  # noqa: BLE001
            continue
        tried += 1
        if isinstance(result, np.ndarray) and np.shares_memory(result, a):
            shared.append(f"ndarray.{name}")
    assert tried > 300 and shared == []


@pytest.mark.parametrize("program", HARMFUL_ON_MAIN)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on main 11e9cf3: 33 hoists of NumPy work on views or returned arguments made by
    torch/NumPy names no view list had."""
    fix_keeps_output(tmp_path, REDTEAM / program)
