"""A collected run -> the `Profile` of the report: line costs, GPU shares, trees, window."""

from __future__ import annotations

import statistics
from dataclasses import replace

from ..model import BUSY_SHARE, PARTIAL_ITERATION_NOTE, Frame, LineStat, Profile
from .attribution import Attribution, attribute, gpu_busy, line_stats
from .call_tree import LineText, cpu_tree, gpu_tree, source_line
from . import op_cost
from .collector import Collected


def build_profile(run: Collected, *, text: LineText = source_line) -> Profile:
    notes = tuple(run.notes)
    if run.trace is None:
        return Profile(
            engine="torch", wall_time_s=run.wall_s, device=run.device, notes=notes, mode="off",
            iterations=run.iterations_before,
        )
    loop = run.loop if run.mode == "window" else None
    files = run.files
    busy_run = run.cpu_wait_share is not None and run.cpu_wait_share >= BUSY_SHARE
    result = attribute(run.trace, run.sync_warnings, header=_header(run), complete=run.window_completed,
                       busy=busy_run)
    busy, idle_host, gpu_span = gpu_busy(result)
    span = result.span_ns  # the median iteration's, times the iterations, when they are known
    on_gpu = bool(result.gpu_chains)
    iterations, estimated = _iterations(run)
    profiled_iterations = run.recorded_iterations if run.mode == "window" else 0
    spread = _spread(run.window_iterations_s)
    if spread:
        notes += (spread,)
    if run.postponed:
        notes += (POSTPONED_NOTE.format(n=run.postponed),)
    partial = _cut_in_first_iteration(run, span)
    if partial:
        notes += (PARTIAL_ITERATION_NOTE.format(ms=span / 1e6),)
    traced = _tracer_share(result)
    if traced >= 0.01:
        notes += (
            f"the line tracer's own time between lines ({traced:.0%} of the profiled time) is left out of "
            "the lines' times and of the time their shares are of; what the profiler adds inside a line "
            "(recording its ops, opening its range) stays in"
            + ("; the machine being busy, the CPU waits that fell between the lines a line called are "
               "left out of that line's time and of that time too" if busy_run else ""),
        )
    if result.gc_ns and result.gc_ns >= 0.01 * (result.span[1] - result.span[0]):  # a collection of 0.1 ms is no news
        notes += (GC_NOTE.format(
            count=result.gc_count, ms=result.gc_ns / 1e6, share=result.gc_ns / max(1, result.span[1] - result.span[0]),
            where=(f", in {result.gc_iterations} of the {result.iterations} profiled iterations"
                   if result.iterations else "")),)
    recording = op_cost.note(result.op_events / result.iterations, run.op_cost_s,
                             span / 1e9 / result.iterations) if result.iterations and not partial else None
    if recording:
        notes += (recording,)
    if estimated:
        notes += (
            f"about {iterations} loop iterations in all (estimated from the time of one "
            f"unprofiled iteration); {run.recorded_iterations} were profiled",
        )
    if run.dropped_iterations:
        notes += (DROPPED_ITERATIONS_NOTE.format(n=run.dropped_iterations),)
    profile = Profile(
        engine="torch",
        wall_time_s=run.wall_s,
        cpu_time_s=span / 1e9,
        gpu_time_s=busy / 1e9,
        gpu_idle_share=(1 - busy / gpu_span) if on_gpu and gpu_span else None,
        gpu_idle_host_share=(idle_host / gpu_span) if on_gpu and gpu_span else None,
        iterations=iterations,
        profiled_iterations=profiled_iterations,
        peak_memory_bytes=run.peak_memory_bytes,
        retained_bytes_per_iteration=run.retained_bytes_per_iteration,
        overhead=_overhead(run),
        device=run.device,
        lines=_lines(run, line_stats(result, files), 1 if partial else profiled_iterations,
                     _base_time(run) * 1e9 / span if span else 0),
        cpu_tree=cpu_tree(result, files, text),
        gpu_tree=gpu_tree(result, files, text),
        notes=notes,
        mode=run.mode,
        window_ref=loop.ref if loop else None,
        window_line=loop.line if loop else 0,
        window_end_line=loop.end_line if loop else 0,
        window_loader_workers=run.loader_workers,
        profiled_time_s=run.profiled_s,
        base_time_s=_base_time(run),
        syncs_per_iteration=_per(result.totals.syncs, profiled_iterations),
        h2d_copies_per_iteration=_per(result.totals.h2d, profiled_iterations),
        d2h_copies_per_iteration=_per(result.totals.d2h, profiled_iterations),
        cpu_wait_share=run.cpu_wait_share,
    )
    if profile.busy:
        busy = (
            f"the machine was busy: the cell waited for a CPU (other processes had it) for "
            f"{run.cpu_wait_share:.0%} of the profiled time, so a line's time may hold that wait; "
            "findings that rest on a line's share of the time alone are marked low"
        )
        profile = replace(profile, notes=profile.notes + (busy,))
    return profile


# truth18: a collection falls on whichever line allocates; it is the run's, no line's work.
GC_NOTE = ("garbage collection: {count} collection(s) took {ms:.3g} ms ({share:.0%} of the profiled time){where}; "
           "left out of the lines' times and of the time their shares are of (a collection runs on whichever "
           "line allocates when the interpreter decides, not as that line's work)")


# truth17: iterations the reader's cap left out ran; the base time must not be short by them.
DROPPED_ITERATIONS_NOTE = (
    "{n} more profiled iteration(s) ran past the reader's event cap and were not read: the run's "
    "time counts them at the unprofiled iteration time; no line's time holds them"
)


def _cut_in_first_iteration(run: Collected, span: int) -> bool:
    """A cap ended the recording before the first profiled iteration did (public MoE: 512
    per-sample expert calls, 180k op events in one iteration). The recorded part is the evidence
    there is; its lines count as one iteration, said so, instead of no iteration at all."""
    return run.mode == "window" and run.truncated and run.recorded_iterations == 0 and span > 0


def _tracer_share(result: Attribution) -> float:
    """The share of the profiled span that was the line tracer's gaps between lines."""
    span = result.span[1] - result.span[0]
    return result.gap_ns / span if span > 0 else 0.0


def _header(run: Collected) -> tuple[int, int] | None:
    """(file index, code line) of the windowed loop's header, whose ranges start iterations."""
    if run.mode != "window" or run.loop is None:
        return None
    for i, code_file in enumerate(run.files):
        if code_file.ref.key == run.loop.ref.key:
            return i, run.loop.line - code_file.offset
    return None


def _lines(
    run: Collected, stats: tuple[LineStat, ...], iterations: int, scale: float
) -> tuple[LineStat, ...]:
    """Per-line window size, whether the line encloses the window, and its whole-run time
    (`scale`: the cell's unprofiled time per profiled second of its line ranges)."""
    callers = {(run.files[i].ref.key, run.files[i].cell_line(line)) for i, line in run.callers}
    return tuple(
        replace(
            s,
            iterations=iterations,
            encloses_window=(s.ref.key, s.line) in callers,
            run_time_s=s.cpu_time_s * scale,
        )
        for s in stats
    )


POSTPONED_NOTE = ("the window was put off {n} iteration(s) past its planned start: they left the loop "
                  "body before its last statement (a `continue`), so they were not the work the loop does once it "
                  "runs whole; the run's time counts them as they ran")


def _spread(times: tuple[float, ...]) -> str | None:
    """How much the profiled iterations differ: one noisy iteration shows here."""
    if len(times) < 2:
        return None
    return (
        f"{len(times)} profiled iterations: median {statistics.median(times) * 1e3:.3g} ms, "
        f"from {min(times) * 1e3:.3g} to {max(times) * 1e3:.3g} ms (profiler running)"
    )


def _per(count: int, iterations: int) -> float:
    return count / iterations if iterations else 0.0


def _base_time(run: Collected) -> float:
    """The run's time without the profiler: the iterations seen at the unprofiled iteration time
    - those before the window, the profiled ones, and (truth17) the profiled ones the reader
    left out - plus the unprofiled time after the recording stopped, when the loop went on (the
    window completed, or a cap stopped the recording inside it: the rest of the loop ran)."""
    if run.mode == "window" and run.iteration_s:
        counted = run.iterations_before + run.recorded_iterations + run.dropped_iterations
        warm, warm_n = run.warmup_s or (0.0, 0)  # put off past short iterations: those as they ran
        return (warm + _unprofiled_iteration_s(run) * (counted - warm_n)
                + (_time_after_s(run) if _went_on(run) else 0.0))
    return run.profiled_s


# Counted iterations after the window from which their mean time is the unprofiled iteration's (fewer:
# the fastest warm-up one, less the tracer's cost).
MIN_AFTER_ITERATIONS = 3


def _unprofiled_iteration_s(run: Collected) -> float:
    """One unprofiled iteration: the mean of those counted after the window (untraced but for the
    header's count, whose cost is taken out), else the fastest warm-up one less the tracer's cost."""
    if run.after_iterations is not None and run.after_iterations >= MIN_AFTER_ITERATIONS and run.after_loop_s > 0:
        return run.after_loop_s / run.after_iterations
    return run.iteration_s or 0.0


def _time_after_s(run: Collected) -> float:
    """The cell's time after the recording, less what counting the loop's iterations there cost."""
    return max(0.0, run.time_after_window_s - run.after_counting_s)


def _went_on(run: Collected) -> bool:
    """The loop ran on after the recording: the window completed, or the tracer's cap stopped it
    inside the window (the loop did not end there), or the loop is nested in another: ending inside
    the window, it runs again on the next outer iteration (PPO's minibatch loop, two iterations a
    pass: main's base time was 0.04 s of a 1.1 s run)."""
    return run.window_completed or run.capped or (run.loop is not None and run.loop.nested)


def _iterations(run: Collected) -> tuple[int, bool]:
    """All iterations of the loop; those after the window are estimated from time."""
    if run.mode != "window":
        return 0, False
    counted = run.iterations_before + run.recorded_iterations + run.dropped_iterations
    if not _went_on(run):
        return counted, False  # the loop ended inside the window: every iteration was seen
    if run.loop_length is not None and run.loop is not None and not run.loop.nested:
        return max(counted, run.loop_length), False  # read from the header
    if run.after_iterations is not None:
        return counted + run.after_iterations, False  # counted at the header after the window
    if run.iteration_s:
        return counted + int(run.time_after_window_s / run.iteration_s), True
    return counted, False


def _overhead(run: Collected) -> float | None:
    """Estimated profiled/plain wall time of this run (the benchmark measures it properly).

    In window mode the unprofiled iteration time gives the plain cost of the profiled
    iterations; elsewhere there is no plain reference in the same run.
    """
    if run.mode != "window" or not run.iteration_s or not run.recorded_iterations:
        return None
    extra = run.profiled_s - run.iteration_s * (run.recorded_iterations + run.dropped_iterations)
    plain = run.wall_s - max(0.0, extra)
    return run.wall_s / plain if plain > 0 else None


def merge_profiles(profiles: list[Profile], notes: tuple[str, ...] = (), *, cells: bool = False) -> Profile:
    """One profile for several cells run in order (`paef profile` of a notebook; `cells`), or
    several ranks of one run (figures summed over ranks).

    Per-iteration figures come from the first windowed cell (the training loop, usually); of
    cells, that cell's profiled time is also what its lines' per-iteration shares are of
    (`Profile.window_time_s`): the other cells ran whole, not per iteration.
    """
    if len(profiles) == 1 and not notes:
        return profiles[0]
    windowed = next((p for p in profiles if p.mode == "window"), None)
    base = windowed or (profiles[0] if profiles else Profile(engine="torch", wall_time_s=0.0))
    modes = {p.mode for p in profiles}
    return replace(
        base,
        wall_time_s=sum(p.wall_time_s for p in profiles),
        cpu_time_s=sum(p.cpu_time_s for p in profiles),
        gpu_time_s=sum(p.gpu_time_s for p in profiles),
        peak_memory_bytes=max((p.peak_memory_bytes for p in profiles), default=0),
        overhead=None,
        lines=tuple(s for p in profiles for s in p.lines),
        cpu_tree=_join("run", [p.cpu_tree for p in profiles]),
        gpu_tree=_join("GPU", [p.gpu_tree for p in profiles]),
        notes=notes + tuple(n for p in profiles for n in p.notes),
        mode="window" if "window" in modes else ("full" if "full" in modes else "off"),
        profiled_time_s=sum(p.profiled_time_s for p in profiles),
        base_time_s=sum(p.base_time_s for p in profiles),
        window_time_s=(windowed.window_time_s or windowed.cpu_time_s) if cells and windowed else base.window_time_s,
    )


def _join(name: str, trees: list[Frame | None]) -> Frame | None:
    """Cell trees side by side under one root, laid end to end in time."""
    kept = [t for t in trees if t is not None]
    if not kept:
        return None
    children = []
    offset = 0.0
    for tree in kept:
        children.append(_shift(tree, offset))
        offset += tree.duration_s
    return Frame(name=name, kind="root", duration_s=offset, children=tuple(children))


def _shift(frame: Frame, offset: float) -> Frame:
    return replace(
        frame, start_s=frame.start_s + offset, children=tuple(_shift(c, offset) for c in frame.children)
    )
