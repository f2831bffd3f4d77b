"""Does a cell print the same under `%%paef`? Each notebook runs twice in fresh kernels: plain,
then with `%load_ext paef_jupyter` first and `%%paef [MODE]` on every code cell; the cells'
streams, results and errors must agree.

    python -m benchmarks.magic_transparency [--mode=--no-profile] [--json OUT] NOTEBOOK...

Without notebooks: the runnable notebooks of the corpus and the red team. Programs must be
deterministic (the corpus's `# corpus: runnable` ones are). It measures; the exit status is 0
whatever it finds.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNNABLE = "# corpus: runnable"
# What differs between any two runs: a cell's temporary file (named by a hash of its text, which
# `%%paef` changes) and object addresses. A cell's line is the user's: one more under `%%paef`.
CELL_FILE = re.compile(r"/tmp/ipykernel_\d+/\d+\.py:(\d+)")
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def runnable_notebooks() -> list[Path]:
    found = [*sorted((ROOT / "benchmarks" / "corpus").glob("*.ipynb")), *sorted((ROOT / "benchmarks" / "redteam").glob("*.ipynb"))]
    return [p for p in found if RUNNABLE in p.read_text()]


def under_paef(nb: Any, mode: str = "") -> Any:
    """The notebook with the extension loaded first and every non-empty code cell under `%%paef`."""
    import nbformat

    out = copy.deepcopy(nb)
    for cell in out.cells:
        if cell.cell_type == "code" and cell.source.strip():
            cell.source = f"%%paef {mode}".rstrip() + "\n" + cell.source
    out.cells.insert(0, nbformat.v4.new_code_cell("%load_ext paef_jupyter"))
    return out


def execute(nb: Any, cwd: Path, timeout: int = 300) -> float:
    """Runs `nb` in a fresh kernel. A cell still running 10 s before its timeout has the kernel
    print every thread's stack (faulthandler, on SIGABRT) to its stderr and die: a hang that
    cannot be reproduced leaves its evidence in the failure's captured output."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(cwd)}})
    watchdog: list[threading.Timer] = []

    def abort_kernel() -> None:
        process = getattr(getattr(client.km, "provisioner", None), "process", None)
        if process is not None:
            os.kill(process.pid, signal.SIGABRT)

    def arm(**_: Any) -> None:
        watchdog.append(threading.Timer(max(timeout - 10, 1), abort_kernel))
        watchdog[-1].daemon = True
        watchdog[-1].start()

    def disarm(**_: Any) -> None:
        while watchdog:
            watchdog.pop().cancel()

    client.on_cell_execute, client.on_cell_executed = arm, disarm
    start = time.perf_counter()
    try:
        client.execute(env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    finally:
        disarm()
    return time.perf_counter() - start


def visible(cell: Any, shift: int = 0) -> list[tuple[str, ...]]:
    """What the user reads of a cell: each stream's whole text (how stdout and stderr interleave
    is the kernel's flush timing, not the program), results, errors; cell files and addresses
    normalised, cell lines less `shift`."""
    def norm(text: str) -> str:
        text = CELL_FILE.sub(lambda m: f"<cell>:{int(m.group(1)) - shift}", text)
        return ADDRESS.sub(" at 0x?", text)

    streams: dict[str, str] = {}
    seen: list[tuple[str, ...]] = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            streams[out.name] = streams.get(out.name, "") + norm(out.text)
        elif out.output_type == "execute_result":
            seen.append(("result", norm(out.data.get("text/plain", ""))))
        elif out.output_type == "error":
            seen.append(("error", out.ename, norm(out.evalue)))
    return [("stream", name, text) for name, text in sorted(streams.items())] + seen


def compare(path: Path, mode: str = "") -> dict:
    """Plain vs `%%paef` runs of one notebook: the code cells whose visible outputs differ."""
    import nbformat

    plain = nbformat.read(path, as_version=4)
    profiled = under_paef(plain, mode)
    plain_s, paef_s = execute(plain, path.parent), execute(profiled, path.parent)
    differ = [
        {"cell": index, "plain": visible(a), "paef": visible(b, shift=1)}
        for index, (a, b) in enumerate(zip(plain.cells, profiled.cells[1:]))
        if a.cell_type == "code" and visible(a) != visible(b, shift=1)
    ]
    return {"notebook": path.name, "mode": mode or "default", "plain_s": round(plain_s, 1),
            "paef_s": round(paef_s, 1), "cells": sum(c.cell_type == "code" for c in plain.cells), "differ": differ}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--mode", default="", help="arguments after %%%%paef, e.g. --no-profile")
    parser.add_argument("--json", type=Path, help="write every comparison here")
    args = parser.parse_args(argv)
    results = []
    for path in args.notebooks or runnable_notebooks():
        result = compare(path, args.mode)
        results.append(result)
        print(f"{result['notebook']}: {result['cells']} code cells, {len(result['differ'])} differ "
              f"(plain {result['plain_s']} s, %%paef {result['paef_s']} s)", flush=True)
    differing = [r for r in results if r["differ"]]
    print(f"{len(results)} notebooks, {sum(r['cells'] for r in results)} code cells: "
          f"{len(differing)} notebooks print differently under %%paef {args.mode}".rstrip())
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
