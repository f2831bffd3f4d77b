"""A running total reset only on some steps.

`if count >= 10: ...; loss_sum = 0` inside the training loop empties the total every tenth step:
between two resets it carries every step's graph, so the assignment does not make the total a
per-step value (as `loss = 0` at the top of the step does for `loss += l; loss.backward()`).
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts


def periodic_reset(facts: Facts, assign: cst.Assign, loop: cst.CSTNode, accumulation: cst.CSTNode) -> bool:
    """`assign` sits, inside `loop`, under an `if` (either arm) that does not also hold `accumulation`."""
    held = set(facts.ancestors(accumulation))
    for anc in facts.ancestors(assign):
        if anc is loop:
            return False
        if isinstance(anc, cst.If) and anc not in held:
            return True
    return False
