"""Red team 22: automatic hoists and round trips that read memory shared out of the analysis' sight.
A NumPy view of a tensor kept in a container, a record, a namespace, or stored there by a call or a
helper (the loop changes the tensor in place); a target network softly updated through
`zip(target.parameters(), ...)` and a shallow `copy.copy` of the model; per-epoch work that iterates a
DataLoader (each iteration draws from torch's generator); a float round trip under a changed default
dtype. The programs are executed before and after `paef fix`. The single-unit shapes are fixtures:
`cpu-function/neg_view_kept_in_container_or_record`, `neg_view_stored_by_call_or_helper`,
`neg_iterates_a_data_loader`, `holders_of_copies_near_misses`,
`redundant-tensor/neg_target_network_and_shallow_copies`, `frozen_target_near_misses`,
`ping-pong/refuse_float_round_trip_under_a_changed_default_dtype`, `default_dtype_changed_int_near_misses`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt22_shared_memory_containers.py", "rt22_dtype_roundtrip.py", "rt22_ema_shallow_copies.py",
            "rt22b_stored_by_calls.py", "rt22b_loader_order.py", "rt22c_holders_out_of_sight.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on c0424f5: a hoisted array / tensor reads the first iteration's memory, the loader's
    order is frozen, or a round trip keeps float32 where the default dtype is float64."""
    fix_keeps_output(tmp_path, REDTEAM / program)
