"""correlate() as a pure function on hand-built reports and profiles."""

from __future__ import annotations

import pytest

from paef_jupyter.correlate import correlate
from paef_jupyter.model import CellRef, Finding, LineStat, Profile, Report, Severity, SourceUnit

CELL = CellRef("nb.ipynb", 2, "c2")
OTHER = CellRef("nb.ipynb", 5, "c5")


def finding(rule: str, line: int, end_line: int | None = None, severity=Severity.MEDIUM, ref=CELL) -> Finding:
    return Finding(rule, ref, line, end_line or line, severity, f"{rule} here")


def profile(*lines: LineStat, **kw) -> Profile:
    base = dict(engine="torch", wall_time_s=2.0, cpu_time_s=1.0, base_time_s=1.5, profiled_iterations=5,
                mode="window", window_ref=CELL, window_line=3, window_end_line=9)
    base.update(kw)
    return Profile(lines=lines, **base)


def stat(line: int, **kw) -> LineStat:
    return LineStat(CELL, line, **({"iterations": 5} | kw))


def test_static_finding_gets_the_evidence_of_its_lines():
    report = Report(findings=(finding("ping-pong", 4, 5),))
    prof = profile(stat(4, cpu_time_s=0.2, syncs=5, d2h_copies=5, d2h_bytes=20, hits=5),
                   stat(5, cpu_time_s=0.1, tensor_creations=5, h2d_copies=5, h2d_bytes=40, hits=5),
                   stat(6, cpu_time_s=0.5))
    (f,) = correlate(report, prof).findings
    ev = f.evidence
    assert f.source == "both" and ev.measurable
    assert ev.time_s == pytest.approx(0.3) and ev.share == pytest.approx(0.3)
    assert (ev.syncs, ev.d2h_copies, ev.h2d_copies, ev.h2d_bytes, ev.tensor_creations) == (5, 5, 5, 40, 5)
    assert ev.iterations == 5
    assert ev.estimated_saving_s == pytest.approx(0.8 * 0.3 * 1.5)  # ping-pong saving x share x base time
    assert "1 sync(s) per iteration" in ev.notes


def test_a_round_trips_read_back_line_is_part_of_its_finding_not_a_finding_of_its_own():
    """`values = (w @ s).tolist()` then `torch.tensor(values)`: the `.tolist()` line's Python
    work is the round trip's cost. Reported on its own as "CPU work outside torch", it outranked
    the ping-pong it belongs to on a loaded box."""
    from dataclasses import replace

    round_trip = replace(finding("ping-pong", 5), part_lines=(4,))
    prof = profile(stat(4, cpu_time_s=0.6, hits=5), stat(5, cpu_time_s=0.2, tensor_creations=5, hits=5))
    alone = correlate(Report(findings=(finding("ping-pong", 5),)), prof)
    assert [(f.rule, f.line) for f in alone.findings] == [("cpu-function", 4), ("ping-pong", 5)]
    out = correlate(Report(findings=(round_trip,)), prof)
    assert [(f.rule, f.line) for f in out.findings] == [("ping-pong", 5)]


def test_a_round_trips_evidence_counts_its_read_back_lines_sync_and_time():
    """The sync of `x.cpu().tolist()` is paid on the read-back line, not where the tensor is
    rebuilt: the card's measured syncs and time must include it."""
    from dataclasses import replace

    round_trip = replace(finding("ping-pong", 5), part_lines=(3,))
    prof = profile(stat(3, cpu_time_s=0.6, syncs=5, d2h_copies=5, hits=5), stat(4, cpu_time_s=0.3, hits=5),
                   stat(5, cpu_time_s=0.2, tensor_creations=5, h2d_copies=5, hits=5))
    f = next(f for f in correlate(Report(findings=(round_trip,)), prof).findings if f.rule == "ping-pong")
    assert (f.evidence.syncs, f.evidence.d2h_copies, f.evidence.h2d_copies) == (5, 5, 5)
    assert f.evidence.time_s == pytest.approx(0.8)  # lines 3 and 5, not the line between


def test_findings_are_ranked_by_estimated_saving_then_severity():
    report = Report(findings=(finding("operator-fusion", 3, severity=Severity.HIGH),
                              finding("redundant-tensor", 6, severity=Severity.LOW),
                              finding("host-sync", 8, severity=Severity.HIGH)))
    prof = profile(stat(3, cpu_time_s=0.05, ops=5), stat(6, cpu_time_s=0.4, tensor_creations=5),
                   stat(8, cpu_time_s=0.0005))
    out = correlate(report, prof)
    assert [f.rule for f in out.findings] == ["redundant-tensor", "operator-fusion", "host-sync"]
    assert out.top(1)[0].rule == "redundant-tensor"
    assert out.profile is prof


def test_finding_on_lines_that_cost_nothing_is_kept_but_marked_and_last():
    report = Report(findings=(finding("graph-retention", 7, severity=Severity.HIGH),
                              finding("dict-as-list", 1, severity=Severity.LOW)))
    prof = profile(stat(7, cpu_time_s=0.0001, hits=5))
    out = correlate(report, prof)
    cheap = next(f for f in out.findings if f.rule == "graph-retention")
    assert not cheap.evidence.measurable and cheap.source == "static"
    assert "nothing measurable" in cheap.evidence.notes[0]
    # dict-as-list (line 1) was outside the window: unknown cost ranks above "costs nothing".
    unknown = next(f for f in out.findings if f.rule == "dict-as-list")
    assert unknown.evidence.measurable and "outside the profiled window" in unknown.evidence.notes[0]
    assert [f.rule for f in out.findings] == ["dict-as-list", "graph-retention"]


def test_per_iteration_syncs_become_a_dynamic_host_sync_finding():
    # On a GPU: the device syncs the line's own call made (sync-debug warnings, per cell line).
    prof = profile(stat(8, cpu_time_s=0.1, sync_warnings=5, hits=5), stat(9, cpu_time_s=0.1, sync_warnings=2, hits=5),
                   device="cuda")
    out = correlate(Report(), prof)
    (f,) = out.findings  # 2 syncs in 5 iterations is not per-iteration
    assert (f.rule, f.line, f.source) == ("host-sync", 8, "dynamic")
    assert f.severity is Severity.HIGH and f.evidence.sync_warnings == 5


def test_library_syncs_and_cpu_runs_raise_no_dynamic_host_sync():
    # Syncs in the trace that no warning put on the user's call (GradScaler's found_inf.item(),
    # an optimizer's step counter): the library's, not the line's.
    library = profile(stat(8, cpu_time_s=0.1, syncs=10, hits=5), device="cuda")
    assert correlate(Report(), library).findings == ()
    # On a CPU nothing is a device sync, whatever was counted.
    cpu = profile(stat(8, cpu_time_s=0.1, syncs=10, sync_warnings=10, hits=5))
    assert correlate(Report(), cpu).findings == ()


def test_static_host_sync_on_a_cpu_is_a_prediction_ranked_after_measured_costs():
    report = Report(findings=(finding("host-sync", 8, severity=Severity.HIGH), finding("redundant-tensor", 6)))
    prof = profile(stat(8, cpu_time_s=0.3, hits=5), stat(6, cpu_time_s=0.05, tensor_creations=5, hits=5))
    out = correlate(report, prof)
    assert [f.rule for f in out.findings] == ["redundant-tensor", "host-sync"]
    sync = out.findings[1].evidence
    assert not sync.measurable and sync.estimated_saving_s == 0
    assert "on a GPU this line would stall" in sync.notes[0] and "not measurable on this CPU run" in sync.notes[0]
    assert any(n.startswith("saving = 90% of these lines' measured time") for n in out.findings[0].evidence.notes)


def test_no_dynamic_duplicate_where_a_static_finding_already_points():
    prof = profile(stat(8, cpu_time_s=0.1, syncs=5, hits=5))
    out = correlate(Report(findings=(finding("ping-pong", 7, 8),)), prof)
    assert [(f.rule, f.source) for f in out.findings] == [("ping-pong", "both")]


def test_pageable_copies_are_pageable_transfer_even_though_they_sync():
    # A pageable copy blocks: its cudaStreamSynchronize is counted as a sync of the line too.
    one = profile(stat(5, cpu_time_s=0.1, h2d_copies=5, h2d_bytes=5 * (8 << 20), pageable_copies=5, syncs=5,
                       hits=5), device="cuda")
    (f,) = correlate(Report(), one).findings
    assert (f.rule, f.severity) == ("pageable-transfer", Severity.MEDIUM)
    many = profile(stat(5, cpu_time_s=0.1, h2d_copies=20, h2d_bytes=20 * 512, pageable_copies=20, hits=5),
                   device="cuda")
    assert correlate(Report(), many).findings[0].severity is Severity.HIGH


def test_many_small_pinned_copies_are_cpu_then_move_and_big_ones_nothing():
    pinned = profile(stat(5, cpu_time_s=0.1, h2d_copies=20, h2d_bytes=20 * 512, hits=5), device="cuda")
    assert correlate(Report(), pinned).findings[0].rule == "cpu-then-move"
    big = profile(stat(5, cpu_time_s=0.1, h2d_copies=20, h2d_bytes=20 * (8 << 20), hits=5), device="cuda")
    assert correlate(Report(), big).findings == ()


def test_a_line_that_reads_back_is_host_sync_even_with_copies_up():
    # .item() then torch.tensor(..., device=cuda): DtoH + HtoD on one line: the sync is the story.
    line = stat(5, cpu_time_s=0.1, h2d_copies=5, h2d_bytes=40, pageable_copies=5, d2h_copies=5, d2h_bytes=20,
                syncs=5, sync_warnings=5, hits=5)
    assert correlate(Report(), profile(line, device="cuda")).findings[0].rule == "host-sync"


def test_dominant_cpu_work_in_the_loop_is_cpu_function_or_the_loader():
    prof = profile(stat(5, cpu_time_s=0.5, op_time_s=0.05, hits=5), stat(3, cpu_time_s=0.3, hits=5),
                   stat(6, cpu_time_s=0.3, op_time_s=0.29, ops=50, hits=5))
    rules = {f.line: f.rule for f in correlate(Report(), prof).findings}
    assert rules == {5: "cpu-function", 3: "sync-dataloader"}  # line 3 is the loop header
    once = profile(stat(5, cpu_time_s=0.5, hits=1))  # ran once in 5 iterations: not per iteration
    assert correlate(Report(), once).findings == ()


def test_microseconds_outside_torch_are_no_finding_whatever_their_share():
    """`y = x @ w` in a loop of 30 us iterations: the 20 us around the matmul are its dispatch
    and the profiler's range, half of each iteration, and nothing a rewrite removes."""
    def loop(scale: float) -> Profile:
        return profile(stat(5, cpu_time_s=5 * 20e-6 * scale, op_time_s=5 * 4e-6 * scale, ops=5, hits=5),
                       stat(6, cpu_time_s=5 * 10e-6 * scale, hits=5), cpu_time_s=5 * 30e-6 * scale)

    assert correlate(Report(), loop(1)).findings == ()
    assert [(f.rule, f.line) for f in correlate(Report(), loop(10)).findings] == [("cpu-function", 5)]


def test_max_dynamic_keeps_the_costliest():
    prof = profile(*(stat(n, cpu_time_s=0.01 * n, sync_warnings=5, hits=5) for n in range(3, 9)), device="cuda")
    out = correlate(Report(), prof, max_dynamic=2)
    assert [f.line for f in out.findings] == [8, 7]


def test_findings_of_other_cells_do_not_take_this_cells_lines():
    prof = profile(stat(4, cpu_time_s=0.3, syncs=5, hits=5))
    out = correlate(Report(findings=(finding("host-sync", 4, ref=OTHER),)), prof).findings
    assert [(f.ref, f.source) for f in out] == [(CELL, "dynamic"), (OTHER, "static")]
    assert "outside the profiled window" in out[1].evidence.notes[0]


def test_scalene_profile_without_iterations_adds_no_per_iteration_findings():
    prof = Profile(engine="scalene", wall_time_s=1.0, cpu_time_s=1.0, base_time_s=1.0, mode="full",
                   lines=(LineStat(CELL, 4, cpu_time_s=0.8, python_cpu_s=0.8),))
    out = correlate(Report(findings=(finding("cpu-function", 4),)), prof)
    (f,) = out.findings
    assert f.evidence.share == pytest.approx(0.8) and f.source == "both"


def test_correlate_is_pure():
    report = Report(findings=(finding("ping-pong", 4),))
    prof = profile(stat(4, cpu_time_s=0.2))
    first = correlate(report, prof)
    assert correlate(report, prof) == first and report.findings[0].evidence is None


def test_per_iteration_counts_use_the_window_each_line_was_measured_in():
    # Two cells of a notebook, each windowed on its own loop: 2 syncs over a 2-iteration window.
    prof = profile(LineStat(OTHER, 4, cpu_time_s=0.1, sync_warnings=2, hits=2, iterations=2),
                   stat(8, cpu_time_s=0.1, sync_warnings=2, hits=5, iterations=5), device="cuda")
    out = correlate(Report(), prof)
    assert [(f.ref, f.line, f.evidence.iterations) for f in out.findings] == [(OTHER, 4, 2)]


def test_a_line_enclosing_the_window_is_not_a_dynamic_bottleneck():
    caller = stat(2, cpu_time_s=0.9, op_time_s=0.1, syncs=5, hits=1, encloses_window=True)
    assert correlate(Report(), profile(caller)).findings == ()


def test_lines_profiled_outside_a_window_have_no_per_iteration_findings():
    # A set-up cell profiled whole (iterations 0) next to a windowed cell: no "per iteration".
    setup = LineStat(OTHER, 7, cpu_time_s=0.6, hits=1, syncs=3)
    assert correlate(Report(), profile(setup)).findings == ()


def test_gpu_only_rule_on_a_cpu_run_says_why_it_costs_nothing():
    out = correlate(Report(findings=(finding("cpu-then-move", 6),)), profile(stat(6, cpu_time_s=0.0001)))
    (f,) = out.findings
    assert not f.evidence.measurable and "not measurable on this CPU run" in f.evidence.notes[0]


def test_a_finding_on_the_loader_line_is_measured_where_the_loop_iterates_it():
    text = "model.train()\nloader = DataLoader(ds, batch_size=64)\nfor xb, yb in loader:\n    step(xb, yb)\n"
    report = Report(findings=(finding("sync-dataloader", 2),), sources=(SourceUnit(CELL, text),))
    prof = profile(stat(3, cpu_time_s=0.4, hits=5), stat(4, cpu_time_s=0.5, op_time_s=0.5, hits=5),
                   window_line=3)
    (f,) = correlate(report, prof).findings  # and no dynamic sync-dataloader on the header
    assert f.source == "both" and f.evidence.time_s == pytest.approx(0.4)
    assert f.evidence.notes[0] == "measured where `loader` is iterated (line 3)"
    other = Report(findings=(finding("sync-dataloader", 1),), sources=(SourceUnit(CELL, text),))
    found = correlate(other, prof).findings
    assert [(f.rule, f.source) for f in found] == [("sync-dataloader", "dynamic"), ("sync-dataloader", "static")]
    assert "outside the profiled window" in found[1].evidence.notes[0]


def test_saving_uses_each_lines_whole_run_time():
    # A notebook: cell 2's loop window is scaled up 20x to its run, cell 5 ran whole.
    looped = stat(4, cpu_time_s=0.1, run_time_s=2.0, hits=5)
    once = LineStat(OTHER, 3, cpu_time_s=0.5, run_time_s=0.5)
    report = Report(findings=(finding("ping-pong", 4), finding("redundant-tensor", 3, ref=OTHER)))
    out = correlate(report, profile(looped, once, base_time_s=10.0))
    assert [(f.rule, round(f.evidence.estimated_saving_s, 3), round(f.evidence.share, 3)) for f in out.findings] == [
        ("ping-pong", 1.6, 0.2),
        ("redundant-tensor", 0.45, 0.05),
    ]




def numpy_round_trip(line: int = 6, part_lines: tuple[int, ...] = (3, 4, 5)) -> Finding:
    """`a = h.cpu().numpy()` (3), NumPy work on `a` (4, 5), `torch.from_numpy(...)` (6)."""
    from dataclasses import replace

    return replace(finding("ping-pong", line), part_lines=part_lines, device_cost_only=True)


def round_trip_lines(per_line_s: float) -> tuple[LineStat, ...]:
    return (stat(3, cpu_time_s=0.01, op_time_s=0.01, hits=5), stat(4, cpu_time_s=per_line_s, hits=5),
            stat(5, cpu_time_s=per_line_s, hits=5), stat(6, cpu_time_s=0.01, hits=5),
            stat(7, cpu_time_s=0.4, op_time_s=0.4, hits=5))


def test_a_numpy_round_trips_host_work_on_a_cpu_is_measured_over_its_lines():
    """On a CPU the copies of `.numpy()` ... `torch.from_numpy` cost nothing (the finding is a GPU
    prediction), but the NumPy work between them does: 2 x 20% of each iteration, each line under
    the 25% bar, so no per-line finding named it."""
    out = correlate(Report(findings=(numpy_round_trip(),)), profile(*round_trip_lines(0.2)))
    top, pp = out.findings
    assert (top.rule, top.line, top.end_line, top.source) == ("cpu-function", 3, 6, "dynamic")
    assert top.evidence.measurable and top.evidence.share == pytest.approx(0.42)
    assert "lines 3-6" in top.message and "line 6" in top.explanation
    assert (pp.rule, pp.evidence.measurable) == ("ping-pong", False)
    assert pp.evidence.share == pytest.approx(0.01)  # its own line: the NumPy work is the other card's


def test_a_round_trips_host_work_is_no_finding_when_small_on_a_gpu_or_not_numpy():
    assert [f.rule for f in correlate(Report(findings=(numpy_round_trip(),)),
                                      profile(*round_trip_lines(0.1))).findings] == ["ping-pong"]  # 22%: under the bar
    on_gpu = correlate(Report(findings=(numpy_round_trip(),)), profile(*round_trip_lines(0.2), device="cuda"))
    assert [f.rule for f in on_gpu.findings] == ["ping-pong"]  # measured as the round trip itself
    from dataclasses import replace

    tolist = replace(numpy_round_trip(), device_cost_only=False)  # `.tolist()`: measured itself
    assert [f.rule for f in correlate(Report(findings=(tolist,)), profile(*round_trip_lines(0.2))).findings] == [
        "ping-pong"]
    no_parts = numpy_round_trip(part_lines=())  # the copy on the same line: that line's own figure
    # (the consecutive host lines 4-6 are then a block of host work like any other, not a round trip's)
    assert not [f for f in correlate(Report(findings=(no_parts,)), profile(*round_trip_lines(0.2))).findings
                if "round trip" in f.message]


def test_a_call_lines_cpu_work_names_the_helper_lines_that_hold_it():
    """`scores.append(macro_f1(logits, y))`: the helper's per-element NumPy loop (lines 14, 16,
    torch work on line 15 between them) holds the call's time, each line under the bar alone;
    the card says where to look."""
    from paef_jupyter.model import Frame

    def py(line: int, dur: float, *children: Frame) -> Frame:
        return Frame(f"line {line}", "python", CELL, line, duration_s=dur, children=children)

    tree = Frame("cell", "root", duration_s=1.0, children=(
        py(33, 0.6, py(11, 0.01), py(14, 0.25), py(15, 0.02, Frame("aten::add", "op", duration_s=0.02)), py(16, 0.2)),
        py(31, 0.3, Frame("aten::mm", "op", duration_s=0.3))))
    prof = profile(stat(33, cpu_time_s=0.6, hits=5), stat(14, cpu_time_s=0.2, hits=5000),
                   stat(15, cpu_time_s=0.02, op_time_s=0.02, hits=5000),
                   stat(16, cpu_time_s=0.2, hits=5000), stat(31, cpu_time_s=0.3, op_time_s=0.3, hits=5), cpu_tree=tree)
    (f,) = correlate(Report(), prof).findings
    assert (f.rule, f.line) == ("cpu-function", 33) and f.message.endswith("most of it in lines 14, 16, which it calls")
    own = profile(stat(33, cpu_time_s=0.6, hits=5), cpu_tree=Frame("cell", "root", duration_s=1.0, children=(
        py(33, 0.6, py(11, 0.05)),)))  # near miss: the line's own Python work
    (g,) = correlate(Report(), own).findings
    assert g.message.endswith("CPU work outside torch on this line")
    # near miss: `ids = [vocab.get(t, 1) for t in tokens]`, whose comprehension is a frame of its own line
    comprehension = profile(stat(33, cpu_time_s=0.6, hits=5), cpu_tree=Frame("cell", "root", duration_s=1.0, children=(
        py(33, 0.6, py(33, 0.55)),)))
    (h,) = correlate(Report(), comprehension).findings
    assert h.message.endswith("CPU work outside torch on this line"), h.message


def test_the_headers_wait_for_loader_workers_is_a_low_lead_not_batches_built_in_process():
    # Time on the header of a loop over a DataLoader with workers is the wait for them: the
    # premise "the batch is prepared in the training process" is false there.
    lines = (stat(3, cpu_time_s=0.5, hits=5), stat(5, cpu_time_s=0.4, op_time_s=0.38, ops=40, hits=5))
    (waiting,) = correlate(Report(), profile(*lines, window_loader_workers=2)).findings
    assert (waiting.rule, waiting.severity) == ("sync-dataloader", Severity.LOW)
    assert "2 worker processes" in waiting.message and "training process" not in waiting.explanation
    # Near misses: a loader without workers, or no DataLoader seen on the header, keep the medium.
    for workers in (0, None):
        (built,) = correlate(Report(), profile(*lines, window_loader_workers=workers)).findings
        assert (built.rule, built.severity) == ("sync-dataloader", Severity.MEDIUM)
        assert "prepared in the training process" in built.explanation


def test_a_helpers_consecutive_host_lines_are_the_finding_not_its_call_line():
    """The helper's host work on consecutive lines (14, 15: 20% each, no torch work between) is
    one block: the finding is there, and the call line, whose time is theirs, is none."""
    from paef_jupyter.model import Frame

    def py(line: int, dur: float, *children: Frame) -> Frame:
        return Frame(f"line {line}", "python", CELL, line, duration_s=dur, children=children)

    tree = Frame("cell", "root", duration_s=1.0, children=(
        py(33, 0.6, py(11, 0.01), py(14, 0.25), py(15, 0.2)), py(31, 0.3, Frame("aten::mm", "op", duration_s=0.3))))
    prof = profile(stat(33, cpu_time_s=0.6, hits=5), stat(14, cpu_time_s=0.2, hits=5000),
                   stat(15, cpu_time_s=0.2, hits=5000), stat(31, cpu_time_s=0.3, op_time_s=0.3, hits=5), cpu_tree=tree)
    (f,) = correlate(Report(), prof).findings
    assert (f.rule, f.line, f.end_line) == ("cpu-function", 14, 15) and "lines 14-15" in f.message
    assert f.evidence.share == pytest.approx(0.4)
    # near miss: on a GPU run, the lines' time outside ops with a device sync on one is a wait
    synced = profile(stat(14, cpu_time_s=0.2, hits=5, sync_warnings=5), stat(15, cpu_time_s=0.2, hits=5), device="cuda")
    assert not [f for f in correlate(Report(), synced).findings if f.end_line != f.line]


def test_host_lines_of_two_functions_are_no_block():
    """`__getitem__`'s last line (29) and the `collate_fn` after it (33, 34): adjacent in the
    profile, but a `def` lies between them, so they are not consecutive statements; without it
    they would be one block (near miss)."""
    from paef_jupyter.model import SourceUnit

    lines = (stat(29, cpu_time_s=0.15, hits=5), stat(33, cpu_time_s=0.12, hits=5), stat(34, cpu_time_s=0.08, hits=5))
    text = "\n".join("def collate(records):" if n == 32 else "    pass" for n in range(1, 40))
    split = correlate(Report(sources=(SourceUnit(CELL, text),)), profile(*lines)).findings
    assert not [f for f in split if f.line != f.end_line], split
    joined = correlate(Report(sources=(SourceUnit(CELL, text.replace("def collate", "collate = 1 #")),)),
                       profile(*lines)).findings
    assert [(f.line, f.end_line) for f in joined] == [(29, 34)]


def test_lines_two_findings_are_measured_on_count_once_in_their_savings():
    """A replay buffer's finding holds its conversions as part lines, and `list-to-tensor` finds
    the same conversion lines: each line's time is saved once, by the finding that saves the
    most (truth13's a5 summed both, over 100% of the loop)."""
    from dataclasses import replace

    buffer = replace(finding("record-buffer", 4), part_lines=(5, 6))
    prof = profile(stat(4, cpu_time_s=0.1), stat(5, cpu_time_s=0.3), stat(6, cpu_time_s=0.2), stat(8, cpu_time_s=0.1))
    out = correlate(Report(findings=(buffer, finding("list-to-tensor", 5), finding("list-to-tensor", 6))), prof)
    by = {(f.rule, f.line): f.evidence for f in out.findings}
    assert by[("record-buffer", 4)].estimated_saving_s == pytest.approx(0.8 * 0.6 * 1.5)
    assert by[("list-to-tensor", 5)].estimated_saving_s == pytest.approx(0.0)
    assert by[("list-to-tensor", 6)].estimated_saving_s == pytest.approx(0.0)
    assert "already counts" in by[("list-to-tensor", 5)].notes[-1]
    assert sum(ev.estimated_saving_s for ev in by.values()) <= 0.6 * 1.5
    assert out.findings[0].rule == "record-buffer"


def test_findings_on_lines_of_their_own_keep_their_whole_savings():
    # Near miss: two findings on different lines lose nothing.
    prof = profile(stat(4, cpu_time_s=0.1), stat(5, cpu_time_s=0.3), stat(6, cpu_time_s=0.2), stat(7, cpu_time_s=0.2))
    out = correlate(Report(findings=(finding("dict-as-list", 6), finding("dict-as-list", 7))), prof)
    assert [f.evidence.estimated_saving_s for f in out.findings] == pytest.approx([0.7 * 0.2 * 1.5] * 2)


def test_a_finding_that_shares_one_line_loses_that_line_only():
    from dataclasses import replace

    wide = replace(finding("record-buffer", 4), part_lines=(5,))
    prof = profile(stat(4, cpu_time_s=0.1), stat(5, cpu_time_s=0.3), stat(6, cpu_time_s=0.2), stat(7, cpu_time_s=0.2))
    out = correlate(Report(findings=(wide, finding("elementwise-loop", 5, 6))), prof)
    by = {f.rule: f.evidence for f in out.findings}
    assert by["elementwise-loop"].estimated_saving_s == pytest.approx(0.9 * 0.5 * 1.5)  # it saves the most
    assert by["record-buffer"].estimated_saving_s == pytest.approx(0.8 * 0.4 * 1.5 * (1 - 0.3 / 0.4))


def _fusion(suggestion: str) -> Finding:
    from dataclasses import replace

    from paef_jupyter.model import Fix

    return replace(finding("operator-fusion", 4), fix=Fix("use the fused op", suggestion=suggestion))


def test_a_fusion_into_an_op_with_no_fused_cpu_kernel_saves_nothing_on_a_cpu():
    """`F.rms_norm` runs the same element-wise ops on a CPU (truth14's p6: the rewrite ran 3%
    slower; the card claimed 13-15% of the loop)."""
    prof = profile(stat(4, cpu_time_s=0.3))
    (f,) = correlate(Report(findings=(_fusion("F.rms_norm(x, x.shape[-1:], self.weight, self.eps)"),)), prof).findings
    assert f.evidence.measurable and f.evidence.estimated_saving_s == 0.0
    assert "no fused kernel" in f.evidence.notes[-1]


def test_a_fusion_into_a_fused_cpu_op_or_on_a_gpu_keeps_its_saving():
    # Near misses: `F.layer_norm` and `F.gelu` have CPU kernels; on a GPU `F.rms_norm` is one kernel.
    prof = profile(stat(4, cpu_time_s=0.3))
    for code in ("F.layer_norm(x, x.shape[-1:], w, b, 1e-5)", 'F.gelu(x, approximate="tanh")', "my_rms_norm_fused(x)"):
        (f,) = correlate(Report(findings=(_fusion(code),)), prof).findings
        assert f.evidence.estimated_saving_s == pytest.approx(0.5 * 0.3 * 1.5), code
    (f,) = correlate(Report(findings=(_fusion("F.rms_norm(x, (64,), w, 1e-6)"),)), profile(stat(4, cpu_time_s=0.3), device="cuda")).findings
    assert f.evidence.estimated_saving_s == pytest.approx(0.5 * 0.3 * 1.5)


def test_a_finding_measured_to_save_nothing_ranks_after_one_that_saves_something():
    """A zero saving stated by the model (a fusion with no CPU kernel, lines another finding
    already counts) is no reason to rank by the lines' time: a long `F.rms_norm` candidate
    outranked a small real saving."""
    from dataclasses import replace

    report = Report(findings=(_fusion("F.rms_norm(x, x.shape[-1:], w, 1e-6)"), finding("redundant-tensor", 6)))
    out = correlate(report, profile(stat(4, cpu_time_s=0.3), stat(6, cpu_time_s=0.01, tensor_creations=5)))
    assert [f.rule for f in out.findings] == ["redundant-tensor", "operator-fusion"]
    buffer = replace(finding("record-buffer", 4), part_lines=(5,))
    out = correlate(Report(findings=(buffer, finding("list-to-tensor", 5), finding("redundant-tensor", 6))),
                    profile(stat(4, cpu_time_s=0.01), stat(5, cpu_time_s=0.3), stat(6, cpu_time_s=0.01)))
    assert [f.rule for f in out.findings] == ["record-buffer", "redundant-tensor", "list-to-tensor"]


def test_a_measured_finding_without_a_savings_model_still_ranks_by_its_time():
    # Near miss: evidence built without a model (no base time to scale to) keeps the old order.
    from paef_jupyter.model import Evidence

    slow = finding("operator-fusion", 3).with_evidence(Evidence(time_s=0.3, share=0.3))
    quick = finding("redundant-tensor", 6).with_evidence(Evidence(time_s=0.1, share=0.1))
    assert [f.rule for f in Report(findings=(quick, slow)).top()] == ["operator-fusion", "redundant-tensor"]
