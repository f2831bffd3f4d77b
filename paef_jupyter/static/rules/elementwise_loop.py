"""`for i in range(len(t)): out[i] = t[i] * 2`: one Python iteration (and op) per element."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import libcst as cst

from ...fix.edits import replace
from ...model import Fix, Severity
from ..device_use import host_processed
from ..facts import Facts
from ..types import Kind
from ..names import bound_names, names_read, root_name
from ._configured_sizes import configured_row_tensor
from ._host_row_writes import host_row_writes
from ._per_sample_calls import PerSample, per_cell_ops, per_sample_call
from ._python_numbers import python_number
from ._row_gathers import row_gather
from ._row_parts import rows_of_one_tensor, stacked_row_part
from ._tensor_facts import _REDUCTIONS, over_tensor_elements
from .base import Rule

# Element-wise torch functions and tensor methods: same result on an element or the whole tensor.
_ELEMENTWISE = frozenset({
    "abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "square",
    "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "sigmoid", "relu", "erf",
    "floor", "ceil", "round", "trunc", "sign", "reciprocal", "clamp", "clip", "pow", "float", "double",
    "half", "int", "long", "bool",
})
# Of those, the ones that give the same bits on the whole tensor as on one 0-d element: IEEE
# operations and exact maps, and the functions torch's CPU kernels compute through its vectorised
# math map on every length (a 1-element tensor is a partial vector: the same approximation per lane;
# checked on 200,000 float32 values, and float64/float16/bfloat16). The others (`sigmoid`, `exp2`,
# `sinh`, `cosh`, `rsqrt`, `pow` with a fractional exponent) have a vectorised kernel for the whole
# tensor and a scalar one for the remainder, which round differently (red team 36: 169 of 4096
# sigmoid values changed).
_EXACT = frozenset({
    "abs", "neg", "sqrt", "square", "floor", "ceil", "round", "trunc", "sign", "reciprocal", "clamp", "clip",
    "relu", "float", "double", "half", "int", "long", "bool",
    "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "tanh", "asin", "acos", "atan", "erf",
})
# Exponents torch computes by multiplications, a square root or a division on both paths.
_EXACT_POWERS = frozenset({0, 1, 2, 3, 0.5, -1, -2})
_TENSOR_ONLY = frozenset({"detach", "contiguous", "unsqueeze", "requires_grad_"})
_TENSOR_KEEPING = frozenset({"flatten", "clone", "view", "reshape", "float", "double", "abs", "t", "squeeze", "cpu", "cuda"})
_ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
# Tensor methods returning a (values, indices) pair: `t.topk(k).indices` is a tensor.
_PAIRED_RESULTS = frozenset({"topk", "sort", "kthvalue", "mode", "median", "max", "min", "cummax", "cummin"})
_LIKE = frozenset({"zeros_like", "empty_like", "ones_like", "full_like", "clone"})
# In-place scatters along a row: one per row becomes one into the flattened tensor.
_ROW_SCATTERS = frozenset({"index_add_", "scatter_add_", "index_copy_", "index_fill_", "scatter_"})
# Builtins and methods of Python data turning one item into one number (`ord(ch)`, `chars.index(ch)`).
_ELEMENT_BUILTINS = frozenset({"builtins.ord", "builtins.int", "builtins.float"})
_LOOKUPS = frozenset({"index", "get", "find"})
# Python builtins that fold an iterable, and the op each applies per element.
_FOLD_OPS = {"sum": "+", "max": "comparison", "min": "comparison", "any": "truth test", "all": "truth test"}
_BUILTIN_FOLDS = frozenset(f"builtins.{name}" for name in _FOLD_OPS)
# Builtins a per-row value may pass through: they take the value of one number.
_ROW_CASTS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.abs", "builtins.round"})


@dataclass(frozen=True)
class _Range:
    var: str
    tensor: cst.Name | None  # `t` when the range covers `t`'s first dimension
    # `self.t` when the bound is a configured size `self.n` that `self.t` was built with
    # (`_configured_sizes`): read by the per-row hints only, never by a rewrite.
    configured: cst.Name | cst.Attribute | None = None


class ElementwiseLoop(Rule):
    id = "elementwise-loop"
    title = "Python loop over tensor elements"
    severity = Severity.MEDIUM
    explanation = (
        "Each iteration indexes one element (`t[i]` builds a new tensor view) and runs one tiny op "
        "on it: a few microseconds of Python and dispatcher overhead per element on the CPU, and one "
        "kernel launch per element (plus a sync for every value read back) on a GPU. A single "
        "vectorised expression over the whole tensor does the same work in one op."
    )

    def visit_For(self, node: cst.For) -> bool | None:
        before = len(self.findings)
        result = self._visit_for(node)
        if len(self.findings) == before:
            self._per_sample(per_sample_call(self.facts, self._is_tensor, self._covered_tensor, node.target,
                                             node.iter, node.body, node))
        if len(self.findings) == before:
            self._per_cell(node)
        return result

    def _per_cell(self, node: cst.For) -> None:
        """A nest over a batch's samples and positions reading one cell at a time: a hint."""
        found = per_cell_ops(self.facts, self._covered_tensor, node)
        if found is None:
            return
        cell = self.facts.code(found.read)
        self.report(
            node,
            f"this loop nest reads `{found.batch}`'s samples one cell at a time (`{cell}`, over `{found.var}` and the "
            "positions): a few tiny ops and a host read (`.item()`) per cell of every sample, where whole-batch ops "
            "with a mask do every cell at once",
            severity=Severity.LOW,
            fix=Fix(description="compute over the whole batch: a mask of the cells to keep (e.g. `keep = conf.sum(-1) > 0`), "
                    "the per-cell values for all cells at once (`cls.argmax(-1)[keep]`, `boxes[keep]`), the sample of each "
                    "kept cell from `keep.nonzero()[:, 0]`, then split per sample (`torch.split` by `keep.sum((1, 2))`) "
                    "and read back once (`.tolist()`)", safe=False),
        )

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._per_sample_comprehension(node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._per_sample_comprehension(node)

    def _per_sample_comprehension(self, node: cst.ListComp | cst.GeneratorExp) -> None:
        for_in = node.for_in
        if for_in.inner_for_in is None:
            self._per_sample(per_sample_call(self.facts, self._is_tensor, self._covered_tensor, for_in.target,
                                             for_in.iter, node.elt, node))

    def _per_sample(self, found: PerSample | None) -> None:
        """A module called on one sample per iteration over a batch: a hint only (a module's
        batched result is not provably the stack of its per-sample ones)."""
        if found is None:
            return
        module = self.facts.code(found.call.func)
        self.report(
            found.call,
            f"`{module}(...)` runs once per sample of `{found.batch}` (over `{found.var}`): a whole forward "
            "(every layer's ops and kernel launches, and their backward) per sample, where one call on the batch "
            "does every sample at once",
            severity=Severity.LOW,
            fix=Fix(description=f"call the module once on the batch (`{module}({found.batch})` when it is the same "
                    "module for every sample); when the module depends on the sample (an expert chosen per sample), "
                    f"group the samples: for each module `m`, `sel = (choice == k).nonzero(as_tuple=True)[0]`, "
                    f"`out.index_copy_(0, sel, m({found.batch}.index_select(0, sel)))` - one call per group",
                    safe=False),
        )

    def _visit_for(self, node: cst.For) -> bool | None:
        if self._discounted_sums(node):
            return False
        outer = self._range(node)
        if outer is None:
            if self._appended_row_gather(node):
                return False
            counted = self._counting(node)
            if counted is None:
                counted = self._accumulating(node)
            if counted is None:
                counted = self._ranking(node)
            if counted is None:
                counted = self._collecting(node)
            if counted is not None:
                return counted
            stored = self._element_stores(node)
            if stored is None:
                stored = self._counted_elements(node)
            return stored if stored is not None else self._host_row_writes(node)
        if self._appended_row_gather(node):
            return False
        ranges = [outer]
        body = _statements(node)
        if body is not None and len(body) == 1 and isinstance(body[0], cst.For):
            inner = self._range(body[0])
            if inner is None:
                return None
            ranges.append(inner)
            body = _statements(body[0])
        if body is None or not body:
            return None
        variables = tuple(r.var for r in ranges)
        if len(ranges) == 1 and (self._counting(node) is False or self._accumulating(node) is False
                                 or self._ranking(node) is False):
            return False
        if not self._indexes_a_tensor(node, variables) or not all(self._elementwise_statement(s, variables) for s in body):
            if len(ranges) != 1:
                return None
            for check in (self._per_row, self._per_row_scatter, self._per_row_reduction):
                found = check(node, outer, body)
                if found is not None:
                    return found
            configured = self._configured_range(node, outer)
            if configured is not None:
                for check in (self._per_row, self._per_row_reduction):
                    found = check(node, configured, body)
                    if found is not None:
                        return found
            stored = self._element_stores(node)
            return stored if stored is not None else self._counted_elements(node)
        derived = [_derive(s, variables) for s in body]
        suggestion = "\n".join(d for d in derived if d) if all(derived) and not self._carried(body) else None
        fix = self._fix(node, body, outer, suggestion) if len(ranges) == 1 and len(body) == 1 and suggestion else None
        if fix is None:
            fix = Fix(
                description="replace the loop by one vectorised expression over the whole tensor",
                suggestion=suggestion or "# index whole tensors instead of elements, e.g. `out = t * 2`, `s = t.sum()`",
                safe=False,
            )
        loops = " and ".join(f"`{v}`" for v in variables)
        self.report(
            node,
            f"this loop runs one Python iteration per element (over {loops}), indexing tensors one "
            "element at a time: per-element interpreter and dispatch overhead, and a kernel launch per "
            "element on a GPU; one vectorised op over the whole tensor does the same",
            fix=fix,
        )
        return False  # the inner loop is part of this finding

    # --- per-row loops: `same = labels == labels[i]; losses.append(f(dist[i][same]))` -------------

    def _per_row(self, node: cst.For, rng: _Range, body: list[cst.BaseStatement]) -> bool | None:
        """`for i in range(len(t))` whose body runs torch ops on row `i` of tensors (no module or
        user function, no value read back, nothing carried to the next row) and appends one
        result that is stacked after the loop: one op per row per statement, where the same ops
        on the whole tensors (a row dimension, masks broadcast per row) do every row at once.

        Always a hint: how a per-row mask or reduction broadcasts is the user's to write."""
        covered = rng.tensor or rng.configured
        if covered is None or node.orelse is not None:
            return None
        assigned: set[str] = set()
        appended: str | None = None
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                    and appended is None:
                value, name = small.value, small.targets[0].target.value
            elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and appended is None \
                    and isinstance(small.value.func, cst.Attribute) and small.value.func.attr.value == "append" \
                    and isinstance(small.value.func.value, cst.Name) and len(small.value.args) == 1:
                value, name = small.value.args[0].value, None
                appended = small.value.func.value.value
            else:
                return None
            if self.facts.names_read(value) & (self.facts.names_written(node.body) - assigned) \
                    or not self._row_ops(value, rng.var):
                return None  # carried from the previous row, or not only tensor ops
            if name is not None:
                assigned.add(name)
        rows = self._row_reads(node, rng.var, rng.configured) if appended is not None else []
        if not rows or not self._stacked_after(appended, node):  # type: ignore[arg-type]
            return None
        named = [f"`{r}`" for r in rows[:3]] + (["..."] if len(rows) > 3 else [])
        read = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        self.report(
            node,
            f"this loop runs the same tensor ops on one row of {read} per iteration (over `{rng.var}`) "
            f"and stacks the results: an op (a kernel launch on a GPU) per row and statement, where the same ops on "
            "the whole tensors do every row at once",
            fix=Fix(description="compute every row at once: index whole tensors instead of row "
                    f"`{rng.var}` (`labels == labels[{rng.var}]` -> `labels.unsqueeze(0) == labels.unsqueeze(1)`) and "
                    "replace per-row masked reductions by masked whole-tensor ones (`torch.where(mask, d, -inf)"
                    ".max(1).values`), then drop the list and the stack", safe=False),
        )
        return False

    def _per_row_scatter(self, node: cst.For, rng: _Range, body: list[cst.BaseStatement]) -> bool | None:
        """`for i in range(t.size(0)): t[i].index_add_(0, idx[i], src[i])`: one in-place scatter
        per row, where offsetting each row's indices by `i * t.size(1)` makes it one scatter into
        the flattened tensor. A hint: the offsets and views are the user's to write."""
        if rng.tensor is None or node.orelse is not None:
            return None
        methods: list[str] = []
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            call = small.value if isinstance(small, cst.Expr) else None
            if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value in _ROW_SCATTERS and isinstance(call.func.value, cst.Subscript)
                    and _index_of(call.func.value, (rng.var,)) == (rng.var,)
                    and isinstance(call.func.value.value, cst.Name) and self._is_tensor(call.func.value.value)
                    and all(not a.star and self._row_ops(a.value, rng.var) for a in call.args)):
                return None
            methods.append(call.func.attr.value)
        if not methods:
            return None
        method = methods[0]
        target = rng.tensor.value
        self.report(
            node,
            f"this loop runs one in-place `{method}` per row of `{target}` (over `{rng.var}`): an op (a kernel "
            "launch on a GPU) per row and statement, where one scatter into the flattened tensor does every row",
            fix=Fix(description=f"offset each row's indices by its row start and scatter once: `{target}.view(-1)."
                    f"{method}(0, (idx + torch.arange({target}.size(0), device=idx.device)[:, None] * {target}.size(1))"
                    ".view(-1), src.view(-1))` for `idx`/`src` the per-row index and source tensors", safe=False),
        )
        return False

    # --- per-row reductions: `mse = F.mse_loss(sr[i], x[i]).item(); psnr += 10 * math.log10(1 / mse)` --

    def _per_row_reduction(self, node: cst.For, rng: _Range, body: list[cst.BaseStatement]) -> bool | None:
        """`for i in range(t.shape[0])` whose body computes on row `i` of tensors with torch ops,
        `math` and number casts only, keeps per-row temporaries (written before they are read:
        nothing carried from one row to the next) and adds each row's value into Python
        accumulators (`hits += 1` under a per-row test, `psnr += ...`): an op, and usually a
        sync, per row, where the same ops over the whole tensors give every row's value and
        one sum adds them.

        Always a hint: the per-row value's whole-tensor form (a reduction over the other
        dimensions, a broadcast comparison) is the user's to write."""
        covered = rng.tensor or rng.configured
        if covered is None or node.orelse is not None or not self._row_reads(node, rng.var, rng.configured):
            return None
        written: set[str] = set()
        sums: list[str] = []
        if not self._reducing_block(body, rng.var, written, sums) or not sums or set(sums) & written:
            return None
        if any(n.value in sums for n in self.facts.walk(node.body) if isinstance(n, cst.Name) and not self._sum_target(n)):
            return None  # an accumulator read in the loop: its value carries from row to row
        names = ", ".join(f"`{n}`" for n in dict.fromkeys(sums))
        self.report(
            node,
            f"this loop computes one value per row of `{self.facts.code(covered)}` (over `{rng.var}`) and adds it into "
            f"{names} in Python: ops (kernel launches on a GPU) and, on a GPU, usually a device->host sync per row, where "
            "the same ops over the whole tensors give every row's value at once",
            fix=Fix(description="compute the per-row values for all rows at once (reduce over the other dimensions, "
                    "e.g. `F.mse_loss(a, b, reduction='none').flatten(1).mean(1)`; compare rows by broadcasting, e.g. "
                    "`(neg[None, :] > pos[:, None]).sum(1)`), then add them up with one `.sum()` and read it once",
                    safe=False),
        )
        return False

    # --- element stores: `for t, (q, a) in enumerate(zip(skills, correct)): x[t, q + a * n] = 1.0` ----

    def _element_stores(self, node: cst.For) -> bool | None:
        """A loop (or a nest of loops) over Python data whose body only writes single elements of
        tensors (`bow[i, vocab[w]] += 1`, a one-hot `x[t, q] = 1.0`) with numbers or loop values:
        an indexing op (a kernel launch on a GPU) per element, where collecting the indices in
        lists and writing them once (`x[rows, cols] = 1.0`, `index_put_(..., accumulate=True)`
        for `+=`) does one op. A loop over a literal or a literal `range` (a few fixed rounds) is
        left alone. Always a hint: the index lists are the user's to build."""
        it = node.iter
        if node.orelse is not None or isinstance(it, (cst.List, cst.Tuple)) or isinstance(it, cst.Call) \
                and (self.facts.qualified_name(it.func) or "") == "builtins.range" and it.args \
                and all(isinstance(a.value, cst.Integer) for a in it.args):
            return None
        stores = self._stores_only(node, set())
        if not stores:
            return None
        first = stores[0]
        tensor = first.value
        while isinstance(tensor, cst.Subscript):  # `A[r][c] = 1`: an element of `A`
            tensor = tensor.value
        accumulate = isinstance(self.facts.parent(first), cst.AugAssign)
        computed = any(isinstance(getattr(self.facts.parent(t), "value", None), cst.Call) for t in stores)
        self.report(
            node,
            f"this loop writes one element of `{self.facts.code(tensor)}` per iteration (`{self.facts.code(first)}`): "
            "an indexing op (a kernel launch on a GPU) per element, where writing every element at once is one op",
            fix=Fix(description="collect the indices (and values) in Python lists in the loop, then write them with one "
                    "advanced index after it: " + ("`t.index_put_((torch.tensor(rows), torch.tensor(cols)), "
                    "torch.ones(len(rows)), accumulate=True)` (repeated indices add up)" if accumulate else
                    "`t[torch.tensor(rows)] = torch.tensor(values)`, or build the tensor from the list at once "
                    "(`torch.tensor([chars.index(c) for c in string])`)" if computed else
                    "`t[torch.tensor(rows), torch.tensor(cols)] = 1.0`"), safe=False),
        )
        return False

    def _host_row_writes(self, node: cst.For) -> bool | None:
        """`for b, c, x, y in targets.tolist(): ...; mask[int(b), gj, gi] = True`: a tensor's rows
        walked on the host, each row's computed numbers written into fresh tensors
        (`_host_row_writes`). Always a hint."""
        found = host_row_writes(self.facts, node, self._is_tensor)
        if found is None:
            return None
        rows = self.facts.code(found.rows)
        names = ", ".join(f"`{t}`" for t in found.targets)
        self.report(
            node,
            f"this loop walks the rows of `{rows}` on the host (`.tolist()`) and writes {names} one row at a time: "
            "per row, Python arithmetic, small tensor ops and an indexing op (a kernel launch on a GPU) per write, "
            f"where the columns of `{rows}` give every row's indices and values at once",
            fix=Fix(description=f"compute each value for all rows at once from the columns (`cols = {rows}.unbind(1)`, "
                    "the same arithmetic and helpers on whole columns, `.long()` for indices), then write each tensor "
                    "with one advanced index (`mask[b.long(), gj, gi] = True`); where two rows share an index the loop "
                    "keeps the last write and an advanced-index write an unspecified one: check for duplicates first",
                    safe=False),
        )
        return False

    def visit_While(self, node: cst.While) -> bool | None:
        return self._counted_elements(node)

    # --- an element index carried by hand: `index = 0; for ...: x[ix] = t[index]; index += 1` ----

    def _counted_elements(self, node: cst.For | cst.While) -> bool | None:
        """A loop whose element index is a counter it increments itself (`index += 1` in a `for`,
        `while i < n: ...; i += 1`) and whose body only writes tensor elements at its indices from
        numbers, invariant names and elements read at those indices: one Python iteration and an
        indexing op (a kernel launch on a GPU) or more per element. A counter stepping by more
        than 1 (`row += 100`: batches), a slice, an index computed from the counter (`t[i - 1]`:
        a recurrence), a `break`/`continue`, or a call of a model or of a function of this unit
        is not this shape. Always a hint: which whole-tensor op replaces the body is the user's."""
        body = _statements(node)  # type: ignore[arg-type]
        if not body or node.orelse is not None or any(
                isinstance(n, (cst.Break, cst.Continue, cst.Return)) for n in self.facts.walk(node.body, into_scopes=False)):
            return None
        counters = {c for s in body if (c := _increment(s)) is not None}
        rebound = {name for n in self.facts.walk(node.body) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign))
                   for name in bound_names(n.target)}  # element writes `t[i] = ...` rebind no name
        written = self.facts.names_written(node.body) & (rebound | counters)
        if isinstance(node, cst.While):
            test = node.test
            if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)
                    and isinstance(test.comparisons[0].operator, cst.LessThan) and test.left.value in counters
                    and not isinstance(test.comparisons[0].comparator, cst.Integer)
                    and not self.facts.names_read(test.comparisons[0].comparator) & written):
                return None
            indices = {test.left.value}
        else:
            it = node.iter
            if not counters or isinstance(it, (cst.List, cst.Tuple)) or isinstance(it, cst.Call) \
                    and (self.facts.qualified_name(it.func) or "") == "builtins.range" \
                    and all(isinstance(a.value, cst.Integer) for a in it.args):
                return None
            indices = set(bound_names(node.target)) | counters
        increments = [s for s in body if _increment(s) in counters]
        if any(sum(1 for n in self.facts.walk(node.body) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign))
                   and c in bound_names(n.target)) != 1 for c in counters if c in indices):
            return None  # the counter written elsewhere in the body too
        stores = [s for s in body if s not in increments]
        targets: list[cst.Subscript] = []
        values: list[cst.BaseExpression] = []
        python_items = isinstance(node, cst.For) and not self._is_tensor(node.iter) and not (
            isinstance(node.iter, cst.Call) and (self.facts.qualified_name(node.iter.func) or "") == "builtins.range")
        for stmt in stores:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
            elif isinstance(small, cst.AugAssign):
                target, value = small.target, small.value
            else:
                return None
            if not (isinstance(target, cst.Subscript) and self._element_at(target, indices)
                    and self._is_tensor(target.value) and self._element_work(value, indices, written)):
                return None
            targets.append(target)
            values.append(value)
        if not targets or python_items and not any(
                isinstance(n, cst.Subscript) and self._is_tensor(n.value) for v in values for n in self.facts.walk(v)):
            return None  # `for line in lines: table[row] = f(line)`: values made from Python data, no tensor to vectorise
        counter = sorted(counters & indices)[0]
        self.report(
            node,
            f"this loop carries an element index by hand (`{counter} += 1`) and writes one element of "
            f"`{self.facts.code(targets[0].value)}` per iteration (`{self.facts.code(targets[0])}`): per-element "
            "interpreter and dispatch overhead, an indexing op (a kernel launch on a GPU) per element; the same "
            "values computed on whole tensors (`torch.arange` for the index) are one op each",
            fix=Fix(description="compute the values for every index at once (index tensors with `torch.arange(n)`, "
                    "element-wise torch functions instead of `math`) and write them in one assignment", safe=False),
        )
        return False

    def _element_at(self, sub: cst.Subscript, indices: set[str]) -> bool:
        """`t[i]`, `t[i, 0]`: an element (or row) at the loop's indices, not a slice or a computed index."""
        parts = [el.slice for el in sub.slice]
        return all(isinstance(p, cst.Index) and (isinstance(p.value, cst.Integer) or isinstance(p.value, cst.Name)
                                                 and p.value.value in indices) for p in parts) \
            and any(isinstance(p, cst.Index) and isinstance(p.value, cst.Name) for p in parts)

    def _element_work(self, value: cst.BaseExpression, indices: set[str], written: set[str]) -> bool:
        """Numbers, invariant names and tensor elements at the loop's indices, through any calls
        but a model's or a function of this unit (those do more than element work)."""
        if self.facts.names_read(value) & written - indices:
            return False  # a temporary of the body, or a value carried from the previous element
        for n in self.facts.walk(value):
            if isinstance(n, cst.Subscript) and self._is_tensor(n.value) and not self._element_at(n, indices):
                return False
            if isinstance(n, cst.Call) and (isinstance(n.func, cst.Name) and n.func.value in self.facts.functions
                                            or self.facts.kind(n.func) is Kind.MODULE):
                return False
        return True

    def _stores_only(self, loop: cst.For, bound: set[str]) -> list[cst.Subscript] | None:
        """The element writes of `loop`'s body (through nested loops that are its whole body),
        if that is all it does."""
        body = _statements(loop)
        if not body or loop.orelse is not None:
            return None
        bound = bound | set(bound_names(loop.target))
        if isinstance(body[-1], cst.For) and all(self._python_value(stmt) for stmt in body[:-1]):
            made = {t.target.value for stmt in body[:-1] for t in stmt.body[0].targets}  # type: ignore[attr-defined]
            return self._stores_only(body[-1], bound | made)  # `words = line.split()`, then a loop over them
        written = self.facts.names_written(loop.body)
        counter = _running_position(body[-1]) if len(body) >= 2 else None
        if counter is not None and counter not in bound:  # `ids[token] = v` then `token += 1`: one element per iteration
            body, bound, written = body[:-1], bound | {counter}, written - {counter}
        stores: list[cst.Subscript] = []
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
            elif isinstance(small, cst.AugAssign) and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign)):
                target, value = small.target, small.value
            else:
                return None
            if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
                value = value.expression
            slices = list(target.slice) if isinstance(target, cst.Subscript) else []
            base = target
            while isinstance(base, cst.Subscript) and isinstance(base.value, cst.Subscript):
                base = base.value  # `A[r][c] = 1`: the element at (r, c) of `A`
                slices = list(base.slice) + slices
            if not (isinstance(base, cst.Subscript) and isinstance(base.value, (cst.Name, cst.Attribute))
                    and root_name(base.value) not in bound and self._is_tensor(base.value)
                    and self._element_value(value, bound, written)):
                return None
            indices = [el.slice.value for el in slices if isinstance(el.slice, cst.Index)]
            if len(indices) != len(slices) or not any(self.facts.names_read(i) & bound for i in indices) \
                    or any(not self._gathered_index(i, bound, written) and (
                        self.facts.names_read(i) & written or self.facts.calls_in(i) or self._is_tensor(i)) for i in indices):
                return None  # a slice (a row copy), an index computed in the loop or by a call, or a tensor index
            stores.append(target)
        return stores

    def _gathered_index(self, index: cst.BaseExpression, bound: set[str], written: set[str]) -> bool:
        """`edge_index[0][i]`, `pairs[i, 1]`: the element at the loop's position of an index table
        the loop does not change (an edge list, a list of pairs): one more element read per write,
        and every write at once is `A[edge_index[0], edge_index[1]] = 1`."""
        parts: list[cst.SubscriptElement] = []
        node = index
        while isinstance(node, cst.Subscript):
            parts = list(node.slice) + parts
            node = node.value
        if not isinstance(node, (cst.Name, cst.Attribute)) or root_name(node) in bound | written \
                or self.facts.calls_in(node) or not parts:
            return False
        values = [p.slice.value if isinstance(p.slice, cst.Index) else None for p in parts]
        return all(isinstance(v, cst.Integer) or isinstance(v, cst.Name) and v.value in bound for v in values) \
            and any(isinstance(v, cst.Name) for v in values)

    def _python_value(self, stmt: cst.BaseStatement) -> bool:
        """`words = line.split() + ["<eos>"]`: names bound to a value made without torch."""
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        return isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets) \
            and not self._is_tensor(small.value) and self.facts.kind(small.value) is not Kind.NDARRAY \
            and not any((self.facts.qualified_name(c.func) or "").startswith(("torch", "numpy"))
                        for c in self.facts.calls_in(small.value))

    def _element_value(self, value: cst.BaseExpression, bound: set[str], written: set[str]) -> bool:
        """A number, a loop value, or a Python item at loop values (`labels[i]`, `self.vocab.index[w]`),
        also through a lookup on Python data (`all_characters.index(string[c])`, `ord(s[i])`)."""
        if isinstance(value, (cst.Integer, cst.Float)) or isinstance(value, cst.Name) and value.value in bound:
            return True
        if isinstance(value, cst.Call) and value.args and not any(a.star or a.keyword for a in value.args) \
                and self._python_lookup(value.func, bound | written):
            return all(isinstance(a.value, (cst.SimpleString, cst.Integer, cst.Float))
                       or self._element_value(a.value, bound, written) for a in value.args)
        table = value.value if isinstance(value, cst.Subscript) else None
        while isinstance(table, cst.Attribute) and isinstance(table.value, (cst.Name, cst.Attribute)):
            table = table.value if not self._is_tensor(table) else None
        return isinstance(value, cst.Subscript) and isinstance(table, cst.Name) and table.value not in bound | written \
            and not self._is_tensor(value.value) \
            and all(isinstance(el.slice, cst.Index) and isinstance(el.slice.value, cst.Name) and el.slice.value.value in bound
                    for el in value.slice)

    def _python_lookup(self, func: cst.BaseExpression, changing: set[str]) -> bool:
        """`ord`/`int`/`float`, or `.index`/`.get`/`.find` of a Python string, list or dict the
        loop does not change (`all_characters.index`, `self.vocab.get`): one Python value per element."""
        if (self.facts.qualified_name(func) or "") in _ELEMENT_BUILTINS:
            return True
        if not (isinstance(func, cst.Attribute) and func.attr.value in _LOOKUPS):
            return False
        owner = func.value
        return isinstance(owner, (cst.Name, cst.Attribute)) and root_name(owner) not in changing \
            and self.facts.kind(owner) in (Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.UNKNOWN) and not self._is_tensor(owner) \
            and not (isinstance(owner, cst.Name) and owner.value in self.facts.functions)

    def _sum_target(self, name: cst.Name) -> bool:
        """`total` of `total += v`, or either `total` of `total = total + v`."""
        parent = self.facts.parent(name)
        if isinstance(parent, cst.AssignTarget):
            parent = self.facts.parent(parent)
            return isinstance(parent, cst.Assign) and _self_sum(parent) is not None
        if isinstance(parent, cst.BinaryOperation) and parent.left is name:
            assign = self.facts.parent(parent)
            return isinstance(assign, cst.Assign) and assign.value is parent and _self_sum(assign) is not None
        return isinstance(parent, cst.AugAssign) and parent.target is name

    def _reducing_block(self, stmts: Sequence[cst.BaseStatement], var: str, written: set[str], sums: list[str]) -> bool:
        """Temporaries assigned before use, `+=`/`-=` into plain names, and `if` on per-row tests."""
        for stmt in stmts:
            if isinstance(stmt, cst.If):
                if not self._row_value(stmt.test, written) or not isinstance(stmt.body, cst.IndentedBlock):
                    return False
                branches = [stmt.body.body]
                orelse = stmt.orelse
                if isinstance(orelse, cst.Else) and isinstance(orelse.body, cst.IndentedBlock):
                    branches.append(orelse.body.body)
                elif orelse is not None:
                    return False
                inner_written = set(written)
                for branch in branches:
                    local = set(written)
                    if not self._reducing_block(branch, var, local, sums):
                        return False
                    inner_written |= local - written
                written |= inner_written
                continue
            if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
                return False
            small = stmt.body[0]
            added = _self_sum(small) if isinstance(small, cst.Assign) else None
            if added is not None and small.targets[0].target.value not in written | {var}:  # type: ignore[union-attr]
                if not self._row_value(added, written):
                    return False
                sums.append(small.targets[0].target.value)  # type: ignore[union-attr]
            elif isinstance(small, cst.Assign) and len(small.targets) == 1 and _plain_names(small.targets[0].target) \
                    and var not in _plain_names(small.targets[0].target):
                if not self._row_value(small.value, written):
                    return False
                written.update(_plain_names(small.targets[0].target))  # `top, idx = sim.topk(k)`: a pair of temporaries
            elif isinstance(small, cst.AugAssign) and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign)) \
                    and isinstance(small.target, cst.Name) and small.target.value not in written | {var}:
                if not self._row_value(small.value, written):
                    return False
                sums.append(small.target.value)
            else:
                return False
        return True

    def _row_value(self, expr: cst.BaseExpression, written: set[str]) -> bool:
        """Torch functions (`torch.nn.functional` included), tensor methods (`.item()` too),
        `math`, number casts, arithmetic and comparisons: no module, no other function, nothing
        random, no name the loop writes unless this row wrote it already (else it carries
        from the previous row)."""
        loop = next((a for a in self.facts.ancestors(expr) if isinstance(a, cst.For)), None)
        # (an imported module is no value carried: `torch.zeros(8).index_add_(...)` counts as a write of `torch`)
        carried = (self.facts.names_written(loop.body) if loop is not None else set()) - written - set(self.facts.aliases) - set(self.facts.prior.aliases)
        if self.facts.names_read(expr) & carried:
            return False
        for n in self.facts.walk(expr):
            if isinstance(n, cst.Call):
                qualified = self.facts.qualified_name(n.func) or ""
                if self.facts.draws_random(n) or any(a.star for a in n.args):
                    return False
                if isinstance(n.func, cst.Attribute) and not qualified:
                    if n.func.attr.value in ("append", "extend", "numpy", "tolist") \
                            or self.facts.kind(n.func.value) is not Kind.TENSOR and not self._is_tensor(n.func.value) \
                            and n.func.attr.value not in ("item", "sum", "mean"):
                        return False
                elif not (qualified in _ROW_CASTS or qualified.startswith("math.") or qualified.startswith("torch.")
                          and not (qualified.startswith("torch.nn.") and not qualified.startswith("torch.nn.functional."))
                          and self.facts.kind(n.func) is not Kind.MODULE):
                    return False
            elif isinstance(n, cst.Subscript) and not self._is_tensor(n.value):
                return False  # a Python list or dict read per row: not every value is a tensor's
            elif isinstance(n, (cst.Lambda, cst.ListComp, cst.GeneratorExp, cst.DictComp, cst.SetComp, cst.Await, cst.Yield)):
                return False
        return True

    def _row_ops(self, expr: cst.BaseExpression, var: str, depth: int = 0, item: cst.Call | None = None) -> bool:
        """Only torch functions and tensor methods (nothing random, no module, no value read back
        to the host), arithmetic, comparisons and subscripts; the row variable only as an index.
        A call of a program function counts as its body (`_row_helper`: the CRF tutorial's
        `log_sum_exp(vec)`); `item` is the one `.item()` such a helper may return (an index)."""
        for n in self.facts.walk(expr):
            if isinstance(n, cst.Call):
                qualified = self.facts.qualified_name(n.func) or ""
                if self.facts.draws_random(n):
                    return False
                if isinstance(n.func, cst.Name) and n.func.value in self.facts.functions:
                    if not self._row_helper(n, depth + 1):
                        return False
                    continue
                if n is item:
                    continue
                if isinstance(n.func, cst.Attribute) and not qualified:
                    if n.func.attr.value in ("item", "tolist", "numpy", "cpu", "append") or self.facts.kind(n.func.value) is Kind.MODULE \
                            or self.facts.kind(n.func) is Kind.MODULE:  # `self.lin(x)`: a module per row
                        return False
                elif not qualified.startswith("torch.") or self.facts.kind(n.func) is Kind.MODULE \
                        or qualified.startswith("torch.nn.") and not qualified.startswith("torch.nn.functional."):
                    return False
            elif isinstance(n, cst.Name) and n.value == var:
                parent = self.facts.parent(n)
                if not (isinstance(parent, cst.Index) and isinstance(self.facts.parent(parent), cst.SubscriptElement)):
                    return False
            elif isinstance(n, (cst.Lambda, cst.ListComp, cst.GeneratorExp, cst.DictComp, cst.IfExp)):
                return False
        return True

    def _row_helper(self, call: cst.Call, depth: int) -> bool:
        """A call of a program function whose body is only row ops (`_row_ops`) on its
        parameters: plain parameters, every statement `name = <row ops>` or `return <row ops>`,
        pure (`Facts.is_pure_function`: no global state, nothing random, one definition), and
        any program function it calls the same, two levels deep at most. Its result may be
        `<tensor>.item()` only where the call is an index (`vec[0, argmax(vec)]`: a host index
        into a tensor, a gather the whole-tensor form does on the device); any other value read
        back to the host is refused as in the loop's own body."""
        name = call.func.value  # type: ignore[attr-defined]
        func = self.facts.functions.get(name)
        if depth > 2 or func is None or any(a.star or a.keyword for a in call.args) \
                or self.facts.enclosing_class(func) is not None or not self.facts.is_pure_function(name):
            return False
        params = func.params
        if isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None \
                or params.kwonly_params or params.posonly_params or any(p.default for p in params.params) \
                or len(params.params) != len(call.args):
            return False
        parent = self.facts.parent(call)
        as_index = isinstance(parent, cst.Index) and isinstance(self.facts.parent(parent), cst.SubscriptElement)
        body = func.body.body if isinstance(func.body, cst.IndentedBlock) else ()
        if not body:
            return False
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) or isinstance(t.target, cst.Tuple) and all(
                    isinstance(e.value, cst.Name) for e in t.target.elements)
                    for t in small.targets):
                value, item = small.value, None
            elif isinstance(small, cst.Return) and small.value is not None and stmt is body[-1]:
                value = small.value
                item = value if as_index and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                    and value.func.attr.value == "item" and not value.args else None
            else:
                return False
            if not self._row_ops(value, "", depth, item):
                return False
        return isinstance(body[-1], cst.SimpleStatementLine) and isinstance(body[-1].body[0], cst.Return)

    def _row_reads(self, node: cst.For, var: str, configured: cst.Name | cst.Attribute | None = None) -> list[str]:
        """The tensors read as `t[i]`, `i` first, in the order met (`configured`: a tensor
        attribute proved by its factory in `__init__`, `_configured_sizes`); empty: none. The
        message names these, not the range's tensor (`range(x.shape[0])` over `h[i] * g[i]`)."""
        rows: list[str] = []
        for n in self.facts.walk(node.body):
            if isinstance(n, cst.Subscript) and isinstance(n.value, (cst.Name, cst.Attribute)) and n.slice \
                    and isinstance(n.slice[0].slice, cst.Index) and isinstance(n.slice[0].slice.value, cst.Name) \
                    and n.slice[0].slice.value.value == var and (self._is_tensor(n.value) or configured is not None
                                                                 and n.value.deep_equals(configured)):
                code = self.facts.code(n.value)
                if code not in rows:
                    rows.append(code)
        return rows

    def _stacked_after(self, name: str, loop: cst.For) -> bool:
        """The list is passed to `torch.stack`/`torch.cat` after the loop."""
        end = self.facts.order(loop) + sum(1 for _ in self.facts.walk(loop))
        for use in self.facts.uses(name):
            call = self.facts.parent(self.facts.parent(use))
            if self.facts.order(use) > end and isinstance(call, cst.Call) and call.args and call.args[0].value is use \
                    and (self.facts.qualified_name(call.func) or "") in ("torch.stack", "torch.cat"):
                return True
        return False

    # --- counting loops: `if preds[i] == labels[i]: correct += 1`, confusion matrices ----------

    def _counting(self, node: cst.For) -> bool | None:
        """A loop that counts element pairs one by one: over `range(...)` reading `a[i]`, over
        `zip(a, b)` or over a tensor's elements. Each comparison is an op (and, in an `if`, a
        device->host sync); one vectorised comparison and a sum, or one `bincount`, does it.

        Always a hint: whether the two tensors have the same length and one element per item
        (what `zip` and `if` assume) is not provable here."""
        elements = self._element_names(node)
        body = _statements(node)
        if not elements or body is None or node.orelse is not None:
            return None
        # per-item counters beside the count (`self.total += 1`) become one `+= len(...)`
        items = [c for s in body if (c := _increment(s, attributes=True)) is not None]
        counted = [s for s in body if _increment(s, attributes=True) is None]
        if len(counted) != 1:
            return None
        stmt = counted[0]
        if isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock):
            test = self._element_test(stmt.test, elements)
            lines = self._masked_updates(list(stmt.body.body), test, elements, node) if test is not None else None
            if lines is None:
                return None
            suggestion = "\n".join(lines)
        elif isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.AugAssign) \
                and isinstance(stmt.body[0].operator, cst.AddAssign):
            small = stmt.body[0]
            suggestion = self._counted_sum(small, elements) or self._histogram(small, elements) or ""
            if not suggestion:
                return None
        else:
            return None
        first = next(iter(elements.values()))
        suggestion = "\n".join([suggestion] + [f"{c} += len({first})" for c in items])
        self.report(
            node,
            "this loop compares or counts tensor elements one at a time in Python: an op per element, "
            "and, on a GPU, a device->host sync per element when the result is tested or converted; one "
            "vectorised comparison (or `bincount`) over the whole tensors does the same",
            fix=Fix(description=f"count with one vectorised op: `{suggestion}` (if both tensors hold one value "
                    "per item and have the same length)", suggestion=suggestion, safe=False),
        )
        return False

    def _masked_updates(self, stmts: list[cst.BaseStatement], test: str, elements: dict[str, str],
                        loop: cst.For) -> list[str] | None:
        """What an `if <element test>:` body adds up, vectorised over the hit mask: counts
        (`hits += 1`), per-class counts keyed by an element (`per_class[int(t)] += 1` -> one
        `bincount` of the hit elements) and, beside at least one count, other sums of the
        elements (`mrr += 1 / (row.tolist().index(t) + 1)`, named in the hint to rewrite over the
        hit rows). None if the body does anything else."""
        if len(stmts) == 1 and _increment(stmts[0], attributes=True) is not None:
            return [f"{_increment(stmts[0], attributes=True)} += int(({test}).sum())"]
        mask = "hit"
        lines, sums, counted = [f"{mask} = {test}"], [], False
        allowed = {k for k in elements if k.isidentifier()} | {v for v in elements.values() if v.isidentifier()} \
            | set(bound_names(loop.target)) | {"int", "float", "len", "abs", "min", "max"}
        for stmt in stmts:
            counter = _increment(stmt, attributes=True)
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Expr) and _debug_print(self.facts, small.value):
                lines.append(f"# the debug print of each hit: print the rows of `{mask}.nonzero()` once")
                continue
            if counter is not None:
                lines.append(f"{counter} += int({mask}.sum())")
                counted = True
            elif isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) \
                    and isinstance(small.value, cst.Integer) and small.value.value == "1" \
                    and isinstance(small.target, cst.Subscript) and len(small.target.slice) == 1 \
                    and isinstance(small.target.slice[0].slice, cst.Index) \
                    and isinstance(small.target.value, (cst.Name, cst.Attribute)) \
                    and (self.facts.kind(small.target.value) in (Kind.LIST, Kind.TENSOR) or _repeated_list(self.facts, small.target.value)):
                key = self._element(small.target.slice[0].slice.value, elements)
                if key is None or key[0].isdigit():
                    return None
                totals = self.facts.code(small.target.value)
                counts = f"torch.bincount({key}[{mask}], minlength=len({totals}))"
                lines.append(f"{totals} += {counts}" if self.facts.kind(small.target.value) is Kind.TENSOR
                             else f"for k, v in enumerate({counts}.tolist()): {totals}[k] += v")
                counted = True
            elif isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) \
                    and isinstance(small.target, cst.Name) and self.facts.names_read(small.value) <= allowed \
                    and self.facts.names_read(small.value) & allowed - {"int", "float", "len", "abs", "min", "max"}:
                sums.append(small.target.value)
            else:
                return None
        if not counted:
            return None  # a weighted sum alone is another shape
        return lines + [f"# {name}: the same sum over the hit rows only ([{mask}])" for name in sums]

    # --- per-class sums: `label = labels[i]; class_total[label] += 1` -------------------------

    def _accumulating(self, node: cst.For) -> bool | None:
        """Sums per class keyed by an element used as a Python index (`class_correct[label] +=
        c[i].item()`): an op and a device->host sync per element, where one `bincount` per
        accumulator (with `weights=` for the summed values) gives every class's sum.

        Always a hint: the accumulators are Python lists or tensors that the rest of the
        program reads in its own way. A NumPy accumulator (`confusion[t, p] += 1`) is left
        alone: `np.add.at` is its vectorised form and the indices must first leave the device."""
        elements = self._element_names(node)
        body = _statements(node)
        if not elements or body is None or node.orelse is not None:
            return None
        elements, sums = dict(elements), []
        for stmt in body:
            if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
                return None
            small = stmt.body[0]
            if isinstance(small, cst.Assign) and not sums and len(small.targets) == 1 \
                    and isinstance(small.targets[0].target, cst.Name):
                read = self._element(small.value, elements)  # `label = labels[i]`: a name for an element
                if read is None or read[0].isdigit():
                    return None
                elements[small.targets[0].target.value] = read
                continue
            total = self._class_sum(small, elements)
            if total is None:
                return None
            sums.append(total)
        if not sums:
            return None
        self.report(
            node,
            "this loop adds tensor elements into per-class totals one element at a time, using an element "
            "as a Python index: an op and, on a GPU, a device->host sync per element; one `bincount` over the whole "
            "tensors gives every class's total",
            fix=Fix(description="sum per class with one `bincount` per total (if the indices are class ids in "
                    "range): " + "; ".join(f"`{t}`" for t in sums), suggestion="\n".join(sums), safe=False),
        )
        return False

    def _class_sum(self, small: cst.BaseSmallStatement, elements: dict[str, str]) -> str | None:
        """`totals[label] += 1` / `+= c[i].item()` (a Python list or a 1-D tensor of totals) ->
        its `bincount` form."""
        if not (isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign)):
            return None
        target = small.target
        if not (isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)
                and isinstance(target.value, (cst.Name, cst.Attribute))
                and self.facts.kind(target.value) in (Kind.LIST, Kind.TENSOR)):
            return None
        index = self._element(target.slice[0].slice.value, elements)
        one = isinstance(small.value, cst.Integer) and small.value.value == "1"
        weight = None if one else self._element(small.value, elements)
        if index is None or index[0].isdigit() or (not one and (weight is None or weight[0].isdigit())):
            return None
        totals = self.facts.code(target.value)
        counts = f"torch.bincount({index}{'' if one else f', weights={weight}.float()'}, minlength=len({totals}))"
        if self.facts.kind(target.value) is Kind.TENSOR:
            return f"{totals} += {counts}"
        return f"for k, v in enumerate({counts}.tolist()): {totals}[k] += v"  # a list: one read back per batch

    # --- hit positions: `rank = (top[i] == y[i]).nonzero(); if len(rank) > 0: mrr += 1 / (rank.item() + 1)`

    def _ranking(self, node: cst.For) -> bool | None:
        """The position of a row's hit, read back row by row (reciprocal rank, hit@k weights):
        a comparison, a `nonzero` and a sync per row, where one comparison of the whole batch
        gives every row's hit position (`argmax` of the hit mask) and whether it has one.

        Always a hint: exact when a row holds its target at most once (top-k indices do)."""
        elements = self._element_names(node)
        body = _statements(node)
        if not elements or body is None or len(body) != 2 or node.orelse is not None:
            return None
        first, second = body
        if not (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Assign)
                and len(first.body[0].targets) == 1 and isinstance(first.body[0].targets[0].target, cst.Name)):
            return None
        name, found = first.body[0].targets[0].target.value, first.body[0].value
        if not (isinstance(found, cst.Call) and isinstance(found.func, cst.Attribute) and found.func.attr.value == "nonzero"
                and not found.args):
            return None
        hit = self._row_hits(found.func.value, elements)
        if hit is None or not isinstance(second, cst.If) or second.orelse is not None \
                or not _non_empty_test(second.test, name) or not isinstance(second.body, cst.IndentedBlock) \
                or len(second.body.body) != 1:
            return None
        stmt = second.body.body[0]
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) and isinstance(small.target, cst.Name)):
            return None
        positions = _Positions(name)
        value = small.value.visit(positions)
        if not positions.replaced or name in names_read(value):
            return None  # the position is used some other way than `.item()` of the one hit
        code = cst.Module([]).code_for_node(value)
        suggestion = "\n".join((f"hit = {hit}", "pos, found = hit.float().argmax(-1), hit.any(-1)",
                                f"{small.target.value} += ({code}).sum().item()"))
        self.report(
            node,
            "this loop finds each row's hit position one row at a time (a comparison, a `nonzero` and, on a GPU, a "
            "device->host sync per row); one comparison of the whole batch gives every row's position",
            fix=Fix(description="compare the whole batch once and take each row's first hit with `argmax` "
                    "(if a row holds its target at most once)", suggestion=suggestion, safe=False),
        )
        return False

    def _row_hits(self, test: cst.BaseExpression, elements: dict[str, str]) -> str | None:
        """`top[i] == y[i]` (a row against the row's target) -> `top == y.unsqueeze(-1)`."""
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].operator, cst.Equal)):
            return None
        row, target = self._element(test.left, elements), self._element(test.comparisons[0].comparator, elements)
        if row is None or target is None or row[0].isdigit() or target[0].isdigit():
            return None
        return f"{row} == {target}.unsqueeze(-1)"

    # --- collecting loops: `for p, t in zip(out, y): preds.append(p.item())` -------------------

    def _collecting(self, node: cst.For) -> bool | None:
        """A loop over a tensor's elements (`for c in t`, `zip(a, b)`, `enumerate(t)`) whose body
        only appends an element-wise value of each element to lists: one op (and, with `.item()`,
        one sync) per element, where one op over the whole tensor gives every value.

        Always a hint: the appended values' Python types and the lists' other uses decide
        what the vectorised form must return."""
        body = _statements(node)
        if body is None or not body or node.orelse is not None or not over_tensor_elements(self.facts, node):
            return None
        variables = set(bound_names(node.target))
        counter = node.target.elements[0].value if isinstance(node.target, cst.Tuple) and isinstance(node.iter, cst.Call) \
            and (self.facts.qualified_name(node.iter.func) or "") == "builtins.enumerate" else None
        elements = variables - ({counter.value} if isinstance(counter, cst.Name) else set())  # `i` of `enumerate` is no element
        done: dict[str, list[str]] = {}
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            value, verb = self._collected(small, variables) if small is not None else (None, "")
            if value is None or not (self.facts.names_read(value) & elements) or not self._per_element(value, variables):
                return None
            done.setdefault(verb, []).append(f"`{self.facts.code(value)}`")
        self.report(
            node,
            f"this loop visits `{self.facts.code(node.iter)}` one element at a time to "
            + "; ".join(f"{verb} {', '.join(values)}" for verb, values in done.items())
            + ": one op per element (and, on a GPU, a device->host sync per `.item()`), where one op over the whole tensor "
            "computes every value",
            fix=Fix(description="compute the values on the whole tensor at once (e.g. `preds = out.reshape(-1)` instead of "
                    "appending `p.item()` for each `p` in `out`; `(u * emb(cands)).sum(-1)` instead of one score per "
                    "candidate), converting once at the end if Python values are needed", safe=False),
        )
        return False

    def _collected(self, small: cst.BaseSmallStatement, variables: set[str]) -> tuple[cst.BaseExpression | None, str]:
        """What one statement keeps of an element: `vals.append(e)`, `out[i] = e` (at the
        element's own index, into a name the loop does not bind) or `total += e`."""
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
                    and isinstance(call.func.value, cst.Name) and len(call.args) == 1 and not call.args[0].star:
                return call.args[0].value, "append"
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Subscript):
            target = small.targets[0].target
            if isinstance(target.value, cst.Name) and target.value.value not in variables and len(target.slice) == 1 \
                    and isinstance(target.slice[0].slice, cst.Index) and isinstance(target.slice[0].slice.value, cst.Name) \
                    and target.slice[0].slice.value.value in variables:
                return small.value, "store"
        if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) \
                and isinstance(small.target, cst.Name) and small.target.value not in variables:
            return small.value, "add up"
        return None, ""

    def _per_element(self, expr: cst.BaseExpression, variables: set[str]) -> bool:
        """Built from the elements by arithmetic, element-wise functions, full reductions,
        `.item()`, indexing and embedding lookups: the same expression applies to the whole tensor."""
        if isinstance(expr, (cst.Integer, cst.Float, cst.Name)):
            return True
        if isinstance(expr, cst.Attribute):
            return self._per_element(expr.value, variables)
        if isinstance(expr, cst.Subscript):
            return self._per_element(expr.value, variables) and all(
                isinstance(el.slice, cst.Index) and isinstance(el.slice.value, (cst.Name, cst.Integer)) for el in expr.slice)
        if isinstance(expr, cst.BinaryOperation):
            return isinstance(expr.operator, _ARITH) and self._per_element(expr.left, variables) \
                and self._per_element(expr.right, variables)
        if isinstance(expr, cst.UnaryOperation):
            return isinstance(expr.operator, (cst.Minus, cst.Plus)) and self._per_element(expr.expression, variables)
        if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
            return False
        func = expr.func
        args_ok = all(self._per_element(a.value, variables) for a in expr.args)
        if isinstance(func, cst.Attribute) and self._per_element(func.value, variables) and self._is_tensor(func.value):
            method = func.attr.value
            return (method in _ELEMENTWISE and args_ok) or (method in _REDUCTIONS | {"item"} and not expr.args)
        qualified = self.facts.qualified_name(func) or ""
        if qualified.startswith(("torch.", "math.")) and qualified.rsplit(".", 1)[-1] in _ELEMENTWISE:
            return args_ok  # `math.exp(v.item())`: `torch.exp` of the whole tensor
        return len(expr.args) == 1 and args_ok and self._embedding(func)

    def _embedding(self, module: cst.BaseExpression) -> bool:
        """`emb` bound to `nn.Embedding(...)` (moved with `.to(...)`): a lookup, the same for one
        index or a tensor of them."""
        value = self.facts.value_of(module) if isinstance(module, cst.Name) else None
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in ("to", "cuda"):
            value = value.func.value
        return isinstance(value, cst.Call) and self.facts.qualified_name(value.func) == "torch.nn.Embedding"

    def _element_names(self, node: cst.For) -> dict[str, str]:
        """What each element read stands for: `{"p": "preds", "preds[i]": "preds"}`."""
        it, target = node.iter, node.target
        if isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.enumerate" \
                and len(it.args) == 1 and it.args[0].keyword is None and not it.args[0].star \
                and isinstance(target, cst.Tuple) and len(target.elements) == 2 \
                and isinstance(target.elements[1].value, cst.Tuple):
            it, target = it.args[0].value, target.elements[1].value  # `for j, (o, r) in enumerate(zip(a, b))`
        if isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.zip" \
                and isinstance(target, cst.Tuple) and len(target.elements) == len(it.args) >= 2:
            names = [el.value for el in target.elements]
            sources = [a.value for a in it.args]
            # a tensor zipped with tensors or values of unknown type (`zip(topk, targets)`); a list
            # or array beside it (Python values already) is not an element loop, nor what an unseen
            # helper made of host copies (`zip(converter.decode(preds.cpu()), labels)`: strings)
            if all(isinstance(n, cst.Name) for n in names) and not any(a.star for a in it.args) \
                    and not any(self._host_processed(src) for src in sources) \
                    and all(isinstance(src, (cst.Name, cst.Attribute)) or isinstance(src, cst.Call)
                            and self.facts.kind(src) is Kind.TENSOR for src in sources) \
                    and any(self._is_tensor(src) for src in sources) \
                    and all(self.facts.kind(src) in (Kind.TENSOR, Kind.UNKNOWN) for src in sources):
                return {n.value: self.facts.code(src) for n, src in zip(names, sources)}  # type: ignore[union-attr]
            return {}
        if isinstance(target, cst.Name) and isinstance(it, (cst.Name, cst.Attribute)) and self._is_tensor(it):
            return {target.value: self.facts.code(it)}
        if isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.enumerate" \
                and len(it.args) == 1 and it.args[0].keyword is None and not it.args[0].star \
                and isinstance(target, cst.Tuple) and len(target.elements) == 2 \
                and all(isinstance(el.value, cst.Name) for el in target.elements):
            # `for i, row in enumerate(out): if row.argmax() == labels[i]`: `row` is `out`'s row `i`,
            # and `i` only indexes other tensors (a Python use of `i` keeps the loop as it is)
            source, counter, row = it.args[0].value, target.elements[0].value, target.elements[1].value
            if not isinstance(source, (cst.Name, cst.Attribute)) or self._host_processed(source) \
                    or not (self._is_tensor(source) or self.facts.kind(source) is Kind.UNKNOWN
                            and self._given_to_torch(node, row.value)):  # type: ignore[union-attr]
                return {}
            reads = self._index_reads(node, counter.value)  # type: ignore[union-attr]
            return {} if reads is None else {row.value: self.facts.code(source), **reads}  # type: ignore[union-attr]
        rng = self._range(node) if isinstance(it, cst.Call) else None
        if rng is None:
            return {}
        return self._index_reads(node, rng.var) or {}

    def _given_to_torch(self, node: cst.For, name: str) -> bool:
        """The loop body hands its element `name` to a torch function that takes only a tensor
        (`torch.argmax(row)`): what it iterates yields tensors, whatever made it (a model's tuple
        output unpacked: `_, _, logits = model(x)`)."""
        return any(isinstance(n, cst.Call) and (self.facts.qualified_name(n.func) or "") in _TENSOR_ONLY_FUNCTIONS
                   and n.args and n.args[0].keyword is None and not n.args[0].star
                   and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == name
                   for n in self.facts.walk(node.body))

    def _index_reads(self, node: cst.For, var: str) -> dict[str, str] | None:
        """`{"labels[i]": "labels"}`: the loop body's reads of tensors at index `var`; None when
        one indexes something that is not a tensor or `var` is used other than as an index."""
        reads = {}
        for n in self.facts.walk(node.body):
            if isinstance(n, cst.Subscript) and _index_of(n, (var,)) is not None:
                base = _base_of(n, (var,))
                if not isinstance(base, (cst.Name, cst.Attribute)) or not self._is_tensor(base):
                    return None
                reads[self.facts.code(n)] = self.facts.code(base)
        if var in {n.value for n in self.facts.walk(node.body) if isinstance(n, cst.Name)} - {
                s.slice.value.value for s in self.facts.walk(node.body)  # type: ignore[union-attr]
                if isinstance(s, cst.SubscriptElement) and isinstance(s.slice, cst.Index) and isinstance(s.slice.value, cst.Name)}:
            return None
        return reads

    def _host_processed(self, expr: cst.BaseExpression) -> bool:
        value = self.facts.value_of(expr) if isinstance(expr, cst.Name) else expr
        return isinstance(value, cst.Call) and host_processed(self.facts, value)

    def _element(self, expr: cst.BaseExpression, elements: dict[str, str]) -> str | None:
        """The whole tensor an element read stands for (`.item()` and `int()` stripped), or a number."""
        if isinstance(expr, (cst.Integer, cst.Float)):
            return self.facts.code(expr)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "item" and not expr.args:
            return self._element(expr.func.value, elements)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("int", "float") and len(expr.args) == 1:
            return self._element(expr.args[0].value, elements)
        row = _argmax_of(self.facts, expr)
        if row is not None:  # `torch.argmax(row)` / `row.argmax()` of each row: one argmax over the rows
            whole = elements.get(self.facts.code(row)) if isinstance(row, (cst.Name, cst.Subscript)) else None
            return f"{whole}.flatten(1).argmax(1)" if whole is not None else None
        whole = elements.get(self.facts.code(expr)) if isinstance(expr, (cst.Name, cst.Subscript)) else None
        if whole is None and isinstance(expr, cst.Subscript) and len(expr.slice) == 1 \
                and isinstance(expr.slice[0].slice, cst.Index) and isinstance(expr.value, (cst.Name, cst.Attribute)) \
                and self._is_tensor(expr.value):
            # a gather: `labels[nn_idx[i]]` per element is `labels[nn_idx]` over the whole tensor
            index = elements.get(self.facts.code(expr.slice[0].slice.value))
            if index is not None:
                return f"{self.facts.code(expr.value)}[{index}]"
        return whole

    def _element_test(self, test: cst.BaseExpression, elements: dict[str, str]) -> str | None:
        """`preds[i] == labels[i]` -> `preds == labels`: one comparison of element reads."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        op = test.comparisons[0].operator
        if isinstance(op, (cst.In, cst.NotIn)):  # `target in row`: a hit anywhere in the row
            item, row = self._element(test.left, elements), self._element(test.comparisons[0].comparator, elements)
            if item is None or row is None or item[0].isdigit() or row[0].isdigit():
                return None
            hit = f"({row} == {item}.unsqueeze(-1)).any(-1)"
            return hit if isinstance(op, cst.In) else f"~{hit}"
        if not isinstance(op, (cst.Equal, cst.NotEqual, cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual)):
            return None
        left, right = self._element_arith(test.left, elements), self._element_arith(test.comparisons[0].comparator, elements)
        if left is None or right is None or (left[0].isdigit() and right[0].isdigit()):
            return None
        return f"{left} {self.facts.code(op).strip()} {right}"

    def _element_arith(self, expr: cst.BaseExpression, elements: dict[str, str]) -> str | None:
        """An element read, or arithmetic of element reads and numbers (`abs(o - r)`, `(p - t) ** 2`,
        `(o - r).abs()`), as the same expression over the whole tensors: a recommender's
        `if abs(o - r) > 0.7:` per example is `(output - ratings).abs() > 0.7` once."""
        plain = self._element(expr, elements)
        if plain is not None:
            return plain
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ELEMENT_ARITH):
            left, right = self._element_arith(expr.left, elements), self._element_arith(expr.right, elements)
            if left is None or right is None or (left[0].isdigit() and right[0].isdigit()):
                return None
            return f"({left} {self.facts.code(expr.operator).strip()} {right})"
        inner: cst.BaseExpression | None = None
        if isinstance(expr, cst.Call) and len(expr.args) == 1 and not expr.args[0].star and expr.args[0].keyword is None \
                and self.facts.qualified_name(expr.func) == "builtins.abs":
            inner = expr.args[0].value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "abs" and not expr.args:
            inner = expr.func.value
        whole = self._element_arith(inner, elements) if inner is not None else None
        return f"{whole}.abs()" if whole is not None and not whole[0].isdigit() else None

    def _counted_sum(self, small: cst.AugAssign, elements: dict[str, str]) -> str | None:
        """`correct += (p == y).item()` / `int(p == y)` / `(p == y).sum().item()`."""
        value = small.value
        while isinstance(value, cst.Call) and ((isinstance(value.func, cst.Attribute) and value.func.attr.value in ("item", "sum")
                                                and not value.args) or (isinstance(value.func, cst.Name)
                                                and value.func.value in ("int", "float") and len(value.args) == 1)):
            value = value.func.value if isinstance(value.func, cst.Attribute) else value.args[0].value
        test = self._element_test(value, elements) if isinstance(small.target, cst.Name) or _object_attribute(small.target) else None
        return f"{self.facts.code(small.target)} += int(({test}).sum())" if test is not None else None

    def _histogram(self, small: cst.AugAssign, elements: dict[str, str]) -> str | None:
        """`confusion[y, p] += 1` -> one `bincount` over the flattened pair index."""
        target = small.target
        if not (isinstance(small.value, cst.Integer) and small.value.value == "1" and isinstance(target, cst.Subscript)
                and isinstance(target.value, (cst.Name, cst.Attribute)) and self.facts.kind(target.value) is Kind.TENSOR):
            return None
        parts = [self._element(el.slice.value, elements) if isinstance(el.slice, cst.Index) else None for el in target.slice]
        if not parts or None in parts or any(p[0].isdigit() for p in parts):  # type: ignore[index]
            return None
        m = self.facts.code(target.value)
        if len(parts) == 1:
            return f"{m} += torch.bincount({parts[0]}.flatten(), minlength={m}.shape[0])"
        if len(parts) == 2:
            return f"{m} += torch.bincount(({parts[0]} * {m}.shape[1] + {parts[1]}).flatten(), minlength={m}.numel()).reshape({m}.shape)"
        return None

    # --- recognising the loop ---------------------------------------------------------------

    def _discounted_sums(self, node: cst.For) -> bool:
        """Returns of an episode summed one reward at a time, the rewards being tensors
        (`rewards.append(torch.tensor(r))`): `for t in range(T): G += rewards[t] * gamma ** (t - i)`
        (often inside another loop over `i`: T^2/2 tiny ops) or `for r in reversed(rewards): G = r +
        gamma * G`. Each step is a dispatched op on a 0-d tensor (a kernel launch on a GPU); one
        stacked tensor and a cumulative sum give every return at once. A hint."""
        elements = self._tensor_list_elements(node)
        if not elements:
            return False
        lists, variables = elements
        found = None
        for small in (n for n in self.facts.walk(node.body) if isinstance(n, (cst.AugAssign, cst.Assign))):
            target = small.target if isinstance(small, cst.AugAssign) else small.targets[0].target if len(small.targets) == 1 else None
            if not isinstance(target, cst.Name) or not isinstance(small.value, cst.BinaryOperation):
                continue
            if isinstance(small, cst.AugAssign) and not isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign)):
                continue
            reads = self.facts.names_read(small.value)
            if isinstance(small, cst.Assign) and target.value not in reads:
                continue  # `G = r + gamma * G` carries G; a plain `x = r * 2` does not accumulate
            multiplies = any(isinstance(n, cst.BinaryOperation) and isinstance(n.operator, (cst.Multiply, cst.Power))
                             for n in self.facts.walk(small.value))
            read = next((r for r in (self._list_element(n, lists, variables) for n in self.facts.walk(small.value)) if r), None)
            if multiplies and read is not None:
                found = (target.value, read)
                break
        if found is None:
            return False
        total, rewards = found
        self.report(
            node,
            f"this loop folds the elements of `{rewards}` (tensors, one per step) into `{total}` one element at a "
            "time: a dispatched op on a tiny tensor per element (per pair of elements when nested), each a kernel "
            "launch on a GPU; stacked once, the discounted sums are one vectorised expression",
            fix=Fix(description=f"stack `{rewards}` once and compute every discounted return together",
                    suggestion=f"r = torch.stack({rewards})\ndiscounts = gamma ** torch.arange(len(r), dtype=r.dtype)\n"
                    "returns = (r * discounts).flip(0).cumsum(0).flip(0) / discounts", safe=False),
            severity=Severity.LOW,
        )
        return True

    def _tensor_list_elements(self, node: cst.For) -> tuple[dict[str, str], set[str]] | None:
        """The names `node` (with the loops inside it) binds to elements of tensor lists (with
        each one's list: `for r in reversed(rewards)`), and the range variables that may index
        one, spelled `[t]` (`for t in range(len(rewards))`)."""
        lists: dict[str, str] = {}
        variables: set[str] = set()
        for loop in [node, *(n for n in self.facts.walk(node.body) if isinstance(n, cst.For))]:
            if not isinstance(loop.target, cst.Name):
                continue
            it = loop.iter
            if isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.reversed" and len(it.args) == 1:
                it = it.args[0].value
            if isinstance(it, cst.Subscript) and isinstance(it.value, cst.Name) and self.facts.code(it.slice[0]) == "::-1":
                it = it.value
            if isinstance(it, cst.Name) and self._tensor_list(it):
                lists[loop.target.value] = it.value
            elif isinstance(it, cst.Call) and (self.facts.qualified_name(it.func) or "") == "builtins.range":
                variables.add(f"[{loop.target.value}]")  # an index: an element is `lst[t]`
        return (lists, variables) if lists or variables else None

    def _list_element(self, node: cst.CSTNode, lists: dict[str, str], variables: set[str]) -> str | None:
        """The tensor list whose element `node` is: `r` bound by a loop over it, or `rewards[t]`
        indexed by a range's variable."""
        if isinstance(node, cst.Name):
            return lists.get(node.value)
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1 \
                and isinstance(node.slice[0].slice, cst.Index) and isinstance(node.slice[0].slice.value, cst.Name):
            index = node.slice[0].slice.value.value
            if f"[{index}]" in variables and (node.value.value in lists.values() or self._tensor_list(node.value)):
                return node.value.value
        return None

    def _tensor_list(self, name: cst.Name) -> bool:
        """`name`, read here, holds a list bound to `[]` that its function (or the module) fills
        only with `.append(<tensor>)` (at least once) and never extends otherwise."""
        value = self.facts.value_of(name) or self.facts.element_of(name)  # `rewards, log_probs = [], []`
        if not isinstance(value, cst.List) or value.elements:
            return False
        scope = self.facts.enclosing_function(name)
        appended = []
        for use in self.facts.uses(name.value):
            if self.facts.enclosing_function(use) is not scope:
                continue
            parent = self.facts.parent(use)
            if isinstance(parent, cst.Attribute) and parent.value is use and parent.attr.value in ("extend", "insert", "__iadd__"):
                return False
            if isinstance(parent, cst.AugAssign) and parent.target is use:
                return False
            call = self.facts.parent(parent) if isinstance(parent, cst.Attribute) and parent.attr.value == "append" else None
            if isinstance(call, cst.Call) and call.func is parent:
                if len(call.args) != 1 or not self._is_tensor(call.args[0].value):
                    return False
                appended.append(call)
        return bool(appended)

    def _range(self, loop: cst.For) -> _Range | None:
        """`for i in range(n)` (or `range(0, n)`); which tensor `n` covers, if any."""
        it = loop.iter
        if not (isinstance(loop.target, cst.Name) and isinstance(it, cst.Call) and loop.orelse is None):
            return None
        if (self.facts.qualified_name(it.func) or "") != "builtins.range" or not 1 <= len(it.args) <= 2:
            return None
        if len(it.args) == 2 and not (isinstance(it.args[0].value, cst.Integer) and it.args[0].value.value == "0"):
            return None
        return _Range(loop.target.value, self._covered_tensor(it.args[-1].value))

    def _configured_range(self, loop: cst.For, rng: _Range) -> _Range | None:
        """`rng` with the tensor attribute a configured bound `range(self.n)` covers, for the
        per-row hints only (`_configured_sizes`); None when the range covers a tensor already or
        the bound is not such a size."""
        if rng.tensor is not None or not isinstance(loop.iter, cst.Call):
            return None
        bound = loop.iter.args[-1].value
        covered: cst.Name | cst.Attribute | None = configured_row_tensor(self.facts, loop, bound)
        if covered is None and isinstance(bound, cst.Name):
            covered = self._named_size(loop, bound)
        return _Range(rng.var, None, covered) if covered is not None else None

    def _named_size(self, loop: cst.For, bound: cst.Name) -> cst.Name | None:
        """`n = len(t)` (`t.size(0)`, `t.shape[0]`) then `for i in range(n)`: `t`, when `n` is
        bound once by that assignment, neither name is written in the loop, and `t` at the
        loop is the object `n` measured (every statement binding `t` in the scope comes
        before the measure). Read by the per-row hints only, like `_configured_sizes`."""
        value = self.facts.value_of(bound)
        measured = self._covered_tensor(value) if value is not None else None
        func = self.facts.enclosing_function(loop)
        scope: cst.CSTNode = func.body if func is not None else self.facts.module
        if measured is None or len(self.facts.assigned_values(bound.value)) != 1 \
                or _bindings(self.facts, scope, bound.value) != 1:
            return None  # bound more than once (`n -= 1`, a loop target): not the size it measured
        in_loop = self.facts.names_written(loop.body)
        if {bound.value, measured.value} & in_loop:
            return None
        if any(self.facts.order(n) > self.facts.order(value) for n in _binding_nodes(self.facts, scope, measured.value)):
            return None  # `t` bound again after it was measured: the loop may index another tensor
        return measured

    def _covered_tensor(self, n: cst.BaseExpression) -> cst.Name | None:
        """`t` for `len(t)`, `t.shape[0]`, `t.size(0)`."""
        base: cst.BaseExpression | None = None
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "len" and len(n.args) == 1:
            base = n.args[0].value
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "size" \
                and len(n.args) == 1 and _is_zero(n.args[0].value):
            base = n.func.value
        elif isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape" \
                and len(n.slice) == 1 and isinstance(n.slice[0].slice, cst.Index) and _is_zero(n.slice[0].slice.value):
            base = n.value.value
        if isinstance(base, cst.Name) and self._is_tensor(base):
            return base
        return None

    def _is_tensor(self, expr: cst.BaseExpression, depth: int = 3) -> bool:
        """A tensor by type, or by how it was made: a tensor-only method (`w.detach()`), a module's
        `.weight`/`.bias`, or a name bound to one of those (types stop at `model[0].weight`)."""
        kind = self.facts.kind(expr)
        if kind is not Kind.UNKNOWN or depth == 0:
            return kind is Kind.TENSOR
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            method = expr.func.attr.value
            return method in _TENSOR_ONLY or (method in _TENSOR_KEEPING and self._is_tensor(expr.func.value, depth - 1))
        if isinstance(expr, cst.Attribute):
            made = expr.value
            return expr.attr.value in ("weight", "bias") and not self._plain_object(made) or (
                expr.attr.value in ("indices", "values") and isinstance(made, cst.Call)
                and isinstance(made.func, cst.Attribute) and made.func.attr.value in _PAIRED_RESULTS)
        if isinstance(expr, cst.Name):
            value = self.facts.value_of(expr)
            if value is None:  # `top, idx = sim.topk(k)`: either half of a tensor's paired result
                made = self.facts.element_of(expr)
                return isinstance(made, cst.Call) and isinstance(made.func, cst.Attribute) \
                    and made.func.attr.value in _PAIRED_RESULTS and self._is_tensor(made.func.value, depth - 1)
            return self._is_tensor(value, depth - 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (*_ARITH, cst.MatrixMultiply)):
            return self._is_tensor(expr.left, depth - 1) or self._is_tensor(expr.right, depth - 1)  # `top / T`
        return False

    def _plain_object(self, expr: cst.BaseExpression) -> bool:
        """A name bound to an instance of a local class that is no `nn.Module` (or to a
        `SimpleNamespace`): its `.weight` is whatever the code put there, not a parameter."""
        value = self.facts.value_of(expr) if isinstance(expr, cst.Name) else None
        if not isinstance(value, cst.Call):
            return False
        if (self.facts.qualified_name(value.func) or "") == "types.SimpleNamespace":
            return True
        cls = self.facts.classes.get(value.func.value) if isinstance(value.func, cst.Name) else None
        return cls is not None and self.facts._kind_of_class(cls) is Kind.UNKNOWN

    def _indexes_a_tensor(self, loop: cst.For, variables: tuple[str, ...]) -> bool:
        for n in self.facts.walk(loop.body):
            if isinstance(n, cst.Subscript) and _index_of(n, variables) is not None and self._is_tensor(_base_of(n, variables)):
                return True
        return False

    def _elementwise_statement(self, stmt: cst.BaseStatement, variables: tuple[str, ...]) -> bool:
        """`out[i] = e`, `out[i] += e`, `s += e`, `s = s + e` with `e` built element-wise."""
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            return False
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if isinstance(target, cst.Subscript) and _index_of(target, variables) is not None:
                return self._elementwise(small.value, variables)
            if isinstance(target, cst.Name) and isinstance(small.value, cst.BinaryOperation) \
                    and isinstance(small.value.left, cst.Name) and small.value.left.value == target.value:
                return self._elementwise(small.value.right, variables)
            return False
        if isinstance(small, cst.AugAssign) and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign)):
            target = small.target
            if isinstance(target, cst.Name) or (isinstance(target, cst.Subscript) and _index_of(target, variables) is not None):
                return self._elementwise(small.value, variables)
        return False

    def _elementwise(self, expr: cst.BaseExpression, variables: tuple[str, ...]) -> bool:
        """Literals, invariant names and element reads `t[i]`, combined by arithmetic and
        element-wise torch functions/methods; the loop variables appear only as indices."""
        if isinstance(expr, (cst.Integer, cst.Float)):
            return True
        if isinstance(expr, cst.Name):
            return expr.value not in variables
        if isinstance(expr, cst.Subscript):
            if _index_of(expr, variables) is None:
                return self._gather(expr, variables)
            return self._is_tensor(_base_of(expr, variables))
        if isinstance(expr, cst.BinaryOperation):
            return isinstance(expr.operator, _ARITH) and self._elementwise(expr.left, variables) and self._elementwise(expr.right, variables)
        if isinstance(expr, cst.UnaryOperation):
            return isinstance(expr.operator, (cst.Minus, cst.Plus)) and self._elementwise(expr.expression, variables)
        if isinstance(expr, cst.Call):
            func = expr.func
            args_ok = all(self._elementwise(a.value, variables) for a in expr.args)
            if isinstance(func, cst.Attribute) and func.attr.value in _ELEMENTWISE | {"item"} and self._elementwise(func.value, variables):
                return args_ok
            qualified = self.facts.qualified_name(func) or ""
            if qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1] in _ELEMENTWISE:
                return args_ok
        return False

    def _gather(self, expr: cst.Subscript, variables: tuple[str, ...]) -> bool:
        """`table[idx[i].item()]`: a row chosen by an element of an index tensor (a gather:
        `table[idx]` selects every row at once)."""
        if len(variables) != 1 or len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return False
        index = expr.slice[0].slice.value
        if isinstance(index, cst.Call) and isinstance(index.func, cst.Attribute) and index.func.attr.value == "item" and not index.args:
            index = index.func.value
        return isinstance(index, cst.Subscript) and _index_of(index, variables) is not None \
            and self._is_tensor(_base_of(index, variables)) and self._is_tensor(expr.value) \
            and not self.facts.names_read(expr.value) & set(variables)

    def visit_Call(self, node: cst.Call) -> None:
        """`torch.stack([e(t[i]) for i in range(len(t))])`: the same per-row map, one op per row."""
        qualified = self.facts.qualified_name(node.func) or ""
        if qualified in _BUILTIN_FOLDS:
            self._builtin_fold(node, qualified)
            return
        if qualified not in ("torch.stack", "torch.cat") or len(node.args) != 1 or not isinstance(node.args[0].value, cst.ListComp):
            return
        comp = node.args[0].value
        for_in = comp.for_in
        if for_in.inner_for_in is not None or for_in.ifs:
            return
        rows = self._rows_counted(for_in)
        if qualified == "torch.stack" and rows is not None:
            picked = self._through_lambda(comp.elt, rows[0])
            if self._stacked_row_gather(node, picked[0], picked[1], *rows[1:]):
                return
        if not isinstance(for_in.target, cst.Name):
            return
        if qualified == "torch.stack" and self._is_tensor(for_in.iter):
            if not self._stacked_parts(node, comp.elt, for_in.target.value, for_in.iter):
                self._gathered_rows(node, comp.elt, for_in.target.value, for_in.iter)
            return
        if not isinstance(for_in.iter, cst.Call) or (self.facts.qualified_name(for_in.iter.func) or "") != "builtins.range":
            return
        variables = (for_in.target.value,)
        reads = [n for n in self.facts.walk(comp.elt) if isinstance(n, cst.Subscript) and _index_of(n, variables) is not None]
        if not reads or not self._elementwise(comp.elt, variables) or qualified == "torch.cat":
            return
        whole = cst.Module([]).code_for_node(comp.elt.visit(_WholeTensors(variables)))
        self.report(
            node,
            f"`{self.facts.code(node.func)}([... for {variables[0]} in {self.facts.code(for_in.iter)}])` applies the same "
            "element-wise expression to one row at a time: an op (and a kernel launch) per row, then a copy to stack them",
            fix=Fix(description=f"apply it to the whole tensor at once: `{whole}` (when the range covers every row and "
                    "the other operands broadcast the same way)", suggestion=whole, safe=False),
        )

    def _builtin_fold(self, node: cst.Call, qualified: str) -> None:
        """`sum(pred == y)`, `max(scores)`: Python's builtin iterates the tensor's first dimension,
        one 0-d tensor and one op per element. Left as a hint: `t.sum()` adds in another order
        (float results may differ in the last bits) and folds every dimension, not only the first."""
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            return
        arg = node.args[0].value
        if isinstance(arg, cst.Comparison):
            if len(arg.comparisons) != 1 or isinstance(arg.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
                return
            tensor = self._is_tensor(arg.left) or self._is_tensor(arg.comparisons[0].comparator)
        else:
            tensor = self._is_tensor(arg)
        if not tensor:
            return
        fold = qualified.removeprefix("builtins.")
        source = self.facts.code(arg)
        whole = f"({source}).{fold}()" if isinstance(arg, (cst.Comparison, cst.BinaryOperation)) else f"{source}.{fold}()"
        self.report(
            node,
            f"`{self.facts.code(node)}` iterates the tensor in Python: one 0-d tensor and one `{_FOLD_OPS[fold]}` per "
            "element (a kernel launch each on a GPU) where one reduction does it",
            fix=Fix(description=f"reduce it in one op: `{whole}` (`{fold}` over the first dimension only, "
                    f"like the builtin, is `.{fold}(0)` on a tensor of more than one dimension)",
                    suggestion=whole, safe=False),
        )

    def _through_lambda(self, elt: cst.BaseExpression, var: str) -> tuple[cst.BaseExpression, str]:
        """`get(i)` with `get = lambda index: h[index][idx[index]]` (the SR-GNN family's last-item
        pick): the lambda's body, its parameter standing for the row; else `elt` and `var`."""
        if not (isinstance(elt, cst.Call) and isinstance(elt.func, cst.Name) and len(elt.args) == 1
                and isinstance(elt.args[0].value, cst.Name) and elt.args[0].value.value == var
                and elt.args[0].keyword is None and not elt.args[0].star):
            return elt, var
        made = self.facts.value_of(elt.func)
        if not isinstance(made, cst.Lambda) or len(made.params.params) != 1 or made.params.params[0].default is not None \
                or isinstance(made.params.star_arg, cst.Param) or made.params.kwonly_params \
                or made.params.star_kwarg is not None or made.params.posonly_params:
            return elt, var
        return made.body, made.params.params[0].name.value

    def _rows_counted(self, for_in: cst.CompFor) -> tuple[str, str, dict[str, str]] | None:
        """The row variable, the row count and the names standing for a row of a tensor, for
        `for i in range(n)`, `for i in torch.arange(n)` (`.long()` of it too) and `for i, j in
        enumerate(t)` (`j` is `t[i]`; `t` may be a NumPy array, the indices copied to the host
        first, `lengths.cpu().numpy() - 1`: one advanced index takes an array too)."""
        it, target = for_in.iter, for_in.target
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in ("long", "int") \
                and not it.args and isinstance(it.func.value, cst.Call) \
                and (self.facts.qualified_name(it.func.value.func) or "") == "torch.arange":
            it = it.func.value
        if not isinstance(it, cst.Call) or len(it.args) != 1 or it.args[0].keyword is not None or it.args[0].star:
            return None
        qualified, arg = self.facts.qualified_name(it.func) or "", it.args[0].value
        if isinstance(target, cst.Name) and qualified in ("builtins.range", "torch.arange"):
            return target.value, self.facts.code(arg), {}
        if qualified == "builtins.enumerate" and isinstance(target, cst.Tuple) and len(target.elements) == 2 \
                and all(isinstance(el.value, cst.Name) for el in target.elements) \
                and isinstance(arg, (cst.Name, cst.Attribute)) \
                and (self._is_tensor(arg) or self._host_array(arg)):
            var, row = (el.value.value for el in target.elements)  # type: ignore[attr-defined]
            return var, f"len({self.facts.code(arg)})", {row: self.facts.code(arg)}
        return None

    def _host_array(self, expr: cst.BaseExpression) -> bool:
        """A NumPy array by type, or a name bound to a `.numpy()` copy (give or take a number:
        `lengths.numpy() - 1`): only tensors (and arrays) spell that copy `.numpy()`."""
        if self.facts.kind(expr) is Kind.NDARRAY:
            return True
        value = self.facts.value_of(expr) if isinstance(expr, cst.Name) else None
        while isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)) \
                and isinstance(value.right, cst.Integer):
            value = value.left
        return isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value == "numpy"

    def _appended_row_gather(self, node: cst.For) -> bool:
        """`vectors = []`, `for b, index in enumerate(idx): vectors.append(x[b, index, :])`, then
        `torch.stack(vectors)` (capsule networks' masking): the loop form of the comprehension
        `_stacked_row_gather` reads, when the list is made empty right before the loop and its
        only other use is that one `torch.stack` along the first dimension (over `enumerate` of
        the indices, or over a `range` of the rows: `for b in range(h.size(0)): out.append(h[b, lens[b] - 1])`)."""
        body = _statements(node)
        small = body[0].body[0] if body is not None and len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) \
            and len(body[0].body) == 1 else None
        call = small.value if isinstance(small, cst.Expr) else None
        if node.orelse is not None or not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                                           and call.func.attr.value == "append" and isinstance(call.func.value, cst.Name)
                                           and len(call.args) == 1 and not call.args[0].star):
            return False
        rows = self._rows_counted(node)  # type: ignore[arg-type]
        stack = self._stacked_once(call.func.value.value, node) if rows is not None else None
        if rows is None or stack is None:
            return False
        elt, var = self._through_lambda(call.args[0].value, rows[0])
        return self._stacked_row_gather(node, elt, var, rows[1], rows[2],
                                        shown=f"`{self.facts.code(call)}` for each row, then `{self.facts.code(stack)}`,")

    def _stacked_once(self, name: str, loop: cst.For) -> cst.Call | None:
        """The `torch.stack(name)` (first dimension) that is the only use of `name` besides the
        loop's `append`, when the statement right before the loop binds `name = []`."""
        block = self.facts.parent(loop)
        stmts = list(block.body) if isinstance(block, (cst.IndentedBlock, cst.Module)) else []
        at = next((i for i, st in enumerate(stmts) if st is loop), 0)
        before = stmts[at - 1] if at > 0 else None
        made = before.body[0] if isinstance(before, cst.SimpleStatementLine) and len(before.body) == 1 else None
        if not (isinstance(made, cst.Assign) and len(made.targets) == 1 and isinstance(made.targets[0].target, cst.Name)
                and made.targets[0].target.value == name and isinstance(made.value, cst.List) and not made.value.elements):
            return None
        scope = self.facts.enclosing_function(loop)
        uses = [u for u in self.facts.uses(name) if self.facts.enclosing_function(u) is scope
                and self.facts.order(u) > self.facts.order(loop)]
        inside = [u for u in uses if any(a is loop for a in self.facts.ancestors(u))]
        after = [u for u in uses if u not in inside]
        if len(inside) != 1 or len(after) != 1:
            return None
        arg = self.facts.parent(after[0])
        stack = self.facts.parent(arg) if isinstance(arg, cst.Arg) and arg.value is after[0] and arg.keyword is None else None
        if not isinstance(stack, cst.Call) or self.facts.qualified_name(stack.func) != "torch.stack" or stack.args[0] is not arg:
            return None
        dim = stack.args[1].value if len(stack.args) > 1 else None
        return stack if dim is None or isinstance(dim, cst.Integer) and dim.value == "0" and len(stack.args) == 2 else None

    def _stacked_row_gather(self, node: cst.Call | cst.For, elt: cst.BaseExpression, var: str, count: str,
                            per_row: dict[str, str], shown: str = "") -> bool:
        """`torch.stack([h[i, idx[i]] for i in range(B)])` (SR-GNN's last-item pick, a per-row
        target gather): an index op per row, where one advanced index picks every row's. Over
        `enumerate` of an index tensor (`per_row`), a subscript with several indices can only be a
        tensor's (or an array's, whose kind is known) even when its kind is not known."""
        found = row_gather(self.facts, elt, var, count, per_row)
        if found is None or any(self.facts.kind(s) not in (Kind.TENSOR, Kind.NDARRAY, Kind.UNKNOWN) for s in found.sources):
            return False
        # `torch.stack` of the picks proves them tensors, and only a tensor (or an array) takes
        # `data[i, idx[i]]`: a model's output unpacked (`hidden, _ = self.gru(x)`) or a helper's
        # parameter of unknown kind is one
        if not self._is_tensor(found.data) and self.facts.kind(found.data) is not Kind.UNKNOWN:
            return False
        self.report(
            node,
            f"{shown or '`' + self.facts.code(node) + '`'} picks from `{self.facts.code(found.data)}` one row at a time in "
            "Python: an indexing op (a kernel launch on a GPU) per row, then a copy to stack them",
            fix=Fix(description=f"pick every row at once with one advanced index: `{found.gather}` (the same values in the "
                    f"same order when each row's index is one number; for several per row, index rows with "
                    f"`torch.arange(...)[:, None]`; and when the {count} rows are all of the index tensor's)",
                    suggestion=found.gather, safe=False),
        )
        return True

    def _stacked_parts(self, node: cst.Call, elt: cst.BaseExpression, var: str, rows: cst.BaseExpression) -> bool:
        """`torch.stack([row[0] for row in t])` over the rows of a tensor: an indexing op per row
        and a copy, where `t[:, 0]` is the same values as one view (`_row_parts`)."""
        parts = stacked_row_part(self.facts, elt, var)
        if parts is None or not rows_of_one_tensor(rows):
            return False
        data = self.facts.code(rows)
        view = f"{data}[{parts}]" if isinstance(rows, (cst.Name, cst.Attribute, cst.Subscript)) else f"({data})[{parts}]"
        self.report(
            node,
            f"`{self.facts.code(node)}` iterates `{data}` row by row in Python: an indexing op per row (a kernel launch "
            "each on a GPU), then a copy to stack the picked parts",
            fix=Fix(description=f"take the same part of every row at once: `{view}` (the same values in the same order, "
                    f"as a view of `{data}`: `.clone()` it when the result is written in place)",
                    suggestion=view, safe=False),
        )
        return True

    def _gathered_rows(self, node: cst.Call, elt: cst.BaseExpression, var: str, index: cst.BaseExpression) -> None:
        """`torch.stack([data[i] for i in ix])` / `[data[i : i + L] for i in ix]` over an index
        tensor: a Python iteration, an index read back to the host and a slice per index, where
        one advanced-indexing gather (`data[ix]`, `data[ix.unsqueeze(1) + torch.arange(L)]`)
        reads every row at once."""
        if not (isinstance(elt, cst.Subscript) and len(elt.slice) == 1 and isinstance(elt.value, (cst.Name, cst.Attribute))
                and self._is_tensor(elt.value)) or var in self.facts.names_read(elt.value):
            return
        part, data, ix = elt.slice[0].slice, self.facts.code(elt.value), self.facts.code(index)
        if isinstance(part, cst.Index) and isinstance(part.value, cst.Name) and part.value.value == var:
            gather = f"{data}[{ix}]"
        elif isinstance(part, cst.Slice) and part.step is None and part.lower is not None and part.upper is not None:
            start, length = _offset(part.lower, var), _window(part.lower, part.upper, var)
            if start is None or length is None:
                return
            offsets = f"torch.arange({length}, device={ix}.device)" if start == "" else \
                f"torch.arange({start}, {start} + {length}, device={ix}.device)"
            gather = f"{data}[{ix}.unsqueeze(1) + {offsets}]"
        else:
            return
        self.report(
            node,
            f"`torch.stack([... for {var} in {ix}])` reads `{data}` one index at a time: a Python iteration, an index "
            "read back to the host and a slice per element of the index tensor, then a copy to stack them",
            fix=Fix(description=f"gather every row at once with advanced indexing: `{gather}` (the same rows, stacked "
                    "in the same order)", suggestion=gather, safe=False),
        )

    def _carried(self, body: list[cst.BaseStatement]) -> bool:
        """A running value one statement updates and another reads: iterations depend on each other."""
        running = {small.target.value for stmt in body for small in stmt.body  # type: ignore[attr-defined]
                   if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name)}
        running |= {small.targets[0].target.value for stmt in body for small in stmt.body  # type: ignore[attr-defined]
                    if isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name)}
        return any(
            self.facts.names_read(small.value) & (running - self.facts.names_written(stmt))
            for stmt in body for small in stmt.body  # type: ignore[attr-defined]
        )

    # --- the rewrite ---------------------------------------------------------------------------

    def _fix(self, loop: cst.For, body: list[cst.BaseStatement], rng: _Range, suggestion: str) -> Fix | None:
        """Automatic only for `out[i] = e(t[i])` over `range(len(t))` with `out` made like `t`
        before the loop (`torch.zeros_like(t)`, ...): `out[:] = e(t)` then writes the same values,
        with the same dtype casts, into the same tensor."""
        stmt = body[0]
        assert isinstance(stmt, cst.SimpleStatementLine)
        small = stmt.body[0]
        if rng.tensor is None or not isinstance(small, cst.Assign) or not isinstance(small.targets[0].target, cst.Subscript):
            return None
        target = small.targets[0].target
        out = target.value
        if not isinstance(out, cst.Name) or not self._made_like(out, rng.tensor):
            return None
        bases = {self.facts.code(_base_of(n, (rng.var,))) for n in self.facts.walk(small.value)
                 if isinstance(n, cst.Subscript) and _index_of(n, (rng.var,)) is not None}
        if not bases <= {rng.tensor.value, out.value} or any(
            isinstance(n, cst.Attribute) and n.attr.value == "item" for n in self.facts.walk(small.value)
        ):
            return None
        if self._used_outside(rng.var, loop):
            return None
        edits = (replace(self.facts, loop, suggestion),)
        return Fix(description=f"one vectorised assignment: `{suggestion}`", edits=edits, suggestion=suggestion,
                   review=self._vectorised_review(small.value, rng.var))

    def _vectorised_review(self, value: cst.BaseExpression, var: str) -> str:
        """Why the whole-tensor form may give other values than the element loop ("" when proved)."""
        inexact = self._inexact_op(value)
        if inexact is not None:
            return (f"`{inexact}` is not proved to round the same on the whole tensor as on one element: torch's "
                    "CPU kernels compute a whole tensor with vectorised approximations and a 0-d element with the "
                    "scalar path (`sigmoid`, `sinh`, `pow(x, 1.5)` differ in the last bits), so the values may change")
        unproved = self._unproved_operand(value, var)
        if unproved is not None:
            return (f"`{self.facts.code(unproved)}` is not proved a Python number: a tensor operand promotes "
                    "differently against one element than against the whole tensor (a 0-d float64 or int64 tensor "
                    "sets the dtype of `t[i] op x` but not of `t op x`), so the values may round or wrap otherwise")
        return ""

    def _inexact_op(self, value: cst.BaseExpression) -> str | None:
        """The first element-wise function or power of `value` whose whole-tensor kernel may round
        otherwise than its one-element path (red team 36: `probs[i] = torch.sigmoid(s[i] * a + b)`
        vectorised changed 169 of 4096 float32 values); None when every one is exact."""
        for node in self.facts.walk(value):
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power):
                if not _exact_power(node.right):
                    return f"** {self.facts.code(node.right)}"
            elif isinstance(node, cst.Call):
                func = node.func
                qualified = self.facts.qualified_name(func) or ""
                if qualified.startswith("torch."):  # `torch.pow(x, e)`
                    name = qualified.rsplit(".", 1)[-1]
                    exponent = node.args[1].value if len(node.args) > 1 else None
                elif isinstance(func, cst.Attribute):  # `x.pow(e)`
                    name, exponent = func.attr.value, node.args[0].value if node.args else None
                else:
                    continue
                if name == "pow":
                    if exponent is None or not _exact_power(exponent):
                        return f"pow(..., {self.facts.code(exponent) if exponent is not None else ''})"
                elif name in _ELEMENTWISE and name not in _EXACT:
                    return name
        return None

    def _unproved_operand(self, value: cst.BaseExpression, var: str) -> cst.BaseExpression | None:
        """An operand of `value` other than the loop's element reads and literals that is not
        proved a Python int or float (red team 35). Element reads are 0-d tensors: against them
        a 0-d tensor of a higher dtype of the same kind decides the result's dtype, against the
        whole tensor it does not (`x[i] - mean` computes in float64 for a float64 `mean`,
        `x - mean` in float32), and a dimensioned tensor operand decides it the other way
        round. Python numbers never decide it, in either form."""
        if isinstance(value, (cst.Integer, cst.Float)):
            return None
        if isinstance(value, cst.Subscript) and _index_of(value, (var,)) is not None:
            return None
        if isinstance(value, cst.BinaryOperation):
            return self._unproved_operand(value.left, var) or self._unproved_operand(value.right, var)
        if isinstance(value, cst.UnaryOperation):
            return self._unproved_operand(value.expression, var)
        if isinstance(value, cst.Call):
            func = value.func
            parts: list[cst.BaseExpression] = [a.value for a in value.args]
            if isinstance(func, cst.Attribute) and (self.facts.qualified_name(func.value) or "").split(".")[0] != "torch":
                parts.insert(0, func.value)  # a method: its receiver is an operand (`t[i].clamp(lo)`)
            return next((u for u in (self._unproved_operand(p, var) for p in parts) if u is not None), None)
        scope = self.facts.enclosing_function(value)
        return None if python_number(self.facts, value, scope) else value

    def _made_like(self, out: cst.Name, tensor: cst.Name) -> bool:
        """`out = torch.zeros_like(t)` (`empty_like`, `t.clone()`...) for the very `t` the loop covers
        (not rebound in between, so both have one shape)."""
        value = self.facts.value_of(out)
        if not isinstance(value, cst.Call):
            return False
        name = (self.facts.qualified_name(value.func) or "").rsplit(".", 1)[-1]
        if isinstance(value.func, cst.Attribute) and value.func.attr.value == "clone":
            source = value.func.value
        elif name in _LIKE and value.args:
            source = value.args[0].value
        else:
            return False
        return isinstance(source, cst.Name) and source.value == tensor.value \
            and self.facts.value_of(source) is self.facts.value_of(tensor)

    def _used_outside(self, var: str, loop: cst.For) -> bool:
        inside = {id(n) for n in self.facts.walk(loop)}
        return any(isinstance(n, cst.Name) and n.value == var and id(n) not in inside for n in self.facts.walk(self.facts.module))


def _binding_nodes(facts: Facts, scope: cst.CSTNode, name: str) -> list[cst.CSTNode]:
    """The nodes in `scope` that bind `name` (assignments, `+=`, loop targets, `as` names)."""
    found: list[cst.CSTNode] = []
    for n in facts.walk(scope):
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For)) and name in bound_names(n.target) \
                or isinstance(n, cst.AsName) and name in bound_names(n.name):
            found.append(n)
    return found


def _bindings(facts: Facts, scope: cst.CSTNode, name: str) -> int:
    return len(_binding_nodes(facts, scope, name))


def _exact_power(exponent: cst.BaseExpression) -> bool:
    """A literal exponent (`2`, `-1`, `0.5`) that torch computes exactly on both paths."""
    sign = 1
    if isinstance(exponent, cst.UnaryOperation) and isinstance(exponent.operator, cst.Minus):
        sign, exponent = -1, exponent.expression
    if isinstance(exponent, (cst.Integer, cst.Float)):
        return sign * exponent.evaluated_value in _EXACT_POWERS
    return False


def _plain_names(target: cst.BaseExpression) -> list[str]:
    """`t` of `t = ...`, `a, b` of `a, b = ...` (plain names only; else [])."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)) and target.elements and all(
            isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements):
        return [e.value.value for e in target.elements]  # type: ignore[union-attr]
    return []


def _self_sum(assign: cst.Assign) -> cst.BaseExpression | None:
    """`v` of `total = total + v` (or `- v`): the spelled-out `total += v`."""
    value = assign.value
    if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name) \
            and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)) \
            and isinstance(value.left, cst.Name) and value.left.value == assign.targets[0].target.value:
        return value.right
    return None


def _increment(stmt: cst.BaseStatement, attributes: bool = False) -> str | None:
    """`n += 1` -> "n"; with `attributes`, also a counter kept on an object (`self.total += 1`),
    as a metric class's `update()` keeps it."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.AugAssign):
        small = stmt.body[0]
        if isinstance(small.operator, cst.AddAssign) and isinstance(small.value, cst.Integer) and small.value.value == "1":
            if isinstance(small.target, cst.Name):
                return small.target.value
            if attributes and _object_attribute(small.target):
                return f"{small.target.value.value}.{small.target.attr.value}"  # type: ignore[union-attr]
    return None


def _object_attribute(expr: cst.BaseExpression) -> bool:
    """`self.correct`: an attribute of a plain name, where a metric object keeps its totals."""
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)


def _repeated_list(facts: Facts, expr: cst.BaseExpression) -> bool:
    """A name bound to `[0] * n`: a Python list of totals."""
    value = facts.value_of(expr) if isinstance(expr, cst.Name) else None
    return isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply) \
        and isinstance(value.left, cst.List)


def _running_position(stmt: cst.BaseStatement) -> str | None:
    """`token` of `token += 1`: a position advanced once per iteration."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) and isinstance(small.target, cst.Name) \
            and isinstance(small.value, cst.Integer) and small.value.value == "1":
        return small.target.value
    return None


def _statements(loop: cst.For) -> list[cst.BaseStatement] | None:
    body = loop.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else None


def _is_zero(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Integer) and expr.value == "0"


# torch functions whose first argument can only be a tensor (numpy's namesakes are other functions)
_TENSOR_ONLY_FUNCTIONS = frozenset({"torch.argmax", "torch.argmin", "torch.max", "torch.min", "torch.sum", "torch.topk"})


def _argmax_of(facts: Facts, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` of `torch.argmax(x)` or `x.argmax()` (no dim: the index into the flattened `x`)."""
    if not isinstance(expr, cst.Call):
        return None
    if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "argmax" and not expr.args \
            and (facts.qualified_name(expr.func) or "") != "torch.argmax":
        return expr.func.value
    if (facts.qualified_name(expr.func) or "") == "torch.argmax" and len(expr.args) == 1 \
            and expr.args[0].keyword is None and not expr.args[0].star:
        return expr.args[0].value
    return None


def _index_of(sub: cst.Subscript, variables: tuple[str, ...]) -> tuple[str, ...] | None:
    """The loop variables `sub` indexes with, in order: `t[i]`, `t[i, j]`, `t[i][j]`."""
    names: list[str] = []
    node: cst.BaseExpression = sub
    while isinstance(node, cst.Subscript):
        part = []
        for el in node.slice:
            if not (isinstance(el.slice, cst.Index) and isinstance(el.slice.value, cst.Name)):
                return None
            part.append(el.slice.value.value)
        names = part + names
        node = node.value
    return tuple(names) if tuple(names) == variables else None


def _base_of(sub: cst.Subscript, variables: tuple[str, ...]) -> cst.BaseExpression:
    node: cst.BaseExpression = sub
    while isinstance(node, cst.Subscript):
        node = node.value
    return node


class _WholeTensors(cst.CSTTransformer):
    """`t[i]` -> `t`, `x[i].item()` -> `x` for the loop variables."""

    def __init__(self, variables: tuple[str, ...]) -> None:
        super().__init__()
        self.variables = variables

    def leave_Subscript(self, original_node: cst.Subscript, updated_node: cst.Subscript) -> cst.BaseExpression:
        return _base_of(original_node, self.variables) if _index_of(original_node, self.variables) else updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "item" and not updated_node.args:
            return func.value
        return updated_node


def _derive(stmt: cst.BaseStatement, variables: tuple[str, ...]) -> str | None:
    """The vectorised statement: a map writes the whole tensor, a sum reduces over the loop dims."""
    assert isinstance(stmt, cst.SimpleStatementLine)
    small = stmt.body[0]
    module = cst.Module(body=())
    whole = _WholeTensors(variables)
    dims = "0" if len(variables) == 1 else str(tuple(range(len(variables))))
    if isinstance(small, cst.Assign):
        target = small.targets[0].target
        if isinstance(target, cst.Subscript):
            value = module.code_for_node(small.value.visit(whole))
            return f"{module.code_for_node(_base_of(target, variables))}[:] = {value}"
        assert isinstance(small.value, cst.BinaryOperation)
        value = _operand(module, small.value.right.visit(whole))
        op = module.code_for_node(small.value.operator).strip()
        return f"{module.code_for_node(target)} = {module.code_for_node(target)} {op} {value}.sum({dims})" if op in ("+", "-") else None
    assert isinstance(small, cst.AugAssign)
    op = module.code_for_node(small.operator).strip()
    if isinstance(small.target, cst.Subscript):
        value = module.code_for_node(small.value.visit(whole))
        return f"{module.code_for_node(_base_of(small.target, variables))}[:] {op} {value}"
    value = _operand(module, small.value.visit(whole))
    return f"{module.code_for_node(small.target)} {op} {value}.sum({dims})" if op in ("+=", "-=") else None


def _non_empty_test(test: cst.BaseExpression, name: str) -> bool:
    """`len(r) > 0`, `len(r)`, `r.numel() > 0`, `r.numel()`: the row had a hit."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.GreaterThan) \
            and isinstance(test.comparisons[0].comparator, cst.Integer) and test.comparisons[0].comparator.value == "0":
        test = test.left
    if isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "len" and len(test.args) == 1:
        return isinstance(test.args[0].value, cst.Name) and test.args[0].value.value == name
    return isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute) and test.func.attr.value == "numel" \
        and isinstance(test.func.value, cst.Name) and test.func.value.value == name


class _Positions(cst.CSTTransformer):
    """`r.item()` (the row's one hit position) -> `pos[found]` (every row's, where it has one)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name, self.replaced = name, False

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "item" and not original_node.args \
                and isinstance(func.value, cst.Name) and func.value.value == self.name:
            self.replaced = True
            return cst.parse_expression("pos[found]")
        return updated_node


def _offset(bound: cst.BaseExpression, var: str) -> str | None:
    """`i` -> "", `i + 1` -> "1": the start of a window relative to the index."""
    if isinstance(bound, cst.Name) and bound.value == var:
        return ""
    if isinstance(bound, cst.BinaryOperation) and isinstance(bound.operator, cst.Add) \
            and isinstance(bound.left, cst.Name) and bound.left.value == var and var not in names_read(bound.right):
        return cst.Module([]).code_for_node(bound.right)
    return None


def _window(lower: cst.BaseExpression, upper: cst.BaseExpression, var: str) -> str | None:
    """The window's length when it does not depend on the index: `i : i + L` and `i + 1 : i + 1 + L`
    give "L"; `i + a : i + b` gives "b - a"."""
    module = cst.Module([])
    if isinstance(upper, cst.BinaryOperation) and isinstance(upper.operator, cst.Add) \
            and module.code_for_node(upper.left) == module.code_for_node(lower) and var not in names_read(upper.right):
        return module.code_for_node(upper.right)
    start, end = _offset(lower, var), _offset(upper, var)
    if start is None or end is None or end == "":
        return None
    return end if start == "" else f"({end}) - ({start})"


def _operand(module: cst.Module, expr: cst.CSTNode) -> str:
    """`expr` ready for a method call: `t`, `t.exp()`, or `(a * b)`."""
    code = module.code_for_node(expr)
    return code if isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) else f"({code})"


_ELEMENT_ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)


def _debug_print(facts: Facts, expr: cst.BaseExpression) -> bool:
    """A debug print behind a flag (`print(...) if debug else None`): output only when debugging,
    no value the count depends on. A plain `print(...)` per hit is the program's output: not this."""
    if not isinstance(expr, cst.IfExp):
        return False
    branches = (expr.body, expr.orelse)
    prints = [e for e in branches if isinstance(e, cst.Call) and facts.qualified_name(e.func) == "builtins.print"]
    nones = [e for e in branches if isinstance(e, cst.Name) and e.value == "None"]
    return len(prints) == 1 and len(nones) == 1
