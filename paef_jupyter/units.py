"""Reading and writing the files the CLI works on: `.py` scripts and `.ipynb` notebooks."""

from __future__ import annotations

import codecs
import io
import json
import os
import stat
import tokenize
from dataclasses import dataclass
from typing import Any, Mapping

from .model import CellRef, SourceUnit
from .safe_write import WriteError, check_writable, create_backup, replace_file, resolve_target, same_file


class InputError(Exception):
    """A file the tool cannot read or write; its message is one line naming file and reason."""


MAX_BYTES = 256 * 1024 * 1024
"""Largest file read: a bound instead of reading `/dev/zero` into a `MemoryError`."""


@dataclass(frozen=True)
class Snapshot:
    """One file exactly as read: its bytes (to refuse a write if the file changed since) and format."""

    path: str
    data: bytes
    encoding: str
    newline: str  # "\n", "\r\n" or "\r": the file's own, written back the same way


@dataclass(frozen=True)
class Loaded:
    """The units of a file and the snapshot they came from; a notebook keeps its parsed form."""

    snapshot: Snapshot
    units: list[SourceUnit]
    notebook: Any = None


def read_units(path: str) -> list[SourceUnit]:
    """The code of a file as units: the whole file for `.py`, each code cell for `.ipynb`."""
    return load(path).units


def load(path: str) -> Loaded:
    """Read `path` once: the units to analyse plus what a later write must check and keep."""
    if path.endswith(".ipynb"):
        snap = _snapshot(path, python=False)
        nb = _parse_notebook(path, _decode(snap))
        code = [(index, cell) for index, cell in enumerate(nb.cells) if cell.get("cell_type") == "code"]
        units = [
            SourceUnit(CellRef(path, index, cell.get("id"), _cell_label(n, cell)), cell.get("source", ""))
            for n, (index, cell) in enumerate(code, start=1)
        ]
        return Loaded(snap, units, nb)
    if path.endswith(".py"):
        snap = _snapshot(path, python=True)
        return Loaded(snap, [SourceUnit(CellRef(path), _decode(snap))])
    raise InputError(f"{path}: unsupported file type (expected .py or .ipynb)")


def _cell_label(number: int, cell: Any) -> str:
    """`code cell 3 [7]`: what the user can find in the notebook (the prompt's count when saved)."""
    count = cell.get("execution_count")
    return f"code cell {number}" + (f" [{count}]" if isinstance(count, int) else "")


def _parse_notebook(path: str, text: str):  # -> nbformat.NotebookNode
    import nbformat

    try:
        nb = nbformat.reads(text, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError) as exc:
        raise InputError(f"{path}: not a valid notebook (not JSON: {_first_line(exc)})") from None
    except Exception as exc:  # nbformat raises a variety of errors on malformed content
        raise InputError(f"{path}: not a valid notebook ({_first_line(exc)})") from None
    if not isinstance(nb.get("cells"), list):
        raise InputError(f"{path}: not a valid notebook (no cell list)")
    for cell in nb.cells:
        if not isinstance(cell, Mapping) or not isinstance(cell.get("source", ""), str):
            raise InputError(f"{path}: not a valid notebook (malformed cell)")
    return nb


def fixed_payload(loaded: Loaded, new_sources: Mapping[int | None, str]) -> bytes:
    """The bytes of `loaded`'s file with some units replaced (keyed by cell index; None for a .py).

    Each rewritten notebook cell keeps its *first* original text in `metadata.paef.original_source`
    (a second `fix` does not replace it). Encoding, BOM and newline style are those of the input.
    """
    snap = loaded.snapshot
    if loaded.notebook is not None:
        import copy

        import nbformat

        nb = copy.deepcopy(loaded.notebook)
        for index, text in new_sources.items():
            cell = nb.cells[index]  # type: ignore[index]
            cell.metadata.setdefault("paef", {}).setdefault("original_source", cell.source)
            cell.source = text
        text = nbformat.writes(nb)
        if not text.endswith("\n"):
            text += "\n"
    else:
        text = new_sources[None]
    if snap.newline != "\n":
        text = text.replace("\r\n", "\n").replace("\n", snap.newline)
    try:
        return text.encode(snap.encoding)
    except UnicodeEncodeError:
        raise InputError(f"{snap.path}: the rewrite cannot be encoded as {snap.encoding}; nothing written") from None


def write_output(loaded: Loaded, out: str, payload: bytes) -> str | None:
    """Write `payload` to `out`; when `out` is the input (under any spelling), back it up first.

    Refuses (nothing written) when the input changed since it was read. Returns the backup's name.
    """
    path = loaded.snapshot.path
    backup = None
    try:
        in_place = same_file(path, out)
        if in_place:
            check_writable(resolve_target(out))
        check_unchanged(loaded.snapshot)
        if in_place:
            backup = create_backup(path, loaded.snapshot.data)
        replace_file(out, payload, before_replace=lambda: check_unchanged(loaded.snapshot))
    except WriteError as exc:
        raise InputError(str(exc)) from None
    return backup


def check_unchanged(snap: Snapshot) -> None:
    """Refuse to write over a file that changed since `snap` was read (an autosave, an editor)."""
    try:
        with open(snap.path, "rb") as fh:
            now = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{snap.path}: changed since it was read ({exc.strerror}); nothing written") from None
    if now != snap.data:
        raise InputError(f"{snap.path}: changed since it was read; nothing written (run paef fix again)")


def _snapshot(path: str, python: bool) -> Snapshot:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: not a regular file")
    if st.st_size > MAX_BYTES:
        raise InputError(f"{path}: too large ({st.st_size // 2**20} MiB; the limit is {MAX_BYTES // 2**20} MiB)")
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{path}: too large (over {MAX_BYTES // 2**20} MiB)")
    encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    if python:  # a BOM or a PEP 263 coding cookie, read as Python reads them
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as exc:
            raise InputError(f"{path}: {_first_line(exc)}") from None
    return Snapshot(path, data, encoding, _newline_style(data))


def _newline_style(data: bytes) -> str:
    """The line ending most lines of `data` use."""
    crlf = data.count(b"\r\n")
    lf, cr = data.count(b"\n") - crlf, data.count(b"\r") - crlf
    return max((lf, "\n"), (crlf, "\r\n"), (cr, "\r"), key=lambda pair: pair[0])[1] if crlf or cr else "\n"


def _decode(snap: Snapshot) -> str:
    try:
        text = snap.data.decode(snap.encoding)
    except (UnicodeDecodeError, LookupError):
        name = "UTF-8" if snap.encoding.startswith("utf-8") else snap.encoding
        raise InputError(f"{snap.path}: not {name} text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
