"""Run a data-parallel training script on real gloo ranks, the way `torchrun` starts it.

Each rank is a process with torchrun's environment (`RANK`, `WORLD_SIZE`, `LOCAL_RANK`, and
`MASTER_ADDR`/`MASTER_PORT` of a rendezvous store the runner holds) that executes the script as
`__main__` in a fresh working folder shared by the ranks (checkpoints land there). The script defines
`result`; the runner returns every rank's `result` and the files the ranks left behind, so a
rewrite is judged by what each rank computed *and* what it wrote.

Ranks start from a fork server (one per test session) that has imported torch and what DDP's
constructor imports (`torch._dynamo`, about 3 s): a spawned rank would pay those seconds every
time, and a rank forked from the test process itself can deadlock on a lock another thread of
it held (the analysis runs threads). One intra-op thread per rank, on a 2-core machine.

A script that destroys its process group and then frees a DDP model (a `main()` that calls
`destroy_process_group()` and returns) can hang in the DDP reducer's destructor: seen here in about
1 run of 4 once, and in CI (stop 57). So each rank keeps every DDP model it builds alive until it
leaves, and it leaves without running destructors.
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WORLD_SIZE = 2
_PRELOAD = ["torch", "torch.distributed", "torch._dynamo", "torch.nn.parallel", "numpy", "ddp_runner"]
TIMEOUT_S = 60


def _rank_main(rank: int, code: str, filename: str, port: int, world_size: int, folder: str) -> None:
    import numpy as np
    import torch
    import torch.distributed as dist

    os.environ.update({
        "RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(world_size),
        "LOCAL_WORLD_SIZE": str(world_size), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port),
        "TORCHELASTIC_USE_AGENT_STORE": "True", "OMP_NUM_THREADS": "1",
    })
    torch.set_num_threads(1)
    _keep_ddp_models_alive()
    stacks = open(Path(folder) / f".rank{rank}.stack", "w")  # where each rank is, if it hangs
    faulthandler.dump_traceback_later(TIMEOUT_S - 10, file=stacks)
    os.chdir(folder)
    torch.manual_seed(0)
    np.random.seed(0)
    random.seed(0)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(code, filename, "exec"), namespace)
    with open(Path(folder) / f".rank{rank}.result", "wb") as out:
        pickle.dump(_portable(namespace.get("result")), out)
    if dist.is_available() and dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()
    faulthandler.cancel_dump_traceback_later()
    stacks.close()
    sys.stdout.flush()
    sys.stderr.flush()
    # Leave without running the script's destructors: freeing a DDP reducer whose process group is
    # gone was seen to hang a rank at exit now and then, long after its work was done.
    os._exit(0)


def _keep_ddp_models_alive() -> None:
    """Hold every DDP model this rank builds, so none is freed after its process group is gone."""
    import functools

    from torch.nn.parallel import DistributedDataParallel

    kept: list[Any] = []
    init = DistributedDataParallel.__init__

    @functools.wraps(init)
    def keeping(self: Any, *args: Any, **kwargs: Any) -> None:
        kept.append(self)
        init(self, *args, **kwargs)

    DistributedDataParallel.__init__ = keeping  # type: ignore[method-assign]


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
    import multiprocessing

    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp

    multiprocessing.set_forkserver_preload(_PRELOAD)  # no effect once the server runs
    # The rendezvous store is the runner's, as torchrun's agent holds it for its workers: bound here
    # on a port the kernel picks, so no other job can take the port between choosing and binding it.
    store = dist.TCPStore("127.0.0.1", 0, world_size, is_master=True, wait_for_workers=False)
    with tempfile.TemporaryDirectory(prefix="paef-ddp-") as folder:
        context = mp.start_processes(_rank_main, args=(code, filename, store.port, world_size, folder),
                                     nprocs=world_size, join=False, start_method="forkserver")
        deadline = time.monotonic() + TIMEOUT_S
        while not context.join(timeout=0.5):  # raises if a rank failed
            if time.monotonic() > deadline:
                for process in context.processes:
                    process.kill()
                stacks = "\n".join(p.read_text() for p in sorted(Path(folder).glob(".rank*.stack")))
                raise TimeoutError(f"{filename}: the ranks did not finish in {TIMEOUT_S} s\n{stacks}")
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
