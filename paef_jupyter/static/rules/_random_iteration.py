"""Iterating a DataLoader or a random sampler draws random numbers.

A DataLoader is re-iterable, but each `iter(loader)` draws its base seed from torch's global
generator (`_BaseDataLoaderIter.__init__`), and with `shuffle=True` or a random sampler a new
order too. An expression that iterates one (`np.array([int(y) for _, y in loader])`,
`list(sampler)`) built once before the loop would freeze the first epoch's order and shift every
later draw of the program: it is not loop-invariant, whatever the names it reads.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ..types import Kind
from ._tensor_facts import assigned_value, iterated

# Calls that iterate their arguments (any of them).
_ITERATING = frozenset({
    "builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset", "builtins.dict", "builtins.sorted",
    "builtins.sum", "builtins.min", "builtins.max", "builtins.any", "builtins.all", "builtins.next", "builtins.iter",
    "builtins.zip", "builtins.enumerate", "builtins.map", "builtins.filter", "builtins.reversed", "numpy.fromiter",
})
_DATA = ("torch.utils.data.",)


def iterates_random(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`expr` iterates a DataLoader or a sampler of `torch.utils.data` (each iteration draws)."""
    for node in facts.walk(expr):
        if isinstance(node, (cst.Name, cst.Attribute)) and _iterated(facts, node) and _draws_when_iterated(facts, node):
            return True
    return False


def _iterated(facts: Facts, node: cst.Name | cst.Attribute) -> bool:
    return iterated(facts, node, lambda qualified: qualified in _ITERATING or qualified.startswith("itertools."),
                    first_only=False)


def _draws_when_iterated(facts: Facts, node: cst.Name | cst.Attribute) -> bool:
    if facts.kind(node) is Kind.DATALOADER:
        return True
    value = assigned_value(facts, node) if isinstance(node, cst.Name) else None
    if not isinstance(value, cst.Call):
        return False
    qualified = facts.qualified_name(value.func) or ""
    return facts.kind(value) is Kind.DATALOADER or qualified.startswith(_DATA) and (
        qualified.endswith(("Sampler", "DataLoader")))
