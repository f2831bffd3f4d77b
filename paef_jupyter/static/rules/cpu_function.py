"""A CPU-only function (NumPy / pure Python) re-run in the loop on the same data."""

from __future__ import annotations

import dataclasses
import inspect
import textwrap
import types
import weakref

import libcst as cst

from ...fix.edits import fresh_name, hoist_expression, hoist_statement, hoist_statements
from ...model import Fix, Severity
from ..facts import SHARING_CALLS, Facts, Loop, library_result_may_share, numpy_call_has_effects
from ..outside_values import unproved_outside_value
from ..names import block_statements, bound_names, is_inplace_method, named_params, root_name
from ..types import Kind
from ._attribute_stores import store_hazard
from ._kept_objects import kept_by_program_code
from ._support import LOADERS, init_value, is_self_attr
from ._tensor_facts import (bound_in_unit, caught_in_loop, evaluated_conditionally, exits_before, handed_to_changing_call,
                            invariant, module_changes_input, mutated_in_place, rarely_runs, sole_writers)
from ._rebuilt_chains import rebuilt_chains
from .base import Rule, RuleContext
from .redundant_tensor import FactorySites

FRESH = "<fresh>"  # the result is only read or copied, never kept as it is
_COPYING_METHODS = frozenset({"copy", "clone", "tolist", "item", "sum", "mean", "std", "max", "min", "astype"})
_COPYING_CALLS = frozenset({"torch.tensor", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "numpy.array",
                            "torch.stack", "torch.cat", "numpy.stack", "numpy.concatenate", "builtins.list",
                            "builtins.len", "builtins.float", "builtins.int", "builtins.sum", "builtins.sorted"})
_TORCH_RANDOM = frozenset({"rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
                           "normal", "bernoulli", "multinomial", "poisson", "dropout", "empty", "empty_like"})
# Methods of a NumPy array that compute over its data (with axis options only): `X.mean(0)`.
_ARRAY_WORK = frozenset({"mean", "std", "var", "sum", "prod", "min", "max", "argmin", "argmax", "argsort", "cumsum",
                         "cumprod", "nonzero"})
# NumPy allocations: their only input is a shape; what matters is what the loop writes into them.
_ALLOCATIONS = frozenset({"numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full", "numpy.zeros_like", "numpy.ones_like",
                          "numpy.empty_like", "numpy.full_like"})
# NumPy constructors whose whole content follows from their sizes: `np.eye(n)[label]` builds n*n values to read n.
_SIZED_CONSTANTS = {"numpy.eye": "eye", "numpy.identity": "identity", "numpy.arange": "positions",
                    "numpy.linspace": "grid", "numpy.tri": "lower"}
_PURE_BUILTINS = frozenset({"len", "min", "max", "sum", "abs", "float", "int", "round", "sorted", "list", "tuple",
                            "range", "zip", "enumerate", "dict", "set"})
_IMPURE_METHODS = frozenset({"pop", "popitem", "popleft", "next", "send", "read", "readline"})
# Namespace functions already judged (by function object).
_LIVE_VERDICTS: "weakref.WeakKeyDictionary[types.FunctionType, bool]" = weakref.WeakKeyDictionary()


class CpuFunction(Rule):
    id = "cpu-function"
    title = "CPU-only function re-run in the loop on loop-invariant data"
    severity = Severity.MEDIUM
    explanation = (
        "NumPy and pure-Python preprocessing runs on the CPU, one call at a time, while the "
        "accelerator waits for the next batch. When its inputs do not change between iterations "
        "it returns the same result every time: computing it once before the loop and indexing "
        "the result removes that work (and the idle device time) from every step."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._reported: set[cst.CSTNode] = set()
        self._chain_end: cst.CSTNode | None = None  # the last statement of the chain `_hoist` moved
        self._moved_statements: list[cst.CSTNode] = []  # the statements `_hoist` moved, if it moved whole ones
        self._names: set[str] = set()
        self._sites = FactorySites(self.facts)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(self.facts.parent(node), cst.Expr):
            return  # result unused: nothing to hoist
        if self._counted_by_loading(node):
            return
        loop = self.facts.iteration_loop(node)
        if loop is None or rarely_runs(self.facts, node, loop) or self._inside_reported(node):
            return
        in_loop = bool(self.facts.enclosing_loops(node))
        if not in_loop and self._per_sample(node, loop):
            return
        if not in_loop and any("self" in self.facts.names_read(a.value) for a in node.args):
            return  # per call of a method: `self` may be another object each time
        if not in_loop and not self._helper_may_precompute(node):
            return
        if in_loop and self._rebuilt_buffer(node):
            return
        what = self._cpu_only(node)
        if what is None:
            if self._constant_array_indexed(node, loop, in_loop):
                return
            if in_loop and self._host_tensor_helper(node):
                self._shuffled_batch(node, "CPU preprocessing")
            return
        target = self._hoist_target(node) if in_loop else (loop if self._invariant(node, loop) else None)
        if target is None and in_loop:
            if not self._per_item(node, what) and not self._shuffled_batch(node, what):
                self._report_per_batch(node, what)
            return
        if target is None or self._inside_invariant_constructor(node) or (in_loop and self._filled_buffer(node, target)):
            return
        self._reported.add(node)
        code = self.facts.code(node)
        if not in_loop:
            fix = Fix(description="compute it once outside the per-iteration function (e.g. in `__init__`) and "
                      "index the stored result", suggestion=f"precomputed = {code}", safe=False)
        else:
            self._chain_end = None
            fix = self._hoist(node, target, code)
            if fix.edits and caught_in_loop(self.facts, node, target.node):
                fix = dataclasses.replace(fix, review=(
                    "it runs inside a `try` whose handler catches what it raises: moved before the loop, "
                    "an error it raises would no longer be caught"))
            elif fix.edits and (exits_before(self.facts, node, target.node) or self.facts.is_conditional(node, target)
                                or evaluated_conditionally(self.facts, node) or self._inner_loop_may_skip(node, target)):
                fix = dataclasses.replace(fix, review=(
                    "it runs only under a condition, or after a statement that may leave the iteration (`break`, "
                    "`continue`, `return`, `raise`): moved before the loop, it would run (and could raise) where it "
                    "never ran"))
            elif fix.edits and self.facts.may_run_zero_times(target):
                fix = dataclasses.replace(fix, review=(
                    "the loop may run zero times: the hoisted call would then run (and could raise) "
                    "where it never ran before"))
            elif fix.edits:
                moved = self._moved_statements or [node]
                stored = next((r for r in (store_hazard(self.facts, m, target) for m in moved) if r), "") \
                    or kept_by_program_code(self.facts, node, target)
                outside = "" if stored else unproved_outside_value(self.facts, moved)
                if stored:
                    fix = dataclasses.replace(fix, review=stored)
                elif outside:
                    fix = dataclasses.replace(fix, review=f"{outside}: moved before the loop, it could miss a change "
                                              "made by code this analysis does not see (closed-world proof)")
        where = "inside the loop" if in_loop else "in a function called on every iteration"
        self.report(
            node,
            f"`{code}` runs {what} {where} on loop-invariant data: the same result is recomputed on the CPU "
            "every iteration while the device waits",
            fix=fix,
            end_node=self._chain_end if in_loop else None,
        )

    def _constant_array_indexed(self, node: cst.Call, loop: Loop, in_loop: bool) -> bool:
        """`np.eye(n_classes)[label]` (the one-hot idiom), `np.arange(n)[mask]` on every iteration
        with `n` the same each time: a whole array built from sizes alone, only to read part of
        it. A hint: the read rows are views, and of one shared array once it is hoisted, so a
        caller changing one in place would change the others. True when reported."""
        if (self.facts.qualified_name(node.func) or "") not in _SIZED_CONSTANTS:
            return False
        parent = self.facts.parent(node)
        if not isinstance(parent, cst.Subscript) or parent.value is not node:
            return False
        target = self._hoist_target(node) if in_loop else (loop if self._invariant(node, loop) else None)
        if target is None:
            return False
        self._reported.add(node)
        code = self.facts.code(node)
        name = fresh_name(self.facts, _SIZED_CONSTANTS[self.facts.qualified_name(node.func) or ""], self._names)
        self._names.add(name)
        where = "inside the loop" if in_loop else "in a function called on every iteration"
        self.report(
            node,
            f"`{code}` builds a whole array {where} from the same sizes every time, only to index it: "
            "the same values are recomputed on the CPU every iteration",
            fix=Fix(description=f"build it once before the loop (`{name} = {code}`) and index `{name}` here. Not "
                    "rewritten: the rows read from it would be views of one shared array", suggestion=f"{name} = {code}",
                    safe=False),
        )
        return True

    def _counted_by_loading(self, node: cst.Call) -> bool:
        """`len(list(train_loader))` in a loop (seen in public scripts, to size a progress bar):
        every batch is loaded, collated and transformed only to be counted, once per iteration.
        A hint: `len(loader)` counts without loading (map-style datasets), but dropping the pass
        changes the global random stream a shuffling loader draws from, so it is not rewritten."""
        if not (isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1):
            return False
        inner = node.args[0].value
        if not (isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value in ("list", "tuple")
                and len(inner.args) == 1 and not inner.args[0].star):
            return False
        loader = inner.args[0].value
        made = self.facts.value_of(loader) if isinstance(loader, cst.Name) else None
        is_loader = self.facts.kind(loader) is Kind.DATALOADER or (
            isinstance(made, cst.Call) and (self.facts.qualified_name(made.func) or "") in LOADERS)
        loop = self.facts.iteration_loop(node)
        if not is_loader or loop is None or rarely_runs(self.facts, node, loop):
            return False
        name = self.facts.code(loader)
        self.report(
            node,
            f"`{self.facts.code(node)}` loads every batch of `{name}` (sampling, collating, transforms) only to count "
            "them, on every iteration of the loop: a whole extra pass over the data",
            fix=Fix(description=f"count without loading: `len({name})` (the number of batches of a map-style dataset). "
                    "Not rewritten: the extra pass draws from the global random stream when the loader shuffles, so "
                    "later batches would change, and an iterable dataset may have no length",
                    suggestion=f"len({name})", safe=False),
        )
        return True

    def _report_per_batch(self, node: cst.Call, what: str) -> None:
        """`for epoch ...: for idx in batches: A = build_graph(data[idx])`: the inner loop replays
        the same batches on every outer pass, and the call depends only on the batch, so every
        batch's result is recomputed each epoch. Caching per batch changes the loop's shape: a hint."""
        loops = self.facts.enclosing_loops(node)
        if len(loops) < 2 or not isinstance(loops[0].node, cst.For) or self._inside_invariant_constructor(node):
            return
        inner, outer = loops[0], loops[1]
        batch = frozenset(bound_names(inner.node.target))
        if batch & self.facts.names_written(inner.node.body) \
                or any(mutated_in_place(self.facts, n, outer.node.body) for n in batch):
            return  # the batch is rebound or changed in place in the loop
        if not self._replayed(inner.node.iter, outer) or not invariant(self.facts, node, outer, batch):
            return
        self._reported.add(node)
        code = self.facts.code(node)
        target, iterable = self.facts.code(inner.node.target), self.facts.code(inner.node.iter)
        name = fresh_name(self.facts, f"{_function_name(node)}_per_batch", self._names)
        self._names.add(name)
        self.report(
            node,
            f"`{code}` runs {what} on the same `{target}` on every pass of the outer loop: `{iterable}` "
            "yields the same batches each time, so every batch's result is recomputed on the CPU",
            fix=Fix(description=f"compute it once per batch before the outer loop (`{name}`, one entry per item "
                    f"of `{iterable}`) and read the batch's entry inside, by its position from `enumerate`",
                    suggestion=f"{name} = [{code} for {target} in {iterable}]", safe=False),
        )

    def _shuffled_batch(self, node: cst.Call, what: str) -> bool:
        """`encode(texts_of(data[i : i + B]))` in `for i in range(0, len(data), B)` under an epoch
        loop that only shuffles `data` (`random.shuffle(data)`): the batches change, their items
        do not, so every epoch redoes the same per-item work (tokenising, featurising) on the CPU.
        Caching per item and keeping only the per-batch part (padding) changes the helper: a hint.
        True when reported."""
        loops = self.facts.enclosing_loops(node)
        if len(loops) < 2 or not isinstance(loops[0].node, cst.For) or not isinstance(loops[0].node.target, cst.Name):
            return False
        inner, outer, var = loops[0], loops[-1], loops[0].node.target.value
        it = inner.node.iter
        if not (isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.range" and len(it.args) == 3):
            return False
        data = next((d for d in (self._batch_slice_of(a.value, var, inner) for a in node.args) if d is not None), None)
        if data is None or not self._only_shuffled(data, outer) or not all(
                self._batch_slice_of(a.value, var, inner) is not None or invariant(self.facts, a.value, outer)
                for a in node.args if not a.star):
            return False
        self._reported.add(node)
        self.report(
            node,
            f"`{self.facts.code(node)}` runs {what} on the items of a batch of `{data}`, which the outer loop only "
            "reorders: every pass (every epoch) redoes the same per-item work on the CPU",
            fix=Fix(description=f"do the per-item part once before the loops (one result per item of `{data}`, "
                    "shuffled along with it) and keep only the per-batch part (padding, stacking) here", safe=False),
        )
        return True

    def _host_tensor_helper(self, call: cst.Call) -> bool:
        """A pure function of this unit that builds tensors on the host only (`torch.tensor(ids)`,
        `pad_sequence`, `torch.zeros(n, v)` filled in Python): no `device=`, no move, no module,
        no training, no I/O. Its work runs on the CPU like NumPy's."""
        if not isinstance(call.func, cst.Name):
            return False
        func = self.facts.functions.get(call.func.value) or self.facts._function_at(call.func)  # here, or an earlier cell's
        owner = self.facts.owner_of(func) if func is not None else None
        if func is None or owner is None or owner.functions.get(call.func.value) is not func \
                or not owner.is_pure_function(call.func.value):
            return False
        for node in owner.walk(func.body):
            if isinstance(node, cst.Attribute) and node.attr.value in ("cuda", "to", "backward", "step", "device"):
                return False
            if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == "device":
                return False
            if isinstance(node, cst.Call) and (owner.kind(node.func) is Kind.MODULE or (owner.qualified_name(node.func) or "")
                                               in ("builtins.open", "builtins.print", "builtins.input")):
                return False
        return True

    def _batch_slice_of(self, value: cst.BaseExpression, var: str, inner: Loop) -> str | None:
        """`data` for `data[i : i + B]`, a comprehension over it, or a name bound in the batch loop
        to one of those (or to `zip(*data[i : i + B])`)."""
        if isinstance(value, cst.Name):
            stmts = [n for n in self.facts.walk(inner.node.body) if isinstance(n, cst.Assign)
                     and value.value in {b for t in n.targets for b in bound_names(t.target)}]
            if len(stmts) != 1:
                return None
            value = stmts[0].value
            if isinstance(value, cst.Call) and (self.facts.qualified_name(value.func) or "") == "builtins.zip" \
                    and len(value.args) == 1 and value.args[0].star == "*":
                value = value.args[0].value
        if isinstance(value, (cst.ListComp, cst.GeneratorExp)) and value.for_in.inner_for_in is None and not value.for_in.ifs:
            value = value.for_in.iter
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1 \
                and isinstance(value.slice[0].slice, cst.Slice) and isinstance(value.slice[0].slice.lower, cst.Name) \
                and value.slice[0].slice.lower.value == var and value.slice[0].slice.step is None:
            return value.value.value
        return None

    def _only_shuffled(self, data: str, outer: Loop) -> bool:
        """`data` is not rebound in `outer` and every call there that is handed it only reads it
        (`len`) or shuffles it in place (`random.shuffle`: the same items, reordered)."""
        for call in self.facts.calls_in(outer.node.body):
            if any(data in self.facts.names_read(a.value) and isinstance(a.value, cst.Name) for a in call.args) \
                    and (self.facts.qualified_name(call.func) or "") not in ("random.shuffle", "builtins.len", "builtins.zip"):
                return False
            if isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name) and call.func.value.value == data:
                return False  # `data.append(...)`, `data.sort(...)`: changed otherwise
        return not any(isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.For, cst.NamedExpr)) and data in bound_names(n.target)
                       for n in self.facts.walk(outer.node.body))

    def _per_item(self, node: cst.Call, what: str) -> bool:
        """`torch.tensor([encode(texts[j]) for j in idx])` in a batch loop under an epoch loop: the
        call reads item `j` of data no loop changes (and nothing else that varies), so every
        epoch recomputes the same result for each item, whatever order the batches come in.
        Caching one result per item changes the data's shape: a hint. True when reported."""
        loops = self.facts.enclosing_loops(node)
        comp = next((a for a in self.facts.ancestors(node) if isinstance(a, (cst.ListComp, cst.GeneratorExp))), None)
        if len(loops) < 2 or comp is None or comp.for_in.inner_for_in is not None \
                or not isinstance(comp.for_in.target, cst.Name) or self._inside_invariant_constructor(node):
            return False
        var, outer = comp.for_in.target.value, loops[-1]
        items = []
        for arg in node.args:
            value = arg.value
            if arg.star or arg.keyword is not None and var in self.facts.names_read(value):
                return False
            if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
                    and isinstance(value.slice[0].slice.value, cst.Name) and value.slice[0].slice.value.value == var:
                value = value.value
                items.append(value)
            if var in self.facts.names_read(value) or not invariant(self.facts, value, outer):
                return False
        if len(items) != 1 or not isinstance(items[0], (cst.Name, cst.Attribute)):
            return False
        self._reported.add(node)
        data, code = self.facts.code(items[0]), self.facts.code(node)
        name = fresh_name(self.facts, f"{_function_name(node)}_per_item", self._names)
        self._names.add(name)
        per_item = code.replace(f"{data}[{var}]", "item", 1)
        self.report(
            node,
            f"`{code}` runs {what} on item `{var}` of `{data}`, which no loop changes: every pass of the outer "
            "loop (every epoch) recomputes the same result for each item on the CPU",
            fix=Fix(description=f"compute it once per item before the loops (`{name} = [{per_item} for item in {data}]`) "
                    f"and read `{name}[{var}]` here", suggestion=f"{name} = [{per_item} for item in {data}]", safe=False),
        )
        return True

    def _per_sample(self, node: cst.Call, loop: Loop) -> bool:
        """`ids = tokenize(self.texts[i])` in a Dataset's `__getitem__`: a pure CPU-only call on
        the sample the index selects, from data the dataset never changes after `__init__`, so
        every pass over the dataset (every epoch) recomputes the same result per sample. Caching
        it in `__init__` changes the class: a hint. True when reported."""
        func = self.facts.enclosing_function(node)
        cls = self.facts.parent(self.facts.parent(func)) if func is not None else None
        if not isinstance(func, cst.FunctionDef) or func.name.value != "__getitem__" or not isinstance(cls, cst.ClassDef):
            return False
        params = [p.name.value for p in func.params.params]
        if len(params) != 2 or not _replays_dataset(self.facts, loop) or _changes_own_data(self.facts, cls):
            return False
        what = self._cpu_only(node) or _object_call(self.facts, node.func)
        if what != "CPU-only preprocessing" or self._inside_invariant_constructor(node):
            return False  # a user's helper: a NumPy conversion per sample (`np.asarray(img)`) is the usual idiom
        per_index = _per_index_names(self.facts, func, node, params[1])
        if per_index is None or not self.facts.names_read(node) & per_index \
                or not invariant(self.facts, node, loop, frozenset(per_index)):
            return False
        self._reported.add(node)
        code = self.facts.code(node)
        self.report(
            node,
            f"`{code}` runs {what} in `{cls.name.value}.__getitem__` on the sample the index selects, from data "
            "the dataset never changes: every pass over the dataset (every epoch) recomputes the same result "
            "for each sample on the CPU",
            fix=Fix(description=f"compute it once per sample in `{cls.name.value}.__init__` (a list with one entry per "
                    f"sample) and return the stored entry in `__getitem__`",
                    suggestion=f"self.cached = [{code} ... for each sample]", safe=False),
        )
        return True

    def _replayed(self, iterable: cst.BaseExpression, outer: Loop) -> bool:
        """The same sequence on every pass of `outer`: a range or an unchanged list/array/tensor
        (or an enumerate/zip of those); a loader (it may shuffle) or anything unknown is not."""
        if not invariant(self.facts, iterable, outer):
            return False
        if isinstance(iterable, (cst.List, cst.Tuple)):
            return True
        if isinstance(iterable, cst.Call):
            q = self.facts.qualified_name(iterable.func) or ""
            if q == "builtins.range":
                return True
            if q in ("builtins.enumerate", "builtins.zip"):
                args = [a.value for a in iterable.args if a.keyword is None and not a.star]
                return bool(args) and all(self._replayed(a, outer) for a in args)
            return False
        return self.facts.kind(iterable) in (Kind.LIST, Kind.NDARRAY, Kind.TENSOR)

    # --- which calls ------------------------------------------------------------------------

    def _cpu_only(self, call: cst.Call) -> str | None:
        """'NumPy work' / 'pure-Python preprocessing' for a CPU-only pure call, else None."""
        qualified = self.facts.qualified_name(call.func) or ""
        if qualified.startswith("numpy.") and not qualified.startswith("numpy.random."):
            if numpy_call_has_effects(call, qualified, self.facts.is_program_function) or not self._has_data_argument(call):
                return None
            return "NumPy work"
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _ARRAY_WORK and not call.args or \
                isinstance(func, cst.Attribute) and func.attr.value in _ARRAY_WORK and all(
                    isinstance(a.value, (cst.Integer, cst.UnaryOperation)) or a.keyword is not None and a.keyword.value in ("axis", "keepdims", "ddof")
                    for a in call.args):
            return "NumPy work" if self.facts.kind(func.value) is Kind.NDARRAY else None  # `X[tr].mean(0)`
        if not isinstance(func, cst.Name):
            return None
        if func.value in self.facts.functions:
            return "CPU-only preprocessing" if self.facts.host_only(self.facts.functions[func.value]) \
                and self.facts.is_pure_function(func.value) else None
        value = self.facts.namespace.get(func.value)
        if isinstance(value, types.FunctionType) and not bound_in_unit(self.facts, func.value):
            return "CPU-only preprocessing" if _live_function_is_cpu_only(value) else None
        earlier = self.facts._function_at(func) if value is None else None  # an earlier cell's or a local module's
        owner = self.facts.owner_of(earlier) if earlier is not None else None
        if owner is not None and owner is not self.facts and owner.functions.get(func.value) is earlier:
            return "CPU-only preprocessing" if owner.host_only(earlier) and owner.is_pure_function(func.value) else None
        return None

    def _helper_may_precompute(self, node: cst.Call) -> bool:
        """Work inside a per-iteration helper is reported there only when the helper has no
        effects (printing, I/O, writing into arrays: a logging or metric helper runs for its
        effect) and is not itself CPU-only (then its call in the loop is the finding: one per site)."""
        func = self.facts.enclosing_function(node)
        name = next((k for k, f in self.facts.functions.items() if f is func), None)
        if name is None or not self.facts.is_pure_function(name):
            return False
        return not self.facts.host_only(func) or self._same_every_call(node, func) and not self._called_the_same_way(func)

    def _called_the_same_way(self, func: cst.FunctionDef, depth: int = 3) -> bool:
        """Every per-iteration call of the CPU-only helper is itself loop-invariant
        (`mel_filterbank(SR, N_FFT, N_MELS)` in a feature function, or a call passing on the
        parameters of a helper that is called so): that call is the finding, not the work
        inside the helper (one finding per site)."""
        sites = self.facts.per_iteration_call_sites(func)
        for owner, call in sites:
            if owner is not self.facts:
                return False
            caller = self.facts.enclosing_function(call)
            if any(isinstance(anc, _COMPREHENSIONS) for anc in self.facts.ancestors(call)):
                return False  # `[log_mel(w) for w, _ in batch]`: once per element
            if self.facts.enclosing_loops(call):
                if self._hoist_target(call) is None:
                    return False
            elif not isinstance(caller, cst.FunctionDef) or not (
                    self._same_every_call(call, caller)
                    or depth > 0 and self._passes_own_parameters(call, caller) and self._called_the_same_way(caller, depth - 1)):
                return False
        return bool(sites)

    def _passes_own_parameters(self, call: cst.Call, caller: cst.FunctionDef) -> bool:
        """`mel_points(sr, n_mels)` in `filterbank(sr, n_fft, n_mels)`: the arguments read only
        the caller's parameters, never rebound in it, and call nothing."""
        params = named_params(caller.params)
        written = set(self.facts.names_written(caller.body))
        return bool(call.args) and all(
            not a.star and not self.facts.calls_in(a.value) and self.facts.names_read(a.value) <= params - written
            for a in call.args)

    def _same_every_call(self, node: cst.Call, func: cst.FunctionDef) -> bool:
        """`fb = mel_filterbank(SR, N_FFT, N_MELS)` inside a CPU-only helper run per sample: its
        arguments read nothing of the helper (no parameter, no local), so every call of the
        helper recomputes the same value; the helper's own call varies with its data."""
        params = named_params(func.params)
        if not params - {"self"}:
            return False  # the helper's own call is the same every time (or a method's: per object, not per call)
        local = params | set(self.facts.names_written(func.body))
        return bool(node.args) and all(not a.star and not (self.facts.names_read(a.value) & local) for a in node.args)

    def _has_data_argument(self, call: cst.Call) -> bool:
        """At least one argument is data (an array or list), not only constants and scalars."""
        for arg in call.args:
            value = arg.value
            if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
                continue
            kind = self.facts.kind(value)
            if kind in (Kind.NDARRAY, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST):
                return True
            if kind is Kind.UNKNOWN and isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)):
                live = self.facts.namespace.get(value.value) if isinstance(value, cst.Name) else None
                if live is None or not isinstance(live, (int, float, bool, str)):
                    return True
        return False

    def _inside_reported(self, node: cst.CSTNode) -> bool:
        return any(anc in self._reported for anc in self.facts.ancestors(node))

    def _inside_invariant_constructor(self, node: cst.CSTNode) -> bool:
        """`torch.tensor(np.log(raw))` as a whole is a redundant tensor when that rule reports it
        (one finding per site); a constructor it leaves (`torch.from_numpy(f(a))`) is this rule's."""
        for anc in self.facts.ancestors(node):
            if isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return False
            if isinstance(anc, cst.Call) and self._sites.site(anc) is not None:
                return True
        return False

    def _hoist_target(self, node: cst.Call) -> Loop | None:
        """The outermost loop the call is invariant in. Loops over the optimizer's groups or the
        model's parameters inside a per-step loop apply one value per group (often a single one):
        the call repeats with the step, so invariance is judged from the step's loop."""
        loops = self.facts.enclosing_loops(node)
        inner = 0
        while inner < len(loops) - 1 and _over_model_structure(loops[inner]):
            inner += 1
        best = None
        for loop in loops[inner:]:
            if not self._invariant(node, loop):
                break
            best = loop
        return best

    def _invariant(self, call: cst.Call, loop: Loop) -> bool:
        """Invariant in `loop`; a function from an earlier cell (judged pure) on invariant arguments too."""
        func = call.func
        if isinstance(func, cst.Name) and func.value not in self.facts.functions and func.value in self.facts.namespace:
            code = getattr(self.facts.namespace[func.value], "__code__", None)
            reads = set(code.co_names) if code is not None else set()
            # judged pure from its source: only the loop's other calls may change its arguments
            varying = loop.writes | self.facts.mutated_in_loop(loop, except_call=call)
            return not reads & varying and all(
                not self.facts.names_read(arg.value) & varying and not self.facts.calls_in(arg.value) for arg in call.args)
        return invariant(self.facts, call, loop)

    # --- the rewrite ------------------------------------------------------------------------

    def _hoist(self, node: cst.Call, loop: Loop, code: str) -> Fix:
        stmt = self.facts.statement_of(node)
        self._moved_statements = []
        assigned = _assigned_name(self.facts, node)
        holder = self._flows_into(node)
        if holder is None:
            return Fix(description="compute it once before the loop and index the result (check that nothing "
                       "changes it in place)", suggestion=f"precomputed = {code}", safe=False)
        if holder is not FRESH and self._changed_in_loop(holder, loop):
            return Fix(description=f"compute it once before the loop; `{holder}` is changed in place in the loop, "
                       "so copy it there (`.copy()`) or leave it", suggestion=f"{holder}_once = {code}", safe=False)
        names = {assigned} if assigned is not None else _tuple_names(stmt)
        if assigned is None and names and not self._whole_value_invariant(stmt, loop):
            names = set()  # `mean, noise = X.mean(0), rng.rand()`: the other element varies
        if names:
            chain = self._chain(stmt, names, loop)  # type: ignore[arg-type]
            if len(chain) > 1 and self._movable_chain(chain, loop):
                lines = [self.facts.code(s.with_changes(leading_lines=())).strip() for s in chain]
                edits = hoist_statements(self.facts, chain, loop)
                self._moved_statements = list(chain)
                self._reported.update(chain)
                self._chain_end = chain[-1]
                shown = assigned or ", ".join(sorted(names))
                return Fix(description=f"compute `{shown}` once before the loop ({len(chain)} statements that "
                           "depend only on loop-invariant data)", edits=edits, suggestion="\n".join(lines))
            if assigned is not None and self._movable(stmt, assigned, loop):
                self._moved_statements = [stmt]
                return Fix(description=f"compute it once before the loop: `{assigned} = {code}`",
                           edits=hoist_statement(self.facts, stmt, loop), suggestion=f"{assigned} = {code}")  # type: ignore[arg-type]
        base = _function_name(node)
        name = fresh_name(self.facts, f"{assigned or base}_once", self._names)
        self._names.add(name)
        return Fix(description=f"compute it once before the loop as `{name}` and use that here",
                   edits=hoist_expression(self.facts, node, loop, name), suggestion=f"{name} = {code}")

    def _inner_loop_may_skip(self, node: cst.Call, target: Loop) -> bool:
        """`node` is in a loop inside `target` that may run zero times (`while not warm:`): hoisted
        out of both, it would run where it never ran."""
        for loop in self.facts.enclosing_loops(node):
            if loop is target:
                return False
            if self.facts.may_run_zero_times(loop):
                return True
        return False

    def _whole_value_invariant(self, stmt: cst.CSTNode, loop: Loop) -> bool:
        value = stmt.body[0].value  # type: ignore[attr-defined]
        return invariant(self.facts, value, loop) and all(
            self._pure_in_chain(c, set(), loop) for c in self.facts.calls_in(value))

    def _chain(self, first: cst.SimpleStatementLine, assigned: set[str], loop: Loop) -> list[cst.SimpleStatementLine]:
        """`first` and the statements right after it that only refine its result from
        invariant data (`f = np.log1p(raw)`; `f = (f - f.mean(0)) / f.std(0)`)."""
        block = self.facts.parent(first)
        body = block_statements(block)
        chain, names = [first], set(assigned)
        for stmt in body[body.index(first) + 1 :] if first in body else ():
            target = _single_assignment(stmt)
            if target is None:
                break
            rhs = stmt.body[0].value  # type: ignore[union-attr]
            reads = self.facts.names_read(rhs)
            if not reads & names or reads & (loop.writes - names):
                break
            if not all(self._pure_in_chain(call, names, loop) for call in self.facts.calls_in(rhs)):
                break
            chain.append(stmt)
            names.add(target)
        return chain

    def _pure_in_chain(self, call: cst.Call, names: set[str], loop: Loop) -> bool:
        qualified = self.facts.qualified_name(call.func) or ""
        last = qualified.rsplit(".", 1)[-1]
        if qualified.startswith("numpy."):
            return not qualified.startswith("numpy.random.") and not numpy_call_has_effects(
                call, qualified, self.facts.is_program_function)
        if qualified.startswith("builtins."):
            return last in _PURE_BUILTINS
        if qualified.startswith("torch.") and qualified.count(".") == 1:
            return last not in _TORCH_RANDOM and not is_inplace_method(last)
        func = call.func
        if isinstance(func, cst.Name) and func.value in self.facts.functions:
            return self.facts.is_pure_function(func.value)
        if isinstance(func, cst.Attribute) and root_name(func.value) in names:
            return not is_inplace_method(func.attr.value) and func.attr.value not in _IMPURE_METHODS
        return invariant(self.facts, call, loop)

    def _movable_chain(self, chain: list[cst.SimpleStatementLine], loop: Loop) -> bool:
        """The chain's names: written only by it, not read before it, never changed in place."""
        names = {n for n in map(_single_assignment, chain) if n is not None} | _tuple_names(chain[0])
        if self.facts.is_conditional(chain[0], loop):
            return False
        if not sole_writers(self.facts, names, list(chain), loop):
            return False
        return not any(self._changed_in_loop(n, loop) for n in names)

    def _flows_into(self, node: cst.CSTNode) -> str | None:
        """Where the result (or a view of it) ends up: a name, `FRESH` (only copies of it are
        kept), or None (it escapes somewhere this rule does not follow)."""
        current = node
        for anc in self.facts.ancestors(node):
            if isinstance(anc, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.Index, cst.Slice)):
                return FRESH  # arithmetic builds a new value; an index only reads
            if isinstance(anc, cst.Subscript) or (isinstance(anc, cst.Attribute) and anc.value is current):
                current = anc
                continue
            if isinstance(anc, cst.Call):
                if anc.func is current:  # a method of the result
                    method = current.attr.value if isinstance(current, cst.Attribute) else ""
                    if method in _COPYING_METHODS:
                        return FRESH
                    current = anc
                    continue
                q = self.facts.qualified_name(anc.func) or ""
                if q in _COPYING_CALLS:
                    return FRESH
                if q in SHARING_CALLS or library_result_may_share(q, anc):
                    current = anc
                    continue
                return None
            if isinstance(anc, cst.Arg):
                current = anc
                continue
            if isinstance(anc, cst.Assign) and anc.value is current and len(anc.targets) == 1 \
                    and isinstance(anc.targets[0].target, cst.Name):
                return anc.targets[0].target.value
            if isinstance(anc, cst.Element) and anc.value is current:
                target = _paired_target(self.facts, anc)  # `mean, std = X.mean(0), X.std(0)`
                return target
            return None
        return None

    def _rebuilt_buffer(self, node: cst.Call) -> bool:
        """`adj = np.zeros((N, N))` then `adj[edges[:, 0], edges[:, 1]] = 1.0` and `adj = adj + adj.T`
        at the top of the loop's body: a buffer filled, every iteration, from loop-invariant data only
        (`_rebuilt_chains`), so each iteration builds the same array. A hint: the chain's statements
        would move together, and later ones may turn the array into something else (a tensor)."""
        if (self.facts.qualified_name(node.func) or "") not in _ALLOCATIONS:
            return False
        loop = self.facts.enclosing_loops(node)[0]
        stmt = self.facts.statement_of(node)
        holder = self._flows_into(node)
        chain = rebuilt_chains(self.facts, loop).get(holder) if isinstance(holder, str) else None
        if not chain or chain[0] is not stmt or not any(
                isinstance(s.body[0].targets[0].target, cst.Subscript) for s in chain[1:]):  # type: ignore[attr-defined]
            return False  # never filled in place: the plain hoist (with its chain) is the fix
        self._reported.add(node)
        what = "NumPy work"
        first, last = self.facts.position(chain[0]).start.line, self.facts.position(chain[-1]).start.line
        self.report(
            node,
            f"`{self.facts.code(node)}` starts `{holder}`, which lines {first}-{last} fill and transform with {what} from "
            "loop-invariant data only, on every iteration: the same array is rebuilt each time",
            fix=Fix(description=f"build `{holder}` once before the loop (the statements of lines {first}-{last}, in "
                    "order) and read it here; not rewritten automatically: the statements move together, and the loop "
                    "must not need a fresh copy", suggestion="\n".join(self.facts.code(s).strip() for s in chain),
                    safe=False),
        )
        return True

    def _filled_buffer(self, node: cst.Call, loop: Loop) -> bool:
        """`seq = np.zeros(maxlen)` then `seq[-len(h):] = h` in the loop: a buffer each iteration
        fills, not work on invariant data (one made before the loop would carry an iteration's
        values into the next)."""
        if (self.facts.qualified_name(node.func) or "") not in _ALLOCATIONS:
            return False
        holder = self._flows_into(node)
        return holder is not None and holder is not FRESH and self._changed_in_loop(holder, loop)

    def _changed_in_loop(self, name: str, loop: Loop) -> bool:
        """`name` or a value derived from it in the loop is changed in place there, or passed to
        a callable that may change it (`_callee_may_change`)."""
        holders = {name}
        for node in self.facts.walk(loop.node.body):
            if isinstance(node, cst.Assign) and self._may_alias(node.value, name):
                for target in node.targets:
                    holders |= set(bound_names(target.target))
        if any(mutated_in_place(self.facts, h, loop.node.body) for h in holders):
            return True
        for node in self.facts.walk(loop.node.body):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
                    and any(isinstance(a.value, cst.Name) and a.value.value in holders for a in node.args):
                if self._callee_may_change(node, holders):
                    return True
        return False

    def _callee_may_change(self, call: cst.Call, holders: set[str]) -> bool:
        """`f(h)` may change `h`: `f` is a function of this unit that changes that parameter, an
        object called like a function whose `__call__` changes it or hands it on to code that
        may (`augment(feats)` for a `Compose` of in-place transforms: red team 35), or a callable
        this analysis cannot see; a library function changes only what `out=` names."""
        func = call.func
        assert isinstance(func, cst.Name)
        if func.value in self.facts.functions:
            owner, method, skip = self.facts, self.facts.functions[func.value], 0
        elif (found := _instance_class(self.facts, func)) is not None:
            owner, cls = found
            method = owner.functions.get(f"{cls.name.value}.__call__")
            if method is None:
                return True  # called through a base class or `__getattr__`: not seen
            skip = 1
        elif self.facts.kind(func) is Kind.MODULE:
            return module_changes_input(self.facts, func)  # `model(x)`: an in-place first layer, a forward hook
        else:
            qualified = self.facts.qualified_name(func) or ""
            return not qualified.startswith(("numpy.", "torch.", "builtins.", "math."))
        params = [p.name.value for p in method.params.params][skip:]
        for i, arg in enumerate(call.args):
            if isinstance(arg.value, cst.Name) and arg.value.value in holders:
                param = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else None)
                if param is None or mutated_in_place(owner, param, method.body) \
                        or skip and handed_to_changing_call(owner, param, method.body):
                    return True
        return False

    def _may_alias(self, value: cst.BaseExpression, name: str) -> bool:
        """`value` may be (a view of) `name`'s object: `adj.t()`, `adj[0]`, `model(x, adj)`;
        arithmetic on it (`adj @ x`) builds a new one."""
        return any(self._flows_into(n) is not FRESH for n in self.facts.walk(value)
                   if isinstance(n, cst.Name) and n.value == name and not _attribute_name(self.facts, n))

    def _movable(self, stmt: cst.CSTNode, assigned: str, loop: Loop) -> bool:
        """`name = f(...)` moves whole: unconditional, the only write of `name`, not read before."""
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or self.facts.is_conditional(stmt, loop):
            return False
        return sole_writers(self.facts, {assigned}, [stmt], loop)


_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _assigned_name(facts: Facts, node: cst.CSTNode) -> str | None:
    parent = facts.parent(node)
    if isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1 \
            and isinstance(parent.targets[0].target, cst.Name):
        return parent.targets[0].target.value
    return None


def _attribute_name(facts: Facts, name: cst.Name) -> bool:
    """`mean` in `x.mean(0)`: an attribute's name, not a read of the variable `mean`."""
    parent = facts.parent(name)
    return isinstance(parent, cst.Attribute) and parent.attr is name


def _tuple_names(stmt: cst.CSTNode) -> set[str]:
    """`{"mean", "std"}` for a statement line that is exactly `mean, std = a, b` (plain names)."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        assign = stmt.body[0]
        if len(assign.targets) == 1 and _paired(assign.targets[0].target, assign.value):
            return {el.value.value for el in assign.targets[0].target.elements}  # type: ignore[union-attr]
    return set()


def _paired(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    return isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements) \
        and all(isinstance(el, cst.Element) and isinstance(el.value, cst.Name) for el in target.elements) \
        and all(isinstance(el, cst.Element) for el in value.elements)


def _paired_target(facts: Facts, element: cst.Element) -> str | None:
    """The name a tuple assignment binds to this element of its value (`std` for `X.std(0)` in
    `mean, std = X.mean(0), X.std(0)`)."""
    value = facts.parent(element)
    assign = facts.parent(value) if isinstance(value, cst.Tuple) else None
    if not (isinstance(assign, cst.Assign) and assign.value is value and len(assign.targets) == 1
            and _paired(assign.targets[0].target, value)):
        return None
    index = list(value.elements).index(element)  # type: ignore[union-attr]
    return assign.targets[0].target.elements[index].value.value  # type: ignore[union-attr]


def _single_assignment(stmt: cst.CSTNode) -> str | None:
    """`name` for a statement line that is exactly `name = value`."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        targets = stmt.body[0].targets
        if len(targets) == 1 and isinstance(targets[0].target, cst.Name):
            return targets[0].target.value
    return None


def _function_name(call: cst.Call) -> str:
    func = call.func
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else "result"


def _live_function_is_cpu_only(func: types.FunctionType) -> bool:
    """A function from an earlier cell: judge its source the same way as a function in this cell."""
    verdict = _LIVE_VERDICTS.get(func)
    if verdict is None:
        verdict = False
        try:
            source = textwrap.dedent(inspect.getsource(func))
            module = cst.parse_module(source)
        except (OSError, TypeError, cst.ParserSyntaxError):
            module = None
        if module is not None:
            live = Facts(module, {k: v for k, v in func.__globals__.items() if isinstance(v, types.ModuleType)})
            name = func.__name__
            verdict = name in live.functions and live.host_only(live.functions[name]) and live.is_pure_function(name)
        _LIVE_VERDICTS[func] = verdict
    return verdict


_MUTATING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "sort", "reverse",
                               "shuffle", "setdefault", "popitem", "add", "discard", "fill_", "copy_"})


def _replays_dataset(facts: Facts, loop: Loop) -> bool:
    """The loop that runs `__getitem__` passes over the data more than once: an epoch loop
    around a batch loop (either may be the one the analysis names)."""
    return loop.parent is not None or any(other.parent is loop for other in facts.loops)


def _changes_own_data(facts: Facts, cls: cst.ClassDef) -> bool:
    """A method other than `__init__` rebinds an attribute of `self` or calls a mutating method
    on one (`self.samples.append(...)`, `random.shuffle(self.items)`)."""
    for stmt in cls.body.body:
        if not isinstance(stmt, cst.FunctionDef) or stmt.name.value == "__init__":
            continue
        for n in facts.walk(stmt.body):
            if isinstance(n, (cst.AssignTarget, cst.AugAssign)) and root_name(n.target) == "self":
                return True
            if isinstance(n, cst.Call):
                func = n.func
                if isinstance(func, cst.Attribute) and func.attr.value in _MUTATING_METHODS \
                        and root_name(func.value) == "self":
                    return True
                if any(root_name(a.value) == "self" for a in n.args) and not _leaves_arguments(facts, func):
                    return True  # handed to a call that may change it
    return False


def _leaves_arguments(facts: Facts, func: cst.BaseExpression) -> bool:
    """A pure function of this unit, or a builtin that only reads (`len`, `sorted`)."""
    if isinstance(func, cst.Name) and func.value in facts.functions:
        return facts.is_pure_function(func.value)
    qualified = facts.qualified_name(func) or ""
    return qualified.startswith("builtins.") and qualified.rsplit(".", 1)[-1] in _PURE_BUILTINS


def _object_call(facts: Facts, func: cst.BaseExpression) -> str | None:
    """`self.tokenizer(text)`: an object of a class of this program called like a function.
    CPU-only preprocessing when its `__call__` is host-only and pure (no randomness, reads only)
    and no method changes the object after `__init__` (a tokenizer with a fixed vocabulary)."""
    found = _instance_class(facts, func)
    if found is None:
        return None
    owner, cls = found
    key = f"{cls.name.value}.__call__"
    method = owner.functions.get(key)
    if method is None or _changes_own_data(owner, cls):
        return None
    return "CPU-only preprocessing" if owner.host_only(method) and owner.is_pure_function(key) else None


def _instance_class(facts: Facts, expr: cst.BaseExpression) -> tuple[Facts, cst.ClassDef] | None:
    """The class of this program an object belongs to: `tok` bound to `Tokenizer(...)`, or
    `self.tokenizer` that `__init__` binds to one, or to a parameter that every construction of
    the class in this unit passes one for (`TextDataset(texts, tokenizer)`)."""
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr)
        return facts.class_named(value.func) if isinstance(value, cst.Call) else None
    if not isinstance(expr, cst.Attribute) or not is_self_attr(expr, expr.attr.value):
        return None
    cls = next((a for a in facts.ancestors(expr) if isinstance(a, cst.ClassDef)), None)
    value = init_value(facts, cls, expr.attr.value) if cls is not None else None
    if isinstance(value, cst.Call):
        return facts.class_named(value.func)
    init = facts.functions.get(f"{cls.name.value}.__init__") if cls is not None else None
    params = [p.name.value for p in init.params.params] if init is not None else []
    if not isinstance(value, cst.Name) or value.value not in params[1:] or cls is None:
        return None
    position = params.index(value.value) - 1
    classes = []
    for use in facts.uses(cls.name.value):
        site = facts.parent(use)
        if site is cls:
            continue  # `class TextDataset(...)` itself
        if not (isinstance(site, cst.Call) and site.func is use) or any(a.star for a in site.args):
            return None  # passed on, or built with `*args`: the argument is not seen
        positional = [a.value for a in site.args if a.keyword is None]
        given = next((a.value for a in site.args if a.keyword is not None and a.keyword.value == value.value),
                     positional[position] if position < len(positional) else None)
        given = facts.value_of(given) if isinstance(given, cst.Name) else given
        found = facts.class_named(given.func) if isinstance(given, cst.Call) else None
        if found is None:
            return None
        classes.append(found)
    return classes[0] if classes and all(c[1] is classes[0][1] for c in classes) else None


def _per_index_names(facts: Facts, func: cst.FunctionDef, before: cst.CSTNode, index: str) -> set[str] | None:
    """`index` and the names `__getitem__` binds, before `before`, only from `self`'s data at
    that index (`text, label = self.samples[i]`): the same values whenever the index is."""
    names = {index}
    start = facts.order(before)
    for n in facts.walk(func.body):
        if facts.order(n) >= start:
            break
        if isinstance(n, cst.Assign) and len(n.targets) == 1:
            reads = facts.names_read(n.value)
            if reads <= names | {"self"} and not facts.calls_in(n.value):
                names |= set(bound_names(n.targets[0].target))
            else:
                names -= facts.names_written(n)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr)):
            names -= facts.names_written(n)
    return names


# Loops over what an optimizer or a module holds: a fixed, small set of groups, not steps.
_STRUCTURE_ATTRS = frozenset({"param_groups"})
_STRUCTURE_METHODS = frozenset({"parameters", "named_parameters", "modules", "named_modules", "children",
                                "named_children", "buffers", "named_buffers"})


def _over_model_structure(loop: Loop) -> bool:
    """`for group in optimizer.param_groups:` / `for p in model.parameters():` (or a `zip` of them)."""
    if not isinstance(loop.node, cst.For):
        return False

    def structure(it: cst.BaseExpression) -> bool:
        if isinstance(it, cst.Attribute):
            return it.attr.value in _STRUCTURE_ATTRS
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute):
            return it.func.attr.value in _STRUCTURE_METHODS
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("zip", "enumerate"):
            return bool(it.args) and all(structure(a.value) for a in it.args)
        return False

    return structure(loop.node.iter)
