"""`torch.zeros(n).to(device)`: the tensor is built on the CPU, then copied to the device."""

from __future__ import annotations

from typing import Any, cast

import libcst as cst

from ...fix.edits import replace
from ...model import Fix, Severity
from ..device_use import may_be_cuda_tensor_type, on_host, spells_cpu, unmoved_batch_field, uses_device
from ..constant_flags import in_dead_branch
from ..facts import Facts, Loop, method_of_object
from ..names import bound_names, dotted_name, keyword_arg, positional_params
from ..types import Kind
from ._attribute_stores import stored_device
from ._host_distributions import distribution_draw
from ._host_normal import host_normal_draw
from ._support import hot_loop, is_epoch_loop, step_function
from ._tensor_facts import (default_dtype_changed, dtype_name, invariant, keyed_device, names_a_device, program_methods, rarely_runs,
                            steps_itself_per_call)
from ._data_builder import builds_data_once
from .base import Rule, RuleContext
from .redundant_tensor import IDENTITY_WRAPPERS, WINDOWS, FactorySites

# Factories whose values are the same in any dtype: `torch.zeros(n).to(device, dtype=torch.double)`
# is `torch.zeros(n, device=device, dtype=torch.double)`.
_EXACT_IN_ANY_DTYPE = frozenset({"zeros", "ones", "empty", "eye"})
# Methods between the factory and `.to(device)` that give the same values wherever the tensor lives.
# Of those, the ones whose result shares one element among several positions: a move compacts it;
# and those that give a new compact tensor (a cast only where it changes a known dtype: `arange(n)[1::2].float()`
# copies; `zeros(4, n)[:, :3].float()` returns the view itself, see `_cast_copies`).
_SHARES_ROWS = frozenset({"expand"})
_COMPACTING = frozenset({"contiguous", "repeat", "float", "long", "double", "half", "bool", "int"})
_SAME_ON_DEVICE = frozenset({"unsqueeze", "squeeze", "view", "reshape", "expand", "t", "contiguous", "repeat", "tril", "triu",
                             "flatten", "float", "long", "double", "half", "bool", "int", "transpose", "permute"})

# Factories that, given `device=`, fill the tensor where it lives. Not `torch.tensor(data)` /
# `torch.as_tensor(data)`: given `device=`, they still fill a host tensor from the Python or
# NumPy data and copy it over (PyTorch's own note on `torch.tensor(..., device="cuda")`), so
# moving the device into the call saves nothing; an invariant one is `redundant-tensor`'s.
FACTORIES = frozenset({
    "zeros", "ones", "empty", "full", "arange", "eye", "linspace", "logspace",
    "zeros_like", "ones_like", "full_like", "empty_like",
}) | WINDOWS
_DEVICE_BUILDER = {"from_numpy": "as_tensor"}  # takes no `device=`: the array converts straight to the device
RANDOM_FACTORIES = frozenset({"rand", "randn", "randint", "randperm", "rand_like", "randn_like"})
# Every hint that moves a draw to the device says so: the same seed gives other numbers there.
_OTHER_DRAWS = "the device's generator draws other numbers than the CPU's, so results change (not the distribution)"
# In-place initialisers between the factory and the move (`torch.empty(n).normal_().cuda()`).
_IN_PLACE_FILLS = frozenset({"normal_", "uniform_", "bernoulli_", "exponential_", "geometric_", "log_normal_",
                             "cauchy_", "random_", "fill_", "zero_"})
_EXACT_FILLS = frozenset({"fill_", "zero_"})
_CASTS = {"long": "int64", "int": "int32", "short": "int16", "bool": "bool", "byte": "uint8", "char": "int8",
          "float": "float32", "double": "float64", "half": "float16"}
# The legacy constructors build on the CPU and take no `device=`: `torch.Tensor(ids).long().cuda()`.
LEGACY_CONSTRUCTORS = {"Tensor": "float32", "FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
                       "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16", "ByteTensor": "uint8",
                       "CharTensor": "int8", "BoolTensor": "bool"}


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

    def report(self, node: cst.CSTNode, message: str, *, fix: Fix | None = None, severity: Severity | None = None,
               **rest: Any) -> None:
        """Every finding of this rule says "copied to the device". In code where nothing puts a tensor on
        an accelerator (`device_use.uses_device`: no `.cuda()`, no accelerator device, here, in earlier
        cells or callers), the move follows an input's device (`.to(x.device)` in a device-generic
        module: public checks 41 p07 and 45 p02), which is the CPU as the program runs: the move is a
        no-op there, and the copy is paid only where the module runs on a GPU. Still worth the
        `device=` (free on the CPU, the copy gone on a GPU), so still reported, at low severity and saying so (deb61)."""
        if not uses_device(self.facts):
            message += ("; nothing in this program puts a tensor on an accelerator, so as it runs here the move is a "
                        "no-op: the copy is paid where this code runs on a GPU")
            severity = Severity.LOW
        super().report(node, message, fix=fix, severity=severity, **rest)

    def visit_Call(self, node: cst.Call) -> None:
        loop = self.facts.iteration_loop(node)
        if loop is not None and rarely_runs(self.facts, node, loop, every_few_count=True):
            return  # `if step % 1000 == 0: z = torch.randn(n, nz).cuda()`: not once per iteration
        if loop is not None and not self.facts.enclosing_loops(node) and steps_itself_per_call(self.facts, node):
            return
        if loop is not None and builds_data_once(self.facts, node):
            return  # a loop of the function that builds the data set once: one copy per item, once per run
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("to", "cuda"):
            self._through_wrapper(node)
            self._through_tensor_type(node)
            self._host_draw_through_converter(node)
            return
        factory, exact = _factory_under(self.facts, func.value)
        loop = self.facts.iteration_loop(node)
        if loop is not None and _draws_into_a_tensor(self.facts, func.value) \
                and (draw := _host_draw(self.facts, func.value, loop)) is not None:
            self._host_draw_moved(node, draw, f"`.{func.attr.value}(...)` copies the tensor of draws")
            return  # `torch.tensor([random.gauss(0, s) for _ in range(n)]).to(device)`
        if factory is None and isinstance(func.value, cst.BinaryOperation):
            if not self._scaled_draw_moved(node, func.value):
                self._host_arithmetic_moved(node, func.value, func.value)
            return
        if factory is None and isinstance(func.value, cst.Name):
            made = self.facts.value_of(func.value)  # `soft = one_hot(y)` ... `soft = soft.cuda()`
            if made is not None and not (isinstance(made, cst.Call) and self._from_helper(node, made)):
                self._moved_later(node, made)
            return
        if factory is not None and (dist := distribution_draw(self.facts, factory)) is not None:
            self._distribution_draw_moved(node, factory, dist)
            return  # `noise.sample((n,)).to(device)` of `MultivariateNormal(torch.zeros(2), torch.eye(2))`
        if factory is None or self._from_helper(node, factory):
            return
        if (self.facts.qualified_name(factory.func) or "") in _JOINS:
            self._joined(node, factory, exact)
            return
        qualified = self.facts.qualified_name(factory.func) or ""
        name = qualified.rsplit(".", 1)[-1]
        if qualified == f"torch.{name}" and name in LEGACY_CONSTRUCTORS:
            if self._device_arg(node) is not None and self.facts.iteration_loop(node) is not None \
                    and self._sites.site(factory) is None:
                self._legacy(node, func.value, factory, name, f".{func.attr.value}(...)")
            return
        if (draw := host_normal_draw(self.facts, factory, _factory_under)) is not None:
            self._host_normal_moved(node, draw)
            return
        if qualified == "torch.tensor" and func.value is factory and _filled_list(factory) is not None:
            self._filled_list_moved(node, factory)
            return
        if not qualified.startswith("torch.") or name not in FACTORIES | RANDOM_FACTORIES:
            return
        if any(a.keyword and a.keyword.value == "device" for a in factory.args):
            return
        if name.endswith("_like") and not (factory.args and on_host(self.facts, factory.args[0].value)):
            return  # `zeros_like(x)` is made where `x` lives: on the CPU only when `x` is
        device, dtype = self._device_arg(node), None
        if device is None and func.value is factory and name in _EXACT_IN_ANY_DTYPE:
            device, dtype = self._device_and_dtype(node, factory)
        like = self._like_tensor(node) if device is None and func.value is factory else None
        if like is not None:
            device = cst.Attribute(value=like, attr=cst.Name("device"))
        loop = self.facts.iteration_loop(node)
        step = step_function(self.facts, node) if loop is None else None
        if device is None or (loop is None and step is None) or self._host_device(device):
            return
        if self._sites.site(factory) is not None:
            return  # rebuilt from invariant data: `redundant-tensor` moves it out of the loop, device copy included
        if like is not None:
            self._moved_like(node, factory, name, like, step)
            return
        built = _with_device(factory, device)
        if dtype is not None:
            built = _with_device(built, dtype, "dtype")
        new_call = cast(cst.BaseExpression, func.value.deep_replace(factory, built))
        suggestion = self.facts.code(new_call)
        # `.cuda(None)` is the current GPU where `device=None` is the host: a `.cuda(x)` argument
        # moves to `device=` as it is only when it spells a device (an index, a string, torch.device).
        spelled = func.attr.value != "cuda" or isinstance(device, (cst.Integer, cst.SimpleString)) \
            or (isinstance(device, cst.Call) and (self.facts.qualified_name(device.func) or "") == "torch.device")
        # device generators draw other numbers; a window's cosines may round differently there
        safe = name not in RANDOM_FACTORIES | WINDOWS and exact and spelled and _device_keyword_keeps_meaning(factory)
        fix = Fix(
            description=f"create it on the device: `{suggestion}`",
            edits=(replace(self.facts, node, new_call),) if safe else (),
            suggestion=suggestion,
            safe=safe,
            review=_device_rounding(self.facts, factory, name) if safe else "",
        )
        if step is None and _once_per_epoch(self.facts, node):
            self.report(node, f"`torch.{name}(...)` is built on the CPU and copied to the device once per epoch (it runs "
                        "beside the batch loop, not in it: a small cost, a `device=` removes it)", fix=fix,
                        severity=Severity.LOW)
            return
        when = _each(step)
        self.report(node, f"`torch.{name}(...)` is built on the CPU and copied to the device {when}", fix=fix)

    def _filled_list_moved(self, node: cst.Call, factory: cst.Call) -> None:
        """`t = torch.tensor([i] * b).to(device)` in a DDPM sampler's step loop: a Python list of `b`
        copies of one number, converted on the host and copied over on every iteration, where
        `torch.full((b,), i, device=device)` fills it on the device. A hint: the fill's dtype is
        inferred from the value as `torch.tensor` infers it for numbers, but the value's type is not
        proved here (a 0-d tensor, a NumPy scalar)."""
        filled = _filled_list(factory)
        device = self._device_arg(node)
        loop = self.facts.iteration_loop(node)
        if filled is None or device is None or self._host_device(device) or loop is None \
                or self._sites.site(factory) is not None:
            return  # invariant: `redundant-tensor`'s (built once, device copy included)
        value, count = filled
        extra = "".join(f", {self.facts.code(a)}" for a in factory.args[1:] if a.keyword is not None
                        and a.keyword.value in ("dtype", "requires_grad"))
        suggestion = f"torch.full(({self.facts.code(count)},), {self.facts.code(value)}{extra}, device={self.facts.code(device)})"
        self.report(
            node,
            f"`{self.facts.code(node)}` builds a Python list of one repeated value, converts it on the CPU and copies "
            "it to the device on every iteration",
            fix=Fix(description=f"fill it on the device: `{suggestion}`", suggestion=suggestion, safe=False),
        )

    def _from_helper(self, node: cst.Call, call: cst.Call) -> bool:
        """`one_hot(y).cuda()`, `mask = make_mask(n)` ... `mask.to(device)`: a function of this
        unit, an earlier cell or a local module whose every return is a tensor it builds with a
        host factory, moved by the caller on every iteration. A hint: the helper, not this line,
        must take the device. Invariant calls are `redundant-tensor`'s (one finding per site)."""
        helper = self.facts._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
        if helper is None:  # `diffusion.sample_timesteps(n)`, `self.make_mask(n)`: a method of this unit's class
            found = method_of_object(self.facts, call.func)
            helper = found[1] if found is not None else None
        if helper is None or not isinstance(helper, cst.FunctionDef):
            return False
        loop = self.facts.iteration_loop(node)
        if loop is None or self._device_arg(node) is None:
            return True
        factory = _host_factory_returned(self.facts.owner_of(helper), helper, random=True,
                                         numbers=_number_parameters(helper, call))
        if factory is None or (factory.split("(")[0].split(".")[-1] not in RANDOM_FACTORIES and invariant(self.facts, call, loop)):
            return True  # an invariant build is `redundant-tensor`'s; a random draw changes every call
        random = factory.split("(")[0].split(".")[-1] in RANDOM_FACTORIES
        owner = self.facts.owner_of(helper)
        if not random and owner is self.facts and any(isinstance(n, cst.Call) and self._sites.site(n) is not None
                                                      for n in owner.walk(helper.body)):
            return True  # `redundant-tensor` reports the build in the helper (invariant inputs)
        self.report(
            node,
            f"`{self.facts.code(call.func)}(...)` builds its tensor on the CPU (`{factory}` in "
            f"`{helper.name.value}`) and `{self.facts.code(node.func)}` copies it to the device on every iteration",
            fix=Fix(description=f"give `{helper.name.value}` the device and create the tensor there "
                    f"(`{factory.split('(')[0]}(..., device=device)`): no host allocation and no copy per step"
                    + (f"; {_OTHER_DRAWS}" if random else ""),
                    safe=False),
        )
        return True

    def _moved_later(self, node: cst.Call, made: cst.BaseExpression) -> None:
        """`I = torch.eye(d)[None]` then `if trans.is_cuda: I = I.cuda()` (or `m = m.to(x.device)`):
        the factory and the copy are two statements. A hint: the factory must take the device the
        later statement (or its guard) names."""
        factory, _ = _factory_under(self.facts, made)
        if factory is None and isinstance(made, cst.BinaryOperation):
            self._host_arithmetic_moved(node, made, made)  # `t = torch.range(0, b - 1) * m + k` ... `t = t.cuda()`
            return
        if factory is not None and (dist := distribution_draw(self.facts, factory)) is not None:
            self._distribution_draw_moved(node, factory, dist, made)  # `gen = noise.sample(...)` ... `gen.to(device)`
            return
        qualified = (self.facts.qualified_name(factory.func) or "") if factory is not None else ""
        name = qualified.rsplit(".", 1)[-1]
        if factory is not None and qualified == f"torch.{name}" and name in LEGACY_CONSTRUCTORS:
            # `users = torch.Tensor(ids).long()` then `users = users.to(device)`: the inline case, in two statements
            if self._device_arg(node) is not None and self.facts.iteration_loop(node) is not None \
                    and self.facts.iteration_loop(factory) is not None and self._sites.site(factory) is None \
                    and self.facts.enclosing_function(factory) is self.facts.enclosing_function(node):
                self._legacy(node, made, factory, name, self.facts.code(node))
            return
        if factory is None or not qualified.startswith("torch.") \
                or (name not in FACTORIES | RANDOM_FACTORIES and not self._constant_array(factory, name)) \
                or name.endswith("_like") \
                or any(a.keyword and a.keyword.value == "device" for a in factory.args):
            return  # `target = torch.tensor(labels)` ... `target.to(device)`: a batch prepared, then moved
        if self._device_arg(node) is None or self.facts.iteration_loop(node) is None \
                or self.facts.iteration_loop(factory) is None \
                or self.facts.enclosing_function(factory) is not self.facts.enclosing_function(node):
            return  # built once before the loop: the copy each iteration is another matter
        if self._read_on_host_before(factory, node):
            return  # `sid = torch.randint(...)`, `sid.tolist()`, then `sid.to(device)`: the host copy is used
        self.report(
            node,
            f"`torch.{name}(...)` is built on the CPU (`{self.facts.code(node.func.value)}`, "  # type: ignore[attr-defined]
            f"line {self.facts.position(factory).start.line}) and copied to the device here on every iteration",
            fix=Fix(description=f"create it on the device where it is built (`torch.{_DEVICE_BUILDER.get(name, name)}(..., device=...)`, the "
                    "device this statement moves it to) and drop the copy"
                    + (": the device's generator draws other numbers than the CPU's" if name in RANDOM_FACTORIES else ""),
                    safe=False),
        )

    def _read_on_host_before(self, factory: cst.Call, node: cst.Call) -> bool:
        """The name the factory binds is read between its statement and the move (`sid.tolist()`,
        an index into a host tensor): the program needs the CPU tensor there, so building it on the
        device would add a copy back, not remove one. A store into it (`mask[0] = True`) is no read."""
        receiver = node.func.value  # type: ignore[attr-defined]
        if not isinstance(receiver, cst.Name):
            return False
        made, moved = self.facts.statement_of(factory), self.facts.statement_of(node)
        scope = self.facts.enclosing_function(node)
        return any(
            self.facts.order(made) < self.facts.order(use) < self.facts.order(receiver)
            and self.facts.statement_of(use) not in (made, moved)
            and self.facts.enclosing_function(use) is scope
            and not self._stored_into(use)
            for use in self.facts.uses(receiver.value)
        )

    def _stored_into(self, use: cst.Name) -> bool:
        """`mask[0] = True`: a write into the host tensor, which works as well on the device."""
        sub = self.facts.parent(use)
        return isinstance(sub, cst.Subscript) and isinstance(self.facts.parent(sub), cst.AssignTarget)

    def _constant_array(self, factory: cst.Call, name: str) -> bool:
        """`torch.from_numpy(np.array([1, 0, 0, 1]).astype(np.float32))` per iteration: a constant
        built through NumPy (a batch stacked with NumPy, `np.stack(rows)`, is data: not this)."""
        loop = self.facts.iteration_loop(factory)
        return self._sites.wraps_new_array(factory, name) and loop is not None and invariant(self.facts, factory, loop)

    def _joined(self, node: cst.Call, join: cst.Call, exact: bool) -> None:
        """`torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)`: every piece is
        a factory built on the host, joined there, then copied. Building each piece with
        `device=` joins them on the device: the same values, no copy. Automatic when every piece
        is an exact, non-random factory and the device is a plain name or attribute (read once
        per piece instead of once)."""
        device = self._device_arg(node)
        pieces = join.args[0].value if join.args and join.args[0].keyword is None and not join.args[0].star else None
        if device is None or not isinstance(pieces, (cst.List, cst.Tuple)) or not pieces.elements \
                or self.facts.iteration_loop(node) is None:
            return
        factories = []
        for el in pieces.elements:
            factory, piece_exact = _factory_under(self.facts, el.value) if isinstance(el, cst.Element) else (None, False)
            qualified = (self.facts.qualified_name(factory.func) or "") if factory is not None else ""
            name = qualified.rsplit(".", 1)[-1]
            if factory is None or not qualified.startswith("torch.") or name not in FACTORIES | RANDOM_FACTORIES \
                    or name.endswith("_like") or any(a.keyword and a.keyword.value == "device" for a in factory.args) \
                    or self._sites.site(factory) is not None:
                return
            exact = exact and piece_exact and name not in RANDOM_FACTORIES and _device_keyword_keeps_meaning(factory) \
                and not _device_rounding(self.facts, factory, name)
            factories.append(factory)
        placed = _Placed({f: _with_device(f, device) for f in factories})
        new_call = cast(cst.BaseExpression, node.func.value.visit(placed))  # type: ignore[attr-defined]
        if placed.done != len(factories):
            return  # every piece or none: a join of host and device tensors raises
        suggestion = self.facts.code(new_call)
        # the device expression is read once per piece: a name, an attribute or a literal only;
        # `.cuda(x)` moves to `device=` only when `x` spells a device (see `visit_Call`)
        safe = exact and isinstance(device, (cst.Integer, cst.SimpleString)) or exact and isinstance(device, (cst.Name, cst.Attribute)) \
            and node.func.attr.value == "to"  # type: ignore[attr-defined]
        joined = self.facts.code(join.func)
        self.report(
            node,
            f"`{joined}([...])` joins tensors built on the CPU and copies the result to the device on every iteration",
            fix=Fix(description=f"build each piece on the device: `{suggestion}`",
                    edits=(replace(self.facts, node, new_call),) if safe else (), suggestion=suggestion, safe=safe),
        )

    def _through_wrapper(self, call: cst.Call) -> None:
        """`to_cuda(torch.randn(n, nz))` where `to_cuda(x)` returns `x.cuda()` (or `x` when no GPU):
        the same copy, through a helper. A hint only: the helper, not this call, chooses the device."""
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star \
                or not any(_moves_its_argument(f, self.facts.owner_of(f)) for f in self.facts._callees(call)):
            return
        factory, _ = _factory_under(self.facts, call.args[0].value)
        qualified = (self.facts.qualified_name(factory.func) or "") if factory is not None else ""
        name = qualified.rsplit(".", 1)[-1]
        if factory is not None and qualified == f"torch.{name}" and name in LEGACY_CONSTRUCTORS:
            if self.facts.iteration_loop(call) is not None and self._sites.site(factory) is None:
                self._legacy(call, call.args[0].value, factory, name, self.facts.code(call.func))
            return
        if factory is None or not qualified.startswith("torch.") or name not in FACTORIES | RANDOM_FACTORIES \
                or name.endswith("_like") or any(a.keyword and a.keyword.value == "device" for a in factory.args):
            return  # `zeros_like(x)` is made where `x` lives
        if self.facts.iteration_loop(call) is None or self._sites.site(factory) is not None:
            return
        self.report(
            call,
            f"`torch.{name}(...)` is built on the CPU and `{self.facts.code(call.func)}` copies it to the device "
            "on every iteration",
            fix=Fix(description=f"create it on the device the helper moves to (`torch.{name}(..., device=...)`)"
                    + (": the device's generator draws other numbers than the CPU's" if name in RANDOM_FACTORIES else ""),
                    safe=False),
        )

    def _legacy(self, node: cst.Call, moved: cst.BaseExpression, factory: cst.Call, name: str, mover: str) -> None:
        """`torch.Tensor(ids).long().cuda()`, `to_cuda(torch.LongTensor(rows))`: a legacy constructor
        fills a CPU tensor and the move copies it. A hint: they take no `device=`, and the
        replacement (`torch.tensor(data, dtype=, device=)`, `torch.empty(sizes, device=)`)
        depends on whether the arguments are data or sizes."""
        dtype = LEGACY_CONSTRUCTORS[name]
        converted = {_CASTS[n.attr.value] for n in self.facts.walk(moved)
                     if isinstance(n, cst.Attribute) and n.attr.value in _CASTS} - {dtype}
        sizes = bool(factory.args) and all(a.keyword is None and not a.star and (
            isinstance(a.value, cst.Integer) or self.facts.kind(a.value) is Kind.NUMBER
            or self.facts.int_size(a.value)) for a in factory.args)  # `FloatTensor(B, 2)`, `B = x.shape[0]`
        filled = self._numpy_filled(factory)
        if not converted and not sizes and filled is None:
            return  # host data (an observation array) converted once and copied: the copy is the program's
        if filled is not None:  # `torch.FloatTensor(np.zeros((M, N))).to(device)`: no data, a fill of a shape
            self.report(
                node,
                f"`torch.{name}(np.{filled}(...))` fills an array on the host, converts it to {dtype} and "
                f"`{mover}` copies it to the device on every iteration: a device fill of the same shape copies nothing",
                fix=Fix(description=f"fill it on the device: `torch.{filled}(shape, dtype=torch.{dtype}, device=...)` "
                                    f"(the NumPy array is float64 until `torch.{name}` converts it)", safe=False),
            )
            return
        detour = ""
        if dtype == "float32" and converted & {"int64", "int32"}:
            detour = "; integer ids take a float32 detour on the way (exact only below 2**24)"
        self.report(
            node,
            f"`torch.{name}(...)` builds {'an' if dtype[0] in 'iu' else 'a'} {dtype} tensor on the CPU and `{mover}` copies it "
            "to the device "
            f"on every iteration{detour}",
            fix=Fix(description="build it on the device: `torch.tensor(data, dtype=..., device=...)` (or "
                                "`torch.empty(sizes, device=...)`); the legacy constructors take no `device=`",
                    safe=False),
        )

    def _numpy_filled(self, factory: cst.Call) -> str | None:
        """`zeros` for a legacy constructor given one `np.zeros(shape)` (or `ones`, `empty`): an array
        with no data, only a shape, which the device can fill itself."""
        if len(factory.args) != 1 or factory.args[0].keyword is not None or factory.args[0].star \
                or not isinstance(factory.args[0].value, cst.Call):
            return None
        inner = factory.args[0].value
        qualified = self.facts.qualified_name(inner.func) or ""
        name = qualified.rsplit(".", 1)[-1]
        if qualified != f"numpy.{name}" or name not in ("zeros", "ones", "empty") or len(inner.args) != 1 \
                or inner.args[0].keyword is not None or inner.args[0].star:
            return None
        return name

    def _through_tensor_type(self, call: cst.Call) -> None:
        """`Tensor(np.random.normal(0, 1, (n, d)))` with `Tensor = torch.cuda.FloatTensor if cuda else
        torch.FloatTensor` (the legacy style of many GAN scripts): NumPy fills the array on the host,
        and the CUDA tensor type copies it to the GPU, every iteration. A hint: a device generator
        draws other numbers than NumPy's."""
        if not isinstance(call.func, cst.Name) or len(call.args) != 1 or call.args[0].keyword is not None \
                or not may_be_cuda_tensor_type(self.facts, call.func):
            return
        data = call.args[0].value
        if not isinstance(data, cst.Call) or not (self.facts.qualified_name(data.func) or "").startswith("numpy."):
            return
        if self.facts.iteration_loop(call) is None:
            return
        self.report(
            call,
            f"`{self.facts.code(data.func)}(...)` fills an array on the host and `{self.facts.code(call.func)}` "
            "(a CUDA tensor type on a GPU) copies it to the device on every iteration",
            fix=Fix(description="draw it on the device with the torch factory (`torch.randn(shape, device=device)` for "
                    "`np.random.normal(0, 1, shape)`): the device's generator draws other numbers than NumPy's",
                    safe=False),
        )

    def _host_draw_through_converter(self, call: cst.Call) -> None:
        """`noise = to_var(noise)` after `noise = np.random.normal(0, s, shape).clip(-c, c)` in the
        same loop, with `def to_var(x): v = Variable(torch.FloatTensor(x)); return v.cuda() if
        use_cuda else v` (or `torch.from_numpy(np.asarray(x)).to(device)`): NumPy draws on the host
        and the helper converts and copies the array to the device, every iteration (the TD3 /
        DDPG target-noise shape). A hint only: a device generator draws other numbers than NumPy's."""
        if not call.args or call.args[0].keyword is not None or call.args[0].star:
            return
        callees = self.facts._callees(call)
        converts = bool(callees) and not any(_moves_its_argument(f, self.facts.owner_of(f)) for f in callees) \
            and all(isinstance(f, cst.FunctionDef) and _converts_and_moves(self.facts.owner_of(f), f) for f in callees)
        moves = bool(callees) and all(_moves_its_argument(f, self.facts.owner_of(f)) for f in callees)
        loop = self.facts.iteration_loop(call)
        arg = call.args[0].value
        if loop is None or not (converts or moves):
            return
        if isinstance(arg, cst.Name):
            made = self.facts.value_of(arg)
            if made is None or self.facts.iteration_loop(made) is not loop:
                return  # drawn once before the loop (an invariant copy is another finding), or not seen
            arg = made
        draw = _host_draw(self.facts, arg, loop)
        if draw is None or moves and not _draws_into_a_tensor(self.facts, arg):
            return  # a helper that only moves gets a tensor: `to_cuda(torch.Tensor([random.gauss(...) ...]))`
        what = "copies the tensor of draws" if moves else "converts the array and copies it"
        self._host_draw_moved(call, draw, f"`{self.facts.code(call.func)}` {what}")

    def _host_draw_moved(self, node: cst.Call, draw: cst.Call, mover: str) -> None:
        """Host random numbers moved to the device on every iteration: a hint, a device generator
        draws other numbers."""
        self.report(
            node,
            f"`{self.facts.code(draw.func)}(...)` draws on the host and {mover} to the device on every iteration",
            fix=Fix(description="draw it on the device with the torch factory (`torch.randn(shape, device=device) * std` "
                    "for `np.random.normal(0, std, shape)`, `.clamp(...)` for `.clip(...)`): the device's generator "
                    "draws other numbers than NumPy's, so results change (not the distribution)",
                    safe=False),
        )

    def _separate_statements_gate(self, node: cst.Call, made: cst.BaseExpression) -> bool:
        """The `_moved_later` conditions for a value built in one statement and moved in a later one:
        both run per iteration in the same function, the move names a device, and the host tensor is
        not read between them."""
        return self._device_arg(node) is not None and self.facts.iteration_loop(node) is not None \
            and self.facts.iteration_loop(made) is not None \
            and self.facts.enclosing_function(made) is self.facts.enclosing_function(node) \
            and not self._read_on_host_before(made, node)

    def _host_arithmetic_moved(self, node: cst.Call, expr: cst.BinaryOperation, made: cst.BaseExpression) -> None:
        """`threshold = torch.range(start=0, end=batch - 1) * m + k` then `threshold.cuda()` (public
        check 48, a mixture of experts' gate): arithmetic keeps a host tensor of at least one dimension
        on the host whatever the other operand is (a number, a host tensor; a device tensor would
        raise: only 0-d host tensors mix with device ones), so the moved value was computed on the CPU.
        A hint: the factory and the operands must move to the device together."""
        factory = _host_nd_factory_under(self.facts, expr)
        if factory is None or self._sites.site(factory) is not None:
            return  # invariant: `redundant-tensor` hoists it, device copy included
        if made is not node.func.value and not self._separate_statements_gate(node, made):  # type: ignore[attr-defined]
            return
        when = self._moved_each_step(node)
        if when is None:
            return
        name = (self.facts.qualified_name(factory.func) or "").rsplit(".", 1)[-1]
        self.report(
            node,
            f"`torch.{name}(...)` is built on the CPU, combined there (`{self.facts.code(expr)}`) and copied to the "
            f"device {when}",
            fix=Fix(description=f"create it on the device (`torch.{name}(..., device=...)`, the device this statement "
                    "moves it to) so the arithmetic runs there too, and drop the copy"
                    + ("; the device's generator draws other numbers than the CPU's" if name in RANDOM_FACTORIES else ""),
                    safe=False),
        )

    def _distribution_draw_moved(self, node: cst.Call, draw: cst.Call, dist: str,
                                 made: cst.BaseExpression | None = None) -> None:
        """`gen = noise.sample((n,)).to(device)` every step where `noise` is a `torch.distributions`
        object built from host tensors (public check 48, an EBM trained by NCE): the draw is made in
        host memory and copied. A hint: a distribution built from device tensors draws other numbers."""
        if made is not None and not self._separate_statements_gate(node, made):
            return
        device = self._device_arg(node)
        if device is None or self._host_device(device):
            return
        when = self._moved_each_step(node)
        if when is None:
            return
        self.report(
            node,
            f"`{self.facts.code(draw)}` draws on the CPU (`{dist}` holds host tensors) and "
            f"`{self.facts.code(node.func)}` copies the draw to the device {when}",  # type: ignore[arg-type]
            fix=Fix(description="build the distribution once from tensors on the device (its parameters with "
                    f"`device=...`): the draw is made there, no host tensor and no copy per step; {_OTHER_DRAWS}",
                    safe=False),
        )

    def _scaled_draw_moved(self, node: cst.Call, expr: cst.BinaryOperation) -> bool:
        """`(torch.rand(B, 1) * 2 - 1).to(device)`: a host draw scaled and shifted by number literals
        in the moved expression itself, copied on every iteration or step. A hint: drawn on the device
        it is another random stream. Draws only: a non-random factory under arithmetic may be
        invariant, which is `redundant-tensor`'s to hoist."""
        inner = _scaled_by_numbers(self.facts, expr, frozenset(), follow_names=False)
        if inner is None or inner is expr:
            return False
        draw, _ = _factory_under(self.facts, inner)
        qualified = (self.facts.qualified_name(draw.func) or "") if draw is not None else ""
        name = qualified.rsplit(".", 1)[-1]
        if draw is None or qualified != f"torch.{name}" or name not in RANDOM_FACTORIES or name.endswith("_like") \
                or any(a.keyword and a.keyword.value in ("device", "generator") for a in draw.args):
            return False
        when = self._moved_each_step(node)
        if when is None:
            return True
        self.report(
            node,
            f"`torch.{name}(...)` is drawn on the CPU, scaled there and copied to the device {when}",
            fix=Fix(description=f"draw it on the device (`torch.{name}(..., device=device)`) and scale it there: no host "
                    f"tensor and no copy; {_OTHER_DRAWS}",
                    safe=False),
        )
        return True

    def _moved_each_step(self, node: cst.Call) -> str | None:
        """How often `node` copies to a device (every iteration, every call of a training step);
        None when it copies nowhere, to the host, or not per step."""
        device = self._device_arg(node)
        loop = self.facts.iteration_loop(node)
        step = step_function(self.facts, node) if loop is None else None
        if device is None or (loop is None and step is None) or self._host_device(device):
            return None
        return _each(step)

    def _host_normal_moved(self, node: cst.Call, draw: cst.Call) -> None:
        """`torch.normal(mean=torch.tensor([0.]), std=...).to(device)` (maybe clamped first) on every
        iteration or step: drawn by the CPU generator, then copied. A hint: the device's generator
        draws other numbers, and the tensor overload of `torch.normal` takes no `device=`."""
        when = self._moved_each_step(node)
        if when is None:
            return
        self.report(
            node,
            f"`torch.normal(...)` draws on the CPU (its mean and std are host values) and "
            f"`.{node.func.attr.value}(...)` copies the draws to the device {when}",  # type: ignore[attr-defined]
            fix=Fix(description="draw on the device: `torch.normal(mean, std, size=shape, device=device)` with number "
                    f"arguments (or `torch.randn(shape, device=device) * std + mean`); {_OTHER_DRAWS}",
                    safe=False),
        )

    def _like_tensor(self, call: cst.Call) -> cst.BaseExpression | None:
        """`.to(ray_origins)` (`non_blocking=` aside): the device *and dtype* of another tensor, in a
        program that uses a device and with nothing saying that tensor lives on the host."""
        func = call.func
        assert isinstance(func, cst.Attribute)
        positional = [a for a in call.args if a.keyword is None]
        if func.attr.value != "to" or len(positional) != 1 or positional[0].star \
                or any(a.keyword is not None and a.keyword.value != "non_blocking" for a in call.args):
            return None
        other = positional[0].value
        if self.facts.kind(other) is not Kind.TENSOR or on_host(self.facts, other) or not uses_device(self.facts):
            return None
        return other

    def _moved_like(self, node: cst.Call, factory: cst.Call, name: str, like: cst.BaseExpression,
                    step: cst.FunctionDef | None) -> None:
        """`torch.linspace(a, b, n).to(ray_origins)` every iteration: built on the CPU in float32,
        then copied (and converted) to where `ray_origins` lives. A hint only: `device=`/`dtype=` in
        the factory computes in the other tensor's dtype from the start (a float64 `linspace` may
        differ in the last bits from a float32 one converted), and a device generator draws other
        numbers than the seeded CPU one."""
        other = self.facts.code(like)
        built = _with_device(_with_device(factory, cst.parse_expression(f"{other}.device")),
                             cst.parse_expression(f"{other}.dtype"), "dtype")
        suggestion = self.facts.code(cast(cst.BaseExpression, node.func.value.deep_replace(factory, built)))  # type: ignore[attr-defined]
        why = ("the device's generator draws other numbers than the CPU's, so a seeded run changes"
               if name in RANDOM_FACTORIES else
               f"the values are then computed in `{other}.dtype` rather than in float32 and converted, which may "
               "differ in the last bits")
        when = _each(step)
        self.report(
            node,
            f"`torch.{name}(...)` is built on the CPU and copied to `{other}`'s device {when} (when `{other}` is on "
            "the GPU)",
            fix=Fix(description=f"create it where `{other}` lives: `{suggestion}` ({why})", suggestion=suggestion,
                    safe=False),
        )

    def _device_arg(self, call: cst.Call) -> cst.BaseExpression | None:
        func = call.func
        assert isinstance(func, cst.Attribute)
        if func.attr.value == "cuda":
            # `.cuda(device=None, non_blocking=False, memory_format=...)`: only the device argument
            # names a device (`.cuda(non_blocking=True)` names none).
            if any(a.keyword is not None and a.keyword.value not in ("device", "non_blocking") for a in call.args):
                return None
            chosen = [a.value for a in call.args if a.keyword is None or a.keyword.value == "device"]
            return chosen[0] if chosen else cst.SimpleString('"cuda"')
        if any(a.star for a in call.args):
            return None  # `.to(**device_kwargs)`, `.to(*dev_args)`: what they carry is not seen
        positional = [a for a in call.args if a.keyword is None]
        keyword = [a for a in call.args if a.keyword and a.keyword.value == "device"]
        candidate = keyword[0].value if keyword else (positional[0].value if positional else None)
        if candidate is None or any(a.keyword and a.keyword.value in ("dtype", "memory_format", "copy") for a in call.args):
            return None
        if len(positional) > 1:
            return None  # .to(device, dtype): keep the conversion explicit
        return candidate if self._is_device(candidate) else None

    def _device_and_dtype(self, call: cst.Call, factory: cst.Call) -> tuple[cst.BaseExpression | None, cst.BaseExpression | None]:
        """`.to(device, dtype=torch.double)` right on a factory that names no dtype: both go into
        the factory (its values are the same in any dtype, see `_EXACT_IN_ANY_DTYPE`)."""
        positional = [a for a in call.args if a.keyword is None]
        dtype = keyword_arg(call, "dtype")
        if dtype is None or len(positional) != 1 or len(call.args) != 2 or keyword_arg(factory, "dtype") is not None \
                or not self._is_device(positional[0].value):
            return None, None
        return positional[0].value, dtype.value

    def _host_device(self, device: cst.BaseExpression) -> bool:
        """`.to(batch_y.device)` where `batch_y` is a batch field the loop leaves on the host
        while moving its siblings, or `.to("cpu")` / `.to(torch.device("cpu"))` spelled out:
        nothing is copied."""
        if spells_cpu(device) or isinstance(device, cst.Call) and self.facts.qualified_name(device.func) == "torch.device" \
                and len(device.args) == 1 and spells_cpu(device.args[0].value):
            return True
        return isinstance(device, cst.Attribute) and device.attr.value == "device" \
            and unmoved_batch_field(self.facts, device.value)

    def _is_device(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.SimpleString):
            return expr.evaluated_value.split(":")[0] in ("cuda", "cpu", "mps", "xpu")
        if isinstance(expr, cst.Call):
            return (self.facts.qualified_name(expr.func) or "") == "torch.device"
        if isinstance(expr, cst.Attribute) and expr.attr.value == "device":
            # `net.device`: a tensor's is a device; a class of the program may compute its own.
            return self.facts.kind(expr.value) is Kind.TENSOR \
                or all(_returns_a_device(owner, method) for owner, method in program_methods(self.facts, {"device"}))
        if isinstance(expr, cst.Attribute):
            return stored_device(self.facts, expr)  # `args.__device__ = device` stored, then `.to(args.__device__)`
        if isinstance(expr, cst.Subscript):
            return keyed_device(self.facts, expr)  # `b.to(self.args['device'])`: a config dict's device entry
        if isinstance(expr, cst.Name):
            if self.facts.kind(expr) is Kind.TENSOR:
                return False
            value = self.facts.namespace.get(expr.value)
            if value is not None:
                return type(value).__name__ == "device" or isinstance(value, str) and value.split(":")[0] in ("cuda", "cpu")
            return names_a_device(self.facts, expr.value)
        return False


def _returns_a_device(owner: Facts, method: cst.FunctionDef) -> bool:
    """A program's `device` property or method returns a device at every `return`: another
    `.device` (`next(self.parameters()).device`), `torch.device(...)` or a device string."""
    returns = [n.value for n in owner.walk(method.body, into_scopes=False) if isinstance(n, cst.Return)]
    return bool(returns) and all(
        (isinstance(value, cst.Attribute) and value.attr.value == "device")
        or (isinstance(value, cst.Call) and (owner.qualified_name(value.func) or "") == "torch.device")
        or (isinstance(value, cst.SimpleString) and value.evaluated_value.split(":")[0] in ("cuda", "cpu", "mps", "xpu"))
        for value in returns)


def _keeps_dense(sub: cst.Subscript) -> bool:
    """Integer indices, then at most one step-less slice, then only full slices (`t[2:5]`,
    `t[0]`, `t[0, 1:3]`, `t[1:3, :]`) leave a contiguous tensor contiguous; `t[:, :3]`,
    `t[:, 0]` and `t[::2]` leave gaps, which a move to a device closes."""
    slices = [el.slice for el in sub.slice]
    first = next((i for i, part in enumerate(slices) if isinstance(part, cst.Slice)), len(slices))
    for i, part in enumerate(slices[first:], first):
        if not isinstance(part, cst.Slice):
            return False  # an index after a slice strides over rows
        if part.step is not None and not (isinstance(part.step, cst.Integer) and part.step.value == "1"):
            return False
        if i > first and (part.lower is not None or part.upper is not None):
            return False
    return True


def _factory_under(facts: Facts, receiver: cst.BaseExpression) -> tuple[cst.Call | None, bool]:
    """The factory call that `receiver` (the tensor `.to(device)` moves) is made from through
    shape and dtype methods, subscripts and a bare legacy `Variable(...)` (the tensor it is given):
    `torch.arange(L).unsqueeze(0)`, `torch.randperm(N)[:B]`, `Variable(torch.zeros(B, T)).cuda()`.
    The flag says whether building it on the device is proved to give the same values: only
    slices and integer indices (an index tensor may live elsewhere) in between.

    ... and the same layout: a move copies a tensor that is not dense (`expand`ed rows sharing
    memory, a slice with a step or of an inner dimension) into a compact one, while the rewrite
    keeps the view of the factory's tensor on the device: an in-place write to the expanded rows
    raises there, `.view(-1)` of the sliced one fails (red team 27; on the CPU `.to("cpu")` copies
    nothing, so only a GPU run shows it: checked with `.to("meta")`, which compacts as a device copy does)."""
    exact, compacted = True, False  # compacted: a copy between the view and the move closes the gaps
    while True:
        if isinstance(receiver, cst.Subscript):
            exact = exact and all(isinstance(el.slice, cst.Slice) and all(
                part is None or isinstance(part, cst.Integer) or (isinstance(part, cst.UnaryOperation) and isinstance(part.expression, cst.Integer))
                for part in (el.slice.lower, el.slice.upper, el.slice.step))
                or (isinstance(el.slice, cst.Index) and isinstance(el.slice.value, cst.Integer)) for el in receiver.slice) \
                and (compacted or _keeps_dense(receiver))
            receiver = receiver.value
        elif isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) \
                and receiver.func.attr.value in _SAME_ON_DEVICE:
            exact = exact and (compacted or receiver.func.attr.value not in _SHARES_ROWS)
            compacted = compacted or (receiver.func.attr.value in _COMPACTING
                                      and (receiver.func.attr.value not in _CASTS or _cast_copies(facts, receiver)))
            receiver = receiver.func.value
        elif isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) \
                and receiver.func.attr.value in _IN_PLACE_FILLS:
            # `torch.empty(n).normal_(0, 1).cuda()`: filled in place, then moved. A random fill draws
            # other numbers from the device's generator, a fill from a value that is not a literal
            # may read another device: only `fill_(0.5)` / `zero_()` give the same values there.
            exact = exact and receiver.func.attr.value in _EXACT_FILLS and all(_literal(a.value) for a in receiver.args)
            receiver = receiver.func.value
        elif isinstance(receiver, cst.Call) and len(receiver.args) == 1 and receiver.args[0].keyword is None \
                and not receiver.args[0].star and (facts.qualified_name(receiver.func) or "") in IDENTITY_WRAPPERS:
            receiver = receiver.args[0].value  # (`requires_grad=True` would make a leaf of what was a copy: not followed)
        elif isinstance(receiver, cst.Call):
            return receiver, exact
        else:
            return None, False


def _host_factory_returned(owner: Facts, func: cst.FunctionDef, random: bool = False,
                           numbers: frozenset[str] = frozenset()) -> str | None:
    """The host factory (`torch.zeros(...)`, with `random` also a draw: `torch.randint(...)`)
    every `return` of `func` gives (directly, through a same-device method chain, through a
    local name filled in place, or scaled and shifted by numbers: `torch.rand(size) * (b - a) + a`
    with `a`, `b` among `numbers`); None if any return is something else or is built with
    `device=`, a `generator=` (a host generator cannot draw on the device) or like another tensor."""
    returns = [n for n in owner.walk(func.body, into_scopes=False) if isinstance(n, cst.Return)]
    found = None
    for ret in returns:
        value = ret.value
        if isinstance(value, cst.Name):
            value = owner.value_of(value)
        value = _scaled_by_numbers(owner, value, numbers) if value is not None else None
        factory, _ = _factory_under(owner, value) if value is not None else (None, False)
        qualified = (owner.qualified_name(factory.func) or "") if factory is not None else ""
        name = qualified.rsplit(".", 1)[-1]
        kinds = FACTORIES | RANDOM_FACTORIES if random else FACTORIES
        if factory is None or not qualified.startswith("torch.") or name not in kinds or name.endswith("_like") \
                or any(a.keyword and a.keyword.value in ("device", "generator") for a in factory.args):
            return None
        found = f"torch.{name}(...)"
    return found


# Factories whose tensor always has a dimension: `torch.range(0, n)` (deprecated, same place as `arange`).
_ONE_D_FACTORIES = frozenset({"arange", "range", "linspace", "logspace"})
_ANY_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)


def _host_nd_factory_under(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> cst.Call | None:
    """The host factory an arithmetic expression keeps on the host: one operand (through
    `_factory_under`'s same-place methods) is a torch factory given no `device=` whose tensor has at
    least one dimension (`arange`/`range`/`linspace`/`logspace`, or two or more positional sizes).
    PyTorch mixes a device tensor only with a 0-d host tensor, so whatever the other operand is, the
    result lives on the host (or the program raises). None otherwise (`torch.zeros(shape)` may be 0-d)."""
    if depth > 6:
        return None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _host_nd_factory_under(facts, expr.expression, depth + 1)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ANY_ARITHMETIC):
        for side, other in ((expr.left, expr.right), (expr.right, expr.left)):
            found = _host_nd_factory_under(facts, side, depth + 1)
            if found is not None:
                # the other operand must not be a tensor (host data: `centers[ids] + 0.5 * torch.randn(n, d)`
                # is a batch made on the host, and a factory on the device could not be added to it)
                return found if _not_a_tensor(facts, other) else None
        return None
    factory, _ = _factory_under(facts, expr) if isinstance(expr, (cst.Call, cst.Subscript)) else (None, False)
    if factory is None:
        return None
    qualified = facts.qualified_name(factory.func) or ""
    name = qualified.rsplit(".", 1)[-1]
    if qualified != f"torch.{name}" or any(a.star or a.keyword and a.keyword.value in ("device", "out", "generator")
                                           for a in factory.args):
        return None
    sizes = [a for a in factory.args if a.keyword is None]
    if name in _ONE_D_FACTORIES or name in {"zeros", "ones", "empty", "rand", "randn"} and len(sizes) >= 2:
        return factory
    return None


def _not_a_tensor(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """A number by what the analysis sees: a literal, a name or attribute it does not take for a tensor
    (and, for a local name, bound to such a value), `len(...)`, `x.size(i)` / `x.shape[i]` / `x.ndim`,
    and arithmetic of those. A subscript or any other call may be a tensor: False."""
    if depth > 6:
        return False
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return _not_a_tensor(facts, expr.expression, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return _not_a_tensor(facts, expr.left, depth + 1) and _not_a_tensor(facts, expr.right, depth + 1)
    if isinstance(expr, cst.Call):
        func = expr.func
        return isinstance(func, cst.Name) and func.value in ("len", "int", "float") \
            or isinstance(func, cst.Attribute) and func.attr.value in ("size", "dim", "numel") and len(expr.args) <= 1
    if isinstance(expr, cst.Subscript):
        return isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape"
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("ndim", "shape"):
        return expr.attr.value == "ndim"
    if isinstance(expr, (cst.Name, cst.Attribute)):
        if facts.kind(expr) is Kind.TENSOR:
            return False
        value = facts.value_of(expr) if isinstance(expr, cst.Name) else None
        return value is None or _not_a_tensor(facts, value, depth + 1)
    return False


# Arithmetic with a number keeps a tensor where it is: `torch.rand(n) * 2 - 1` is a host tensor.
_NUMBER_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
# Elementwise torch functions of one tensor (no `out=`) give a tensor on their input's device:
# `-torch.log(-torch.log(torch.rand(n)))` is a host tensor.
_POINTWISE = frozenset(f"torch.{n}" for n in (
    "log", "log2", "log10", "log1p", "exp", "exp2", "expm1", "sqrt", "rsqrt", "abs", "neg", "negative", "sigmoid",
    "tanh", "sin", "cos", "floor", "ceil", "round", "trunc", "reciprocal", "square", "erf", "erfinv", "sign"))


def _number_valued(expr: cst.BaseExpression, numbers: frozenset[str]) -> bool:
    """A number by a closed list: a literal, a name among `numbers` (parameters the call binds to
    literals), and `-`, `+ - * /` of those. Anything else (another parameter, which may be a
    tensor on the device; a call) is not known to be a number."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in numbers
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _number_valued(expr.expression, numbers)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _NUMBER_ARITHMETIC):
        return _number_valued(expr.left, numbers) and _number_valued(expr.right, numbers)
    return False


def _scaled_by_numbers(owner: Facts, value: cst.BaseExpression, numbers: frozenset[str],
                       follow_names: bool = True) -> cst.BaseExpression | None:
    """The tensor side of `value` under arithmetic with numbers (`std_unif*(b-a)+a` -> `std_unif`,
    followed to the value the helper's local name holds unless `follow_names` is off): the public
    RealNVP's dequantization helper `def uniform_dist(a,b,size): std_unif = torch.rand(size); return std_unif*(b-a)+a`."""
    for _ in range(12):
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            value = value.expression  # `-torch.log(u)`: negation keeps the tensor where it is
        elif isinstance(value, cst.Call) and (owner.qualified_name(value.func) or "") in _POINTWISE \
                and len(value.args) == 1 and value.args[0].keyword is None and not value.args[0].star:
            value = value.args[0].value  # `torch.log(u + eps)`: Gumbel noise `-log(-log(U))`, public check 47
        elif not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, _NUMBER_ARITHMETIC)):
            return value
        elif _number_valued(value.right, numbers):
            value = value.left
        elif _number_valued(value.left, numbers):
            value = value.right
        else:
            return value
        if isinstance(value, cst.Name):
            resolved = owner.value_of(value) if follow_names else None
            if resolved is None:
                return None
            value = resolved
    return None


def _number_parameters(helper: cst.FunctionDef, call: cst.Call) -> frozenset[str]:
    """The helper's parameters this call binds to number literals (given, or left at a literal
    default): `uniform_dist(0,1,x.shape)` binds `a` and `b`. Nothing when the call unpacks
    arguments (`*args`, `**kw`): then which parameter gets what is not read here."""
    if any(a.star for a in call.args):
        return frozenset()
    params = [*helper.params.posonly_params, *helper.params.params]
    if params and params[0].name.value in ("self", "cls") and isinstance(call.func, cst.Attribute):
        params = params[1:]  # `obj.method(...)`: the object is the first parameter
    given: dict[str, cst.BaseExpression] = {}
    positional = [a for a in call.args if a.keyword is None]
    for param, arg in zip(params, positional):
        given[param.name.value] = arg.value
    for arg in call.args:
        if arg.keyword is not None:
            given[arg.keyword.value] = arg.value
    names = set()
    for param in [*params, *helper.params.kwonly_params]:
        value = given.get(param.name.value, param.default)
        if value is not None and _number_valued(value, frozenset()):
            names.add(param.name.value)
    return frozenset(names)


_JOINS = frozenset({"torch.cat", "torch.stack", "torch.concat", "torch.concatenate", "torch.hstack", "torch.vstack"})


class _Placed(cst.CSTTransformer):
    """Replaces each of the given nodes (by identity) at once."""

    def __init__(self, replacements: dict[cst.Call, cst.Call]) -> None:
        super().__init__()
        self.replacements = replacements
        self.done = 0

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node in self.replacements:
            self.done += 1
            return self.replacements[original_node]
        return updated_node


# Factory keywords that tie the tensor to the host: with `device=` a GPU they raise there
# (`pin_memory=True`: only CPU tensors can be pinned; `out=buf`: a host buffer on another device).
_HOST_KEYWORDS = frozenset({"requires_grad", "pin_memory", "out"})


def _device_keyword_keeps_meaning(factory: cst.Call) -> bool:
    """`device=` can be added to `factory` and give what the move gave: no `**opts` (which may
    already carry `device`: a TypeError), no `requires_grad=` (built on the device the tensor is
    a leaf that gets `.grad`; moved, the leaf stays on the host and the copy gets none), no
    `pin_memory=` (pinning a GPU tensor raises) and no `out=` (a host buffer written, then copied:
    given a GPU `device=`, the call raises; on the CPU the rewrite is the same, so only reading finds it)."""
    return not any(a.star == "**" or (a.keyword is not None and a.keyword.value in _HOST_KEYWORDS
                                      and not (isinstance(a.value, cst.Name) and a.value.value == "False"))
                   for a in factory.args)


def _device_rounding(facts: Facts, factory: cst.Call, name: str) -> str:
    """Why `factory` may give other values when it computes them on the device ("" when proved not).

    Closed world: fills (`zeros`, `ones`, `full`, `eye`, ...) write one converted value, the same
    anywhere. `arange` computes `start + step * i`: in float64 on the CPU but in float32 for a
    float32 tensor on CUDA (ATen's accumulate type), so a fractional start or step rounds otherwise
    there (`torch.arange(0, 3, 0.1)[13]` is 1.3 on the CPU, 1.3000001 on CUDA: a `t <= 1.3` mask
    loses a point; red team 34, GPU-only). Only `arange(end)` and integer start and step are exact.
    `linspace`/`logspace` interpolate with device-specific formulas (CPU vector blocks vs CUDA's
    per-index halves): not proved."""
    if name in ("linspace", "logspace"):
        return (f"`torch.{name}` interpolates its points with other formulas on CUDA than on the CPU (float32 "
                "rounding): points computed on the device may differ in the last bit")
    if name != "arange":
        return ""
    positional = [a.value for a in factory.args if a.keyword is None and not a.star]
    start = keyword_arg(factory, "start")
    step = keyword_arg(factory, "step")
    if any(a.star for a in factory.args):
        return "`torch.arange(*...)`: its start and step are not seen"
    parts = [positional[0]] if len(positional) >= 2 else []
    parts += [positional[2]] if len(positional) >= 3 else []
    parts += [a.value for a in (start, step) if a is not None]
    inexact = next((p for p in parts if not _int_valued(facts, p)), None)
    if inexact is None:
        return ""
    return (f"`{facts.code(inexact)}` is not proved an integer: CUDA computes `start + step * i` of a float32 "
            "`arange` in float32 where the CPU uses float64, so a fractional start or step rounds otherwise on the device "
            "(`torch.arange(0, 3, 0.1)[13]`: 1.3 on the CPU, 1.3000001 on CUDA)")


def _with_device(factory: cst.Call, device: cst.BaseExpression, keyword: str = "device") -> cst.Call:
    """`factory(..., device=device)` (or another `keyword=`)."""
    args = [*factory.args]
    if args:
        args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    args.append(cst.Arg(value=device, keyword=cst.Name(keyword), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))))
    return factory.with_changes(args=args)


def _moves_its_argument(func: cst.FunctionDef | cst.Lambda, owner: Facts | None = None) -> bool:
    """`def to_cuda(x): return x.cuda() if USE_CUDA else x` (or `x.to(DEVICE)`, or an `if` with two
    returns), and the old `def to_var(x, volatile=False): if use_cuda: x = x.cuda(); return
    Variable(x, volatile=volatile)`: every return gives the first parameter itself, moved, or wrapped
    in a legacy `Variable`; it is rebound only to its own move; and one of them moves it. Other
    parameters must have defaults (options of the wrap)."""
    if not isinstance(func, cst.FunctionDef):
        return False
    positional = [*func.params.posonly_params, *func.params.params]
    if not positional or func.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) \
            or any(p.default is None for p in (*positional[1:], *func.params.kwonly_params)):
        return False
    param = positional[0].name.value
    values = _return_values(func)

    def is_param(v: cst.BaseExpression | None) -> bool:
        return isinstance(v, cst.Name) and v.value == param

    def moves(v: cst.BaseExpression | None) -> bool:
        return isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value in ("to", "cuda") \
            and is_param(v.func.value)

    def wrapped(v: cst.BaseExpression | None) -> bool:
        return isinstance(v, cst.Call) and dotted_name(v.func) in ("Variable", "autograd.Variable", "torch.autograd.Variable") \
            and bool(v.args) and v.args[0].keyword is None and (is_param(v.args[0].value) or moves(v.args[0].value))

    rebinds = [n for n in _walk_body(func) if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.With))
               and any(param in bound_names(t) for t in _assign_targets(n))]
    if any(not isinstance(n, cst.Assign) or len(n.targets) != 1 or not moves(n.value) for n in rebinds):
        return False
    def live(node: cst.CSTNode) -> bool:  # `if USE_CUDA: x = x.cuda()` with a flag false on every path moves nothing
        return owner is None or not in_dead_branch(owner, node)

    return bool(values) and all(is_param(v) or moves(v) or wrapped(v) for v in values) \
        and (any(live(n) for n in rebinds)
             or any((moves(v) or wrapped(v) and moves(v.args[0].value)) and live(v) for v in values))  # type: ignore[union-attr]


def _walk_body(func: cst.FunctionDef) -> list[cst.CSTNode]:
    """The nodes of `func`'s body, nested functions and classes left out."""
    out: list[cst.CSTNode] = []

    def collect(node: cst.CSTNode) -> None:
        for child in node.children:
            if isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            out.append(child)
            collect(child)

    collect(func.body)
    return out


def _assign_targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """What an assignment, a `for` or a `with` binds."""
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    if isinstance(node, cst.With):
        return [i.asname.name for i in node.items if i.asname is not None]  # type: ignore[misc]
    return [node.target]  # type: ignore[attr-defined]


# Calls that turn host data into a (host) tensor or array, keeping its values.
_CONVERTERS = frozenset({"torch.from_numpy", "torch.as_tensor", "torch.tensor", "torch.autograd.Variable",
                         "torch.autograd.variable.Variable", "numpy.asarray", "numpy.array", "numpy.float32"}
                        | {f"torch.{name}" for name in LEGACY_CONSTRUCTORS})
_CONVERTING_METHODS = frozenset({"float", "double", "half", "long", "int", "astype", "type"})


def _converts_and_moves(owner: Facts, func: cst.FunctionDef) -> bool:
    """`def to_var(x, requires_grad=False): v = Variable(torch.FloatTensor(x), ...); return v.cuda()
    if use_cuda else v`, `def to_tensor(x): return torch.from_numpy(np.asarray(x)).to(device)`: every
    return gives the first parameter converted to a tensor (through a local name bound once), moved
    or not, and one moves it; the other parameters only set options of the conversion."""
    params = positional_params(func)
    if not params or func.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT):
        return False
    param = params[0]

    def converted(v: cst.BaseExpression | None, depth: int = 4) -> bool:
        if isinstance(v, cst.Name) and depth and v.value != param and len(owner.assigned_values(v.value)) == 1:
            return converted(owner.value_of(v), depth - 1)
        if not isinstance(v, cst.Call) or not v.args or depth == 0:
            return False
        if isinstance(v.func, cst.Attribute) and v.func.attr.value in _CONVERTING_METHODS:
            return converted(v.func.value, depth - 1)
        first = v.args[0].value
        return (owner.qualified_name(v.func) or "") in _CONVERTERS and v.args[0].keyword is None \
            and ((isinstance(first, cst.Name) and first.value == param) or converted(first, depth - 1))

    def moved(v: cst.BaseExpression | None) -> bool:
        return isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value in ("to", "cuda") \
            and converted(v.func.value)

    values = _return_values(func)
    return bool(values) and all(converted(v) or moved(v) for v in values) and any(moved(v) for v in values)


# Methods that keep an array (or tensor) of draws a set of draws: clipped, cast, reshaped.
_DRAW_KEEPING_METHODS = frozenset({"clip", "astype", "reshape", "float", "double", "half"})


def _draws_into_a_tensor(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`torch.Tensor([random.gauss(0, s) for _ in range(n)])` (a torch converter, maybe cast): the
    draws are a tensor by then, which a helper that only moves its argument can take."""
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _CONVERTING_METHODS:
        expr = expr.func.value
    return isinstance(expr, cst.Call) and (facts.qualified_name(expr.func) or "").startswith("torch.") \
        and (facts.qualified_name(expr.func) or "") in _CONVERTERS


def _host_draw(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> cst.Call | None:
    """The NumPy / `random` draw `expr` is (through `.clip(...)`, `.astype(...)`, `.reshape(...)` and
    scaling by a number or a name the loop does not bind): an array of fresh host random numbers."""
    while True:
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Multiply, cst.Divide)):
            sides = [expr.left, expr.right]
            scale = [s for s in sides if isinstance(s, (cst.Integer, cst.Float))
                     or isinstance(s, cst.Name) and s.value not in facts.names_written(loop.node.body)]
            rest = [s for s in sides if s not in scale]
            if len(rest) != 1:
                return None
            expr = rest[0]
            continue
        if not isinstance(expr, cst.Call):
            return None
        qualified = facts.qualified_name(expr.func) or ""
        if qualified.startswith(("numpy.random.", "random.")) and facts.draws_random(expr):
            return expr
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _DRAW_KEEPING_METHODS \
                and not qualified.startswith(("numpy.", "torch.")):
            expr = expr.func.value
            continue
        first = expr.args[0] if expr.args else None
        if qualified in _CONVERTERS and first is not None and first.keyword is None and not first.star \
                and isinstance(first.value, cst.ListComp):
            expr = first.value.elt  # `torch.Tensor([random.gauss(0, s) for _ in range(n)])`: a list of draws
            continue
        return None


def _return_values(func: cst.FunctionDef) -> list[cst.BaseExpression | None]:
    """What `func`'s `return` statements give (both arms of a conditional expression)."""
    returns: list[cst.BaseExpression | None] = []

    def collect(node: cst.CSTNode) -> None:
        for child in node.children:
            if isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(child, cst.Return):
                returns.append(child.value)
            collect(child)

    collect(func.body)
    values: list[cst.BaseExpression | None] = []
    for value in returns:
        values += [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
    return values


def _literal(expr: cst.BaseExpression) -> bool:
    """A number written in the code (`0.5`, `-1`)."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _filled_list(factory: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """`torch.tensor([v] * n)` / `torch.tensor(n * [v])` with `v` a name, an attribute, a number
    literal or arithmetic of those (`j / 3`): (v, n), else None."""
    if not factory.args or factory.args[0].keyword is not None or factory.args[0].star:
        return None
    expr = factory.args[0].value
    if not (isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply)):
        return None
    for seq, count in ((expr.left, expr.right), (expr.right, expr.left)):
        if isinstance(seq, cst.List) and len(seq.elements) == 1 and isinstance(seq.elements[0], cst.Element) \
                and _number_like(seq.elements[0].value) \
                and not isinstance(count, cst.List):
            return seq.elements[0].value, count
    return None


def _number_like(expr: cst.BaseExpression) -> bool:
    """A name, an attribute, a number literal, or unary/binary arithmetic of those: no list, call
    or subscript (which may hand a sequence or a tensor of another shape)."""
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return _number_like(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return _number_like(expr.left) and _number_like(expr.right)
    return False


def _cast_copies(facts: Facts, cast: cst.Call) -> bool:
    """`cast` (`.float()`, `.long()`, ...) is proved to copy its receiver into a new compact tensor:
    the receiver's dtype is known and is not the one cast to. A cast to the dtype a tensor has
    returns the tensor itself (`torch.zeros(4, n)[:, :3].float()` is the view, gaps and all), and
    so does one whose source dtype is unknown, as far as the analysis can tell (fix49)."""
    method = cast.func.attr.value if isinstance(cast.func, cst.Attribute) else ""
    if cast.args or method not in _CASTS or not isinstance(cast.func, cst.Attribute):
        return False
    source = _chain_dtype(facts, cast.func.value)
    return source is not None and source != _CASTS[method]


# Methods of the chain that keep the dtype of their receiver (`view` only with shape arguments).
_KEEPS_DTYPE = frozenset({"unsqueeze", "squeeze", "reshape", "expand", "t", "contiguous", "repeat", "tril", "triu",
                          "flatten", "transpose", "permute"}) | _IN_PLACE_FILLS
_DEFAULT_FLOAT = frozenset({"zeros", "ones", "empty", "eye", "linspace", "logspace", "rand", "randn"}) | WINDOWS


def _chain_dtype(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """The exact dtype (`float32`) of a chain from a factory through subscripts, shape methods,
    casts and in-place fills (what `_factory_under` walks), or None where it is not known: an
    unknown argument of `arange` or `full`, a `dtype=` that is not spelled, a program that
    changes torch's default dtype, `view(dtype)`."""
    if depth > 12:
        return None
    if isinstance(expr, cst.Subscript):
        return _chain_dtype(facts, expr.value, depth + 1)
    if not isinstance(expr, cst.Call):
        return None
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value in _CASTS and not expr.args:
        return _CASTS[func.attr.value]
    if isinstance(func, cst.Attribute) and (func.attr.value in _KEEPS_DTYPE or func.attr.value == "view" and all(
            isinstance(a.value, (cst.Integer, cst.UnaryOperation, cst.BinaryOperation)) or _int_valued(facts, a.value)
            for a in expr.args)):
        return _chain_dtype(facts, func.value, depth + 1)
    qualified = facts.qualified_name(func) or ""
    if qualified in IDENTITY_WRAPPERS and len(expr.args) == 1:
        return _chain_dtype(facts, expr.args[0].value, depth + 1)
    if not qualified.startswith("torch."):
        return None
    name = qualified.rsplit(".", 1)[-1]
    explicit = next((a.value for a in expr.args if a.keyword is not None and a.keyword.value == "dtype"), None)
    if explicit is not None:
        return dtype_name(facts, explicit)
    positional = [a.value for a in expr.args if a.keyword is None]
    if name in ("randint", "randperm"):
        return "int64"
    if name == "arange" and positional and all(_int_valued(facts, v) for v in positional):
        return "int64"
    if default_dtype_changed(facts):
        return None
    if name == "full" and len(positional) == 2:
        fill = positional[1]
        fill = fill.expression if isinstance(fill, cst.UnaryOperation) else fill
        if isinstance(fill, cst.Name) and fill.value in ("True", "False"):
            return "bool"
        return "int64" if isinstance(fill, cst.Integer) else "float32" if isinstance(fill, cst.Float) else None
    if name == "arange" and any(isinstance(v, cst.Float) or isinstance(v, cst.UnaryOperation)
                                and isinstance(v.expression, cst.Float) for v in positional):
        return "float32"
    return "float32" if name in _DEFAULT_FLOAT else None


def _int_valued(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """`expr` is a Python int: an integer literal, `len(...)`, `x.size(d)`, `x.shape[d]`, a name
    bound only to such values or by `for name in range(...)`, and `+ - * // %` of those."""
    if depth > 6:
        return False
    if isinstance(expr, cst.Integer):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _int_valued(facts, expr.expression, depth + 1)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply,
                                                                            cst.FloorDivide, cst.Modulo)):
        return _int_valued(facts, expr.left, depth + 1) and _int_valued(facts, expr.right, depth + 1)
    if isinstance(expr, cst.Call):
        qualified = facts.qualified_name(expr.func) or ""
        if qualified in ("builtins.len", "len"):
            return True
        return isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "size" and len(expr.args) == 1 \
            and isinstance(expr.args[0].value, cst.Integer) and not qualified.startswith("numpy.")
    if isinstance(expr, cst.Subscript):
        return isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape" and len(expr.slice) == 1 \
            and isinstance(expr.slice[0].slice, cst.Index) and isinstance(expr.slice[0].slice.value, cst.Integer)
    if isinstance(expr, cst.Name):
        loop = facts.loop_binding(expr)
        if loop is not None:
            node = loop.node
            return isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == expr.value \
                and isinstance(node.iter, cst.Call) and (facts.qualified_name(node.iter.func) or "") in ("builtins.range", "range") \
                and all(_int_valued(facts, a.value, depth + 1) for a in node.iter.args)
        values = facts.assigned_values(expr.value)
        return bool(values) and facts.value_of(expr) is not None and all(_int_valued(facts, v, depth + 1) for v in values)
    return False


def _once_per_epoch(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` runs once per epoch: in an epoch loop beside its batch loop, or in a helper every
    per-iteration call of which sits there (`h = model.init_hidden(batch_size)` before `for inputs,
    labels in train_loader:`, public check 55 p04). "On every iteration" then overstates: one
    small copy per epoch. A helper also called in a batch loop anywhere is per batch."""
    if facts.enclosing_loops(node):
        sites: list[tuple[Facts, cst.CSTNode]] = [(facts, node)]
    else:
        func = facts.enclosing_function(node)
        sites = list(facts.per_iteration_call_sites(func)) if func is not None else []
    if not sites:
        return False
    for owner, site in sites:
        loop = owner.iteration_loop(site)
        if loop is None or hot_loop(owner, site) is not None or not is_epoch_loop(loop.facts, loop):
            return False
    return True


def _each(step: cst.FunctionDef | None) -> str:
    return "on every iteration" if step is None else f"on every call of `{step.name.value}` (one training step)"
