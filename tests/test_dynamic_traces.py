"""GPU event handling on Chrome traces the tests build: kernels, memcpy kinds, syncs, idle time."""

from __future__ import annotations

import json

import pytest
from fixtures.traces.build import AUTOGRAD, TraceBuilder, looped

from paef_jupyter.dynamic.attribution import attribute, gpu_busy, line_stats, memcpy_direction
from paef_jupyter.dynamic.call_tree import MAX_FRAMES, cpu_tree, gpu_tree
from paef_jupyter.dynamic.code_files import CodeFile
from paef_jupyter.dynamic.trace_events import load_chrome_trace, parse_chrome_trace
from paef_jupyter.model import CellRef, Profile

CELL = CellRef("train.ipynb", 2, "c2")
HELPER = CellRef("train.ipynb", 1, "c1")
FILES = (CodeFile("/k/cell2.py", CELL, offset=1), CodeFile("/k/cell1.py", HELPER))


def no_text(code_file, line):
    return ""


def training_step(b: TraceBuilder, t0: float) -> None:
    """One iteration: line 5 copies a batch (pageable), line 6 runs a kernel through a helper,
    line 7 reads the loss with .item() (DtoH + stream sync)."""
    b.line(0, 4, t0, 30)  # cell line 5
    b.host("aten::to", t0 + 1, 28)
    b.host("aten::_to_copy", t0 + 2, 26)
    b.host("aten::copy_", t0 + 3, 24)
    b.launch("cudaMemcpyAsync", t0 + 4, 20, on_gpu="Memcpy HtoD (Pageable -> Device)", gpu_ts=t0 + 10,
             gpu_dur=15, gpu_cat="gpu_memcpy", bytes=4096)
    b.line(0, 5, t0 + 31, 20)  # cell line 6 calls the helper (cell 1 line 3)
    b.line(1, 3, t0 + 32, 18)
    b.host("aten::mm", t0 + 33, 10)
    b.launch("cudaLaunchKernel", t0 + 34, 5, on_gpu="ampere_sgemm_128x64_nn", gpu_ts=t0 + 40, gpu_dur=30)
    b.line(0, 6, t0 + 52, 40)  # cell line 7: loss.item()
    b.host("aten::item", t0 + 53, 38)
    b.host("aten::_local_scalar_dense", t0 + 54, 36)
    b.launch("cudaMemcpyAsync", t0 + 55, 4, on_gpu="Memcpy DtoH (Device -> Pinned)", gpu_ts=t0 + 72,
             gpu_dur=2, gpu_cat="gpu_memcpy", bytes=4)
    b.host("cudaStreamSynchronize", t0 + 60, 30, cat="cuda_runtime", correlation=99999)


def build(iterations: int = 3) -> TraceBuilder:
    b = TraceBuilder()
    for i in range(iterations):
        training_step(b, 100.0 * i)
    return b


def test_parser_keeps_complete_events_only_and_rejects_other_json():
    trace = parse_chrome_trace(build(1).trace())
    assert {e.cat for e in trace.events} == {"cpu_op", "cuda_runtime", "kernel", "gpu_memcpy"}
    assert trace.events[0].start_ns == 0 and trace.events[0].dur_ns == 30_000
    with pytest.raises(ValueError, match="not a Chrome trace"):
        parse_chrome_trace({"events": []})


def test_trace_file_round_trip(tmp_path):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(build(2).trace()))
    trace = load_chrome_trace(str(path), main_tid=100)
    assert trace.main_tid == 100 and len(trace.gpu) == 6


def test_memcpy_kinds_counts_and_bytes_per_line():
    stats = {(s.ref.cell, s.line): s for s in line_stats(attribute(parse_chrome_trace(build(3).trace())), FILES)}
    copy = stats[(2, 5)]
    assert copy.h2d_copies == 3 and copy.h2d_bytes == 3 * 4096 and copy.pageable_copies == 3
    assert copy.d2h_copies == 0 and copy.copies == 3 and copy.gpu_time_s == pytest.approx(45e-6)
    result = attribute(parse_chrome_trace(build(3).trace()))
    assert (result.totals.h2d, result.totals.d2h, result.totals.syncs) == (3, 3, 3)
    item = stats[(2, 7)]
    assert item.d2h_copies == 3 and item.d2h_bytes == 12 and item.pageable_copies == 0
    # .item() is one sync: the stream sync inside _local_scalar_dense is not counted twice.
    assert item.syncs == 3


def test_kernels_count_for_the_calling_line_and_the_helper_line():
    stats = {(s.ref.cell, s.line): s for s in line_stats(attribute(parse_chrome_trace(build(2).trace())), FILES)}
    assert stats[(2, 6)].gpu_time_s == pytest.approx(60e-6)
    assert stats[(1, 3)].gpu_time_s == pytest.approx(60e-6)
    assert stats[(2, 6)].ops == 2 and stats[(1, 3)].ops == 2
    assert stats[(2, 6)].self_cpu_s == pytest.approx(2 * 2e-6)  # 20 us minus the helper's 18 us
    assert stats[(2, 6)].hits == 2


def test_bare_runtime_sync_counts_as_a_sync():
    b = TraceBuilder()
    b.line(0, 9, 0, 50)
    b.host("cudaDeviceSynchronize", 1, 40, cat="cuda_runtime", correlation=5)
    stats = line_stats(attribute(parse_chrome_trace(b.trace())), FILES)
    assert [(s.line, s.syncs) for s in stats] == [(10, 1)]


def test_ops_of_the_autograd_thread_go_to_the_line_the_main_thread_was_in():
    b = TraceBuilder()
    b.line(0, 1, 0, 100)  # loss.backward() on the main thread
    b.host("autograd::engine::evaluate_function: MmBackward0", 10, 50, tid=AUTOGRAD)
    b.host("aten::mm", 11, 40, tid=AUTOGRAD)
    b.launch("cudaLaunchKernel", 12, 3, on_gpu="sgemm_backward", gpu_ts=20, gpu_dur=30, tid=AUTOGRAD)
    b.host("aten::add", 200, 5, tid=AUTOGRAD)  # after the cell line ended: not attributed
    stats = line_stats(attribute(parse_chrome_trace(b.trace(), main_tid=100)), FILES)
    assert len(stats) == 1
    assert stats[0].line == 2 and stats[0].ops == 1 and stats[0].gpu_time_s == pytest.approx(30e-6)


def test_gpu_idle_split_into_waiting_for_host_and_other():
    b = TraceBuilder()
    b.line(0, 1, 0, 100)
    b.launch("cudaLaunchKernel", 1, 2, on_gpu="k1", gpu_ts=5, gpu_dur=10)  # idle 0-5: launched at 1
    b.launch("cudaLaunchKernel", 3, 2, on_gpu="k2", gpu_ts=15, gpu_dur=10)  # back to back
    b.launch("cudaLaunchKernel", 50, 2, on_gpu="k3", gpu_ts=55, gpu_dur=20)  # idle 25-55, launched at 50
    result = attribute(parse_chrome_trace(b.trace()))
    busy, idle_host, span = gpu_busy(result)
    assert span == 100_000 and busy == 40_000
    assert idle_host == 5_000 + 30_000  # both gaps end with work launched after they began


def test_gpu_tree_puts_kernels_under_their_launching_lines():
    result = attribute(parse_chrome_trace(build(2).trace()))
    tree = gpu_tree(result, FILES, no_text)
    assert tree.kind == "root" and tree.duration_s == pytest.approx(2 * 47e-6)
    by_line = {f.line: f for f in tree.children}
    kernel = by_line[6].children[0].children[0]  # cell line 6 -> helper line 3 -> kernel
    assert (kernel.kind, kernel.name, kernel.calls) == ("kernel", "ampere_sgemm_128x64_nn", 2)
    assert by_line[5].children[0].kind == "memcpy"


def test_cpu_tree_merges_iterations_and_stays_bounded():
    b = TraceBuilder()
    for i in range(3000):  # 3000 distinct op names: more than the frame budget
        b.line(0, 1, i * 10.0, 9)
        b.host(f"aten::op{i}", i * 10.0 + 1, 5)
    tree = cpu_tree(attribute(parse_chrome_trace(b.trace())), FILES, no_text)
    assert sum(1 for _ in tree.walk()) <= MAX_FRAMES
    (line,) = tree.children
    assert line.calls == 3000 and line.line == 2
    assert line.self_s > 0  # the dropped ops' time stays in their parent


def test_memcpy_direction_names():
    assert memcpy_direction("Memcpy HtoD (Pageable -> Device)") == "HtoD"
    assert memcpy_direction("Memcpy DtoH (Device -> Pinned)") == "DtoH"
    assert memcpy_direction("Memset (Device)") is None


def test_profile_with_trees_round_trips_through_json():
    from paef_jupyter.model import Report

    result = attribute(parse_chrome_trace(build(2).trace()))
    profile = Profile(engine="torch", wall_time_s=1.0, lines=line_stats(result, FILES),
                      cpu_tree=cpu_tree(result, FILES, no_text), gpu_tree=gpu_tree(result, FILES, no_text),
                      mode="window", window_ref=CELL, window_line=4)
    report = Report(profile=profile)
    assert Report.from_json(json.loads(json.dumps(report.to_json()))) == report


def test_merged_frames_are_laid_end_to_end_inside_their_parent():
    tree = cpu_tree(attribute(parse_chrome_trace(build(3).trace())), FILES, no_text)
    for frame in tree.walk():
        cursor = frame.start_s
        for child in frame.children:
            assert child.start_s == pytest.approx(cursor)
            cursor += child.duration_s
        assert cursor <= frame.start_s + frame.duration_s + 1e-12
    assert [c.line for c in tree.children] == [5, 6, 7]  # in the order they first ran


def test_one_slow_iteration_costs_the_median_iteration():
    b = TraceBuilder()
    looped(b, {2: 1000.0})
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    stats = {s.line: s for s in line_stats(result, FILES)}
    line = stats[5]  # cell line 5 = code line 4
    assert line.cpu_time_s == pytest.approx(5 * 20e-6) and line.op_time_s == pytest.approx(5 * 10e-6)
    assert line.hits == 5 and line.ops == 5  # counts are counts, not medians
    # the median iteration's length (24 us) less the tracer's 1 us before and after line 4
    assert result.iterations == 5 and result.span_ns == 5 * 22_000
    summed = {s.line: s for s in line_stats(attribute(parse_chrome_trace(b.trace())), FILES)}
    assert summed[5].cpu_time_s == pytest.approx(5 * 20e-6 + 1000e-6)  # without the header: sums


def test_a_line_that_runs_in_some_iterations_only_keeps_its_sum():
    b = TraceBuilder()
    looped(b, {}, iterations=6, logging_every=3)
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    stats = {s.line: s for s in line_stats(result, FILES)}
    assert stats[6].cpu_time_s == pytest.approx(2 * 30e-6)  # twice in six: not a median of zeros


def test_a_window_that_ended_with_the_loop_leaves_out_its_last_partial_iteration():
    b = TraceBuilder()
    looped(b, {}, iterations=4)
    b.line(0, 3, 200, 1)  # the exhausted header, then the line after the loop
    b.line(0, 7, 202, 500)
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3), complete=False)
    stats = {s.line: s for s in line_stats(result, FILES)}
    assert result.iterations == 4 and stats[5].cpu_time_s == pytest.approx(4 * 20e-6)
    assert stats[8].cpu_time_s == pytest.approx(500e-6)
    assert attribute(parse_chrome_trace(b.trace()), header=(0, 3), complete=True).iterations == 5


def test_fewer_than_three_iterations_are_summed():
    b = TraceBuilder()
    looped(b, {1: 100.0}, iterations=2)
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    assert result.iterations == 0 and result.span_ns == result.span[1] - result.span[0] - result.gap_ns


def test_the_tracers_gaps_between_a_helpers_lines_are_counted_apart():
    # Cell line 6 calls a helper whose loop runs cell-1 lines 4 and 5 one after another: between
    # two of them only the line tracer runs (5 us here). A gap longer than the tracer takes (the
    # caller's own work between two calls, 205 us here) stays the caller's.
    b = TraceBuilder()
    b.line(0, 5, 0, 1000)
    t = 1.0
    for _ in range(10):
        b.line(1, 4, t, 10)
        b.line(1, 5, t + 15, 10)
        t += 30
    b.line(1, 4, t + 200, 10)
    result = attribute(parse_chrome_trace(b.trace()))
    stats = {(s.ref.cell, s.line): s for s in line_stats(result, FILES)}
    assert stats[(2, 6)].trace_gap_s == pytest.approx(19 * 5e-6)
    assert stats[(1, 4)].trace_gap_s == 0.0  # the helper's lines called no deeper line
    # The gaps are nobody's time: out of the caller's time and of the span it is a share of.
    assert stats[(2, 6)].cpu_time_s == pytest.approx(1000e-6 - 19 * 5e-6)
    assert result.span_ns == 1000_000 - 19 * 5_000
    # On a busy machine the 205 us gap is mostly a wait for a CPU: not the caller's work either,
    # and (truth20) out of the span too - no line holds it, and kept there it shrank the share of
    # a line running many helper lines (the waits of all their gaps) under load.
    busy_result = attribute(parse_chrome_trace(b.trace()), busy=True)
    busy = {(s.ref.cell, s.line): s for s in line_stats(busy_result, FILES)}
    assert busy[(2, 6)].trace_gap_s == pytest.approx(19 * 5e-6 + 205e-6)
    assert busy[(2, 6)].cpu_time_s == pytest.approx(1000e-6 - 19 * 5e-6 - 205e-6)
    assert busy_result.span_ns == 1000_000 - 19 * 5_000 - 205_000
    assert busy_result.wait_gap_ns == 205_000


def test_the_tracers_gaps_between_the_loops_own_lines_are_out_of_the_typical_iteration():
    # A loop (header code line 3) whose body, code lines 4 and 5, runs 8 us apart (the tracer):
    # the median iteration is its lines' time, so a line's share is of what really ran.
    b = TraceBuilder()
    t = 0.0
    for _ in range(5):
        b.line(0, 3, t, 2)
        b.line(0, 4, t + 10, 20)  # 8 us after the header's range
        b.line(0, 5, t + 38, 20)  # 8 us after line 4's
        t += 66  # and 8 us to the next header
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    assert result.iterations == 5 and result.span_ns == 5 * 42_000
    stats = {s.line: s for s in line_stats(result, FILES)}
    assert stats[5].cpu_time_s / (result.span_ns / 1e9) == pytest.approx(20 / 42)


def test_a_long_pause_between_the_loops_lines_stays_in_the_iteration():
    # Near miss: 200 us between two lines is more than the tracer takes (a GC pause, a line of
    # another file): it stays in the time the lines are shares of.
    b = TraceBuilder()
    t = 0.0
    for _ in range(5):
        b.line(0, 3, t, 2)
        b.line(0, 4, t + 202, 20)
        t += 222
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    assert result.span_ns == 5 * 222_000
    # On a busy machine too: the span keeps a wait between the loop's own lines, as it keeps
    # the waits inside them.
    assert attribute(parse_chrome_trace(b.trace()), header=(0, 3), busy=True).span_ns == 5 * 222_000
