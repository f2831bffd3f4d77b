"""Run a data-parallel training script on real gloo ranks, the way `torchrun` starts it.

Each rank is a process with torchrun's environment (`RANK`, `WORLD_SIZE`, `LOCAL_RANK`,
`MASTER_ADDR`, `MASTER_PORT` on a free port) that executes the script as `__main__` in a
fresh working folder shared by the ranks (checkpoints land there). The script defines
`result`; the runner returns every rank's `result` and the files the ranks left behind, so a
rewrite is judged by what each rank computed *and* what it wrote.

Ranks are forked from the test process (torch already imported: a spawned rank would pay
several seconds of imports) with one intra-op thread each, on a 2-core machine.
"""

from __future__ import annotations

import os
import pickle
import random
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

WORLD_SIZE = 2
TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rank_main(rank: int, code: str, filename: str, port: int, world_size: int, folder: str) -> None:
    import numpy as np
    import torch
    import torch.distributed as dist

    os.environ.update({
        "RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(world_size),
        "LOCAL_WORLD_SIZE": str(world_size), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port),
        "OMP_NUM_THREADS": "1",
    })
    torch.set_num_threads(1)
    os.chdir(folder)
    torch.manual_seed(0)
    np.random.seed(0)
    random.seed(0)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    try:
        exec(compile(code, filename, "exec"), namespace)
    finally:
        if dist.is_available() and dist.is_initialized():
            dist.destroy_process_group()
    result = namespace.get("result")
    with open(Path(folder) / f".rank{rank}.result", "wb") as out:
        pickle.dump(_portable(result), out)


def _portable(value: Any) -> Any:
    """Tensors as detached CPU copies (pickled without shared memory)."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().cpu().clone()
    if isinstance(value, dict):
        return {k: _portable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_portable(v) for v in value)
    return value


def run_ranks(code: str, filename: str = "<ddp>", world_size: int = WORLD_SIZE) -> dict[str, Any]:
    """Run `code` on `world_size` gloo ranks; {"ranks": [result of each rank], "files": {name: content}}.

    A `.pt` file the ranks wrote is returned loaded (`torch.load`), any other file as bytes.
    """
    import torch
    import torch._dynamo  # noqa: F401  DDP's constructor imports it (~800 modules, 3 s): once here, not per rank
    import torch.multiprocessing as mp

    with tempfile.TemporaryDirectory(prefix="paef-ddp-") as folder:
        context = mp.start_processes(_rank_main, args=(code, filename, free_port(), world_size, folder),
                                     nprocs=world_size, join=False, start_method="fork")
        deadline = time.monotonic() + TIMEOUT_S
        while not context.join(timeout=0.5):  # raises if a rank failed
            if time.monotonic() > deadline:
                for process in context.processes:
                    process.kill()
                raise TimeoutError(f"{filename}: the ranks did not finish in {TIMEOUT_S} s")
        ranks = []
        for rank in range(world_size):
            with open(Path(folder) / f".rank{rank}.result", "rb") as f:
                ranks.append(pickle.load(f))
        files: dict[str, Any] = {}
        for path in sorted(Path(folder).iterdir()):
            if path.name.startswith(".rank"):
                continue
            files[path.name] = torch.load(path, weights_only=False) if path.suffix == ".pt" else path.read_bytes()
    return {"ranks": ranks, "files": files}


def is_ddp_program(code: str) -> bool:
    """A fixture that starts a process group: it only means something on several ranks."""
    return "init_process_group" in code
