"""Reading and writing the files the CLI works on: `.py` scripts and `.ipynb` notebooks."""

from __future__ import annotations

import json
import os
from typing import Mapping

from .model import CellRef, SourceUnit


class InputError(Exception):
    """A file the tool cannot read or write; its message is one line naming file and reason."""


def read_units(path: str) -> list[SourceUnit]:
    """The code of a file as units: the whole file for `.py`, each code cell for `.ipynb`."""
    if path.endswith(".ipynb"):
        nb = read_notebook(path)
        return [
            SourceUnit(CellRef(path, index, cell.get("id")), cell.get("source", ""))
            for index, cell in enumerate(nb.cells)
            if cell.get("cell_type") == "code"
        ]
    if path.endswith(".py"):
        return [SourceUnit(CellRef(path), _read_text(path))]
    raise InputError(f"{path}: unsupported file type (expected .py or .ipynb)")


def read_notebook(path: str):  # -> nbformat.NotebookNode
    import nbformat

    text = _read_text(path)
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


def write_fixed(path: str, out: str, new_sources: Mapping[int | None, str]) -> None:
    """Write `path` to `out` with some units replaced (keyed by cell index; None for a .py).

    Each rewritten notebook cell keeps its original text in `metadata.paef.original_source`.
    """
    if path.endswith(".ipynb"):
        import nbformat

        nb = read_notebook(path)
        for index, text in new_sources.items():
            cell = nb.cells[index]  # type: ignore[index]
            cell.metadata.setdefault("paef", {})["original_source"] = cell.source
            cell.source = text
        payload = nbformat.writes(nb)
    else:
        payload = new_sources[None]
    _write_text(out, payload)


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None


def _write_text(path: str, text: str) -> None:
    tmp = f"{path}.paef-tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
