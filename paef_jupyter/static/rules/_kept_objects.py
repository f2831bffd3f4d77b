"""Objects the program hands to code that may keep them: changed later through the keeper's names.

The invariance proofs follow a name's object through the name itself (writes, in-place calls,
callees' parameters). An object handed to a program class's constructor or to an object's method
(`EndlessCurriculum(x, y, mix)`, `model.register_forward_hook(calib.observe)`) may be stored on
the keeper and changed there by its own name (`self.mix[0] = ...`, `self.hist += counts`) when the
loop runs the keeper's code: `next(train_iter)`, a module's forward and hooks, a callback (red
team 31a: a curriculum loader shifting the loss weights it was given, a calibration hook filling
a histogram read by `np.cumsum(calib.hist)`). Such an object is not proved the same every
iteration when the loop runs code of the program.
"""

from __future__ import annotations

import sys

import libcst as cst

from ..facts import Facts, Loop
from ..names import names_read, root_name
from ..types import Kind

# Kinds whose objects can be changed in place (numbers, functions and Python modules cannot;
# models, optimizers and loaders are read for their state by other checks).
_CHANGEABLE = frozenset({Kind.TENSOR, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR, Kind.NDARRAY,
                         Kind.UNKNOWN})
# Libraries whose functions keep nothing they are given for the program's code to change later.
_KEEP_NOTHING = frozenset(sys.stdlib_module_names) | {"torch", "numpy", "math"}


def kept_and_run(facts: Facts, expr: cst.BaseExpression, loop: Loop, local: set[str]) -> bool:
    """A name `expr` reads (not bound inside it: `local`) holds an object its scope hands to code
    that may keep it, and the loop runs code of the program (see the module's docstring)."""
    unit = loop.facts
    read = names_read(expr) - local
    names = {n.value for n in facts.walk(expr) if isinstance(n, cst.Name) and n.value in read
             and n.value not in facts.aliases and n.value not in facts.functions and n.value not in facts.classes
             and facts.kind(n) in _CHANGEABLE}  # (an imported module, a function, a class: not data)
    if not names or not _runs_program_code(unit, loop.node):
        return False
    scope = loop.function if loop.function is not None else unit.module
    return any(_handed_over(unit, call, names) for call in unit.calls_in(scope))


def _handed_over(facts: Facts, call: cst.Call, names: set[str]) -> bool:
    """`call` gives one of `names` (or a bound method of it: `calib.observe`) to code that may keep
    it: a class or callable of the program, a method of an object; a function of this unit is
    followed by the callee checks, a library function keeps nothing (a bound method is code
    handed out wherever it goes: a hook, a callback)."""
    handed = [a.value for a in call.args if root_name(a.value) in names
              and isinstance(a.value, (cst.Name, cst.Attribute))]
    if not handed:
        return False
    if any(isinstance(v, cst.Attribute) for v in handed):
        return True  # `register_forward_hook(calib.observe)`: the object's code runs when the hook does
    func = call.func
    if isinstance(func, cst.Name) and func.value in facts.functions:
        return False
    qualified = facts.qualified_name(func) or ""
    return not qualified or qualified.split(".")[0] not in _KEEP_NOTHING


_LIBRARY_CODE = ("torch.", "numpy.", "math.", "builtins.")


def _runs_program_code(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` calls something that may run the program's code (a function or method of the
    program, an object: a module's forward and hooks, a callback; `next()` of an iterator), or
    iterates an object that is not a `range`."""
    if any(not (name := facts.qualified_name(c.func) or "").startswith(_LIBRARY_CODE)
           or name in ("builtins.next", "builtins.iter") for c in facts.calls_in(node)):
        return True
    return any(isinstance(n, cst.For) and not (isinstance(n.iter, cst.Call)
                                               and facts.qualified_name(n.iter.func) == "builtins.range")
               for n in facts.walk(node))
