"""`%%paef` / `%paef`: the notebook face over `api` (parse arguments, run the cell, render).

The cell body runs the way IPython runs a cell (its transforms, the user namespace, the last
expression's value returned so it becomes `Out`, exceptions and KeyboardInterrupt raised), only
compiled so that its line numbers are the cell's own (the `%%paef` line is line 1).
"""

from __future__ import annotations

import ast
import contextlib
import gc
import inspect
import os
import re
import shlex
import statistics
import sys
import threading
import time
from asyncio import CancelledError
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from . import api
from .model import AnalysisError, CellRef, Report, SourceUnit
from .run_steps import Steps, relay, run_now

if TYPE_CHECKING:
    from .dynamic.warm import CellGate


@dataclass(frozen=True)
class RunningCell:
    """The cell being executed, as the frontend sent it (id and full text)."""

    cell_id: str | None
    code: str | None


@dataclass(frozen=True)
class CellOutcome:
    value: Any
    error: BaseException | None
    report: Report
    stamped_at: float | None = None  # when the report's overhead figure was taken (`api.restamped`)


@magic_arguments()
@argument("--top", type=int, default=5, metavar="K", help="show the top K bottlenecks (default 5)")
@argument("--no-profile", action="store_true", help="run the cell unprofiled; static analysis only")
@argument("--report", metavar="PATH", help="also write the report as one self-contained HTML file")
@argument("--apply", nargs="?", const="all", metavar="RULES",
          help="rewrite this cell with its automatic fixes (all, or comma-separated rule ids) "
               "through set_next_input; the way to apply where the paef extension is missing")
@argument("-o", "--output", action="store_true", help="return the Report as the cell's value (like %%timeit -o)")
@argument("-q", "--quiet", action="store_true", help="show nothing; `%%paef last` gives the report")
def _cell_args(line: str, cell: str) -> None:
    """%%paef [--top K] [--no-profile] [--report PATH] [--apply[=RULES]] [-o] [-q]"""


@magic_arguments()
@argument("command", choices=["scan", "report", "last", "profile"],
          help="scan: analyse every code cell of this notebook; report PATH: write the last report "
               "as HTML; last: the last Report; profile SCRIPT: run a script profiled "
               "(on N ranks through torchrun with --nproc-per-node N)")
@argument("path", nargs="?", help="scan: the notebook or script (default: this notebook); report: the file to write")
@argument("--top", type=int, default=5, metavar="K")
@argument("-q", "--quiet", action="store_true", help="scan: show nothing")
@argument("--nproc-per-node", type=int, metavar="N", help="profile: launch the script on N ranks (torchrun)")
@argument("--report", dest="html", metavar="OUT.html", help="profile: also write the report as HTML")
def _line_args(line: str) -> None:
    """%paef scan [PATH] | %paef report PATH | %paef last | %paef profile SCRIPT [--nproc-per-node N] [-- ARGS]"""


@magics_class
class PaefMagics(Magics):
    def __init__(self, shell: Any):
        super().__init__(shell)
        self.last: Report | None = None
        self.warming: threading.Thread | None = None
        self.gate: CellGate | None = None  # the warm-up's steps run between cells
        self.profiled_a_cell = False

    @line_cell_magic
    def paef(self, line: str, cell: str | None = None) -> Any:
        """Find, explain and fix PyTorch performance antipatterns.

        Cell magic: ``%%paef [--top K] [--no-profile] [--report PATH] [--apply[=RULES]] [-o] [-q]``
        runs the cell exactly as without the magic (profiled), then shows the report.

        Line magic: ``%paef scan [PATH]``, ``%paef report PATH``, ``%paef last``.
        """
        __tracebackhide__ = True  # noqa: F841 - IPython hides this frame in tracebacks
        if cell is None:
            return self._line(line)
        return self._cell(line, cell)

    # -- %%paef -------------------------------------------------------------------------

    def _cell(self, line: str, body: str) -> Any:
        __tracebackhide__ = True  # noqa: F841
        ns = self.shell.user_ns
        return run_now(self._cell_steps(line, body), lambda code: _then_flush(code.run, ns))

    def _cell_steps(self, line: str, body: str, *, awaited: bool = False) -> Steps["CellCode", Any]:
        """The cell magic as steps (`run_steps`): yields the compiled body for its driver to
        run; `awaited`: the driver awaits it (top-level `await`, see `magic_async`)."""
        __tracebackhide__ = True  # noqa: F841
        started = time.perf_counter()  # the user's wait, for the overhead figure
        args = _parse(_cell_args, line)
        if args.top < 1:
            raise UsageError("--top must be at least 1")
        _check_rule_ids(args.apply)
        running = running_cell(self.shell)
        whole_cell = bool(running.code and _is_paef_cell(running.code, body))
        text = running.code if whole_cell else f"%%paef {line}\n{body}"
        count = cell_count(self.shell)
        ref = CellRef(path=f"In[{count}]", cell_id=running.cell_id)
        progress = note = None
        if not args.quiet:
            from .ui import placeholder, placeholder_html, progress_note

            progress = placeholder("running this cell" + ("" if args.no_profile else " under the profiler")
                                   + ", then analysing it\u2026")
            note = progress_note(progress)
        try:
            outcome = yield from self._text_steps(text, ref, profile=not args.no_profile, top=args.top,
                                                  count=count, progress=note, started=started, awaited=awaited)
        except SyntaxError:
            # Shown as IPython shows a cell that does not compile: the error alone, no frames of ours.
            if progress is not None:
                progress.update(placeholder_html("the cell did not run"))
            self.shell.showsyntaxerror()
            raise UsageError("the cell did not run (SyntaxError above)") from None
        finally:
            if progress is not None:  # the run and its analysis are over: a held note is stale
                progress.stop_notes()
        if isinstance(outcome.error, (KeyboardInterrupt, CancelledError)):  # Ctrl-C in an awaited cell cancels it
            if progress is not None:
                progress.update(placeholder_html("interrupted: no report"))
            raise outcome.error
        report = outcome.report
        self.last = report
        if args.report:
            self._write(report, args.report)
        if args.apply:
            self._apply_now(report, text, args.apply)
        if not args.quiet:
            from .ui import show_report

            stamped_at = outcome.stamped_at
            # The overhead figure becomes the user's whole wait, taken as the report is drawn: the
            # run, the analysis and the drawing (but the last messages, and the kernel's reply).
            restamp = None if stamped_at is None else (lambda r: api.restamped(r, started, stamped_at))
            self.last = show_report(report, top=args.top, editor=self.editor,
                                    rerun=self._rerunner(ref, text, count), apply_hint=_apply_hint(text),
                                    key=running.cell_id, placeholder=progress, restamp=restamp)
        if outcome.error is not None:
            if whole_cell and self._fail_cell(outcome.error):
                return None
            raise outcome.error
        return self.last if args.output else outcome.value

    def _fail_cell(self, error: BaseException) -> bool:
        """Show `error` as the user's cell's own and mark the cell failed (Run All stops).

        Raised, it would also show the line IPython turned the cell into
        (`get_ipython().run_cell_magic(...)`), as a second cell. Only when this magic is the
        whole running cell, so nothing after it could have caught the error."""
        result = getattr(self.shell.displayhook, "exec_result", None)
        if result is None:
            return False
        self.shell.showtraceback((type(error), error, error.__traceback__), tb_offset=0)
        result.error_in_exec = error
        return True

    def run_text(self, text: str, ref: CellRef, *, profile: bool, top: int = 5, count: int | None = None,
                 started: float | None = None, progress: Callable[[str], None] | None = None) -> CellOutcome:
        """Run a `%%paef` cell's text in the user namespace and analyse it; `count` is the
        cell's prompt number, which its tracebacks name; `started`: when the user's wait began;
        `progress` hears what is being done."""
        __tracebackhide__ = True  # noqa: F841
        ns = self.shell.user_ns
        steps = self._text_steps(text, ref, profile=profile, top=top, count=count, started=started,
                                 progress=progress)
        return run_now(steps, lambda code: code.run(ns))

    def _text_steps(self, text: str, ref: CellRef, *, profile: bool, top: int, count: int | None,
                    started: float | None, progress: Callable[[str], None] | None,
                    awaited: bool = False) -> Steps["CellCode", CellOutcome]:
        """`run_text` as steps: yields the compiled cell (`awaited`: compiled for top-level
        `await`, for a driver that awaits it)."""
        __tracebackhide__ = True  # noqa: F841
        warming = self.warming is not None and self.warming.is_alive()
        beside = warming and self.gate is not None and self.gate.stepping
        code = CellCode.build(self.shell, text, cell_count(self.shell) if count is None else count,
                              awaited=awaited)
        ns = self.shell.user_ns
        if profile:
            from .static.types import JediOracle

            # The kernel's first profiled cell does not wait for jedi's cold start: the warm-up
            # runs after it (`dynamic.warm`), and the report says what went unanswered.
            first, self.profiled_a_cell = not self.profiled_a_cell, True
            JediOracle.skip_cold, JediOracle.unanswered = first and warming, 0
            try:
                steps = api.profiling_cell(text, ns, ref=ref, filename_to_ref={code.filename: ref}, top=top,
                                           started=started, progress=progress,
                                           ready=lambda: self._note_warm_up(progress))
                run = yield from relay(steps, code)
            finally:
                JediOracle.skip_cold, unanswered = False, JediOracle.unanswered
            error = _from_user_code(run.error, code.filename)
            report = _with_warm_up_notes(run.report, beside, unanswered)
            if unanswered:
                from .cell_cache import forget

                forget(text)
            return CellOutcome(run.value, error, report, run.stamped_at)
        ran = yield code
        value, error = ran.value, ran.error
        if isinstance(error, (KeyboardInterrupt, CancelledError)):
            return CellOutcome(None, error, Report())
        if error is not None and not isinstance(error, Exception):
            raise error  # SystemExit and the like: not the cell's failure to report
        error = _from_user_code(error, code.filename)
        self._note_warm_up(progress)
        try:
            report = api.analyze_cell(text, ref, namespace=ns)
        except Exception as exc:  # noqa: BLE001 - the cell ran: its value must reach the user
            first = (str(exc).strip().splitlines() or [""])[0]
            failure = f"analysis failed: {type(exc).__name__}" + (f": {first}" if first else "")
            report = Report(errors=(AnalysisError(ref, None, failure),), sources=(SourceUnit(ref, text),))
        return CellOutcome(value, error, report)

    def _note_warm_up(self, progress: Callable[[str], None] | None) -> None:
        """Called after the cell's code ran, before its analysis, which does not wait for the
        warm-up: only a question to jedi does (`JediOracle`; not the first cell's)."""
        from .static.types import JediOracle

        if self.warming is not None and self.warming.is_alive() and not JediOracle.skip_cold:
            from .dynamic.collector import tell

            tell(progress, "analysing, while paef's one-time warm-up finishes\u2026")

    def _wait_for_jedi(self) -> None:
        """The whole warm-up, finished now (a scan asks jedi about every cell; unloading)."""
        if self.gate is not None:
            self.gate.hurry()
        if self.warming is not None:
            self.warming.join()
            self.warming = None

    def _rerunner(self, ref: CellRef, before_text: str, count: int) -> Callable[[str], "Comparison"]:
        def rerun(new_text: str) -> Comparison:
            """The fixed cell runs once for real (its output shown, its report kept), then both
            versions are timed unprofiled and warm, in interleaved pairs."""
            after = self.run_text(new_text, ref, profile=False, count=count)
            if after.error is not None:
                return Comparison((), (), after.error, after.report)
            self.last = after.report
            old = CellCode.build(self.shell, before_text, count)
            new = CellCode.build(self.shell, new_text, count)
            ns = self.shell.user_ns
            try:
                olds, news = time_interleaved(lambda: old.run(ns), lambda: new.run(ns))
            except Exception as exc:  # noqa: BLE001 - a version that fails when run again
                return Comparison((), (), _from_user_code(exc, old.filename), after.report)
            return Comparison(tuple(olds), tuple(news), None, after.report)

        return rerun

    def _apply_now(self, report: Report, text: str, rules: str) -> None:
        """`--apply`: rewrite the running cell now, the one moment `set_next_input` can."""
        from .fix import apply_findings

        wanted = None if rules == "all" else {r.strip() for r in rules.split(",") if r.strip()}
        chosen = [f for f in report.top(len(report.findings)) if wanted is None or f.rule in wanted]
        new, applied, skipped = apply_findings(text, chosen)
        if not applied:
            print("paef: no automatic fix to apply" + (f" for {rules}" if wanted else ""))
            return
        first, _, rest = new.partition("\n")
        new = _APPLY_FLAG.sub("", first) + "\n" + rest
        self.shell.set_next_input(new, replace=True)
        names = ", ".join(f"{f.rule} (line {f.line})" for f in applied)
        print(f"paef: rewrote this cell with {len(applied)} fix(es): {names}")
        if skipped:
            print("paef: skipped (collides with another fix): " + ", ".join(f.rule for f in skipped))

    # -- %paef scan | report | last ------------------------------------------------------

    def _line(self, line: str) -> Any:
        line, _, rest = line.partition(" -- ")  # `%paef profile SCRIPT ... -- ARGS`: the script's own
        args = _parse(_line_args, line)
        args.script_args = shlex.split(rest)
        if args.command == "last":
            if self.last is None:
                raise UsageError("no report yet: run a %%paef cell or %paef scan first")
            return self.last
        if args.command == "report":
            if not args.path:
                raise UsageError("usage: %paef report PATH")
            if self.last is None:
                raise UsageError("no report yet: run a %%paef cell or %paef scan first")
            self._write(self.last, args.path)
            return None
        report = self._profile_script(args) if args.command == "profile" else self._scan(args.path)
        self.last = report
        if not args.quiet:
            from .ui import show_report

            show_report(report, top=args.top, editor=self.editor, key=running_cell(self.shell).cell_id)
        return None

    def _scan(self, path: str | None) -> Report:
        from .units import InputError, read_units

        self._wait_for_jedi()
        explicit = bool(path)
        path = path or notebook_path(self.shell)
        if path:
            if not explicit or os.path.isabs(path):  # named from the notebook's folder, as the user knows it
                path = _relative(path)
            try:
                units = read_units(path)
            except InputError as exc:
                raise UsageError(str(exc)) from None
            title = f"{os.path.basename(path)} (as last saved)" if path.endswith(".ipynb") else path
        else:
            units = history_units(self.shell)
            title = "cells run so far in this kernel"
        return api.analyze(units, namespace=self.shell.user_ns, title=title)

    def _profile_script(self, args: Any) -> Report:
        """`%paef profile SCRIPT [--nproc-per-node N] [--report OUT.html] [-- ARGS]`: the CLI's
        `paef profile`, shown here; the launcher's output is echoed as it comes."""
        from .units import InputError

        if not args.path:
            raise UsageError("usage: %paef profile SCRIPT.py [--nproc-per-node N] [--report OUT.html] [-- ARGS]")
        self._wait_for_jedi()
        try:
            if args.nproc_per_node is None:
                report = api.profile_path(args.path, script_args=args.script_args)
            else:
                from .distributed.launch import Launch

                report = api.profile_distributed(args.path, Launch(args.nproc_per_node), args.script_args,
                                                 echo=lambda text: print(text, end=""))
        except (InputError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        if args.html:
            self._write(report, args.html)
        return report

    def _write(self, report: Report, path: str) -> None:
        from .safe_write import WriteError
        from .ui.html_report import write_report

        try:
            write_report(report, path)
        except WriteError as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:
            raise UsageError(f"{path}: cannot write ({exc.strerror or exc})") from None
        print(f"paef: report written to {path}")

    @property
    def editor(self) -> Any:
        """The labextension bridge; its handshake starts now, while the cell runs."""
        if getattr(self.shell, "kernel", None) is None:
            return None
        from .ui.bridge import shared_bridge

        return shared_bridge()


@dataclass(frozen=True)
class Comparison:
    """Re-run and compare: warm, unprofiled run times of the cell before and after its fixes,
    in interleaved pairs (before, after, after, before, ...), so drift hits both alike."""

    before_runs: tuple[float, ...]
    after_runs: tuple[float, ...]
    error: BaseException | None
    report: Report

    @property
    def repeats(self) -> int:
        return min(len(self.before_runs), len(self.after_runs))

    @property
    def before_s(self) -> float:
        return statistics.median(self.before_runs) if self.before_runs else 0.0

    @property
    def after_s(self) -> float:
        return statistics.median(self.after_runs) if self.after_runs else 0.0

    @property
    def ratios(self) -> list[float]:
        return [b / a for b, a in zip(self.before_runs, self.after_runs) if a > 0]

    @property
    def speedup(self) -> float | None:
        """Median of the pairs' ratios; None when the pairs disagree on which is faster."""
        ratios = self.ratios
        if len(ratios) < 2 or min(ratios) <= 1.0 <= max(ratios):
            return None
        return statistics.median(ratios)

    @property
    def spread(self) -> tuple[float, float] | None:
        ratios = self.ratios
        return (min(ratios), max(ratios)) if ratios else None


def time_interleaved(before: Callable[[], Any], after: Callable[[], Any], *, min_pairs: int = 3,
                     max_pairs: int = 7, budget_s: float = 20.0) -> tuple[list[float], list[float]]:
    """Wall times of interleaved pairs: at least `min_pairs`, more while within `budget_s`.

    The caller has run both once already (warm: imports, caches, allocator)."""
    olds: list[float] = []
    news: list[float] = []
    started = time.perf_counter()
    while len(olds) < max_pairs:
        first, second = ((before, olds), (after, news)) if len(olds) % 2 == 0 else ((after, news), (before, olds))
        for fn, out in (first, second):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
        if len(olds) >= min_pairs and time.perf_counter() - started > budget_s * len(olds) / max_pairs:
            break
    return olds, news


# --- running the body like IPython does --------------------------------------------------


@dataclass(frozen=True)
class CellCode:
    """A cell body compiled under a cached file name, with the cell's own line numbers."""

    filename: str
    body: Any
    last: Any  # the final expression, evaluated for the cell's value; None if there is none

    @classmethod
    def build(cls, shell: Any, text: str, count: int, *, awaited: bool = False) -> "CellCode":
        """`awaited`: compiled as IPython compiles a cell it awaits (top-level `await`, async
        comprehensions); run it with `run_async`."""
        lines = text.split("\n")
        magic_at = next((i for i, ln in enumerate(lines) if ln.strip()), 0)
        body_lines = lines[magic_at + 1 :]
        blank = next((i for i, ln in enumerate(body_lines) if ln.strip()), len(body_lines))
        transformed = _transformed(shell, "\n".join(body_lines))
        # transform_cell drops leading blank lines; put them (and the magic line) back.
        source = "\n" * (magic_at + 1 + blank) + transformed
        # Its own file name (not the outer cell's), so tracebacks and linecache show the body.
        filename = shell.compile.cache(source, count)
        tree = shell.transform_ast(shell.compile.ast_parse(source, filename=filename))
        with shell.compile.extra_flags(ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if awaited else 0):
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr) and not _ends_with_semicolon(transformed):
                last = shell.compile(ast.Expression(tree.body.pop().value), filename, "eval")
            body = shell.compile(tree, filename, "exec")
        return cls(filename, body, last)

    def run(self, namespace: dict) -> Any:
        __tracebackhide__ = True  # noqa: F841
        exec(self.body, namespace)
        return eval(self.last, namespace) if self.last is not None else None

    async def run_async(self, namespace: dict) -> Any:
        """`run` for code built `awaited`: its awaits run on the caller's event loop."""
        __tracebackhide__ = True  # noqa: F841
        if self.body.co_flags & inspect.CO_COROUTINE:
            await eval(self.body, namespace)
        else:
            exec(self.body, namespace)
        if self.last is None:
            return None
        value = eval(self.last, namespace)
        return await value if self.last.co_flags & inspect.CO_COROUTINE else value


def _transformed(shell: Any, body: str) -> str:
    """`shell.transform_cell(body)`, remembered per body text where it depends on nothing else.

    A re-run cell's body transforms to the same source every time (a fifth of the body's
    compile on a demo cell). That holds while every transformer is one of IPython's own
    text-only ones and the dynamic prefilter (autocall and the like, which reads the namespace)
    does not apply: IPython applies it only to a cell of one line, never cached here. This
    extension's own later transform (`magic_async.transform`, installed with it) changes only a
    cell of one line too."""
    from .magic_async import transform as awaited_cell

    from IPython.core.interactiveshell import InteractiveShell

    manager = shell.input_transformer_manager
    steps = (*manager.cleanup_transforms, *manager.line_transforms, *manager.token_transformers)
    post = tuple(shell.input_transformers_post)
    if (getattr(type(shell), "transform_cell", None) is not InteractiveShell.transform_cell
            or not _from_ipython(type(manager)) or any(t is not awaited_cell for t in post)
            or not all(_from_ipython(t) for t in steps)):
        return shell.transform_cell(body)
    key = (body, manager, steps, post)
    found = _transforms.get(key)
    if found is not None:
        _transforms.move_to_end(key)
        return found
    transformed = shell.transform_cell(body)
    if len(transformed.splitlines()) > 1:
        _transforms[key] = transformed
        while len(_transforms) > 32:
            _transforms.popitem(last=False)
    return transformed


def _from_ipython(transform: Any) -> bool:
    """One of IPython's static input transforms (functions, classes and instances of
    `IPython.core.inputtransformer2`, all text in, text out)."""
    module = getattr(transform, "__module__", None) or getattr(type(transform), "__module__", "")
    return module == "IPython.core.inputtransformer2"


_transforms: "OrderedDict[tuple, str]" = OrderedDict()


def _then_flush(run: Callable[[dict], Any], namespace: dict) -> Any:
    """`run(namespace)`, then what it printed is sent off while the cell is analysed
    (`ui.flush_soon`): the report, drawn after that text, need not wait for it."""
    __tracebackhide__ = True  # noqa: F841
    try:
        return run(namespace)
    finally:
        from .ui import flush_soon

        flush_soon()


def running_cell(shell: Any) -> RunningCell:
    """The cell id and text from the execute request; only valid while the cell runs."""
    kernel = getattr(shell, "kernel", None)
    try:
        parent = kernel.get_parent() if kernel is not None else {}
    except Exception:  # noqa: BLE001 - a kernel without a parent message
        parent = {}
    metadata = parent.get("metadata") or {}
    content = parent.get("content") or {}
    cell_id = metadata.get("cellId")
    code = content.get("code")
    return RunningCell(cell_id if isinstance(cell_id, str) else None, code if isinstance(code, str) else None)


def cell_count(shell: Any) -> int:
    """The running cell's own prompt number.

    IPython 9 counts the cell before running it (`execution_count` is already the next
    one), older versions after: the count the cell's code was compiled under, found from
    the calling cell's frame, is right for both."""
    names = getattr(shell.compile, "_filename_map", {})
    frame = sys._getframe(1)
    while frame is not None:
        count = names.get(frame.f_code.co_filename)
        if isinstance(count, int):
            return count
        frame = frame.f_back
    return shell.execution_count


def notebook_path(shell: Any) -> str | None:
    """This notebook's file when the kernel knows it (`__session__` / JPY_SESSION_NAME)."""
    for candidate in (shell.user_ns.get("__session__"), os.environ.get("JPY_SESSION_NAME")):
        if isinstance(candidate, str) and candidate.endswith(".ipynb") and os.path.isfile(candidate):
            return candidate
    return None


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows): keep it as given
        return path


def history_units(shell: Any) -> list[SourceUnit]:
    """The cells run so far (raw text), but not the one running now."""
    raw = shell.history_manager.input_hist_raw
    now = cell_count(shell)
    return [
        SourceUnit(CellRef(path=f"In[{n}]"), text)
        for n, text in enumerate(raw)
        if n and n != now and text.strip()
    ]


_PROFILER_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dynamic") + os.sep


def _with_warm_up_notes(report: Report, beside: bool, unanswered: int) -> Report:
    """Say where the report is read what the one-time warm-up did to it: a step of it ran
    beside the cell (its times may read high), or jedi, still cold, was not asked."""
    notes = []
    if beside:
        notes.append("paef's one-time warm-up (jedi) ran beside this first cell: its times may read high; "
                     "re-run the cell for clean figures")
    if unanswered:
        notes.append(f"this first cell was analysed before jedi's one-time warm-up: {unanswered} type "
                     "question(s) went unanswered, so a finding may be missing; re-run the cell for the "
                     "full analysis")
    if report.profile is None or not notes:
        return report
    return replace(report, profile=replace(report.profile, notes=report.profile.notes + tuple(notes)))


def _from_user_code(error: BaseException | None, filename: str) -> BaseException | None:
    """The error with its traceback as a plain run would show it: starting at the cell's code,
    and ending before our own frames (a Ctrl-C that lands in the profiler's trace hook)."""
    tb = error.__traceback__ if error is not None else None
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    if error is None or tb is None:
        return error
    last = tb
    while last.tb_next is not None:
        if last.tb_next.tb_frame.f_code.co_filename.startswith(_PROFILER_DIR):
            last.tb_next = None
            break
        last = last.tb_next
    return error.with_traceback(tb)


def _parse(func: Callable, line: str) -> Any:
    try:
        return parse_argstring(func, line)
    except UsageError:
        raise
    except SystemExit:  # argparse on bad input
        raise UsageError(f"bad arguments: {line!r}") from None


def _check_rule_ids(rules: str | None) -> None:
    """`--apply=ids`: an unknown id is a usage error before the cell runs, not a silent no-op."""
    if not rules or rules == "all":
        return
    from .static.rules import RULES

    unknown = sorted({r.strip() for r in rules.split(",") if r.strip()} - set(RULES))
    if unknown:
        raise UsageError(f"--apply: unknown rule id(s): {', '.join(unknown)} (known: {', '.join(sorted(RULES))})")


def _is_paef_cell(code: str, body: str) -> bool:
    first, _, rest = code.lstrip("\n").partition("\n")
    return first.lstrip().startswith("%%paef") and rest.rstrip() == body.rstrip()


def _ends_with_semicolon(code: str) -> bool:
    lines = [ln for ln in code.rstrip().split("\n") if ln.strip()]
    return bool(lines) and lines[-1].split("#", 1)[0].rstrip().endswith(";")


_APPLY_FLAG = re.compile(r"\s+--apply(?:=\S*|\s+(?!-)\S+)?")


def _apply_hint(text: str) -> str:
    """The cell's first line with `--apply`: what to run where nothing can write the cell."""
    first = text.lstrip("\n").split("\n", 1)[0]
    return _APPLY_FLAG.sub("", first).rstrip() + " --apply"


# --- extension entry points --------------------------------------------------------------

_loaded: dict[int, PaefMagics] = {}


def load_ipython_extension(ipython: Any) -> None:
    if id(ipython) in _loaded:
        return
    from .dynamic.warm import CellGate, collect_all, defer_full_collections, warm_in_background
    from .magic_async import install
    from .static import warm
    from .static.types import JediOracle
    from .ui.warm import warm_view

    # A kernel has imported what its cells use: jedi inspects compiled modules (torch._C) here
    # rather than in a subprocess of its own that imports torch again (seconds, on the first
    # cell's critical path).
    JediOracle.in_process = True
    magics = PaefMagics(ipython)
    ipython.register_magics(magics)
    install(ipython)  # cells with top-level `await` run through IPython's async path
    # The labextension's handshake, and the notebook's remembered dismissals with it, arrive
    # while the user writes the next cell: the first report already knows them.
    magics.editor  # noqa: B018 - builds the kernel's bridge
    # jedi's, the analysis' and the view's cold starts take seconds: paid while the user
    # writes the next cell, never beside one (`%load_ext` itself is a cell: the gate opens
    # after it).
    magics.gate = gate = CellGate(cell_running=running_cell(ipython).code is not None)
    ipython.events.register("pre_run_cell", gate.cell_starts)
    ipython.events.register("post_run_cell", gate.cell_ends)
    deferred = defer_full_collections()
    magics.warming = warm_in_background(gate, warm_view, lambda: warm(background=False), _warm_analysis,
                                        collect=collect_all if deferred else gc.collect)
    _loaded[id(ipython)] = magics


def _warm_analysis() -> None:
    """libcst's native parser, the facts and every rule, loaded and run once on a small cell."""
    api.analyze_source("import torch\nfor step in range(3):\n    loss = torch.ones(2).sum()\n    print(loss.item())\n")


def unload_ipython_extension(ipython: Any) -> None:
    magics = _loaded.pop(id(ipython), None)
    if magics is None:
        return
    for kind in ("line", "cell"):
        ipython.magics_manager.magics[kind].pop("paef", None)
    ipython.magics_manager.registry.pop(type(magics).__name__, None)
    from .magic_async import uninstall

    uninstall(ipython)
    if magics.gate is not None:
        for event, hook in (("pre_run_cell", magics.gate.cell_starts), ("post_run_cell", magics.gate.cell_ends)):
            with contextlib.suppress(ValueError):
                ipython.events.unregister(event, hook)
    magics._wait_for_jedi()
