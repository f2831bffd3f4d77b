"""The one pipeline. The magic and the CLI are thin faces over these functions.

source -> facts -> findings -> (profile) -> ranked findings -> Report
"""

from __future__ import annotations

import time
from asyncio import CancelledError
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Sequence

from .fix import apply_findings
from .model import CellRef, Finding, Profile, Report, SourceUnit
from .run_steps import Steps, run_now
from .static.analyzer import analyze_units
from .static.unit import ParsedUnit, parse_unit
from .units import read_units

if TYPE_CHECKING:
    from .distributed.launch import Launch
    from .model import AnalysisError


def analyze(
    units: Sequence[SourceUnit | ParsedUnit],
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
    title: str = "",
    follow_imports: bool = False,
) -> Report:
    """Static analysis of some cells/files. `namespace` is the live kernel namespace, if any;
    with `follow_imports`, the local modules the files import are read too."""
    return analyze_units(units, namespace=namespace, rules=rules, title=title, follow_imports=follow_imports)


def analyze_source(
    text: str,
    ref: CellRef = CellRef(),
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
) -> Report:
    """One cell or file."""
    return analyze_units([SourceUnit(ref, text)], namespace=namespace, rules=rules)


def analyze_cell(
    text: str,
    ref: CellRef,
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
    unit: SourceUnit | ParsedUnit | None = None,
) -> Report:
    """A notebook cell that has just run: `analyze_source`, reused when the same text is re-run
    over a namespace that looks the same to the analysis (see `cell_cache`). `unit`: the cell,
    already parsed for its window."""
    from .cell_cache import cached_analysis

    parsed = unit if unit is not None else SourceUnit(ref, text)
    return cached_analysis(text, ref, namespace, rules,
                           lambda: analyze_units([parsed], namespace=namespace, rules=rules))


@dataclass(frozen=True)
class Rewrite:
    unit: SourceUnit  # as it was
    text: str  # after every fix applied
    applied: tuple[Finding, ...]
    skipped: tuple[Finding, ...] = ()  # fixes that collided with another or did not compile
    review: tuple[Finding, ...] = ()  # rewrites offered for review, left unapplied


def rewrite(
    units: Sequence[SourceUnit],
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
    max_rounds: int = 5,
    unsafe: bool = False,
) -> list[Rewrite]:
    """Apply every automatic (proved-safe) fix, re-analysing until none is left: one fix can
    uncover another (a hoisted CPU result makes the tensor built from it loop-invariant).
    `unsafe` also applies the fixes that need review. The proofs read the local modules the
    units import (a model class, a helper, a logger reading `__main__`), as `analyze_path` does."""
    texts = [u.text for u in units]
    applied: list[list[Finding]] = [[] for _ in units]
    skipped: list[list[Finding]] = [[] for _ in units]
    review: list[list[Finding]] = [[] for _ in units]
    for _ in range(max_rounds):
        current = [replace(u, text=t) for u, t in zip(units, texts)]
        report = analyze(current, namespace=namespace, rules=rules, follow_imports=True)
        changed = False
        for i, unit in enumerate(current):
            mine = [f for f in report.top(len(report.findings)) if f.ref.key == unit.ref.key]
            new, done, collided = apply_findings(unit.text, mine, unsafe=unsafe)
            skipped[i] = collided
            review[i] = [f for f in mine if f.fix is not None and f.fix.needs_review and not unsafe]
            if done:
                texts[i], changed = new, True
                applied[i].extend(done)
        if not changed:
            break
    return [Rewrite(u, t, tuple(a), tuple(s), tuple(r)) for u, t, a, s, r in zip(units, texts, applied, skipped, review)]


def analyze_rewritten(rewrites: Sequence[Rewrite], rules: Collection[str] | None = None) -> Report:
    """What is left to report in the rewritten units, read as `rewrite` read them (with the
    local modules they import), their own findings only."""
    report = analyze([replace(r.unit, text=r.text) for r in rewrites], rules=rules, follow_imports=True)
    keys = {r.unit.ref.key for r in rewrites}
    return replace(report, findings=tuple(f for f in report.findings if f.ref.key in keys))


def analyze_path(path: str, rules: Collection[str] | None = None) -> Report:
    """Static analysis of a `.py` or `.ipynb` file and of the helpers its loops call in local
    modules (reported in their own files); raises `units.InputError` if unreadable."""
    return analyze_units(read_units(path), rules=rules, title=path, follow_imports=True)


# --- profiling (see paef_jupyter/dynamic) ----------------------------------------------


@dataclass
class CellRun:
    value: Any  # the cell's value (None if it raised)
    error: BaseException | None  # raised by the cell code (KeyboardInterrupt included)
    report: Report  # static findings + profile + correlated evidence, ranked
    stamped_at: float | None = None  # perf_counter when the report's overhead figure was taken


def restamped(report: Report, started: float, stamped_at: float, now: float | None = None) -> Report:
    """`report` with its overhead figure taken again `now` (default: now): what the user waited
    from `started` (when the cell's wait began) until now, over the same plain run. The figure
    taken at `stamped_at` covered the run and the analysis; taken after the report is drawn, it
    is the user's whole wait (`magic`)."""
    profile = report.profile
    if profile is None or not profile.overhead or stamped_at <= started:
        return report
    now = time.perf_counter() if now is None else now
    overhead = profile.overhead * (now - started) / (stamped_at - started)
    return replace(report, profile=replace(profile, overhead=overhead))


def profile_cell(text: str, namespace: dict, *, execute: Callable[[], Any], **kw: Any) -> CellRun:
    """Run a cell once under the profiler (a window of its loop unless `full`), analyse it,
    and return its value or exception with the correlated report. `execute` runs the cell;
    see `profiling_cell` for the keywords."""
    return run_now(profiling_cell(text, namespace, **kw), lambda _: execute())


def profiling_cell(
    text: str,
    namespace: dict,
    *,
    ref: CellRef,
    filename_to_ref: Callable[[str], CellRef | None] | Mapping[str, CellRef] | None = None,
    rules: Collection[str] | None = None,
    top: int = 5,
    full: bool = False,
    started: float | None = None,
    progress: Callable[[str], None] | None = None,
    ready: Callable[[], None] | None = None,
) -> Steps[None, CellRun]:
    """`profile_cell` as steps (`run_steps`): yields when the cell is to run, profiled.

    `started` (`time.perf_counter()`) is when the user's wait began (default: now), for the
    overhead figure; `progress` hears, in a few words, what is being done (for a note shown
    while it runs); `ready` is called after the run, before the static analysis (which needs
    jedi warm: the cell's code never waits for that)."""
    from .cell_cache import cached_loop
    from .correlate import correlate
    from .dynamic.build import build_profile
    from .dynamic.code_files import CodeFiles, cell_resolver, earlier_cells
    from .dynamic.collector import collecting, tell
    from .dynamic.window_loop import choose_loop
    from .static.analyzer import check_rule_ids

    check_rule_ids(rules)  # a usage error: nothing has run yet
    started = time.perf_counter() if started is None else started
    failed: tuple[str, ...] = ()
    given = filename_to_ref.get if isinstance(filename_to_ref, Mapping) else filename_to_ref
    earlier = earlier_cells(namespace)

    def lookup(filename: str) -> CellRef | None:
        return (given(filename) if given else None) or earlier(filename)

    unit: SourceUnit | ParsedUnit = SourceUnit(ref, text)
    loop, extra = None, {}
    try:
        if not full:  # the cell is read once: its window now, its analysis after the run
            def choose() -> tuple[Any, dict]:
                nonlocal unit
                unit = parse_unit(unit)
                return choose_loop(unit, namespace, lookup)

            loop, extra = cached_loop(text, ref, choose)
    except Exception as exc:  # noqa: BLE001 - without a loop to window, profile the whole cell
        loop, extra = None, {}
        failed += (f"no profiling window (the loop could not be found): {_one_line(exc)}",)
    files = CodeFiles(cell_resolver(text, ref, lookup, extra))
    run = yield from collecting(files, loop, progress=progress)
    if isinstance(run.error, (KeyboardInterrupt, CancelledError)):
        # Ctrl-C (an awaited cell's is a cancellation): the user waits for nothing more, not even
        # the one-time warm-up that `ready` would wait for.
        return CellRun(run.value, run.error, Report(sources=(SourceUnit(ref, text),)))
    if run.error is None:
        tell(progress, "analysing the cell and its profile\u2026")
    if ready is not None:
        ready()
    try:
        static = analyze_cell(text, ref, namespace=namespace, rules=rules, unit=unit)
    except Exception as exc:  # noqa: BLE001 - the cell ran: its value must reach the user
        static = Report(sources=(SourceUnit(ref, text),))
        failed += (f"static analysis failed: {_one_line(exc)}",)
    try:
        profile = build_profile(run)
        report = correlate(static, replace(profile, notes=failed + profile.notes), max_dynamic=top)
    except Exception as exc:  # noqa: BLE001 - the cell ran: its value must reach the user
        note = f"the profile could not be analysed: {_one_line(exc)}"
        profile = Profile(engine="torch", wall_time_s=run.wall_s, mode="off", notes=failed + (note,))
        report = replace(static, profile=profile)
    now = time.perf_counter()
    return CellRun(run.value, run.error, _stamp(report, run.run_end, started, run.wall_s, now), now)


# Rules whose cost is memory: where one is found, the profile records the allocator (on a CPU
# no time shows what a kept graph costs; truth67).
MEMORY_RULES = frozenset({"graph-retention"})


def profile_path(
    path: str, *, engine: str = "torch", rules: Collection[str] | None = None, script_args: Sequence[str] = ()
) -> Report:
    """Run a `.py` or the code cells of an `.ipynb` in order, in one namespace, profiled, with
    `sys.argv` = [path, *script_args] (`paef profile PATH -- ARGS`).

    A failing cell stops the run; the report then lists it in `errors` and keeps the profile
    of what ran. Raises `units.InputError` for an unreadable file, `ValueError` for a bad engine.
    """
    from .correlate import correlate

    if engine not in ("torch", "scalene"):
        raise ValueError(f"unknown engine {engine!r} (expected torch or scalene)")
    units = read_units(path)
    parsed = [parse_unit(u) for u in units]  # read once: the analysis and each unit's window
    # the local modules too, as `paef scan` does: their lines are profiled (either engine)
    static = analyze(parsed, rules=rules, title=path, follow_imports=True)
    if engine == "scalene":
        from .dynamic.scalene_runner import run_scalene

        profile, failures = run_scalene(units, path, script_args)
    else:
        from .dynamic.run_units import run_units

        # a retained graph costs memory, not time: the window records the allocator for it
        memory = any(f.rule in MEMORY_RULES for f in static.findings)
        profile, failures = run_units(parsed, path, script_args=script_args, memory=memory)
    if failures:
        stopped = tuple(f"{_where(f)} failed: {f.message}" for f in failures)
        profile = replace(profile, notes=stopped + profile.notes)
    report = correlate(static, profile)
    return replace(report, errors=report.errors + tuple(failures))


def profile_distributed(
    path: str,
    launch: "Launch",
    script_args: Sequence[str] = (),
    *,
    rules: Collection[str] | None = None,
    echo: Callable[[str], None] | None = None,
) -> Report:
    """Run a script on several ranks through torchrun, each rank profiled over its own window,
    and merge the ranks into one report (`Profile.distributed` holds the per-rank view).

    A rank that fails is listed in `errors` with its reason; the others' data is kept.
    Raises `units.InputError` for an unreadable file or one that is not a `.py` script.
    `echo` receives the launcher's console output line by line."""
    from .correlate import correlate
    from .distributed.launch import run_job
    from .distributed.merge import merge_ranks
    from .units import InputError

    if not path.endswith(".py"):
        raise InputError(f"{path}: a multi-rank run launches a Python script (.py), not a notebook")
    if launch.nproc_per_node < 1:
        raise ValueError("--nproc-per-node must be at least 1")
    units = read_units(path)
    static = analyze(units, rules=rules, title=path)
    result = run_job(path, list(script_args), launch, echo)
    profile, failures = merge_ranks(result, launch, units[0].ref)
    report = correlate(static, profile)
    return replace(report, errors=report.errors + failures)


def _where(error: AnalysisError) -> str:
    return f"cell {error.ref.cell}" if error.ref.cell is not None else (error.ref.path or "the code")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def _stamp(report: Report, run_end: float, started: float, wall_s: float, now: float) -> Report:
    """Record the time from the end of the cell's code to the finished report (`now`), and make
    the overhead figure what the user waited until then (from `started`: analysis, the profiled
    run, post-processing) over the plain run. The plain run is measured in the same run: the
    cell's wall time less what the profiled iterations took beyond the unprofiled ones
    (`Profile.overhead` from `build_profile` is that run-only ratio). The magic takes the figure
    again once the report is drawn (`restamped`)."""
    if report.profile is None:
        return report
    profile = report.profile
    plain = wall_s / profile.overhead if profile.overhead else None
    visible = (now - started) / plain if plain else None
    profile = replace(profile, postprocess_s=now - run_end, overhead=visible)
    return replace(report, profile=profile)
