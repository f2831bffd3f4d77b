"""Each test's CPU seconds, its children's included, appended to $PAEF_CPU_TIMES (a TSV: CPU, wall,
node id); loaded with `-p cpu_times` (PYTHONPATH=.:tests). On a box shared with other work a test's wall
time measures the neighbours; its CPU time does not (how session 65 measured the suite's parts). A child
that outlives its test and is waited for later counts twice (rare: jedi's subprocess lives on unwaited)."""

from __future__ import annotations

import os
import time
from typing import Iterator

import psutil
import pytest

_me = psutil.Process()
_children: dict[int, float] = {}  # pid -> CPU seconds last seen: a child that lives across tests


def _cpu() -> float:
    own = _me.cpu_times()
    for child in _me.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        _children[child.pid] = times.user + times.system
    return own.user + own.system + own.children_user + own.children_system + sum(_children.values())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    wall, cpu = time.perf_counter(), _cpu()
    yield
    out = os.environ.get("PAEF_CPU_TIMES")
    if out:
        with open(out, "a") as f:
            f.write(f"{_cpu() - cpu:.2f}\t{time.perf_counter() - wall:.2f}\t{item.nodeid}\n")
