"""The ranks' records -> one `Profile` (what every view renders) with a per-rank summary.

Each rank's line costs are summed (rank-seconds), and so are the times the evidence is a share
of, so a finding's share is its average share over ranks and its saving is the job's. The flame
chart shows each rank's tree side by side. `Distributed` keeps what a sum hides: the split of
each rank's window, the slowest rank, the spread, and each line's cheapest and dearest rank.
Memory is O(lines), not O(ranks x lines): a line keeps its total, min and max only.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Iterable

from ..dynamic.build import merge_profiles
from ..model import AnalysisError, CellRef, Distributed, Frame, LineStat, Profile, RankLine, RankProfile, _from_plain
from .launch import Launch, LaunchResult

MAX_COMPARED_LINES = 50  # lines compared across ranks, dearest first
MAX_DRAWN_RANKS = 8  # ranks whose call trees the flame chart draws


def merge_ranks(result: LaunchResult, launch: Launch, ref: CellRef) -> tuple[Profile, tuple[AnalysisError, ...]]:
    ranks: list[RankProfile] = []
    profiles: dict[int, Profile] = {}
    errors: list[AnalysisError] = []
    for rank, record in sorted(result.records.items()):
        # The call trees are read for the ranks drawn only: with 1,024 ranks, reading every
        # rank's tree was 90% of the merge.
        profile = _from_plain(Profile, {**record["profile"], "cpu_tree": None, "gpu_tree": None})
        profiles[rank] = replace(profile, notes=tuple(f"rank {rank}: {n}" for n in profile.notes))
        summary = _rank_summary(rank, record, profile, result)
        ranks.append(summary)
        if summary.status == "failed":
            errors.append(AnalysisError(ref, record.get("line"), f"rank {rank} failed: {summary.reason}"))
    seen = {r.local_rank for r in ranks}
    for local in range(launch.nproc_per_node):
        if local in seen:
            continue
        missing = _missing(local, launch, result)
        ranks.append(missing)
        errors.append(AnalysisError(ref, None, f"rank {missing.rank} failed: {missing.reason}"))
    ranks.sort(key=lambda r: (r.rank, r.local_rank))
    world = max((int(r.get("world_size", 0)) for r in result.records.values()), default=0)
    distributed = _distributed(ranks, profiles, launch, result.exit_code, world)
    first = distributed.first_failed_rank
    # The first failure first: the others usually follow from it.
    errors.sort(key=lambda e: not e.message.startswith(f"rank {first} failed"))
    errors = [
        e if first is None or e.message.startswith(f"rank {first} failed")
        else replace(e, message=f"{e.message} (after rank {first} failed)")
        for e in errors
    ]
    notes = tuple(e.message for e in errors) + _stopped_notes(ranks)
    if not profiles:
        return Profile(engine="torch", wall_time_s=0.0, mode="off", notes=notes, distributed=distributed), tuple(errors)
    ordered = [profiles[r] for r in sorted(profiles)]
    drawn = _drawn_ranks(distributed, sorted(profiles))
    # The flame chart draws a few ranks' trees, never all of them: 1,024 trees of ~130 frames
    # would be 130k frames (a 5,000-frame chart already takes 0.1 s to build).
    # Their notes too (each rank's window figures): 1,024 ranks would give thousands of lines.
    trees = [replace(profiles[r], cpu_tree=_tree(result.records[r], "cpu_tree", r in drawn),
                     gpu_tree=_tree(result.records[r], "gpu_tree", r in drawn),
                     notes=profiles[r].notes if r in drawn else ()) for r in sorted(profiles)]
    if len(drawn) < len(profiles):
        notes += (f"the flame chart and the notes show {len(drawn)} of {len(profiles)} ranks: rank 0, the "
                  "slowest, the fastest, the median and the failed ones",)
    merged = merge_profiles(trees, notes=notes + (_summed_note(len(ordered)),))
    return (
        replace(
            merged,
            wall_time_s=max(p.wall_time_s for p in ordered),
            iterations=max(p.iterations for p in ordered),
            profiled_iterations=sum(p.profiled_iterations for p in ordered),
            lines=_summed_lines(ordered),
            cpu_tree=_named_by_rank(merged.cpu_tree, [p.cpu_tree is not None for p in trees], sorted(profiles)),
            gpu_tree=_named_by_rank(merged.gpu_tree, [p.gpu_tree is not None for p in trees], sorted(profiles)),
            syncs_per_iteration=_mean(p.syncs_per_iteration for p in ordered),
            h2d_copies_per_iteration=_mean(p.h2d_copies_per_iteration for p in ordered),
            d2h_copies_per_iteration=_mean(p.d2h_copies_per_iteration for p in ordered),
            distributed=distributed,
        ),
        tuple(errors),
    )


def _rank_summary(rank: int, record: dict[str, Any], profile: Profile, result: LaunchResult) -> RankProfile:
    split = record.get("split") or {}
    local = int(record.get("local_rank", 0))
    status = str(record.get("status", "ok"))
    return RankProfile(
        rank=rank,
        local_rank=local,
        host=str(record.get("host", "")),
        status=status,
        reason=str(record.get("reason", "")) if status != "stopped" else "ended by the launcher after another rank failed",
        stderr_tail=result.stderr_tails.get(local, "") if status == "failed" else "",
        wall_time_s=profile.wall_time_s,
        loop_time_s=profile.base_time_s,
        window_s=float(split.get("window_s", 0.0)),
        iterations=profile.profiled_iterations,
        compute_s=float(split.get("compute_s", 0.0)),
        communication_s=float(split.get("communication_s", 0.0)),
        overlapped_communication_s=float(split.get("overlapped_communication_s", 0.0)),
        exposed_communication_s=float(split.get("exposed_communication_s", 0.0)),
        data_s=float(split.get("data_s", 0.0)),
        host_s=float(split.get("host_s", 0.0)),
        collectives=int(split.get("collectives", 0)),
        backend=str(split.get("backend", "")),
        gpu_span_s=float(split.get("gpu_span_s", 0.0)),
        gpu_communication_s=float(split.get("gpu_communication_s", 0.0)),
        gpu_exposed_communication_s=float(split.get("gpu_exposed_communication_s", 0.0)),
        gpu_idle_s=float(split.get("gpu_idle_s", 0.0)),
        trace_bytes=int(record.get("trace_bytes", 0)),
        record_bytes=result.record_bytes.get(rank, 0),
        ended_at=float(record.get("ended_at", 0.0)),
        exit_code=result.exit_codes.get(local),
    )


def _missing(local: int, launch: Launch, result: LaunchResult) -> RankProfile:
    """A rank that wrote no record: it crashed before the end, was killed, or never started."""
    code = result.exit_codes.get(local)
    tail = result.stderr_tails.get(local) or result.output_tail.strip()[-2000:]
    if code is not None and code < 0:
        why = f"killed by signal {-code} before it sent its profile"
    elif code is not None:
        why = f"exited with code {code} before it sent its profile"
    else:
        why = "sent no profile (it did not start, or the launcher failed)"
    last = next((line.strip() for line in reversed(tail.splitlines()) if line.strip()), "")
    # On one node the launcher numbers ranks by local rank; elsewhere the rendezvous decides.
    rank = local if launch.single_node else (launch.node_rank or 0) * launch.nproc_per_node + local
    return RankProfile(rank=rank, local_rank=local, status="missing",
                       reason=f"{why}: {last}" if last else why, stderr_tail=tail, exit_code=code)


def _distributed(
    ranks: list[RankProfile], profiles: dict[int, Profile], launch: Launch, exit_code: int, world: int
) -> Distributed:
    """`world`: the WORLD_SIZE the ranks saw (on several nodes, more than this node's ranks)."""
    measured = [r for r in ranks if r.window_s > 0 and r.rank in profiles]
    slowest = max(measured, key=lambda r: r.busy_per_iteration_s, default=None)
    fastest = min(measured, key=lambda r: r.busy_per_iteration_s, default=None)
    spread = 0.0
    if slowest and fastest and slowest.busy_per_iteration_s > 0:
        spread = (slowest.busy_per_iteration_s - fastest.busy_per_iteration_s) / slowest.busy_per_iteration_s
    return Distributed(
        world_size=max(world, launch.nproc_per_node, max((r.rank + 1 for r in ranks), default=0)),
        nproc_per_node=launch.nproc_per_node,
        nnodes=int(launch.nnodes.split(":")[-1]) if launch.nnodes.split(":")[-1].isdigit() else 1,
        launcher_exit=exit_code,
        ranks=tuple(ranks),
        slowest_rank=slowest.rank if slowest and len(measured) > 1 else None,
        spread=spread,
        lines=_compared_lines(profiles),
        first_failed_rank=_first_failed(ranks),
    )


def _first_failed(ranks: list[RankProfile]) -> int | None:
    """A rank that died on its own without a record (a crash, `os._exit`: an exit code that is
    not the launcher's SIGTERM/SIGKILL), else the failed rank whose script ended first."""
    crashed = [r for r in ranks if r.status == "missing" and r.exit_code not in (None, -15, -9)]
    if crashed:
        return crashed[0].rank
    failed = [r for r in ranks if r.status == "failed" and r.ended_at]
    if failed:
        return min(failed, key=lambda r: r.ended_at).rank
    missing = [r for r in ranks if r.status in ("failed", "missing")]
    return missing[0].rank if missing else None


def _summed_lines(profiles: list[Profile]) -> tuple[LineStat, ...]:
    """One `LineStat` per line, every count and time summed over ranks."""
    merged: dict[tuple[Any, int], LineStat] = {}
    for profile in profiles:
        for stat in profile.lines:
            key = (stat.ref.key, stat.line)
            if key not in merged:
                merged[key] = stat
                continue
            old = merged[key]
            merged[key] = replace(
                old,
                encloses_window=old.encloses_window or stat.encloses_window,
                peak_memory_mb=max(old.peak_memory_mb, stat.peak_memory_mb),
                **{f.name: getattr(old, f.name) + getattr(stat, f.name) for f in fields(LineStat) if f.name in _ADDED},
            )
    return tuple(merged.values())


_ADDED = frozenset(
    f.name for f in fields(LineStat)
    if f.type in ("float", "int") and f.name not in ("line", "peak_memory_mb")
)


def _compared_lines(profiles: dict[int, Profile]) -> tuple[RankLine, ...]:
    per_line: dict[tuple[Any, int], list[tuple[float, int, CellRef]]] = {}
    for rank, profile in profiles.items():
        for stat in profile.lines:
            if stat.encloses_window:
                continue  # a line around the window (the epoch loop): its time is everything's
            per_line.setdefault((stat.ref.key, stat.line), []).append((stat.cpu_time_s, rank, stat.ref))
    out = []
    for (_, line), values in per_line.items():
        low, high = min(values), max(values)
        out.append(RankLine(
            ref=values[0][2], line=line, total_s=sum(v[0] for v in values), min_s=low[0], max_s=high[0],
            min_rank=low[1], max_rank=high[1], ranks=len(values),
        ))
    out.sort(key=lambda r: -r.total_s)
    return tuple(out[:MAX_COMPARED_LINES])


def _named_by_rank(tree, present: list[bool], ranks: list[int]):  # noqa: ANN001, ANN202 - Frame | None
    if tree is None:
        return None
    shown = [rank for rank, has in zip(ranks, present) if has]
    return replace(tree, name="ranks", children=tuple(
        replace(child, name=f"rank {rank}") for child, rank in zip(tree.children, shown)
    ))


def _tree(record: dict[str, Any], key: str, drawn: bool) -> Frame | None:
    return _from_plain(Frame, record["profile"].get(key)) if drawn else None


def _drawn_ranks(dist: Distributed, ranks: list[int]) -> set[int]:
    """Every rank up to MAX_DRAWN_RANKS; beyond, rank 0, the slowest, the fastest, the median
    (by time per iteration not waiting on collectives) and the failed ranks."""
    if len(ranks) <= MAX_DRAWN_RANKS:
        return set(ranks)
    by_busy = sorted((r for r in dist.ranks if r.rank in ranks), key=lambda r: r.busy_per_iteration_s)
    picked = {ranks[0]}
    if by_busy:
        picked |= {by_busy[0].rank, by_busy[-1].rank, by_busy[len(by_busy) // 2].rank}
    failed = [r.rank for r in dist.ranks if r.status != "ok" and r.rank in ranks]
    picked.update(failed[: max(0, MAX_DRAWN_RANKS - len(picked))])
    return picked


def _stopped_notes(ranks: list[RankProfile]) -> tuple[str, ...]:
    return tuple(f"rank {r.rank} was {r.reason}; its data up to then is kept" for r in ranks if r.status == "stopped")


def _summed_note(n: int) -> str:
    return (f"{n} rank(s) profiled, each over its own window of the loop: line times and shares are "
            f"summed over ranks (rank-seconds); the per-rank summary compares them")


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0
