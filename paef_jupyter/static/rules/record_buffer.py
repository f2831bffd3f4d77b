"""A replay buffer of Python records: appended every step, sampled into tensors every batch.

The shape of most RL and online-learning code: `buf.append((s, a, r, s2))` (or one list per
field, or a `ReplayBuffer` class with `push`/`sample`), then per batch
`torch.tensor([buf[i] for i in idx])` / `random.sample(buf, k)` + `zip(*batch)`. Each batch
walks Python objects one by one; records made with `.tolist()` also leave the device and
come back. Unlike `dict-as-list` (data fixed before the loop: convert once), the container
grows inside the loop, so the fix is tensor storage: rows kept as tensors (stacked per
batch), or preallocated tensor columns with a ring index.

Automatic only where every use of a column is proved: it is bound to `[]` (a name, or a
column of a dict literal read only by literal keys), only `.append(x.tolist())`-ed (one
dtype family), `len()`-ed and read as `torch.tensor([col[i] for i in rows], ...)`. Anything
else (records of Python objects, other reads, the buffer escaping) gets the suggestion only.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import libcst as cst

from ...fix.edits import delete_statement, fresh_name, replace
from ...model import Edit, Fix, Severity
from ..facts import Facts
from ..types import Kind
from ._importers import project_default_setter
from ._support import init_value, insert_after, is_self_attr, torch_alias
from ._tensor_facts import (FLOAT, PYTHON_SCALAR_DTYPE, bound_in_unit, changes_no_tensor, default_device_set, dtype_of, earlier_value, family,
                            invariant, keyword, locally_bound, reads_of, within)
from .base import Rule, RuleContext

TENSOR_CONSTRUCTORS = frozenset({"torch.tensor", "torch.as_tensor"})
# Constructors that walk Python objects one by one (stacking arrays or tensors does not).
FROM_PYTHON = frozenset({
    "torch.tensor", "torch.as_tensor", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "numpy.array",
    "numpy.asarray",
})
# What a sampled batch of records is passed to on its way to arrays (stacking a batch of
# tensors is what tensor rows look like: not a sign of Python records).
CONSUMERS = FROM_PYTHON | {"builtins.zip", "builtins.map"}
SAMPLERS = frozenset({"random.sample", "random.choices"})
EMPTY_LISTS = frozenset({"builtins.list", "collections.deque"})
RING_SUGGESTION = """\
# once, where the buffer is created: one preallocated tensor per field
states = torch.empty(capacity, state_dim, device=device)
actions = torch.empty(capacity, dtype=torch.long, device=device)
rewards = torch.empty(capacity, device=device)
pos, size = 0, 0
# push: write the record into the columns (a ring: the oldest row is overwritten)
states[pos], actions[pos], rewards[pos] = state, action, reward
pos, size = (pos + 1) % capacity, min(size + 1, capacity)
# sample: one gather per field instead of a Python walk over records;
# random.sample(range(size), k) draws the very indices random.sample(buffer, k) drew
# (a list's order; for a full deque(maxlen) ring, row j is (pos + j) % capacity)
idx = torch.as_tensor(random.sample(range(size), batch_size), device=device)
batch = states[idx], actions[idx], rewards[idx]"""


@dataclass
class Column:
    """One Python list used as a record store: a name, a dict-literal column, or `self.x`."""

    code: str
    binding: cst.BaseExpression  # the `[]` / `deque(...)` it is created from
    scope: cst.CSTNode  # where its uses are looked for
    owner: str  # the name (or `self`) the uses are spelled with
    key: str | None = None  # the dict key for `d["key"]`
    earlier: bool = False  # created by an earlier notebook cell
    reads: list[cst.CSTNode] = field(default_factory=list)
    whole: bool = False  # some read converts every record (`torch.tensor(col)[idx]`)


class RecordBuffer(Rule):
    id = "record-buffer"
    title = "Replay buffer of Python records sampled into tensors every batch"
    severity = Severity.HIGH
    explanation = (
        "A buffer that stores each step's record as Python objects (a list or deque of tuples, one "
        "Python list per field, lists made with `.tolist()`) is sampled by walking those objects one by "
        "one on every batch and converting them back into tensors; rows that came from a tensor also "
        "leave the device and return. Keeping the records in tensors (rows stacked per batch, or "
        "preallocated columns with a ring index) makes each batch a gather on contiguous memory."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._columns: dict[int, Column] = {}  # id(binding) -> column
        self._order: list[int] = []
        self._names: set[str] = set()

    # --- matching ---------------------------------------------------------------------------

    def visit_ListComp(self, node: cst.ListComp) -> None:
        """`[buf[i] for i in rows]` (or one field of each: `buf[i][0]`, `buf[i].state`):
        records picked one by one per batch."""
        if node.for_in.inner_for_in is not None or node.for_in.ifs or not isinstance(node.for_in.target, cst.Name):
            return
        elt, var = _record_of(node.elt), node.for_in.target.value
        if not (isinstance(elt, cst.Subscript) and len(elt.slice) == 1 and isinstance(elt.slice[0].slice, cst.Index)
                and isinstance(elt.slice[0].slice.value, cst.Name) and elt.slice[0].slice.value.value == var):
            return
        self._read(elt.value, node)

    def visit_For(self, node: cst.For) -> None:
        """`for i in idx: s, a, r = buf[i]` (then `np.array(s_list)`): records picked in a loop."""
        if not isinstance(node.target, cst.Name):
            return
        var = node.target.value
        for sub in self.facts.walk(node.body):
            if isinstance(sub, cst.Subscript) and len(sub.slice) == 1 and isinstance(sub.slice[0].slice, cst.Index) \
                    and isinstance(sub.slice[0].slice.value, cst.Name) and sub.slice[0].slice.value.value == var \
                    and self._column(sub.value) is not None:
                self._read(sub.value, sub)
                return

    def visit_Call(self, node: cst.Call) -> None:
        """`random.sample(buf, k)`: a batch of records, converted field by field after; or
        `torch.tensor(buf)[idx]`: every record converted, then a batch kept."""
        if _samples(self.facts, node):
            self._read(node.args[0].value, node)
        elif self._converted_whole(node):
            self._read(node.args[0].value, node, whole=True)

    def _converted_whole(self, node: cst.Call) -> bool:
        """`torch.tensor(self.states)[idxs]`, `np.array(buffer)[batch]`: a constructor of the
        whole container, indexed at once by drawn indices: each call walks every record, not
        the batch. (A slice, `np.array(losses)[-100:]`, is a window of the latest values.)"""
        parent = self.facts.parent(node)
        return isinstance(parent, cst.Subscript) and parent.value is node and len(parent.slice) == 1 \
            and isinstance(parent.slice[0].slice, cst.Index) \
            and isinstance(parent.slice[0].slice.value, (cst.Name, cst.Attribute, cst.Call)) \
            and (self.facts.qualified_name(node.func) or "") in FROM_PYTHON \
            and len(node.args) >= 1 and node.args[0].keyword is None and not node.args[0].star \
            and all(a.keyword is not None for a in node.args[1:])

    def _read(self, container: cst.BaseExpression, site: cst.CSTNode, whole: bool = False) -> None:
        """`whole`: `site` converts every record (it is a tensor constructor already)."""
        column = self._column(container)
        if column is None or not self._sampled_per_batch(column, site) or not (whole or self._feeds_tensors(site)):
            return
        key = id(column.binding)
        if key not in self._columns:
            self._columns[key] = column
            self._order.append(key)
        self._columns[key].reads.append(site)
        self._columns[key].whole = self._columns[key].whole or whole

    def _column(self, expr: cst.BaseExpression) -> Column | None:
        facts = self.facts
        if isinstance(expr, cst.Name):
            value = facts.value_of(expr) or _global_value(facts, expr)  # a module-level buffer read in a helper
            if value is not None and _empty_list(facts, value):
                return Column(expr.value, value, _scope(facts, value), expr.value)
            if value is None and _from_earlier_cell(facts, expr):
                first = reads_of(facts, expr.value)[0]  # one stable identity for every read of it
                return Column(expr.value, first, facts.module, expr.value, earlier=True)
            return None
        if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and (key := _literal_key(expr)) is not None:
            table = facts.value_of(expr.value)
            if isinstance(table, cst.Dict):
                for el in table.elements:
                    if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString) \
                            and el.key.evaluated_value == key and _empty_list(facts, el.value):
                        return Column(facts.code(expr), el.value, _scope(facts, el.value), expr.value.value, key)
            return None
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            cls = next((a for a in facts.ancestors(expr) if isinstance(a, cst.ClassDef)), None)
            if cls is not None:
                value = init_value(facts, cls, expr.attr.value)
                if value is not None and _empty_list(facts, value):
                    return Column(f"self.{expr.attr.value}", value, cls, "self")
        return None

    def _sampled_per_batch(self, column: Column, site: cst.CSTNode) -> bool:
        """Appended and read again and again: in one loop, or (a class) in separate methods
        (a list filled once in `__init__`, like a Dataset's, is not a buffer)."""
        appends = _appends(self.facts, column)
        if not appends:
            return False
        if isinstance(column.scope, cst.ClassDef):
            reader = self.facts.enclosing_function(site)
            writers = {self.facts.enclosing_function(a) for a in appends}
            return reader is not None and reader not in writers \
                and any(w is not None and w.name.value != "__init__" for w in writers)
        loop = self.facts.iteration_loop(site)
        return loop is not None and any(within(self.facts, a, loop.node) for a in appends)

    def _feeds_tensors(self, site: cst.CSTNode) -> bool:
        """The sampled records become arrays: the read is a constructor's argument, or the batch
        it is assigned to is unzipped (`zip(*batch)`) or passed to one (a record batch that is
        only printed or logged is not converted)."""
        facts = self.facts
        parent = facts.parent(site)
        holder = facts.parent(parent) if isinstance(parent, cst.Arg) else None
        if isinstance(holder, cst.Call):
            consumer = facts.qualified_name(holder.func) or ""
            return consumer in FROM_PYTHON or (consumer in CONSUMERS and parent.star == "*")  # `zip(*sample(...))`
        scope = _scope(facts, site)
        later = [call for call in facts.calls_in(scope) if facts.position(call).start.line >= facts.position(site).start.line
                 and (facts.qualified_name(call.func) or "") in CONSUMERS]
        if isinstance(site, cst.Subscript):  # picked in a loop: the picks are gathered into arrays after it
            return any((facts.qualified_name(call.func) or "") in FROM_PYTHON for call in later)
        if isinstance(parent, cst.Return) and isinstance(scope, cst.FunctionDef):
            return self._callers_unzip(scope.name.value)
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
            return False
        batch = parent.targets[0].target.value
        return any(any(batch in facts.names_read(a.value) for a in call.args) for call in later)

    def _callers_unzip(self, method: str) -> bool:
        """`return random.sample(self.buffer, k)` in `sample`: a caller unzips what
        `x.sample(...)` returns (`batch = memory.sample(64)` ... `zip(*batch)`)."""
        facts = self.facts
        for node in facts.walk(facts.module):
            if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                    and isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Attribute)
                    and node.value.func.attr.value == method):
                continue
            batch = node.targets[0].target.value
            scope = _scope(facts, node)
            if any((facts.qualified_name(call.func) or "") in CONSUMERS and any(a.star == "*" and batch in facts.names_read(a.value) for a in call.args)
                   for call in facts.calls_in(scope)):
                return True
        return False

    # --- reporting --------------------------------------------------------------------------

    def leave_Module(self, original_node: cst.Module) -> None:
        groups: dict[tuple[int, str], list[Column]] = {}
        for key in self._order:
            column = self._columns[key]
            groups.setdefault((id(column.scope), column.owner), []).append(column)
        for columns in groups.values():
            self._report(columns)

    def _report(self, columns: list[Column]) -> None:
        facts = self.facts
        first = min((r for c in columns for r in c.reads), key=lambda r: facts.position(r).start.line)
        edits: list[Edit] = []
        refused: list[str] = []
        for column in columns:
            rewrite = self._rewrite(column)
            if isinstance(rewrite, str):
                refused.append(f"`{column.code}`: {rewrite}")
            else:
                edits.extend(rewrite)
        owner = columns[0].owner
        if columns[0].key is not None:
            what = f"`{owner}` keeps one growing Python list per field ({', '.join(repr(c.key) for c in columns)})"
        elif len(columns) > 1:
            what = f"{', '.join(f'`{c.code}`' for c in columns)} are growing Python lists, one per field of each step's record"
        else:
            what = f"`{columns[0].code}` is a growing Python {_container_word(self.facts, columns[0].binding)} of per-step records"
        where = "every call of its sampling method" if isinstance(columns[0].scope, cst.ClassDef) else "every iteration"
        converts = ("converts every record it holds into a tensor, one Python object at a time, to keep a batch of "
                    "them: the cost grows with the buffer, not the batch" if any(c.whole for c in columns) else
                    "samples it and converts the records back into tensors one Python object at a time")
        message = (f"{what}, and {where} {converts}; tensor storage (rows kept as tensors, or preallocated columns with a "
                   "ring index) makes each batch one gather")
        if edits:
            kept = f"; left as Python lists: {'; '.join(refused)}" if refused else ""
            fix = Fix(description="store the rows as tensors (`.detach().clone()` instead of `.tolist()`) and stack "
                                  f"the sampled rows (same values, dtype and device){kept}",
                      edits=tuple(edits), suggestion=RING_SUGGESTION)
        else:
            least = (" (at the least, convert only the sampled records: `torch.tensor([col[i] for i in idx])` in "
                     "place of `torch.tensor(col)[idx]`)" if any(c.whole for c in columns) else "")
            fix = Fix(description=f"keep the records in tensor columns with a ring index{least}; not rewritten "
                                  "automatically: " + "; ".join(refused), suggestion=RING_SUGGESTION, safe=False)
        self.report(first, message, fix=fix, severity=None if edits else Severity.MEDIUM,
                    part_of=self._conversions(columns))

    def _conversions(self, columns: list[Column]) -> list[cst.Call]:
        """Where the cost is paid: after a sampling read bound to a name (`batch = random.sample(...)`),
        the unzipping and the constructors in its function that read that batch or the fields
        unzipped from it (`zip(*batch)`, `torch.tensor(states)`): measured with the finding."""
        facts = self.facts
        out: list[cst.Call] = []
        for read in (r for c in columns for r in c.reads):
            names = set(_bound_by(facts, read))
            start = facts.position(read).start.line
            calls = sorted((call for call in facts.calls_in(_scope(facts, read)) if facts.position(call).start.line > start),
                           key=lambda call: facts.position(call).start.line)
            for call in calls:
                if (facts.qualified_name(call.func) or "") not in CONSUMERS \
                        or not any(names & facts.names_read(a.value) for a in call.args):
                    continue
                if call not in out:
                    out.append(call)
                names.update(_bound_by(facts, call))
        return out

    def _rewrite(self, column: Column) -> list[Edit] | str:
        """The edits that store `column`'s rows as tensors, or why that is not proved safe."""
        facts = self.facts
        torch = torch_alias(facts)
        if torch is None:
            return "torch is not imported under a plain name"
        if isinstance(column.scope, cst.ClassDef):
            return "records pushed by callers of the class have no provable type (write the columns by hand)"
        if column.earlier:
            return "it was created by an earlier cell, and the records it already holds are Python objects"
        uses = _uses(facts, column)
        if isinstance(uses, str):
            return uses
        later = _later_reader(facts, column)
        if later:
            return later
        appends, reads = uses
        families = set()
        for call in appends:
            arg = call.args[0].value
            if not (isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute) and arg.func.attr.value == "tolist"
                    and not arg.args):
                return "its records are Python values, not `.tolist()` of tensors (a tensor column needs their dtype)"
            if facts.kind(arg.func.value) is not Kind.TENSOR:
                return f"`{facts.code(arg.func.value)}` is not provably a tensor (a NumPy array has no `.detach()`)"
            families.add(family(_dtype_family(facts, arg.func.value)))
        if len(families) != 1 or None in families:
            return "the dtype of the tensors whose `.tolist()` it stores is not provable"
        (fam,) = families
        if any(keyword(ctor, "device") is None for _, ctor in reads) and (
                setter := default_device_set(facts) or project_default_setter(self.ctx.ref.path, device=True)):
            # `torch.tensor(rows)` follows torch's default device; the rewrite writes `device="cpu"` (red team 46)
            return f"the program sets torch's default device (`{setter}`): the rows' tensor is made there, not on the host"
        edits = []
        for call in appends:
            block = self._block_append(column, call)
            edits.extend(block if block is not None else
                         [replace(facts, call.args[0].value, f"{facts.code(call.args[0].value.func.value)}.detach().clone()")])
        for comp, ctor in reads:
            rows = fresh_name(facts, f"{column.key or column.owner}_rows", self._names)
            self._names.add(rows)
            dtype = keyword(ctor, "dtype")
            device = keyword(ctor, "device")
            where = facts.code(device) if device is not None else '"cpu"'
            # Python floats become the default dtype (float32 unless the program changed it)
            inferred = f"{torch}.get_default_dtype()" if fam == FLOAT else f"{torch}.{PYTHON_SCALAR_DTYPE[fam]}"
            target = f"device={where}, dtype={facts.code(dtype) if dtype is not None else inferred}"
            options = "".join(f", {facts.code(a.keyword)}={facts.code(a.value)}" for a in ctor.args if a.keyword is not None)
            empty = f"{facts.code(ctor.func)}({rows}{options})"
            edits.append(replace(facts, ctor, f"({torch}.stack({rows}).to({target}) if ({rows} := {facts.code(comp)}) else {empty})"))
        return edits

    def _block_append(self, column: Column, call: cst.Call) -> list[Edit] | None:
        """`for u in range(n): col.append(t[u].tolist())` appends the first `n` rows of `t`, one
        tensor op per row: one `col.extend(t.narrow(0, 0, n).detach().clone().unbind(0))` after
        the loop holds the same rows. None (append row by row) unless that is proved: the
        append is a statement of the loop's own body, the loop runs to its end (no
        `break`/`continue`/`return`/`yield`, no `try` around it to resume after a failure
        midway), `t` and `u` are the same object and index all through the loop, nothing
        else in the loop touches the column (its other uses are `len()` and reads, outside),
        and `t` has a first dimension even when the loop runs zero times (`narrow` raises on
        a 0-d tensor where an empty loop did nothing)."""
        facts = self.facts
        stmt, block = facts.parent(facts.parent(call)), None
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
            block = facts.parent(stmt)
        loop_node = facts.parent(block) if isinstance(block, cst.IndentedBlock) else None
        if not (isinstance(loop_node, cst.For) and loop_node.asynchronous is None and loop_node.orelse is None
                and isinstance(loop_node.target, cst.Name)):
            return None
        var = loop_node.target.value
        rows_expr = _range_stop(facts, loop_node.iter)
        record = call.args[0].value.func.value  # `t[u]` of `t[u].tolist()` (checked by the caller)
        if rows_expr is None or not (isinstance(record, cst.Subscript) and isinstance(record.value, cst.Name)
                                     and len(record.slice) == 1 and isinstance(record.slice[0].slice, cst.Index)
                                     and isinstance(record.slice[0].slice.value, cst.Name)
                                     and record.slice[0].slice.value.value == var):
            return None
        loop = next((lp for lp in facts.enclosing_loops(call) if lp.node is loop_node), None)
        tensor = record.value
        if loop is None or var in facts.names_written(loop_node.body) or not invariant(facts, tensor, loop) \
                or not changes_no_tensor(facts, loop_node) or not _runs_to_end(facts, loop_node) \
                or any(isinstance(a, cst.Try) for a in facts.ancestors(loop_node)):
            return None
        if any(within(facts, a, loop_node) and a is not call for a in _appends(facts, column)) \
                or any(within(facts, n, loop_node) for n in reads_of(facts, column.owner, column.scope)
                       if _same_container(facts, n if column.key is None else facts.parent(n), column)
                       and not within(facts, n, call)):
            return None
        if facts.may_run_zero_times(loop) and not _has_rows(facts, tensor):
            return None
        only = len(loop_node.body.body) == 1 if isinstance(loop_node.body, cst.IndentedBlock) else False
        if only and not _read_after(facts, var, loop_node):
            rows = facts.code(rows_expr)
            return [replace(facts, loop_node, _extend(facts, call, tensor, rows))]
        edits: list[Edit] = []
        if isinstance(rows_expr, cst.Integer) or (isinstance(rows_expr, cst.Name)
                                                 and rows_expr.value not in facts.names_written(loop_node.body)):
            rows = facts.code(rows_expr)
        else:  # `range(len(history))`: the stop is evaluated once, before the loop; keep that value
            rows = fresh_name(facts, "rows", self._names)
            self._names.add(rows)
            edits.append(replace(facts, rows_expr, f"{rows} := {facts.code(rows_expr)}"))
        edits.append(delete_statement(facts, stmt))
        edits.append(insert_after(facts, loop_node, _extend(facts, call, tensor, rows)))
        return edits


def _extend(facts: Facts, call: cst.Call, tensor: cst.Name, rows: str) -> str:
    column = facts.code(call.func.value)  # type: ignore[attr-defined]
    return f"{column}.extend({tensor.value}.narrow(0, 0, {rows}).detach().clone().unbind(0))"


def _read_after(facts: Facts, var: str, loop_node: cst.For) -> bool:
    """`var` (the loop's target) may be read after the loop with the value the loop left: a
    read outside it that is not inside another `for var in ...` binding its own value."""
    for name in reads_of(facts, var, _scope(facts, loop_node)):
        if within(facts, name, loop_node) or var in locally_bound(facts, name):
            continue
        if not any(isinstance(a, cst.For) and isinstance(a.target, cst.Name) and a.target.value == var
                   and not within(facts, name, a.iter) for a in facts.ancestors(name)):
            return True
    return False


def _range_stop(facts: Facts, it: cst.BaseExpression) -> cst.BaseExpression | None:
    """`n` of `range(n)` (one positional argument): the loop visits `0 .. n-1` in order."""
    if not (isinstance(it, cst.Call) and facts.qualified_name(it.func) == "builtins.range" and len(it.args) == 1):
        return None
    arg = it.args[0]
    return arg.value if arg.keyword is None and not arg.star else None


def _runs_to_end(facts: Facts, loop_node: cst.For) -> bool:
    """No statement of the body leaves the loop or skips the rest of an iteration (a `break`
    or `continue` of a nested loop only ends that one); nothing suspends or returns."""
    for node in facts.walk(loop_node.body):
        if isinstance(node, (cst.Return, cst.Yield, cst.Await)):
            return False
        if isinstance(node, (cst.Break, cst.Continue)):
            owner = next(a for a in facts.ancestors(node) if isinstance(a, (cst.For, cst.While)))
            if owner is loop_node:
                return False
    return True


def _has_rows(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """`expr` is a tensor with at least one dimension: made by `torch.cat`/`torch.stack`
    (directly, through the names it is bound to, or a local helper that only returns it)."""
    if depth > 4:
        return False
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr)
        return value is not None and _has_rows(facts, value, depth + 1)
    if not isinstance(expr, cst.Call):
        return False
    if (facts.qualified_name(expr.func) or "") in ("torch.cat", "torch.stack", "torch.concat", "torch.vstack",
                                                    "torch.hstack"):
        return True
    returned = _helper_return(facts, expr)
    return returned is not None and _has_rows(facts, returned, depth + 1)


def _helper_return(facts: Facts, call: cst.Call) -> cst.BaseExpression | None:
    """What a call of a local helper whose whole body is one `return <expr>` gives: `<expr>`."""
    if not (isinstance(call.func, cst.Name) and (helper := facts.functions.get(call.func.value)) is not None):
        return None
    body = helper.body.body if isinstance(helper.body, cst.IndentedBlock) else ()
    returns = [s.body[0].value for s in body if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
               and isinstance(s.body[0], cst.Return) and s.body[0].value is not None]
    return returns[0] if len(body) == 1 and len(returns) == 1 else None


# --- container facts ------------------------------------------------------------------------

def _samples(facts: Facts, call: cst.Call) -> bool:
    """`random.sample(seq, k)`, `random.choices(seq, k=n)`, or the same on a `random.Random`
    instance (`self.rng.sample(seq, k)`): the first argument is the population."""
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return False
    if (facts.qualified_name(call.func) or "") in SAMPLERS:
        return True
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in ("sample", "choices") \
        and len(call.args) >= 2 and facts.qualified_name(call.func) is None


def _record_of(elt: cst.BaseExpression) -> cst.BaseExpression:
    """`buf[i]` for a field of the record, `buf[i][0]` / `buf[i].state`; else `elt` itself."""
    if isinstance(elt, cst.Attribute) and isinstance(elt.value, cst.Subscript):
        return elt.value
    if isinstance(elt, cst.Subscript) and isinstance(elt.value, cst.Subscript) and len(elt.slice) == 1 \
            and isinstance(elt.slice[0].slice, cst.Index) and isinstance(elt.slice[0].slice.value, (cst.Integer, cst.SimpleString)):
        return elt.value
    return elt


def _bound_by(facts: Facts, node: cst.CSTNode) -> list[str]:
    """The names the statement `name = <node>` or `a, b = <node>` binds (none for anything else)."""
    parent = facts.parent(node)
    if not (isinstance(parent, cst.Assign) and parent.value is node):
        return []
    out = []
    for target in parent.targets:
        elements = target.target.elements if isinstance(target.target, (cst.Tuple, cst.List)) else [target.target]
        out.extend(e.value.value if isinstance(e, cst.Element) and isinstance(e.value, cst.Name) else
                   e.value if isinstance(e, cst.Name) else "" for e in elements)
    return [name for name in out if name]


def _scope(facts: Facts, node: cst.CSTNode) -> cst.CSTNode:
    return facts.enclosing_function(node) or facts.module


def _global_value(facts: Facts, name: cst.Name) -> cst.BaseExpression | None:
    """The value of a module-level `name = ...` read inside a function that never binds it."""
    func = facts.enclosing_function(name)
    if func is None or name.value in facts.names_written(func):
        return None
    values = [stmt.body[0].value for stmt in facts.module.body
              if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
              and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)
              and stmt.body[0].targets[0].target.value == name.value]
    return values[0] if len(values) == 1 else None


def _from_earlier_cell(facts: Facts, name: cst.Name) -> bool:
    """A list or deque that an earlier notebook cell created (live, or in the cells' text)."""
    if bound_in_unit(facts, name.value):
        return False
    if name.value in facts.namespace:
        return isinstance(facts.namespace[name.value], (list, deque))
    earlier = earlier_value(facts, name)
    return earlier is not None and _empty_list(earlier[0], earlier[1])


def _container_word(facts: Facts, value: cst.BaseExpression) -> str:
    if isinstance(value, cst.Name):  # an earlier cell's
        return "deque" if isinstance(facts.namespace.get(value.value), deque) else "list"
    return "deque" if isinstance(value, cst.Call) and facts.qualified_name(value.func) == "collections.deque" else "list"


def _literal_key(sub: cst.Subscript) -> str | None:
    if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
        return None
    key = sub.slice[0].slice.value
    return key.evaluated_value if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str) else None


def _empty_list(facts: Facts, value: cst.BaseExpression) -> bool:
    """`[]`, `list()`, `deque()` / `deque(maxlen=n)` / `deque([], maxlen=n)` (the PyTorch DQN
    tutorial's spelling): a container that starts empty."""
    if isinstance(value, cst.List):
        return not value.elements
    if isinstance(value, cst.Call):
        qualified = facts.qualified_name(value.func) or ""
        positional = [a for a in value.args if a.keyword is None]
        return qualified in EMPTY_LISTS and (not positional or len(positional) == 1 and not positional[0].star
                                             and isinstance(positional[0].value, (cst.List, cst.Tuple))
                                             and not positional[0].value.elements)
    return False


def _same_container(facts: Facts, expr: cst.CSTNode, column: Column) -> bool:
    if column.key is not None:
        return isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and expr.value.value == column.owner \
            and _literal_key(expr) == column.key
    if column.owner == "self":
        return isinstance(expr, cst.Attribute) and is_self_attr(expr, column.code.split(".", 1)[1])
    return isinstance(expr, cst.Name) and expr.value == column.owner


def _appends(facts: Facts, column: Column) -> list[cst.Call]:
    """Every `<column>.append(...)` in its scope."""
    return [node for node in facts.walk(column.scope)
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "append"
            and len(node.args) == 1 and _same_container(facts, node.func.value, column)]


def _uses(facts: Facts, column: Column) -> tuple[list[cst.Call], list[tuple[cst.ListComp, cst.Call]]] | str:
    """The column's appends and per-batch reads, when those (and `len()`) are all its uses;
    else the use that stops the rewrite."""
    appends: list[cst.Call] = []
    reads: list[tuple[cst.ListComp, cst.Call]] = []
    binding_seen = False
    for name in reads_of(facts, column.owner, column.scope):
        if _scope(facts, name) is not column.scope:
            return _other_use(facts, name, "a nested function or class reads it")
        stmt = _binding(facts, name)
        if stmt is not None:
            if binding_seen or not _creates(stmt.value, column):
                return _other_use(facts, name, "it is bound more than once")
            binding_seen = True
            continue
        parent = facts.parent(name)
        if column.key is not None:
            if not (isinstance(parent, cst.Subscript) and parent.value is name and _literal_key(parent) is not None):
                return _other_use(facts, name, "the dict itself is used (or indexed by a computed key)")
            if _literal_key(parent) != column.key:
                continue  # another column: what happens to it does not touch this one
            use: cst.CSTNode = parent
        else:
            use = name
        outer = facts.parent(use)
        if isinstance(outer, cst.Attribute) and outer.value is use and outer.attr.value in ("append", "pop", "popleft"):
            call = facts.parent(outer)
            if not (isinstance(call, cst.Call) and call.func is outer and isinstance(facts.parent(call), cst.Expr)):
                return _other_use(facts, name, "a record is taken out and used")
            if outer.attr.value == "append" and len(call.args) == 1 and call.args[0].keyword is None:
                appends.append(call)
                continue
            if outer.attr.value != "append" and all(isinstance(a.value, cst.Integer) for a in call.args):
                continue  # eviction of the oldest (or newest) record, its value dropped
            return _other_use(facts, name, "it is changed other than by appending")
        if isinstance(outer, cst.Attribute) and outer.value is use:
            return _other_use(facts, name, f"`.{outer.attr.value}` reads or changes it")
        if isinstance(outer, cst.Arg):
            call = facts.parent(outer)
            if isinstance(call, cst.Call) and facts.qualified_name(call.func) == "builtins.len" and len(call.args) == 1:
                continue
            return _other_use(facts, name, "it is passed to a function")
        if isinstance(outer, cst.Subscript) and outer.value is use:
            comp = facts.parent(outer)
            arg = facts.parent(comp) if isinstance(comp, cst.ListComp) and comp.elt is outer else None
            ctor = facts.parent(arg) if isinstance(arg, cst.Arg) and arg.keyword is None else None
            if isinstance(ctor, cst.Call) and (facts.qualified_name(ctor.func) or "") in TENSOR_CONSTRUCTORS \
                    and [a for a in ctor.args if a.keyword is None] == [arg] and not arg.star \
                    and all(a.keyword is not None and a.keyword.value in ("device", "dtype") for a in ctor.args if a is not arg) \
                    and _row_comprehension(comp):
                reads.append((comp, ctor))
                continue
            if isinstance(facts.parent(outer), (cst.AssignTarget, cst.AugAssign, cst.Del)):
                return _other_use(facts, name, "a record is replaced or deleted by index")
            return _other_use(facts, name, "it is read other than by `torch.tensor([col[i] for i in rows])` "
                                           "(with at most `device=`/`dtype=`)")
        return _other_use(facts, name, "it is used other than by appends, `len()` and per-batch reads")
    if not binding_seen:
        return "it is not created as an empty list in this scope"
    return appends, reads


def _later_reader(facts: Facts, column: Column) -> str:
    """A later notebook cell reads the top-level column (or its dict): it runs on the records this
    cell leaves, which the rewrite turns from Python lists into tensors (red team 31a: the next
    cell's `json.dumps(obs_log[-3:])` failed). '' when none does."""
    if column.scope is not facts.module:
        return ""
    for later in facts.later:
        for name in later.uses(column.owner):
            line = later.position(name).start.line
            code = later.code(later.statement_of(name)).strip().splitlines()[0]
            return f"a later cell reads it (line {line} of that cell: `{code}`), where its records would be tensors"
    return ""


def _other_use(facts: Facts, node: cst.CSTNode, why: str) -> str:
    line = facts.position(node).start.line
    code = facts.code(facts.statement_of(node)).strip().splitlines()[0]
    return f"{why} (line {line}: `{code}`)"





def _binding(facts: Facts, name: cst.Name) -> cst.Assign | cst.AnnAssign | None:
    """The statement `name = value` / `name: T = value` when `name` is its whole target."""
    parent = facts.parent(name)
    if isinstance(parent, cst.AssignTarget):
        stmt = facts.parent(parent)
        return stmt if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 else None
    return parent if isinstance(parent, cst.AnnAssign) and parent.target is name and parent.value is not None else None


def _creates(value: cst.BaseExpression | None, column: Column) -> bool:
    """The binding statement's value is the column's `[]` (or the dict literal holding it)."""
    if value is column.binding:
        return True
    return column.key is not None and isinstance(value, cst.Dict) and \
        any(isinstance(el, cst.DictElement) and el.value is column.binding for el in value.elements)


def _row_comprehension(comp: cst.ListComp) -> bool:
    """`[col[i] for i in rows]`: one record per index, nothing else."""
    target, elt = comp.for_in.target, comp.elt
    return comp.for_in.inner_for_in is None and not comp.for_in.ifs and isinstance(target, cst.Name) \
        and isinstance(elt, cst.Subscript) and len(elt.slice) == 1 and isinstance(elt.slice[0].slice, cst.Index) \
        and isinstance(elt.slice[0].slice.value, cst.Name) and elt.slice[0].slice.value.value == target.value


def _dtype_family(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """`dtype_of`, plus two steps it does not take: through a local helper whose body is one
    `return`, and through `torch.cat`/`torch.stack` of a literal list (any floating part
    makes the result floating)."""
    known = family(dtype_of(facts, expr))
    if known is not None or depth > 4:
        return known
    if isinstance(expr, cst.Subscript):
        return _dtype_family(facts, expr.value, depth + 1)
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr)
        return _dtype_family(facts, value, depth + 1) if value is not None else None
    if not isinstance(expr, cst.Call):
        return None
    qualified = facts.qualified_name(expr.func) or ""
    if qualified in ("torch.cat", "torch.stack", "torch.concat") and expr.args and isinstance(expr.args[0].value, (cst.List, cst.Tuple)):
        parts = [_dtype_family(facts, el.value, depth + 1) for el in expr.args[0].value.elements]
        return FLOAT if FLOAT in parts else (parts[0] if parts and len(set(parts)) == 1 else None)
    returned = _helper_return(facts, expr)
    return _dtype_family(facts, returned, depth + 1) if returned is not None else None

