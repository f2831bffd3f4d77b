"""Does the program train? (label49's rule for evaluation-step reads.)

A per-batch host read in an evaluation loop (`correct += (pred == y).sum().item()`) costs one
device sync per evaluation batch, as it would in training. In a program that trains, that loop is
a pass over a held-out split once per epoch (or every N steps): a small share of the run, with no
backward pass queued behind each sync, and its values are the report the program prints. A reader
signs such a finding only where evaluation is the program's main work: a script that loads a
model and evaluates or predicts, with no training loop anywhere the analysis sees.
"""

from __future__ import annotations

from ..facts import Facts


def program_trains(facts: Facts) -> bool:
    """A training loop in this unit, an earlier or later cell, a unit calling this one, or a
    local module loaded for this scan."""
    units = [facts, *facts.callers, *facts.prior.units(), *facts.later]
    if facts.imports is not None:
        units += [module.facts for module in facts.imports.modules.loaded]
    return any(loop.kind == "train" for unit in units for loop in unit.loops)
