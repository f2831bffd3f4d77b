"""Was a tensor changed between two statements by something other than its own name?

`operator-fusion` reads a local (`e = torch.exp(sim)`) through its definition when nothing
between the definition and the use writes the name. A tensor is also changed through memory it
shares and through code it is handed to (red team 62: `d = e.diagonal(); d.zero_()`,
`flat = e.view(-1); flat[::n + 1] = 0`, `drop_self(e)` whose body calls `t.fill_diagonal_(0)`,
all zeroing the self-pairs of a hand-written NT-Xent softmax): fused as `torch.softmax(sim)`, the
zeroed entries came back.
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from ..facts import Facts
from ..names import parameter_filled, positional_params
from ..types import Kind
from ._tensor_facts import (aliases, library_changed_arguments, module_changes_input, mutated_in_place, reads_of,
                            shared_path, within)

_CONSTANTS = frozenset({"True", "False", "None"})
# Calls that only read what they are handed.
_READING_PREFIXES = ("math.", "builtins.")


def changed_between(facts: Facts, names: set[str], statements: Sequence[cst.CSTNode], scope: cst.CSTNode) -> str:
    """Why one of `names`' objects may change in `statements` other than through the name
    itself ("" when nothing shows it): a view or alias of it written there, or the object (or
    such an alias) handed there to a call that may change it."""
    for name in sorted(names):
        if name in facts.aliases or name in _CONSTANTS:
            continue  # an imported module (`torch` of `torch.exp(sim)`) or `keepdim=True`: not a tensor
        shared = aliases(facts, name, scope)
        for alias in sorted(shared - {name}):
            if any(mutated_in_place(facts, alias, s) for s in statements):
                return f"`{alias}` shares `{name}`'s memory and is changed in place before the use"
        for alias in sorted(shared):
            for use in reads_of(facts, alias, scope):
                if any(within(facts, use, s) for s in statements) and _handed_to_changer(facts, use):
                    return f"`{alias}` is handed to a call that may change it in place before the use"
    return ""


def _handed_to_changer(facts: Facts, use: cst.CSTNode) -> bool:
    """`use` (or what shares its memory: `e.diagonal()`) is an argument of a call that may
    change it: `out=`, a torch/NumPy function that writes that argument, a function of the
    program that changes that parameter in place (or that cannot be matched to it), or a
    callable whose effects are unknown."""
    return any(_argument_changed(facts, node) for node in shared_path(facts, use))


def _argument_changed(facts: Facts, node: cst.CSTNode) -> bool:
    parent = facts.parent(node)
    while isinstance(parent, (cst.Element, cst.List, cst.Tuple)):
        node, parent = parent, facts.parent(parent)
    call = facts.parent(parent) if isinstance(parent, cst.Arg) else None
    if not isinstance(call, cst.Call) or not isinstance(parent, cst.Arg):
        return False
    if parent.keyword is not None and parent.keyword.value == "out":
        return True
    func = call.func
    qualified = facts.qualified_name(func) or ""
    if qualified.startswith(("torch.", "numpy.")):
        return any(a is node for a in library_changed_arguments(facts, call))
    if qualified.startswith(_READING_PREFIXES):
        return False
    if facts.kind(func) is Kind.MODULE:
        return module_changes_input(facts, func)  # `nn.ReLU(inplace=True)(e)`
    if isinstance(func, cst.Name) and func.value in facts.functions:
        defined = facts.functions[func.value]
        param = parameter_filled(call, parent, positional_params(defined))
        return param is None or mutated_in_place(facts, param, defined.body)
    # a tensor's method changes its receiver (seen as that name's change), not what it is handed
    return not (isinstance(func, cst.Attribute) and facts.kind(func.value) in (Kind.TENSOR, Kind.MODULE))
