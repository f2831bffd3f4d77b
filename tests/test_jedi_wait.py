"""An analysis waits for jedi's warm-up (a thread at `%load_ext`) only when it asks jedi."""

from __future__ import annotations

import threading

import torch

from paef_jupyter.api import analyze_source
from paef_jupyter.static.types import JediOracle

KNOWN = "%%paef\nfor step in range(3):\n    y = x * 2\n"  # `x` is live: its kind is exact
UNKNOWN = "%%paef\nimport torch\nfrom helpers import h\nfor step in range(3):\n    y = torch.tensor(h.tolist())\n"  # `h`: only jedi can tell


def _analyse_in_thread(text: str, namespace: dict) -> threading.Thread:
    thread = threading.Thread(target=analyze_source, args=(text,), kwargs={"namespace": namespace}, daemon=True)
    thread.start()
    return thread


def test_an_analysis_that_asks_jedi_nothing_runs_while_the_warm_up_holds_jedi() -> None:
    with JediOracle._lock:  # the warm-up, in progress
        done = _analyse_in_thread(KNOWN, {"x": torch.ones(2)})
        done.join(timeout=60)
        assert not done.is_alive()


def test_an_analysis_that_asks_jedi_waits_for_the_warm_up() -> None:
    JediOracle.warm()  # jedi warm: only the lock can hold the analysis for 2 s
    with JediOracle._lock:
        waiting = _analyse_in_thread(UNKNOWN, {})
        waiting.join(timeout=2)
        assert waiting.is_alive()  # blocked on jedi, not sharing its caches with the warm-up
    waiting.join(timeout=60)
    assert not waiting.is_alive()
