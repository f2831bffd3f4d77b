"""The core data model: every analysis produces a `Report`; every view only reads one.

Plain frozen dataclasses with explicit JSON (de)serialisation, so a report can cross a
process boundary (CLI subprocesses, the kernel comm, saved files) and come back equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any, Iterable, Mapping

SCHEMA = "paef/1"


class Severity(str, Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @property
    def weight(self) -> int:
        return {"low": 1, "medium": 2, "high": 3}[self.value]


@dataclass(frozen=True)
class CellRef:
    """Where a piece of source lives: a file (`cell` None) or one cell of a notebook.

    `cell` is the 0-based index among *all* cells, markdown included (the CLI contract);
    `label` is how the user sees the cell (`code cell 3 [7]`: code cells counted from 1, and
    the saved execution count), for views only.
    """

    path: str | None = None
    cell: int | None = None
    cell_id: str | None = None
    label: str | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple[str | None, int | None]:
        return (self.path, self.cell)


@dataclass(frozen=True)
class SourceUnit:
    """One analysed text: a file or a notebook cell, exactly as the user wrote it."""

    ref: CellRef
    text: str

    def lines(self) -> list[str]:
        return self.text.splitlines()


@dataclass(frozen=True)
class Edit:
    """Replace the text between two positions of a unit's source.

    Lines are 1-based, columns 0-based (libcst's `CodeRange` convention); an empty range is an
    insertion. Offsets are in the user's text (magics included), not the masked text.
    """

    line: int
    col: int
    end_line: int
    end_col: int
    text: str

    @property
    def start(self) -> tuple[int, int]:
        return (self.line, self.col)

    @property
    def end(self) -> tuple[int, int]:
        return (self.end_line, self.end_col)


@dataclass(frozen=True)
class Fix:
    """How to remove a finding: automatic edits when they keep the meaning, else a hint.

    `suggestion` is the suggested code shown with a hint (or beside an automatic fix).
    `review` names what the analysis could not prove about a rewrite that is still offered
    (ruff's "unsafe fix"): such edits are applied only on request (`paef fix --unsafe`).
    """

    description: str
    edits: tuple[Edit, ...] = ()
    suggestion: str | None = None
    safe: bool = True
    review: str = ""

    @property
    def automatic(self) -> bool:
        """Edits proved to keep the program's meaning: applied by default."""
        return bool(self.edits) and self.safe and not self.review

    @property
    def needs_review(self) -> bool:
        """Edits offered, but not proved: applied only when the user asks."""
        return bool(self.edits) and self.safe and bool(self.review)


@dataclass(frozen=True)
class Evidence:
    """What the profiler measured on a finding's lines (filled in by `correlate`)."""

    time_s: float = 0.0
    share: float = 0.0
    ops: int = 0
    h2d_copies: int = 0
    h2d_bytes: int = 0
    d2h_copies: int = 0
    d2h_bytes: int = 0
    pageable_copies: int = 0
    syncs: int = 0
    gpu_time_s: float = 0.0
    iterations: int = 0
    estimated_saving_s: float = 0.0
    measurable: bool = True
    notes: tuple[str, ...] = ()
    copies: int = 0
    tensor_creations: int = 0
    sync_warnings: int = 0


@dataclass(frozen=True)
class Finding:
    rule: str
    ref: CellRef
    line: int
    end_line: int
    severity: Severity
    message: str
    explanation: str = ""
    fix: Fix | None = None
    evidence: Evidence | None = None
    source: str = "static"  # "static", "dynamic" or "both"
    # Other lines of the unit that are part of the same antipattern (a round trip's read-back
    # line): their measured cost is this finding's, never a finding of its own.
    part_lines: tuple[int, ...] = ()
    # Its whole cost is device<->host copies and syncs (a NumPy round trip: NumPy shares a CPU
    # tensor's memory), so on a CPU run it is a prediction, however long its lines take.
    device_cost_only: bool = False

    @property
    def fixable(self) -> bool:
        return self.fix is not None and self.fix.automatic

    def with_evidence(self, evidence: Evidence, source: str | None = None) -> "Finding":
        return replace(self, evidence=evidence, source=source or self.source)


@dataclass(frozen=True)
class AnalysisError:
    """A unit the analyzer could not read (a cell that does not parse, say)."""

    ref: CellRef
    line: int | None
    message: str


# --- dynamic profile -------------------------------------------------------------------


# Waiting this share of the recorded time for a CPU, preemption lands on whichever line runs
# (on a 2-core box at load 8, about 3/4 of the time): a line's time share is no evidence alone.
BUSY_SHARE = 0.25
# A window whose recording a cap stopped inside its first profiled iteration: what was recorded
# is still evidence, measured on part of one iteration (`build_profile` writes the note).
PARTIAL_ITERATION_NOTE = (
    "the recording stopped inside the first profiled iteration: the lines' times are of the part "
    "of it that was recorded ({ms:.3g} ms), not of a whole iteration, and are counted as one "
    "iteration; how much iterations differ cannot be shown"
)
PARTIAL_ITERATION_START = PARTIAL_ITERATION_NOTE.split(":")[0]


@dataclass(frozen=True)
class LineStat:
    """Measured cost of one source line, summed over everything it called."""

    ref: CellRef
    line: int
    cpu_time_s: float = 0.0
    self_cpu_s: float = 0.0
    # The line tracer's own time between the deeper cell lines it called (measurement overhead,
    # no one's cost) and the garbage collections inside the line's ranges, left out of `cpu_time_s`.
    trace_gap_s: float = 0.0
    ops: int = 0
    h2d_copies: int = 0
    h2d_bytes: int = 0
    d2h_copies: int = 0
    d2h_bytes: int = 0
    pageable_copies: int = 0
    syncs: int = 0
    gpu_time_s: float = 0.0
    hits: int = 0
    # CPU-visible copies (`aten::_to_copy`) and tensors built from Python data
    # (`aten::lift_fresh`): what a CPU-only profile shows of transfers and rebuilt tensors.
    op_time_s: float = 0.0  # the part of `cpu_time_s` spent inside torch ops
    copies: int = 0
    tensor_creations: int = 0
    sync_warnings: int = 0  # `set_sync_debug_mode("warn")` warnings raised from this line
    # Scalene's split of the line's CPU time, and its memory figures.
    python_cpu_s: float = 0.0
    native_cpu_s: float = 0.0
    system_cpu_s: float = 0.0
    peak_memory_mb: float = 0.0
    copy_mb_s: float = 0.0
    iterations: int = 0  # loop iterations the profile of this line covers (0: not windowed)
    encloses_window: bool = False  # a line that called into the profiled loop (inclusive of it)
    # `cpu_time_s` scaled to the whole run without the profiler: the window's share of the line
    # applied to its cell's estimated unprofiled time (`Profile.base_time_s` of that cell).
    run_time_s: float = 0.0
    # The backward of the autograd nodes this line's ops created (Kineto's sequence numbers tie
    # each `evaluate_function` to its forward op), paid on the line that calls `backward()`.
    backward_s: float = 0.0
    # Per profiled iteration, the line's time outside torch work (empty where the iterations are
    # not told apart, or the line did not run in each): a typical cost paid in only some of them
    # is a stall that fell on the line (a collection, a page fault, a wait), not its work.
    iteration_host_s: tuple[float, ...] = ()


@dataclass(frozen=True)
class Frame:
    """A node of the call tree the flame chart draws (Python frames, torch ops, kernels)."""

    name: str
    kind: str = "python"  # "python", "op", "kernel", "memcpy", "sync", "root"
    ref: CellRef | None = None
    line: int | None = None
    start_s: float = 0.0
    duration_s: float = 0.0
    self_s: float = 0.0
    children: tuple["Frame", ...] = ()
    calls: int = 1  # identical sibling frames merged into this one

    def walk(self) -> Iterable["Frame"]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class RankProfile:
    """One rank of a data-parallel run (`paef profile --nproc-per-node N`), over its window.

    The window's wall time is split without overlap: `data_s` (inside the DataLoader's
    `__next__`), `exposed_communication_s` (a collective runs and no computation does: the
    rank waits), `compute_s` (torch ops, including those that hide a collective running
    beside them: `overlapped_communication_s`) and `host_s` (the rest: Python, the launcher).
    `status`: "ok"; "failed" (its code raised, or it exited non-zero); "stopped" (ended by
    the launcher after another rank failed: its data up to then is kept); "missing" (no
    profile came back: `reason` and `stderr_tail` say why).
    """

    rank: int
    local_rank: int = 0
    host: str = ""
    status: str = "ok"
    reason: str = ""
    stderr_tail: str = ""
    wall_time_s: float = 0.0  # the whole script on this rank (start-up and rendezvous included)
    loop_time_s: float = 0.0  # its training loop, estimated unprofiled (`Profile.base_time_s`)
    window_s: float = 0.0
    iterations: int = 0
    compute_s: float = 0.0
    communication_s: float = 0.0  # every collective's time, overlapped or not
    overlapped_communication_s: float = 0.0
    exposed_communication_s: float = 0.0
    data_s: float = 0.0
    host_s: float = 0.0
    collectives: int = 0  # backend collectives (`gloo:all_reduce`, `nccl:...`) in the window
    backend: str = ""  # "gloo" / "nccl", from the trace's collective names
    # With a GPU: its busy span in the window, NCCL kernels on it (exposed: no other kernel
    # running beside them), and the time within the span with no kernel or copy at all.
    gpu_span_s: float = 0.0
    gpu_communication_s: float = 0.0
    gpu_exposed_communication_s: float = 0.0
    gpu_idle_s: float = 0.0
    trace_bytes: int = 0  # this rank's window trace as exported (Chrome JSON)
    record_bytes: int = 0  # the JSON record this rank sent back to the launcher
    ended_at: float = 0.0  # wall clock (epoch seconds) when its script ended; 0: unknown
    exit_code: int | None = None  # from the launcher's failure summary, when it gives one

    @property
    def busy_per_iteration_s(self) -> float:
        """Time per iteration the rank did not spend waiting on collectives: the slowest
        rank by this measure is the one the others wait for at each all-reduce."""
        busy = self.window_s - self.exposed_communication_s
        return busy / self.iterations if self.iterations else busy


@dataclass(frozen=True)
class RankLine:
    """One source line's profiled time compared across ranks."""

    ref: CellRef
    line: int
    total_s: float = 0.0
    min_s: float = 0.0
    max_s: float = 0.0
    min_rank: int = 0
    max_rank: int = 0
    ranks: int = 0  # ranks that ran this line in their window


@dataclass(frozen=True)
class Distributed:
    """A data-parallel run: its ranks, the slowest one, and lines compared across ranks."""

    world_size: int
    nproc_per_node: int = 1
    nnodes: int = 1
    launcher_exit: int = 0
    ranks: tuple[RankProfile, ...] = ()
    slowest_rank: int | None = None
    # (slowest - fastest) / slowest of `RankProfile.busy_per_iteration_s` over ranks with data.
    spread: float = 0.0
    lines: tuple[RankLine, ...] = ()
    # The rank that failed first: its peers' failures (a closed connection in a collective)
    # usually follow from it. Compared on wall clocks, so exact on one node.
    first_failed_rank: int | None = None


@dataclass(frozen=True)
class Profile:
    engine: str  # "torch" or "scalene"
    wall_time_s: float
    cpu_time_s: float = 0.0
    gpu_time_s: float = 0.0
    gpu_idle_share: float | None = None
    gpu_idle_host_share: float | None = None
    iterations: int = 0
    profiled_iterations: int = 0
    peak_memory_bytes: int = 0
    # What the host allocator held more after each window iteration (median), where the memory
    # was recorded (a static finding whose cost is memory: `collecting(memory=True)`), else None.
    retained_bytes_per_iteration: int | None = None
    overhead: float | None = None  # the cell's time with paef over a plain run (in a kernel: the whole wait)
    device: str = "cpu"
    lines: tuple[LineStat, ...] = ()
    cpu_tree: Frame | None = None
    gpu_tree: Frame | None = None
    notes: tuple[str, ...] = ()
    # "window": some iterations of the loop at `window_ref` lines `window_line..window_end_line`;
    # "full": the whole run; "off": nothing profiled (see `notes`).
    mode: str = "full"
    window_ref: CellRef | None = None
    window_line: int = 0
    window_end_line: int = 0
    # Worker processes of a DataLoader the window's header iterates (None: no DataLoader seen):
    # with workers, the header's time is the wait for them, not batches built in this process.
    window_loader_workers: int | None = None
    profiled_time_s: float = 0.0  # wall time of the profiled part (profiler start/stop included)
    # What the measured part would take unprofiled: the loop's time estimated from one
    # unprofiled iteration in window mode, the profiled time otherwise. Savings scale by it.
    base_time_s: float = 0.0
    # The windowed cell's profiled host time (its typical iterations' span) where the profile
    # joins several cells (a notebook): what "X% of each iteration" is a share of. The cells run
    # whole (data, model, an optimizer's first import) are not in the window's iterations; summed
    # into `cpu_time_s` they made a per-batch line's share of a few profiled iterations a share of
    # the setup (truth20). 0: `cpu_time_s` is the window's (one cell, or none windowed).
    window_time_s: float = 0.0
    # Over the window (each sync or copy once, however many lines it counts for).
    syncs_per_iteration: float = 0.0
    h2d_copies_per_iteration: float = 0.0
    d2h_copies_per_iteration: float = 0.0
    postprocess_s: float = 0.0  # from the end of the run to the finished profile
    # The share of the recorded time the cell waited, runnable, for a CPU that other processes
    # held (None where the system does not say): line times on a busy machine hold that wait.
    cpu_wait_share: float | None = None
    # A run launched on several ranks: per-rank summaries; the figures above are then summed
    # over ranks (rank-seconds) except `wall_time_s`, the slowest rank's.
    distributed: Distributed | None = None

    @property
    def busy(self) -> bool:
        """Measured while other processes held the CPU too long for a line's time to be
        evidence on its own."""
        return self.cpu_wait_share is not None and self.cpu_wait_share >= BUSY_SHARE

    @property
    def partial_iteration(self) -> bool:
        """The window's figures are of part of one iteration (see PARTIAL_ITERATION_NOTE)."""
        return any(note.startswith(PARTIAL_ITERATION_START) for note in self.notes)

    def line(self, ref: CellRef, line: int) -> LineStat | None:
        for stat in self.lines:
            if stat.ref.key == ref.key and stat.line == line:
                return stat
        return None


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...] = ()
    errors: tuple[AnalysisError, ...] = ()
    sources: tuple[SourceUnit, ...] = ()
    profile: Profile | None = None
    title: str = ""

    def top(self, k: int = 5) -> list[Finding]:
        """The paper's top-K bottlenecks: measured cost first, then severity."""
        return sorted(self.findings, key=_rank_key)[:k]

    def source_of(self, ref: CellRef) -> SourceUnit | None:
        for unit in self.sources:
            if unit.ref.key == ref.key:
                return unit
        return None

    # -- JSON -------------------------------------------------------------------------

    def to_json(self, full: bool = True) -> dict[str, Any]:
        """The `paef/1` object. `full=False` gives exactly the CLI contract's keys."""
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "findings": [_finding_to_json(f, full) for f in self.findings],
            "errors": [
                {"path": e.ref.path, "cell": e.ref.cell, "line": e.line, "message": e.message}
                | ({"cell_id": e.ref.cell_id, "label": e.ref.label} if full else {})
                for e in self.errors
            ],
        }
        if full:
            out["title"] = self.title
            out["sources"] = [_to_plain(u) for u in self.sources]
            out["profile"] = _to_plain(self.profile) if self.profile else None
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Report":
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a {SCHEMA} report (schema={data.get('schema')!r})")
        return cls(
            findings=tuple(_finding_from_json(f) for f in data.get("findings", ())),
            errors=tuple(
                AnalysisError(
                    CellRef(e.get("path"), e.get("cell"), e.get("cell_id"), e.get("label")),
                    e.get("line"),
                    e["message"],
                )
                for e in data.get("errors", ())
            ),
            sources=tuple(_from_plain(SourceUnit, u) for u in data.get("sources", ())),
            profile=_from_plain(Profile, data["profile"]) if data.get("profile") else None,
            title=data.get("title", ""),
        )


# How an evidence's notes state its savings model ("saving = 50% of these lines' measured time
# (...)"): with one, a zero saving is a finding measured to save nothing, never ranked by its time.
SAVING_MODEL_NOTE = "saving = "


def _rank_key(finding: Finding) -> tuple[float, int, int, int]:
    ev = finding.evidence
    measured = ev.estimated_saving_s if ev and ev.measurable else 0.0
    if ev and ev.measurable and not measured and not any(n.startswith(SAVING_MODEL_NOTE) for n in ev.notes):
        measured = ev.time_s
    # Measured to cost nothing: after the findings that were not measured at all.
    nothing = 1 if ev is not None and not ev.measurable else 0
    return (-measured, nothing, -finding.severity.weight, finding.line)


def _finding_to_json(f: Finding, full: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rule": f.rule,
        "path": f.ref.path,
        "cell": f.ref.cell,
        "cell_id": f.ref.cell_id,
        "line": f.line,
        "end_line": f.end_line,
        "severity": f.severity.value,
        "message": f.message,
        "fixable": f.fixable,
    }
    if full:
        out["label"] = f.ref.label
        out["explanation"] = f.explanation
        out["source"] = f.source
        out["fix"] = _to_plain(f.fix) if f.fix else None
        out["evidence"] = _to_plain(f.evidence) if f.evidence else None
    return out


def _finding_from_json(d: Mapping[str, Any]) -> Finding:
    return Finding(
        rule=d["rule"],
        ref=CellRef(d.get("path"), d.get("cell"), d.get("cell_id"), d.get("label")),
        line=d["line"],
        end_line=d.get("end_line", d["line"]),
        severity=Severity(d["severity"]),
        message=d["message"],
        explanation=d.get("explanation", ""),
        fix=_from_plain(Fix, d["fix"]) if d.get("fix") else None,
        evidence=_from_plain(Evidence, d["evidence"]) if d.get("evidence") else None,
        source=d.get("source", "static"),
    )


# Generic (de)serialisation for the nested frozen dataclasses above. Field types are read
# from a small table rather than from annotations, which are strings under `annotations`.
_NESTED: dict[tuple[type, str], tuple[type, bool]] = {}


def _to_plain(obj: Any) -> Any:
    if isinstance(obj, Enum):
        return obj.value
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [_to_plain(x) for x in obj]
    return {f.name: _to_plain(getattr(obj, f.name)) for f in fields(obj)}


def _from_plain(cls: type, data: Any) -> Any:
    if data is None:
        return None
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        nested = _NESTED.get((cls, f.name))
        if nested is not None and value is not None:
            sub, many = nested
            value = tuple(_from_plain(sub, v) for v in value) if many else _from_plain(sub, value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)


_NESTED.update(
    {
        (SourceUnit, "ref"): (CellRef, False),
        (Fix, "edits"): (Edit, True),
        (LineStat, "ref"): (CellRef, False),
        (Frame, "ref"): (CellRef, False),
        (Frame, "children"): (Frame, True),
        (Profile, "lines"): (LineStat, True),
        (Profile, "cpu_tree"): (Frame, False),
        (Profile, "gpu_tree"): (Frame, False),
        (Profile, "window_ref"): (CellRef, False),
        (Profile, "distributed"): (Distributed, False),
        (Distributed, "ranks"): (RankProfile, True),
        (Distributed, "lines"): (RankLine, True),
        (RankLine, "ref"): (CellRef, False),
    }
)

__all__ = [
    "SCHEMA",
    "AnalysisError",
    "CellRef",
    "Distributed",
    "Edit",
    "Evidence",
    "Finding",
    "Fix",
    "Frame",
    "LineStat",
    "Profile",
    "RankLine",
    "RankProfile",
    "Report",
    "Severity",
    "SourceUnit",
]
