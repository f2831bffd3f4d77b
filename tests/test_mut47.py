"""mut47: which calls write into their arguments, read from torch's ATen schemas (`Tensor(a!)`)
and NumPy (ufunc outputs by position, positional `out`), in the generated table
`static/_mutation_table.py` (`static/mutating_calls.py --regenerate`). Red team 26m (`rt26m_*`)
found 19 harmful hoists of 22 rewrites on main (wave 2, `rt26m2_*`: 7 of 13) through writers without a trailing `_`
(`F.batch_norm(..., training=True)`, `np.add(a, 1, a)`, `torch.ops.aten.add_.Tensor(buf, x)`,
`sgd([w], ...)`, `torch.autograd.backward(loss)`, `partial(torch.Tensor.copy_, dst)`); the
programs are executed before and after `paef fix` here. Fixtures (redundant-tensor):
`neg_running_stats_written_without_underscore`, `running_stats_read_only_near_misses`,
`neg_writers_reached_through_the_op_registry`, `neg_functional_optimisers_write_their_lists`,
`neg_numpy_outputs_by_position`, `numpy_outputs_near_misses`, cpu-function/`neg_arrays_written_by_outputs_by_position`, and
`neg_walrus_binding_changed_through_the_op_registry` (a refusal until now)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from paef_cli import fix_keeps_output

ROOT = Path(__file__).resolve().parent.parent
REDTEAM = ROOT / "benchmarks" / "redteam"
PROGRAMS = ["rt26m_batch_norm_running_stats.py", "rt26m_aten_op_forms.py", "rt26m_unbound_inplace.py",
            "rt26m_optim_functional.py", "rt26m_numpy_ufunc_out.py", "rt26m_numpy_writers.py",
            "rt26m2_writers_behind_names.py", "rt26m2_numpy_cpu_function.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 1f8f3da: a tensor rebuilt from values a call writes without a trailing `_` is hoisted."""
    fix_keeps_output(tmp_path, REDTEAM / program)


def _written(source: str) -> list[str]:
    from paef_jupyter.static.names import mutated_arguments

    call = cst.parse_expression(source)
    assert isinstance(call, cst.Call)
    return [cst.Module([]).code_for_node(a) for a in mutated_arguments(call)]


@pytest.mark.parametrize(("source", "written"), [
    ("F.batch_norm(x, rm, rv, training=True)", ["rm", "rv"]),
    ("F.batch_norm(x, rm, rv, w, b, True)", ["rm", "rv", "w", "b"]),  # by name: torch.batch_norm's positions too
    ("F.batch_norm(x, rm, rv, training=False)", []),
    ("F.batch_norm(x, rm, rv)", []),
    ("F.instance_norm(x, rm, rv)", ["rm", "rv"]),
    ("F.instance_norm(x, rm, rv, use_input_stats=False)", []),
    ("torch.batch_norm_update_stats(x, rm, rv, 0.1)", ["rm", "rv"]),
    ("torch.ops.aten.add_.Tensor(buf, x)", ["buf"]),
    ("torch.ops.aten._native_batch_norm_legit(x, None, None, rm, rv, True, 0.1, 1e-5)", ["rm", "rv"]),
    ("torch.ops.aten.add.Tensor(a, b)", []),
    ("torch.Tensor.copy_(dst, src)", ["dst"]),
    ("torch.relu_(h)", ["h"]),
    ('getattr(torch.Tensor, "mul_")(w, 2)', ["w"]),
    ("functools.partial(torch.Tensor.copy_, dst)", ["dst"]),
    ("sgd([w], [g], bufs, lr=0.1)", ["w", "bufs"]),
    ("np.add(a, b, a)", ["a"]),
    ("np.add(a, b)", []),
    ("np.divmod(a, 3, q, r)", ["q", "r"]),
    ("np.clip(a, 0, 1, a)", ["a"]),
    ("np.copyto(dst, src)", ["dst"]),
    ("logger.log(level, msg)", []),  # not NumPy's ufunc
    ("min(a, b, c)", []),
    ("t.max(1, True)", []),
    ("torch.add(a, b, out=c)", ["c"]),
])
def test_written_arguments(source: str, written: list[str]) -> None:
    assert _written(source) == written


def test_receiver_writers_without_underscore() -> None:
    from paef_jupyter.static.names import is_inplace_method

    assert is_inplace_method("partition") and is_inplace_method("byteswap") and is_inplace_method("record_stream")
    assert not is_inplace_method("clip") and not is_inplace_method("batch_norm")


# --- the table against the libraries: sampled entries really write the argument -----------------

def _changes(run: object, value: object) -> bool:
    import numpy as np
    import torch

    before = value.clone() if isinstance(value, torch.Tensor) else np.array(value, copy=True)
    run()  # type: ignore[operator]
    return not bool((value == before).all())


def test_torch_entries_write_their_arguments() -> None:
    import torch
    import torch.nn.functional as F
    from torch.optim.adam import adam
    from torch.optim.sgd import sgd

    from paef_jupyter.static._mutation_table import ATEN_WRITES, FUNCTION_WRITES

    torch.manual_seed(0)
    x = torch.randn(8, 4) + 3
    assert {s[1] for s in FUNCTION_WRITES["batch_norm"]} == {"running_mean", "running_var"}
    rm, rv = torch.zeros(4), torch.ones(4)
    assert _changes(lambda: F.batch_norm(x, rm, rv, training=True), rm)
    assert not _changes(lambda: F.batch_norm(x, rm, rv, training=False), rm)  # the flag the table records
    assert _changes(lambda: torch.batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5, False), rm)
    assert _changes(lambda: torch.native_batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5), rv)
    assert _changes(lambda: torch.batch_norm_update_stats(x, rm, rv, 0.5), rm)
    r3 = torch.zeros(3)
    assert _changes(lambda: F.instance_norm(torch.randn(2, 3, 5) + 1, r3, torch.ones(3)), r3)
    assert "_native_batch_norm_legit" in ATEN_WRITES
    assert _changes(lambda: torch.ops.aten._native_batch_norm_legit(x, None, None, rm, rv, True, 0.5, 1e-5), rm)
    vals, idx = torch.zeros(6), torch.zeros(6, dtype=torch.long)
    assert [s[:2] for s in FUNCTION_WRITES["_cummax_helper"]] == [(1, "values"), (2, "indices")]
    assert _changes(lambda: torch._cummax_helper(torch.randn(6) + 5, vals, idx, 0), vals)
    buf = torch.zeros(3)
    assert ATEN_WRITES["add_"][0][:2] == (0, "self")
    assert _changes(lambda: torch.ops.aten.add_.Tensor(buf, torch.ones(3)), buf)
    w, mom = torch.ones(3), [torch.zeros(3)]
    assert {s[1] for s in FUNCTION_WRITES["sgd"]} >= {"params", "momentum_buffer_list"}
    assert _changes(lambda: sgd([w], [torch.ones(3)], mom, momentum=0.9, lr=0.1, dampening=0.0, weight_decay=0.0,
                                nesterov=False, maximize=False), w)
    p, m1 = torch.ones(2), torch.zeros(2)
    assert _changes(lambda: adam([p], [torch.ones(2)], [m1], [torch.zeros(2)], [], [torch.zeros(())], amsgrad=False,
                                 beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.0, eps=1e-8, maximize=False), m1)


def test_numpy_entries_write_their_arguments() -> None:
    import numpy as np

    from paef_jupyter.static._mutation_table import NDARRAY_OUT_AT, NUMPY_OUT_AT, SELF_WRITING_METHODS, UFUNC_INPUTS

    a = np.arange(4.0)
    assert UFUNC_INPUTS["add"] == 2 and _changes(lambda: np.add(a, 1.0, a), a)
    q, r = np.zeros(4), np.zeros(4)
    assert UFUNC_INPUTS["divmod"] == 2 and _changes(lambda: np.divmod(a + 7, 3.0, q, r), r)
    d = np.linspace(-3.0, 3.0, 5)
    assert NUMPY_OUT_AT["clip"] == 3 and _changes(lambda: np.clip(d, -1.0, 1.0, d), d)
    c = np.zeros(4)
    assert NUMPY_OUT_AT["cumsum"] == 3 and _changes(lambda: np.cumsum(a, 0, None, c), c)
    e = np.linspace(-3.0, 3.0, 5)
    assert NDARRAY_OUT_AT["clip"] == 2 and _changes(lambda: e.clip(-1.0, 1.0, e), e)
    g = np.array([5.0, 1.0, 4.0, 2.0])
    assert "partition" in SELF_WRITING_METHODS and _changes(lambda: g.partition(1), g)
    h = np.arange(3, dtype=np.int32)
    assert "byteswap" in SELF_WRITING_METHODS and _changes(lambda: h.byteswap(inplace=True), h)
