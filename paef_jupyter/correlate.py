"""Static findings x measured profile -> findings with evidence, ranked; plus what no rule saw.

Pure: a `Report` and a `Profile` in, a new `Report` out. A finding's evidence is the sum of
the `LineStat`s of its lines. Its estimated saving is what its lines cost over the whole run
without the profiler (`LineStat.run_time_s`: the window's figure scaled to its cell's
unprofiled time), times the share of that cost the rule's fix typically removes (`SAVING`
below: rough, stated, only used to rank). Profiles built by hand without `run_time_s` use
the line's share of the profiled time applied to `Profile.base_time_s`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable

from .model import SAVING_MODEL_NOTE, CellRef, Evidence, Finding, Frame, LineStat, Profile, Report, Severity
from .static.hoist_chain import hoist_chain
from .static.item_work import per_item_lines
from .inner_loops import InnerLoop, inner_loops

LineKey = tuple[tuple[str | None, int | None], int]

# The fraction of a line's measured cost that the rule's fix usually removes.
SAVING: dict[str, float] = {
    "cpu-function": 0.9,
    "dict-as-list": 0.7,
    "redundant-tensor": 0.9,
    "ping-pong": 0.8,
    "list-to-tensor": 0.7,
    "operator-fusion": 0.5,
    "host-sync": 0.7,
    "cpu-then-move": 0.5,
    "pageable-transfer": 0.3,
    "sync-dataloader": 0.6,
    "eval-without-no-grad": 0.3,
    "graph-retention": 0.2,
    "elementwise-loop": 0.9,
    "record-buffer": 0.8,
}
DEFAULT_SAVING = 0.5

# Below this share of the profiled time, with no copy or sync, a line "costs nothing".
NEGLIGIBLE_SHARE = 0.005
# A line whose non-torch time takes this share of the loop is a CPU-side bottleneck.
DOMINANT_SHARE = 0.25
# ... and takes at least this much per iteration: below it, the "outside torch" time of a line
# is the call's own dispatch and the profiler's range around the line (microseconds each),
# which no rewrite removes, and a preemption on a busy machine decides the share.
HOST_FLOOR_S = 50e-6
# Rules whose cost is a host<->device copy or a device sync: nothing to measure on a CPU.
GPU_COSTS = frozenset({"cpu-then-move", "pageable-transfer", "host-sync"})
# What a GPU-only cost would be, said on a CPU run instead of a measurement.
PREDICTED: dict[str, str] = {
    "host-sync": "on a GPU this line would stall the host until the device finishes its queued "
    "work; not measurable on this CPU run",
    "cpu-then-move": "on a GPU each host-to-device copy here would add a transfer; not measurable "
    "on this CPU run",
    "pageable-transfer": "on a GPU these copies would go through pageable memory and block the host; "
    "not measurable on this CPU run",
    # `.cpu().numpy()` and `torch.from_numpy` share memory on a CPU: the round trip is a GPU's cost
    "ping-pong": "on a GPU this round trip would copy the tensor to the host and back and wait for "
    "the device each time; not measurable on this CPU run",
}
# Rules whose fix moves the whole call out of the loop: what the call runs is part of them.
HOISTS = frozenset({"cpu-function", "redundant-tensor"})
# Rules whose cause is the per-item work the loader's iteration runs in the training process (a
# dataset's `__getitem__` that reads the item or draws a random number per item): those lines
# are the finding's evidence, not findings of their own. Work there that does not depend on the
# item stays its own finding: its fix is to compute it once (truth66's reverted fix; truth67).
LOADER_OWNS_ITS_ITEM_WORK = frozenset({"sync-dataloader"})
# Fused ops that torch runs as the same element-wise ops on a CPU (no fused CPU kernel in torch
# 2.13: `F.rms_norm` forward+backward timed at 0.6-1.3x the hand-written ops, truth14), so the
# fusion saves time on a GPU only.
NOT_FUSED_ON_CPU = ("rms_norm",)
# A transfer below this size is "small" (many of them cost more in latency than bandwidth).
SMALL_COPY_BYTES = 1 << 20


def correlate(report: Report, profile: Profile, *, max_dynamic: int | None = None) -> Report:
    """`max_dynamic` keeps only the costliest dynamic-only findings (the top-K bottlenecks)."""
    total = _profiled_time(profile)
    findings: list[Finding] = []
    covered: set[LineKey] = set()
    chained = [_with_hoist_chain(finding, report) for finding in report.findings]
    for finding, chain in chained:
        # A GPU prediction on a CPU run: its card shows its own lines, not the NumPy work on its
        # part lines (measured apart, `_round_trip_work`).
        parts = () if profile.device == "cpu" and finding.device_cost_only else finding.part_lines
        stats = _lines(profile, finding.ref, finding.line, finding.end_line, parts)
        use = None if stats else _loop_use(finding, report, profile)
        correlated = _chain_noted(_with_evidence(finding, stats, use, report, profile, total), chain, stats)
        findings.append(_memory_severity(_said_as_prediction(_cap_kept(finding, correlated), profile), profile))
        covered.update((finding.ref.key, line) for line in range(finding.line, finding.end_line + 1))
        covered.update((finding.ref.key, line) for line in finding.part_lines)
        if use is not None:
            covered.add((use.ref.key, use.line))
            if finding.rule in LOADER_OWNS_ITS_ITEM_WORK:
                covered.update(_item_work_under(profile.cpu_tree, (use.ref.key, use.line), report))
    hoisted = {
        (f.ref.key, line) for f, _ in chained if f.rule in HOISTS
        for line in (*range(f.line, f.end_line + 1), *f.part_lines)
    }
    loops = _element_loop_findings(report, profile, covered, total)
    for loop in loops:
        covered.update((loop.ref.key, line) for line in range(loop.line, loop.end_line + 1))
    dynamic = Report(findings=tuple(loops + _dynamic_findings(profile, covered, total, hoisted, _headers(report)))).top(
        max_dynamic if max_dynamic is not None else len(profile.lines)
    )
    dynamic += _round_trip_work(report.findings, profile, total)
    findings = _less_what_deeper_findings_own(findings + dynamic, profile, report)
    findings = _each_line_counted_once(findings, profile, report)
    ranked = replace(report, findings=tuple(findings), profile=profile)
    return replace(ranked, findings=tuple(ranked.top(len(findings))))


def _with_hoist_chain(finding: Finding, report: Report) -> tuple[Finding, tuple[int, ...]]:
    """A hoist's later loop-invariant lines that consume its result (`static.hoist_chain`: `eigh` of the
    hoisted `np.cov`, the matrix built from it) move with it: they are part of the finding, measured with
    it, and no finding of their own (truth67 b03: the `eigh` line as a dynamic low `cpu-function` ranked
    above the static card on `np.cov`)."""
    if finding.rule not in HOISTS:
        return finding, ()
    unit = report.source_of(finding.ref)
    if unit is None:
        return finding, ()
    chain = tuple(n for n in hoist_chain(unit.text, finding.line)
                  if not finding.line <= n <= finding.end_line and n not in finding.part_lines)
    if not chain:
        return finding, ()
    return replace(finding, part_lines=finding.part_lines + chain), chain


HOIST_CHAIN_NOTE = ("with the loop-invariant line(s) {lines} that use its result: one hoist, their measured time "
                    "counted with it")


def _chain_noted(finding: Finding, chain: tuple[int, ...], stats: list[LineStat]) -> Finding:
    ev = finding.evidence
    measured = sorted({s.line for s in stats if s.line in chain})
    if not chain or ev is None or not measured:
        return finding
    lines = ", ".join(str(n) for n in measured)
    return replace(finding, evidence=replace(ev, notes=ev.notes + (HOIST_CHAIN_NOTE.format(lines=lines),)))


def _profiled_time(profile: Profile) -> float:
    """What a line's share is of: the window's iterations (of a notebook, the windowed cell's
    alone: the cells run whole are no part of an iteration), else the profiled time."""
    return profile.window_time_s or profile.cpu_time_s or profile.profiled_time_s or profile.wall_time_s


def _lines(
    profile: Profile, ref: CellRef, line: int, end_line: int, part_lines: tuple[int, ...] = ()
) -> list[LineStat]:
    """A finding's lines, and the lines that are part of it elsewhere (a round trip's read-back
    line, where its sync and its Python work are paid)."""
    return [
        s for s in profile.lines
        if s.ref.key == ref.key and (line <= s.line <= end_line or s.line in part_lines)
    ]


def evidence_of(stats: Iterable[LineStat], profile: Profile, total: float, rule: str,
                device_cost_only: bool = False, saving: tuple[float, str] | None = None) -> Evidence:
    """`saving`: the fraction of the lines' time a fix removes and why, where the rule's usual
    one (`SAVING`) does not fit."""
    stats = list(stats)
    time_s = sum(s.cpu_time_s for s in stats)
    base = profile.base_time_s or profile.wall_time_s
    run_time = sum(s.run_time_s for s in stats)
    if run_time and base:
        share = run_time / base  # of the whole run: cells of a notebook have their own windows
    else:
        share = time_s / total if total > 0 else 0.0
        run_time = share * base
    ev = Evidence(
        time_s=time_s,
        share=share,
        ops=sum(s.ops for s in stats),
        h2d_copies=sum(s.h2d_copies for s in stats),
        h2d_bytes=sum(s.h2d_bytes for s in stats),
        d2h_copies=sum(s.d2h_copies for s in stats),
        d2h_bytes=sum(s.d2h_bytes for s in stats),
        pageable_copies=sum(s.pageable_copies for s in stats),
        syncs=sum(s.syncs for s in stats),
        gpu_time_s=sum(s.gpu_time_s for s in stats),
        iterations=_iterations(stats),
        copies=sum(s.copies for s in stats),
        tensor_creations=sum(s.tensor_creations for s in stats),
        sync_warnings=sum(s.sync_warnings for s in stats),
    )
    if profile.device == "cpu" and (rule in GPU_COSTS or device_cost_only):
        # Copies and syncs cost nothing on a CPU: the cost is a prediction, never a measurement,
        # so it ranks after everything measured.
        return replace(ev, measurable=False, notes=(PREDICTED[rule],))
    moved = ev.h2d_copies or ev.d2h_copies or ev.syncs or ev.copies or ev.sync_warnings
    if share < NEGLIGIBLE_SHARE and not moved and not ev.gpu_time_s:
        return _kept_memory(replace(ev, measurable=False, notes=("its lines cost nothing measurable in this run",)),
                            profile, rule)
    fraction, why = saving or (SAVING.get(rule, DEFAULT_SAVING), f"what a `{rule}` fix usually removes")
    model = f"{SAVING_MODEL_NOTE}{fraction:.0%} of these lines' measured time ({why})"
    notes = _notes(ev, profile.partial_iteration) + (model,)
    backward = _backward_run_time(stats) if rule in GRAPH_DROPPED | GRAPH_FUSED else 0.0
    if backward > 0 and base:
        notes += (f"plus the backward through the graph these lines build: {backward / base:.0%} of the run, "
                  "measured on the autograd nodes their ops created and paid where `backward()` is called"
                  + (f"; {GRAPH_FUSED_WHY.get(rule, 'the fused op')}'s one backward node saves the same {fraction:.0%} of it"
                     if rule in GRAPH_FUSED
                     else ""),)
    saving_s = fraction * (run_time + backward) if rule in GRAPH_FUSED else fraction * run_time + backward
    return _kept_memory(replace(ev, estimated_saving_s=saving_s, notes=notes), profile, rule)


# Rules whose cost is memory kept alive across iterations (`api.MEMORY_RULES` records it).
KEPT_MEMORY = frozenset({"graph-retention"})
# Less than this per iteration is no growth a card can stand on (a Python float's tensor, a scalar
# loss: 4 bytes each).
KEPT_FLOOR_BYTES = 4096
KEPT_NOTE = ("memory measured: the allocator held {size} more after each profiled iteration (median of the "
             "window's), what the kept graphs saved: it grows until they are released")
NOT_KEPT_NOTE = ("memory measured: the allocator held no more after each profiled iteration ({size}): the graphs "
                 "kept here saved no tensor a backward did not free; what stays is their nodes, outside the allocator")


def _kept_memory(ev: Evidence, profile: Profile, rule: str) -> Evidence:
    """A retained graph's cost is memory: on a CPU its lines take no time to speak of, but the
    window's allocator growth (`Profile.retained_bytes_per_iteration`) measures it (truth67:
    a metric of each step's softmax output summed with its graph, 256 KB per iteration; a loss
    kept after its `backward()`, 4 bytes: its saved tensors were freed by the backward)."""
    kept = profile.retained_bytes_per_iteration
    if rule not in KEPT_MEMORY or kept is None:
        return ev
    if kept >= KEPT_FLOOR_BYTES:
        notes = tuple(n for n in ev.notes if n != "its lines cost nothing measurable in this run")
        return replace(ev, measurable=True, notes=notes + (KEPT_NOTE.format(size=_size(kept)),))
    return replace(ev, notes=ev.notes + (NOT_KEPT_NOTE.format(size=_size(kept)),))


# The severity a kept graph's card falls to where the window measured it keeping no memory.
NOT_KEPT_SEVERITY = Severity.LOW
NOT_KEPT_SEVERITY_NOTE = ("low in this profile: the memory measured shows no growth (the static analysis rates it "
                          "{severity}, for the graphs' nodes and for runs that keep more)")


_NOT_KEPT_START = NOT_KEPT_SEVERITY_NOTE.split(":")[0]


def _memory_severity(finding: Finding, profile: Profile) -> Finding:
    """A kept graph whose window measured no growth (a loss kept after its `backward()`: 4 bytes per
    iteration, truth67 b08) is no high card: issue 9 calls an alarm without evidence at the top a false
    alarm. The severity follows the measurement where there is one, and stays the rule's where there
    is none (`paef scan`, `%%paef`, a CUDA run: `retained_bytes_per_iteration` None)."""
    kept = profile.retained_bytes_per_iteration
    ev = finding.evidence
    if finding.rule not in KEPT_MEMORY or kept is None or kept >= KEPT_FLOOR_BYTES or ev is None:
        return finding
    if finding.severity.weight <= NOT_KEPT_SEVERITY.weight:
        return finding
    note = NOT_KEPT_SEVERITY_NOTE.format(severity=finding.severity.value)
    return replace(finding, severity=NOT_KEPT_SEVERITY, evidence=replace(ev, notes=ev.notes + (note,)))


def _size(n: int) -> str:
    return f"{n / 2**20:.3g} MiB" if n >= 2**20 else f"{n / 2**10:.3g} KiB" if n >= 2**10 else f"{n} bytes"


# Rules whose fix builds no autograd graph on the lines: their backward goes too.
GRAPH_DROPPED = frozenset({"eval-without-no-grad"})
# Rules whose fix replaces the lines' chain of ops by one op: its backward (one node for the chain's
# many, each of which reads and writes the whole tensor) shrinks as the forward does. A hand-written
# tanh GELU's backward measured 3x its forward (truth66 a06: 22.6 vs 7.1 ms over the window), paid on
# the `backward()` line: without it the card said 11% of the run where the fused op saved 41%.
#
# An element loop's fix is the same kind: one batched op per line in place of one op per row, so one
# backward node where the loop built one per row (truth69 d08: a batch-hard triplet loss looped over
# its 64 anchors, 5 ops each; the loop's nodes took 0.20 s of the window's backward, more than the
# loop's own 0.13 s, all of it paid on `loss.backward()`'s line in another module: the card said 27%
# of the run where the vectorised loss saved 86-92% of the loop).
GRAPH_FUSED = frozenset({"operator-fusion", "elementwise-loop"})
# What replaces the lines' chain, as the card's note says it.
GRAPH_FUSED_WHY = {"operator-fusion": "the fused op", "elementwise-loop": "the batched op"}


def _backward_run_time(stats: list[LineStat]) -> float:
    """The lines' measured backward (`LineStat.backward_s`), scaled to the run as their time is."""
    return sum(s.backward_s * (s.run_time_s / s.cpu_time_s) for s in stats if s.backward_s and s.cpu_time_s)


def _iterations(stats: list[LineStat]) -> int:
    """The window the lines were measured over (cells of one file each have their own; 0 for
    lines profiled outside any loop window)."""
    return max((s.iterations for s in stats), default=0)


PARTIAL_EVIDENCE = ("measured on part of one iteration (a cap stopped the recording inside the first "
                    "profiled one); its share of the run is that part's, scaled to the run")


def _notes(ev: Evidence, partial: bool = False) -> tuple[str, ...]:
    notes = [f"{ev.share:.0%} of the run"]
    if partial:
        return (notes[0], PARTIAL_EVIDENCE)  # no per-iteration counts: no whole iteration
    n = ev.iterations
    if n:
        if ev.syncs:
            notes.append(f"{ev.syncs / n:g} sync(s) per iteration")
        if ev.h2d_copies:
            notes.append(f"{ev.h2d_copies / n:g} host-to-device copies per iteration")
    return tuple(notes)


def _with_evidence(
    finding: Finding,
    stats: list[LineStat],
    use: LineStat | None,
    report: Report,
    profile: Profile,
    total: float,
) -> Finding:
    if use is not None:
        ev = evidence_of([use], profile, total, finding.rule, finding.device_cost_only)
        note = f"measured where `{_assigned(report, finding)}` is iterated (line {use.line})"
        return finding.with_evidence(replace(ev, notes=(note,) + ev.notes), source="both")
    if not stats:
        where = "outside the profiled window" if profile.mode == "window" else "not run"
        return finding.with_evidence(Evidence(notes=(f"its lines were {where}",)))
    ev = evidence_of(stats, profile, total, finding.rule, finding.device_cost_only, _device_saving(finding, profile))
    return finding.with_evidence(ev, source="both" if ev.measurable else finding.source)


PREDICTION_LEAD = "Predicted for a GPU run, not measured on this CPU: "


def _said_as_prediction(finding: Finding, profile: Profile) -> Finding:
    """On a CPU run a copy's or a sync's cost is a GPU's: the card's own words (the static
    message says "the CPU waits for all queued GPU work", "the GPU idles") are said as a
    prediction, not only its note - and so is a card whose lines fell outside the window."""
    if profile.device != "cpu" or not (finding.rule in GPU_COSTS or finding.device_cost_only):
        return finding
    finding = _capped_as_prediction(finding)
    if finding.message.startswith(PREDICTION_LEAD):
        return finding
    ev = finding.evidence
    if ev is not None and finding.rule in PREDICTED and PREDICTED[finding.rule] not in ev.notes:
        ev = replace(ev, measurable=False, notes=ev.notes + (PREDICTED[finding.rule],))
    return replace(finding, message=PREDICTION_LEAD + finding.message, evidence=ev)


# The most a cost the run could not measure may say on a CPU profile (`paef scan` keeps its own).
PREDICTION_CAP = Severity.MEDIUM
CAPPED_NOTE = ("at most medium in a CPU profile: a GPU cost this run could not measure "
               "(`paef scan` rates it {severity}); ranked after every measured finding")
_CAPPED_START = CAPPED_NOTE.split(":")[0]


def _cap_kept(before: Finding, after: Finding) -> Finding:
    """A report correlated again (Re-run and compare) is already capped: its fresh evidence
    keeps the card's word for what the scan rates it."""
    kept = tuple(n for n in (before.evidence.notes if before.evidence else ())
                 if n.startswith((_CAPPED_START, _NOT_KEPT_START)))
    if not kept or after.evidence is None or set(kept) <= set(after.evidence.notes):
        return after
    return replace(after, evidence=replace(after.evidence, notes=after.evidence.notes + kept))


def _capped_as_prediction(finding: Finding) -> Finding:
    """A GPU cost a CPU profile could not measure is not `high` there: the report ranks measured
    costs first, and a loud unmeasured card would read as the run's worst cost (truth15,
    pix2pix's predicted `.item()` syncs). The card says what the scan rates it."""
    if finding.severity.weight <= PREDICTION_CAP.weight:
        return finding
    note = CAPPED_NOTE.format(severity=finding.severity.value)
    ev = finding.evidence if finding.evidence is not None else Evidence(measurable=False)
    if note not in ev.notes:
        ev = replace(ev, notes=ev.notes + (note,))
    return replace(finding, severity=PREDICTION_CAP, evidence=ev)


def _device_saving(finding: Finding, profile: Profile) -> tuple[float, str] | None:
    """A fusion into an op with no fused kernel on the profiled CPU removes nothing there."""
    if finding.rule != "operator-fusion" or profile.device != "cpu" or finding.fix is None:
        return None
    code = finding.fix.suggestion or finding.fix.description
    for op in NOT_FUSED_ON_CPU:
        if re.search(rf"\b{op}\(", code):
            return 0.0, (f"on a CPU `{op}` runs the same element-wise ops, with no fused kernel: no time to "
                         "gain on this run; on a GPU it is one kernel")
    return None


_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=[^=]")


def _assigned(report: Report, finding: Finding) -> str | None:
    unit = report.source_of(finding.ref)
    lines = unit.lines() if unit else []
    if not 0 < finding.line <= len(lines):
        return None
    match = _ASSIGNED.match(lines[finding.line - 1])
    return match.group(1) if match else None


def _loop_use(finding: Finding, report: Report, profile: Profile) -> LineStat | None:
    """A finding on the line that builds what the profiled loop iterates (`loader =
    DataLoader(...)`, before the window) is measured on the loop's header line."""
    ref = profile.window_ref
    name = _assigned(report, finding)
    unit = report.source_of(finding.ref)
    if ref is None or name is None or unit is None or ref.key != finding.ref.key:
        return None
    lines = unit.lines()
    if not 0 < profile.window_line <= len(lines):
        return None
    header = lines[profile.window_line - 1]
    if not re.search(rf"\bin\b.*\b{re.escape(name)}\b", header):
        return None
    return profile.line(ref, profile.window_line)


def _lines_under(tree: Frame | None, outer: LineKey) -> set[LineKey]:
    """The Python lines that ran while the `outer` line had called them (at any depth)."""
    found: set[LineKey] = set()

    def walk(frame: Frame, inside: bool) -> None:
        here = (frame.ref.key, frame.line) if frame.kind == "python" and frame.ref and frame.line else None
        if inside and here is not None and here != outer:
            found.add(here)
        for child in frame.children:
            walk(child, inside or here == outer)

    if tree is not None:
        walk(tree, False)
    return found


def _item_work_under(tree: Frame | None, loader_line: LineKey, report: Report) -> set[LineKey]:
    """The lines a loader's iteration ran that are per-item work (`static.item_work`: a
    `__getitem__` statement that depends on the item), and every line those ran in turn."""
    per_item = {(unit.ref.key, n) for unit in report.sources for n in per_item_lines(unit.text)}
    owned = _lines_under(tree, loader_line) & per_item
    for key in list(owned):
        owned |= _lines_under(tree, key)
    return owned


def _measured_lines(finding: Finding, report: Report, profile: Profile) -> set[LineKey]:
    """The lines a finding's evidence was read from (its own, its parts, or the loop's use)."""
    keys = {(finding.ref.key, line) for line in range(finding.line, finding.end_line + 1)}
    keys.update((finding.ref.key, line) for line in finding.part_lines)
    if not _lines(profile, finding.ref, finding.line, finding.end_line, finding.part_lines):
        use = _loop_use(finding, report, profile)
        if use is not None:
            keys.add((use.ref.key, use.line))
    return keys


def _torch_s(frame: Frame) -> float:
    """Time of the torch work (ops, torch's own ranges) under a line's frame."""
    return sum(c.duration_s if c.kind != "python" else _torch_s(c) for c in frame.children)


def _inside(tree: Frame | None, outer: set[LineKey], inner: set[LineKey], outside_torch: bool) -> float:
    """The share of the time of the `outer` lines' frames spent in deeper `inner` lines they
    called (a helper's lines, a `Dataset.__getitem__` under the loop's header), from the call
    tree. `outside_torch`: count only the time outside torch work on both sides."""

    def cost(frame: Frame) -> float:
        return frame.duration_s - (_torch_s(frame) if outside_torch else 0.0)

    def key(frame: Frame) -> LineKey | None:
        return (frame.ref.key, frame.line) if frame.kind == "python" and frame.ref and frame.line else None

    def deeper(frame: Frame) -> float:
        found = 0.0
        for child in frame.children:
            k = key(child)
            if k is not None and k in inner and k not in outer:
                found += cost(child)
            elif child.kind == "python" or not outside_torch:  # torch's own ranges hold lines too
                found += deeper(child)
        return found

    whole = part = 0.0
    stack = [tree] if tree is not None else []
    while stack:
        frame = stack.pop()
        if key(frame) in outer:
            whole += cost(frame)
            part += deeper(frame)
        else:
            stack.extend(frame.children)
    return min(1.0, part / whole) if whole > 0 else 0.0


def _called_lines(tree: Frame | None, key: LineKey) -> dict[LineKey, float]:
    """Per cell line that the `key` line called (the first cell lines below its frames: a
    helper's), its time outside torch work."""
    out: dict[LineKey, float] = {}

    def below(frame: Frame) -> None:
        for child in frame.children:
            k = (child.ref.key, child.line) if child.kind == "python" and child.ref is not None else None
            if k is not None and k != key:
                out[k] = out.get(k, 0.0) + child.duration_s - _torch_s(child)
            elif child.kind == "python":  # a library's frame, or the line's own comprehension
                below(child)

    stack = [tree] if tree is not None else []
    while stack:
        frame = stack.pop()
        if frame.kind == "python" and frame.ref is not None and (frame.ref.key, frame.line) == key:
            below(frame)
        else:
            stack.extend(frame.children)
    return out


def _where_called(tree: Frame | None, stat: LineStat) -> str:
    """", most of it in lines 14, 15, which it calls": the helper lines (each 10% or more) that
    together hold at least half of a call line's CPU work outside torch, the cause to look at;
    else "" (the line's own work)."""
    called = _called_lines(tree, (stat.ref.key, stat.line))
    whole = stat.cpu_time_s - stat.op_time_s
    if not called or whole <= 0:
        return ""
    kept = [k for k, cost in called.items() if cost >= 0.1 * whole]
    if sum(called[k] for k in kept) < 0.5 * whole:
        return ""
    lines = sorted(line for _, line in kept)
    spelled = f"line {lines[0]}" if len(lines) == 1 else "lines " + ", ".join(map(str, lines))
    return f", most of it in {spelled}, which it calls"


def _under(tree: Frame | None, key: LineKey, outer: set[LineKey]) -> float:
    """The share of a line's time spent while one of the `outer` lines had called it."""

    def walk(frame: Frame, inside: bool) -> tuple[float, float]:
        here = (frame.ref.key, frame.line) if frame.kind == "python" and frame.ref else None
        if here == key:
            return frame.duration_s, frame.duration_s if inside else 0.0
        whole = part = 0.0
        for child in frame.children:
            w, p = walk(child, inside or here in outer)
            whole, part = whole + w, part + p
        return whole, part

    whole, part = walk(tree, False) if tree is not None else (0.0, 0.0)
    return part / whole if whole > 0 else 0.0


def _less_what_deeper_findings_own(findings: list[Finding], profile: Profile, report: Report) -> list[Finding]:
    """A line that calls into another finding's lines holds their time too: its saving counts
    only the rest, so the cause (the helper's line) ranks above the line that called it and no
    second has been counted twice."""
    measured = [_measured_lines(f, report, profile) for f in findings]
    out = []
    for i, finding in enumerate(findings):
        ev = finding.evidence
        if ev is None or not ev.measurable or not ev.estimated_saving_s:
            out.append(finding)
            continue
        others = set().union(*(m for j, m in enumerate(measured) if j != i)) - measured[i]
        owned = _inside(profile.cpu_tree, measured[i], others, outside_torch=False)
        if owned <= 0:
            out.append(finding)
            continue
        note = f"less the {owned:.0%} of that time spent in deeper lines that other findings report"
        ev = replace(ev, estimated_saving_s=ev.estimated_saving_s * (1 - owned), notes=ev.notes + (note,))
        out.append(replace(finding, evidence=ev))
    return out


def _each_line_counted_once(findings: list[Finding], profile: Profile, report: Report) -> list[Finding]:
    """Two findings measured on the same lines (a replay buffer's conversions are its part lines
    and `list-to-tensor` findings of their own) would each claim those lines' time: the one that
    saves the most keeps them, the others' savings count only their other lines."""
    order = sorted(
        range(len(findings)),
        key=lambda i: -(findings[i].evidence.estimated_saving_s if findings[i].evidence else 0.0),
    )
    cost = {(s.ref.key, s.line): s.run_time_s or s.cpu_time_s for s in profile.lines}
    claimed: dict[LineKey, Finding] = {}
    out = list(findings)
    for i in order:
        finding = findings[i]
        ev = finding.evidence
        keys = _measured_lines(finding, report, profile)
        if ev is not None and ev.measurable and ev.estimated_saving_s:
            whole = sum(cost.get(k, 0.0) for k in keys)
            taken = sorted(k for k in keys if k in claimed and cost.get(k, 0.0) > 0)
            if whole > 0 and taken:
                shared = sum(cost[k] for k in taken) / whole
                owner = claimed[taken[0]]
                spelled = ", ".join(str(line) for _, line in taken)
                note = (f"less the {shared:.0%} of that time on line(s) {spelled}, which the "
                        f"`{owner.rule}` finding on line {owner.line} already counts")
                ev = replace(ev, estimated_saving_s=ev.estimated_saving_s * (1 - shared), notes=ev.notes + (note,))
                out[i] = replace(finding, evidence=ev)
            for k in keys:
                claimed.setdefault(k, finding)
    return out


def _dynamic_findings(
    profile: Profile, covered: set[LineKey], total: float, hoisted: set[LineKey] = frozenset(),
    headers: set[LineKey] = frozenset(),
) -> list[Finding]:
    """Per line, what no static rule saw. A line's own cost leaves out the deeper lines it
    called that are findings already (static ones, then the dynamic ones of this pass); a line
    that runs mostly inside a call a static finding moves out of the loop (`hoisted`) is part of
    that finding."""
    blocks = _host_blocks(profile, covered, total, headers)
    in_blocks = {(s.ref.key, s.line) for block in blocks for s, _ in block}
    candidates = [
        stat for stat in profile.lines
        # a line that called into the loop holds all of it: not itself a bottleneck
        if (stat.ref.key, stat.line) not in covered | in_blocks and not stat.encloses_window
        and _dynamic_rule(stat, profile, total, covered) is not None
        and not (hoisted and _under(profile.cpu_tree, (stat.ref.key, stat.line), hoisted) >= 0.5)
    ]
    claimed = covered | in_blocks | {(stat.ref.key, stat.line) for stat in candidates}
    out: list[Finding] = [_block_finding(block, profile, total) for block in blocks]
    for stat in candidates:
        found = _dynamic_rule(stat, profile, total, claimed)
        if found is not None:
            rule, severity, message, explanation = found
            ev = evidence_of([stat], profile, total, rule)
            uneven = _uneven([stat])
            if uneven is not None and uneven in explanation:  # rated by its share (`_timed`)
                ev = _with_note(ev, uneven)
            out.append(
                Finding(
                    rule=rule,
                    ref=stat.ref,
                    line=stat.line,
                    end_line=stat.line,
                    severity=severity,
                    message=message,
                    explanation=explanation,
                    evidence=ev,
                    source="dynamic",
                )
            )
    return out


def _element_loop_findings(report: Report, profile: Profile, covered: set[LineKey], total: float) -> list[Finding]:
    """Inner loops whose body ran many times per iteration in small torch ops (`inner_loops`), that
    no static finding covers and that hold DOMINANT_SHARE of the run with the backward their ops'
    nodes cost (truth70 e04: a row softmax looped over 128 rows, 11 ops a row, and its 1,400
    backward nodes, 90% of the run; no card at all before). Their fix is one batched op per line."""
    base = profile.base_time_s or profile.wall_time_s
    if total <= 0 or not base:
        return []
    texts = {(unit.ref.key, number): text for unit in report.sources
             for number, text in enumerate(unit.lines(), start=1)}
    out = []
    for loop in inner_loops(profile.lines, texts.get, covered, profile.cpu_wait_share or 0.0):
        stats = list(loop.lines)
        ev = evidence_of(stats, profile, total, "elementwise-loop")
        cost = ev.share * base + _backward_run_time(stats)
        if cost / base < DOMINANT_SHARE:
            continue
        out.append(_element_loop_finding(loop, profile, total, cost / base))
    return out


def _element_loop_finding(loop: InnerLoop, profile: Profile, total: float, share: float) -> Finding:
    stats = list(loop.lines)
    first, last = stats[0].line, stats[-1].line
    rule, severity, message, explanation = _timed(
        profile,
        "elementwise-loop",
        f"the loop on line {loop.header} runs its body {loop.passes:.0f} times each time it is entered, "
        f"{loop.ops_per_pass:.0f} torch op(s) a pass on a row or element ({loop.op_s * 1e6:.0f} us an op): "
        f"{share:.0%} of the run with the backward of the nodes they create",
        "One small op per row or element per line: each pays Python, dispatch (and on a GPU a kernel launch) for "
        "a slice's arithmetic, and each creates its own autograd node. The same ops over the whole tensor (a "
        "row dimension, `dim=` of a reduction, a broadcast) run once per line for every row.",
    )
    ev = evidence_of(stats, profile, total, rule)
    note = (f"measured: {loop.passes:.0f} passes of lines {first}-{last} each time the loop is entered, "
            f"{loop.ops_per_pass:.0f} ops each, {loop.op_s * 1e6:.0f} us per op")
    return Finding(rule=rule, ref=stats[0].ref, line=loop.header, end_line=last, severity=severity, message=message,
                   explanation=explanation, evidence=replace(ev, notes=ev.notes + (note,)), source="dynamic")


# A line of a block of host work: at least this share of its own time is outside torch.
HOST_LINE = 0.5
# A block is one piece of work when at least two of its lines each hold this share of the loop.
BLOCK_LINE_SHARE = 0.05


def _deeper_shares(tree: Frame | None) -> dict[LineKey, tuple[float, float]]:
    """Per line, the share of its frames' time spent in deeper lines it called: of the time outside
    torch work, and of all of it (what `_inside` gives for one line against all others), in one
    walk of the call tree rather than one per line."""
    torch_s: dict[int, float] = {}

    def torch_of(frame: Frame) -> float:
        if id(frame) not in torch_s:
            torch_s[id(frame)] = sum(c.duration_s if c.kind != "python" else torch_of(c) for c in frame.children)
        return torch_s[id(frame)]

    def key(frame: Frame) -> LineKey | None:
        return (frame.ref.key, frame.line) if frame.kind == "python" and frame.ref and frame.line else None

    def deeper(frame: Frame, own: LineKey, outside_torch: bool) -> float:
        found = 0.0
        for child in frame.children:
            k = key(child)
            if k is not None and k != own:
                found += child.duration_s - (torch_of(child) if outside_torch else 0.0)
            elif child.kind == "python" or not outside_torch:
                found += deeper(child, own, outside_torch)
        return found

    sums: dict[LineKey, list[float]] = {}
    stack: list[tuple[Frame, frozenset[LineKey]]] = [(tree, frozenset())] if tree is not None else []
    while stack:
        frame, active = stack.pop()
        k = key(frame)
        if k is not None and k not in active:
            acc = sums.setdefault(k, [0.0, 0.0, 0.0, 0.0])
            acc[0] += frame.duration_s - torch_of(frame)
            acc[1] += deeper(frame, k, True)
            acc[2] += frame.duration_s
            acc[3] += deeper(frame, k, False)
            active = active | {k}
        stack.extend((child, active) for child in frame.children)
    return {k: (min(1.0, a[1] / a[0]) if a[0] > 0 else 0.0, min(1.0, a[3] / a[2]) if a[2] > 0 else 0.0)
            for k, a in sums.items()}


def _own_host_s(stat: LineStat, deeper: dict[LineKey, tuple[float, float]]) -> tuple[float, float]:
    """A line's own time outside torch and its own time, less the deeper lines it called (a
    call line's helper lines are theirs, not its)."""
    outside, whole = deeper.get((stat.ref.key, stat.line), (0.0, 0.0))
    host = stat.cpu_time_s - stat.op_time_s
    own_host = max(0.0, host - (host + stat.trace_gap_s) * outside)
    return own_host, own_host + stat.op_time_s * (1 - whole)


def _headers(report: Report) -> set[LineKey]:
    """The lines that start a function or class (`def`, `class`, a decorator) in the analysed
    sources: statements on either side of one are not consecutive."""
    return {
        (unit.ref.key, number) for unit in report.sources
        for number, text in enumerate(unit.lines(), start=1)
        if re.match(r"\s*(async\s+def|def|class)\b|\s*@", text)
    }


def _host_blocks(
    profile: Profile, covered: set[LineKey], total: float, headers: set[LineKey] = frozenset()
) -> list[list[tuple[LineStat, float]]]:
    """Consecutive statements of one unit that each run mostly outside torch (NumPy or Python
    work written over several lines: a NumPy softmax, a per-sample augmentation loop's body)
    are one piece of work for a rewrite: summed, they are a finding where together they take
    DOMINANT_SHARE of each iteration (and HOST_FLOOR_S) and the cost is spread (two lines with
    BLOCK_LINE_SHARE each), so that no line alone has to pass the bar; where one line holds
    the cost alone it stays a finding of its own line."""
    if total <= 0:
        return []
    deeper = _deeper_shares(profile.cpu_tree)
    window = (profile.window_ref.key, profile.window_line) if profile.window_ref is not None else None
    blocks: list[list[tuple[LineStat, float]]] = []
    run: list[tuple[LineStat, float]] = []

    def close() -> None:
        host = sum(h for _, h in run)
        if run and host / total >= DOMINANT_SHARE and host / run[0][0].iterations >= HOST_FLOOR_S \
                and sum(1 for _, h in run if h / total >= BLOCK_LINE_SHARE) >= 2:
            blocks.append(list(run))
        run.clear()

    for stat in sorted(profile.lines, key=lambda s: (str(s.ref.key), s.line)):
        key = (stat.ref.key, stat.line)
        n = stat.iterations
        host, own = _own_host_s(stat, deeper)
        if run and (run[-1][0].ref.key != stat.ref.key or any(
                (stat.ref.key, line) in headers for line in range(run[-1][0].line + 1, stat.line))):
            close()
        # a line that copies, syncs or runs device work waits for the device: its time is not host work
        device = stat.syncs or stat.sync_warnings or stat.h2d_copies or stat.d2h_copies or stat.gpu_time_s
        if key in covered or key == window or stat.encloses_window or not n or stat.hits < n or device \
                or own <= 0 or host / own < HOST_LINE:
            close()
            continue
        run.append((stat, host))
    close()
    return blocks


def _block_finding(block: list[tuple[LineStat, float]], profile: Profile, total: float) -> Finding:
    """`block`: its lines with their own host time."""
    stats = [s for s, _ in block]
    host = sum(h for _, h in block)
    first, last = stats[0].line, stats[-1].line
    uneven = _uneven(stats)
    rule, severity, message, explanation = _timed(
        profile,
        "cpu-function",
        f"{host / total:.0%} {_of_iteration(profile)} is CPU work outside torch on lines {first}-{last} "
        "(consecutive statements, summed)",
        "Python/NumPy work spread over consecutive statements that run every iteration. Written "
        "with torch ops on whole tensors it runs as a few kernels (on the device, on a GPU); if "
        "its inputs do not change between iterations, compute it once before the loop.",
        uneven,
    )
    ev = _with_note(evidence_of(stats, profile, total, rule), uneven)
    return Finding(rule=rule, ref=stats[0].ref, line=first, end_line=last, severity=severity, message=message,
                   explanation=explanation, evidence=ev, source="dynamic")


# NumPy work rewritten with torch ops on a CPU: faster or not, depending on the ops; a guess.
ROUND_TRIP_SAVING = (0.5, "NumPy work written with torch ops instead: a rough guess on a CPU, time both")


def _round_trip_work(findings: Iterable[Finding], profile: Profile, total: float) -> list[Finding]:
    """On a CPU a NumPy round trip's copies cost nothing (array and tensor share memory), so its
    finding is a GPU prediction; the NumPy work on its lines is a CPU cost all the same. Summed
    over the round trip's lines (one line alone may stay under the bar), where it takes
    DOMINANT_SHARE of each iteration it is a measured finding of its own."""
    if profile.device != "cpu" or total <= 0:
        return []
    out = []
    for finding in findings:
        if finding.rule != "ping-pong" or not finding.device_cost_only or not finding.part_lines:
            continue
        stats = _lines(profile, finding.ref, finding.line, finding.end_line, finding.part_lines)
        n = _iterations(stats)
        if not stats or not n or any(s.hits < n for s in stats):
            continue
        outside = sum(s.cpu_time_s - s.op_time_s for s in stats)
        if outside / total < DOMINANT_SHARE:
            continue
        first, last = min(s.line for s in stats), max(s.line for s in stats)
        uneven = _uneven(stats)
        rule, severity, message, explanation = _timed(
            profile,
            "cpu-function",
            f"{outside / total:.0%} {_of_iteration(profile)} is NumPy/Python work outside torch on the lines of "
            f"a round trip to NumPy (lines {first}-{last})",
            f"On this CPU run the round trip's copies cost nothing (see the ping-pong finding on line "
            f"{finding.line}), but the host computation between them does. Written with torch ops it "
            "would stay on the device on a GPU; on a CPU, time both versions.",
            uneven,
        )
        ev = _with_note(evidence_of(stats, profile, total, rule, saving=ROUND_TRIP_SAVING), uneven)
        out.append(Finding(rule=rule, ref=finding.ref, line=first, end_line=last, severity=severity,
                           message=message, explanation=explanation, evidence=ev, source="dynamic"))
    return out


def _dynamic_rule(
    stat: LineStat, profile: Profile, total: float, claimed: set[LineKey]
) -> tuple[str, Severity, str, str] | None:
    """`claimed`: lines that are findings already; a deeper one's time is not this line's."""
    n = _iterations([stat])
    gpu = profile.device != "cpu"
    per_iter = (lambda count: count / n) if n else (lambda count: count / stat.hits if stat.hits > 1 else 0.0)

    # Host-to-device copies first: a pageable copy also syncs, and that sync is its cost.
    if stat.h2d_copies and not stat.d2h_copies:
        size = stat.h2d_bytes / stat.h2d_copies
        if stat.pageable_copies and per_iter(stat.pageable_copies) >= 1:
            return (
                "pageable-transfer",
                Severity.HIGH if per_iter(stat.pageable_copies) >= 2 else Severity.MEDIUM,
                f"{per_iter(stat.pageable_copies):g} host-to-device copies per iteration from pageable memory",
                f"Each copy (about {size:,.0f} bytes) is staged through a pinned buffer and blocks the "
                "host until it is done. Pin the source (`DataLoader(pin_memory=True)`, "
                "`.pin_memory()`) and copy with `non_blocking=True`; batch small copies into one.",
            )
        if per_iter(stat.h2d_copies) >= 2 and size < SMALL_COPY_BYTES:
            return (
                "cpu-then-move",
                Severity.MEDIUM,
                f"{per_iter(stat.h2d_copies):g} small host-to-device copies per iteration",
                f"Many copies of about {size:,.0f} bytes: each pays the transfer latency. Create "
                "the tensors on the device (`device=`) or move one batched tensor.",
            )
    # Only a measured device sync that the line's own call made (library-internal ones, such
    # as the `.item()` of an optimizer's step counter, are not the user's): on a CPU, none.
    syncs = stat.sync_warnings if gpu else 0
    if syncs and per_iter(syncs) >= 1:
        return (
            "host-sync",
            Severity.HIGH,
            f"{per_iter(syncs):g} device sync(s) per iteration made by this line",
            "The host waits for the GPU to finish its queued work (`.item()`, `float(t)`, "
            "printing a tensor, `.cpu()`) once per iteration, so the GPU idles while Python "
            "catches up. Keep values on the device and read them every N steps.",
        )
    in_loop = n and stat.hits >= n
    cpu_only = stat.cpu_time_s - stat.op_time_s  # the tracer's gaps are out of `cpu_time_s` already
    if in_loop and cpu_only / n < HOST_FLOOR_S:
        return None
    if in_loop and total > 0 and cpu_only / total >= DOMINANT_SHARE:
        here = {(stat.ref.key, stat.line)}
        # A share of the call tree's frames, which still hold the gaps: applied to the same time.
        traced = cpu_only + stat.trace_gap_s
        cpu_only -= traced * _inside(profile.cpu_tree, here, claimed - here, outside_torch=True)
    if in_loop and total > 0 and cpu_only / total >= DOMINANT_SHARE:
        if (
            profile.window_ref is not None
            and stat.ref.key == profile.window_ref.key
            and stat.line == profile.window_line
        ):
            workers = profile.window_loader_workers
            if workers:
                return (
                    "sync-dataloader",
                    Severity.LOW,
                    f"waiting for the DataLoader's {workers} worker process{'es' if workers > 1 else ''} "
                    f"takes {cpu_only / total:.0%} {_of_iteration(profile)}",
                    "The batches are prepared in worker processes, and the loop waits for them: the "
                    "workers do not keep up, or were still starting (a few iterations near an "
                    "epoch's start are measured). Profile later in the epoch; if the wait stays, "
                    "give the loader more workers, `persistent_workers=True`, or a cheaper "
                    "`__getitem__`.",
                )
            return _timed(
                profile,
                "sync-dataloader",
                f"fetching the next batch takes {cpu_only / total:.0%} {_of_iteration(profile)}",
                "The loop waits for its data: the batch is prepared in the training process. "
                "Use `DataLoader(num_workers=N, pin_memory=True)` or precompute the batches.",
                _uneven([stat]),
            )
        return _timed(
            profile,
            "cpu-function",
            f"{cpu_only / total:.0%} {_of_iteration(profile)} is CPU work outside torch on this line"
            + _where_called(profile.cpu_tree, stat),
            "Python/NumPy work that runs every iteration; if its inputs do not change between "
            "iterations, compute it once before the loop and index the result.",
            _uneven([stat]),
        )
    return None


def _of_iteration(profile: Profile) -> str:
    """What a line's share is a share of: a whole iteration, or the part of the first one that
    was recorded before a cap stopped the recording."""
    return "of the recorded part of the first iteration" if profile.partial_iteration else "of each iteration"


# A line's typical time outside torch is paid every iteration when even its cheapest profiled
# iteration holds this share of it; below, the median rests on stalls that fell on the line.
STEADY_SHARE = 0.5
UNEVEN_NOTE = ("its time outside torch was {median:.3g} ms in the typical profiled iteration but under half "
               "that in {low} of {n} ({least:.3g} ms in the cheapest): a cost paid in only some iterations is a "
               "stall that fell on the line (a garbage collection, a page fault, another thread holding the "
               "interpreter, a wait for a CPU), not work it does each iteration")


def _uneven(stats: Iterable[LineStat]) -> str | None:
    """The note saying the lines' cost outside torch is not paid every profiled iteration (one
    or two slow iterations of three set the median), or None where it is (or is not known). The
    typical cost is the one the lines' times state (the sum of their parts' medians); each
    iteration's is built from the same parts (`LineStat.iteration_host_s`)."""
    stats = list(stats)
    sizes = {len(s.iteration_host_s) for s in stats}
    if len(sizes) != 1 or (n := sizes.pop()) < 3:
        return None
    per = [sum(s.iteration_host_s[k] for s in stats) for k in range(n)]
    # The typical iteration the finding states (each part's median: `attribution._typical`),
    # not the median of the per-iteration sums - the median of a sum is not the sum of medians.
    typical = (sum(s.cpu_time_s - s.op_time_s for s in stats) / n if all(s.iterations == n for s in stats)
               else sorted(per)[(n - 1) // 2])
    low = sum(1 for t in per if t < STEADY_SHARE * typical)
    if typical <= 0 or not low:
        return None
    return UNEVEN_NOTE.format(median=typical * 1e3, low=low, n=n, least=min(per) * 1e3)


def _timed(profile: Profile, rule: str, message: str, explanation: str,
           uneven: str | None = None) -> tuple[str, Severity, str, str]:
    """A finding that rests on a line's share of the time alone: on a busy machine the share may
    hold the time the cell waited for a CPU (preemption falls on whichever line runs, in slices of
    milliseconds), so it is a lead to measure again, not a medium. So is a share that some of
    the profiled iterations do not show (`uneven`, from `_uneven`): whatever stalled the others
    (a collection, a page fault, a wait the system's counter does not see) is no line's work."""
    if uneven is not None:
        explanation = f"{explanation} Not paid every iteration: {uneven}; re-run to confirm."
    if not profile.busy:
        return rule, Severity.LOW if uneven is not None else Severity.MEDIUM, message, explanation
    return rule, Severity.LOW, message, (
        f"{explanation} Measured while the machine was busy (the cell waited for a CPU "
        f"{profile.cpu_wait_share:.0%} of the profiled time): re-run on a quiet machine to confirm."
    )


def _with_note(ev: Evidence, note: str | None) -> Evidence:
    return ev if note is None or note in ev.notes else replace(ev, notes=ev.notes + (note,))
