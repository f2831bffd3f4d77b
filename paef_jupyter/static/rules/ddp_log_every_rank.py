"""Per-step logging of tensor values on every rank of a DDP script."""

from __future__ import annotations

import libcst as cst

from ...model import Fix, Severity
from ..facts import Loop
from ..types import Kind
from ._ddp import dist_alias, is_ddp_script, mentions_rank, rank_guarded
from ._support import hot_loop, in_training_chain
from .base import Rule

_LOG_METHODS = frozenset({"info", "debug", "warning", "log", "add_scalar", "add_scalars", "set_postfix"})
_LOGGERS = ("log", "writer", "wandb", "tb", "pbar", "bar", "tqdm", "mlflow", "run")
_READS = frozenset({"item", "tolist", "cpu", "numpy"})


class DdpLogEveryRank(Rule):
    id = "ddp-log-every-rank"
    title = "Tensor values logged every step on every rank"
    severity = Severity.MEDIUM
    explanation = (
        "In a DDP script every rank runs the logging line: each one reads the tensor on the host "
        "(a device synchronisation that stalls its step) and writes its own copy of the message, so N "
        "ranks print N interleaved lines per step (the losses differ per rank: each is its shard's). "
        "Log from rank 0 only, every N steps, and keep the running value on the device between logs "
        "(`dist.all_reduce` it at logging time for the global mean)."
    )

    def visit_Call(self, node: cst.Call) -> None:
        facts = self.facts
        if not self._is_log(node) or not is_ddp_script(facts) or self._silenced_off_rank_zero():
            return
        loop = hot_loop(facts, node)
        if loop is None or not in_training_chain(loop) or facts.is_conditional(node, loop) or rank_guarded(facts, node):
            return  # once per epoch, every N steps, or on one rank
        read = self._tensor_read(node)
        if read is None:
            return
        dist = dist_alias(facts) or "dist"
        counter = _counter(loop)
        self.report(
            node,
            f"every rank logs `{read}` on every step: each rank waits for its device to read the value, and "
            "the log gets one line per rank",
            fix=Fix(description="log on rank 0, every N steps (keep the value on the device in between)",
                    suggestion=f"if {dist}.get_rank() == 0 and {counter} % 100 == 0:\n    {facts.code(node)}",
                    safe=False),
        )

    def _silenced_off_rank_zero(self) -> bool:
        """The program mutes other ranks itself: torchvision's `setup_for_distributed(is_master)`, a
        replaced `builtins.print`, or a logger level / `logging.disable` chosen by rank."""
        facts = self.facts
        for node in facts.walk(facts.module):
            if isinstance(node, cst.Name) and node.value == "setup_for_distributed":
                return True
            if isinstance(node, cst.AssignTarget) and facts.code(node.target).endswith("builtins.print"):
                return True
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                    and node.func.attr.value in ("setLevel", "disable", "basicConfig") \
                    and (mentions_rank(facts, node) or rank_guarded(facts, node)):
                return True
        return False

    def _is_log(self, call: cst.Call) -> bool:
        qualified = self.facts.qualified_name(call.func) or ""
        if qualified == "builtins.print" or qualified.startswith(("logging.", "wandb.log", "mlflow.log")):
            return True
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _LOG_METHODS):
            return False
        receiver = func.value
        name = receiver.value if isinstance(receiver, cst.Name) else receiver.attr.value if isinstance(receiver, cst.Attribute) else ""
        return any(word in name.lower() for word in _LOGGERS)

    def _tensor_read(self, call: cst.Call) -> str | None:
        """The tensor value the call formats: a `.item()` (or `.tolist()`...) or a tensor argument."""
        facts = self.facts
        for arg in call.args:
            for node in facts.walk(arg.value):
                if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _READS \
                        and not node.args:
                    return facts.code(node)
            value = arg.value
            exprs = [e.expression for e in facts.walk(value) if isinstance(e, cst.FormattedStringExpression)] or [value]
            for expr in exprs:
                if facts.kind(expr) is Kind.TENSOR:
                    return facts.code(expr)
        return None


def _counter(loop: Loop) -> str:
    """The loop's step counter when it has one (`for step, batch in enumerate(...)`), else `step`."""
    node = loop.node
    if isinstance(node, cst.For) and isinstance(node.target, cst.Tuple) and node.target.elements:
        first = node.target.elements[0].value
        if isinstance(first, cst.Name):
            return first.value
    if isinstance(node, cst.For) and isinstance(node.target, cst.Name):
        return node.target.value
    return "step"
