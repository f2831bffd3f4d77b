"""A model wrapped in DDP before it is moved to its device."""

from __future__ import annotations

import libcst as cst

from ...model import Fix, Severity
from ..device_use import is_accelerator_device
from ._ddp import ddp_calls, is_ddp_script, wrapped_model
from ._support import exclusive_branches
from .base import Rule


class DdpWrapBeforeMove(Rule):
    id = "ddp-wrap-before-move"
    title = "DDP wrapper built before the model is on its device"
    severity = Severity.HIGH
    explanation = (
        "DistributedDataParallel records the device of the module's parameters when it is built: it "
        "broadcasts them from rank 0 and lays out its gradient buckets there. Moving the model to the "
        "GPU afterwards leaves DDP's buckets on the old device (with `device_ids` it refuses to start, "
        "without them gradients are copied between devices every step). Move the model first, then wrap it."
    )

    def visit_Module(self, node: cst.Module) -> None:
        facts = self.facts
        if not is_ddp_script(facts):
            return
        for wrap in ddp_calls(facts):
            inner = wrapped_model(facts, wrap)
            names = {inner.value} if isinstance(inner, cst.Name) else set()
            parent = facts.parent(wrap)
            if isinstance(parent, cst.Assign):
                names |= {t.target.value for t in parent.targets if isinstance(t.target, cst.Name)}
            move = self._later_move(wrap, names)
            if move is None:
                continue
            self.report(
                move,
                f"`{facts.code(move)}` moves the model after `{facts.code(wrap.func)}` wrapped it: DDP built its "
                "gradient buckets for the parameters' old device",
                fix=Fix(description="move the model to its device before wrapping it in DDP (not reordered "
                        "automatically: code between the two lines may depend on where the model is)",
                        suggestion=f"{facts.code(move)}\n{facts.code(facts.statement_of(wrap)).strip()}", safe=False),
            )

    def _later_move(self, wrap: cst.Call, names: set[str]) -> cst.Call | None:
        """`m.to(device)` / `m.cuda()` on the wrapped model or its wrapper after `wrap`, in its scope."""
        facts = self.facts
        scope = facts.enclosing_function(wrap)
        for name in names:
            for use in facts.uses(name):
                if facts.order(use) <= facts.order(wrap) or facts.enclosing_function(use) is not scope \
                        or wrap in facts.ancestors(use) or exclusive_branches(facts, use, wrap):
                    continue  # before the wrap, its own argument (`DDP(m.cuda())`), elsewhere, or a branch run instead
                if isinstance(facts.parent(use), cst.AssignTarget):
                    value = facts.parent(facts.parent(use)).value  # type: ignore[union-attr]
                    if isinstance(value, cst.Call) and self._move_of(value, name):
                        return value  # `model = model.to(device)`
                    break  # the name is rebound: later uses are another object
                attr = facts.parent(use)
                call = facts.parent(attr) if isinstance(attr, cst.Attribute) and attr.value is use else None
                if isinstance(call, cst.Call) and call.func is attr and self._device_move(call):
                    return call
        return None

    def _move_of(self, call: cst.Call, name: str) -> bool:
        func = call.func
        return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name \
            and self._device_move(call)

    def _device_move(self, call: cst.Call) -> bool:
        method = call.func.attr.value  # type: ignore[attr-defined]
        if method == "cuda":
            return True
        if method != "to" or not call.args or any(a.keyword is not None and a.keyword.value == "dtype" for a in call.args):
            return False
        first = call.args[0]
        if first.keyword is not None and first.keyword.value != "device":
            return False
        value = first.value
        if isinstance(value, cst.Integer) or (isinstance(value, cst.Name) and "rank" in value.value.lower()):
            return True  # `model.to(local_rank)`: a GPU index
        return is_accelerator_device(self.facts, value)
