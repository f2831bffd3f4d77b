"""Issue 8 (helper fix48): the harmful rewrites red team 26 left, and the gap it named.

- A field of an object read into a name before the loop (`ema = state.ema`, `totals =
  tracker.totals`, a property, `field = stats.mean`) was taken for a copied number: the loop
  changing the field through the object (`state.ema *= 0.5`, `tracker.update(v)`) then changed
  what the hoisted NumPy work read. Now such a read shares its owner unless every store of the
  field is a number or a string (`field_values`).
- `zip(*[(r, 0) for r in t])` hands back the rows of `t`: starred arguments hand over their
  elements (`held`), and a comprehension holds its elements (`aliases`).
- Red team 48 (not blind): a method of an object whose class is out of sight may keep its
  arguments and hand back what the object holds (`outside_calls.unseen_method`).

Each program is run before and after `paef fix` and its output compared. The single-unit shapes
are fixtures: `cpu-function/neg_state_object_fields_shared`, `state_fields_near_misses`,
`neg_objects_of_unseen_classes`, `unseen_objects_near_misses`,
`redundant-tensor/neg_rows_handed_on_by_star_unpacking`, `rows_copied_by_comprehension_near_misses`,
`ping-pong/rows_through_zip_and_comprehensions`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = [
    "rt26b_state_objects.py",
    "rt26_containers_hand_back.py",
    "rt26b_tensor_rows_and_collate.py",
    "rt48_receiver_keeps_argument.py",
    "rt48_receiver_hands_back_buffer.py",
    "rt48_training_step_changes_batch.py",
    "rt48_trainer_step_keeps_input.py",
    "rt48_callback_object_keeps_array.py",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 98a4acf for the rt26b/rt26 programs and rt48_receiver_*: a hoist reads a field or
    a buffer the loop changes through its owner, or rows handed on by `zip(*...)`."""
    fix_keeps_output(tmp_path, REDTEAM / program)


def test_an_immutable_field_is_still_a_copy() -> None:
    """The fix is not the rule switched off: a field every store of which is a number (a dataclass
    field annotated `float`, a counter set in `__init__`) read before the loop is still a copy."""
    import libcst as cst

    from paef_jupyter.static import field_values
    from paef_jupyter.static.facts import Facts

    code = (
        "from dataclasses import dataclass\n"
        "@dataclass\nclass C:\n    lr: float = 0.1\n    ema: object = None\n"
        "class T:\n    def __init__(self):\n        self.n = 0\n        self.buf = []\n"
        "    def tick(self):\n        self.n += 1\n        self.buf.append(self.n)\n"
        "c = C()\nt = T()\nlr = c.lr\nn = t.n\nema = c.ema\nbuf = t.buf\n"
    )
    facts = Facts(cst.parse_module(code))
    reads = {facts.code(n): n for n in facts.walk(facts.module) if isinstance(n, cst.Attribute)}
    assert field_values.immutable_field(facts, reads["c.lr"])
    assert field_values.immutable_field(facts, reads["t.n"])
    assert not field_values.immutable_field(facts, reads["c.ema"])
    assert not field_values.immutable_field(facts, reads["t.buf"])
