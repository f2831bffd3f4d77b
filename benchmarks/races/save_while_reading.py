"""jupyter_server's read of a notebook during its save (the browser tests' old save check).

Back-to-back saves (PUT) of a notebook to a real server (the browser harness's), with or without a
thread reading it (GET content=1) every POLL seconds. A read of the half-written file makes the
server move it to `<name>.invalid` and put the backup back: a save fails with 404 "No such file
or directory", or returns and is lost. Prints the counts (benchmarks/results/flake52.md).

    PYTHONPATH=. .venv/bin/python -m benchmarks.races.save_while_reading poll 25000 0.3 300
    PYTHONPATH=. .venv/bin/python -m benchmarks.races.save_while_reading nopoll 25000 0.3 300
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
import urllib.error
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from browser.conftest import _start_server, _stop_servers  # noqa: E402

NAME = "race.ipynb"


def notebook(i: int, size: int) -> dict:
    output = {"output_type": "stream", "name": "stdout", "text": "x" * size}
    cell = {"cell_type": "code", "id": "a", "metadata": {}, "execution_count": None, "source": f"v = {i}",
            "outputs": [output]}
    return {"type": "notebook", "content": {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]}}


def main(poll: bool, size: int, every: float, saves: int) -> None:
    server = _start_server("lab", Path(tempfile.mkdtemp(prefix="paef-race-")) / "lab", ())
    try:
        server.api("PUT", f"/api/contents/{NAME}", notebook(0, size))
        stop, read_errors = threading.Event(), []

        def reader() -> None:
            while not stop.is_set():
                try:
                    server.api("GET", f"/api/contents/{NAME}?content=1")
                except urllib.error.HTTPError as exc:
                    read_errors.append(exc.code)
                time.sleep(every)

        thread = threading.Thread(target=reader)
        if poll:
            thread.start()
        failed, lost = [], 0
        for i in range(1, saves + 1):
            try:
                server.api("PUT", f"/api/contents/{NAME}", notebook(i, size))
            except urllib.error.HTTPError as exc:
                failed.append(f"{exc.code} {json.loads(exc.read() or b'{}').get('message', '')[:80]}")
                continue
            lost += "".join(json.loads((server.root / NAME).read_text())["cells"][0]["source"]) != f"v = {i}"
        stop.set()
        if poll:
            thread.join()
        print(f"{'reads every ' + str(every) + ' s' if poll else 'no reads'}: {saves} saves of {size} bytes, "
              f"{len(failed)} failed {sorted(set(failed))}, {lost} lost; reads failed {len(read_errors)}; "
              f"files {sorted(p.name for p in server.root.iterdir())}")
    finally:
        _stop_servers([server])


if __name__ == "__main__":
    main(sys.argv[1] == "poll", int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))
