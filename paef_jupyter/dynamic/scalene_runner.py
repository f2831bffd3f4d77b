"""`paef profile --engine scalene`: the file's cells under Scalene, in a subprocess.

Scalene's notebook magic is unfit (see NOTES.md), so each cell is written to a file of its own
in a private temp dir and a small driver runs them in order in one namespace under
`scalene run --cpu-only`. Scalene reports per (file, line), which maps straight back to
(cell, line). The driver records a failing cell (which stops the run) in a status file;
Scalene's own scratch folders land in the same temp dir (TMPDIR), which is removed after.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Callable, Mapping, Sequence

from ..model import AnalysisError, CellRef, Frame, LineStat, Profile, SourceUnit
from ..source import mask
from ..units import InputError
from .call_tree import PathFrame, tree_of_paths
from .run_units import _local_modules

TIMEOUT_S = 3600

_DRIVER = '''\
import json, os, sys, traceback
cells = json.load(open({cells!r}))
ns = {{"__name__": "__main__", "__file__": {file!r}}}
sys.path.insert(0, {folder!r})
sys.argv = {argv!r}
os.chdir({folder!r})
for cell in cells:
    for i in range(cell["masked"]):
        ns["__paef_masked_%d__" % i] = None
    with open(cell["file"]) as fh:
        code = compile(fh.read(), cell["file"], "exec")
    try:
        exec(code, ns)
    except BaseException as exc:
        line = None
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == cell["file"]:
                line = frame.lineno
        with open({status!r}, "w") as out:
            json.dump({{"index": cell["index"], "line": line,
                       "message": (type(exc).__name__ + ": " + str(exc)).splitlines()[0]}}, out)
        break
'''


class ScaleneError(InputError):
    """Scalene could not run or wrote no profile: like an unreadable input, the file cannot be
    profiled this way, and the faces report it as one line naming the file."""


def run_scalene(units: list[SourceUnit], path: str, script_args: Sequence[str] = ()) -> tuple[Profile, list[AnalysisError]]:
    """The file sees `sys.argv` as `python PATH ARGS` gives it, as under the torch engine."""
    with tempfile.TemporaryDirectory(prefix="paef-scalene-") as tmp:
        cells, refs, notes = _write_cells(units, tmp)
        status = os.path.join(tmp, "status.json")
        driver = os.path.join(tmp, "driver.py")
        with open(driver, "w", encoding="utf-8") as fh:
            fh.write(
                _DRIVER.format(
                    cells=os.path.join(tmp, "cells.json"),
                    file=os.path.abspath(path),
                    argv=[os.path.abspath(path), *script_args],
                    folder=os.path.dirname(os.path.abspath(path)),
                    status=status,
                )
            )
        with open(os.path.join(tmp, "cells.json"), "w", encoding="utf-8") as fh:
            json.dump(cells, fh)
        out = os.path.join(tmp, "profile.json")
        cmd = [sys.executable, "-m", "scalene", "run", "--cpu-only", *(["--gpu"] if _has_gpu() else [])]
        folder = os.path.dirname(os.path.abspath(path))
        # the cells, and the program's own modules beside it (the driver's folder is not theirs:
        # `--profile-all`, narrowed to both folders; `local` below keeps only the program's files)
        cmd += ["--profile-all", "--profile-only", f"{tmp},{folder}", "-o", out, driver]
        env = dict(os.environ, TMPDIR=tmp)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT_S, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ScaleneError(f"{path}: scalene did not run: {exc}") from None
        if not os.path.exists(out):
            tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-1:] or ["no output"]
            raise ScaleneError(f"{path}: scalene wrote no profile (exit {proc.returncode}): {tail[0]}")
        with open(out, encoding="utf-8") as fh:
            data = json.load(fh)
        failures = _failures(status, units)
    texts = {name: units[c["index"]].text.splitlines() for name, c in zip(refs, cells)}
    return profile_from_scalene(data, refs, texts, notes=tuple(notes), local=_local_modules(path, private=tmp)), failures


def _write_cells(units: list[SourceUnit], tmp: str) -> tuple[list[dict], dict[str, CellRef], list[str]]:
    cells: list[dict] = []
    refs: dict[str, CellRef] = {}
    notes: list[str] = []
    for index, unit in enumerate(units):
        masked = mask(unit.text)
        if not masked.python:
            notes.append(f"cell {unit.ref.cell}: not Python (cell magic), skipped")
            continue
        name = os.path.join(tmp, f"cell_{index:04d}.py")
        with open(name, "w", encoding="utf-8") as fh:
            fh.write(masked.text)
        refs[name] = unit.ref
        cells.append({"index": index, "file": name, "masked": len(masked.originals)})
    return cells, refs, notes


def _failures(status: str, units: list[SourceUnit]) -> list[AnalysisError]:
    if not os.path.exists(status):
        return []
    with open(status, encoding="utf-8") as fh:
        failed = json.load(fh)
    ref = units[failed["index"]].ref
    return [AnalysisError(ref, failed.get("line"), f"{failed['message']}; the run stopped here")]


def profile_from_scalene(
    data: Mapping[str, Any],
    refs: Mapping[str, CellRef],
    texts: Mapping[str, list[str]] | None = None,
    notes: tuple[str, ...] = (),
    local: Callable[[str], CellRef | None] | None = None,
) -> Profile:
    """Scalene's JSON -> Profile. Percentages are of the elapsed time; lines are self time;
    the call tree comes from its sampled stacks, cut to the frames of cells. `local`: the ref of
    one of the program's own modules by filename (as the torch engine traces them: truth16, item
    e), None for any other file."""
    elapsed = float(data.get("elapsed_time_sec") or 0.0)
    refs, texts = _with_local_modules(data, refs, dict(texts or {}), local)
    lines: list[LineStat] = []
    for filename, info in (data.get("files") or {}).items():
        ref = refs.get(filename) or refs.get(os.path.realpath(filename))
        if ref is None:
            continue
        for row in info.get("lines") or ():
            python = float(row.get("n_cpu_percent_python") or 0) / 100 * elapsed
            native = float(row.get("n_cpu_percent_c") or 0) / 100 * elapsed
            system = float(row.get("n_sys_percent") or 0) / 100 * elapsed
            gpu = float(row.get("n_gpu_percent") or 0) / 100 * elapsed
            if not (python or native or system or gpu or row.get("n_peak_mb") or row.get("n_copy_mb_s")):
                continue
            total = python + native + system
            lines.append(
                LineStat(
                    ref=ref,
                    line=int(row["lineno"]),
                    cpu_time_s=total,
                    self_cpu_s=total,
                    gpu_time_s=gpu,
                    python_cpu_s=python,
                    native_cpu_s=native,
                    system_cpu_s=system,
                    peak_memory_mb=float(row.get("n_peak_mb") or 0),
                    copy_mb_s=float(row.get("n_copy_mb_s") or 0),
                )
            )
    lines.sort(key=lambda s: (s.ref.cell if s.ref.cell is not None else -1, s.line))
    cpu = sum(s.cpu_time_s for s in lines)
    return Profile(
        engine="scalene",
        wall_time_s=elapsed,
        cpu_time_s=cpu,
        gpu_time_s=sum(s.gpu_time_s for s in lines),
        peak_memory_bytes=int(float(data.get("max_footprint_mb") or 0) * (1 << 20)),
        device="cuda" if data.get("gpu") else "cpu",
        lines=tuple(lines),
        cpu_tree=_stack_tree(data, refs, texts or {}, elapsed),
        notes=notes + (CPU_ONLY_NOTE,),
        mode="full",
        profiled_time_s=elapsed,
        base_time_s=elapsed,
    )


def _with_local_modules(
    data: Mapping[str, Any], refs: Mapping[str, CellRef], texts: dict[str, list[str]],
    local: Callable[[str], CellRef | None] | None,
) -> tuple[dict[str, CellRef], dict[str, list[str]]]:
    """The cells' refs plus those of the program's modules Scalene reported (their text read for
    the call tree's labels)."""
    out = dict(refs)
    if local is None:
        return out, texts
    for filename in data.get("files") or {}:
        if filename in out or not os.path.isabs(filename):
            continue
        ref = local(filename)
        if ref is None:
            continue
        out[filename] = ref
        try:
            with open(filename, encoding="utf-8") as fh:
                texts[filename] = fh.read().splitlines()
        except (OSError, UnicodeDecodeError):
            pass
    return out, texts


CPU_ONLY_NOTE = (
    "Scalene ran CPU-only: its memory and copy-volume profiling is unusable with torch "
    "imported (170x slower, wrong figures)"
)


def _stack_tree(
    data: Mapping[str, Any], refs: Mapping[str, CellRef], texts: Mapping[str, list[str]], elapsed: float
) -> Frame | None:
    paths = []
    for entry in data.get("stacks") or ():
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict)):
            continue
        frames = []
        for raw in entry[0]:
            filename, _, where = str(raw).rstrip(";").rpartition(" ")
            func, _, line = where.rpartition(":")
            if filename not in refs or not line.isdigit():
                continue
            lines = texts.get(filename, [])
            n = int(line)
            if n < 1 or (lines and n > len(lines)):
                continue  # sampled on entry, before the cell's first line: no source line to link
            label = lines[n - 1].strip() if n <= len(lines) else f"{func} line {n}"
            frames.append(PathFrame(label or f"line {n}", refs[filename], n))
        share = float(entry[1].get("cpu_samples") or 0.0)
        if frames and share > 0:
            paths.append((frames, int(share * elapsed * 1e9)))
    return tree_of_paths("run", paths)


def _has_gpu() -> bool:
    try:
        import torch

        return bool(torch.cuda.is_available())
    except (ImportError, AssertionError, RuntimeError):
        return False
