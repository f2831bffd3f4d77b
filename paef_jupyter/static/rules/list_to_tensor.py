"""`vals.append(x.item())` ... `torch.tensor(vals)`: a tensor assembled element by element."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ...fix.edits import replace
from ...model import Fix, Severity
from ..device_use import is_device_move, may_span_devices, may_use_device, on_host, spells_cpu, uses_device
from ..facts import Facts, param_names
from ..names import positional_params
from ..returned_columns import ReturnedColumns, namedtuple_fields, returned_columns, stored_field_values
from ..types import Kind
from ._importers import project_default_setter
from ._tensor_facts import (
    BOOL,
    CONVERT_METHOD,
    FLOAT,
    INT,
    PYTHON_SCALAR_DTYPE,
    default_device_set,
    default_dtype_changed,
    default_dtype_changed_later,
    dtype_of,
    family,
    invariant,
    is_binding,
    is_scalar,
    keyword,
    module_alias,
    over_tensor_elements,
    rarely_runs,
    reads_of,
    surely_runs,
    within,
)
from .base import Rule, RuleContext

TORCH_CONSTRUCTORS = {"tensor": None, "as_tensor": None, "Tensor": "float", "FloatTensor": "float",
                      "LongTensor": "long", "DoubleTensor": "double"}
NUMPY_CONSTRUCTORS = frozenset({"array", "asarray"})
_SCALAR_CASTS = frozenset({"float", "int", "bool"})
_CAST_FAMILY = {"float": FLOAT, "int": INT, "bool": BOOL}


@dataclass(frozen=True)
class Append:
    call: cst.Call  # `vals.append(...)`
    value: cst.BaseExpression  # what is appended
    tensor: cst.BaseExpression | None  # the tensor behind it (`x` of `x.item()`), if any
    via_item: bool  # appended as a Python scalar (`.item()`, `float(x)`)
    cast: str | None = None  # the scalar family a `float()`/`int()`/`bool()` cast forces


class ListToTensor(Rule):
    id = "list-to-tensor"
    title = "Tensor built from a Python list filled in a loop"
    severity = Severity.MEDIUM
    explanation = (
        "Each `.item()` (or `float(t)`) copies one value to the host and, on a GPU, waits for the "
        "device to finish; the list then holds Python objects that `torch.tensor` reads back one "
        "by one into a new host tensor. Keeping the values as tensors and joining them with "
        "`torch.stack` (or computing them with one vectorised op) avoids the per-element copies, "
        "syncs and Python overhead."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._through: dict[int, ReturnedColumns] = {}  # id(records) -> the callee that transposed them

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.facts.qualified_name(node.func) or ""
        head, _, name = qualified.rpartition(".")
        if head not in ("torch", "numpy"):
            return
        if qualified in ("torch.cat", "torch.stack") and node.args and node.args[0].keyword is None \
                and isinstance(node.args[0].value, cst.ListComp):
            self._device_rows(node, node.args[0].value, name)
            self._joined_elements(node, node.args[0].value, name)
            return
        if qualified in ("torch.cat", "torch.stack") and len(node.args) == 1 and isinstance(node.args[0].value, cst.Name):
            before = len(self.findings)
            if name == "stack":
                self._from_stacked_elements(node, node.args[0].value)
            if len(self.findings) == before:
                self._from_joined_appends(node, node.args[0].value, name)
            return
        if (head == "torch" and name not in TORCH_CONSTRUCTORS) or (head == "numpy" and name not in NUMPY_CONSTRUCTORS):
            return
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) != 1:
            return
        arg = positional[0].value
        records = self._transposed_records(arg)
        if records is not None:
            self._from_records(node, arg, records, head, name)
        elif isinstance(arg, cst.Name):
            made = self.facts.value_of(arg)
            if isinstance(made, cst.ListComp) and head == "torch" \
                    and self.facts.enclosing_function(made) is self.facts.enclosing_function(node):
                self._from_comprehension(node, made, name, via=arg.value)  # `vals = [...]; torch.tensor(vals)`
            else:
                self._from_filled_list(node, arg, head, name)
        elif isinstance(arg, cst.ListComp) and head == "torch":
            self._from_comprehension(node, arg, name)
        elif isinstance(arg, cst.List) and len(arg.elements) == 1 and isinstance(arg.elements[0].value, cst.ListComp) \
                and head == "torch":  # `torch.LongTensor([[top[i][0] for i in range(b)]])`: one row
            self._from_comprehension(node, arg.elements[0].value, name)

    def _device_rows(self, node: cst.Call, comp: cst.ListComp, name: str) -> None:
        """`torch.cat([torch.tensor(s, device=device).unsqueeze(0) for s in next_states])` run per
        iteration (a DQN's replay batch): one small host->device copy per element, then a join on
        the device. A hint: stacking the host rows first (`np.stack`) and copying once gives the
        same values; the rows' types (arrays of one shape?) are not proved, so no rewrite."""
        if comp.for_in.inner_for_in is not None:
            return
        made = _strip_shape_calls(comp.elt)
        if not isinstance(made, cst.Call) or not uses_device(self.facts) or self.facts.iteration_loop(node) is None:
            return
        built = made
        moved = False
        if isinstance(made.func, cst.Attribute) and made.func.attr.value in ("to", "cuda") and is_device_move(self.facts, made):
            built, moved = _strip_shape_calls(made.func.value), True
        if not isinstance(built, cst.Call) or (self.facts.qualified_name(built.func) or "") not in ("torch.tensor", "torch.as_tensor"):
            return
        target = keyword(built, "device")
        if not moved and (target is None or spells_cpu(target) or self._cpu_name(target)):
            return
        data = [a.value for a in built.args if a.keyword is None and not a.star]
        variables = {n.value for n in self.facts.walk(comp.for_in.target) if isinstance(n, cst.Name)}
        if len(data) != 1 or not isinstance(data[0], cst.Name) or data[0].value not in variables \
                or self.facts.kind(data[0]) is Kind.TENSOR or self._tensor_elements(comp.for_in.iter):
            return
        self.report(
            node,
            f"`torch.{name}` joins tensors each copied to the device on its own (`{self.facts.code(built.func)}(..., "
            f"device=...)` per element of `{self.facts.code(comp.for_in.iter)}`), on every iteration: one small "
            "host->device copy per element where one copy of the stacked rows would do",
            fix=Fix(description="stack the rows on the host first (`np.stack`, or `torch.tensor` of the list) and copy "
                    "the result to the device once", safe=False),
        )

    def _from_joined_appends(self, node: cst.Call, vals: cst.Name, name: str) -> None:
        """`for lp, r in zip(saved_log_probs, returns): policy_loss.append(-lp * r)` then
        `torch.cat(policy_loss)` (pytorch/examples' REINFORCE, `returns` a tensor): the loop form of
        `_joined_elements`, every append of the list such a product of the loop's elements."""
        scope: cst.CSTNode = self.facts.enclosing_function(node) or self.facts.module
        appends, _ = self._uses(vals.value, scope, node)
        if not appends or self.facts.iteration_loop(node) is None:
            return
        for a in appends:
            loops = self.facts.enclosing_loops(a.call)
            loop = loops[0].node if loops else None
            if not isinstance(loop, cst.For) or not over_tensor_elements(self.facts, loop) \
                    or self.facts.statement_of(a.call) not in _block_body(loop):
                return
            variables = {n.value for n in self.facts.walk(loop.target) if isinstance(n, cst.Name)}
            if not _arithmetic_of(a.value, variables) or len(variables & self.facts.names_read(a.value)) < 2:
                return
        first = appends[0]
        loop = self.facts.enclosing_loops(first.call)[0].node
        self._report_joined(node, name, first.value, loop.iter)  # type: ignore[attr-defined]

    def _report_joined(self, node: cst.Call, name: str, elt: cst.BaseExpression, it: cst.BaseExpression) -> None:
        self.report(
            node,
            f"`torch.{name}` joins `{self.facts.code(elt)}`, computed once per element of `{self.facts.code(it)}`, "
            "which walks a tensor's elements: one op (a kernel launch on a GPU) per element and operator, and a "
            "tensor per element, where the same arithmetic on the joined inputs computes every element at once",
            fix=Fix(description="join the inputs once (`torch.cat` of the list, the tensor as it is) and apply the "
                    "arithmetic to the whole tensors, e.g. `(-torch.cat(log_probs) * returns)` for `-lp * r`", safe=False),
        )

    def _joined_elements(self, node: cst.Call, comp: cst.ListComp, name: str) -> None:
        """`torch.cat([-lp * r for lp, r in zip(log_probs, returns)])` run per iteration (REINFORCE's
        policy loss, `returns` a tensor): the same arithmetic once per element of a tensor, each result
        a tensor of its own, then joined, where the arithmetic on the joined inputs does every element
        in one op (`-torch.cat(log_probs) * returns`). A hint: the joined inputs' shapes are the user's."""
        loop = comp.for_in
        if loop.inner_for_in is not None or loop.ifs or self.facts.iteration_loop(node) is None:
            return
        it = loop.iter
        if not (isinstance(it, cst.Call) and self.facts.qualified_name(it.func) == "builtins.zip"
                and any(a.keyword is None and not a.star and self.facts.kind(a.value) is Kind.TENSOR for a in it.args)
                or self.facts.kind(it) is Kind.TENSOR):
            return
        variables = {n.value for n in self.facts.walk(loop.target) if isinstance(n, cst.Name)}
        if not _arithmetic_of(comp.elt, variables) or len(variables & self.facts.names_read(comp.elt)) < 2:
            return
        self._report_joined(node, name, comp.elt, it)

    def _tensor_elements(self, iterable: cst.BaseExpression) -> bool:
        """The comprehension runs over a tensor's rows, or a list (comprehension) of tensors: the
        elements may be on the device already (a copy between devices, not from the host)."""
        if self.facts.kind(iterable) is Kind.TENSOR:
            return True
        made = self.facts.value_of(iterable) if isinstance(iterable, cst.Name) else iterable
        if isinstance(made, (cst.ListComp, cst.GeneratorExp)):
            return self.facts.kind(made.elt) is Kind.TENSOR
        if isinstance(made, cst.List):
            return any(self.facts.kind(e.value) is Kind.TENSOR for e in made.elements if isinstance(e, cst.Element))
        return False

    def _cpu_name(self, target: cst.BaseExpression) -> bool:
        """`device=cpu` where `cpu = torch.device("cpu")` / `"cpu"`."""
        if not isinstance(target, cst.Name):
            return False
        value = self.facts.value_of(target)
        if isinstance(value, cst.Call) and (self.facts.qualified_name(value.func) or "") == "torch.device" and value.args:
            value = value.args[0].value
        return value is not None and spells_cpu(value)

    # --- list appended in a loop ---------------------------------------------------------

    def _from_filled_list(self, node: cst.Call, vals: cst.Name, head: str, name: str) -> None:
        if _only_when_empty(self.facts, node, vals.value):
            return  # `torch.stack(v) if v else torch.tensor(v)`: the empty case has nothing to join
        scope: cst.CSTNode = self.facts.enclosing_function(node) or self.facts.module
        appends, other_uses = self._uses(vals.value, scope, node)
        hot = [a for a in appends if (loop := self.facts.iteration_loop(a.call)) is not None
               and not rarely_runs(self.facts, a.call, loop)]
        if not hot or not all(a.tensor is not None for a in appends):
            return
        if other_uses and all(a.via_item for a in appends):
            return  # a history of Python numbers (logging): host-sync reports its per-step sync
        outside = self._reached_outside(vals.value, scope, node, appends)
        if outside and all(a.via_item for a in appends):
            return  # a list of Python numbers others may hold: host-sync reports its per-step sync
        other_uses = other_uses or bool(outside)
        constructor = f"{'torch' if head == 'torch' else 'np'}.{name}"
        item = hot[0].via_item
        shown = self.facts.code(hot[0].value)
        fix = self._fix(node, vals, head, name, appends, other_uses)
        self.report(
            hot[0].call,
            f"`{vals.value}` collects `{shown}` on every iteration and `{constructor}({vals.value})` "
            + ("converts the Python scalars back: each conversion to a Python scalar is, on a GPU, a "
               "device->host copy and a sync, and the list is read element by element" if item else
               "reads every tensor back element by element through Python"),
            fix=fix,
        )

    def _from_stacked_elements(self, node: cst.Call, vals: cst.Name) -> None:
        """`scores.append((u * items(c)).sum())` for each element `c` of a tensor, then
        `torch.stack(scores)`: a tensor assembled one 0-d result at a time. Stacking per-batch
        results (losses of a `range`/DataLoader loop) is the remedy, not the defect: only loops
        over a tensor's own elements count."""
        scope: cst.CSTNode = self.facts.enclosing_function(node) or self.facts.module
        appends, _ = self._uses(vals.value, scope, node)
        per_element = [a for a in appends if a.tensor is not None and not a.via_item and is_scalar(self.facts, a.tensor)
                       and (loops := self.facts.enclosing_loops(a.call)) and over_tensor_elements(self.facts, loops[0].node)]
        if not per_element or len(per_element) != len(appends):
            return
        first = per_element[0]
        loop = self.facts.enclosing_loops(first.call)[0].node
        assert isinstance(loop, cst.For)
        self.report(
            first.call,
            f"`{vals.value}` collects one 0-d tensor `{self.facts.code(first.value)}` per element of "
            f"`{self.facts.code(loop.iter)}` and `torch.stack({vals.value})` joins them: one op (and a kernel "
            "launch) per element, where one op over the whole tensor computes them all",
            fix=Fix(description=f"compute `{vals.value}` for every element of `{self.facts.code(loop.iter)}` at once "
                    "(index with the whole tensor and reduce along a dimension, e.g. `.sum(-1)`), if the expression "
                    "is the same for each element", safe=False),
        )

    # --- a column of Python records: `Transition(*zip(*memory.sample(n)))` -----------------------

    def _transposed_records(self, arg: cst.BaseExpression) -> cst.BaseExpression | None:
        """The records `x` when `arg` is one column of `zip(*x)`: `batch.state` of
        `batch = Transition(*zip(*x))`, or `states` of `states, actions = zip(*x)`."""
        if isinstance(arg, cst.Attribute) and isinstance(arg.value, cst.Name):
            value = self.facts.value_of(arg.value)
            if isinstance(value, cst.Call) and len(value.args) == 1 and value.args[0].star == "*":
                zipped = _zip_star(self.facts, value.args[0].value)
                if zipped is not None:
                    return zipped
                # `batch = Transition(*self.memory.sample())`: the field's column of what the method returns
                fields = namedtuple_fields(self.facts, value.func)
                if fields is not None and fields.count(arg.attr.value) == 1:
                    return self._returned(value.args[0].value, fields.index(arg.attr.value), len(fields))
            return None
        if not isinstance(arg, cst.Name) or self.facts.value_of(arg) is not None:
            return None
        scope = self.facts.enclosing_function(arg) or self.facts.module
        for n in self.facts.walk(scope):
            if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, (cst.Tuple, cst.List)) \
                    and any(isinstance(el.value, cst.Name) and el.value.value == arg.value for el in n.targets[0].target.elements) \
                    and self.facts.order(n) < self.facts.order(arg):
                elements = n.targets[0].target.elements
                index = next(i for i, el in enumerate(elements) if isinstance(el.value, cst.Name) and el.value.value == arg.value)
                starred = any(isinstance(el, cst.StarredElement) for el in elements)
                return _zip_star(self.facts, n.value) or (None if starred else self._returned(n.value, index, len(elements)))
        return None

    def _returned(self, value: cst.BaseExpression, index: int, width: int) -> cst.BaseExpression | None:
        """The records behind column `index` of those a method of the program returns
        (`self.memory.sample()` returning `zip(*list(self.buffer))`), when every value its
        class stores in that field is a tensor (`agent.memory.push((state, action, log_prob))`
        with `log_prob` a tensor): a tuple of tensors, which `torch.tensor` reads back one
        element at a time. Columns of Python numbers, or of records this unit cannot see
        stored, are left alone (record-buffer owns sampled buffers of Python records)."""
        columns = returned_columns(self.facts, value)
        if columns is None:
            return None
        values = stored_field_values(self.facts, columns, index, width)
        if not values or any(self.facts.kind(v) is not Kind.TENSOR for v in values):
            return None
        self._through[id(columns.records)] = columns
        return columns.records

    def _from_records(self, node: cst.Call, column: cst.BaseExpression, records: cst.BaseExpression,
                      head: str, name: str) -> None:
        """Per batch only: in a loop, or in a method that transposes the object's own stored
        records at each call (a replay buffer's `sample`); a one-time conversion of a data set is fine."""
        per_call = self.facts.enclosing_function(node) is not None and "self" in self.facts.names_read(records)
        if (self.facts.iteration_loop(node) is None and not per_call) or self._loader_batch(records):
            return
        through = self._through.get(id(records))
        if through is not None:
            self._tensor_column(node, column, records, through, head, name)
            return
        constructor = f"{'torch' if head == 'torch' else 'np'}.{name}"
        # a program that uses no accelerator copies nothing: the walk through Python is the cost there
        on_device = uses_device(self.facts)
        self.report(
            node,
            f"`{constructor}({self.facts.code(column)})` rebuilds a tensor from one field of each Python record in "
            f"`{self.facts.code(records)}` (`zip(*...)` transposes them): every call walks the records and converts "
            "each value through Python" + (", then copies the new host tensor to the device" if on_device else ""),
            fix=Fix(description="store each field in one preallocated tensor (e.g. `states = torch.empty(capacity, "
                    "*shape)`, written at each push) and sample with a tensor of indices: `states[idx]` is one "
                    "gather" + (", on the device" if on_device else ""), safe=False),
        )

    def _tensor_column(self, node: cst.Call, column: cst.BaseExpression, records: cst.BaseExpression,
                       through: ReturnedColumns, head: str, name: str) -> None:
        """A column of tensors returned by a buffer's method: one host read per element."""
        constructor = f"{'torch' if head == 'torch' else 'np'}.{name}"
        col = self.facts.code(column)
        on_device = uses_device(self.facts)
        self.report(
            node,
            f"`{constructor}({col})` rebuilds a tensor from a tuple of tensors: `{self.facts.code(records)}` "
            f"(`{_qualified_def(self.facts, through.callee)}`) returns the stored records transposed by `zip(*...)`, "
            "and every value stored in this field is a tensor; the constructor reads each element back as a Python "
            "number" + (" (on a GPU, a copy and a sync per element) and copies the result to the device again"
                         if on_device else ""),
            fix=Fix(description=f"join the tensors where they are: `torch.stack({col})` (0-d or same-shape elements; "
                    "`.to(dtype)` if the dtype must change), or store the field in a preallocated tensor", safe=False),
        )

    def _loader_batch(self, records: cst.BaseExpression) -> bool:
        """`zip(*batch)` where `batch` is a parameter of a function no loop calls by name: the
        DataLoader calls it (a `collate_fn`) with a new list of samples each batch. Turning those
        samples into columns is what collating is; there is no stored buffer to keep as columns."""
        func = self.facts.enclosing_function(records)
        if not isinstance(records, cst.Name) or func is None:
            return False
        params = positional_params(func)
        if records.value not in params or sum(is_binding(self.facts, n) for n in reads_of(self.facts, records.value, func.body)):
            return False
        return self.facts.enclosing_loops(records) == [] and not self.facts.per_iteration_call_sites(func)

    def _uses(self, name: str, scope: cst.CSTNode, constructor: cst.Call) -> tuple[list[Append], bool]:
        """The list's appends, and whether it is used any other way than `[]`, append, `len`."""
        appends: list[Append] = []
        other = False
        for node in reads_of(self.facts, name, scope):
            parent = self.facts.parent(node)
            grand = self.facts.parent(parent) if parent is not None else None
            if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "append" \
                    and isinstance(grand, cst.Call) and len(grand.args) == 1:
                appends.append(self._append(grand))
            elif self._emptied(node):
                continue
            elif isinstance(parent, cst.Arg) and (grand is constructor or _is_len(grand)):
                continue
            else:
                other = True
        if scope is self.facts.module and any(name in later.names_read(later.module) for later in self.facts.later):
            other = True  # a later cell of the notebook reads the list: its items are Python numbers there
        return appends, other

    def _reached_outside(self, name: str, scope: cst.CSTNode, constructor: cst.Call, appends: list[Append]) -> str:
        """Why the list may hold or give out elements this scope does not see, or "". The rewrite
        turns every append into a tensor: that is the whole list only when the list is this
        scope's own, started empty before its appends (red team 29a: a module-level list appended
        and converted in a function and dumped to JSON by the script; a caller's list handed in as
        a parameter, resumed from a checkpoint's floats or read by the caller; a notebook list
        started, and appended, in an earlier cell; one a later cell reads)."""
        func = self.facts.enclosing_function(constructor)
        if isinstance(func, cst.FunctionDef):
            if name in param_names(func):
                return f"`{name}` is a parameter: the caller's list (its earlier items, its later readers)"
            if any(isinstance(n, (cst.Global, cst.Nonlocal)) and any(g.name.value == name for g in n.names)
                   for n in self.facts.walk(func)):
                return f"`{name}` is declared global or nonlocal: other code holds the list"
        starts = [n for n in reads_of(self.facts, name, scope) if self._emptied(n) and self.facts.enclosing_function(n) is func]
        first = min([self.facts.order(constructor), *(self.facts.order(a.call) for a in appends)])
        if not any(self.facts.order(n) < first for n in starts):
            return f"`{name}` is not started empty here: it is made (and may be filled or read) elsewhere"
        if func is None and any(name in cell.names_read(cell.module) for cell in self.facts.prior.cells):
            return f"an earlier cell's code reads `{name}`"  # (a function of it may append or read)
        return ""

    def _emptied(self, name: cst.Name) -> bool:
        """`vals = []`, or `preds, targets = [], []`: the name bound to a new empty list."""
        value: cst.CSTNode | None = None
        parent = self.facts.parent(name)
        if isinstance(parent, cst.AssignTarget) and isinstance(assign := self.facts.parent(parent), cst.Assign):
            value = assign.value
        elif isinstance(parent, cst.Element) and isinstance(names := self.facts.parent(parent), (cst.Tuple, cst.List)):
            assign_target = self.facts.parent(names)
            assign = self.facts.parent(assign_target) if assign_target is not None else None
            if isinstance(assign_target, cst.AssignTarget) and isinstance(assign, cst.Assign) \
                    and isinstance(assign.value, (cst.Tuple, cst.List)) \
                    and len(assign.value.elements) == len(names.elements) \
                    and not any(isinstance(el, cst.StarredElement) for el in (*names.elements, *assign.value.elements)):
                value = assign.value.elements[list(names.elements).index(parent)].value
        return isinstance(value, cst.List) and not value.elements

    def _append(self, call: cst.Call) -> Append:
        value = call.args[0].value
        if isinstance(value, cst.Call) and not value.args:
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value == "item" and self.facts.kind(func.value) is Kind.TENSOR:
                return Append(call, value, func.value, True)
        if isinstance(value, cst.Call) and len(value.args) == 1 and isinstance(value.func, cst.Name) \
                and value.func.value in _SCALAR_CASTS and self.facts.kind(value.args[0].value) is Kind.TENSOR:
            return Append(call, value, value.args[0].value, True, _CAST_FAMILY[value.func.value])
        if self.facts.kind(value) is Kind.TENSOR:
            return Append(call, value, value, False)
        return Append(call, value, None, False)

    def _fix(self, node: cst.Call, vals: cst.Name, head: str, name: str, appends: list[Append],
             other_uses: bool) -> Fix:
        torch = module_alias(self.facts, "torch")
        stacked = f"{torch or 'torch'}.stack({vals.value})"
        if head == "numpy":
            return Fix(description="append the tensors (`.detach()`) and join them on the device with "
                       f"`{stacked}`; convert once at the end if NumPy is needed", suggestion=f"{stacked}.cpu().numpy()",
                       safe=False)
        why = ""
        review = ""  # edits offered but not proved: applied only on request
        kinds = {a.via_item for a in appends}
        if other_uses:
            why = f"`{vals.value}` is also used as a list of Python values"
        elif len(kinds) != 1:
            why = "the list mixes Python scalars and tensors"
        elif any(a.keyword is not None and a.keyword.value not in ("dtype", "device") for a in node.args):
            why = "the constructor has options `torch.stack` does not take"
        elif torch is None:
            why = "torch is not imported under a plain name here"
        elif may_use_device(self.facts) and len({on_host(self.facts, a.tensor) for a in appends if a.tensor is not None}) > 1:
            # `vals = []; vals.append(torch.zeros(())); vals.append(loss.detach())`: `torch.tensor`
            # copies each value to the host, `torch.stack` raises on tensors of two devices (red team 36 probe).
            why = ("the list mixes tensors made on the host with tensors that may be on the device: "
                   "`torch.stack` needs them on one device, `torch.tensor` copies each to the host")
        elif may_use_device(self.facts) and may_span_devices(self.facts, [a.tensor for a in appends if a.tensor is not None]):
            # `hist.append(t_loss.item()); hist.append(s_loss.item())` with the teacher kept on the host
            # and the student moved: neither is proved on the host, yet they live on two devices (red team 58).
            why = ("the list collects values from different tensors, which may live on different devices (a model "
                   "kept on the host beside one on the device): `torch.stack` needs them on one device, "
                   "`torch.tensor` copies each to the host")
        elif any(a.via_item and a.tensor is not None and not _binds_method(a.tensor) for a in appends):
            # `float(a - b)` appended: `.detach()` written after the cast's operand binds to `b` alone,
            # so `a - b.detach()` keeps `a`'s graph and the joined tensor requires grad (`.numpy()`
            # raises, print shows `grad_fn`; red team 37).
            why = "a cast's operand is an expression (`float(a - b)`): `.detach()` must take the whole of it"
        scalar = all(is_scalar(self.facts, a.tensor) for a in appends if a.tensor is not None)
        code = stacked if scalar else f"{stacked}.reshape(-1)"
        via_item = appends[0].via_item
        forced = TORCH_CONSTRUCTORS[name]
        dtype = keyword(node, "dtype")
        if dtype is not None:
            code += f".to({self.facts.code(dtype)})"
        elif forced is not None:
            code += f".{forced}()"
        elif via_item and not why:
            # The Python scalars' type decides the dtype: a cast's, else the tensor's family.
            dtypes = {dtype_of(self.facts, a.tensor) for a in appends if a.tensor is not None}
            families = {a.cast or family(dtype_of(self.facts, a.tensor)) for a in appends if a.tensor is not None}
            if len(families) != 1 or None in families:
                why = "the dtype of the appended tensors is unknown (Python scalars become float32/int64)"
            else:
                fam = families.pop()
                if fam == FLOAT and default_dtype_changed(self.facts):
                    code += f".to({torch}.get_default_dtype())"  # Python floats become the default dtype then
                elif fam == FLOAT and default_dtype_changed_later(self.facts):
                    review = ("a later cell changes torch's default dtype: called after it, `torch.tensor` makes "
                              "these Python floats that dtype, which the joined tensor does not follow")
                elif fam == FLOAT and (setter := project_default_setter(self.ctx.ref.path)):
                    review = (f"another file of this project changes torch's default dtype ({setter}): this module "
                              "is fixed on its own, and called from there `torch.tensor` makes these Python floats "
                              "that dtype, which the joined tensor does not follow")
                elif dtypes != {PYTHON_SCALAR_DTYPE[fam]}:  # type: ignore[index]
                    code += f".{CONVERT_METHOD[fam]}()"  # type: ignore[index]
        if not via_item and not all(_detached(a.value) for a in appends):
            code = code.replace(stacked, f"{stacked}.detach()", 1)
        device = keyword(node, "device")
        if device is None and (setter := default_device_set(self.facts) or project_default_setter(self.ctx.ref.path, device=True)):
            review = (f"the program sets torch's default device (`{setter}`): `torch.tensor` of Python numbers is "
                      "made there, while the joined tensor stays where the values are (or is copied to the host)")
        if device is not None:
            code += f".to({self.facts.code(device)})"
        elif may_use_device(self.facts) and not all(a.tensor is not None and on_host(self.facts, a.tensor) for a in appends):
            code += ".cpu()"  # `torch.tensor(values)` is made on the host wherever the values came from
        if not any(surely_runs(self.facts, a.call, node) for a in appends):
            # `torch.stack([])` raises: an empty list keeps the original constructor
            code = f"({code} if {vals.value} else {self.facts.code(node)})"
        edits = ()
        if not why:
            edits = (replace(self.facts, node, code),)
            if via_item:
                # `.item()` copied the value when appended; a view (`h[0]`) kept until the join
                # would see later in-place changes (`h.mul_(...)`, `opt.step()`): copy it then too.
                edits += tuple(replace(self.facts, a.value, f"{self.facts.code(a.tensor)}.detach()"  # type: ignore[arg-type]
                                       + ("" if self.facts.allocates(a.tensor) else ".clone()"))  # type: ignore[arg-type]
                               for a in appends)
        first = appends[0].tensor
        appended = f"`{_operand(self.facts, first)}.detach()`" if via_item and first is not None else "the tensors"
        return Fix(
            description=f"append {appended} and join them with `{code}`" + (f" ({why})" if why else ""),
            edits=edits,
            suggestion=code,
            safe=not why,
            review=review if edits else "",
        )

    # --- list comprehension over a tensor ---------------------------------------------------

    def _from_comprehension(self, node: cst.Call, comp: cst.ListComp, name: str, via: str | None = None) -> None:
        """`torch.tensor([f(x) for x in t])`, or through a name bound to the comprehension (`via`)."""
        for_in = comp.for_in
        if for_in.inner_for_in is not None or for_in.ifs:
            return
        if self._gathers_fixed_list(node, comp) or self._reads_tensor_rows(node, comp, name):
            return
        over_tensor = self.facts.kind(for_in.iter) is Kind.TENSOR
        per_item = any(
            isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "item"
            for n in self.facts.walk(comp.elt)
        )
        if not (over_tensor or per_item):
            return
        if self.facts.iteration_loop(node) is None and not over_tensor:
            return
        source = self.facts.code(for_in.iter)
        suggestion = f"torch.stack([{self.facts.code(comp.elt)} for {self.facts.code(for_in.target)} in {source}])"
        if over_tensor and isinstance(for_in.target, cst.Name):
            suggestion = _vectorised(comp.elt, for_in.target.value, source)
        built = f"`{via}` (`[... for {self.facts.code(for_in.target)} in {source}]`) turned into a tensor by " \
            f"`torch.{name}({via})`" if via else f"`torch.{name}([... for {self.facts.code(for_in.target)} in {source}])`"
        self.report(
            node,
            f"{built} computes one element at a time in Python" + (" and copies each to the host with `.item()`" if per_item else "")
            + ": one op (or one sync) per element instead of one for the whole tensor",
            fix=Fix(description="compute it on the whole tensor at once (if the expression is element-wise)",
                    suggestion=suggestion, safe=False),
        )


    def _reads_tensor_rows(self, node: cst.Call, comp: cst.ListComp, name: str) -> bool:
        """`torch.LongTensor([[topi[i][0] for i in range(b)]])` in a loop: one element read from each
        row of a tensor (a device->host copy, and a sync, per element on a GPU), then a new host
        tensor built from them (and often moved back): `topi[:b, 0]` is the same values, on the
        tensor's device, in one op. True when reported (a hint: dtype and shape are the user's)."""
        elt, target = comp.elt, comp.for_in.target
        it = comp.for_in.iter
        if not (isinstance(target, cst.Name) and isinstance(it, cst.Call) and len(it.args) == 1
                and (self.facts.qualified_name(it.func) or "") == "builtins.range"):
            return False
        parts: list[cst.BaseExpression] = []
        base: cst.BaseExpression = elt
        while isinstance(base, cst.Subscript) and all(isinstance(el.slice, cst.Index) for el in base.slice):
            parts = [el.slice.value for el in base.slice] + parts  # type: ignore[union-attr]
            base = base.value
        if not (isinstance(base, cst.Name) and len(parts) >= 2 and isinstance(parts[0], cst.Name)
                and parts[0].value == target.value and all(isinstance(p, cst.Integer) for p in parts[1:])):
            return False
        loop = self.facts.iteration_loop(node)
        if loop is None or rarely_runs(self.facts, node, loop) or not self._row_source(base):
            return False
        rows = self.facts.code(it.args[0].value)
        picked = f"{base.value}[:{rows}, {', '.join(self.facts.code(p) for p in parts[1:])}]"
        self.report(
            node,
            f"`{self.facts.code(node)}` reads one element of each row of the tensor `{base.value}` into a Python "
            f"list and builds a new tensor from them: a device->host copy (a sync on a GPU) per element, on "
            "every iteration",
            fix=Fix(description=f"slice the tensor instead: `{picked}` holds the same values on `{base.value}`'s device "
                    f"(add `.unsqueeze(0)` for the extra list level, `.long()` for `torch.{name}`'s dtype)",
                    suggestion=picked, safe=False),
        )
        return True

    def _row_source(self, base: cst.Name) -> bool:
        """`base` is a tensor: inferred so, or the values or indices of a tensor reduction
        (`_, topi = out.topk(1)`: no Python or NumPy type returns such a pair from `topk`)."""
        if self.facts.kind(base) is Kind.TENSOR:
            return True
        made = self.facts.element_of(base)
        return isinstance(made, cst.Call) and isinstance(made.func, cst.Attribute) \
            and made.func.attr.value in ("topk", "sort", "kthvalue") and bool(made.args)

    def _gathers_fixed_list(self, node: cst.Call, comp: cst.ListComp) -> bool:
        """`torch.tensor([centers[i] for i in idx])` per batch, on every pass over the data (an
        epoch loop around it), where `centers` is a Python list no pass changes: every epoch walks
        the same Python objects one by one to gather what one indexing op on a tensor converted
        once would. True when reported (a hint: converting the whole list once may not suit every
        list, e.g. one whose rows differ in length)."""
        elt, target = comp.elt, comp.for_in.target
        if not (isinstance(elt, cst.Subscript) and isinstance(elt.value, cst.Name) and len(elt.slice) == 1
                and isinstance(elt.slice[0].slice, cst.Index) and isinstance(target, cst.Name)
                and isinstance(elt.slice[0].slice.value, cst.Name) and elt.slice[0].slice.value.value == target.value):
            return False
        source = elt.value
        loop = self.facts.iteration_loop(node)
        loops = self.facts.enclosing_loops(node)
        func = self.facts.enclosing_function(node)
        passes = len(loops) >= 2 or bool(loops) and func is not None and bool(self.facts.per_iteration_call_sites(func)) \
            and source.value not in self.facts.names_written(func)
        if loop is None or not passes or self.facts.kind(source) is not Kind.LIST or rarely_runs(self.facts, node, loop) \
                or not all(invariant(self.facts, source, outer) for outer in loops) \
                or source.value in self.facts.names_read(comp.for_in.iter):
            return False  # walked once per pass over a list that is the same on every pass, or not reported
        column, rows = source.value, self.facts.code(comp.for_in.iter)
        self.report(
            node,
            f"`{self.facts.code(node)}` gathers one element of the Python list `{column}` at a time on every "
            f"iteration: `{column}` does not change in the loop, so every batch walks Python objects that one "
            "indexing op on a tensor would gather",
            fix=Fix(description=f"convert `{column}` to a tensor once before the loop and index it with the batch's "
                    f"indices: `{column}_t[torch.as_tensor({rows})]`",
                    suggestion=f"{column}_t = torch.tensor({column})  # once, before the loop", safe=False),
        )
        return True


def _block_body(loop: cst.For) -> list[cst.BaseStatement]:
    """The statements directly in the loop's body (not nested in an `if` or another loop)."""
    return list(loop.body.body) if isinstance(loop.body, cst.IndentedBlock) else []


def _arithmetic_of(expr: cst.BaseExpression, variables: set[str]) -> bool:
    """Arithmetic (`+ - * /`, unary minus) of the names in `variables` and numbers, with at least one operator."""
    def leaves(e: cst.BaseExpression) -> bool:
        if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)):
            return leaves(e.left) and leaves(e.right)
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
            return leaves(e.expression)
        return isinstance(e, (cst.Integer, cst.Float)) or isinstance(e, cst.Name) and e.value in variables

    return isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation)) and leaves(expr)


def _only_when_empty(facts: Facts, node: cst.Call, name: str) -> bool:
    """`node` runs only while the list `name` is empty: it sits in the branch of an `if`
    (statement or expression) whose test says so, and that branch touches `name` nowhere else.
    Such a constructor is the guard of a join (`torch.stack` raises on an empty list), not a
    tensor assembled element by element."""
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(anc, (cst.If, cst.IfExp)) and child is not anc.test:
            non_empty = _tests_non_empty(anc.test, name)
            in_else = child is anc.orelse
            if non_empty is not None and non_empty is in_else \
                    and all(within(facts, n, node) for n in reads_of(facts, name, child)):
                return True
        child = anc
    return False


def _tests_non_empty(test: cst.BaseExpression, name: str) -> bool | None:
    """True when `test` holds exactly when the list `name` is non-empty (`v`, `len(v)`,
    `len(v) > 0`), False when exactly when it is empty (`not v`, `len(v) == 0`), else None."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _tests_non_empty(test.expression, name)
        return None if inner is None else not inner
    if (isinstance(test, cst.Name) and test.value == name) or _is_len_of(test, name):
        return True
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and _is_len_of(test.left, name):
        target = test.comparisons[0]
        bound = target.comparator.value if isinstance(target.comparator, cst.Integer) else None
        op = type(target.operator)
        if (op, bound) in ((cst.GreaterThan, "0"), (cst.NotEqual, "0"), (cst.GreaterThanEqual, "1")):
            return True
        if (op, bound) in ((cst.Equal, "0"), (cst.LessThan, "1"), (cst.LessThanEqual, "0")):
            return False
    return None


def _is_len_of(expr: cst.BaseExpression, name: str) -> bool:
    return _is_len(expr) and len(expr.args) == 1 and isinstance(arg := expr.args[0].value, cst.Name) \
        and arg.value == name  # type: ignore[union-attr]


def _is_len(call: cst.CSTNode | None) -> bool:
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "len"


def _detached(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "detach"


def _vectorised(elt: cst.BaseExpression, var: str, source: str) -> str:
    """`[v * 2 + 1 for v in t]` -> `(t) * 2 + 1`: the element expression applied to the tensor."""

    replacement = cst.parse_expression(source if source.isidentifier() else f"({source})")

    class Substitute(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            return replacement if original.value == var else updated

        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            func = updated.func
            if isinstance(func, cst.Attribute) and func.attr.value == "item" and not updated.args:
                return func.value
            return updated

    return cst.Module([]).code_for_node(elt.visit(Substitute()))


def _qualified_def(facts: Facts, func: cst.FunctionDef) -> str:
    cls = next((a for a in facts.ancestors(func) if isinstance(a, cst.ClassDef)), None)
    return f"{cls.name.value}.{func.name.value}" if cls is not None else func.name.value


def _zip_star(facts: Facts, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` of `zip(*x)`."""
    if isinstance(expr, cst.Call) and facts.qualified_name(expr.func) == "builtins.zip" and len(expr.args) == 1 \
            and expr.args[0].star == "*":
        return expr.args[0].value
    return None


def _strip_shape_calls(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`t.unsqueeze(0).float()` -> `t`: calls that only reshape or cast the element."""
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) \
            and expr.func.attr.value in ("unsqueeze", "view", "reshape", "float", "long", "double", "int", "flatten"):
        expr = expr.func.value
    return expr


def _binds_method(node: cst.BaseExpression) -> bool:
    """Whether `.detach()` written after `node`'s code applies to all of it: a name, attribute,
    subscript or call, or anything the source already parenthesises."""
    return isinstance(node, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) or bool(getattr(node, "lpar", ()))


def _operand(facts: Facts, node: cst.BaseExpression) -> str:
    """`node`'s code, parenthesised where a method written after it would bind to its last operand
    (what the suggestion shows: `(a - b).detach()`)."""
    code = facts.code(node)
    return code if _binds_method(node) else f"({code})"

