"""The cap on memory added while profiling counts what the profiler records, never the cell's
own allocations nor the profiler's start-up: a short script must not read 'profiling stopped'.
Each case is a fresh process (`paef profile`), where the first profiler session's start-up
(tens of MB in kineto) happens for real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from paef_jupyter.dynamic.line_tracer import MAX_ADDED_MEMORY, _GrowthLedger  # noqa: E402

SCRIPTS = {
    # No loop: the whole script is profiled; only kineto's start-up grows the process.
    "no loop": "import torch\nx = torch.randn(200, 200)\ny = (x @ x).relu().sum().item()\nprint(y > -1)\n",
    "a model built": (
        "import torch\ntorch.manual_seed(0)\n"
        "model = torch.nn.Sequential(torch.nn.Linear(512, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 10))\n"
        "out = model(torch.randn(256, 512)).sum().item()\nprint(out is not None)\n"
    ),
    # 64 MB in one step, then 64 MB more: the cell's memory, not recorded events.
    "big allocations": (
        "import torch\nbig = torch.ones(16 * 2**20)\nmore = torch.ones(16 * 2**20) * 2\n"
        "print((big.sum() + more.sum()).item() > 0)\n"
    ),
    "big allocations in a window": (
        "import torch\nkeep = []\nfor i in range(12):\n    keep.append(torch.full((4 * 2**20,), float(i)))\n"
        "    s = keep[-1].sum().item()\nprint(len(keep))\n"
    ),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_the_cell_s_own_memory_does_not_stop_profiling(name: str, tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SCRIPTS[name])
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "paef_jupyter.cli", "profile", str(script), "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    notes = json.loads(out.read_text())["profile"]["notes"]
    assert not any("profiling stopped" in n for n in notes), notes


# The watchdog's judgement, step by step: (bytes grown, CPU seconds, lines run) per 10 ms step.
MB = 2**20
TINY_OPS = (3 * MB, 0.01, 800)  # recorded events: 0.3 GB per CPU-second, from hundreds of lines


def _charged(steps: list[tuple[int, float, int]]) -> int:
    """Bytes charged to recorded events after `steps`, from a 100 MB process."""
    ledger = _GrowthLedger(100 * MB)
    now = 100 * MB
    for grew, cpu_s, lines in steps:
        now += grew
        ledger.step(grew, cpu_s, lines)
    return ledger.events(now)


def test_a_big_allocation_cut_by_the_watchdog_s_steps_is_the_cell_s_own_memory_edges_included() -> None:
    # 16 MB tensors filled at 4 GB/s, each cut into a slow first step, a burst and a slow last one
    # (as measured in a loaded test process: 0.5-1.5 MB in 4-6 ms of CPU); twelve of them.
    one = [(1 * MB, 0.005, 1), (14 * MB, 0.004, 1), (MB + MB // 2, 0.006, 1)]
    assert _charged(one * 12) == 0


def test_recorded_events_still_reach_the_cap() -> None:
    assert _charged([TINY_OPS] * 3) == 6 * MB  # the last step waits for the next one's verdict
    assert _charged([TINY_OPS] * 4) > MAX_ADDED_MEMORY


def test_a_burst_amid_recorded_events_lets_through_only_its_two_edge_steps() -> None:
    burst = (32 * MB, 0.008, 1)
    steps = [TINY_OPS] * 5 + [burst] + [TINY_OPS] * 5
    assert _charged(steps) == _charged([TINY_OPS] * 8)


def test_a_slow_step_far_from_any_burst_is_charged() -> None:
    slow = (MB, 0.006, 1)
    assert _charged([slow, (0, 0.01, 0), slow, (0, 0.01, 0)]) == 2 * MB


# truth18: on a loaded box page faults are slow, and one 64 MB tensor became resident over many
# steps, each too slow for a burst: charged to recorded events, "profiling stopped after 8 MB".
# A tensor is reserved at once (the virtual size jumps by its size, untouched) and made resident
# later; recorded events grow the virtual and the resident size together.


def _charged_sizes(steps: list[tuple[int, float, int, int]]) -> int:
    """`_charged` with each step's virtual-size growth: (resident grown, CPU s, lines, virtual grown)."""
    ledger = _GrowthLedger(100 * MB)
    now = 100 * MB
    for grew, cpu_s, lines, reserved in steps:
        now += grew
        ledger.step(grew, cpu_s, lines, reserved)
    return ledger.events(now)


def test_a_big_tensor_made_resident_slowly_is_the_cell_s_own_memory() -> None:
    # `torch.ones(16 * 2**20)` on a loaded box: 64 MB reserved, then 2 MB per 10 ms of CPU
    # (0.2 GB/s, under USER_ALLOCATION_RATE) over 32 steps; then the same again.
    one = [(MB // 2, 0.004, 1, 64 * MB)] + [(2 * MB, 0.01, 0, 0)] * 32
    assert _charged_sizes(one) == 0
    assert _charged_sizes(one + one) == 0


def test_slow_events_after_a_big_tensor_still_reach_the_cap() -> None:
    """Near miss: once the tensor is resident, events (virtual and resident growing together)
    are charged, and the cap is reached as without the tensor."""
    tensor = [(MB // 2, 0.004, 1, 64 * MB)] + [(2 * MB, 0.01, 0, 0)] * 32
    events = [(3 * MB, 0.01, 800, 3 * MB)] * 4
    assert _charged_sizes(tensor + events) > MAX_ADDED_MEMORY


def test_events_while_a_reserved_tensor_waits_untouched_are_charged() -> None:
    """Near miss: a tensor reserved but not yet touched (`torch.empty`) leaves room to come in;
    events growing both sizes meanwhile take none of it (the reservation is a burst: the step
    after it is its edge, as for any burst)."""
    steps = [(0, 0.001, 1, 64 * MB)] + [(3 * MB, 0.01, 800, 3 * MB)] * 6
    assert _charged_sizes(steps) == _charged([TINY_OPS] * 5) > MAX_ADDED_MEMORY


def test_a_tensor_freed_untouched_leaves_nothing_to_come_in() -> None:
    """Near miss: reserved, freed untouched, then slow growth with no virtual growth: not the
    tensor's (it is gone), charged as before."""
    steps = [(0, 0.001, 1, 64 * MB), (0, 0.001, 1, -64 * MB)] + [(2 * MB, 0.01, 0, 0)] * 6
    assert _charged_sizes(steps) > MAX_ADDED_MEMORY


def test_small_reservations_are_not_a_tensor() -> None:
    """Near miss: a few hundred KB reserved ahead (an allocator's chunk) is no allocation of the
    cell's: slow growth after it is charged."""
    steps = [(0, 0.001, 1, MB)] + [(2 * MB, 0.01, 0, 0)] * 6
    assert _charged_sizes(steps) > MAX_ADDED_MEMORY
