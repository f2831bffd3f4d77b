"""Gradient accumulation under DDP that all-reduces on every micro-step."""

from __future__ import annotations

import libcst as cst

from ...model import Fix, Severity
from ..facts import Loop
from ._ddp import is_ddp_script, wrapper_names
from .base import Rule

_SYNC_CONTROL = ("no_sync", "require_backward_grad_sync", "accumulate")


class DdpAccumulationWithoutNoSync(Rule):
    id = "ddp-accumulation-without-no-sync"
    title = "Gradient accumulation without no_sync"
    severity = Severity.HIGH
    explanation = (
        "DDP all-reduces the gradients during every `backward()`. With gradient accumulation the "
        "optimizer steps only every k micro-batches, so k-1 of the k all-reduces move gradients that "
        "are added to again before anyone uses them. Running the non-final micro-steps inside "
        "`model.no_sync()` accumulates locally and all-reduces once, in the final backward: the same "
        "update, with 1/k of the communication."
    )

    def visit_Module(self, node: cst.Module) -> None:
        facts = self.facts
        models = wrapper_names(facts)
        if not is_ddp_script(facts) or not models or any(
                isinstance(n, cst.Name) and n.value in _SYNC_CONTROL for n in facts.walk(facts.module)):
            return
        for loop in facts.loops:
            if loop.kind != "train":
                continue
            backward = self._every_step_backward(loop)
            step = self._periodic_step(loop)
            if backward is None or step is None:
                continue
            model = sorted(models)[0]
            test = facts.code(step)
            call = facts.code(backward)
            self.report(
                backward,
                f"`{call}` runs every micro-step but the optimizer steps only when `{test}`: DDP all-reduces the "
                "gradients on every micro-step, k-1 times for nothing",
                fix=Fix(description=f"skip the all-reduce on the micro-steps that do not step: `{model}.no_sync()`. "
                        "A hint: the rewrite must know which micro-steps end an accumulation",
                        suggestion=(f"sync = {test}\nwith (contextlib.nullcontext() if sync else {model}.no_sync()):\n"
                                    f"    {call}"),
                        safe=False),
            )

    def _every_step_backward(self, loop: Loop) -> cst.Call | None:
        for call in self.facts.calls_in(loop.node.body):
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward" \
                    and self.facts.enclosing_loops(call)[:1] == [loop] and not self.facts.is_conditional(call, loop):
                return call
        return None

    def _periodic_step(self, loop: Loop) -> cst.BaseExpression | None:
        """The test of an `if ... % k ...:` that holds the optimizer step, in this loop's body; None
        when an optimizer steps on every iteration (a scheduler stepping every k steps is no accumulation)."""
        facts = self.facts
        found: cst.BaseExpression | None = None
        for call in facts.calls_in(loop.node.body):
            func = call.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "step" and facts.enclosing_loops(call)[:1] == [loop]):
                continue
            if any(word in facts.code(func.value).lower() for word in ("sched", "lr")):
                continue
            if not facts.is_conditional(call, loop):
                return None
            for anc in facts.ancestors(call):
                if anc is loop.node:
                    break
                if isinstance(anc, cst.If) and any(isinstance(n, cst.Modulo) for n in facts.walk(anc.test)):
                    found = found or anc.test
        return found
