"""Run a file's cells in order in one namespace, each under the collector (`paef profile`).

Cells are compiled under names of their own (`<paef path cell N>`), so frames map back to
cells exactly. IPython syntax is masked: a masked line runs as a no-op (`name = None`).
A failing cell stops the run; what ran before it keeps its profile.
"""

from __future__ import annotations

import linecache
import os
import sys
import traceback
from typing import Callable, Sequence

from ..model import AnalysisError, CellRef, Profile, SourceUnit
from ..static.modules import LocalModules
from ..static.unit import ParsedUnit, parse_unit
from .build import build_profile, merge_profiles
from .code_files import CodeFile, CodeFiles
from .collector import Collected, collect
from .window_loop import choose_loop


def cell_filename(ref: CellRef) -> str:
    where = ref.path or "<source>"
    return f"<paef {where} cell {ref.cell}>" if ref.cell is not None else f"<paef {where}>"


def run_units(
    units: Sequence[SourceUnit | ParsedUnit],
    path: str,
    observe: Callable[[Collected], None] | None = None,
    export_trace: bool = False,
    script_args: Sequence[str] = (),
    memory: bool = False,
) -> tuple[Profile, list[AnalysisError]]:
    """`observe` sees each unit's raw run (its trace) before it is reduced to a profile;
    `export_trace`: each run's trace goes through Kineto's Chrome export (its size is wanted).
    The file sees `sys.argv` as `python PATH ARGS` gives it: paef's own command line there made
    every public script that parses its arguments stop at `parse_args()` (SystemExit 2). `memory`:
    each window records the allocator too (`collecting`)."""
    by_name = {cell_filename(u.ref): u for u in units}
    files_by_name = {name: u.ref for name, u in by_name.items()}
    local = _local_modules(path)
    files = CodeFiles(lambda name: CodeFile(name, files_by_name.get(name) or local(name)) if (
        name in files_by_name or local(name) is not None) else None)
    namespace: dict = {"__name__": "__main__", "__file__": os.path.abspath(path)}
    modules = LocalModules.around([SourceUnit(CellRef(path), "")])
    imports = modules.importer(path) if modules is not None else None  # before the chdir below
    profiles: list[Profile] = []
    failures: list[AnalysisError] = []
    notes: list[str] = []
    cwd = os.getcwd()
    sys_path = list(sys.path)
    sys_argv = sys.argv
    sys.argv = [os.path.abspath(path), *script_args]
    folder = os.path.dirname(os.path.abspath(path))
    os.chdir(folder)  # like a kernel started next to the notebook
    sys.path.insert(0, folder)
    try:
        for unit in units:
            label = _label(unit.ref)
            parsed = unit if isinstance(unit, ParsedUnit) else parse_unit(unit)
            unit = parsed.unit
            masked = parsed.masked
            if not masked.python:
                notes.append(f"{label}: not Python (cell magic), skipped")
                continue
            if not masked.text.strip():
                continue
            name = cell_filename(unit.ref)
            linecache.cache[name] = (len(unit.text), None, unit.text.splitlines(True), name)
            try:
                code = compile(masked.text, name, "exec")
            except SyntaxError as exc:
                failures.append(AnalysisError(unit.ref, exc.lineno, f"SyntaxError: {exc.msg}; the run stopped here"))
                break
            if masked.originals:
                notes.append(f"{label}: {len(masked.originals)} line(s) of IPython syntax skipped")
            for i in range(len(masked.originals)):
                namespace[f"__paef_masked_{i}__"] = None
            loop, _ = choose_loop(parsed, namespace, lambda name: files_by_name.get(name) or local(name), imports)
            run = collect(lambda: exec(code, namespace), files, loop, export_trace=export_trace, memory=memory)
            if observe is not None:
                observe(run)
            profiles.append(build_profile(run))
            if run.error is not None:
                failures.append(_failure(unit.ref, name, run.error))
                break
    finally:
        os.chdir(cwd)
        sys.path[:] = sys_path
        sys.argv = sys_argv
    return merge_profiles(profiles, notes=tuple(notes), cells=True), failures


def _local_modules(path: str, private: str | None = None) -> Callable[[str], CellRef | None]:
    """The program's own modules (a project's `model.py`, `utils.py`, a package beside it) are
    traced like its cells: their lines get their own times and ops, so a cost paid inside a
    helper is found there, not only on the line that calls it (truth15: public GCN's NumPy
    rebuild in `gcn.py` was reported on the calling loop of `cora.py`). Spelled as `paef scan`
    spells them (relative to the script's folder as the user named it), so the static findings
    in those files meet their lines. Installed code (a virtual environment inside the folder)
    and paef's own files are not the program's, nor is `private`, the folder of a run's own
    files (Scalene's driver and cell copies live in TMPDIR, which may be inside the program's
    folder: a notebook in /tmp)."""
    folder = os.path.dirname(os.path.abspath(path))
    shown = os.path.dirname(path)
    installed = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    own = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outside = [own] + ([os.path.realpath(private)] if private else [])
    seen: dict[str, CellRef | None] = {}

    def resolve(name: str) -> CellRef | None:
        if name in seen:
            return seen[name]
        ref = None
        if name.endswith(".py") and os.path.isabs(name):
            real = os.path.realpath(name)
            inside = os.path.commonpath([real, os.path.realpath(folder)]) == os.path.realpath(folder)
            foreign = ("site-packages" in real.split(os.sep) or "dist-packages" in real.split(os.sep)
                       or any(os.path.commonpath([real, p]) == p for p in installed)
                       or any(os.path.commonpath([real, p]) == p for p in outside))
            if inside and not foreign and real != os.path.realpath(path):
                ref = CellRef(os.path.normpath(os.path.join(shown, os.path.relpath(real, os.path.realpath(folder)))))
        seen[name] = ref
        return ref

    return resolve


def _label(ref: CellRef) -> str:
    return f"cell {ref.cell}" if ref.cell is not None else (ref.path or "source")


def _failure(ref: CellRef, filename: str, error: BaseException) -> AnalysisError:
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    message = f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else type(error).__name__
    return AnalysisError(ref, line, f"{message}; the run stopped at this {'cell' if ref.cell is not None else 'line'}")
