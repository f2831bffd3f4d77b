"""`torch.tensor(x.cpu().tolist())`: a tensor copied to the host and straight back."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ...fix.edits import delete_statement, replace
from ...model import Fix, Severity
from ..facts import Facts
from ..names import names_written, root_name
from ..types import Kind
from ._tensor_facts import (
    CONVERT_METHOD,
    PYTHON_SCALAR_DTYPE,
    assigned_value,
    dtype_of,
    family,
    is_scalar,
    keyword,
    module_alias,
    mutated_in_place,
    rarely_runs,
    reads_of,
)
from .base import Rule

# Constructors that build a tensor from host data, and the dtype some of them force.
CONSTRUCTORS = {"tensor": None, "as_tensor": None, "from_numpy": None, "Tensor": "float",
                "FloatTensor": "float", "LongTensor": "long", "DoubleTensor": "double"}
HOST_COPIES = frozenset({"tolist", "numpy", "item"})
_NUMPY_TO_TORCH = {"float32": "float32", "float64": "float64", "float16": "float16", "int64": "int64",
                   "int32": "int32", "int8": "int8", "uint8": "uint8", "bool_": "bool", "bool": "bool"}
# Calls between the tensor and its host copy that do not change its values.
_TRANSPARENT = frozenset({"cpu", "detach", "contiguous"})


@dataclass(frozen=True)
class HostCopy:
    tensor: cst.BaseExpression  # the device tensor that was copied
    method: str  # "tolist", "numpy" or "item"
    via: cst.Name | None = None  # the variable that carried the copy, if any
    via_statement: cst.SimpleStatementLine | None = None


class PingPong(Rule):
    id = "ping-pong"
    title = "Device -> host -> device round trip"
    severity = Severity.HIGH
    explanation = (
        "`.cpu()`, `.tolist()`, `.numpy()` and `.item()` copy a tensor into host memory; on a GPU "
        "they also wait for every queued kernel (a synchronisation). Building a tensor from that "
        "copy sends the same values back: two copies and a stall for data that was already on the "
        "device. `detach()` (plus `clone()` when the result is changed in place) gives the same "
        "values without leaving the device."
    )

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.facts.qualified_name(node.func) or ""
        name = qualified.rsplit(".", 1)[-1]
        if not qualified.startswith("torch.") or qualified.count(".") != 1 or name not in CONSTRUCTORS:
            return
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) != 1 or keyword(node, "requires_grad") is not None:
            return
        loop = self.facts.iteration_loop(node)
        if loop is None or rarely_runs(self.facts, node, loop):
            return
        copy = self._host_copy(positional[0].value, node)
        if copy is None:
            self._host_computation(node, name, positional[0].value)
            return
        source = self.facts.code(copy.tensor)
        shown = self.facts.code(copy.via_statement.body[0]) if copy.via_statement else self.facts.code(positional[0].value)
        new_code, safe, why = self._rewrite(node, name, copy)
        edits = (replace(self.facts, node, new_code),) if safe else ()
        if safe and copy.via_statement is not None and self._only_use(copy.via):
            edits += (delete_statement(self.facts, copy.via_statement),)
        fix = Fix(
            description=f"stay on the device: `{new_code}`" + (f" ({why})" if why else ""),
            edits=edits,
            suggestion=new_code,
            safe=safe,
        )
        self.report(
            node,
            f"`{shown}` copies `{source}` to the host (a sync) and `torch.{name}` copies it back: "
            f"a device->host->device round trip on every iteration",
            fix=fix,
        )

    def _host_computation(self, node: cst.Call, name: str, arg: cst.BaseExpression) -> None:
        """`torch.tensor((x.cpu().numpy() > 0).astype(np.float32))`: NumPy work between the copies."""
        inner = next((n for n in self.facts.walk(arg) if n is not arg and isinstance(n, cst.Call)
                      and (c := self._host_copy(n, node)) is not None and c.method == "numpy"), None)
        if inner is None:
            return
        copy = self._host_copy(inner, node)
        assert copy is not None
        tensor = self.facts.code(copy.tensor)
        on_device = self._torch_equivalent(arg, inner, tensor if isinstance(copy.tensor, (cst.Name, cst.Attribute)) else f"({tensor})")
        dtype, device = keyword(node, "dtype"), keyword(node, "device")
        if on_device is not None:
            on_device += "".join(f".to({self.facts.code(v)})" for v in (dtype, device) if v is not None)
        self.report(
            node,
            f"`{self.facts.code(inner)}` copies `{tensor}` to the host (a sync), NumPy computes on it there and "
            f"`torch.{name}` copies the result back: a device->host->device round trip on every iteration",
            fix=Fix(
                description="compute it with torch ops on the device" + (f": `{on_device}`" if on_device else ""),
                edits=(replace(self.facts, node, on_device),) if on_device else (),
                suggestion=on_device or f"# the same computation with torch ops on `{tensor}`",
                safe=on_device is not None,
            ),
        )

    def _torch_equivalent(self, expr: cst.BaseExpression, copy: cst.Call, tensor: str) -> str | None:
        """Comparisons with numbers and a final `.astype(np.<dtype>)`, written with torch ops.

        Only these translate exactly (NumPy and torch promote arithmetic differently)."""
        if expr is copy:
            return tensor
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 \
                and isinstance(expr.comparisons[0].comparator, (cst.Integer, cst.Float)):
            left = self._torch_equivalent(expr.left, copy, tensor)
            op = self.facts.code(expr.comparisons[0].operator).strip()
            return f"({left} {op} {self.facts.code(expr.comparisons[0].comparator)})" if left is not None else None
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "astype" \
                and len(expr.args) == 1 and isinstance(expr.func.value, cst.Comparison):
            spelled = expr.args[0].value
            dtype = spelled.evaluated_value if isinstance(spelled, cst.SimpleString) else \
                (self.facts.qualified_name(spelled) or "").removeprefix("numpy.")
            inner = self._torch_equivalent(expr.func.value, copy, tensor)
            torch = module_alias(self.facts, "torch")
            if inner is not None and torch is not None and dtype in _NUMPY_TO_TORCH:
                return f"{inner}.to({torch}.{_NUMPY_TO_TORCH[dtype]})"
        return None

    # --- matching --------------------------------------------------------------------

    def _host_copy(self, arg: cst.BaseExpression, use: cst.Call) -> HostCopy | None:
        if isinstance(arg, cst.Name):
            return self._through_variable(arg, use)
        if not (isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute)):
            return None
        method = arg.func.attr.value
        if method not in HOST_COPIES or arg.args:
            return None
        tensor = _strip_transparent(arg.func.value)
        if self.facts.kind(arg.func.value) is not Kind.TENSOR and self.facts.kind(tensor) is not Kind.TENSOR:
            return None
        return HostCopy(tensor, method)

    def _through_variable(self, name: cst.Name, use: cst.Call) -> HostCopy | None:
        """`vals = x.cpu().numpy()` earlier in the same block, `x` unchanged since."""
        value = assigned_value(self.facts, name)
        if value is None:
            return None
        inner = self._host_copy(value, use) if not isinstance(value, cst.Name) else None
        if inner is None:
            return None
        define = self.facts.statement_of(value)
        here = self.facts.statement_of(use)
        block = self.facts.parent(here)
        if not isinstance(define, cst.SimpleStatementLine) or self.facts.parent(define) is not block:
            return None
        body = list(block.body)  # type: ignore[union-attr]
        start, end = body.index(define), body.index(here)
        changed = {name.value, root_name(inner.tensor)}
        if any(names_written(stmt) & changed for stmt in body[start + 1 : end]):
            return None
        if len(define.body) != 1 or not isinstance(define.body[0], cst.Assign) or len(define.body[0].targets) != 1:
            return None
        return HostCopy(inner.tensor, inner.method, name, define)

    # --- rewriting -------------------------------------------------------------------

    def _rewrite(self, node: cst.Call, name: str, copy: HostCopy) -> tuple[str, bool, str]:
        """The on-device expression, whether it keeps the meaning exactly, and why not."""
        code = f"{self.facts.code(copy.tensor)}.detach()"
        if not isinstance(copy.tensor, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)):
            code = f"({self.facts.code(copy.tensor)}).detach()"
        safe, why = True, ""
        if copy.method == "item" and not is_scalar(self.facts, copy.tensor):
            code += ".reshape(())"
        if self._needs_clone(node, copy):
            if name in ("as_tensor", "from_numpy"):
                safe, why = False, f"the result is changed in place and `torch.{name}` may share memory"
            code += ".clone()"
        dtype = keyword(node, "dtype")
        forced = CONSTRUCTORS[name]
        if dtype is not None:
            code += f".to({self.facts.code(dtype)})"
        elif forced is not None:
            code += f".{forced}()"
        elif copy.method != "numpy":
            source = dtype_of(self.facts, copy.tensor)
            fam = family(source)
            if fam is None:
                safe, why = False, f"the dtype of `{self.facts.code(copy.tensor)}` is unknown: Python scalars " \
                    "become float32/int64, so add `.float()`/`.long()` if it is not already one"
            elif source != PYTHON_SCALAR_DTYPE[fam]:
                code += f".{CONVERT_METHOD[fam]}()"
        device = keyword(node, "device")
        if device is not None:
            code += f".to({self.facts.code(device)})"
        return code, safe, why

    def _needs_clone(self, node: cst.Call, copy: HostCopy) -> bool:
        """The constructor gave fresh memory; `detach()` shares it: matters only if mutated."""
        scope: cst.CSTNode = self.facts.enclosing_function(node) or self.facts.module
        stmt = self.facts.statement_of(node)
        target = None
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign):
            assign = stmt.body[0]
            if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name) and _flows_to(self.facts, node, assign.value):
                target = assign.targets[0].target.value
        if target is None:
            return True
        root = root_name(copy.tensor)
        return mutated_in_place(self.facts, target, scope) or (root is not None and mutated_in_place(self.facts, root, scope))

    def _only_use(self, name: cst.Name | None) -> bool:
        if name is None:
            return False
        return len(reads_of(self.facts, name.value)) == 2


def _strip_transparent(expr: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        method = expr.func.attr.value
        is_to_cpu = method == "to" and len(expr.args) == 1 and isinstance(expr.args[0].value, cst.SimpleString) \
            and expr.args[0].value.evaluated_value == "cpu"
        if (method in _TRANSPARENT and not expr.args) or is_to_cpu:
            expr = expr.func.value
        else:
            break
    return expr


def _flows_to(facts: Facts, node: cst.CSTNode, value: cst.BaseExpression) -> bool:
    """`value` is `node` or `node` followed only by `.to(...)`/`.cuda()`/`.float()`-style calls."""
    current = node
    while current is not value:
        parent = facts.parent(current)
        grand = facts.parent(parent) if parent is not None else None
        if isinstance(parent, cst.Attribute) and isinstance(grand, cst.Call) and parent.value is current \
                and parent.attr.value in {"to", "cuda", "float", "long", "double", "half", "contiguous"}:
            current = grand
        else:
            return False
    return True
