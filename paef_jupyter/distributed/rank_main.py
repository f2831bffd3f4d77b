"""What each rank runs under torchrun: the user's script under PAEF's collector, then one JSON.

`python -m torch.distributed.run ... -m paef_jupyter.distributed.rank_main OUTDIR SCRIPT [ARGS]`

The script runs the way `paef profile SCRIPT` runs it (`run_units`: its training loop windowed,
lines marked), with `sys.argv` as torchrun would give it. The rank writes
`OUTDIR/rank-<RANK>.json` (its `Profile`, its window split, its failure if any), then exits
non-zero if the script failed, so torchrun's own failure handling (stopping the other ranks,
its error summary) is unchanged. The launcher stops the surviving ranks with SIGTERM when one
fails: that signal is raised as an exception inside the script, so their data is kept too.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
import traceback
from types import FrameType
from typing import Any

from ..dynamic.collector import Collected
from ..model import _to_plain  # the model's own serialisation of its dataclasses
from ..safe_write import replace_file
from .split import split_window

RECORD_VERSION = 1


class Terminated(Exception):
    """The launcher ended this rank (SIGTERM), typically because another rank failed."""


def record_path(outdir: str, rank: int) -> str:
    return os.path.join(outdir, f"rank-{rank}.json")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m paef_jupyter.distributed.rank_main OUTDIR SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    outdir, script, args = argv[0], argv[1], argv[2:]
    from ..dynamic.run_units import run_units
    from ..units import read_units

    rank = int(os.environ.get("RANK", "0"))
    seen: list[Collected] = []
    late: list[int] = []

    def ran(run: Collected) -> None:
        # The script has ended: a SIGTERM from now on must not cut its record short.
        signal.signal(signal.SIGTERM, lambda signum, frame: late.append(signum))
        seen.append(run)

    signal.signal(signal.SIGTERM, _raise_terminated)
    profile, failures = run_units(read_units(script), script, observe=ran, export_trace=True, script_args=args)
    error = next((run.error for run in seen if run.error is not None), None)
    if isinstance(error, SystemExit) and error.code in (None, 0):
        error, failures = None, []
    record: dict[str, Any] = {
        "version": RECORD_VERSION,
        "rank": rank,
        "local_rank": int(os.environ.get("LOCAL_RANK", "0")),
        "world_size": int(os.environ.get("WORLD_SIZE", "1")),
        "host": socket.gethostname(),
        "status": "ok" if error is None else ("stopped" if isinstance(error, Terminated) else "failed"),
        "reason": failures[0].message if failures else "",
        "line": failures[0].line if failures else None,
        "profile": _to_plain(profile),
        "split": _to_plain(split_window(seen[-1].trace)) if seen and seen[-1].trace else None,
        "trace_bytes": sum(run.trace_bytes for run in seen),
        # When the script ended (wall clock): which rank failed first (its peers fail after it).
        "ended_at": time.time() - (time.perf_counter() - seen[-1].run_end) if seen else time.time(),
    }
    data = json.dumps(record).encode("utf-8")
    replace_file(record_path(outdir, rank), data)
    if error is not None and not isinstance(error, Terminated):
        traceback.print_exception(error, file=sys.stderr)  # what the rank would have printed
    return 0 if error is None else 1


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process
    raise Terminated(f"ended by the launcher ({signal.Signals(signum).name}), after another rank failed")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
