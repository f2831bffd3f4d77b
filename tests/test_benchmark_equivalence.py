"""Every benchmark's fix keeps the meaning: before and after compute the same on the same inputs.

Tiny sizes, no timing. A benchmark whose "after" computed something else would report a
speed-up of a different program; these tests are what rules that out.
"""

from __future__ import annotations

import pytest
import torch

from benchmarks.micro_cases import CASES, Case
from benchmarks.pipelines import dqn, niser
from benchmarks.pipeline_epochs import ATOL, RTOL, paef_fixed
from benchmarks.timing import assert_same, compare, interleave

DEVICES = [pytest.param("cpu"), pytest.param("cuda", marks=pytest.mark.gpu)]


def _device(name: str) -> torch.device:
    if name == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA GPU")
    return torch.device(name)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.rule}:{c.name}")
def test_micro_case_after_equals_before(case: Case, device: str) -> None:
    inputs = case.make(True, _device(device))
    assert_same(case.before(inputs), case.after(inputs), what=case.rule)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.rule}:{c.name}")
def test_micro_case_result_depends_on_its_inputs(case: Case) -> None:
    """The equality above is not vacuous: another seed's inputs give another result."""
    inputs = case.make(True, torch.device("cpu"))
    reference = case.before(inputs)
    perturbed = {
        k: (v + 1 if isinstance(v, torch.Tensor) and v.is_floating_point() else v) for k, v in inputs.items()
    }
    if all(perturbed[k] is inputs[k] for k in inputs):
        pytest.skip("no floating-point tensor input to perturb")
    with pytest.raises(AssertionError):
        assert_same(reference, case.after(perturbed))


def test_rules_cover_the_catalogue() -> None:
    paper = {"operator-fusion", "ping-pong", "dict-as-list", "list-to-tensor", "redundant-tensor", "cpu-function"}
    extra = {"host-sync", "cpu-then-move", "eval-without-no-grad", "graph-retention", "elementwise-loop"}
    assert {c.rule for c in CASES} == paper | extra
    assert all(c.paper_cpu and c.paper_gpu for c in CASES if c.rule in paper)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("pipeline", [niser, dqn], ids=["niser", "dqn"])
def test_pipeline_hand_fix_trains_the_same(pipeline, device: str) -> None:
    data = pipeline.make_data(tiny=True, device=_device(device))
    before, after = pipeline.before(data), pipeline.after(data)
    assert_same(before, after, rtol=RTOL, atol=ATOL)
    assert torch.isfinite(before["loss"]).all() and len(before["loss"]) > 1


@pytest.mark.parametrize("pipeline", [niser, dqn], ids=["niser", "dqn"])
def test_pipeline_result_depends_on_the_seed(pipeline) -> None:
    one = pipeline.after(pipeline.make_data(tiny=True, seed=0))
    other = pipeline.after(pipeline.make_data(tiny=True, seed=1))
    with pytest.raises(AssertionError):
        assert_same(one, other, rtol=RTOL, atol=ATOL)


def test_assert_same_names_the_difference() -> None:
    with pytest.raises(AssertionError, match=r"\['loss'\]: results differ"):
        assert_same({"loss": torch.ones(3)}, {"loss": torch.ones(3) * 1.1})
    with pytest.raises(AssertionError, match="shapes differ"):
        assert_same(torch.ones(3), torch.ones(4))


def test_compare_interleaves_and_reports_median_ratio() -> None:
    calls: list[str] = []
    result = compare(lambda: calls.append("b"), lambda: calls.append("a"), repeats=4, warmup=1)
    assert calls == ["b", "a", "b", "a", "a", "b", "b", "a", "a", "b"]
    assert len(result.before_s) == len(result.after_s) == len(result.before_cpu_s) == len(result.after_cpu_s) == 4
    assert result.ratio == pytest.approx(result.before_median_s / result.after_median_s)


@pytest.mark.parametrize("pipeline", [niser, dqn], ids=["niser", "dqn"])
def test_paef_fix_of_pipeline_trains_the_same(pipeline, tmp_path) -> None:
    """What `paef fix` makes of the hurried code is benchmarked too: it must keep the meaning."""
    pytest.importorskip("paef_jupyter.cli", reason="paef fix not available yet")
    fixed, why = paef_fixed(pipeline, tmp_path)
    assert fixed is not None, why
    data = pipeline.make_data(tiny=True)
    assert_same(pipeline.before(data), fixed.before(data), rtol=RTOL, atol=ATOL)


def test_interleave_rotates_three_variants() -> None:
    calls: list[str] = []
    runs = interleave({k: (lambda k=k: calls.append(k)) for k in "xyz"}, repeats=3, warmup=0)
    assert calls == list("xyz" "yzx" "zxy")
    assert all(len(v) == 3 for v in runs.values())


def test_results_round_trip_and_render_into_benchmarks_md(tmp_path) -> None:
    """What run.py writes into BENCHMARKS.md is what the scripts measured, nothing else."""
    from benchmarks.run import render
    from benchmarks.tables import Table, markdown, read_all, write

    table = Table("micro_cpu", "Micro", ("rule", "ours"), (("a|b", 2.5), ("c", None)), notes=("n1",),
                  machine={"cpu": "X", "cores": 2, "cores_usable": 2, "torch_threads": 1, "gpu": None},
                  command="python -m benchmarks.micro")
    write(table, tmp_path)
    (loaded,) = read_all(tmp_path)
    assert loaded == table
    assert markdown(loaded).splitlines()[2] == "| a\\|b | 2.5 |"
    page = render([loaded], {"bench_x": (3, "boom")}, "python benchmarks/run.py")
    assert "| c | — |" in page and "- n1" in page and "`python -m benchmarks.micro`" in page
    assert "## benchmarks/bench_x.py (exit status 3)" in page and "boom" in page
    assert "no GPU was available" in page
