"""Launch a script on several ranks through PyTorch's own launcher, each rank profiled.

torchrun (`python -m torch.distributed.run`) does the rendezvous, the environment of each rank
(RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR/PORT) and the failure handling; every rank runs
`rank_main`, which profiles the script and writes one JSON record. torchrun's `--log-dir`
with `--tee` keeps each rank's stderr in a file while the console still shows it: the tail of
that file says why a rank that wrote no record ended.
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any, Callable

import paef_jupyter

STDERR_TAIL_LINES = 15
STOP_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Launch:
    """How to start the job: torchrun's own options, passed through."""

    nproc_per_node: int
    nnodes: str = "1"  # "N" or "MIN:MAX", as torchrun takes it
    node_rank: int | None = None
    rdzv_endpoint: str | None = None  # none on one node: `--standalone` (a free port)
    rdzv_backend: str | None = None
    rdzv_id: str | None = None

    @property
    def single_node(self) -> bool:
        return self.nnodes in ("1", "1:1") and self.rdzv_endpoint is None


@dataclass
class LaunchResult:
    exit_code: int
    records: dict[int, dict[str, Any]]  # rank -> the JSON its rank_main wrote
    record_bytes: dict[int, int]
    stderr_tails: dict[int, str]  # local rank -> the end of its stderr
    exit_codes: dict[int, int] = field(default_factory=dict)  # local rank -> from torchrun's summary
    output_tail: str = ""


def torchrun_command(script: str, script_args: list[str], launch: Launch, outdir: str, logdir: str) -> list[str]:
    cmd = [sys.executable, "-m", "torch.distributed.run", f"--nproc-per-node={launch.nproc_per_node}"]
    cmd.append(f"--nnodes={launch.nnodes}")
    if launch.single_node:
        cmd.append("--standalone")
    else:
        cmd.append(f"--rdzv-backend={launch.rdzv_backend or 'c10d'}")
        if launch.rdzv_endpoint:
            cmd.append(f"--rdzv-endpoint={launch.rdzv_endpoint}")
        if launch.rdzv_id:
            cmd.append(f"--rdzv-id={launch.rdzv_id}")
    if launch.node_rank is not None:
        cmd.append(f"--node-rank={launch.node_rank}")
    cmd += [f"--log-dir={logdir}", "--tee=3", "-m", "paef_jupyter.distributed.rank_main", outdir, script, *script_args]
    return cmd


def run_job(
    script: str,
    script_args: list[str],
    launch: Launch,
    echo: Callable[[str], None] | None = None,
) -> LaunchResult:
    """Run the job to its end; `echo` gets the launcher's console output line by line."""
    with tempfile.TemporaryDirectory(prefix="paef-ddp-") as tmp:
        outdir, logdir = os.path.join(tmp, "ranks"), os.path.join(tmp, "logs")
        os.makedirs(outdir)
        cmd = torchrun_command(script, script_args, launch, outdir, logdir)
        tail: list[str] = []
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=_rank_environment(), text=True, errors="replace", bufsize=1,
        )
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                tail = (tail + [line])[-200:]
                if echo is not None:
                    echo(line)
            code = proc.wait()
        finally:
            _stop(proc)
        records, sizes = _read_records(outdir)
        output = "".join(tail)
        return LaunchResult(code, records, sizes, _stderr_tails(logdir), _summary_exit_codes(output), output)


def _rank_environment() -> dict[str, str]:
    """The ranks must import this very copy of paef_jupyter; one thread per rank by default
    (torchrun sets it too, with a warning), since ranks share the machine's cores."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(paef_jupyter.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def _stop(proc: subprocess.Popen) -> None:
    """On an interrupt torchrun gets SIGTERM, which it passes to the ranks (they still write
    their records); a launcher that does not stop in time is killed."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _read_records(outdir: str) -> tuple[dict[int, dict[str, Any]], dict[int, int]]:
    records: dict[int, dict[str, Any]] = {}
    sizes: dict[int, int] = {}
    for path in glob.glob(os.path.join(outdir, "rank-*.json")):
        try:
            with open(path, "rb") as fh:
                data = fh.read()
            record = json.loads(data)
            rank = int(record["rank"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a rank killed mid-write: treated as one that sent nothing
        records[rank] = record
        sizes[rank] = len(data)
    return records, sizes


def _stderr_tails(logdir: str) -> dict[int, str]:
    """torchrun writes `<logdir>/<run id>/attempt_<n>/<local rank>/stderr.log`; the last
    attempt's file of each local rank is read."""
    tails: dict[int, str] = {}
    for path in sorted(glob.glob(os.path.join(logdir, "*", "attempt_*", "*", "stderr.log"))):
        local = os.path.basename(os.path.dirname(path))
        if not local.isdigit():
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            continue
        tails[int(local)] = "\n".join(lines[-STDERR_TAIL_LINES:])
    return tails


_SUMMARY = re.compile(r"local_rank\s*:\s*(\d+)\)\s*\n\s*exitcode\s*:\s*(-?\d+)")


def _summary_exit_codes(output: str) -> dict[int, int]:
    """Exit codes from torchrun's failure summary ("rank : 1 (local_rank: 1)\\n exitcode : 1"):
    best effort, it is text for people; a rank missing here keeps an unknown code."""
    return {int(local): int(code) for local, code in _SUMMARY.findall(output)}
