"""`find_unused_parameters=True` on a model whose every parameter gets a gradient."""

from __future__ import annotations

import libcst as cst

from ...model import Fix, Severity
from ._ddp import ddp_calls, is_ddp_script, is_literal_true, local_class, method, model_constructor, wrapped_model
from ._support import keyword_arg
from .base import Rule

# Control flow in `forward` may leave parameters without a gradient on some steps.
_BRANCHES = (cst.If, cst.IfExp, cst.While, cst.Try, cst.Break, cst.Continue)


class DdpFindUnusedParameters(Rule):
    id = "ddp-find-unused-parameters"
    title = "find_unused_parameters=True without unused parameters"
    severity = Severity.LOW
    explanation = (
        "With `find_unused_parameters=True` DDP walks the autograd graph from the outputs after every "
        "forward pass to mark the parameters that will get no gradient, so their buckets can be "
        "reduced without them. When every parameter takes part in every step that traversal is pure "
        "overhead, and it also delays the start of the gradient all-reduce. The flag is needed only "
        "when some parameters may get no gradient (branches in `forward`, frozen layers, unused heads)."
    )

    def visit_Module(self, node: cst.Module) -> None:
        facts = self.facts
        if not is_ddp_script(facts):
            return
        for wrap in ddp_calls(facts):
            flag = keyword_arg(wrap, "find_unused_parameters")
            if flag is None or not is_literal_true(flag.value) or not self._every_parameter_used(wrap):
                continue
            self.report(
                flag,
                "`find_unused_parameters=True` makes DDP traverse the autograd graph after every forward pass, "
                "but this model uses all its parameters in `forward`",
                fix=Fix(description="drop `find_unused_parameters=True` if every parameter gets a gradient on every "
                        "step (DDP raises at the next step if one does not). Never removed automatically: whether a "
                        "parameter gets a gradient is only known when the program runs",
                        suggestion=facts.code(_without(wrap, flag)),
                        safe=False),
                end_node=flag,
            )

    def _every_parameter_used(self, wrap: cst.Call) -> bool:
        """Provably: an `nn.Sequential` / torch layer, or a class of this unit whose `forward` has no
        branches and reads every submodule its `__init__` assigns, with nothing frozen in the unit."""
        facts = self.facts
        if any(isinstance(n, cst.Name) and n.value in ("requires_grad", "requires_grad_") for n in facts.walk(facts.module)):
            return False
        built = model_constructor(facts, wrapped_model(facts, wrap))
        if built is None:
            return False
        qualified = facts.qualified_name(built.func) or ""
        if qualified == "torch.nn.Sequential":  # runs every layer it holds
            return all(self._plain_layer(arg.value) for arg in built.args)
        if qualified.startswith("torch.nn.") and qualified.count(".") == 2:  # one built-in layer: `nn.Linear`
            return True
        cls = local_class(facts, built)
        forward = method(cls, "forward") if cls is not None else None
        init = method(cls, "__init__") if cls is not None else None
        if forward is None or init is None:
            return False
        body = list(facts.walk(forward.body))
        if sum(isinstance(n, cst.Return) for n in body) > 1 or any(isinstance(n, _BRANCHES) for n in body):
            return False
        read = {n.attr.value for n in body if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == "self"}
        assigned = {t.target.attr.value for n in facts.walk(init.body) if isinstance(n, cst.Assign) for t in n.targets
                    if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) and t.target.value.value == "self"}
        return bool(assigned) and assigned <= read

    def _plain_layer(self, expr: cst.BaseExpression) -> bool:
        """A torch layer built inline (`nn.Linear(4, 8)`): Sequential runs every one of them."""
        return isinstance(expr, cst.Call) and (self.facts.qualified_name(expr.func) or "").startswith("torch.nn.")


def _without(call: cst.Call, drop: cst.Arg) -> cst.Call:
    args = [a for a in call.args if a is not drop]
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return call.with_changes(args=args)
