"""A model with BatchNorm wrapped in DDP, its statistics computed per rank."""

from __future__ import annotations

import libcst as cst

from ...model import Fix, Severity
from ._ddp import ddp_calls, is_ddp_script, local_class, model_constructor, wrapped_model
from .base import Rule

_BATCHNORM = frozenset({"torch.nn.BatchNorm1d", "torch.nn.BatchNorm2d", "torch.nn.BatchNorm3d",
                        "torch.nn.modules.batchnorm.BatchNorm1d", "torch.nn.modules.batchnorm.BatchNorm2d",
                        "torch.nn.modules.batchnorm.BatchNorm3d"})
# torchvision constructors whose models hold BatchNorm layers.
_BN_FAMILIES = ("resnet", "resnext", "wide_resnet", "densenet", "mobilenet", "efficientnet", "regnet",
                "shufflenet", "mnasnet", "inception", "googlenet", "convnext_", "vgg11_bn", "vgg13_bn",
                "vgg16_bn", "vgg19_bn")
_SYNC = ("convert_sync_batchnorm", "SyncBatchNorm")


class DdpBatchnormWithoutSyncbn(Rule):
    id = "ddp-batchnorm-without-syncbn"
    title = "BatchNorm under DDP without SyncBatchNorm"
    severity = Severity.LOW
    explanation = (
        "DDP averages gradients but not BatchNorm statistics: each rank normalises with the mean and "
        "variance of its own per-rank batch, and keeps its own running statistics (rank 0's are the "
        "ones usually saved). With small per-rank batches the statistics are noisy and training "
        "differs from one process with the global batch. `nn.SyncBatchNorm.convert_sync_batchnorm(model)` "
        "before wrapping computes them over all ranks, at the cost of one extra all-reduce per "
        "BatchNorm layer per step; with large per-rank batches plain BatchNorm is often kept on purpose."
    )

    def visit_Module(self, node: cst.Module) -> None:
        facts = self.facts
        if not is_ddp_script(facts) or any(
                isinstance(n, cst.Name) and n.value in _SYNC for n in facts.walk(facts.module)):
            return
        for wrap in ddp_calls(facts):
            model = wrapped_model(facts, wrap)
            layer = self._batchnorm_in(model_constructor(facts, model), set())
            if layer is None:
                continue
            name = facts.code(model) if model is not None else "model"
            self.report(
                wrap,
                f"`{name}` holds BatchNorm layers (`{layer}`): under DDP each rank normalises with its own "
                "batch statistics and keeps its own running statistics",
                fix=Fix(description="if the per-rank batch is small, convert the BatchNorm layers to SyncBatchNorm "
                        "before wrapping. A hint: it adds an all-reduce per layer per step and changes the numbers",
                        suggestion=f"{name} = nn.SyncBatchNorm.convert_sync_batchnorm({name})", safe=False),
            )

    def _batchnorm_in(self, built: cst.Call | None, seen: set[str]) -> str | None:
        """The first BatchNorm the module built by `built` holds (through classes of this unit)."""
        facts = self.facts
        if built is None:
            return None
        qualified = facts.qualified_name(built.func) or ""
        if qualified in _BATCHNORM:
            return qualified.rsplit(".", 1)[-1]
        if qualified.startswith("torchvision.models.") and qualified.rsplit(".", 1)[-1].startswith(_BN_FAMILIES):
            return f"{qualified.rsplit('.', 1)[-1]}: BatchNorm2d"
        if qualified == "torch.nn.Sequential":
            for arg in built.args:
                found = self._batchnorm_in(arg.value if isinstance(arg.value, cst.Call) else None, seen)
                if found:
                    return found
        cls = local_class(facts, built)
        if cls is None or cls.name.value in seen:
            return None
        seen.add(cls.name.value)
        for call in facts.calls_in(cls.body):
            found = self._batchnorm_in(call, seen) if call is not built else None
            if found:
                return found
        return None
