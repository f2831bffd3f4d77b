"""`torch.normal(mean=torch.tensor([0.]), std=torch.tensor([0.1])).to(device)`: host draws, moved.

`torch.normal` is a factory in one overload only: given numbers and a `size` it takes `device=`;
given tensors it draws where they live and takes none. TD3's exploration and target-smoothing
noise is drawn this way every step from the CPU generator, often clamped to literal bounds first,
then copied to the device. Drawing on the device uses another generator (other numbers, the same
distribution), so this is a hint, never a rewrite.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..device_use import on_host
from ..facts import Facts
from ..names import keyword_arg

# Element-wise functions whose result lives where their tensor operand does and that are exact:
# clamping a host draw to literal bounds, then moving it, copies what clamping on the device gives.
_CLAMPS = frozenset({"torch.clamp", "torch.clip"})
_CLAMP_METHODS = frozenset({"clamp", "clip"})
# `torch.normal(...)` arguments that tie the draw to the host: a CPU generator, an output tensor.
_PINNING_KEYWORDS = frozenset({"device", "generator", "out"})

FactoryUnder = Callable[[Facts, cst.BaseExpression], "tuple[cst.Call | None, bool]"]


def host_normal_draw(facts: Facts, factory: cst.Call, factory_under: FactoryUnder) -> cst.Call | None:
    """The `torch.normal(...)` call that `factory` (what `.to(device)` moves, found by
    `factory_under`) draws on the host, through clamps to literal bounds; None otherwise."""
    call: cst.Call | None = factory
    for _ in range(4):  # `torch.clamp(torch.normal(...), -0.5, 0.5)`, maybe nested
        if call is None:
            return None
        operand = _clamped_operand(facts, call)
        if operand is None:
            break
        call, _ = factory_under(facts, operand)
    if call is None or (facts.qualified_name(call.func) or "") != "torch.normal":
        return None
    return call if _draws_on_host(facts, call) else None


def _clamped_operand(facts: Facts, call: cst.Call) -> cst.BaseExpression | None:
    """The tensor `call` clamps when every bound is a number written in the code."""
    if (facts.qualified_name(call.func) or "") in _CLAMPS:
        if not call.args or call.args[0].keyword is not None or call.args[0].star:
            return None
        operand, bounds = call.args[0].value, call.args[1:]
    elif isinstance(call.func, cst.Attribute) and call.func.attr.value in _CLAMP_METHODS \
            and not (facts.qualified_name(call.func) or "").startswith("torch."):
        operand, bounds = call.func.value, call.args
    else:
        return None
    if not bounds or any(a.star or not _number(a.value) for a in bounds):
        return None
    return operand


def _draws_on_host(facts: Facts, call: cst.Call) -> bool:
    """`torch.normal(mean, std[, size])` without `device=`, a generator or `out=`, whose mean and
    std are numbers or tensors that provably live on the host: its draws are made on the CPU."""
    if any(a.star or (a.keyword is not None and a.keyword.value in _PINNING_KEYWORDS) for a in call.args):
        return False
    positional = [a.value for a in call.args if a.keyword is None]
    mean = keyword_arg(call, "mean")
    std = keyword_arg(call, "std")
    operands = [mean.value if mean is not None else (positional[0] if positional else None),
                std.value if std is not None else (positional[1] if len(positional) > 1 else None)]
    if any(o is None for o in operands):
        return False
    tensors = [o for o in operands if o is not None and not _number(o)]
    sized = keyword_arg(call, "size") is not None or len(positional) > 2
    if not tensors and not sized:
        return False  # `torch.normal(0.0, 1.0)` without a size is not a draw PyTorch accepts
    return all(on_host(facts, o) for o in tensors)


def _number(expr: cst.BaseExpression) -> bool:
    """A number written in the code (`0.5`, `-1`, `2e-3`)."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))
