"""Program code that torch runs on calls of the program's tensors.

Every automatic rewrite changes which torch calls run (graph-retention's `.detach()`, a factory
made on the device, a hoisted constant, a `no_grad` block, pinned batches), and every proof of one
assumes those calls run torch's own code. On an instance of a tensor subclass with
`__torch_function__` (a tracer counting calls, a subclass's own methods) and under a torch
function/dispatch mode they run the program's code instead (red team 34: a tracing subclass
reported 4 more calls per epoch after a `.detach()` was inserted). The proof is a closed world: no
class of the program, its earlier cells or the local modules they reach derives from a tensor or
mode class of torch or defines `__torch_function__`/`__torch_dispatch__`.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts

# torch classes whose subclasses run the program's code on torch calls (a mode: on every call).
_TORCH_BASES = frozenset({
    "torch.Tensor", "torch._tensor.Tensor", "torch._C.TensorBase", "torch._C._TensorBase",
    "torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.parameter.Buffer", "torch.nn.Buffer",
    "torch.overrides.TorchFunctionMode", "torch.utils._python_dispatch.TorchDispatchMode",
})
_HOOKS = frozenset({"__torch_function__", "__torch_dispatch__"})


def program_tensor_class(units: list[Facts]) -> str | None:
    """The first class of `units` that makes torch calls run program code (derives from a torch
    tensor or mode class, from such a class of the program, or defines a torch hook); None if none."""
    classes = [(unit, node) for unit in units for node in unit.walk(unit.module) if isinstance(node, cst.ClassDef)]
    found: set[str] = set()
    changed = True
    while changed:  # `class Tagged(Traced)` of a `class Traced(torch.Tensor)`: a fixpoint over names
        changed = False
        for unit, cls in classes:
            if cls.name.value in found:
                continue
            if _hooks(cls) or any(_torch_base(unit, base.value) or _named(base.value) in found for base in cls.bases):
                found.add(cls.name.value)
                changed = True
    for unit, cls in classes:
        if cls.name.value in found:
            return cls.name.value
    return None


def _hooks(cls: cst.ClassDef) -> bool:
    for stmt in cls.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in _HOOKS:
            return True
        if isinstance(stmt, cst.SimpleStatementLine):  # `__torch_function__ = torch._C._disabled_torch_function_impl`
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value in _HOOKS
                                                         for t in small.targets):
                    return True
    return False


def _torch_base(unit: Facts, base: cst.BaseExpression) -> bool:
    return (unit.qualified_name(base) or "") in _TORCH_BASES if isinstance(base, (cst.Name, cst.Attribute)) else False


def _named(base: cst.BaseExpression) -> str:
    return base.value if isinstance(base, cst.Name) else base.attr.value if isinstance(base, cst.Attribute) else ""


def subclass_review(units: list[Facts]) -> str:
    """The review line when the program defines such a class ("" when it defines none)."""
    name = program_tensor_class(units)
    if name is None:
        return ""
    return (f"the program defines `{name}`, a tensor subclass or torch mode whose code runs on torch calls: the "
            "rewrite changes which torch calls run, and so what that code sees (a tracer's counts, its own methods)")
