"""`torch.zeros(n).to(device)`: the tensor is built on the CPU, then copied to the device."""

from __future__ import annotations

import libcst as cst

from ...fix.edits import replace
from ...model import Fix, Severity
from ..types import Kind
from .base import Rule, RuleContext
from .redundant_tensor import FactorySites

FACTORIES = frozenset({
    "zeros", "ones", "empty", "full", "arange", "eye", "linspace", "logspace", "tensor",
    "as_tensor", "zeros_like", "ones_like", "full_like", "empty_like",
})
RANDOM_FACTORIES = frozenset({"rand", "randn", "randint", "randperm", "rand_like", "randn_like"})
_DEVICE_WORDS = ("device", "dev", "gpu", "cuda")


class CpuThenMove(Rule):
    id = "cpu-then-move"
    title = "Tensor created on the CPU, then moved"
    severity = Severity.MEDIUM
    explanation = (
        "The tensor is allocated and filled in host memory, then copied to the device: an extra "
        "allocation and a host-to-device copy every time. Creating it with `device=` builds it "
        "directly where it is used."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._sites = FactorySites(self.facts)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("to", "cuda"):
            return
        factory = func.value
        if not isinstance(factory, cst.Call):
            return
        qualified = self.facts.qualified_name(factory.func) or ""
        name = qualified.rsplit(".", 1)[-1]
        if not qualified.startswith("torch.") or name not in FACTORIES | RANDOM_FACTORIES:
            return
        if any(a.keyword and a.keyword.value == "device" for a in factory.args):
            return
        device = self._device_arg(node)
        if device is None or self.facts.iteration_loop(node) is None:
            return
        if self._sites.site(factory) is not None:
            return  # rebuilt from invariant data: `redundant-tensor` moves it out of the loop, device copy included
        new_args = [*factory.args]
        if new_args:
            new_args[-1] = new_args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        new_args.append(cst.Arg(value=device, keyword=cst.Name("device"), equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))))
        new_call = factory.with_changes(args=new_args)
        suggestion = self.facts.code(new_call)
        safe = name not in RANDOM_FACTORIES  # device generators draw other numbers
        fix = Fix(
            description=f"create it on the device: `{suggestion}`",
            edits=(replace(self.facts, node, new_call),) if safe else (),
            suggestion=suggestion,
            safe=safe,
        )
        self.report(
            node,
            f"`torch.{name}(...)` is built on the CPU and copied to the device on every iteration",
            fix=fix,
        )

    def _device_arg(self, call: cst.Call) -> cst.BaseExpression | None:
        func = call.func
        assert isinstance(func, cst.Attribute)
        if func.attr.value == "cuda":
            return call.args[0].value if call.args else cst.SimpleString('"cuda"')
        positional = [a for a in call.args if a.keyword is None]
        keyword = [a for a in call.args if a.keyword and a.keyword.value == "device"]
        candidate = keyword[0].value if keyword else (positional[0].value if positional else None)
        if candidate is None or any(a.keyword and a.keyword.value in ("dtype", "memory_format", "copy") for a in call.args):
            return None
        if len(positional) > 1:
            return None  # .to(device, dtype): keep the conversion explicit
        return candidate if self._is_device(candidate) else None

    def _is_device(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.SimpleString):
            return expr.evaluated_value.split(":")[0] in ("cuda", "cpu", "mps", "xpu")
        if isinstance(expr, cst.Call):
            return (self.facts.qualified_name(expr.func) or "") == "torch.device"
        if isinstance(expr, cst.Attribute) and expr.attr.value == "device":
            return True
        if isinstance(expr, cst.Name):
            if self.facts.kind(expr) is Kind.TENSOR:
                return False
            value = self.facts.namespace.get(expr.value)
            if value is not None:
                return type(value).__name__ == "device" or isinstance(value, str) and value.split(":")[0] in ("cuda", "cpu")
            return any(word in expr.value.lower() for word in _DEVICE_WORDS)
        return False
