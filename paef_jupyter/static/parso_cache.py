"""parso's on-disk parse cache (jedi's, `~/.cache/jedi`) made safe to share between processes.

parso writes a cache file in place (`open(path, "wb")`, then the pickle) and loads any cache file
newer than its source. A process that loads a module while another one is still writing that
module's cache file reads a truncated pickle (`EOFError: Ran out of input`), and the jedi
inference in flight fails. paef takes a failed inference for "type unknown" (jedi has many
failure modes), so the failure was silent: findings lost, when two processes fill an empty cache
at once (the two xdist workers of a fresh CI run, two kernels started together, a kernel beside
jupyter-lsp). Two processes warming jedi on one empty cache: one of the two failed so in 3 runs
of 3 here (benchmarks/results/flake52.md).

`make_safe` installs two guards, once per process: a cache file that cannot be read is a miss
(the source is parsed again, as without a cache), and this process writes its cache files whole
(a temporary file renamed over the target), so no reader sees one of them half-written. They
replace private parso functions; where those are missing (another parso), nothing changes.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import threading
import uuid
from typing import Any, Callable

_installed = False
_lock = threading.Lock()


def make_safe() -> None:
    """Install both guards (idempotent). Called before paef first asks jedi anything."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
        try:
            from parso import cache
        except ImportError:
            return
        load = getattr(cache, "_load_from_file_system", None)
        save = getattr(cache, "_save_to_file_system", None)
        hashed_path = getattr(cache, "_get_hashed_path", None)
        if not (callable(load) and callable(save) and callable(hashed_path)):
            return
        cache._load_from_file_system = _load_or_miss(load)
        cache._save_to_file_system = _save_whole(hashed_path)


def _load_or_miss(load: Callable[..., Any]) -> Callable[..., Any]:
    def load_or_miss(hashed_grammar: str, path: str, p_time: float, cache_path: Any = None) -> Any:
        try:
            return load(hashed_grammar, path, p_time, cache_path=cache_path)
        except Exception:  # being written by another process, or unreadable: parse the source
            return None

    return load_or_miss


def _save_whole(hashed_path: Callable[..., str]) -> Callable[..., None]:
    def save_whole(hashed_grammar: str, path: str, item: Any, cache_path: Any = None) -> None:
        """The pickle goes to a temporary file first, in the cache's root folder (parso's clean-up
        only lists the version folders below it, where a file must not vanish while listed)."""
        tmp = None
        try:
            target = hashed_path(hashed_grammar, path, cache_path=cache_path)
            tmp = os.path.join(os.path.dirname(os.path.dirname(target)),
                               f".paef-{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp")
            with open(tmp, "xb") as f:
                pickle.dump(item, f, pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, target)
            tmp = None
        except OSError:
            # Not saved: the parse stays in this process's memory, as when parso cannot write
            # (its own version-folder creation also races another process's on an empty cache).
            pass
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    return save_whole
