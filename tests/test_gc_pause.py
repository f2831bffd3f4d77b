"""paef's own work after the user's code runs without garbage collection, then collects the
youngest generation once; the user's code runs with the collector as the user left it."""

from __future__ import annotations

import asyncio
import gc
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from paef_jupyter.gc_pause import young_garbage_only
from paef_jupyter.run_steps import Ran, run_awaiting, run_now


def _steps(seen: dict[str, Any]):  # type: ignore[no-untyped-def]
    seen["before"] = gc.isenabled()
    ran: Ran = yield "the code"
    seen["after"] = gc.isenabled()
    # More objects than make a collection of the youngest generation due, kept alive.
    seen["kept"] = [[] for _ in range(3 * gc.get_threshold()[0])]
    seen["collected_in_steps"] = list(seen.get("collections", ()))
    return ran.value


@contextmanager
def _collections() -> Iterator[list[int]]:
    """The generations of the collections that start in the block."""
    collections: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        yield collections
    finally:
        gc.callbacks.remove(count)


@pytest.fixture
def collector_restored():  # type: ignore[no-untyped-def]
    enabled = gc.isenabled()
    yield
    (gc.enable if enabled else gc.disable)()


def test_the_steps_after_the_code_run_without_collection_and_the_code_with_it(collector_restored) -> None:
    gc.enable()
    seen: dict[str, Any] = {}

    def code(_request: str) -> str:
        seen["code"] = gc.isenabled()
        return "value"

    with _collections() as collections:
        seen["collections"] = collections
        assert run_now(_steps(seen), code) == "value"
        [[] for _ in range(10)]  # the next allocations: the collection that came due has run
    assert seen["before"] and seen["code"] and not seen["after"]
    # None while the steps ran (their allocations made one due), then the one due.
    assert gc.isenabled() and seen["collected_in_steps"] == [] and collections


def test_a_block_that_allocates_little_adds_no_collection(collector_restored) -> None:
    gc.enable()
    gc.collect()
    with _collections() as collections:
        with young_garbage_only():
            small = [1]
        assert small
    assert gc.isenabled() and collections == []


def test_an_awaited_cell_is_driven_the_same_way(collector_restored) -> None:
    gc.enable()
    seen: dict[str, Any] = {}

    async def code(_request: str) -> str:
        seen["code"] = gc.isenabled()
        return "value"

    assert asyncio.run(run_awaiting(_steps(seen), code)) == "value"
    assert seen["before"] and seen["code"] and not seen["after"] and gc.isenabled()


def test_a_collector_the_user_disabled_stays_disabled_and_nothing_is_collected(collector_restored) -> None:
    gc.disable()
    with _collections() as collections:
        with young_garbage_only():
            with young_garbage_only():
                pass
    assert not gc.isenabled() and collections == []


def test_the_steps_failing_or_interrupted_still_give_the_collector_back(collector_restored) -> None:
    gc.enable()

    def steps():  # type: ignore[no-untyped-def]
        yield "the code"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_now(steps(), lambda _request: None)
    assert gc.isenabled()
