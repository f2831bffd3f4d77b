"""`torch.tensor(data["x"][i:j])` per batch: a dict of Python lists used as a dataset."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ...fix.edits import fresh_name, insert_before, replace
from ...model import Fix, Severity
from ..facts import Facts, Loop
from ..names import argument_bound_to, positional_params, walk, writes_of
from ..types import Kind
from ._column_kinds import element_kind
from ._column_writes import column_written
from ._frame_rows import frame_row_reads
from ._tensor_facts import FLOAT, bound_in_unit, defaults_changed, earlier_value, invariant, keyword, module_alias, only_read, rarely_runs, uniform_list
from .base import Rule, RuleContext

CONSTRUCTORS = frozenset({"tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor", "DoubleTensor"})
# `ctor([d[k] for k in keys])`: rows of a dict keyed by ids, gathered per batch; the kind of
# dict each constructor reads (a list per key, or a tensor per key for `torch.stack`).
KEYED_CONSTRUCTORS = {**{f"torch.{c}": Kind.DICT_OF_LIST for c in CONSTRUCTORS},
                      "numpy.array": Kind.DICT_OF_LIST, "numpy.asarray": Kind.DICT_OF_LIST,
                      "torch.stack": Kind.DICT_OF_TENSOR, "torch.cat": Kind.DICT_OF_TENSOR}


@dataclass
class Use:
    """One per-iteration conversion: `ctor(d[key][index])` or `ctor([d[key][i] for i in rows])`."""

    call: cst.Call
    column: cst.Subscript  # `d[key]`
    index: cst.BaseExpression | None = None  # `i:j` / `i` (slice form)
    slice_node: cst.SubscriptElement | None = None
    rows: cst.BaseExpression | None = None  # `rows` (comprehension form)
    others: list["Use"] = field(default_factory=list)


class DictAsList(Rule):
    id = "dict-as-list"
    title = "Dict of Python lists read per batch to build tensors"
    severity = Severity.HIGH
    explanation = (
        "A dict whose values are Python lists keeps every number as a separate Python object. "
        "Building a batch with `torch.tensor(d[key][...])` walks those objects one by one, on every "
        "iteration, then copies the result to the device. Converting each column to a tensor once "
        "before the loop turns every batch into a single indexing op on contiguous memory."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._groups: dict[tuple[int, str], tuple[Use, Loop | None]] = {}
        self._names: set[str] = set()

    def visit_Module(self, node: cst.Module) -> None:
        for read, ctor, _loop in frame_row_reads(self.facts, self._per_iteration):
            self._frame_row(read, ctor)

    def _per_iteration(self, node: cst.CSTNode) -> Loop | None:
        loop = self.facts.iteration_loop(node)
        return None if loop is None or rarely_runs(self.facts, node, loop) else loop

    def _frame_row(self, read: cst.Subscript, ctor: cst.Call) -> None:
        """`row = self.df.iloc[i]; torch.tensor(row[features].values)` per sample: a hint to
        convert the columns once (the `Dataset`'s `__init__`) and index the result."""
        frame = self.facts.code(read.value.value)  # type: ignore[attr-defined]
        in_method = self.facts.enclosing_function(read) is not None
        where = "in `__init__`" if in_method else "before the loop"
        table, index = ("self.features", "i") if in_method else ("features", "rows")
        self.report(
            read,
            f"`{self.facts.code(read)}` reads pandas rows on every {'sample' if in_method else 'iteration'} and "
            f"`{self.facts.code(ctor.func)}` turns their values into a tensor: each access builds a pandas object "
            "(tens of microseconds) and copies its numbers one by one; the columns converted once make it an index",
            fix=Fix(description=f"convert the columns once {where} and index the tensor",
                    suggestion=(f"{table} = torch.tensor({frame}[feature_columns].to_numpy(), dtype=torch.float32)"
                                f"  # once, {where}\n...\nx = {table}[{index}]"),
                    safe=False),
            severity=Severity.MEDIUM,
        )

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.facts.qualified_name(node.func) or ""
        across = KEYED_CONSTRUCTORS.get(qualified) is Kind.DICT_OF_LIST \
            and (self._row_across_columns(node) or self._rows_across_columns(node))
        if qualified in KEYED_CONSTRUCTORS and not across:
            self._keyed_rows(node, qualified)
        if not qualified.startswith("torch.") or qualified.count(".") != 1 or qualified[6:] not in CONSTRUCTORS:
            return
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) != 1 or keyword(node, "requires_grad") is not None:
            return
        loop = self.facts.iteration_loop(node)
        if loop is None or rarely_runs(self.facts, node, loop):
            return
        use = self._use(node, positional[0].value)
        if use is None:
            if not self._column_passed_in(node, positional[0].value):
                self._per_key(node, positional[0].value, loop)
            return
        if not (isinstance(use.column, cst.Subscript) and self.facts.kind(use.column.value) is Kind.DICT_OF_LIST
                or use.slice_node is not None and _python_rows(self.facts, use.column)):
            return
        if not invariant(self.facts, use.column, loop) or invariant(self.facts, positional[0].value, loop):
            return  # the dict changes in the loop, or the whole tensor is invariant (redundant-tensor)
        target = self._hoist_target(node, use) if self.facts.enclosing_loops(node) else None
        extra = "".join(f", {self.facts.code(a)}" for a in node.args if a.keyword is not None)
        key = (id(target.node) if target else id(node), f"{self.facts.code(use.column)}|{self.facts.code(node.func)}|{extra}")
        if key in self._groups:
            self._groups[key][0].others.append(use)
        else:
            self._groups[key] = (use, target)

    def _keyed_rows(self, node: cst.Call, qualified: str) -> None:
        """`torch.tensor([features[k] for k in ids])`: one Python row per key, every batch."""
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) != 1 or keyword(node, "requires_grad") is not None:
            return
        comp = positional[0].value
        if not isinstance(comp, cst.ListComp) or comp.for_in.inner_for_in is not None or comp.for_in.ifs:
            return
        elt, var = comp.elt, comp.for_in.target
        tail, part = "", None  # `sessions[s][:max_len]`: a fixed slice of each row
        if isinstance(var, cst.Name) and isinstance(elt, cst.Subscript) and isinstance(elt.value, cst.Subscript) \
                and len(elt.slice) == 1 and isinstance(elt.slice[0].slice, (cst.Slice, cst.Index)) \
                and var.value not in self.facts.names_read(elt.slice[0]):
            tail, part, elt = f"[{self.facts.code(elt.slice[0])}]", elt.slice[0], elt.value
        if not (isinstance(var, cst.Name) and isinstance(elt, cst.Subscript) and len(elt.slice) == 1
                and isinstance(elt.slice[0].slice, cst.Index) and _key_of(elt.slice[0].slice.value, var.value)
                and isinstance(elt.value, (cst.Name, cst.Attribute))):
            return
        table, key = elt.value, self.facts.code(elt.slice[0].slice.value)
        wanted = KEYED_CONSTRUCTORS[qualified]
        if self.facts.kind(table) is not wanted and not (wanted is Kind.DICT_OF_LIST and self._filled_with_lists(table)):
            return
        loop = self.facts.iteration_loop(node)
        if loop is None or rarely_runs(self.facts, node, loop):
            return
        if not invariant(self.facts, table, loop) or invariant(self.facts, comp.for_in.iter, loop):
            return  # the dict changes in the loop, or the same keys every time (redundant-tensor)
        if part is not None and self.facts.varying_names(part, loop) & self.facts.names_read(part):
            return  # `[d[c][row] for c in cols(row)]`: not one fixed slice of every row
        d, keys, ctor = self.facts.code(table), self.facts.code(comp.for_in.iter), self.facts.code(node.func)
        base = fresh_name(self.facts, f"{_name_of(table)}_rows", self._names)
        self._names.add(base)
        numpy = qualified.startswith("numpy.")
        index = f"{module_alias(self.facts, 'numpy') or 'np'}.asarray" if numpy else f"{module_alias(self.facts, 'torch') or 'torch'}.as_tensor"
        build = f"{ctor}(list({d}.values()))"
        where = "before the loop" if self.facts.enclosing_loops(node) else "where the dict is created (`__init__` for a Dataset)"
        if tail:
            build = f"{ctor}([row{tail} for row in {d}.values()])"
        suggestion = (f"{base} = {build}  # once, {where}\n{base}_pos = {{k: i for i, k in enumerate({d})}}\n...\n"
                      f"{base}[{index}([{base}_pos[{key}] for {var.value} in {keys}])]")
        self.report(
            node,
            f"`{d}` maps each key to {'a separate tensor' if qualified in ('torch.stack', 'torch.cat') else 'a Python list'}: "
            f"`{ctor}([{d}[{key}]{tail} for {var.value} in {keys}])` rebuilds the batch one row at a time in "
            "Python on every iteration; one table built once, indexed by the keys' positions, makes each batch "
            "a single gather",
            fix=Fix(description=f"stack the rows once {where} and gather them per batch",
                    suggestion=suggestion, safe=False),
        )

    def _column_read_loop(self, node: cst.Call, table: cst.BaseExpression, columns: cst.BaseExpression,
                          rows: cst.BaseExpression) -> Loop | None:
        """The loop that reads rows of a dict of column lists on every step, where one table built
        once would do: the dict and its columns fixed in it, the rows not (the same rows every time
        are redundant-tensor's)."""
        if not (self.facts.kind(table) is Kind.DICT_OF_LIST or self._filled_with_lists(table)):
            return None
        loop = self.facts.iteration_loop(node)
        if loop is None or rarely_runs(self.facts, node, loop) or not invariant(self.facts, table, loop) \
                or not invariant(self.facts, columns, loop) or invariant(self.facts, rows, loop):
            return None
        return loop

    def _table_options_and_name(self, node: cst.Call, table: cst.BaseExpression) -> tuple[str, str]:
        """The constructor's keyword options to keep, and a fresh name for the table built once."""
        options = "".join(f", {self.facts.code(a).strip().rstrip(',')}" for a in node.args if a.keyword is not None)
        name = fresh_name(self.facts, f"{_name_of(table)}_table", self._names)
        self._names.add(name)
        return options, name

    def _row_across_columns(self, node: cst.Call) -> bool:
        """`torch.tensor([self.cols[c][i] for c in CAT_COLS])` in `__getitem__`: row `i` read out
        of every column list of a dict, one Python object per column, for every sample. The
        columns stacked once (rows x columns) make each sample one index."""
        positional = [a for a in node.args if a.keyword is None and not a.star]
        comp = positional[0].value if len(positional) == 1 else None
        if not isinstance(comp, cst.ListComp) or comp.for_in.inner_for_in is not None or comp.for_in.ifs \
                or not isinstance(comp.for_in.target, cst.Name) or keyword(node, "requires_grad") is not None:
            return False
        var, elt = comp.for_in.target.value, comp.elt
        column = elt.value if isinstance(elt, cst.Subscript) and len(elt.slice) == 1 \
            and isinstance(elt.slice[0].slice, cst.Index) else None
        if not (isinstance(column, cst.Subscript) and len(column.slice) == 1 and isinstance(column.slice[0].slice, cst.Index)
                and isinstance(column.slice[0].slice.value, cst.Name) and column.slice[0].slice.value.value == var
                and isinstance(column.value, (cst.Name, cst.Attribute))):
            return False
        table, row = column.value, elt.slice[0].slice.value  # type: ignore[union-attr]
        if var in self.facts.names_read(row) or var in self.facts.names_read(table) \
                or self._column_read_loop(node, table, comp.for_in.iter, row) is None:
            return False
        d, cols, ctor = self.facts.code(table), self.facts.code(comp.for_in.iter), self.facts.code(node.func)
        options, name = self._table_options_and_name(node, table)
        where = "before the loop" if self.facts.enclosing_loops(node) else "where the dict is created (`__init__` for a Dataset)"
        suggestion = f"{name} = {ctor}([{d}[{var}] for {var} in {cols}]{options}).T  # once, {where}\n...\n{name}[{self.facts.code(row)}]"
        self.report(
            node,
            f"`{d}` maps each column to a Python list: `{ctor}([{d}[{var}][{self.facts.code(row)}] for {var} in {cols}])` "
            "reads one row out of every column, one Python object at a time, on every iteration; the columns "
            "stacked once into one tensor (rows x columns) make each row a single index",
            fix=Fix(description=f"stack the columns once {where} and index the row", suggestion=suggestion, safe=False),
        )
        return True

    def _rows_across_columns(self, node: cst.Call) -> bool:
        """`torch.tensor([[vocab[c][table[c][r]] for c in CAT_COLS] for r in rows])` per batch: a
        batch of rows read out of every column list, one Python object per cell, with an invariant
        encoding of each cell (a vocabulary lookup, a standardisation). The columns encoded and
        stacked once make each batch one index."""
        positional = [a for a in node.args if a.keyword is None and not a.star]
        outer = positional[0].value if len(positional) == 1 else None
        if not isinstance(outer, cst.ListComp) or outer.for_in.inner_for_in is not None or outer.for_in.ifs \
                or not isinstance(outer.for_in.target, cst.Name) or keyword(node, "requires_grad") is not None:
            return False
        inner = outer.elt
        if not isinstance(inner, cst.ListComp) or inner.for_in.inner_for_in is not None or inner.for_in.ifs \
                or not isinstance(inner.for_in.target, cst.Name):
            return False
        row, col = outer.for_in.target.value, inner.for_in.target.value
        cells = [n for n in self.facts.walk(inner.elt) if isinstance(n, cst.Subscript) and _cell_of(n, col, row)]
        tables = {self.facts.code(c.value.value) for c in cells}  # type: ignore[attr-defined]
        if len(cells) == 0 or len(tables) != 1:
            return False
        table = cells[0].value.value  # type: ignore[attr-defined]
        loop = self._column_read_loop(node, table, inner.for_in.iter, outer.for_in.iter)
        if loop is None:
            return False
        others = self.facts.names_read(inner.elt) - {row, col}
        if self.facts.varying_names(inner.elt, loop) & others or self.facts.calls_in(inner.elt):
            return False  # each cell's encoding changes in the loop (or calls code): not one table
        d, cols, rows = self.facts.code(table), self.facts.code(inner.for_in.iter), self.facts.code(outer.for_in.iter)
        ctor, cell = self.facts.code(node.func), self.facts.code(inner.elt)
        options, name = self._table_options_and_name(node, table)
        suggestion = (f"{name} = {ctor}([[{cell} for {col} in {cols}] for {row} in range(len({d}[{cols}[0]]))]"
                      f"{options})  # once, before the loop\n...\n{name}[{rows}]")
        self.report(
            node,
            f"`{d}` maps each column to a Python list: every batch reads `{cell}` cell by cell for each row of "
            f"`{rows}` and column of `{cols}` in Python; the columns encoded and stacked once into one tensor "
            "(rows x columns) make each batch a single index",
            fix=Fix(description="encode and stack the columns once before the loop and index the batch's rows",
                    suggestion=suggestion, safe=False),
        )
        return True

    def _filled_with_lists(self, table: cst.BaseExpression) -> bool:
        """`sessions = {}` then `sessions[sid] = [...]` (a list literal or comprehension) in a loop:
        a dict of lists, though built one key at a time."""
        if not isinstance(table, cst.Name) or self.facts.kind(table) is not Kind.DICT:
            return False
        owner = self.facts
        if not bound_in_unit(self.facts, table.value):  # built in an earlier cell
            earlier = self.facts.prior.value(table.value)
            if earlier is None:
                return False
            owner = earlier[0]
        stores = []
        for use in owner.uses(table.value):
            sub = owner.parent(use)
            target = owner.parent(sub) if isinstance(sub, cst.Subscript) and sub.value is use else None
            if isinstance(target, cst.AssignTarget):
                stores.append(owner.parent(target).value)  # type: ignore[union-attr]
        return bool(stores) and all(isinstance(v, (cst.List, cst.ListComp)) for v in stores)

    def leave_Module(self, original_node: cst.Module) -> None:
        for use, target in self._groups.values():
            self._report(use, target)

    def _column_passed_in(self, node: cst.Call, arg: cst.BaseExpression) -> bool:
        """`def to_device(xs, ys): return torch.tensor(xs)...` where every per-iteration call passes
        a slice of a dict-of-lists column (`to_device(data["tokens"][b : b + bs], ...)`): the
        helper converts the column's rows one Python object at a time per batch. A hint: the
        columns are converted where the dict is made, and the callers pass tensor slices."""
        func = self.facts.enclosing_function(node)
        if not isinstance(arg, cst.Name) or not isinstance(func, cst.FunctionDef) or arg.value in self.facts.names_written(func.body):
            return False
        params = positional_params(func)
        if arg.value not in params:
            return False
        sites = self.facts.per_iteration_call_sites(func)
        columns = []
        for owner, call in sites:
            passed = argument_bound_to(call, params, arg.value)
            if not (isinstance(passed, cst.Subscript) and isinstance(passed.value, cst.Subscript) and len(passed.slice) == 1
                    and isinstance(passed.slice[0].slice, cst.Slice) and owner.kind(passed.value.value) is Kind.DICT_OF_LIST):
                return False
            columns.append(owner.code(passed.value))
        if not columns:
            return False
        shown = ", ".join(f"`{c}`" for c in dict.fromkeys(columns))
        self.report(
            node,
            f"`{arg.value}` is a slice of {shown} (a dict of Python lists) at every per-iteration call of "
            f"`{func.name.value}`: `{self.facts.code(node.func)}` converts the selected rows one Python object at a "
            "time on every batch",
            fix=Fix(description="convert the column to a tensor once, where the dict is created, and pass tensor "
                    f"slices to `{func.name.value}` (each batch becomes one indexing op)", safe=False),
        )
        return True

    def _per_key(self, node: cst.Call, arg: cst.BaseExpression, loop: Loop) -> None:
        """`torch.tensor(train_items[u], device=device)` for each user `u` of the loop: a dict of
        Python lists (one per key, of any length) converted key by key on every pass, where each
        key's tensor could be built once. A hint: the lists are ragged, so the table is a dict of
        tensors (or a padded tensor), which changes how the program reads it."""
        if not (isinstance(arg, cst.Subscript) and len(arg.slice) == 1 and isinstance(arg.slice[0].slice, cst.Index)
                and isinstance(arg.value, (cst.Name, cst.Attribute))):
            return
        table, key = arg.value, arg.slice[0].slice.value
        if self.facts.kind(table) is not Kind.DICT_OF_LIST or isinstance(key, (cst.SimpleString, cst.Integer)):
            return  # `d["col"]` whole: invariant, `redundant-tensor`'s
        if not invariant(self.facts, table, loop) or invariant(self.facts, arg, loop):
            return
        d, ctor = self.facts.code(table), self.facts.code(node.func)
        options = "".join(f", {self.facts.code(a).strip().rstrip(',')}" for a in node.args if a.keyword is not None)
        name = fresh_name(self.facts, f"{_name_of(table)}_t", self._names)
        self._names.add(name)
        suggestion = f"{name} = {{k: {ctor}(v{options}) for k, v in {d}.items()}}  # once, before the loop\n...\n{name}[{self.facts.code(key)}]"
        self.report(
            node,
            f"`{d}` maps each key to a Python list: `{ctor}({d}[{self.facts.code(key)}])` converts one key's list one "
            "Python object at a time on every iteration (and copies it to the device), the same lists every pass",
            fix=Fix(description=f"convert each key's list once before the loop (`{name}`, a dict of tensors) and read "
                    "the key's tensor in the loop", suggestion=suggestion, safe=False),
        )

    # --- matching --------------------------------------------------------------------------

    def _use(self, call: cst.Call, arg: cst.BaseExpression) -> Use | None:
        if isinstance(arg, cst.Subscript) and isinstance(arg.value, cst.Subscript) and len(arg.slice) == 1 \
                and len(arg.value.slice) == 1:
            element = arg.slice[0]
            index = element.slice
            if isinstance(index, cst.Slice) and index.step is not None and not _positive_literal(index.step):
                return None
            inner = index.value if isinstance(index, cst.Index) else index
            return Use(call, arg.value, inner, element)
        if isinstance(arg, cst.Subscript) and isinstance(arg.value, cst.Name) and len(arg.slice) == 1 \
                and isinstance(arg.slice[0].slice, cst.Slice) and _positive_literal(arg.slice[0].slice.step or cst.Integer("1")):
            return Use(call, arg.value, arg.slice[0].slice, arg.slice[0])  # `torch.tensor(rows[a:b])`: a list's rows
        if isinstance(arg, cst.ListComp) and arg.for_in.inner_for_in is None and not arg.for_in.ifs:
            elt, var = arg.elt, arg.for_in.target
            if isinstance(var, cst.Name) and isinstance(elt, cst.Subscript) and isinstance(elt.value, cst.Subscript) \
                    and len(elt.slice) == 1 and len(elt.value.slice) == 1 and isinstance(elt.slice[0].slice, cst.Index) \
                    and isinstance(elt.slice[0].slice.value, cst.Name) and elt.slice[0].slice.value.value == var.value \
                    and var.value not in self.facts.names_read(elt.value):
                return Use(call, elt.value, rows=arg.for_in.iter)
        return None

    def _hoist_target(self, node: cst.Call, use: Use) -> Loop | None:
        """The outermost enclosing loop in which the column and the constructor options are invariant."""
        best = None
        parts = [use.column, *(a.value for a in node.args if a.keyword is not None)]
        for loop in self.facts.enclosing_loops(node):
            if not all(invariant(self.facts, p, loop) for p in parts) or defaults_changed(self.facts, node, loop):
                break  # a varying column or option; a loop switching torch's default dtype per phase
            best = loop
        return best

    # --- reporting -------------------------------------------------------------------------

    def _report(self, use: Use, target: Loop | None) -> None:
        facts = self.facts
        column = facts.code(use.column)
        ctor = facts.code(use.call.func)
        options = "".join(f", {facts.code(a).strip().rstrip(',')}" for a in use.call.args if a.keyword is not None)
        base = fresh_name(facts, _column_name(use.column), self._names)
        self._names.add(base)
        convert = f"{base} = {ctor}({column}{options})"
        torch = module_alias(facts, "torch")
        why = ""
        if target is None:
            why = "it runs in a function called per iteration: convert the columns once where the dict is created"
        elif not self._homogeneous(use.column):
            why = f"`{column}` is not provably a list of numbers of one type (mixed ints and floats convert differently)"
        elif not all(self._empty_converts_alike(u) or self._never_empty(u) for u in (use, *use.others)):
            why = (f"a selection of `{column}` may be empty (a last batch past the end, an empty fold): `{ctor}([])` "
                   "is a float tensor of shape (0,), where indexing the converted column keeps the column's dtype "
                   "and row width")
        elif torch is None:
            why = "torch is not imported under a plain name here"
        elif any(_sized_by_element(facts, u) for u in (use, *use.others)):
            why = (f"`{ctor}` given one element of the column reads a number as a size (`torch.LongTensor(3)` is "
                   "three uninitialised values), which indexing the converted column does not")
        edits = []
        uses = [use, *use.others]
        for u in uses:
            new = self._indexed(u, base, torch or "torch")
            if new is None:
                why = why or "the rows are not a list or tensor of indices"
                break
            edits.append(replace(facts, u.call, new))
        safe = not why
        suggestion = f"{convert}\n...\n{self._indexed(use, base, torch or 'torch') or base + '[rows]'}"
        fix = Fix(
            description=f"convert the column once before the loop (`{convert}`) and index the tensor"
            + (f" ({why})" if why else ""),
            edits=(insert_before(facts, target.node, convert), *edits) if safe and target is not None else (),
            suggestion=suggestion,
            safe=safe,
        )
        more = f" (and {len(use.others)} more use{'s' if len(use.others) > 1 else ''} in this loop)" if use.others else ""
        self.report(
            use.call,
            f"`{column}` is a Python list: `{ctor}` converts the selected elements one Python object at a "
            f"time on every iteration{more}; one conversion before the loop makes each batch a tensor index",
            fix=fix,
        )

    def _indexed(self, use: Use, base: str, torch: str) -> str | None:
        if use.rows is not None:
            rows = self.facts.code(use.rows)
            if self.facts.kind(use.rows) not in (Kind.LIST, Kind.NDARRAY, Kind.TENSOR):
                rows = f"list({rows})"  # a set, a dict's keys, an iterator: `as_tensor` takes sequences only
            return f"{base}[{torch}.as_tensor({rows}, dtype={torch}.long)]"
        assert use.slice_node is not None
        index = self.facts.code(use.slice_node.slice).strip()
        code = f"{base}[{index}]"
        return code + ".clone()" if self._mutated(use.call) else code

    def _mutated(self, call: cst.Call) -> bool:
        """Indexing gives a view of the table where the constructor gave a copy: the view is
        kept only where the batch is provably just read (no in-place change, no alias, no
        container or call that could change it later)."""
        parent = self.facts.parent(call)
        scope = self.facts.enclosing_function(call) or self.facts.module
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
            return not only_read(self.facts, parent.targets[0].target.value, scope)
        return not isinstance(parent, (cst.BinaryOperation, cst.Comparison, cst.UnaryOperation))

    def _empty_converts_alike(self, use: Use) -> bool:
        """An EMPTY selection converts as the same selection of the converted column. `torch.tensor([])`
        is a 1-D tensor of the default float dtype whatever the column holds, so that holds only for a
        column of plain floats (the default dtype both ways), or where the dtype is fixed (a `dtype=`
        option, a typed legacy constructor) and the column holds numbers, not rows."""
        value, _ = self._column_value(use.column)
        kind = element_kind(value)
        if kind is None or isinstance(kind, tuple):
            return False  # unknown, or rows: an empty slice of a (n, w) table is (0, w), not (0,)
        qualified = (self.facts.qualified_name(use.call.func) or "").rsplit(".", 1)[-1]
        fixed = keyword(use.call, "dtype") is not None or (qualified in _LEGACY and qualified != "Tensor")
        return fixed or kind == FLOAT

    def _never_empty(self, use: Use) -> bool:
        """`d[key][s : s + K]` (K a positive literal) where `s` runs over `range(A, B[, S])` of
        literals with 0 <= A < B <= the length of a column literal no statement writes: every
        selection holds at least one element."""
        if use.rows is not None:
            return self._rows_never_empty(use.rows, use.call)  # an index past the end raises: no empty batch
        if use.slice_node is None:
            return False
        if not isinstance(use.index, cst.Slice):
            return True  # one element, never an empty selection (past the end it raises both ways)
        lower, upper = use.index.lower, use.index.upper
        if not (isinstance(lower, cst.Name) and isinstance(upper, cst.BinaryOperation)
                and isinstance(upper.operator, cst.Add) and isinstance(upper.left, cst.Name)
                and upper.left.value == lower.value and _positive_literal(upper.right)):
            return False
        value, unwritten = self._column_value(use.column)
        if not isinstance(value, list) or not unwritten:
            return False
        for loop in self.facts.enclosing_loops(use.call):
            node = loop.node
            if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == lower.value:
                bounds = _literal_range(self.facts, node.iter)
                return bounds is not None and 0 <= bounds[0] < bounds[1] <= len(value) \
                    and not any(lower.value in writes_of(n) for n in walk(node.body, into_scopes=False))
        return False

    def _rows_never_empty(self, rows: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> bool:
        """The gathered rows hold at least one index: a non-empty literal list/tuple/set,
        `range(K)` / `range(v, v + K)` with K a positive literal, or the target of an enclosing `for`
        over a literal list or tuple of such rows that the loop body does not rebind."""
        if isinstance(rows, (cst.List, cst.Tuple, cst.Set)):
            return bool(rows.elements) and not any(isinstance(e, cst.StarredElement) for e in rows.elements)
        if isinstance(rows, cst.Call) and self.facts.qualified_name(rows.func) == "builtins.range" \
                and all(a.keyword is None and not a.star for a in rows.args):
            args = [a.value for a in rows.args]
            if len(args) == 1:
                return _positive_literal(args[0])
            if len(args) == 2:
                start, stop = args
                return isinstance(stop, cst.BinaryOperation) and isinstance(stop.operator, cst.Add) \
                    and isinstance(start, cst.Name) and isinstance(stop.left, cst.Name) \
                    and stop.left.value == start.value and _positive_literal(stop.right)
            return False
        if isinstance(rows, cst.Name) and depth == 0:
            for loop in self.facts.enclosing_loops(at):
                node = loop.node
                if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == rows.value:
                    rows_list = node.iter
                    return isinstance(rows_list, (cst.List, cst.Tuple)) and bool(rows_list.elements) \
                        and all(isinstance(e, cst.Element) and self._rows_never_empty(e.value, at, depth + 1)
                                for e in rows_list.elements) \
                        and not any(rows.value in writes_of(n) for n in walk(node.body, into_scopes=False))
        return False

    def _column_value(self, column: cst.BaseExpression) -> tuple[object, bool]:
        """The column's literal list (or its live value in a notebook) and whether nothing writes the
        column after it; (None, False) where it is not known."""
        if not (isinstance(column, cst.Subscript) and isinstance(column.value, cst.Name)):
            return None, False
        d, key = column.value, column.slice[0].slice
        key_value = key.value if isinstance(key, cst.Index) else None
        if not isinstance(key_value, cst.SimpleString):
            return None, False
        literal_key = key_value.evaluated_value
        value = self.facts.value_of(d)
        if value is None and d.value in self.facts.namespace and not bound_in_unit(self.facts, d.value):
            live = self.facts.namespace[d.value]
            found = live.get(literal_key) if isinstance(live, dict) else None
            return found, isinstance(found, list) and not column_written(self.facts, d.value, literal_key, None, None)
        facts = self.facts
        if value is None and (earlier := earlier_value(self.facts, d)) is not None:
            facts, value = earlier
        if not isinstance(value, cst.Dict):
            return None, False
        sources = [el.value for el in value.elements if isinstance(el, cst.DictElement)
                   and isinstance(el.key, cst.SimpleString) and el.key.evaluated_value == literal_key]
        if len(sources) != 1:
            return None, False
        units = {id(u): u for u in (self.facts, facts, *self.facts.prior.cells, *self.facts.prior.units())}.values()
        return _literal(sources[0]), not any(column_written(u, d.value, literal_key, value, None) for u in units)

    def _homogeneous(self, column: cst.BaseExpression) -> bool:
        """Every value of the column is a number of one Python type (or rows of them). A plain
        list's rows (`json.loads` of a file) are not checked: the conversion is left for review."""
        if not isinstance(column, cst.Subscript):
            return False
        d, key = column.value, column.slice[0].slice
        key_value = key.value if isinstance(key, cst.Index) else None
        literal_key = key_value.evaluated_value if isinstance(key_value, cst.SimpleString) else None
        if isinstance(d, cst.Name):
            value = self.facts.value_of(d)
            if value is None and d.value in self.facts.namespace and not bound_in_unit(self.facts, d.value):
                live = self.facts.namespace[d.value]
                columns = [live.get(literal_key)] if literal_key is not None else list(live.values())  # type: ignore[union-attr]
                kind = element_kind(columns[0]) if len(columns) == 1 and uniform_list(columns[0]) else None
                return all(uniform_list(c) for c in columns) and not column_written(self.facts, d.value, literal_key, None, kind)
            facts = self.facts
            if value is None and (earlier := earlier_value(self.facts, d)) is not None:
                facts, value = earlier
            if isinstance(value, cst.Dict):
                columns_src = [el.value for el in value.elements if isinstance(el, cst.DictElement)
                               and (literal_key is None or (isinstance(el.key, cst.SimpleString) and el.key.evaluated_value == literal_key))]
                units = {id(u): u for u in (self.facts, facts, *self.facts.prior.cells, *self.facts.prior.units())}.values()
                # the column's kind (a literal's elements), by which later writes are judged
                kind = element_kind(_literal(columns_src[0])) if len(columns_src) == 1 else None
                return bool(columns_src) and all(_uniform_source(facts, c) for c in columns_src) \
                    and not any(column_written(u, d.value, literal_key, value, kind) for u in units)
        return False


_JSON_READERS = frozenset({"json.load", "json.loads"})


def _python_rows(facts: Facts, expr: cst.BaseExpression, depth: int = 4) -> bool:
    """`expr` names Python data a slice of which is a list of rows: a name every binding of which
    is a list literal or comprehension, `json.load(s)(...)`, or a string-keyed entry of such a name
    (`sequences = data["ids"]`): no tensor or array, so `torch.tensor` of a slice walks Python objects."""
    if isinstance(expr, cst.Subscript) and depth and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
            and isinstance(expr.slice[0].slice.value, cst.SimpleString):
        return _python_rows(facts, expr.value, depth - 1)
    if isinstance(expr, cst.Call):
        return (facts.qualified_name(expr.func) or "") in _JSON_READERS
    if isinstance(expr, (cst.List, cst.ListComp)):
        return True
    if not isinstance(expr, cst.Name) or not depth:
        return False
    sources = facts.value_sources(expr)
    return bool(sources) and all(s is not expr and _python_rows(facts, s, depth - 1) for s in sources)


def _uniform_source(facts: Facts, expr: cst.BaseExpression) -> bool:
    """A column written as a uniform literal list, or as `.tolist()` of an array or tensor."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "tolist":
        return facts.kind(expr.func.value) in (Kind.NDARRAY, Kind.TENSOR)
    return uniform_list(_literal(expr))


def _literal(expr: cst.BaseExpression) -> object:
    """The Python value of a literal list of numbers, or None."""
    if isinstance(expr, cst.List):
        values = [_literal(el.value) for el in expr.elements]
        return None if any(v is None for v in values) else values
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = _literal(expr.expression)
        return -inner if isinstance(inner, (int, float)) else None  # type: ignore[operator]
    if isinstance(expr, (cst.Integer, cst.Float)):
        return expr.evaluated_value
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return expr.value == "True"
    return None


_LEGACY = frozenset({"Tensor", "FloatTensor", "LongTensor", "DoubleTensor", "HalfTensor", "IntTensor", "ShortTensor",
                     "ByteTensor", "CharTensor", "BoolTensor", "BFloat16Tensor"})


def _sized_by_element(facts: Facts, use: Use) -> bool:
    """`torch.LongTensor(d[key][i])`: a legacy constructor given one element (not a slice or a
    gather of rows). Given a number it makes a tensor of that many uninitialised values."""
    qualified = facts.qualified_name(use.call.func) or ""
    return qualified.rsplit(".", 1)[-1] in _LEGACY and use.rows is None \
        and use.slice_node is not None and isinstance(use.slice_node.slice, cst.Index)


def _literal_range(facts: Facts, expr: cst.BaseExpression) -> tuple[int, int] | None:
    """(start, stop) of `range(stop)` / `range(start, stop[, step > 0])` written with int literals."""
    if not (isinstance(expr, cst.Call) and facts.qualified_name(expr.func) == "builtins.range"
            and 1 <= len(expr.args) <= 3 and all(a.keyword is None and not a.star for a in expr.args)):
        return None
    values = [a.value.evaluated_value if isinstance(a.value, cst.Integer) else None for a in expr.args]
    if any(v is None for v in values) or (len(values) == 3 and values[2] <= 0):  # type: ignore[operator]
        return None
    return (0, values[0]) if len(values) == 1 else (values[0], values[1])  # type: ignore[return-value]


def _positive_literal(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Integer) and int(expr.value) > 0


def _name_of(table: cst.BaseExpression) -> str:
    return table.value if isinstance(table, cst.Name) else table.attr.value if isinstance(table, cst.Attribute) else "table"


def _column_name(column: cst.BaseExpression) -> str:
    if isinstance(column, cst.Name):
        return f"{column.value}_t"
    assert isinstance(column, cst.Subscript)
    key = column.slice[0].slice
    value = key.value if isinstance(key, cst.Index) else None
    label = value.evaluated_value if isinstance(value, cst.SimpleString) else "column"
    owner = column.value.value if isinstance(column.value, cst.Name) else "data"
    return f"{owner}_{label}"


def _key_of(key: cst.BaseExpression, var: str) -> bool:
    """`k` or `r[0]` of the comprehension's variable: the row's key, one per item."""
    if isinstance(key, cst.Name):
        return key.value == var
    return isinstance(key, cst.Subscript) and isinstance(key.value, cst.Name) and key.value.value == var \
        and len(key.slice) == 1 and isinstance(key.slice[0].slice, cst.Index) and isinstance(key.slice[0].slice.value, cst.Integer)


def _cell_of(node: cst.Subscript, col: str, row: str) -> bool:
    """`table[c][r]`: the cell of column `c` at row `r`."""
    column = node.value
    return len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
        and isinstance(node.slice[0].slice.value, cst.Name) and node.slice[0].slice.value.value == row \
        and isinstance(column, cst.Subscript) and len(column.slice) == 1 and isinstance(column.slice[0].slice, cst.Index) \
        and isinstance(column.slice[0].slice.value, cst.Name) and column.slice[0].slice.value.value == col \
        and isinstance(column.value, (cst.Name, cst.Attribute))
