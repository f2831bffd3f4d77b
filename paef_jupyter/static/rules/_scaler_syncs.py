"""A step that already waits for the device: `scaler.step(optimizer)` of an enabled `GradScaler`.

Why a separate module: host-sync's per-step message says the read is what makes the GPU idle.
In a mixed-precision step that is not so: `GradScaler.step` (torch/amp/grad_scaler.py,
`_maybe_opt_step`) reads its found-inf flags with `.item()` before it calls `optimizer.step()`,
so the host waits for the device once per step whatever the program reads (public check 49 p03).
One more read in that step adds a second, shorter wait (for the work queued between the two),
not the step's only one: still a cost, reported at a lower severity with that said. A fused
optimizer (`fused=True`) takes the flags as tensors and does not sync; a scaler made with
`enabled=` a flag not known to be on wherever CUDA is used, or for the CPU, may not sync either: both
stay as they were.

The scaler and the optimizer are often parameters of a step helper (`train_fn(loader, model,
optimizer, loss_fn, scaler)` called from `main()` with `scaler = GradScaler()`, public check 66 p03):
a parameter holds what every seen call passes for it (`Facts.arguments_for`, a name there followed
to its bindings in the caller, a few calls deep), judged in the caller's unit; a call out of sight
(`*args`, a default, a name with no binding) leaves it unknown, as before.
"""

from __future__ import annotations

import libcst as cst

from ..device_use import cuda_condition
from ..facts import Facts
from ..names import keyword_arg

_GRAD_SCALERS = frozenset({"torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler", "torch.amp.GradScaler",
                           "torch.amp.grad_scaler.GradScaler", "torch.GradScaler"})
# Between the scaler call and its step (loop body or helper body): anything that may skip it or run it more than once.
_BRANCHING = (cst.If, cst.IfExp, cst.Try, cst.BooleanOperation, cst.For, cst.While, cst.Lambda, cst.BaseComp,
              cst.FunctionDef, cst.ClassDef)


def scaler_step_in_the_same_step(facts: Facts, read: cst.CSTNode) -> str | None:
    """The code of `scaler.step(opt)` when an enabled `GradScaler` steps a non-fused optimizer
    unconditionally in the same step as `read`: the same innermost loop body (or the same helper
    body, outside any loop), with no branch, `try` or loop between either of them and that body."""
    root = step_root(facts, read)
    if root is None:
        return None
    for node in facts.walk(root):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "step" \
                and len(node.args) >= 1 and node.args[0].keyword is None and step_root(facts, node) is root \
                and _grad_scaler(facts, node.func.value) and not _fused(facts, node.args[0].value):
            return facts.code(node)
    return None


def step_root(facts: Facts, node: cst.CSTNode) -> cst.CSTNode | None:
    """The innermost loop or function around `node`, when nothing between them may skip `node`
    or repeat it; None otherwise (and for top-level code outside any loop). Two nodes with the
    same root run the same number of times: once per iteration of that loop (or per call)."""
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.For, cst.While)) and child is anc.body:
            return anc
        if isinstance(anc, cst.FunctionDef) and child is anc.body:
            return anc
        if isinstance(anc, _BRANCHING):
            return None
        child = anc
    return None


def _grad_scaler(facts: Facts, receiver: cst.BaseExpression) -> bool:
    """Every value the receiver may hold is `GradScaler(...)` that syncs: `enabled` not given or
    a literal `True`, no device given or not the CPU (`torch.amp.GradScaler("cpu")`)."""
    values = _values(facts, receiver)
    return bool(values) and all(_syncing_scaler(owner, value) for owner, value in values)


_PASSED_DEPTH = 3  # calls followed back from a parameter (`main` -> `fit` -> `train_fn`)


def _values(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> list[tuple[Facts, cst.BaseExpression | None]]:
    """What `expr` may hold, each with the unit it is written in: a name's values in its scope, what
    every seen call passes for a parameter (`_passed`), or every value the unit stores in
    `self.<attr>` (None for a store whose value is not one expression: `+=`, a bare annotation).
    Empty when any of it is out of sight."""
    if isinstance(expr, cst.Name):
        sources = facts.value_sources(expr)
        if sources:
            return [(facts, value) for value in sources]
        return _passed(facts, expr, depth)
    if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self"):
        return []
    found: list[tuple[Facts, cst.BaseExpression | None]] = []
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Assign):
            found += [(facts, node.value) for t in node.targets if _self_attribute(t.target, expr.attr.value)]
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and _self_attribute(node.target, expr.attr.value):
            found.append((facts, node.value if isinstance(node, cst.AnnAssign) else None))
    return found


def _passed(facts: Facts, name: cst.Name, depth: int) -> list[tuple[Facts, cst.BaseExpression | None]]:
    """A parameter read unbound since: what each seen call of its function passes for it, followed
    in the caller (a name there to its own values, a parameter there to its callers), at most
    `_PASSED_DEPTH` calls back. Empty when the function has no seen call, one call passes it out of
    sight, or one argument's values are unknown: a partial answer would judge a scaler by some of
    the values it may hold."""
    func = facts.parameter_of(name) if depth < _PASSED_DEPTH else None
    passed = facts.arguments_for(func, name.value) if func is not None else None
    if not passed:
        return []
    found: list[tuple[Facts, cst.BaseExpression | None]] = []
    for caller, arg in passed:
        values = _values(caller, arg, depth + 1) if isinstance(arg, cst.Name) else [(caller, arg)]
        if not values:
            return []
        found += values
    return found


def _self_attribute(target: cst.BaseExpression, attr: str) -> bool:
    return isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self" \
        and target.attr.value == attr


def _syncing_scaler(facts: Facts, value: cst.BaseExpression | None) -> bool:
    """`GradScaler(...)` that reads its flags on the host: `enabled` absent, a literal `True`, or
    true wherever CUDA is used (`device_use.cuda_condition`: `use_amp = torch.cuda.is_available()`,
    `device.type == "cuda"`), which is where host-sync reports at all;
    for `torch.amp.GradScaler` the device (first argument or `device=`) absent (CUDA) or a
    `"cuda..."` literal (`torch.cuda.amp.GradScaler`'s first argument is `init_scale`)."""
    if not isinstance(value, cst.Call) or any(arg.star for arg in value.args):
        return False
    qualified = facts.qualified_name(value.func) or ""
    if qualified not in _GRAD_SCALERS:
        return False
    enabled = keyword_arg(value, "enabled")
    if enabled is not None and not (isinstance(enabled.value, cst.Name) and enabled.value.value == "True") \
            and not cuda_condition(facts, enabled.value):
        return False  # `enabled=args.amp`: may be off on the GPU too (`enabled=torch.cuda.is_available()` is on there)
    if qualified.startswith("torch.cuda."):
        return True
    device = keyword_arg(value, "device")
    if device is None and value.args and value.args[0].keyword is None:
        device = value.args[0]
    return device is None or isinstance(device.value, cst.SimpleString) \
        and str(device.value.evaluated_value).startswith("cuda")


def _fused(facts: Facts, optimizer: cst.BaseExpression) -> bool:
    """The optimizer may be a fused one (`fused=` given, not a literal `False`): it takes the
    scaler's flags as tensors and does not wait. An optimizer made out of sight counts as not fused
    (the default of every torch optimizer)."""
    for _owner, value in _values(facts, optimizer):
        fused = keyword_arg(value, "fused") if isinstance(value, cst.Call) else None
        if fused is not None and not (isinstance(fused.value, cst.Name) and fused.value.value == "False"):
            return True
    return False
