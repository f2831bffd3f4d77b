"""`loss.item()` (and friends) every step: the host waits for the device on each iteration."""

from __future__ import annotations

import dataclasses
import struct
from itertools import takewhile
from typing import Callable, Iterator

import libcst as cst

from ...fix.edits import replace
from ...model import Edit, Fix, Severity
from ..device_use import (HOST_LIBRARIES, crosses_to_host, cuda_condition, is_accelerator_device, is_device_move, may_use_mps,
                          moves_in_loop, moves_to_cpu, on_host, uses_device)
from ..facts import Facts, FunctionNode, Loop, is_autograd_grad, passed_for
from ..names import (argument_bound_to, block_statements, bound_names, named_params, parameter_filled,
                     positional_params, root_name)
from ..types import Kind, kind_of_method
from ._closed_reads import binding_scope, read_out_of_place
from ._lightning import hook_of
from ._logging_calls import logged_values
from ._phase_loop import in_evaluation_phase, phase_tests
from ._python_numbers import python_number
from ._display_reads import shown_by, shown_read_beside
from ._host_distributions import argument_for, parameter_index
from ._row_reads import ROW_HINT, row_read_fix
from ._scaler_syncs import scaler_step_in_the_same_step
from ._support import (exclusive_arms_before, grad_disabled, hot_loop, insert_after, step_loop, steps_itself,
                       through_with, torch_alias, updates_weights_by_hand)
from ._swallowing import may_swallow
from ._tensor_facts import BOOL, INT, caught_in_loop, earlier_cells, on_device, dtype_of, family, local_units, namespace_reader, reaches_main
from ._training_program import program_trains
from .base import Rule, RuleContext

# Integer dtypes a device sum starting from a Python int keeps exact as Python does (bool
# promotes to int64 when added to an int); uint8/int8/int16/int32 keep their width and wrap.
_WIDE_INTEGERS = frozenset({"int64", "long", BOOL})

_COPY_METHODS = frozenset({"item", "tolist", "numpy", "cpu"})
_SAME_VALUES = frozenset({"detach", "data"})  # `.detach()` / `.data` between two copies: the same values
_CASTS = frozenset({"builtins.float", "builtins.int", "builtins.bool"})
# Calls that wait for the device by design: (what it costs, how to remove it, severity). Emptying
# the cache every step also hands its blocks back, so the next step allocates through the driver.
_EXPLICIT_SYNCS = {
    "torch.cuda.empty_cache": (
        "returns the caching allocator's free blocks to the driver: freeing waits for the device (a sync), "
        "and the next step's allocations go back through `cudaMalloc` instead of reusing those blocks",
        "remove it from the loop (the allocator reuses freed blocks); if memory must be released, call it "
        "once after training or evaluation", Severity.MEDIUM),
    "torch.cuda.synchronize": (
        "makes the CPU wait for all queued GPU work, so the GPU idles while Python prepares the next step",
        "remove it unless the step is being timed; to time steps, record CUDA events and read them "
        "every N steps", Severity.LOW),
}
_EXPLICIT_SYNCS["torch.cuda.memory.empty_cache"] = _EXPLICIT_SYNCS["torch.cuda.empty_cache"]
# `math` functions that take a tensor through `__float__`: a copy to the host, as `float(t)` is.
_MATH_CONVERSIONS = frozenset(f"math.{f}" for f in (
    "pow", "sqrt", "exp", "log", "log2", "log10", "log1p", "fabs", "isnan", "isinf", "isfinite", "cos", "sin", "tan",
    "tanh", "atan", "atan2", "hypot", "copysign", "fmod", "expm1", "erf"))
# Calls whose positional arguments are sizes or bounds (Python ints): a tensor there is read on the host.
_SIZE_TAKERS = frozenset({"builtins.range", *(f"torch.{f}" for f in ("zeros", "ones", "empty", "rand", "randn", "arange", "eye"))})
_SIZE_METHODS = frozenset({"new_zeros", "new_ones", "new_empty"})
_BACK_TO_TENSOR = frozenset({"torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor"})
# Operations whose output size depends on the input's values (check 49, p02's prototypes): on a
# device, the host must read that size before it can allocate the result, so each call waits for
# every queued kernel, as `.item()` does, though no copy is spelled. `nonzero_static` (a size given) is not one.
_VALUE_SIZED = frozenset({"unique", "unique_consecutive", "nonzero", "argwhere", "masked_select"})
_ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
_PACKING = frozenset({"pack_padded_sequence"})
# Builtins that only take host values (with `device_use.HOST_LIBRARIES`): feeding them is the program's own need.
_HOST_BUILTINS = frozenset({"builtins.range", "builtins.chr", "builtins.round", "builtins.str"})
# NumPy functions that turn a Python list into an array first: given a list of 0-d device tensors
# (`np.argmax([q[a] for a in actions])`) each element is copied to the host on its own (check 36, p07).
_NUMPY_OF_ELEMENTS = frozenset(f"numpy.{f}" for f in ("argmax", "argmin", "max", "min", "amax", "amin", "mean", "sum",
                                                        "array", "asarray", "stack", "median", "std", "var"))
# Methods through which the value passes unchanged to whatever consumes it.
# A `.step(...)` that is not an optimizer's: an environment, whose next observation the loop feeds back
# to the device. The host must have the value each step: not a finding at all.
_ENVIRONMENT = "an environment step"
_STORING = frozenset({"append", "extend", "insert", "appendleft"})
# NumPy calls that join arrays: `preds = np.append(preds, batch)` grows a host-side accumulator.
_NUMPY_JOINS = frozenset(f"numpy.{f}" for f in ("append", "concatenate", "vstack", "hstack", "row_stack",
                                                  "column_stack", "dstack"))
# Writers of images, plots and files: a copy they read in the same step is the program's output.
_WRITERS = ("torchvision.transforms.ToPILImage", "torchvision.transforms.functional.to_pil_image",
            "torchvision.utils.save_image", "PIL.", "matplotlib.", "imageio.", "cv2.imwrite", "skimage.io.")
_WRITING_METHODS = frozenset({"save", "imsave", "imwrite", "savefig", "imshow"})
# Tensor methods that hand the copied values on unchanged (a view, a new layout, a wider dtype):
# `sr.cpu().squeeze()` reaches its consumer as `sr.cpu()` would.
_SAME_VALUES_ON = frozenset({"squeeze", "unsqueeze", "permute", "transpose", "contiguous", "view", "reshape",
                             "flatten", "float", "double", "clone", "detach", "numpy"})
# Host-only converters made and called in one expression: `ToPILImage()(sr.cpu())` needs a host tensor.
_HOST_CONVERTERS = ("torchvision.transforms.ToPILImage", "torchvision.transforms.functional.to_pil_image", "PIL.")
_PASS_THROUGH = (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.Arg, cst.Tuple, cst.List, cst.Element)


# TensorBoard writers: `add_scalar(tag, value)` turns a tensor value into a Python number.
_SUMMARY_WRITERS = frozenset({"torch.utils.tensorboard.SummaryWriter", "torch.utils.tensorboard.writer.SummaryWriter",
                              "tensorboardX.SummaryWriter", "tensorboardX.writer.SummaryWriter"})


def _scalar_value(call: cst.Call) -> cst.BaseExpression | None:
    """The value argument of `add_scalar(tag, scalar_value, ...)`, positional or by keyword."""
    for i, arg in enumerate(call.args):
        if arg.keyword is None and i == 1 or arg.keyword is not None and arg.keyword.value == "scalar_value":
            return arg.value
    return None


def _ends_in_a_copy(stmt: cst.CSTNode) -> bool:
    """`pred = out.argmax(1).cpu().numpy()`: the statement's value is a copy to the host, so
    every device operation it queues runs before the copy, which waits for them all."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _COPY_METHODS


def _leaves_the_block(arm: cst.BaseSuite) -> bool:
    """The arm ends in `break`, `continue`, `return` or `raise`: the statements after the branch
    never run after it."""
    last = arm.body[-1] if isinstance(arm, cst.IndentedBlock) and arm.body else arm
    smalls = getattr(last, "body", ())
    return isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and bool(smalls) and \
        isinstance(smalls[-1], (cst.Break, cst.Continue, cst.Return, cst.Raise))


def _constant(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)) or \
        isinstance(expr, cst.Name) and expr.value in ("True", "False", "None")


def _constructs(value: cst.BaseExpression, cls: str) -> bool:
    """`cls(...)`, or it moved or put in a mode: `cls(...).cuda()`, `cls(...).to(device).train()`."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in ("cuda", "to", "train", "eval", "float", "half"):
        value = value.func.value
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == cls


def _dotted(expr: cst.BaseExpression) -> bool:
    """`labels`, `batch.y`, `labels_val.data`: reading it queues no device work."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)


class HostSync(Rule):
    """Policy for copies of a batch's values to the host (one verdict whatever the chain is
    spelled: `.cpu()`, `.detach().cpu()`, `.cpu().detach().numpy().tolist()`, `.cpu().data`):
    an evaluation step that stores them in a list of its own (`append`/`extend`/`+=`) for a host
    metric computed after the loop is the program's need and stays silent; the same copy in a
    training step, a host running total, a `print` or other per-step logging, or a store into a
    list the loop does not own (a helper's parameter) is a sync every step and is reported."""

    id = "host-sync"
    title = "Host-device synchronisation every iteration"
    severity = Severity.HIGH
    explanation = (
        "Reading a tensor's value on the host (`.item()`, `float(t)`, `print(t)`, `if t:`, "
        "`.cpu()`/`.numpy()`/`.tolist()`) copies it from the device and makes the CPU wait until "
        "every queued kernel has finished. Once per step, this serialises the CPU and the GPU: "
        "the GPU idles while Python prepares the next step. Keep values on the device (`.detach()`) "
        "and read them once after the loop, or every N steps."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._taken: set[str] = set()  # names the fixes of this unit introduce
        self._step_reads: dict[int, list[cst.CSTNode]] = {}  # loop node id -> the step's first-wait reads (pub53)

    # --- sites -----------------------------------------------------------------------

    def visit_Subscript(self, node: cst.Subscript) -> None:
        """`x[mask]` read with a boolean mask (pub51 p03, a spiking network's reset
        `rst[c] = torch.ones_like(mem)[c]` at every time step): the result holds as many elements
        as the mask has `True`s, so the host must read that count from the device before it can
        allocate the result (an implicit `nonzero`), the same wait `_VALUE_SIZED`'s calls make.
        Only a mask that is provably a boolean tensor (a comparison of a tensor, or a name every
        binding of which in its function is one) over values provably on the device; a store of a
        number, `x[mask] = 0.0`, is a `masked_fill_` (no count is read) and is not a read here."""
        if not uses_device(self.facts) or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        if isinstance(self.facts.parent(node), cst.AssignTarget):
            return  # `x[mask] = value`: a store; its right-hand side, if it indexes too, is reported there
        mask = node.slice[0].slice.value
        if not self._boolean_tensor(mask):
            return
        if not (self._device_chain(node.value, set()) or self._device_chain(mask, set())):
            return
        code, index = self.facts.code(node), self.facts.code(mask)
        what = (f"`{code}` indexes with the boolean mask `{index}`: the result's size depends on the mask's values, "
                "so the host reads the count from the device before it can allocate the result (an implicit "
                "`nonzero`, a sync)")
        hint = (f"# a fixed-size form that never reads the count: `torch.where({index}, ..., ...)`, "
                f"`{index}.to(dtype)` for a 0/1 tensor, or `x.masked_fill({index}, value)`")
        if self._hot(node) is not None:
            self._site(node, what, lambda loop: hint)
            return
        found = self._round_of_a_step_helper(node)
        if found is not None:
            helper, line, elsewhere = found
            where = f"line {line} of a later cell" if elsewhere else f"line {line}"
            self.report(node, f"{what}, on every round of the loop in `{helper}`, which the training step at {where} "
                        "runs once per batch: several waits per step",
                        fix=Fix(description="keep the shape fixed so nothing is read on the host", suggestion=hint,
                                safe=False))

    def _round_of_a_step_helper(self, node: cst.CSTNode) -> tuple[str, int, bool] | None:
        """`node` sits in a plain loop of a helper (the time-step loop of a spiking network's
        `run_snn`) that a training loop calls once per batch, though the helper's first recorded
        caller is another loop (the accuracy helper's, which `hot_loop` follows and finds plain):
        the helper's name, the line of a training-step call and whether it is another unit's. Reads of such rounds wait on every
        round of every step."""
        loop = self.facts.iteration_loop(node)
        func = self.facts.enclosing_function(loop.node) if loop is not None and loop.kind == "plain" else None
        if func is None or loop is None or loop.facts is not self.facts:
            return None
        for owner, call in self.facts.per_iteration_call_sites(func):
            caller = hot_loop(owner, call)
            if caller is not None and caller.kind == "train" and not grad_disabled(owner, call):
                return func.name.value, owner.position(call).start.line, owner is not self.facts
        return None

    def _boolean_tensor(self, expr: cst.BaseExpression) -> bool:
        """A comparison of a tensor (`mthr > 0`), or a name every binding of which in this unit is
        one (`c = (mthr > 0)`): a boolean tensor whatever the shapes. A NumPy comparison is not
        (`_is_tensor` of its left operand)."""
        if isinstance(expr, cst.Name):
            values = self._bindings(expr)
            return bool(values) and all(isinstance(v, cst.Comparison) and self._boolean_tensor(v) for v in values)
        if not isinstance(expr, cst.Comparison) or len(expr.comparisons) != 1:
            return False
        if not isinstance(expr.comparisons[0].operator, (cst.GreaterThan, cst.LessThan, cst.GreaterThanEqual,
                                                         cst.LessThanEqual, cst.Equal, cst.NotEqual)):
            return False
        return self._is_tensor(expr.left) and not on_host(self.facts, expr.left)

    def _device_chain(self, expr: cst.BaseExpression, seen: set[str], depth: int = 0) -> bool:
        """`expr` is made on the device: a device factory or move (`on_device`), a `*_like` of such
        a tensor, arithmetic or a comparison one operand of which is, or a name every binding of
        which in this unit is (a recurrence `mem = beta * mem + syn - rst` counts its other
        bindings: `torch.zeros(..., device=device)`)."""
        if depth > 6:
            return False
        if isinstance(expr, cst.Name):
            if expr.value in seen:
                return False
            values = self._bindings(expr)
            seen.add(expr.value)
            return bool(values) and all(self._device_chain(v, seen, depth + 1) or self._self_referring(v, seen)
                                        for v in values) and any(self._device_chain(v, set(seen) - {expr.value}, depth + 1)
                                                                   or on_device(self.facts, v) for v in values)
        if isinstance(expr, cst.Call):
            if on_device(self.facts, expr):
                return self._may_be_accelerator(expr)
            qualified = self.facts.qualified_name(expr.func) or ""
            return qualified.startswith("torch.") and qualified.endswith("_like") and bool(expr.args) \
                and expr.args[0].keyword is None and self._device_chain(expr.args[0].value, seen, depth + 1)
        if isinstance(expr, cst.BinaryOperation):
            return self._device_chain(expr.left, seen, depth + 1) or self._device_chain(expr.right, seen, depth + 1)
        if isinstance(expr, cst.Comparison):
            return self._device_chain(expr.left, seen, depth + 1)
        return False

    def _bindings(self, name: cst.Name) -> list[cst.BaseExpression]:
        """The values `name` is given in the function that reads it (a global's, outside any
        function, when that function binds none): a namesake in another helper is another tensor."""
        scope = self.facts.enclosing_function(name)
        values = self.facts.values_in(name.value, scope)
        if values or scope is None:
            return values
        params = {p.name.value for p in (*scope.params.posonly_params, *scope.params.params)}
        if name.value in params or name.value in self.facts.names_written(scope.body):
            return []  # a parameter or a loop target: filled by whoever calls or iterates
        return self.facts.values_in(name.value, None)

    def _may_be_accelerator(self, call: cst.Call) -> bool:
        """A device factory or move (`on_device`) whose device may be an accelerator: not one
        that provably names the CPU (`device = torch.device("cpu")`), where a mask's count is
        on the host already."""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "cuda":
            return True
        given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "device"), None)
        if given is None and isinstance(func, cst.Attribute) and func.attr.value == "to" and call.args:
            given = call.args[0].value
        return given is None or is_accelerator_device(self.facts, given)

    def _self_referring(self, value: cst.BaseExpression, seen: set[str]) -> bool:
        """A binding that only reads names already being followed (the recurrence's own name)."""
        names = [n.value for n in self.facts.walk(value) if isinstance(n, cst.Name)]
        return any(n in seen for n in names)

    def visit_Call(self, node: cst.Call) -> None:
        if self._discarded_copy(node):
            return
        logged = logged_values(self.facts, node)
        if logged is not None:
            self._logged(node, *logged)
            return
        hot = self._hot(node)
        if hot is None:
            self._lightning_step_read(node)
            if self._element_copy(node) and uses_device(self.facts):
                self._element_site(node, f"`{self.facts.code(node)}` copies a value to the host")
            return
        if hot.kind == "eval" and self._in_backward_hook(node):
            return  # `h.register_hook(lambda g: ...)`: runs in a backward pass, which an evaluation step has not
        if not uses_device(self.facts):
            return  # cheap: most calls are not in a step loop, and types can cost a jedi inference
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _COPY_METHODS:
            self._method_site(node, func)
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "to" and moves_to_cpu(self.facts, node) \
                and not _non_blocking(node) and self._is_tensor(func.value):
            self._method_site(node, func)  # `.to("cpu")`, `.to(cpu_device)`: `.cpu()` by another name
            return
        qualified = self.facts.qualified_name(func) or ""
        if qualified in _EXPLICIT_SYNCS:
            self._explicit_sync(node, *_EXPLICIT_SYNCS[qualified])
        elif (sized := self._value_sized(node, qualified)) is not None:
            code = self.facts.code(sized)
            self._site(node, f"`{self.facts.code(node)}` has a size that depends on the values of `{code}`: the host "
                       "reads that size from the device before it can allocate the result (an implicit sync)",
                       lambda loop: "# a size known on the host (a count the program already has), or a fixed-size "
                       f"form of the same computation (a one-hot mask and a matmul, `index_add_`, `scatter_reduce`, "
                       f"`torch.nonzero_static(..., size=k)`) that never reads `{code}` on the host")
        elif qualified in _CASTS and len(node.args) == 1 and self._is_tensor(node.args[0].value):
            arg = node.args[0].value
            if on_host(self.facts, arg):
                return  # a host batch's count: nothing to wait for
            keep = f"{self.facts.code(arg)}.detach()  # stays a tensor on the device; convert once after the loop"
            self._site(node, f"`{self.facts.code(node)}` copies the tensor's value to the host",
                       lambda loop: keep, arg if qualified == "builtins.float" else None)
        elif qualified in _MATH_CONVERSIONS and self._math_of_a_tensor(node) is not None:
            arg = self._math_of_a_tensor(node)
            keep = f"torch.{qualified[len('math.'):]}(...) of `{self.facts.code(arg)}`  # the tensor op stays on the device"
            self._site(node, f"`{self.facts.code(func)}` of the tensor `{self.facts.code(arg)}` converts it to a Python "
                       "float (a copy to the host)", lambda loop: keep)
        elif qualified in _NUMPY_OF_ELEMENTS and node.args and node.args[0].keyword is None \
                and (element := self._device_elements(node.args[0].value)) is not None:
            self._per_element_read(node, qualified, element)
        elif qualified == "builtins.print" and any(a.keyword is None and self._is_tensor(a.value) for a in node.args):
            self._site(node, "`print` of a tensor copies its value to the host to format it", self._every_n(node))
        elif qualified in _SIZE_TAKERS or isinstance(func, cst.Attribute) and func.attr.value in _SIZE_METHODS \
                and self._is_tensor(func.value):
            self._size_read(node, [a.value for a in node.args if a.keyword is None and not a.star])
        elif isinstance(func, cst.Attribute) and func.attr.value == "add_scalar" and self._summary_writer(func.value):
            value = _scalar_value(node)
            if value is not None and self._is_tensor(value) and not on_host(self.facts, value):
                self._site(node, f"`{self.facts.code(func)}` of the tensor `{self.facts.code(value)}` copies its value "
                           "to the host (TensorBoard records a Python number)", self._every_n(node))

    def _value_sized(self, node: cst.Call, qualified: str) -> cst.BaseExpression | None:
        """The operand of `torch.unique(x)` / `x.nonzero()` / `torch.masked_select(x, m)` (one of
        `_VALUE_SIZED`) when it is provably on the device: a name bound to a device move or a
        model's output, or a parameter every per-iteration caller fills with a device move
        (`model(support_images.cuda(), support_labels.cuda(), ...)` -> `forward`'s `support_labels`).
        A host tensor, or one of unknown place (a parameter some caller fills from the host, or
        that no visible caller fills), is not: its size is known without waiting."""
        func = node.func
        given: list[cst.BaseExpression] = []
        if qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:] in _VALUE_SIZED:
            operand = node.args[0].value if node.args and node.args[0].keyword is None and not node.args[0].star else None
            given = [a.value for a in node.args[1:] if a.keyword is None and not a.star]  # `masked_select(x, mask)`'s mask
        elif isinstance(func, cst.Attribute) and func.attr.value in _VALUE_SIZED and not qualified.startswith(("numpy.", "builtins.")) \
                and self._is_tensor(func.value):
            operand = func.value
        else:
            return None
        if operand is None or on_host(self.facts, operand):
            return None
        names = [n for e in (operand, *given) for n in self.facts.walk(e) if isinstance(n, cst.Name)]
        return operand if any(self._moved_there(e) for e in (operand, *given)) or any(self._filled_on_device(n) for n in names) \
            else None

    def _filled_on_device(self, name: cst.Name) -> bool:
        """`name` is a parameter (never rebound) of a function every per-iteration call of which,
        in this unit or another, passes a device move (`.cuda()`, `.to(device)`) at its place."""
        func = self.facts.enclosing_function(name)
        if func is None or self.facts.value_of(name) is not None:
            return False
        params = positional_params(func)
        if name.value not in params or name.value in self.facts.names_written(func.body):
            return False
        if params[:1] == ["self"] and isinstance(self.facts.parent(self.facts.parent(func)), cst.ClassDef):
            params = params[1:]  # `model(a, b)` / `obj.method(a, b)`: the arguments fill what follows `self`
        cls = self.facts.parent(self.facts.parent(func))
        if isinstance(cls, cst.ClassDef) and func.name.value == "forward" and self.facts.parent(self.facts.parent(cls)) is None:
            sites = self._instance_calls(cls.name.value)  # `model(...)` runs `forward`: its callers are the instance's
        else:
            sites = self.facts.per_iteration_call_sites(func)
        if not sites:
            return False
        for owner, call in sites:
            given = argument_bound_to(call, params, name.value)
            if not (isinstance(given, cst.Call) and is_device_move(owner, given) or given is not None and on_device(owner, given)):
                return False
        return True

    def _instance_calls(self, cls: str) -> list[tuple[Facts, cst.Call]]:
        """Calls `model(...)` of a global `model` every top-level binding of which, in this unit,
        is `cls(...)` (through `.cuda()` / `.to(...)` / `.train()` / `.eval()`), here and in the
        notebook's later cells until one binds `model` again: every call that runs the instance's
        `forward`. A name also bound inside a function, or to anything else, gives none."""
        holders = []
        for name in {t.target.value for stmt in self.facts.module.body if isinstance(stmt, cst.SimpleStatementLine)
                     for small in stmt.body if isinstance(small, cst.Assign) for t in small.targets
                     if isinstance(t.target, cst.Name)}:
            values = self.facts.assigned_values(name)
            if values and all(_constructs(v, cls) for v in values) and self.facts.binds_global(name) \
                    and not any(self.facts.enclosing_function(u) is not None and isinstance(self.facts.parent(u), cst.AssignTarget)
                                for u in self.facts.uses(name)):
                holders.append(name)
        sites: list[tuple[Facts, cst.Call]] = []
        for name in holders:
            for unit in (self.facts, *self.facts.later):
                if unit is not self.facts and unit.binds_global(name):
                    break
                sites += [(unit, c) for c in unit.calls_in(unit.module)
                          if isinstance(c.func, cst.Name) and c.func.value == name and unit.reads_global(c.func)]
        return sites

    def _logged(self, node: cst.Call, how: str, values: list[cst.BaseExpression]) -> None:
        """A logging call of the closed list (`_logging_calls`) given a device tensor: a copy to the
        host on every step it runs in (periodic logging stays silent, as for `add_scalar`), or on
        every evaluation of an optimizer's closure."""
        if not uses_device(self.facts):
            return
        tensor = next((v for v in values if self._is_tensor(v) and not on_host(self.facts, v)), None)
        if tensor is None:
            return
        what = f"`{self.facts.code(node.func)}` of the tensor `{self.facts.code(tensor)}` copies it to the host ({how})"
        if self._hot(node) is not None:
            self._site(node, what, self._every_n(node))
            return
        found = self._closure_step(node)
        if found is None:
            return
        closure, step, loop = found
        self.report(node, f"{what} on every evaluation of `{closure}`, which `{step}` calls at least once per "
                    "optimizer step: the CPU waits for all queued GPU work each time (a device sync)",
                    fix=Fix(description="log it every N steps only, outside the closure, or keep the value on the "
                            "device and log it after the loop", suggestion=self._every_n(node)(loop),
                            safe=False),
                    severity=Severity.HIGH)

    def _closure_step(self, node: cst.CSTNode) -> tuple[str, str, Loop] | None:
        """`node` sits in the top-level body of `def closure():` (no branch, loop or `try` around it
        there), defined in a loop body and handed, in that same body, to `opt.step(closure)` of an
        optimizer (`torch.optim.LBFGS` evaluates it once or more per step): the closure's name and
        the step's spelling."""
        func = self.facts.enclosing_function(node)
        if not isinstance(func, cst.FunctionDef) or not isinstance(func.body, cst.IndentedBlock):
            return None
        if self.facts.statement_of(node) not in func.body.body or any(
                isinstance(a, (cst.If, cst.IfExp, cst.Try, cst.BooleanOperation, cst.For, cst.While, cst.With))
                for a in self.facts.ancestors(node) if self.facts.enclosing_function(a) is func and a is not func):
            return None
        loops = self.facts.enclosing_loops(func)
        if not loops:
            return None
        for call in self.facts.calls_in(loops[0].node.body):
            target = call.func
            if isinstance(target, cst.Attribute) and target.attr.value == "step" and len(call.args) == 1 \
                    and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == func.name.value \
                    and self.facts.enclosing_loops(call)[:1] == loops[:1] and self._an_optimizer(target.value):
                return func.name.value, self.facts.code(target), loops[0]
        return None

    def _an_optimizer(self, expr: cst.BaseExpression) -> bool:
        """Spelled as an optimizer, or only ever bound to a `torch.optim` one (`lbfgs = optim.LBFGS(...)`)."""
        values = self.facts.assigned_values(expr.value) if isinstance(expr, cst.Name) else []
        return _optimizer_name(expr) or bool(values) and all(
            isinstance(v, cst.Call) and (self.facts.qualified_name(v.func) or "").startswith("torch.optim.") for v in values)

    def _discarded_copy(self, node: cst.Call) -> bool:
        """`probs.cpu()` as a statement of its own, its value never used (public check 39, the
        char-RNN's per-character `predict`): a copy to the host and a device sync that buy nothing
        (a tensor's `.cpu()`/`.numpy()`/`.tolist()`/`.item()` changes nothing in place, unlike a
        module's `.cpu()`). Reported wherever it runs repeatedly, evaluation included: there is no
        value to weigh the sync against. Only a receiver known to be a tensor, in a program that
        uses a device, and not a notebook cell's last top-level line (whose value is displayed)."""
        func = node.func
        expr = self.facts.parent(node)
        if not (isinstance(func, cst.Attribute) and isinstance(expr, cst.Expr) and expr.value is node
                and (func.attr.value in _COPY_METHODS and not node.args or moves_to_cpu(self.facts, node))):
            return False
        stmt = self.facts.statement_of(node)
        scope = self.facts.enclosing_function(node)
        loops = self.facts.enclosing_loops(node)
        repeated = bool(loops) or (scope is not None and bool(self.facts.per_iteration_call_sites(scope)))
        tensor = _copied_tensor(node, self.facts)  # `out.argmax(1)` of `out.argmax(1).cpu().numpy()`
        if not repeated or not self._is_tensor(tensor) or on_host(self.facts, tensor) \
                or not uses_device(self.facts) or (scope is None and not loops and stmt in self.facts.module.body):
            return False
        code = self.facts.code(node)
        self.report(
            node,
            f"`{code}` copies `{self.facts.code(tensor)}` to the host and throws the copy away (the "
            "statement's value is never used): each time it runs, the CPU waits for the device (a sync) "
            "and copies for nothing; delete the statement",
            fix=Fix(description="delete the statement: a tensor's copy that nothing reads (the tensor itself is "
                    "unchanged)", suggestion=f"# {code}  (removed: its result was never used)", safe=False),
            severity=Severity.MEDIUM,
        )
        return True

    def visit_Slice(self, node: cst.Slice) -> None:
        """`out[:, :lengths.max()]`: a slice bound is a Python int, so a tensor there is read."""
        if self._hot(node) is not None and uses_device(self.facts):
            bounds = [b for b in (node.lower, node.upper, node.step) if b is not None]
            self._size_read(node, bounds, f"the slice `{self.facts.code(node)}`")

    def _size_read(self, node: cst.CSTNode, sizes: list[cst.BaseExpression], where: str | None = None) -> None:
        """`torch.zeros(ids.max() + 1)`, `range(lengths.max())`: a size, a range bound or a slice
        bound is a Python int, so a device tensor given there is read on the host (an implicit
        `.item()`), a sync as an explicit one is; no call in the code says so."""
        flat = [e.value for s in sizes if isinstance(s, (cst.Tuple, cst.List)) for e in s.elements] + \
            [s for s in sizes if not isinstance(s, (cst.Tuple, cst.List))]
        read = next((e for e in flat if self._is_tensor(e) and not on_host(self.facts, e) and self._moved_there(e)), None)
        if read is None:
            return
        code = self.facts.code(read)
        self._site(read, f"{where or f'`{self.facts.code(node)}`'} takes `{code}` as a Python int: the tensor's value is "
                   "copied to the host (an implicit `.item()`)",
                   lambda loop: f"# a size known on the host: `.size(...)` / `.shape`, or computed from the host copy of the "
                   f"data `{code}` comes from, before it is moved to the device")

    def _moved_there(self, expr: cst.BaseExpression) -> bool:
        """A name `expr` reads holds a tensor provably put on the device (`.to(device)`, a
        model's output): no call says a size read syncs, so an unknown place (a helper's
        `lengths` parameter, which its callers may fill from the host) is not enough."""
        return any(isinstance(n, cst.Name) and (on_device(self.facts, n) or self._device_value(n)
                                                 or on_device(self.facts, self.facts.element_of(n) or n))
                   for n in self.facts.walk(expr))

    def _explicit_sync(self, node: cst.Call, cost: str, remedy: str, severity: Severity) -> None:
        """`torch.cuda.empty_cache()` / `torch.cuda.synchronize()` run on every step: nothing to
        rewrite (what the program meant by it is not known here), a hint to move or drop it."""
        loop = hot_loop(self.facts, node)
        if loop is None or not self._every_step(node, loop):
            return
        step = "training" if self._step_kind(node) == "train" else "evaluation"
        self.report(node, f"`{self.facts.code(node)}` on every {step} step {cost}",
                    fix=Fix(description=remedy, suggestion=f"# {self.facts.code(node)}  # once, after the loop", safe=False),
                    severity=severity)

    def _math_of_a_tensor(self, call: cst.Call) -> cst.BaseExpression | None:
        """The device tensor a `math.*` call converts (LSTNet's `math.pow(param.grad.data.norm(), 2)`)."""
        return next((a.value for a in call.args if a.keyword is None and not a.star and self._is_tensor(a.value)
                     and not on_host(self.facts, a.value)), None)

    def _summary_writer(self, receiver: cst.BaseExpression) -> bool:
        """`writer` / `self.writer` is only ever bound to a TensorBoard `SummaryWriter(...)`."""
        if isinstance(receiver, cst.Name):
            values = self.facts.assigned_values(receiver.value)
        elif isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name) and receiver.value.value == "self":
            values = self.facts.assigned_values("self." + receiver.attr.value)
        else:
            return False
        return bool(values) and all(isinstance(v, cst.Call) and (self.facts.qualified_name(v.func) or "") in _SUMMARY_WRITERS
                                    for v in values)

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        if self._hot(node) is not None and uses_device(self.facts) and self._is_tensor(node.expression) \
                and not self._only_on_failure(node):
            self._site(node, f"formatting `{self.facts.code(node.expression)}` in an f-string copies its value to the host",
                       self._every_n(node))

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        """`"%.2f" % acc` / `"%d/%d" % (correct, total)`: `%`-formatting calls `float()` or
        `int()` on each tensor it formats, a copy to the host like an f-string's."""
        if not isinstance(node.operator, cst.Modulo) or not isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString)):
            return
        if self._hot(node) is None or not uses_device(self.facts) or self._only_on_failure(node):
            return
        right = node.right
        values = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
        for value in values:
            if self._is_tensor(value) and not on_host(self.facts, value):
                self._site(value, f"formatting `{self.facts.code(value)}` with `%` copies its value to the host",
                           self._every_n(node))

    def _only_on_failure(self, node: cst.CSTNode) -> bool:
        """Inside an `assert`'s message or a `raise`: built only when the check fails, once."""
        child = node
        for anc in self.facts.ancestors(node):
            if isinstance(anc, cst.Assert):
                return child is anc.msg
            if isinstance(anc, cst.Raise):
                return True
            if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return False
            child = anc
        return False

    def visit_If(self, node: cst.If) -> None:
        if self._hot(node) is None and uses_device(self.facts) and self._device_test(node.test):
            self._element_site(node.test, f"`{'elif' if self._is_elif(node) else 'if'} {self.facts.code(node.test)}:` "
                               "needs the tensor's value on the host to branch")
        if self._hot(node) is not None and uses_device(self.facts) and self._device_test(node.test):
            test = self.facts.code(node.test)
            keyword = "elif" if self._is_elif(node) else "if"
            self._site(node.test, f"`{keyword} {test}:` needs the tensor's value on the host to branch",
                       lambda loop: f"{keyword} {_counter(loop)} % 100 == 0 and {test}:  # test every 100 steps only")

    def _is_elif(self, node: cst.If) -> bool:
        parent = self.facts.parent(node)
        return isinstance(parent, cst.If) and parent.orelse is node

    # --- one read per element of a device tensor ------------------------------------------

    def _element_copy(self, node: cst.Call) -> bool:
        """`t[i].item()`, `float(t[i])`, `t[i].tolist()`, `t[i].cpu()`: a copy of (part of) a tensor
        to the host, judged where it runs by `_element_site`."""
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("item", "tolist", "cpu") and not node.args:
            return self.facts.kind(func.value) in (Kind.TENSOR, Kind.UNKNOWN)
        return (self.facts.qualified_name(func) or "") in _CASTS and len(node.args) == 1 and self._is_tensor(node.args[0].value)

    def _element_site(self, node: cst.CSTNode, what: str) -> None:
        """`for i in range(len(ranks)): r = ranks[i].item()` (or `if (neg > pos[i]).sum() < 20:`)
        outside any training or evaluation step, `ranks` a tensor made on the device: one copy and
        one device sync per element of the tensor, where one copy of it before the loop would do.
        The read runs on every iteration of that loop (no branch of its own) and reads the loop's
        element; a loop over host data, or a read of anything else, is not one."""
        loops = self.facts.enclosing_loops(node)
        if not loops or loops[0].facts is not self.facts or self._only_on_failure(node):
            return
        loop = loops[0]
        tensor = self._device_elements_walked(loop)
        if tensor is None or not self._every_step(node, loop, depth=0) or self._decides_the_step(node):
            return
        element, index, item = tensor
        reads = [n for n in self.facts.walk(node) if isinstance(n, cst.Subscript) and self.facts.code(n.value) == element
                 and self.facts.names_read(n.slice[0] if n.slice else n) & {index}] if index else \
            [n for n in self.facts.walk(node) if isinstance(n, cst.Name) and n.value == item]
        if not reads:
            return
        self.report(node, f"{what} once per element of `{element}`, a tensor on the device, in the loop over its "
                    "elements: one device sync per element, where one copy of the whole tensor would do",
                    fix=Fix(description=f"copy `{element}` to the host once, before the loop (`.tolist()` or "
                            "`.cpu()`), and read its elements there; or compute the result with whole-tensor ops",
                            suggestion=f"{element}_host = {element}.tolist()  # once, before the loop; then index "
                            f"`{element}_host` inside it", safe=False),
                    severity=Severity.MEDIUM)

    def _device_elements_walked(self, loop: Loop) -> tuple[str, str | None, str | None] | None:
        """(tensor, index name, None) for `for i in range(len(t))` / `range(t.shape[0])` /
        `range(t.size(0))`, (tensor, None, element name) for `for v in t`: `t` a name made on the
        device (the message names `t`, never the loop's element)."""
        node = loop.node
        if not isinstance(node, cst.For) or not isinstance(node.target, cst.Name):
            return None
        it = node.iter
        if isinstance(it, cst.Name):
            return (it.value, None, node.target.value) if self._device_derived(it) else None
        if not (isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.range"
                and len(it.args) in (1, 2) and not any(a.keyword or a.star for a in it.args)):
            return None
        if len(it.args) == 2 and not (isinstance(it.args[0].value, cst.Integer) and it.args[0].value.value == "0"):
            return None
        size = it.args[-1].value
        measured: cst.BaseExpression | None = None
        if isinstance(size, cst.Call) and (self.facts.qualified_name(size.func) or "") == "builtins.len" and len(size.args) == 1:
            measured = size.args[0].value
        elif isinstance(size, cst.Call) and isinstance(size.func, cst.Attribute) and size.func.attr.value == "size" \
                and len(size.args) == 1 and isinstance(size.args[0].value, cst.Integer) and size.args[0].value.value == "0":
            measured = size.func.value
        elif isinstance(size, cst.Subscript) and isinstance(size.value, cst.Attribute) and size.value.attr.value == "shape" \
                and len(size.slice) == 1 and isinstance(size.slice[0].slice, cst.Index) \
                and isinstance(size.slice[0].slice.value, cst.Integer) and size.slice[0].slice.value.value == "0":
            measured = size.value.value
        if not isinstance(measured, cst.Name) or not self._device_derived(measured):
            return None
        if measured.value in self.facts.names_written(node.body):
            return None
        return measured.value, node.target.value, None

    def _device_derived(self, expr: cst.BaseExpression, depth: int = 16) -> bool:
        """`expr` is provably a tensor on the device: moved or made there, a module moved there
        called, tensor ops, indexing and arithmetic of such values (no copy to the host between),
        or a parameter every call of this unit passes such a value for."""
        cache: dict[int, bool] = self.__dict__.setdefault("_derived_cache", {})
        if id(expr) not in cache:
            cache[id(expr)] = False  # a cycle through a name's own earlier binding proves nothing
            cache[id(expr)] = self._derived(expr, depth)
        return cache[id(expr)]

    def _derived(self, expr: cst.BaseExpression, depth: int) -> bool:
        if depth <= 0:
            return False
        if isinstance(expr, cst.Name):
            value = self.facts.value_of(expr) or self.facts.element_of(expr)
            if value is None:
                passed = passed_for(self.facts, expr)
                return bool(passed) and all(self._device_derived(v, depth - 1) for v in passed)
            return self._device_derived(value, depth - 1)
        if isinstance(expr, (cst.BinaryOperation, cst.Comparison)):
            sides = [expr.left, expr.right] if isinstance(expr, cst.BinaryOperation) else [expr.left, *(c.comparator for c in expr.comparisons)]
            return any(self._device_derived(e, depth - 1) for e in sides)
        if isinstance(expr, cst.UnaryOperation):
            return self._device_derived(expr.expression, depth - 1)
        if isinstance(expr, cst.Subscript):
            return self._device_derived(expr.value, depth - 1)
        if isinstance(expr, cst.Attribute):
            return expr.attr.value in ("T", "mT", "data", "real", "imag") and self._device_derived(expr.value, depth - 1)
        if not isinstance(expr, cst.Call):
            return False
        if on_device(self.facts, expr) or _made_on_device(self.facts, expr, 1):
            return True
        func = expr.func
        if isinstance(func, cst.Attribute):
            if func.attr.value in _COPY_METHODS or func.attr.value in ("to", "numpy") or moves_to_cpu(self.facts, expr):
                return False
            return self.facts.kind(func.value) is not Kind.MODULE and self._device_derived(func.value, depth - 1)
        if isinstance(func, cst.Name) and self.facts.kind(func) is Kind.MODULE:
            return self._device_derived(func, depth - 1)  # `q_tower(x)`: a module moved to the device, called
        qualified = self.facts.qualified_name(func) or ""
        return qualified.startswith("torch.") and any(a.keyword is None and not a.star and self._device_derived(a.value, depth - 1)
                                                      for a in expr.args)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        """`scale = 0.5 if loss > 1.0 else 1.0` on every step: choosing the arm needs the test's
        value on the host, a sync as an `if` statement's test is. Between two tensors or numbers
        `torch.where` picks on the device; between other objects it is a Python branch."""
        if self._hot(node) is None or not uses_device(self.facts) or not self._device_test(node.test) \
                or self._only_on_failure(node):
            return
        test, body, orelse = (self.facts.code(e) for e in (node.test, node.body, node.orelse))
        self._site(node.test, f"`... if {test} else ...` needs the tensor's value on the host to pick a value",
                   lambda loop: f"torch.where({test}, {body}, {orelse})  # picks on the device when both values are tensors "
                   "or numbers; no sync")

    def visit_Assert(self, node: cst.Assert) -> None:
        """`assert torch.isfinite(loss).all()` on every step: checking it needs the tensor's value
        on the host, a device sync per step (Python's `-O` drops the check, and the sync)."""
        if self._hot(node) is not None and uses_device(self.facts) and self._device_test(node.test):
            test = self.facts.code(node.test)
            self._site(node.test, f"`assert {test}` needs the tensor's value on the host to check it",
                       lambda loop: f"if {_counter(loop)} % 100 == 0:  # check every 100 steps only\n    assert {test}")

    def visit_While(self, node: cst.While) -> None:
        if self._hot(node.test) is not None and uses_device(self.facts) and self._tensor_test(node.test):
            test = self.facts.code(node.test)
            suggestion = (
                "step = 0\nwhile True:\n    ...  # the loop body\n    step += 1\n"
                f"    if step % 100 == 0 and not ({test}):  # test every 100 steps only\n        break"
            )
            self._site(node.test, f"`while {test}:` needs the tensor's value on the host to test the condition",
                       lambda loop: suggestion)

    def _method_site(self, node: cst.Call, func: cst.Attribute) -> None:
        method = func.attr.value
        receiver = func.value
        if method == "item" and node.args or _packing_lengths(self.facts, node):
            return  # `self.item(seq)`: a submodule named `item`, not `Tensor.item()`; lengths `pack_padded_sequence` needs on the CPU
        if on_host(self.facts, _copied_tensor(node, self.facts)):
            return  # NumPy, a Python number, a tensor already copied by `.cpu()`: nothing to wait for
        # `.item()`, `.cpu()` and `.numpy()` are tensor methods in torch code: an unknown receiver counts,
        # so the verdict does not hang on how far type inference got in this unit.
        unknown = method in ("item", "cpu", "numpy") and self.facts.kind(receiver) is Kind.UNKNOWN
        per_element = method in ("item", "tolist") and self._per_element_copy(node)
        # `.cpu().numpy().tolist()`: the inner copies leave the report to the outer call, whose
        # receiver is NumPy or a host tensor by then; the chain's `.cpu()` says it was a tensor.
        chained = method in ("tolist", "numpy") and crosses_to_host(receiver)
        if not (unknown or per_element or chained or self._is_tensor(receiver)):
            return
        if method == "numpy" and not crosses_to_host(receiver):
            return  # `.numpy()` raises on a device tensor: wherever it runs, the tensor is on the host already
        if not per_element and (self._feeds_another_copy(node) or self._back_to_tensor_later(node)):
            return  # `.cpu().numpy()`: reported once, on the outer call; a round trip is ping-pong's
        if method == "item" and any(isinstance(c.func, cst.Attribute) and c.func.attr.value in ("cpu", "numpy")
                                    and not self._feeds_another_copy(c) for c in self.facts.calls_in(receiver)):
            return  # `(out.cpu() == y).sum().item()`: the inner `.cpu()` is the sync, reported on its own
            # (`loss.cpu().item()`: the `.cpu()` leaves the report to this `.item()`)
        rows = self._row_of_device_value(node) if method != "item" else None
        if method != "item" and rows is None and (self._kept_by_host_object(node) or self._gathered_for_host(node)):
            return
        if rows is not None:
            self._site(node, f"`{self.facts.code(node)}` copies one row of `{rows}` to the host per iteration of the loop over "
                       "its rows (one device sync per row, where one copy of the batch would do)",
                       lambda loop: f"{rows}_host = {rows}.detach().cpu()  # once, before the loop over rows (a batched op "
                       f"such as a sigmoid applied to all of `{rows}` first); then read the rows of `{rows}_host`")
            return
        if per_element:
            self._site(node, f"`{self.facts.code(node)}` copies to the host once per element of the comprehension "
                       "(a device sync each time)",
                       lambda loop: f"{self.facts.code(receiver)}  # whole-tensor ops instead of one Python value per element")
            return
        if method == "item":
            rows = row_read_fix(self.facts, node, self._taken) if hot_loop(self.facts, node) is not None else None
            if isinstance(rows, Fix):
                self.report(node, f"`{self.facts.code(node)}` copies one value per row to the host on every step: one "
                            "device sync per row, where one copy of every row's value would do", fix=rows)
                return
            # `loss.cpu().item()`: what can stay on the device is the tensor before the copy (a hint:
            # the accumulation rewrite renames `.item()` and would keep the copy)
            crosses = crosses_to_host(receiver)
            kept = f"{self.facts.code(_copied_tensor(node, self.facts) if crosses else receiver)}.detach()  # a 0-d tensor on the " \
                "device; `.item()` it after the loop"
            self._site(node, f"`{self.facts.code(node)}` copies one value to the host", lambda loop: kept,
                       None if crosses else receiver, rows)
            return
        tensor = _copied_tensor(node, self.facts)
        what = "copies the tensor to the host and builds Python objects" if method == "tolist" else "copies the tensor to the host"
        collect = (
            f"kept.append({self.facts.code(tensor)}.detach())  # in the loop: stays on the device\n"
            f"values = torch.cat(kept){self.facts.code(node)[len(self.facts.code(tensor)):]}  # once, after the loop"
        )
        self._site(node, f"`{self.facts.code(node)}` {what}", lambda loop: collect)

    def _lightning_step_read(self, node: cst.Call) -> None:
        """`loss.item()` in a `LightningModule.training_step`: the `Trainer` calls the step once
        per batch, a loop this program never writes; on an accelerator each read waits for the
        queued work. A hint (the Trainer picks the device; logging may need the number), not under
        a `% N` test, not in a function nested in the step, not of a value already on the host."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "item" and not node.args) \
                or hook_of(self.facts, node) != "training_step" or on_host(self.facts, func.value):
            return
        method = self.facts.enclosing_function(node)
        for anc in self.facts.ancestors(node):
            if anc is method:
                break
            if isinstance(anc, cst.If) and any(isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Modulo)
                                               for n in self.facts.walk(anc.test)):
                return  # `if batch_idx % 50 == 0:` reads it every 50 steps
        self.report(
            node,
            f"`{self.facts.code(node)}` copies one value to the host on every training step (Lightning's `Trainer` calls "
            "`training_step` once per batch): on a GPU the CPU waits for all queued work each time, so the device "
            "idles while Python prepares the next step",
            fix=Fix(description="log the tensor itself (`self.log(name, value)`: Lightning reduces it and reads it "
                    "every `log_every_n_steps`), or read it only every N batches",
                    suggestion=f"self.log(\"value\", {self.facts.code(func.value)}.detach())", safe=False),
            severity=Severity.MEDIUM,
        )

    def _in_backward_hook(self, node: cst.CSTNode) -> bool:
        """`node` is in a lambda or function registered as a gradient hook (`t.register_hook(fn)`,
        `m.register_full_backward_hook(fn)`): it runs only when a backward pass reaches it."""
        for scope in self.facts.ancestors(node):
            if isinstance(scope, cst.Lambda):
                arg = self.facts.parent(scope)
                call = self.facts.parent(arg) if isinstance(arg, cst.Arg) else None
                return isinstance(call, cst.Call) and _registers_backward_hook(call)
            if isinstance(scope, cst.FunctionDef):
                return any(isinstance(arg := self.facts.parent(use), cst.Arg) and isinstance(call := self.facts.parent(arg), cst.Call)
                           and _registers_backward_hook(call) for use in self.facts.uses(scope.name.value))
        return False

    def _hot(self, node: cst.CSTNode) -> Loop | None:
        """The loop whose every iteration runs `node`: a training/evaluation step, or a loop that
        carries device state from one iteration to the next."""
        return hot_loop(self.facts, node) or self._device_state_loop(node) or self._adaptation_task_loop(node)

    def _adaptation_task_loop(self, node: cst.CSTNode) -> Loop | None:
        """The loop over tasks of a meta-test (MAML: `for _ in range(20): fast = adapt(params, xs, ys,
        steps=5)`, then the query loss read): each iteration calls a helper of this unit whose own
        loop takes `torch.autograd.grad` and rebuilds what it differentiated from the gradients
        (gradient steps by hand), so each iteration is a task's training, not an epoch around a
        step loop. Only a loop over a `range` (a loop over a loader's batches that attacks each
        batch, PGD, stays an evaluation pass), with no step loop of its own inside."""
        loop = self.facts.iteration_loop(node)
        if loop is None or loop.facts is not self.facts or loop.kind == "train" or not isinstance(loop.node, cst.For) \
                or not (isinstance(loop.node.iter, cst.Call) and (self.facts.qualified_name(loop.node.iter.func) or "") == "builtins.range") \
                or any(l.parent is loop and l.kind != "plain" for l in self.facts.loops):
            return None
        calls = [c for c in self.facts.calls_in(loop.node.body) if self.facts.enclosing_loops(c)[:1] == [loop]]
        return loop if any(self._steps_by_hand(func) for c in calls for func in self.facts._callees(c)
                           if self.facts.owner_of(func) is self.facts) else None

    def _steps_by_hand(self, func: FunctionNode) -> bool:
        """`func`'s own top-level loop binds `grads = torch.autograd.grad(loss, fast, ...)` and rebinds
        `fast` from `grads` (`fast = [w - lr * g for w, g in zip(fast, grads)]`), `fast` being weights
        the caller gives (a parameter, or a name bound to one before the loop): gradient steps on
        them. A perturbation made inside the helper (an attack's `delta = torch.zeros_like(x)`) is not."""
        params = {p.name.value for p in (*func.params.posonly_params, *func.params.params)}
        given = params | {b for n in self.facts.walk(func.body) if isinstance(n, cst.Assign) and not self.facts.enclosing_loops(n)
                          and isinstance(n.value, cst.Name) and n.value.value in params
                          for t in n.targets for b in bound_names(t.target)}
        for inner in self.facts.loops:
            if inner.function is not func or inner.parent is not None:
                continue
            for call in self.facts.calls_in(inner.node.body):
                if not (isinstance(call.func, cst.Attribute) and is_autograd_grad(call.func)) or len(call.args) < 2 \
                        or not isinstance(call.args[1].value, cst.Name):
                    continue
                assign = self.facts.parent(call)
                grads = {n for t in assign.targets for n in bound_names(t.target)} if isinstance(assign, cst.Assign) else set()
                wrt = call.args[1].value.value
                if wrt in given and grads and any(isinstance(n, cst.Assign) and wrt in {b for t in n.targets for b in bound_names(t.target)}
                                 and self.facts.names_read(n.value) & grads for n in self.facts.walk(inner.node.body)):
                    return True
        return False

    def _carried_through_pass(self, node: cst.CSTNode, loop: Loop) -> str | None:
        """The device tensor an evaluation-kind `loop` of a training program carries from one
        iteration to the next (recall 61: a Langevin sampler's `z = z - eps * grad + noise` over
        hundreds of steps, run after training): the state the loop rebinds, or None. Such a loop
        is a chain of dependent device steps, not a pass over batches (`_training_program`'s small
        share): a value read on the host each iteration waits for every step before it. Only for
        `node` right in `loop` (no loop inside it), in this unit, in a function that returns the
        carried tensor: the chain's product stays on the device and what the host reads each step
        is a by-product (energies, norms). A sampler whose result is what it reads (`tokens.append(
        int(nxt))`, `return tokens`) needs those values: label49's sampling pass, still silent."""
        if loop.facts is not self.facts or self.facts.iteration_loop(node) is not loop \
                or any(inner.parent is loop for inner in self.facts.loops):
            return None
        state = _carried_state(self.facts, loop)
        func = self.facts.enclosing_function(loop.node)
        if state is None or func is None:
            return None
        returns = [n for n in self.facts.walk(func.body) if isinstance(n, cst.Return) and n.value is not None
                   and self.facts.enclosing_function(n) is func]
        return state if any(state in self.facts.names_read(r.value) for r in returns) else None  # type: ignore[arg-type]

    def _device_state_loop(self, node: cst.CSTNode) -> Loop | None:
        """The innermost loop around `node`, in this unit, outside any training or evaluation loop,
        with no loop inside it, that carries a tensor made on the device from one iteration to the
        next (`x, P = predict(x, P)` in a Kalman filter, a tracker's state): each iteration queues
        device work that depends on the last, and a value read on the host every iteration waits
        for it. A `while` loop (`while True:` over a stream, `while step < n:`) is one as well as a
        `for` loop. A loop over host data, or one whose state starts on the host, is not one."""
        loop = self.facts.iteration_loop(node)
        if loop is None or loop.facts is not self.facts \
                or step_loop(self.facts, loop) is not None or any(l.parent is loop for l in self.facts.loops):
            return None
        return loop if _carried_state(self.facts, loop) is not None else None

    def _warm_up_test(self, test: cst.BaseExpression, node: cst.CSTNode) -> bool:
        """`t < n` (or `<=`) on the counter of the `for t in range(...)` loop that runs `node`, `n`
        not computed in that loop: true for the first iterations only, so the `else` arm runs on
        every iteration after a warm-up (a decoder fed its prompt, then generating)."""
        loop = self.facts.iteration_loop(node)
        if loop is None or not isinstance(loop.node, cst.For) or not isinstance(loop.node.target, cst.Name) \
                or not (isinstance(loop.node.iter, cst.Call) and (self.facts.qualified_name(loop.node.iter.func) or "") == "builtins.range"):
            return False
        return isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
            and isinstance(test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual)) \
            and isinstance(test.left, cst.Name) and test.left.value == loop.node.target.value \
            and not self.facts.names_read(test.comparisons[0].comparator) & self.facts.names_written(loop.node.body)

    def _rarely_true(self, test: cst.BaseExpression, node: cst.CSTNode) -> bool:
        """A test true on few iterations of the loops around `node`, so an `elif` below it is
        tested on (nearly) every one: an every-N guard (`i % 100 == 0`), a counter of an enclosing
        loop equal to a value the loop does not compute (`step == 3`, `epoch == 0`), a warm-up
        (`t < n`), or an `and` with such a part (an `or` needs both). Anything else (a flag, a
        threshold, a device test) may be true on every step: the `elif` is then not judged hot."""
        if isinstance(test, cst.BooleanOperation):
            if isinstance(test.operator, cst.And):
                return self._rarely_true(test.left, node) or self._rarely_true(test.right, node)
            return self._rarely_true(test.left, node) and self._rarely_true(test.right, node)
        if self._warm_up_test(test, node):
            return True
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].operator, cst.Equal)):
            return False
        sides = (test.left, test.comparisons[0].comparator)
        if any(isinstance(s, cst.BinaryOperation) and isinstance(s.operator, cst.Modulo) for s in sides):
            return True  # every N steps: true once in N (N == 1 is no guard anyone writes)
        loops = self.facts.enclosing_loops(node)
        counters = {name for loop in loops if isinstance(loop.node, cst.For) for name in bound_names(loop.node.target)
                    if self.facts._loop_counter(loop.node, name)} | {
            name for loop in loops for n in self.facts.walk(loop.node.body)
            if isinstance(n, cst.AugAssign) and isinstance(n.operator, cst.AddAssign) and isinstance(n.target, cst.Name)
            and isinstance(n.value, cst.Integer) for name in [n.target.value]}
        for counted, other in (sides, sides[::-1]):
            if isinstance(counted, cst.Name) and counted.value in counters and not self._is_tensor(other) \
                    and not any(self.facts.names_read(other) & self.facts.names_written(loop.node.body) for loop in loops):
                return True
        return False

    def _per_element_copy(self, node: cst.Call) -> bool:
        """`[c.item() for c in conf]` / `[f(v.item()) for v in preds]` in the same statement: one copy
        (one sync) per element of a device tensor, not the one round trip ping-pong rewrites, even
        when the list goes back into a tensor (`list-to-tensor` reports the rebuild)."""
        child: cst.CSTNode = node
        for anc in self.facts.ancestors(node):
            if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return False
            if isinstance(anc, (cst.ListComp, cst.GeneratorExp, cst.SetComp)) and child is anc.elt:
                fors: list[cst.CompFor] = []
                comp: cst.CompFor | None = anc.for_in
                while comp is not None:
                    fors.append(comp)
                    comp = comp.inner_for_in
                read = self.facts.names_read(node.func.value)  # type: ignore[attr-defined]
                return any(read & set(bound_names(f.target)) and not on_host(self.facts, f.iter)
                           and (self._is_tensor(f.iter) or self._is_tensor(node.func.value)) for f in fors)  # type: ignore[attr-defined]
            child = anc
        return False

    def _row_of_device_value(self, node: cst.Call) -> str | None:
        """`for tar in y_batch: real.append(tar.cpu().numpy())` inside a step: the copy reads the
        target of a loop, inside the step, over the rows of a device value (`y_batch =
        y_batch.cuda()`, or the output of a module the function switches with `.eval()`/`.train()`).
        The name of that value, or None."""
        read = self.facts.names_read(_copied_tensor(node, self.facts))
        for loop in self.facts.enclosing_loops(node):
            if loop.kind != "plain" or not isinstance(loop.node, cst.For):
                return None
            it = loop.node.iter
            if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "enumerate" and it.args:
                it = it.args[0].value
            target = loop.node.target
            if isinstance(target, cst.Tuple) and loop.node.iter is not it and len(target.elements) == 2:
                target = target.elements[1].value  # `for i, row in enumerate(t)`
            if isinstance(it, cst.Name) and set(bound_names(target)) & read and self._device_value(it):
                return it.value
        return None

    def _device_value(self, name: cst.Name) -> bool:
        """`name` holds a tensor on the device: bound to a device move, or to a call of a module
        that its function puts in `.eval()`/`.train()` mode (a model's output)."""
        value = self.facts.value_of(name)
        if not isinstance(value, cst.Call):
            return False
        if any(isinstance(c, cst.Call) and is_device_move(self.facts, c) for c in self.facts.walk(value)):
            return True
        if not isinstance(value.func, cst.Name):
            return False
        scope = self.facts.enclosing_function(name)
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value in ("eval", "train") and not c.args
                   and isinstance(c.func.value, cst.Name) and c.func.value.value == value.func.value
                   and self.facts.enclosing_function(c) is scope for c in self.facts.calls_in(self.facts.module))

    def _feeds_another_copy(self, node: cst.Call) -> bool:
        """`.cpu()` of `.cpu().numpy()` (the outer copy is reported), or a copy that goes back to
        a tensor in the same statement (`torch.tensor(x.cpu().numpy() > 0)`: ping-pong's round trip).
        Not an `.item()` whose Python number goes through arithmetic first (`torch.tensor(hits.item()
        / len(y))`, the Jovian/fastai `accuracy`): ping-pong rewrites round trips of the same values
        only, so that read is this rule's, or nobody's."""
        parent = self.facts.parent(self._through_detach(node))
        if isinstance(parent, cst.Attribute) and parent.attr.value in _COPY_METHODS:
            return True
        scalar = isinstance(node.func, cst.Attribute) and node.func.attr.value == "item"
        arithmetic = False  # `torch.tensor(correct.item() / n)`: a new host value, no round trip for ping-pong
        child: cst.CSTNode = node
        for anc in self.facts.ancestors(node):
            if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return False
            arithmetic = arithmetic or isinstance(anc, cst.BinaryOperation)
            if isinstance(anc, cst.Call) and child is not anc.func and (self.facts.qualified_name(anc.func) or "") in _BACK_TO_TENSOR:
                return not (scalar and arithmetic)
            if isinstance(anc, cst.Attribute) and anc.attr.value in ("to", "cuda") and child is anc.value:
                return True
            child = anc
        return False

    def _kept_by_host_object(self, node: cst.Call) -> bool:
        """`self.preds.append(predictions.detach().cpu())` in a method of a plain object (a metric's
        `add_batch`, an accumulator's `update`): the object exists to keep host copies for a
        host-side computation, so the copy is its contract, not waste the loop could drop. A
        module's state, a local list or a parameter it fills are not such an object."""
        func = self.facts.enclosing_function(node)
        if func is None or self.facts.enclosing_loops(node) or not func.params.params \
                or func.params.params[0].name.value != "self":
            return False
        block = self.facts.parent(func)
        cls = self.facts.parent(block) if isinstance(block, cst.IndentedBlock) else None
        if not isinstance(cls, cst.ClassDef) or func.name.value in ("forward", "__call__") or any(
                (self.facts.qualified_name(b.value) or "").startswith("torch.") or self.facts.code(b.value).endswith("Module")
                for b in cls.bases):
            return False  # a module's state moves with it to the device
        child: cst.CSTNode = node
        for anc in self.facts.ancestors(node):
            if isinstance(anc, (cst.Arg, cst.Tuple, cst.List, cst.Element)):
                child = anc
                continue
            if isinstance(anc, cst.Call) and child is not anc.func:
                target = anc.func
                return isinstance(target, cst.Attribute) and target.attr.value in _STORING \
                    and isinstance(target.value, cst.Attribute) and root_name(target.value) == "self"
            if isinstance(anc, cst.Assign) and anc.value is child:
                return all(isinstance(t.target, (cst.Attribute, cst.Subscript)) and root_name(t.target) == "self"
                           for t in anc.targets)
            return False
        return False

    def _gathered_for_host(self, node: cst.Call) -> bool:
        """`all_probs.append(probs.cpu())`, `preds.extend(out.argmax(1).cpu().tolist())` in an
        evaluation step: predictions gathered for host-side metrics after the loop (NumPy,
        scikit-learn). The host needs every batch's values; copying them as they come is the
        program's need, not a sync a training step pays."""
        if self._step_kind(node) != "eval":
            return False
        if self._joined_on_host(node) or self._stored_in_host_array(node):
            return True
        child: cst.CSTNode = self._through_detach(node)
        for anc in self.facts.ancestors(child):
            if isinstance(anc, cst.Attribute) and anc.value is child and anc.attr.value in _COPY_METHODS | _SAME_VALUES:
                child = anc
                continue
            if isinstance(anc, cst.Call) and isinstance(child, cst.Attribute) and anc.func is child:
                child = anc  # the outer copy of `.cpu().numpy()`
                continue
            if isinstance(anc, cst.Arg):
                call = self.facts.parent(anc)
                if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute) \
                        or call.func.attr.value not in _STORING or not isinstance(call.func.value, cst.Name):
                    return False
                return self._loop_own_list(node, call.func.value)
            if isinstance(anc, cst.AugAssign) and anc.value is child and isinstance(anc.operator, cst.AddAssign) \
                    and isinstance(anc.target, cst.Name):
                return self._loop_own_list(node, anc.target)  # `y_true += y.cpu().tolist()`: `extend` by another name
            return False
        return False

    def _joined_on_host(self, node: cst.Call) -> bool:
        """`preds = np.append(preds, logits.cpu().numpy(), axis=0)` (or `np.concatenate([preds,
        ...])`), and the first batch's `preds = logits.cpu().numpy()` of that same accumulator:
        outputs joined batch by batch into a NumPy array for metrics after the loop."""
        stmt = self.facts.statement_of(node)
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        loops = self.facts.enclosing_loops(node)
        if not (loops and isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)):
            return False
        acc = small.targets[0].target.value
        if self._accumulates(small, acc):
            return any(_inside(self.facts, node, a.value) for a in small.value.args)  # type: ignore[attr-defined]
        if small.value is not self._through_detach(node):
            return False
        return any(isinstance(n, cst.Assign) and n is not small and len(n.targets) == 1
                   and isinstance(n.targets[0].target, cst.Name) and n.targets[0].target.value == acc
                   and self._accumulates(n, acc) for n in self.facts.walk(loops[0].node.body))

    def _accumulates(self, assign: cst.Assign, acc: str) -> bool:
        """`acc = np.append(acc, ...)`: a NumPy join whose result rebinds a name it reads."""
        value = assign.value
        return isinstance(value, cst.Call) and (self.facts.qualified_name(value.func) or "") in _NUMPY_JOINS \
            and any(acc in self.facts.names_read(a.value) for a in value.args)

    def _stored_in_host_array(self, node: cst.Call) -> bool:
        """`preds, maxvals = get_final_preds(cfg, output.cpu().numpy(), c, s)`, then
        `all_preds[idx:idx + n, :, 0:2] = preds[:, :, 0:2]`: the batch's outputs (or values made
        from them) written into a NumPy array that outlives the step, for use after the loop."""
        stmt = self.facts.statement_of(node)
        following = self._following(stmt)
        if not isinstance(stmt, cst.SimpleStatementLine) or following is None:
            return False
        derived: set[str] = set()
        for small in stmt.body:
            if isinstance(small, cst.Assign) and _inside(self.facts, node, small.value):
                if self._into_host_array(small):
                    return True
                derived |= self.facts.names_written(small)
        for later in following:
            if not isinstance(later, cst.SimpleStatementLine):
                continue
            for small in later.body:
                if isinstance(small, cst.Assign) and self.facts.names_read(small.value) & derived:
                    if self._into_host_array(small):
                        return True
                    derived |= self.facts.names_written(small)
        return False

    def _into_host_array(self, assign: cst.Assign) -> bool:
        """`arr[i:j] = ...` into a NumPy array bound outside the loop around the assignment."""
        loops = self.facts.enclosing_loops(assign)
        if not loops:
            return False
        rebound = {name for n in self.facts.walk(loops[-1].node) if isinstance(n, cst.Assign)
                   for t in n.targets for name in bound_names(t.target)}
        return all(isinstance(t.target, cst.Subscript) and isinstance(t.target.value, cst.Name)
                   and self.facts.kind(t.target.value) is Kind.NDARRAY and t.target.value.value not in rebound
                   for t in assign.targets)

    def _loop_own_list(self, node: cst.CSTNode, name: cst.Name) -> bool:
        """`name` is a Python list of this scope (not a helper's parameter) and `node` runs in a loop."""
        func = self.facts.enclosing_function(node)
        params = {p.name.value for p in func.params.params} if func is not None else set()
        return bool(self.facts.enclosing_loops(node)) and name.value not in params and self.facts.kind(name) is Kind.LIST

    def _through_detach(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """`node` with the `.detach()` calls and `.data` reads applied to it (`x.cpu().detach()`,
        `x.cpu().data`): they hand on the same values, so `.cpu().detach().numpy()` is one copy
        like `.detach().cpu().numpy()`, and is gathered or reported the same way."""
        while True:
            parent = self.facts.parent(node)
            if not (isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _SAME_VALUES):
                return node
            if parent.attr.value == "data":
                node = parent
                continue
            call = self.facts.parent(parent)
            if not (isinstance(call, cst.Call) and call.func is parent and not call.args):
                return node
            node = call

    def _back_to_tensor_later(self, node: cst.Call) -> bool:
        """`arr = x.cpu().numpy()`, NumPy work on `arr` (or values computed from it), then
        `torch.tensor(arr)` later in the same block: the copy is one end of ping-pong's round trip."""
        stmt = self.facts.statement_of(node)
        anchor: cst.CSTNode = stmt  # `with torch.no_grad(): probs = ...cpu().numpy()`: the block after the `with`
        while isinstance(self.facts.parent(anchor), cst.IndentedBlock) and isinstance(self.facts.parent(self.facts.parent(anchor)), cst.With):
            anchor = self.facts.parent(self.facts.parent(anchor))
        block = self.facts.parent(anchor)
        body = block_statements(block)
        if not isinstance(stmt, cst.SimpleStatementLine) or through_with(self.facts, stmt, block) is not anchor \
                or anchor not in body \
                or not any(isinstance(s, cst.Assign) and _inside(self.facts, node, s.value) for s in stmt.body):
            return False
        derived = set(self.facts.names_written(stmt))
        for later in body[body.index(anchor) + 1 :]:
            for call in self.facts.calls_in(later):
                if (self.facts.qualified_name(call.func) or "") in _BACK_TO_TENSOR \
                        and any(self.facts.names_read(a.value) & derived for a in call.args):
                    return True
            if not isinstance(later, cst.SimpleStatementLine):
                continue
            for small in later.body:
                if isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and small.value is not None \
                        and self.facts.names_read(small.value) & derived:
                    derived |= self.facts.names_written(later)
        return False

    def _every_n(self, node: cst.CSTNode) -> Callable[[Loop], str]:
        stmt = self.facts.statement_of(node)
        body = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ()
        code = "; ".join(self.facts.module.code_for_node(s) for s in body) or "..."
        return lambda loop: f"if {_counter(loop)} % 100 == 0:  # read the value every 100 steps only\n    {code}"

    # --- reporting -----------------------------------------------------------------------

    def _site(self, node: cst.CSTNode, what: str, hint: Callable[[Loop], str],
              value: cst.BaseExpression | None = None, per_row: str | None = None) -> None:
        """Report a sync at `node` if it runs on every step. `value` is the tensor read when the
        read can become `value.detach()` (`.item()`, `float(t)`); `hint` gives suggested code;
        `per_row` says why a read of one row per iteration of a loop over rows is not batched."""
        loop, state, adapting = hot_loop(self.facts, node), None, False
        if loop is None:
            loop = self._device_state_loop(node)
            state = _carried_state(self.facts, loop) if loop is not None else None
            value = None  # outside a training/evaluation loop: a hint, no accumulation rewrite
        if loop is None:
            loop = self._adaptation_task_loop(node)
            adapting = loop is not None  # a meta-test's task loop: each task trains by hand (a hint, no rewrite)
            value = None if adapting else value
        if loop is None or not self._every_step(node, loop):
            return
        training = state is None and (adapting or self._step_kind(node) == "train")
        if not training and state is None and program_trains(self.facts) and not self._inside_a_training_step(node):
            state = self._carried_through_pass(node, loop)
            if state is None:
                return  # an evaluation pass of a program that trains: a small share of the run (label49, `_training_program`)
            value = None  # a sampler's chain, not a pass over batches: a hint, no accumulation rewrite
        when = f"on every {'training' if training else 'evaluation'} step" if state is None else \
            f"on every iteration of a loop that carries `{state}` on the device from one iteration to the next"
        needs = self._host_consumer(node) or self._environment_action(node)
        if needs == _ENVIRONMENT or self._already_on_host(node) or self._written_out_later(node):
            return
        if self._decides_the_step(node):
            return
        if needs is not None:
            self.report(node, f"{what} {when} for {needs}, which needs a Python value: the sync "
                        "may be the program's own need; it costs a device wait each step",
                        fix=Fix(description="if the value can stay a tensor (a device-side alternative), keep it "
                                "there; otherwise this copy is required", suggestion=hint(loop), safe=False),
                        severity=Severity.LOW)
            return
        if not training and state is None and self._copied_right_after(node):
            return
        message = (
            f"{what} {when}: the CPU waits for all queued GPU work each time "
            "(a device sync), so the GPU idles while Python prepares the next step"
        )
        severity = Severity.HIGH if training else Severity.MEDIUM
        earlier = self._earlier_wait_in_the_step(node, loop) if training and state is None else None
        shown = shown_by(self.facts, node) if earlier is None else None
        beside = shown_read_beside(self.facts, node, self._device_tensor) \
            if training and state is None and earlier is None and shown is None else None
        if earlier is not None or beside is not None:  # the step waits anyway: this read adds a second, shorter wait
            message = (f"{what} {when}: a second device sync in a step that already has one "
                       f"({earlier or f'{beside}, which the program shows every step'}), so this read adds a wait for "
                       "the work queued between the two, not the step's only one")
            severity = Severity.LOW
        later = shown_read_beside(self.facts, node, self._device_tensor, after=True) \
            if training and state is None and severity is Severity.HIGH and shown is None else None
        if later is not None:  # recall 66: this read is the step's wait; the display after it reads again
            message += (f"; the program also shows a device value every step ({later}), which waits again "
                        "after this read: keeping this value on the device moves the step's wait there unless "
                        "the display runs every N steps")
        if shown is not None:  # deb61: the program shows the value every step; name the display and the trade-off
            message = (f"{what} {when} for a per-step display (`{shown}`): each read waits for all queued GPU work "
                       "(a device sync), so the GPU idles while Python prepares the next step; showing the value "
                       "every N steps (or a running value kept on the device, read every N steps) leaves one wait in N")
        if training and state is None and severity is Severity.HIGH:
            self._step_reads.setdefault(id(loop.node), []).append(node)
        fix = self._accumulation_fix(node, value, loop) if value is not None else None
        if fix is None and per_row is not None:
            fix = Fix(description=f"read every row's value at once, before the loop over rows (one copy, one sync); {per_row}",
                      suggestion=ROW_HINT, safe=False)
        if fix is None:
            fix = Fix(
                description="keep the value on the device (`.detach()`) and read it once after the loop, "
                "or only every N steps",
                suggestion=hint(loop),
                safe=False,
            )
        self.report(node, message, fix=fix, severity=severity)

    def _earlier_wait_in_the_step(self, node: cst.CSTNode, loop: Loop) -> str | None:
        """What makes the step wait for the device before `node` every time, unless the program
        changes it: GradScaler's flag read (deb61) or a branch on a device value (pub50 p03)."""
        scaler = scaler_step_in_the_same_step(self.facts, node)
        if scaler is not None:
            return f"`{scaler}`: GradScaler reads its inf/NaN flags with `.item()` before the optimizer step"
        branch = self._branch_wait_in_the_step(node, loop)
        if branch is not None:
            return f"`{branch[1]}` at line {branch[0]}, a branch on a device value every step"
        read = self._read_before_in_the_step(node, loop)
        if read is not None:
            return f"`{read[1]}` at line {read[0]}, read earlier in the same step"
        helper = self._helper_wait_in_the_step(node, loop)
        if helper is not None:
            line, call, name, wait = helper
            return f"`{call}` at line {line}, which waits inside `{name} every call (`{wait}`)"
        before_call = self._read_before_the_helper_call(node, loop)
        if before_call is not None:
            return f"`{before_call[0]}`, read in the step before it calls `{before_call[1]}`"
        return None

    def _read_before_the_helper_call(self, node: cst.CSTNode, loop: Loop) -> tuple[str, str] | None:
        """(read, helper) when `node` sits in a helper the step calls, and the step reads a device
        tensor with `.item()` before every such call (public check 55 p04: `train_losses.append(
        loss.item())`, then `train_acc += acc(output, labels)`, whose `acc` returns `torch.sum(pred ==
        label).item()`): the helper's read is the step's second wait, as a second read in the loop body
        is (pub53). Only when `node` runs on every call of the helper (no branch, loop or `try` of
        the helper around it), and every call of the helper in `loop` is a plain statement of its
        body (no branch around it) after such a read. None otherwise."""
        func = self.facts.enclosing_function(node)
        if func is None or not uses_device(self.facts):
            return None
        for anc in self.facts.ancestors(node):
            if anc is func:
                break
            if isinstance(anc, (cst.If, cst.IfExp, cst.Try, cst.For, cst.While, cst.BaseComp, cst.Lambda, cst.FunctionDef)):
                return None
        sites = self.facts.per_iteration_call_sites(func)
        found: tuple[str, str] | None = None
        for owner, call in sites:
            if not any(a is loop.node for a in owner.ancestors(call)):
                continue  # a call in another loop (the validation pass) is judged there
            read = _item_read_before(owner, call, loop)
            if read is None:
                return None
            found = found or (read, self.facts.code(call.func) if owner is self.facts else owner.code(call.func))
        return found

    def _read_before_in_the_step(self, node: cst.CSTNode, loop: Loop) -> tuple[int, str] | None:
        """(line, code) of a host read already reported in this step as its wait (a training-step
        read at high severity) whose statement runs before `node` on every path to it: it sits in
        a block around `node`, before the statement that holds `node`, not inside a branch or an
        inner loop (pub53: `loss.mean().item()` then `(pred == y).sum().item()` in one step, or
        `logits.cpu()` for a decode then `loss.item()`). The later read waits only for the work
        queued between the two. None without one."""
        reads = self._step_reads.get(id(loop.node)) or []
        for _, _, before in self._way_out_to_the_step(node, loop):
            for read in reversed(reads):
                if any(self.facts.statement_of(read) is stmt for stmt in before):
                    return self.facts.position(read).start.line, self.facts.code(read)
            for stmt in before:  # prec64: the earlier read sits in a `with` body, or in every arm of an `if`
                read = self._read_whenever_completed(stmt, reads)
                if read is not None:
                    return self.facts.position(read).start.line, self.facts.code(read)
        return None

    def _read_whenever_completed(self, stmt: cst.CSTNode, reads: list[cst.CSTNode]) -> cst.CSTNode | None:
        """A read of `reads` that has run whenever the compound statement `stmt` has run to its
        end: a plain statement of a `with` body (`with torch.autocast(...): ...; loss_sum +=
        loss.item()`), or one in every arm of an `if` that has an `else` (each arm of public
        check 37 p02's mixup gate reads its own loss). A later statement of the step runs only
        after `stmt` ran to its end (a `continue`, `break` or `return` in it skips the later one
        too), so the read has already drained the GPU. Loops (may run no round) and `try` (an
        exception may cut the body short) give None, as do plain statements (the caller's own test);
        the exception is an inner loop that runs a round for sure (`for _ in range(5):`, public check
        54 p02's critic steps, each reading its loss before the generator's read), whose body has no
        `continue` or `break`: its own step reads, kept under its own node, count."""
        if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
            return self._read_in_block(stmt.body, reads)
        if isinstance(stmt, cst.For) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock) \
                and self._runs_a_round(stmt.iter) \
                and not any(isinstance(n, (cst.Continue, cst.Break)) for n in self.facts.walk(stmt.body)):
            return self._read_in_block(stmt.body, self._step_reads.get(id(stmt)) or [])
        if isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock) and stmt.orelse is not None:
            first = self._read_in_block(stmt.body, reads)
            if first is None:
                return None
            other = self._read_whenever_completed(stmt.orelse, reads) if isinstance(stmt.orelse, cst.If) \
                else self._read_in_block(stmt.orelse.body, reads) if isinstance(stmt.orelse.body, cst.IndentedBlock) else None
            return first if other is not None else None
        return None

    def _runs_a_round(self, iterable: cst.BaseExpression) -> bool:
        """`range(n)` with `n` a positive integer literal, or a name whose value here is one
        (`CRITIC_STEPS = 5`): the loop body runs at least once."""
        if not (isinstance(iterable, cst.Call) and (self.facts.qualified_name(iterable.func) or "") == "builtins.range"
                and len(iterable.args) == 1 and iterable.args[0].keyword is None and iterable.args[0].star == ""):
            return False
        count: cst.BaseExpression | None = iterable.args[0].value
        if isinstance(count, cst.Name):
            count = self.facts.value_of(count)
        return isinstance(count, cst.Integer) and int(count.value, 0) > 0

    def _read_in_block(self, block: cst.IndentedBlock, reads: list[cst.CSTNode]) -> cst.CSTNode | None:
        """The first read of `reads` that runs whenever `block` runs to its end (its own plain
        statements, or nested as `_read_whenever_completed` allows)."""
        for stmt in block.body:
            plain = next((read for read in reads if self.facts.statement_of(read) is stmt), None)
            if plain is not None:
                return plain
            nested = self._read_whenever_completed(stmt, reads)
            if nested is not None:
                return nested
        return None

    def _helper_wait_in_the_step(self, node: cst.CSTNode, loop: Loop) -> tuple[int, str, str, str] | None:
        """(line, call, helper, wait) of a call, in a plain statement before `node` in the same
        iteration of `loop`, to a program function that waits for the device on every call (a
        boolean-mask read, `.item()`, `nonzero` in its body or a helper it calls, under no branch
        or `try`: misses63, public check 51 p03's `run_snn` before `loss_val.item()`): the step
        already drains the GPU there. None without one."""
        if not uses_device(self.facts):
            return None
        for _, _, before in self._way_out_to_the_step(node, loop):
            for stmt in before:
                if not isinstance(stmt, cst.SimpleStatementLine):
                    continue
                for call in self.facts.calls_in(stmt):
                    found = self._waiting_helper(call, 2)
                    if found is not None:
                        return self.facts.position(call).start.line, self.facts.code(call.func) + "(...)", *found
        return None

    def _waiting_helper(self, call: cst.Call, depth: int) -> tuple[str, str] | None:
        """(helper name with its closing backtick, and the helpers it goes through; the wait) when
        `call` runs a program function that waits for the device every time it runs (through at
        most `depth` levels of helpers)."""
        if depth <= 0:
            return None
        if not (isinstance(call.func, cst.Name) or (isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)
                                                    and call.func.value.value == "self")):
            return None  # `opt.step()`: a method found by its name alone may be another class's
        own_class = self.facts.enclosing_class(call) if isinstance(call.func, cst.Attribute) else None
        for func in self.facts._callees(call):
            owner = self._owner_of(func)
            if owner is None or not isinstance(func, cst.FunctionDef) or any(a is func for a in self.facts.ancestors(call)):
                continue  # (a recursive call: the wait it would name is the read itself)
            if isinstance(call.func, cst.Attribute) and (own_class is None or owner is not self.facts
                                                         or self.facts.enclosing_class(func) is not own_class):
                continue  # `self.m()`: only the enclosing class's own method
            judged = self._judged_in(owner)
            for inner in owner.walk(func.body):
                if not judged._runs_whenever_called(inner, func):
                    continue
                wait = judged._plain_wait(inner)
                if wait is not None:
                    return f"{func.name.value}`", wait
                if isinstance(inner, cst.Call) and depth > 1:
                    deeper = judged._waiting_helper(inner, depth - 1)
                    if deeper is not None:
                        return f"{func.name.value}` (through `{deeper[0]})", deeper[1]
        return None

    def _owner_of(self, func: FunctionNode) -> Facts | None:
        """The unit (this one or an earlier cell) whose tree holds `func`."""
        for unit in (self.facts, *earlier_cells(self.facts)):
            if any(f is func for f in unit.functions.values()):
                return unit
        return None

    def _runs_whenever_called(self, node: cst.CSTNode, func: cst.FunctionDef) -> bool:
        """`node` runs each time `func` runs: no branch, `try`, `while`, nested function, lambda
        or comprehension between them (a `for` loop's rounds count)."""
        for anc in self.facts.ancestors(node):
            if anc is func:
                return True
            if isinstance(anc, (cst.If, cst.IfExp, cst.Try, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef,
                                cst.BaseComp, cst.BooleanOperation)):
                return False
        return False

    def _plain_wait(self, node: cst.CSTNode) -> str | None:
        """`node` reads a device value on the host: a boolean-mask read (not a store) of device
        values, `.item()` or `nonzero` of a device tensor. Its code, else None."""
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and not isinstance(self.facts.parent(node), cst.AssignTarget):
            mask = node.slice[0].slice.value
            if self._boolean_tensor(mask) and (self._device_chain(node.value, set()) or self._device_chain(mask, set())):
                return self.facts.code(node)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not node.args \
                and node.func.attr.value in ("item", "nonzero") and self._device_tensor(node.func.value):
            return self.facts.code(node)
        return None

    def _branch_wait_in_the_step(self, node: cst.CSTNode, loop: Loop) -> tuple[int, str] | None:
        """(line, test) of an `if` on a device tensor on the way to `node` in the same iteration of
        `loop` (an `if` around `node`, or one before it in a block around it) that runs on every
        step (`if mask.any():`, pub50 p03): the step already drains the GPU there, so a read at
        `node` is a second wait of the step, not what first stalls it. None without one."""
        if not uses_device(self.facts):
            return None
        for anc, child, before in self._way_out_to_the_step(node, loop):
            if isinstance(anc, cst.If) and child is anc.body and self._waits_every_step(anc, loop):
                return self.facts.position(anc.test).start.line, f"if {self.facts.code(anc.test)}:"
            for stmt in before:
                if isinstance(stmt, cst.If) and self._waits_every_step(stmt, loop):
                    return self.facts.position(stmt.test).start.line, f"if {self.facts.code(stmt.test)}:"
        return None

    def _way_out_to_the_step(self, node: cst.CSTNode, loop: Loop
                             ) -> Iterator[tuple[cst.CSTNode, cst.CSTNode, list[cst.BaseStatement]]]:
        """From `node` out to the body of `loop` (never past it, nor out of a function): each
        enclosing node, the child on the way, and, for a block, the statements that run before
        that child in the same iteration, the latest first (what may already have waited)."""
        child = node
        for anc in self.facts.ancestors(node):
            if anc is loop.node or isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                return
            before = list(takewhile(lambda stmt: stmt is not child, anc.body))[::-1] \
                if isinstance(anc, cst.IndentedBlock) else []
            yield anc, child, before
            child = anc

    def _waits_every_step(self, branch: cst.If, loop: Loop) -> bool:
        return self._device_test(branch.test) and self._every_step(branch.test, loop) \
            and not self._decides_the_step(branch.test)

    def _inside_a_training_step(self, node: cst.CSTNode) -> bool:
        """A loop around `node` back-propagates in its own body: the no-grad loop `node` runs in
        is part of that training step (an RL rollout before the episode's update), not an
        evaluation pass between epochs (label49)."""
        return any(steps_itself(self.facts, loop.node.body) for loop in self.facts.enclosing_loops(node))

    def _decides_the_step(self, node: cst.CSTNode) -> bool:
        """A branch whose value decides what this very step does, with no device-side spelling
        and no later moment to read it (noise48: a reader calls these the algorithm, not a cost):
        a decoding loop that stops on a token (`if tok.item() == EOS: break` or `return`: the
        loop's length is the value), and a guard that skips the rest of the step, its backward pass or optimizer
        step included (`if not torch.isfinite(loss): continue`: whether this batch updates the
        weights is the value). Early stopping on a threshold (`if loss < 0.05: break`), a branch
        that raises, and a `continue` that skips no update stay reported (low severity)."""
        branch, child = None, node
        for anc in self.facts.ancestors(node):
            if isinstance(anc, cst.If) and child is anc.test:
                branch = anc
                break
            if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Lambda, cst.BaseComp)):
                return False  # the read is not (part of) a branch's test
            child = anc
        if branch is None or not isinstance(branch.body, cst.IndentedBlock):
            return False
        test = branch.test
        if isinstance(test, cst.Comparison) and all(isinstance(t.operator, (cst.Equal, cst.NotEqual)) for t in test.comparisons) \
                and any(isinstance(small, (cst.Break, cst.Return)) for stmt in branch.body.body
                        for small in getattr(stmt, "body", ()) if isinstance(stmt, cst.SimpleStatementLine)):
            return True  # a stop token: `==`/`!=` (an index, not a threshold) and the loop ends there
        last = branch.body.body[-1] if branch.body.body else None
        if not (isinstance(last, cst.SimpleStatementLine) and last.body and isinstance(last.body[-1], cst.Continue)):
            return False
        following = self._following(branch)
        return bool(following) and any(
            isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in ("backward", "step")
            for later in following for n in self.facts.walk(later))

    def _step_kind(self, node: cst.CSTNode) -> str:
        """'train' or 'eval': the innermost training/evaluation loop around `node` decides (an
        evaluation loop inside a training epoch is evaluation; a `no_grad` block inside a training
        step, a PPO minibatch's KL estimate, is still that training step; a helper's own loop takes
        its caller's); outside both, autograd switched off is evaluation."""
        runs_in = self.facts.iteration_loop(node)
        loop = step_loop(self.facts, runs_in)
        if loop is not None and loop.kind == "train" and self._in_evaluation_phase(node):
            return "eval"  # `else: V.append(loss.item())` of `if e == 'train':` in a phase loop (pub65 p01)
        if loop is not None and loop.kind == "train" and (runs_in is loop or any(a is loop.node for a in self.facts.ancestors(node))):
            return "train"  # (a `no_grad` method the training step calls, a queue update of the model's `forward`)
        if loop is not None and loop.kind == "train" and self._in_optimizer_class(node):
            return "train"  # a hand-written optimizer's `@torch.no_grad()` `step`: the training step's weight update
        adapting = loop if loop is not None and loop.kind == "eval" else None
        while adapting is not None:
            if updates_weights_by_hand(self.facts, adapting):
                return "train"  # MAML's task loop and adaptation steps: a `no_grad` read of the query accuracy included
            adapting = adapting.parent
        if loop is not None and loop.kind == "eval" and grad_disabled(self.facts, node) \
                and self._helper_of_a_training_step(node):
            return "train"  # `with torch.no_grad():` inside a helper the training step calls (Jovian's `accuracy`)
        if grad_disabled(self.facts, node):
            return "eval"
        if loop is not None and loop.kind == "eval" and self._backward_after(loop):
            return "train"  # a decoder unrolled step by step, its summed loss back-propagated after the loop
        if loop is not None and loop.kind == "eval" and self._helper_of_a_training_step(node):
            return "train"  # `calc_accuracy(...)` called by the training loop and by the validation loop
        return loop.kind if loop is not None else "eval"

    def _in_optimizer_class(self, node: cst.CSTNode) -> bool:
        """`node` runs in a method of a class derived from a `torch.optim` optimizer (LARS's `step`):
        it updates the weights, whatever grad mode its decorator sets (pubre69 group 1)."""
        func = self.facts.enclosing_function(node)
        cls = self.facts.enclosing_class(func) if func is not None else None
        return cls is not None and self.facts.optimizer_class(cls)

    def _in_evaluation_phase(self, node: cst.CSTNode) -> bool:
        """The validation branch of a phase loop that toggles `.train()` / `.eval()` on the phase
        and back-propagates only under the training test (`_phase_loop`)."""
        phases = getattr(self, "_phase_tests", None)
        if phases is None:
            phases = self._phase_tests = phase_tests(self.facts, lambda call: True)  # the toggled model's own calls
        return in_evaluation_phase(self.facts, node, phases)

    def _helper_of_a_training_step(self, node: cst.CSTNode) -> bool:
        """`node` runs in a helper (outside any loop of its own) that some loop calls once per
        training step, even if another caller is an evaluation loop: the dearer verdict holds."""
        func = self.facts.enclosing_function(node)
        if func is None or self.facts.enclosing_loops(node):
            return False
        if _trains_per_step(self.facts.external_loop(func)):
            return True  # KGE's `forward`, run by `run.py`'s training loop and by `model.py`'s own test loop
        return _called_per_training_step(self.facts, func, _HELPER_LEVELS)

    def _backward_after(self, loop: Loop) -> bool:
        """The loop's function calls `.backward()` after the loop, outside any loop: the loop is
        the forward half of that training step (seq2seq `train()`: decode, then `loss.backward()`)."""
        func = loop.function
        if func is None or loop.parent is not None:
            return False
        end = max(self.facts.order(n) for n in self.facts.walk(loop.node))
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "backward"
                   and self.facts.order(c) > end and self.facts.enclosing_function(c) is func
                   and not self.facts.enclosing_loops(c) for c in self.facts.calls_in(func.body))

    def _host_consumer(self, node: cst.CSTNode) -> str | None:
        """What consumes the copied value on the host, when only a host value will do: a NumPy /
        SciPy / scikit-learn / environment call, `range(...)`, an index into a Python container,
        or a branch (Python control flow has no device alternative)."""
        child: cst.CSTNode = node
        method_call: cst.CSTNode | None = None
        for anc in self.facts.ancestors(node):
            if anc is method_call:
                child = anc
                continue
            if isinstance(anc, (cst.If, cst.While)) and child is anc.test:
                return "a Python branch"
            if isinstance(anc, cst.IfExp) and child is anc.test:  # `a if t > 0 else b` of values: `torch.where`
                return None if all(_plain_value(e) for e in (anc.body, anc.orelse)) else "a Python branch"
            if isinstance(anc, cst.Attribute) and anc.value is child and anc.attr.value in _SAME_VALUES_ON:
                method_call = self.facts.parent(anc)  # `.squeeze()`: the same values go on to the consumer
                if not (isinstance(method_call, cst.Call) and method_call.func is anc):
                    return None
                child = anc
                continue
            if isinstance(anc, cst.Call) and child is not anc.func:
                qualified = self.facts.qualified_name(anc.func) or ""
                if qualified.startswith(HOST_LIBRARIES) or qualified in _HOST_BUILTINS or qualified.startswith(_HOST_CONVERTERS):
                    return f"`{self.facts.code(anc.func)}`"
                maker = (self.facts.qualified_name(anc.func.func) or "") if isinstance(anc.func, cst.Call) else ""
                if maker.startswith(_HOST_CONVERTERS):
                    return f"`{self.facts.code(anc.func)}`"  # `ToPILImage()(x)`: a converter object made and called at once
                if isinstance(anc.func, cst.Attribute) and anc.func.attr.value == "step" \
                        and self.facts.kind(anc.func.value) is not Kind.OPTIMIZER:
                    return _ENVIRONMENT  # `env.step(action.item())`: the next step's input depends on it
                if qualified not in ("builtins.int", "builtins.float", "builtins.bool"):
                    return None
            elif isinstance(anc, cst.SubscriptElement) or isinstance(anc, cst.Index):
                pass
            elif isinstance(anc, cst.Subscript) and child is not anc.value:
                if self.facts.kind(anc.value) in (Kind.TENSOR, Kind.NDARRAY, Kind.UNKNOWN) and not on_host(self.facts, anc.value):
                    return None
                return f"indexing `{self.facts.code(anc.value)}`"
            elif not isinstance(anc, _PASS_THROUGH):
                return None
            child = anc
        return None

    def _environment_action(self, node: cst.CSTNode) -> str | None:
        """`action = actor(state).cpu().data.numpy().flatten()`, then (after host-side noise that
        rebinds it: `action = (action + noise).clip(-1, 1)`) `env.step(action)` in the same block:
        the action the loop hands to the environment, which the host must have each step (DDPG /
        TD3 `select_action`). A function of this unit that hands its parameter to NumPy
        (`env_step(s, a)` whose body calls `np.concatenate([a, ...])`) needs a host value too."""
        stmt = self.facts.statement_of(node)
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and _inside(self.facts, node, small.value)):
            return None
        following = self._following(stmt)
        if following is None:
            return None
        names = {small.targets[0].target.value}
        for later in following:
            for use in (n for n in self.facts.walk(later) if isinstance(n, cst.Name) and n.value in names):
                found = self._hands_to_host(use)
                if found is not None:
                    return found
            if not isinstance(later, cst.SimpleStatementLine):
                return None  # a branch or a loop: the flow is no longer one straight block
            for assign in later.body:
                if isinstance(assign, cst.Assign) and not self.facts.names_read(assign.value) & names:
                    names -= self.facts.names_written(assign)  # rebound from something else
        return None

    def _following(self, stmt: cst.CSTNode) -> list[cst.CSTNode] | None:
        """The statements after `stmt` in its block; from inside `with torch.no_grad(): a = ...`,
        the statements after the `with` follow too. None when `stmt` is not in a block's body."""
        following: list[cst.CSTNode] = []
        anchor: cst.CSTNode = stmt
        while True:
            body = block_statements(self.facts.parent(anchor))
            if anchor not in body:
                return None
            following += body[body.index(anchor) + 1 :]
            outer = self.facts.parent(self.facts.parent(anchor))
            if not (isinstance(self.facts.parent(anchor), cst.IndentedBlock) and isinstance(outer, cst.With)):
                return following
            anchor = outer

    def _hands_to_host(self, use: cst.Name) -> str | None:
        """`env.step(use)` (not an optimizer's), a slice bound (`queue[:, ptr:ptr + n]`: only a
        Python int will do there), or `f(..., use, ...)` with `f` a function of this unit that
        passes that parameter straight to a NumPy call."""
        bound: cst.CSTNode = use
        while isinstance(self.facts.parent(bound), (cst.BinaryOperation, cst.UnaryOperation)):
            bound = self.facts.parent(bound)
        if isinstance(self.facts.parent(bound), cst.Slice):
            return f"the slice bound in `{self.facts.code(self.facts.parent(bound))}`"
        arg = self.facts.parent(use)
        call = self.facts.parent(arg) if isinstance(arg, cst.Arg) and arg.value is use and not arg.star else None
        if not isinstance(call, cst.Call):
            return None
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "step" \
                and self.facts.kind(call.func.value) is not Kind.OPTIMIZER and not _optimizer_name(call.func.value):
            return _ENVIRONMENT
        func = self.facts.functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
        if func is None or any(a.star for a in call.args):
            return None
        param = parameter_filled(call, arg, positional_params(func))  # type: ignore[arg-type]
        if param is None or param in self.facts.names_written(func.body):
            return None
        for inner in self.facts.calls_in(func.body):
            if (self.facts.qualified_name(inner.func) or "").startswith(HOST_LIBRARIES) and any(
                    isinstance(n, cst.Name) and n.value == param for a in inner.args for n in self.facts.walk(a.value)):
                return f"`{func.name.value}` (its `{param}` goes to `{self.facts.code(inner.func)}`)"
        return None

    def _written_out_later(self, node: cst.CSTNode) -> bool:
        """`ims = xt.detach().cpu()`, then `grid = make_grid(ims)`, `ToPILImage()(grid).save(...)`
        later in the same block: the step writes the copied values out (an image, a plot, a file)
        every iteration, so the host needs them every iteration, like an environment's action."""
        stmt = self.facts.statement_of(node)
        following = self._following(stmt)
        if not isinstance(stmt, cst.SimpleStatementLine) or following is None \
                or not any(isinstance(s, cst.Assign) and _inside(self.facts, node, s.value) for s in stmt.body):
            return False
        derived = set(self.facts.names_written(stmt))
        for later in following:
            if not isinstance(later, cst.SimpleStatementLine):
                continue
            if not self.facts.names_read(later) & derived:
                continue
            for call in self.facts.calls_in(later):
                qualified = self.facts.qualified_name(call.func) or ""
                if qualified.startswith(_WRITERS) or (
                        isinstance(call.func, cst.Attribute) and call.func.attr.value in _WRITING_METHODS
                        and root_name(call.func.value) in derived) or self._writes_argument(call, derived):
                    return True
            for small in later.body:
                if isinstance(small, cst.Assign) and self.facts.names_read(small.value) & derived:
                    derived |= self.facts.names_written(later)
        return False

    def _writes_argument(self, call: cst.Call, derived: set[str]) -> bool:
        """`draw(y[0], 'r')` with `def draw(yi, color): plt.plot(x, yi[:n], color)`: a function of
        this unit that hands the parameter it is given the copied values for to a writer (a plot,
        an image, a file) and never rebinds it."""
        func = self.facts.functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
        if func is None or any(a.star for a in call.args):
            return False
        params = [p.name.value for p in func.params.params]
        given = {arg.keyword.value if arg.keyword is not None else params[i] if i < len(params) else ""
                 for i, arg in enumerate(call.args) if self.facts.names_read(arg.value) & derived}
        given -= self.facts.names_written(func.body) | {""}
        return any((self.facts.qualified_name(inner.func) or "").startswith(_WRITERS)
                   and any(self.facts.names_read(a.value) & given for a in inner.args)
                   for inner in self.facts.calls_in(func.body))

    def _already_on_host(self, node: cst.CSTNode) -> bool:
        """The statement just before (no call in between that could queue device work) copied
        this tensor to the host, or ended in a copy of another one (`pred = out.argmax(1).cpu().numpy()`
        before `gt = y.cpu().numpy()`) while this copy queues nothing of its own first: the device
        is already idle, and this copy waits for nothing."""
        if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
            return False
        copied = _copied_tensor(node, self.facts)
        tensor = self.facts.code(copied)
        stmt = self.facts.statement_of(node)
        block = self.facts.parent(stmt)
        body = block_statements(block)
        if stmt not in body:
            return False
        for earlier in reversed(body[:body.index(stmt)]):
            if self._copies_every_time(earlier, tensor):
                return True
            if self.facts.calls_in(earlier):
                return _ends_in_a_copy(earlier) and _dotted(copied)
        return False

    def _copied_right_after(self, node: cst.CSTNode) -> bool:
        """An evaluation step's read (`correct += (predict == y).sum().item()`) followed, with no
        call in between, by statements that copy a tensor it reads to the host whenever they run
        (`actual.extend(y.cpu())`): the step waits for the device there anyway, so dropping this
        sync alone saves nothing, and its rewrite is noise. A training step's read is still
        reported (its copies are all per-step cost worth naming)."""
        stmt = self.facts.statement_of(node)
        block = self.facts.parent(stmt)
        body = block_statements(block)
        if stmt not in body:
            return False
        read = self.facts.names_read(node)
        for later in body[body.index(stmt) + 1:]:
            if not self.facts.calls_in(later):
                continue
            return any(self._copies_every_time(later, tensor) for tensor in read)
        return False

    def _copies_every_time(self, stmt: cst.CSTNode, tensor: str) -> bool:
        """`stmt` copies `tensor` to the host whenever it runs: a simple statement, or one in a
        `with` block; not one under `if step % 100 == 0:` (most steps skip that copy)."""
        if isinstance(stmt, cst.With):
            return any(self._copies_every_time(s, tensor) for s in stmt.body.body)
        if isinstance(stmt, cst.If):
            return self._test_copies(stmt, tensor)
        return isinstance(stmt, cst.SimpleStatementLine) and self._copies_in(stmt, tensor)

    def _copies_in(self, node: cst.CSTNode, tensor: str) -> bool:
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value in _COPY_METHODS
                   and self.facts.code(_copied_tensor(c, self.facts)) == tensor for c in self.facts.calls_in(node))

    def _test_copies(self, branch: cst.If, tensor: str) -> bool:
        """`if tok.item() == EOS: break` before `out.append(tok.item())`: the test copied `tok`,
        and every arm that lets the step go on queues no device work, so the device is idle by
        the next statement and its copy of `tok` waits for nothing."""
        if not self._copies_in(branch.test, tensor):
            return False
        arms: list[cst.BaseSuite] = [branch.body]
        node: cst.If | cst.Else | None = branch.orelse
        while node is not None:
            arms.append(node.body)
            node = node.orelse if isinstance(node, cst.If) else None
        scope = self.facts.enclosing_function(branch)
        return all(_leaves_the_block(arm) or self._host_only(arm, scope) for arm in arms)

    def _host_only(self, arm: cst.BaseSuite, scope: FunctionNode | None) -> bool:
        """`pass`, `pads += 1`, `done = True`: Python values only, so no device work is queued
        (`h = h * 0.5` on a tensor would be, with no call to show it)."""
        for stmt in block_statements(arm) if isinstance(arm, cst.IndentedBlock) else [arm]:
            for small in getattr(stmt, "body", ()) if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else [None]:
                if isinstance(small, cst.Pass):
                    continue
                if isinstance(small, cst.AugAssign) and python_number(self.facts, small.target, scope) \
                        and python_number(self.facts, small.value, scope):
                    continue
                if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets) \
                        and (python_number(self.facts, small.value, scope) or _constant(small.value)):
                    continue
                return False
        return True

    def _every_step(self, node: cst.CSTNode, loop: Loop, depth: int = 3) -> bool:
        """`node` runs on every iteration: not in a branch (`if step % N == 0:`, the arms of
        `a if c else b`, `try`/`except`, the right of `and`/`or`), tests of branches included.
        A plain loop inside the step (`for tag, p in net.named_parameters():`) runs on every step
        only if nothing between it and the step loop branches: the walk goes up to the step loop."""
        stop = _step_node(loop)
        if self._apart_from_the_step(node, stop):
            return False
        child = node
        for anc in self.facts.ancestors(node):
            if anc is stop:
                return self._helper_loop_runs_every_step(loop, depth)
            if isinstance(anc, cst.If) and child is anc.body and steps_itself(self.facts, anc.body):
                child = anc  # `if len(memory) >= batch_size:` around the whole step: it runs on every step that trains
                continue
            if isinstance(anc, (cst.If, cst.IfExp)) and child is anc.body and self._tensor_type_test(anc.test):
                child = anc  # `if isinstance(v, torch.Tensor): v = v.item()`: true whenever a tensor is given
                continue
            if isinstance(anc, cst.If) and child is anc.body and (_has_gradient_test(anc.test)
                                                                  or self._optimizer_step_branch(anc, loop)):
                child = anc  # `if p.grad is not None:` (every trained parameter), the accumulation step's branch
                continue
            if isinstance(anc, cst.If) and isinstance(child, cst.Else) and self._warm_up_test(anc.test, node):
                child = anc  # `if t < len(prefix) - 1: ... else:`: every iteration after the first few
                continue
            if isinstance(anc, cst.If) and isinstance(child, cst.If) and child is anc.orelse and self._rarely_true(anc.test, node):
                child = anc  # `if step % 100 == 0: log() elif loss > 100.0:`: the `elif` is tested whenever the log is not due
                continue
            if isinstance(anc, (cst.If, cst.IfExp)) and child is not anc.test and self._gpu_arm(anc, child):
                child = anc  # `x.numpy() if not use_cuda else x.cpu().numpy()`: the arm every step takes on a GPU
                continue
            if isinstance(anc, cst.If) and child is anc.body and _other_arms_raise(anc):
                child = anc  # `if self.model_name in model_func: ... else: raise ValueError(...)`: a step that goes on ran it
                continue
            if isinstance(anc, cst.If) and child is not anc.test and self._every_arm_copies(anc):
                child = anc  # `if ema is None: ema = loss.item() else: ema = .9 * ema + .1 * loss.item()`: one arm runs
                continue
            if isinstance(anc, (cst.If, cst.IfExp)) and child is not anc.test:
                return False
            if isinstance(anc, (cst.Try, cst.TryStar)) and child is anc.body and steps_itself(self.facts, anc.body):
                child = anc  # the whole step in `try:` (`except Exception: continue` skips a failing batch): every step that trains
                continue
            if isinstance(anc, (cst.Try, cst.TryStar)) and child is anc.body and _whole_body(stop, anc):
                child = anc  # `for x, y in loader: try: ... except RuntimeError: continue`: every batch enters the `try`
                continue
            if isinstance(anc, (cst.Try, cst.TryStar, cst.ExceptHandler, cst.ExceptStarHandler)) \
                    or (isinstance(anc, cst.BooleanOperation) and child is anc.right):
                return False
            child = anc
        # A helper: once per iteration, unless every call of it sits in a branch of the step
        # (`if step % 500 == 0: val_logs = self._valid_epoch(step)`), here or in the unit that
        # calls it (a notebook's `evaluate()` defined in one cell, called in a later cell's loop).
        func = self.facts.enclosing_function(node)
        if func is not None and steps_itself(self.facts, func.body):
            return True  # the helper is the training step: a guard at its call (`if len(memory) > 32:`) picks when to train
        sites = self.facts.per_iteration_call_sites(func) if func is not None and depth > 0 else []
        return not sites or any(_same_entry_every_time(owner, call) and self._judged_in(owner)._every_step(call, loop, depth - 1)
                                for owner, call in sites)

    def _apart_from_the_step(self, node: cst.CSTNode, stop: cst.CSTNode | None) -> bool:
        """An earlier `if` in a block around `node` ends the arm that trains (`if train: ...;
        loss.backward(); opt.step(); return loss`), and `node` follows it without `else:`: `node`
        runs only where that arm is not taken, never in the training step, as in an `else:` arm
        (which the walk in `_every_step` reads as a branch). A guard that only skips
        (`if loss is None: continue`) trains nothing in its arm and changes nothing. Where the
        statements after the branch back-propagate too (`if not use_ema: ...; loss.backward();
        continue` and then the semi-supervised step), the two are alternative training steps and
        `node` runs in one of them: not apart (pub50)."""
        for branch, arm, _ in exclusive_arms_before(self.facts, node, stop):
            if not steps_itself(self.facts, arm):
                continue
            block = self.facts.parent(branch)
            rest = list(getattr(block, "body", ()))
            at = next((i for i, stmt in enumerate(rest) if stmt is branch), len(rest))
            rest = rest[at + 1:]
            if any(steps_itself(self.facts, stmt) for stmt in rest):
                continue  # a warm-up arm that trains and leaves, then the main step that trains too (pub50 p03)
            return True
        return False

    def _helper_loop_runs_every_step(self, loop: Loop, depth: int) -> bool:
        """`loop` is reached: it runs on every step unless it is a helper's own plain loop (`for i
        in range(n): img = to_image(batch[i])` in `save_images`) whose every call sits in a branch
        of the caller's step (`if epoch % 10 == 0 and i == 0: save_images(...)`): the helper's
        loop is the step only because the helper runs in one, so the caller's guard decides.
        Each call is judged against the step loop around it; a call outside any step keeps the
        old verdict (the loop was judged hot by its own)."""
        if loop.kind != "plain" or loop.parent is not None or loop.facts is not self.facts or depth <= 0:
            return True
        func = self.facts.enclosing_function(loop.node)
        if func is None or steps_itself(self.facts, func.body):
            return True
        sites = self.facts.per_iteration_call_sites(func)
        checked = [(owner, call, hot_loop(owner, call)) for owner, call in sites]
        if not checked or any(caller is None for _, _, caller in checked):
            return True
        return any(_same_entry_every_time(owner, call) and self._judged_in(owner)._every_step(call, caller, depth - 1)
                   for owner, call, caller in checked)

    def _every_arm_copies(self, branch: cst.If) -> bool:
        """`branch` and the `elif`s chained below it end in an `else`, and every arm copies a device
        tensor to the host in one of its own statements (not under a further branch): whichever arm
        runs, the step waits for the device, as if the copy were outside the `if`. An `elif` arm is
        judged again at its outer `if`, which holds it."""
        arms: list[cst.BaseSuite] = []
        node: cst.If | cst.Else | None = branch
        while isinstance(node, cst.If):
            arms.append(node.body)
            node = node.orelse
        if node is None:
            return False
        arms.append(node.body)
        return all(isinstance(arm, cst.IndentedBlock) and any(self._copies_unconditionally(s) for s in arm.body)
                   for arm in arms)

    def _copies_unconditionally(self, stmt: cst.BaseStatement) -> bool:
        """A simple statement that always runs a copy of a device tensor to the host: `.item()`,
        `.cpu()`, `.tolist()` of a tensor (or of an unknown receiver for `.item()`/`.cpu()`), or
        `float()`/`int()`/`bool()` of one; never under `a if c else b`, `and`/`or` or a comprehension.
        A `with` block (`with autocast(): ...`) runs its body: it is looked through."""
        if isinstance(stmt, cst.With):
            return any(self._copies_unconditionally(s) for s in stmt.body.body)
        if not isinstance(stmt, cst.SimpleStatementLine):
            return False
        for call in self.facts.calls_in(stmt):
            if any(isinstance(a, (cst.IfExp, cst.BooleanOperation, cst.ListComp, cst.GeneratorExp, cst.SetComp,
                                  cst.DictComp, cst.Lambda))
                   for a in self.facts.ancestors(call) if _inside(self.facts, a, stmt)):
                continue
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in ("item", "cpu", "tolist") and not call.args:
                receiver = func.value
                unknown = func.attr.value != "tolist" and self.facts.kind(receiver) is Kind.UNKNOWN
                if not on_host(self.facts, receiver) and (unknown or self._is_tensor(receiver)):
                    return True
            elif (self.facts.qualified_name(func) or "") in _CASTS and len(call.args) == 1 \
                    and self._is_tensor(call.args[0].value) and not on_host(self.facts, call.args[0].value):
                return True
        return False

    def _judged_in(self, owner: Facts) -> "HostSync":
        """This rule reading another unit (the cell or module holding a call site): branches,
        loops and names of that call are that unit's."""
        return self if owner is self.facts else HostSync(dataclasses.replace(self.ctx, facts=owner))

    def _gpu_arm(self, branch: cst.If | cst.IfExp, arm: cst.CSTNode) -> bool:
        """`arm` is the branch taken whenever the program runs on a CUDA device (the only runs where
        a device sync costs anything): the body of `if use_cuda:`, the `else` of `if not use_cuda:`."""
        test, negated = branch.test, False
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, negated = test.expression, True
        if not cuda_condition(self.facts, test):
            return False
        return arm is (branch.orelse if negated else branch.body)

    def _optimizer_step_branch(self, branch: cst.If, loop: Loop) -> bool:
        """`if (i + 1) % accum == 0: ...; optimizer.step()` in a loop whose body back-propagates
        outside the branch: gradient accumulation, the branch is the training step itself (what
        it reads, it reads once per optimizer step, not every N steps for logging)."""
        steps = any(self._steps_an_optimizer(c) and not self._loop_between(c, branch)
                    for c in self.facts.calls_in(branch.body))
        if not steps:
            return False
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "backward"
                   and not any(a is branch for a in self.facts.ancestors(c))
                   for c in self.facts.calls_in(loop.node.body))

    def _loop_between(self, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
        for anc in self.facts.ancestors(node):
            if anc is outer:
                return False
            if isinstance(anc, (cst.For, cst.While)):
                return True
        return False

    def _steps_an_optimizer(self, call: cst.Call) -> bool:
        """`optimizer.step()` or a gradient scaler's `scaler.step(optimizer)`: an optimizer by its
        type, or by its name where a trainer class got it from its caller (`self.optimizer`)."""
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "step":
            return False
        return any(self.facts.kind(e) is Kind.OPTIMIZER or _optimizer_name(e)
                   for e in (func.value, *(a.value for a in call.args)))

    def _tensor_type_test(self, test: cst.BaseExpression) -> bool:
        """`isinstance(v, torch.Tensor)` / `torch.is_tensor(v)`: a type check, not a rate limit
        (a metric logger's `update(loss=loss)` takes this branch on every step)."""
        if not isinstance(test, cst.Call) or not test.args:
            return False
        qualified = self.facts.qualified_name(test.func) or ""
        if qualified == "torch.is_tensor":
            return True
        if qualified == "builtins.hasattr" and len(test.args) == 2 and isinstance(test.args[1].value, cst.SimpleString) \
                and test.args[1].value.evaluated_value == "item":
            return True  # `v.item() if hasattr(v, "item") else v`: every tensor value takes the branch
        if qualified != "builtins.isinstance" or len(test.args) != 2:
            return False
        types = test.args[1].value
        spelled = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
        return any((self.facts.qualified_name(t) or "") == "torch.Tensor" for t in spelled)

    def _accumulation_fix(self, node: cst.CSTNode, value: cst.BaseExpression, loop: Loop) -> Fix | None:
        """`total += loss.item()` -> `total += loss.detach()`, and `total` read back once after the loop.

        Automatic only when `total` is touched nowhere else in the loop (so no step sees a
        tensor where it saw a number), the loop cannot leave by `return`/`yield`, and the
        conversion after the loop (`torch.as_tensor(total).item()`) gives the same Python
        number type as before, whether or not the loop ran.
        """
        stmt = self.facts.statement_of(node)
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            return None
        small = stmt.body[0]
        total, accumulated = _accumulation(small)
        torch = torch_alias(self.facts)
        if total is None or accumulated is None or torch is None or not _arithmetic_of(accumulated, node):
            return None
        loops = self.facts.enclosing_loops(stmt)
        if not loops or loops[0] is not loop or loop.node.orelse is not None:
            return None
        uses = sum(1 for n in self.facts.walk(loop.node) if isinstance(n, cst.Name) and n.value == total)
        if uses != sum(1 for n in self.facts.walk(small) if isinstance(n, cst.Name) and n.value == total):
            return None
        if any(isinstance(n, (cst.Return, cst.Yield, cst.Await)) for n in self.facts.walk(loop.node.body)):
            return None
        functions = [(self.facts, f) for f in self.facts.functions.values() if f is not loop.function]
        # every function of an earlier cell, methods included (red team 29b: a logger's `step`
        # method, defined in an earlier cell, rounding the global total mid-loop)
        earlier = [(cell, f) for cell in self.facts.prior.cells for f in cell.functions.values()]
        if any(_reads_global(owner, f, total) for owner, f in (*functions, *earlier)):
            return None  # a function (a logging helper called in the loop, say, of this cell or an earlier one) may read it mid-loop
        item = isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
        cast, unproven = self._exact_accumulation(value, accumulated, node, total, loop, item)
        scope = self.facts.enclosing_function(stmt)
        other = next((o for o in _operands(accumulated, node) if not python_number(self.facts, o, scope)), None)
        if other is not None and not unproven:
            unproven = f"`{self.facts.code(other)}` is not proven to be a Python int or float: a NumPy scalar " \
                "(`float * np.float32` is an np.float32, rounded as one) or a tensor makes the running total one, " \
                "which the float64 tensor read back with `.item()` is not"
        atom = isinstance(value, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not value.lpar
        kept = f"detach(){cast}"
        new_value = f"{self.facts.code(value)}.{kept}" if atom else f"({self.facts.code(value)}).{kept}"
        if item:  # `x.item()`: rename the method
            change: tuple[Edit, ...] = (replace(self.facts, node.func.attr, kept[: -len("()")]),)  # type: ignore[union-attr]
        else:  # `float(x)`: unwrap, touching only the call's own text (edits inside `x` compose)
            call, arg = self.facts.position(node), self.facts.position(value)
            change = (
                Edit(call.start.line, call.start.column, arg.start.line, arg.start.column, "" if atom else "("),
                Edit(arg.end.line, arg.end.column, call.end.line, call.end.column, f".{kept}" if atom else f").{kept}"),
            )
        read_back = f"{total} = {torch}.as_tensor({total}).item()"
        if cast == ".double()" and _float64_read_back(self.facts, total, loop):
            read_back = f"{total} = {torch}.as_tensor({total}, dtype={torch}.float64).item()"
        edits = (
            *change,
            insert_after(self.facts, loop.node, read_back),
        )
        proven = self._is_tensor(value)
        not_tensor = "" if proven else f"`{self.facts.code(value)}` is not proven to be a tensor (on a NumPy value `.detach()` fails)"
        # both hazards: a value not proven a tensor may still be one, summed in its own dtype (public check 66 p04)
        review = "; ".join(filter(None, (not_tensor, unproven)))
        if not review and moves_in_loop(self.facts, loop.node):
            # `if epoch == 2: model.to(device)` inside the loop: the total starts as a host tensor and
            # `+=` of a device value into it raises; `.item()` gave Python numbers either way (red team 60)
            review = "the loop moves a model or its tensors between the host and the device: the running total " \
                "becomes a tensor on the device of the first step, and `+=` of a value from the other device raises"
        if not review and caught_in_loop(self.facts, node, loop.node):
            review = "the read runs inside a `try` whose handler catches what the step raises: read back after the " \
                "loop, a device error it would have raised there (and the handler skipped) surfaces after the loop"
        target = small.target if isinstance(small, cst.AugAssign) else small.targets[0].target  # type: ignore[union-attr]
        home = binding_scope(self.facts, target, total)  # the variable: a function's local, or the global
        out_of_place = read_out_of_place((self.facts, *self.facts.prior.units()), self.facts, total, home)
        review = "; ".join(filter(None, (review, self._read_out_of_sight(total, loop), out_of_place)))  # every hazard
        return Fix(
            description=f"accumulate on the device (`{new_value}`) and read `{total}` once after the loop",
            edits=edits,
            suggestion=f"{total} += {new_value}\n...\n{read_back}  # after the loop",
            review=review,
        )

    def _exact_accumulation(self, value: cst.BaseExpression, accumulated: cst.BaseExpression, node: cst.CSTNode,
                            total: str, loop: Loop, item: bool) -> tuple[str, str]:
        """(cast after `.detach()`, why the sum may differ: "" when proved exact).

        Python adds `.item()` values as float64 (floats) or exact ints; a tensor accumulates in
        its own dtype (float16/bfloat16 stall after a few thousand steps, float32 rounds sooner).
        Floats are accumulated as float64 (`.double()`: the same IEEE additions, in the same order);
        integers stay integers only where every other operand is an integer and the total starts
        as one; whatever the analysis cannot type is offered for review."""
        dtype = dtype_of(self.facts, value)
        fam = family(dtype)
        initial = _initial_value(self.facts, total, loop)
        if not isinstance(initial, (cst.Integer, cst.Float)):
            return "", f"`{total}` is not proven to start as a Python number before the loop: read back with " \
                "`.item()` it would change type"
        if fam is None:
            return "", f"the dtype of `{self.facts.code(value)}` is not known: a tensor sum rounds in that dtype " \
                "(a float16/bfloat16 sum stops growing after a few thousand steps, and float16 overflows past 65504), " \
                "not in float64 as Python's does; where the values are floats, `.double()` before summing keeps " \
                "Python's float64 sum"
        if item and fam in (INT, BOOL) and isinstance(initial, cst.Integer):
            if dtype not in _WIDE_INTEGERS:
                return "", f"`{self.facts.code(value)}` is not proven to be int64 or bool: a narrower integer tensor " \
                    "(uint8, int32) keeps its dtype in the sum and wraps around where Python's int does not"
            if _integer_arithmetic(accumulated, node):
                return "", ""
            return "", f"`{total}` stays an integer only if every operand of the sum is one: not proven"
        if may_use_mps(self.facts):
            return ".double()", "the sum is kept in float64 as Python does, and the `mps` device has no float64"
        if not isinstance(initial, cst.Float) and _initial_value_outside_a_loop(self.facts, total, loop):
            # (a float literal start is read back as float64: `_float64_read_back`)
            return ".double()", f"`{total}` starts as an int before a loop around this one and is carried across its " \
                "passes: a pass in which this loop runs no iteration (an empty loader, a step budget spent) reads back " \
                "the Python float an earlier pass left, and `torch.as_tensor(...)` makes it float32, rounding it " \
                "(as float64 it would turn the int start into a float)"
        return ".double()", ""

    def _read_out_of_sight(self, total: str, loop: Loop) -> str:
        """Why `total` may be read as a tensor where no read of its name shows in the loop: a
        namespace read by string (`globals()["total"]`, `eval`, `locals()`), a lambda reading it (an
        lr-scheduler's or a hook's, called by library code mid-loop), both looked for in this unit
        and the notebook's earlier cells; or an exception leaving the loop past the read-back to a
        handler, `finally` or the code after a `try` (a caller's, for a `global` sum). "" when none."""
        reader = namespace_reader(self.facts, objects=True)
        if reader:
            return f"the program reads variables by name (`{reader}()`): `{total}` may be " \
                "read mid-loop, where it is now a tensor"
        for unit in (self.facts, *self.facts.prior.units()):
            for node in unit.walk(unit.module):
                if isinstance(node, cst.Lambda) and total in unit.names_read(node.body) \
                        and total not in {p.name.value for p in node.params.params}:
                    return f"a lambda reads `{total}` (a callback a library may call mid-loop, where it is now a tensor)"
        reader = _module_reading_main(self.facts)
        if reader:
            return f"the local module `{reader}` reads the script's variables by name (`__main__`, a caller's frame): " \
                f"`{total}` may be read mid-loop, where it is now a tensor"
        if _exits_to_handler(self.facts, loop.node) or self._declared_outside(total, loop):
            return f"an exception leaving the loop (to a `try` around it, a `contextlib.suppress`, or out of its function) skips the read-back " \
                f"after it, and what runs next sees `{total}` as a tensor"
        return ""

    def _declared_outside(self, total: str, loop: Loop) -> bool:
        """`global total` / `nonlocal total` in the loop's function: code outside the function,
        run after an exception left it (a caller's handler), reads the sum."""
        return loop.function is not None and any(
            isinstance(n, (cst.Global, cst.Nonlocal)) and any(a.name.value == total for a in n.names)
            for n in self.facts.walk(loop.function.body))

    # --- types -----------------------------------------------------------------------------

    def _per_element_read(self, node: cst.Call, qualified: str, element: cst.BaseExpression) -> None:
        """`np.argmax([q[a] for a in actions])`: NumPy turns each 0-d device tensor into a number on
        its own, one copy and one device wait per element, where stacking them on the device and
        reading the one result costs one. Reported wherever a step runs it (a branch or an action
        the environment needs included: the value is needed, the per-element copies are not); a
        hint, as NumPy's result type differs from torch's (CUDA tensors even make NumPy raise)."""
        listed = self.facts.code(node.args[0].value)
        op = qualified.rsplit(".", 1)[-1]
        self.report(node, f"`{self.facts.code(node.func)}` of `{listed}`, a Python list of tensor elements "
                    f"(`{self.facts.code(element)}`), copies each element to the host on its own (a device wait per "
                    "element) every time it runs", fix=Fix(
                        description=f"stack the elements on the device and reduce there (`torch.stack({listed})`), "
                        "then read the one result", suggestion=f"torch.stack({listed}).{op}().item()", safe=False),
                    severity=Severity.MEDIUM)

    def _device_elements(self, listed: cst.BaseExpression) -> cst.BaseExpression | None:
        """The element expression of a list of tensor elements not on the host: a comprehension
        (`[r[a] for a in acts]`), or a name bound once to one, whose element indexes a tensor."""
        if isinstance(listed, cst.Name):
            sources = self.facts.value_sources(listed)  # (the bindings of its own scope)
            if not sources or len(sources) != 1:
                return None
            listed = sources[0]
        if not isinstance(listed, cst.ListComp):
            return None
        element = listed.elt
        if not (isinstance(element, cst.Subscript) and self._is_tensor(element.value)) or on_host(self.facts, element.value):
            return None
        return element

    def _device_tensor(self, expr: cst.BaseExpression) -> bool:
        """A tensor not known to be on the host: reading it waits for the device."""
        return self._is_tensor(expr) and not on_host(self.facts, expr)

    def _is_tensor(self, expr: cst.BaseExpression) -> bool:
        """A tensor, including comparisons of tensors and methods on them (`(p == y).sum()`)."""
        if self.facts.kind(expr) is Kind.TENSOR:
            return True
        if isinstance(expr, cst.Name):
            return expr.value in self._backpropagated(expr)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "data":
            return self._is_tensor(expr.value)  # `float(loss.data)`: the tensor's data is a tensor
        if isinstance(expr, cst.Comparison):
            return self._tensor_test(expr)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            return kind_of_method(Kind.TENSOR, expr.func.attr.value) is Kind.TENSOR and self._is_tensor(expr.func.value)
        return False

    def _backpropagated(self, node: cst.CSTNode) -> frozenset[str]:
        """Names `.backward()` is called on in `node`'s function (or at top level): tensors,
        whatever type inference made of the calls that built them (a `criterion` parameter)."""
        scope = self.facts.enclosing_function(node)
        cache = self.__dict__.setdefault("_backward_cache", {})
        if scope not in cache:
            body = scope.body if scope is not None else self.facts.module
            cache[scope] = frozenset(
                c.func.value.value for c in self.facts.calls_in(body)
                if isinstance(c.func, cst.Attribute) and c.func.attr.value == "backward" and isinstance(c.func.value, cst.Name)
                and (scope is not None or self.facts.enclosing_function(c) is None)
            )
        return cache[scope]

    def _device_test(self, test: cst.BaseExpression) -> bool:
        """A test whose truth value waits for device work: some tensor part of it not provably on
        the host. `i >= start and torch.rand(1) < p` (torchvision's RandomApply / the CutMix gate) is
        a Python comparison and a comparison of a host draw: nothing to wait for, though the whole
        `and` is no host expression `on_host` knows."""
        if isinstance(test, cst.BooleanOperation):
            return self._device_test(test.left) or self._device_test(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._device_test(test.expression)
        return self._tensor_test(test) and not on_host(self.facts, test)

    def _tensor_test(self, test: cst.BaseExpression) -> bool:
        """`t`, `t > 0`, `not t`, `a and t`: a test whose truth value comes from a tensor."""
        if isinstance(test, cst.Comparison):
            if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in test.comparisons):
                return False
            if _string_literal(test.left) or any(_string_literal(c.comparator) for c in test.comparisons):
                return False  # `mode == 'head-batch'`: a `str` field of the batch, whatever inference made of it
            return self._is_tensor(test.left) or any(self._is_tensor(c.comparator) for c in test.comparisons)
        if isinstance(test, cst.BooleanOperation):
            return self._tensor_test(test.left) or self._tensor_test(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._tensor_test(test.expression)
        return self._is_tensor(test)


def _module_reading_main(facts: Facts) -> str:
    """The name of a local module the unit imports (directly or through another) that can read
    the script's globals (`reaches_main`: `__main__`, a caller's frame, `sys.modules`). '' when
    none (or the unit was read without its local modules)."""
    return next((name for name, module in local_units(facts) if reaches_main(module)), "")


def _reads_global(facts: Facts, func: cst.FunctionDef, name: str) -> bool:
    """`func` (of `facts`' unit) reads the module's `name` (not a local of its own)."""
    if name not in facts.names_read(func.body):
        return False
    declared = any(isinstance(n, (cst.Global, cst.Nonlocal)) and any(a.name.value == name for a in n.names)
                   for n in facts.walk(func.body))
    params = named_params(func.params)
    return declared or name not in facts.names_written(func.body) | params


def _whole_body(stop: cst.CSTNode, stmt: cst.CSTNode) -> bool:
    """`stmt` is the only statement of the step loop's body: it runs on every iteration."""
    body = getattr(stop, "body", None)
    return isinstance(body, cst.IndentedBlock) and len(body.body) == 1 and body.body[0] is stmt


def _exits_to_handler(facts: Facts, loop_node: cst.CSTNode) -> bool:
    """`loop_node` runs in the body of a `try` (in its own function) that has a `finally`, or a
    handler that does not end by raising again, or of a `with contextlib.suppress(...)`: an
    exception leaving the loop lands in code that runs after the loop but before any statement
    inserted after it."""
    child: cst.CSTNode = loop_node
    for anc in facts.ancestors(loop_node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(anc, (cst.Try, cst.TryStar)) and child is anc.body:
            if anc.finalbody is not None or any(not _reraises(h.body) for h in anc.handlers):
                return True
        if isinstance(anc, cst.With) and child is anc.body and any(may_swallow(facts, item.item) for item in anc.items):
            return True  # `with contextlib.suppress(KeyboardInterrupt):` (an ExitStack, a manager of the program) swallows it
        child = anc
    return False


def _reraises(block: cst.BaseSuite) -> bool:
    """The handler's last statement is a `raise`."""
    body = block.body if isinstance(block, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise)


def _string_literal(expr: cst.BaseExpression) -> bool:
    """`'head-batch'`, `"a" "b"`, `f"{x}"`: a `str`; a tensor is never compared with one."""
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def _accumulation(small: cst.BaseSmallStatement) -> tuple[str | None, cst.BaseExpression | None]:
    """(`total`, added expression) for `total += e` and `total = total + e`."""
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) and isinstance(small.target, cst.Name):
        return small.target.value, small.value
    if (
        isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
        and isinstance(small.value, cst.BinaryOperation) and isinstance(small.value.operator, cst.Add)
        and isinstance(small.value.left, cst.Name) and small.value.left.value == small.targets[0].target.value
    ):
        return small.value.left.value, small.value.right
    return None, None


def _integer_arithmetic(expr: cst.BaseExpression, sync: cst.CSTNode) -> bool:
    """`sync` combined by + - * with integer literals, `len(...)`, `.size(...)`, `.numel()` or
    `.shape[...]` only: an integer tensor stays an exact integer."""
    if expr is sync:
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        left, right = _integer_arithmetic(expr.left, sync), _integer_arithmetic(expr.right, sync)
        return (left and _int_number(expr.right)) or (right and _int_number(expr.left))
    return False


def _int_number(expr: cst.BaseExpression) -> bool:
    return not isinstance(expr, (cst.Float, cst.Name)) and _plain_number(expr)


def _initial_value(facts: Facts, total: str, loop: Loop) -> cst.BaseExpression | None:
    """The literal `total` holds when `loop` starts: `total = 0`, `loss, n = 0.0, 0` in the
    statements before the loop (looking outwards through enclosing blocks of the same function)."""
    node: cst.CSTNode = loop.node
    for block in facts.ancestors(loop.node):
        body = getattr(block, "body", None)
        if isinstance(body, (list, tuple)) and node in body:
            for stmt in reversed(body[: body.index(node)]):
                if total not in facts.names_written(stmt):
                    continue
                small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
                if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                    return None
                target, value = small.targets[0].target, small.value
                if isinstance(target, cst.Name):
                    return value
                if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements):
                    return next((v.value for t, v in zip(target.elements, value.elements)
                                 if isinstance(t.value, cst.Name) and t.value.value == total), None)
                return None
        if isinstance(block, cst.FunctionDef):
            break
        node = block
    return None


def _float32_exact(literal: cst.Float) -> bool:
    """The literal's value survives a round trip through float32 (`0.0`, `1.5`; not `0.1`):
    `torch.as_tensor` of it, read back, gives it unchanged."""
    value = float(literal.value)
    return struct.unpack("f", struct.pack("f", value))[0] == value


def _float64_read_back(facts: Facts, total: str, loop: Loop) -> bool:
    """The float sum's read-back must make a float64 tensor: `total` starts as a float literal
    float32 cannot hold (`1e-8`), or is set outside a loop around this one, so that a pass of it in
    which this loop runs no iteration hands `torch.as_tensor` the Python float an earlier pass left
    (red team 32a: a run-wide sum under an epoch loop with a step budget). float32, the default,
    would round either; a float start keeps a float either way."""
    initial = _initial_value(facts, total, loop)
    return isinstance(initial, cst.Float) and (not _float32_exact(initial)
                                                or _initial_value_outside_a_loop(facts, total, loop))


def _initial_value_outside_a_loop(facts: Facts, total: str, loop: Loop) -> bool:
    """The statement `_initial_value` finds stands outside a `for`/`while` that encloses `loop`
    (in the same function): the total keeps what each pass of that loop left, not the literal
    (red team 32a: a run-wide sum under an epoch loop, read back as float32 when a pass is empty)."""
    node: cst.CSTNode = loop.node
    crossed = False
    for block in facts.ancestors(loop.node):
        body = getattr(block, "body", None)
        if isinstance(body, (list, tuple)) and node in body \
                and any(total in facts.names_written(stmt) for stmt in body[: body.index(node)]):
            return crossed
        if isinstance(block, cst.FunctionDef):
            break
        crossed = crossed or isinstance(block, (cst.For, cst.While))
        node = block
    return crossed


def _inside(facts: Facts, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    return node is outer or any(a is outer for a in facts.ancestors(node))


def _arithmetic_of(expr: cst.BaseExpression, sync: cst.CSTNode) -> bool:
    """`expr` is `sync` combined by + - * / with numbers: it stays valid on a 0-d tensor."""
    if expr is sync:
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ARITH):
        left, right = _arithmetic_of(expr.left, sync), _arithmetic_of(expr.right, sync)
        return (left and _plain_number(expr.right)) or (right and _plain_number(expr.left))
    return False


def _operands(expr: cst.BaseExpression, sync: cst.CSTNode) -> list[cst.BaseExpression]:
    """The operands `sync` is combined with in `expr` (`w` and `n` in `loss.item() * w / n`)."""
    if expr is sync:
        return []
    if isinstance(expr, cst.BinaryOperation):
        return [*_operands(expr.left, sync), *_operands(expr.right, sync)]
    return [expr]


def _plain_value(expr: cst.BaseExpression) -> bool:
    """A number, a name, an attribute or a subscript of one: a value `torch.where` can pick on the
    device. An arm that computes (a call: `F.smooth_l1_loss(out[pos], ...) if pos.any() else 0`)
    runs only when chosen, which `torch.where` would not keep (it runs both, NaN of an empty
    selection included): a Python branch."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.Name)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return _plain_value(expr.expression)
    if isinstance(expr, (cst.Attribute, cst.Subscript)):
        return not _has_call(expr)
    return False


def _has_call(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) or any(_has_call(child) for child in node.children)


def _plain_number(expr: cst.BaseExpression) -> bool:
    """A literal, a name, `len(...)`, `x.size(0)` or `x.shape[0]`: no sync, no side effect."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.Name)):
        return True
    if isinstance(expr, cst.Call):
        func = expr.func
        return (isinstance(func, cst.Name) and func.value == "len") or (isinstance(func, cst.Attribute) and func.attr.value in ("size", "numel"))
    if isinstance(expr, cst.Subscript):
        return isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape"
    return False


def _copied_tensor(node: cst.Call, facts: Facts | None = None) -> cst.BaseExpression:
    """`out.argmax(1)` for `out.argmax(1).cpu().tolist()` (and `.cpu().detach().numpy()`,
    `.cpu().data.numpy()`; with `facts`, `.to(cpu_device).numpy()`): the tensor before the copies."""
    expr: cst.BaseExpression = node
    while True:
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and (
                expr.func.attr.value in _COPY_METHODS | _SAME_VALUES or facts is not None and moves_to_cpu(facts, expr)):
            expr = expr.func.value
        elif isinstance(expr, cst.Attribute) and expr.attr.value == "data":
            expr = expr.value
        else:
            return expr


def _non_blocking(call: cst.Call) -> bool:
    """`.to("cpu", non_blocking=True)`: the copy is queued, the host does not wait for it."""
    return any(a.keyword is not None and a.keyword.value == "non_blocking" and not (
        isinstance(a.value, cst.Name) and a.value.value == "False") for a in call.args)


def _packing_lengths(facts: Facts, node: cst.Call) -> bool:
    """`lengths.cpu()` handed to `pack_padded_sequence` as its lengths: PyTorch requires them on
    the CPU, so the copy is the API's need, not a sync to avoid. Also through a name and a model
    (noise51, public check 36 p05): `lengths = lengths.cpu()` then `model(text, lengths)`, whose
    `forward` hands that parameter to `pack_padded_sequence` as its lengths."""
    arg = facts.parent(node)
    call = facts.parent(arg) if isinstance(arg, cst.Arg) else None
    if isinstance(call, cst.Call) and (facts.qualified_name(call.func) or "").rsplit(".", 1)[-1] in _PACKING:
        return arg.keyword.value == "lengths" if arg.keyword is not None else list(call.args).index(arg) == 1  # type: ignore[union-attr]
    return _packing_lengths_by_name(facts, node)


def _packed_parameters(facts: Facts) -> set[tuple[str, int]]:
    """(function name, position) of this unit's parameters a function hands on unchanged as the
    lengths of `pack_padded_sequence`; a method's `self` is not counted (`forward(self, x, lengths)`
    gives ("forward", 1), the position a call of the model passes it at)."""
    found: set[tuple[str, int]] = set()
    for func in (n for n in facts.walk(facts.module) if isinstance(n, cst.FunctionDef)):
        params = [p.name.value for p in func.params.params]
        if params[:1] == ["self"]:
            params = params[1:]
        for call in facts.calls_in(func):
            if (facts.qualified_name(call.func) or "").rsplit(".", 1)[-1] not in _PACKING:
                continue
            given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "lengths"), None)
            positional = [a.value for a in call.args if a.keyword is None]
            given = given if given is not None else positional[1] if len(positional) > 1 else None
            if isinstance(given, cst.Name) and given.value in params:
                found.add((func.name.value, params.index(given.value)))
    return found


def _packing_lengths_by_name(facts: Facts, node: cst.Call) -> bool:
    """`name = x.cpu()` whose every later read in its function is a positional argument of a call
    (a model's `__call__` or a function of this unit) at a position where this unit's `forward` or
    that function hands it to `pack_padded_sequence` as lengths: the copy is the API's need."""
    stmt = facts.parent(facts.parent(node))
    if not (isinstance(facts.parent(node), cst.Assign) and len(facts.parent(node).targets) == 1  # type: ignore[union-attr]
            and isinstance(facts.parent(node).targets[0].target, cst.Name)) or stmt is None:  # type: ignore[union-attr]
        return False
    name = facts.parent(node).targets[0].target.value  # type: ignore[union-attr]
    packed = _packed_parameters(facts)
    if not packed:
        return False
    defined = {n.name.value for n in facts.walk(facts.module) if isinstance(n, cst.FunctionDef)}
    scope = facts.enclosing_function(node) or facts.module
    after = [n for n in facts.walk(scope) if isinstance(n, cst.Name) and n.value == name
             and facts.order(n) > facts.order(node) and not facts.contains(node, n)]
    if not after:
        return False
    for use in after:
        arg = facts.parent(use)
        call = facts.parent(arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(call, cst.Call) or arg.keyword is not None or arg.star:  # type: ignore[union-attr]
            return False
        position = [a for a in call.args if a.keyword is None].index(arg)  # type: ignore[arg-type]
        callee = call.func.attr.value if isinstance(call.func, cst.Attribute) else \
            call.func.value if isinstance(call.func, cst.Name) else ""
        model_call = facts.qualified_name(call.func) is None and callee not in defined  # `model(...)`, not `print`/`np.sum`/`f`
        if (callee, position) not in packed and not (model_call and ("forward", position) in packed):
            return False
    return True


def _optimizer_name(expr: cst.BaseExpression) -> bool:
    """`optimizer`, `self.optimizer`, `opt`, `model_optim`: spelled as an optimizer."""
    name = expr.attr.value if isinstance(expr, cst.Attribute) else expr.value if isinstance(expr, cst.Name) else ""
    return "optim" in name.lower() or name.lower() in ("opt", "opt_g", "opt_d")


_HELPER_LEVELS = 2  # helpers above a helper: `fit` -> `_process_batch` -> `batch_accuracy`


def _called_per_training_step(facts: Facts, func: FunctionNode, levels: int) -> bool:
    """Some call of `func` runs once per training step with autograd on at the call: in a training
    loop, or in a helper (outside any loop of its own) that is itself so called, `levels` helpers up
    at most; other callers (an evaluation loop calling the same helper) do not change that."""
    for owner, call in facts.per_iteration_call_sites(func):
        if grad_disabled(owner, call):
            continue
        caller = step_loop(owner, owner.iteration_loop(call))
        if caller is not None and caller.kind == "train":
            return True
        helper = owner.enclosing_function(call)  # one level up: `TransE`, dispatched from that `forward`
        if helper is None or owner.enclosing_loops(call):
            continue
        if _trains_per_step(owner.external_loop(helper)) or levels and _called_per_training_step(owner, helper, levels - 1):
            return True
    return False


def _trains_per_step(loop: Loop | None) -> bool:
    """`loop` (another unit's, calling a helper once per iteration) is a training loop or runs in one."""
    found = step_loop(loop.facts, loop) if loop is not None else None
    return found is not None and found.kind == "train"


def _other_arms_raise(branch: cst.If) -> bool:
    """`branch` has an `else` (or `elif`s ending in one), and every arm but its body ends in a
    `raise`: whenever the step goes on, the body ran."""
    node = branch.orelse
    if node is None:
        return False
    while node is not None:
        last = node.body.body[-1] if isinstance(node.body, cst.IndentedBlock) and node.body.body else None
        if not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise)):
            return False
        node = node.orelse if isinstance(node, cst.If) else None
    return True


def _same_entry_every_time(facts: Facts, call: cst.Call) -> bool:
    """A call through a dispatch table (`model_func[self.model_name](...)`) runs the same entry on
    every step when its key is a constant or an attribute set only in `__init__` (the model's
    configured variant); any other call is the one function it names."""
    if not isinstance(call.func, cst.Subscript):
        return True
    key = call.func.slice[0].slice if len(call.func.slice) == 1 else None
    value = key.value if isinstance(key, cst.Index) else None
    if isinstance(value, (cst.SimpleString, cst.Integer)):
        return True
    if not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self"):
        return False
    defs = facts._defs.get("self." + value.attr.value, ())
    return bool(defs) and all(d.function is not None and d.function.name.value == "__init__" for d in defs)


def _has_gradient_test(test: cst.BaseExpression) -> bool:
    """`p.grad is not None`: a filter true for every parameter that trains, not a rate limit."""
    return isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
        and isinstance(test.comparisons[0].operator, cst.IsNot) and isinstance(test.comparisons[0].comparator, cst.Name) \
        and test.comparisons[0].comparator.value == "None" and isinstance(test.left, cst.Attribute) \
        and test.left.attr.value == "grad"


def _carried_state(facts: Facts, loop: Loop) -> str | None:
    """A name `loop`'s body binds from its own value (`x = F_ @ x`, `x, P = update(x, P, z)`) whose
    every binding before the loop makes a tensor on an accelerator (`torch.zeros(4, device=device)`,
    `.to(device)`, `.cuda()`, or `.clone()` of such a name)."""
    start = facts.order(loop.node)
    end = max(facts.order(n) for n in facts.walk(loop.node))
    scope = facts.enclosing_function(loop.node)
    for node in facts.walk(loop.node.body, into_scopes=False):
        if not isinstance(node, cst.Assign):
            continue
        bound = {n for t in node.targets for n in bound_names(t.target)}
        for name in sorted(bound & facts.names_read(node.value)):
            before = [d.value for d in facts._defs.get(name, ()) if d.value is not None
                      and facts.enclosing_function(d.value) is scope and not start <= facts.order(d.value) <= end]
            if before and all(_made_on_device(facts, v, 2, True) for v in before):
                return name
            if not before and _device_parameter(facts, name, scope, start, end):
                return name
    return None


def _device_parameter(facts: Facts, name: str, scope: cst.CSTNode | None, start: int, end: int) -> bool:
    """`z` of `def langevin(model, z, steps)`, bound again only inside the loop (`start`-`end`):
    a plain parameter to which every call of the function in the unit (one at least) passes a
    tensor made on the device (`torch.randn(..., device=device)`, `.to(device)`, or a name every
    binding of which is one). A call that leaves it to a default or unpacks arguments: not proved."""
    if not isinstance(scope, cst.FunctionDef):
        return False
    index = parameter_index(scope, name)
    if index is None or any(d.function is scope and d.loop is not None and not start <= d.order <= end
                            for d in facts._defs.get(name, ())):
        return False  # also a loop target outside the loop: not only the caller's tensor
    calls = [c for c in facts.calls_in(facts.module) if scope in facts._callees(c)]
    if not calls:
        return False
    for call in calls:
        given = argument_for(call, name, index)
        if isinstance(given, cst.Name):
            values = facts.assigned_values(given.value)
            if not values or not all(_made_on_device(facts, v, 2, True) for v in values):
                return False
        elif given is None or not _made_on_device(facts, given, 2, True):
            return False
    return True


# Tensor methods whose result lives where their receiver does (a copy, a view, a cast, an in-place fill).
_SAME_PLACE_METHODS = frozenset({"clone", "detach", "requires_grad_", "float", "double", "half", "contiguous", "view",
                                 "reshape", "unsqueeze", "squeeze", "flatten", "normal_", "uniform_", "fill_", "zero_"})


def _made_on_device(facts: Facts, expr: cst.BaseExpression, depth: int, through_ops: bool = False) -> bool:
    """`expr` makes a tensor on an accelerator: a move, a torch factory given such a device, a
    same-place method of one (`.detach()`, `.requires_grad_()`), or arithmetic with one
    (`torch.rand(n, 2, device=device) * 2 - 1`, recall 61: a device tensor combined with a number
    or a 0-d tensor stays on the device, and with a host tensor of more dimensions it raises). The
    last two only with `through_ops` (a carried state's start): `_device_derived` follows operators
    and methods itself, with its own depth."""
    if through_ops and isinstance(expr, cst.BinaryOperation):
        return _made_on_device(facts, expr.left, depth, True) or _made_on_device(facts, expr.right, depth, True)
    if through_ops and isinstance(expr, cst.UnaryOperation):
        return _made_on_device(facts, expr.expression, depth, True)
    if not isinstance(expr, cst.Call):
        return False
    if is_device_move(facts, expr):
        return True
    if any(a.keyword is not None and a.keyword.value == "device" and is_accelerator_device(facts, a.value) for a in expr.args) \
            and (facts.qualified_name(expr.func) or "").startswith("torch."):
        return True
    func = expr.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _SAME_PLACE_METHODS:
        return False
    if not isinstance(func.value, cst.Name):
        return through_ops and _made_on_device(facts, func.value, depth, True)
    if depth and func.attr.value in ("clone", "detach"):
        values = facts.assigned_values(func.value.value)
        return bool(values) and all(_made_on_device(facts, v, depth - 1, through_ops) for v in values)
    return False


def _step_node(loop: Loop) -> cst.CSTNode:
    """The node of the training/evaluation loop around the plain `loop` in the same function
    (`loop.parent` chain), else `loop`'s own: a helper's loop is judged at the helper's level."""
    outer: Loop | None = loop
    while outer is not None and outer.kind == "plain":
        outer = outer.parent
    return outer.node if outer is not None else loop.node


def _counter(loop: Loop) -> str:
    """The loop's step counter for an every-N guard: `i` in `for i, b in enumerate(...)`."""
    node = loop.node
    if isinstance(node, cst.For):
        target = node.target
        if isinstance(target, cst.Name) and isinstance(node.iter, cst.Call) and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range":
            return target.value
        if isinstance(target, cst.Tuple) and isinstance(node.iter, cst.Call) and isinstance(node.iter.func, cst.Name) \
                and node.iter.func.value == "enumerate" and isinstance(target.elements[0].value, cst.Name):
            return target.elements[0].value.value
    return "step"


_BACKWARD_HOOKS = frozenset({"register_hook", "register_full_backward_hook", "register_backward_hook",
                             "register_full_backward_pre_hook", "register_post_accumulate_grad_hook"})


def _registers_backward_hook(call: cst.Call) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in _BACKWARD_HOOKS


def _item_read_before(facts: Facts, call: cst.Call, loop: Loop) -> str | None:
    """The code of a `.item()` read of a device tensor in a plain statement that runs before
    `call` in the same iteration of `loop` (`call` under no branch, `try` or inner loop of that
    iteration); None without one, or when `call` is not in `loop`'s body."""
    child: cst.CSTNode = call
    for anc in facts.ancestors(call):
        if anc is loop.node:
            return None
        if isinstance(anc, (cst.If, cst.IfExp, cst.Try, cst.For, cst.While, cst.BaseComp, cst.Lambda, cst.FunctionDef,
                            cst.ClassDef)):
            return None
        if isinstance(anc, cst.IndentedBlock):
            parent = facts.parent(anc)
            for stmt in takewhile(lambda s: s is not child, anc.body):
                if not isinstance(stmt, cst.SimpleStatementLine):
                    continue
                for inner in facts.calls_in(stmt):
                    func = inner.func
                    if isinstance(func, cst.Attribute) and func.attr.value == "item" and not inner.args \
                            and facts.kind(func.value) is Kind.TENSOR and not on_host(facts, func.value):
                        return facts.code(inner)
            if parent is loop.node:
                return None
        child = anc
    return None
