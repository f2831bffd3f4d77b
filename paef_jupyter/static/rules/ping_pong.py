"""`torch.tensor(x.cpu().tolist())`: a tensor copied to the host and straight back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import libcst as cst

from ...fix.edits import delete_statement, replace
from ...model import Fix, Severity
from ..device_use import crosses_to_host, is_device_move, may_span_devices, may_use_device, moves_to_cpu, on_host, uses_device
from ..facts import Facts, method_of_object, passed_for
from ..names import argument_bound_to, block_statements, bound_names, names_read, names_written, positional_params, root_name
from ..types import Kind
from ._importers import project_default_setter
from ._tensor_facts import (
    BOOL,
    FLOAT,
    INT,
    may_be_strided,
    proved_row_major,
    reads_module_state,
    CONVERT_METHOD,
    PYTHON_SCALAR_DTYPE,
    assigned_value,
    changed_after_unit,
    changed_in_place,
    default_device_set,
    default_dtype_changed,
    default_dtype_changed_later,
    handed_to_changing_call,
    dtype_of,
    family,
    host_index,
    is_binding,
    is_scalar,
    keyword,
    made_on_host,
    module_alias,
    on_device,
    rarely_runs,
    reads_of,
)
from ._outside_objects import reached_outside
from ._support import only_return, over_loader_batches, through_with
from .base import Rule

_DEFAULT_FLOAT_WHY = ("the program changes torch's default dtype (`torch.set_default_dtype`): the rebuilt tensor "
                      "took the default dtype where it ran, not surely float32 nor the source's dtype")
# Constructors that build a tensor from host data, and the dtype some of them force.
CONSTRUCTORS = {"tensor": None, "as_tensor": None, "from_numpy": None, "Tensor": "float",
                "FloatTensor": "float", "LongTensor": "long", "DoubleTensor": "double"}
HOST_COPIES = frozenset({"tolist", "numpy", "item"})
_NUMPY_TO_TORCH = {"float32": "float32", "float64": "float64", "float16": "float16", "int64": "int64",
                   "int32": "int32", "int8": "int8", "uint8": "uint8", "bool_": "bool", "bool": "bool"}
_SCALAR_CASTS = {"float": "float", "int": "int", "bool": "bool"}
_EXACT_IN_DOUBLE = frozenset({"int32", "int16", "int8", "uint8", "bool"})  # `float(t)` then float32: one rounding
# Calls between the tensor and its host copy that do not change its values.
_TRANSPARENT = frozenset({"cpu", "detach", "contiguous"})


@dataclass(frozen=True)
class HostCopy:
    tensor: cst.BaseExpression  # the device tensor that was copied
    method: str  # "tolist", "numpy" or "item"
    via: cst.Name | None = None  # the variable that carried the copy, if any
    via_statement: cst.SimpleStatementLine | None = None
    cast: str | None = None  # `float(t)` / `int(t)` / `bool(t)`: the Python scalar's family


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
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("to", "cuda"):
            self._moved_and_back(node)
            return
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "cpu" and not node.args:
            self._entry_moved_by_helper(node)
            self._index_to_host_and_back(node)
            return
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
        if isinstance(positional[0].value, cst.List):
            if not self._token_fed_back(node, positional[0].value):
                self._list_of_copies(node, name, positional[0].value)
            return
        copy = self._host_copy(positional[0].value, node)
        if copy is None:
            self._host_computation(node, name, positional[0].value)
            return
        source = self.facts.code(copy.tensor)
        shown = self.facts.code(copy.via_statement.body[0]) if copy.via_statement else self.facts.code(positional[0].value)
        new_code, safe, why = self._rewrite(node, name, copy)
        if safe and copy.via is not None and _computes(self.facts, copy.tensor):
            safe, why = False, (f"`{source}` is computed where `{copy.via.value}` is assigned: written again here, "
                                "it would run a second time (a model's forward, a random draw)")
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
            f"`{shown}` copies `{source}` to the host and `torch.{name}` copies it back: on a GPU, a "
            f"device->host->device round trip and a sync on every iteration",
            fix=fix,
            part_of=(copy.via_statement,) if copy.via_statement is not None else (),
            device_cost_only=copy.method == "numpy",
        )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        """`emb[idx]` with `emb` on the device and `idx = torch.tensor(ids)` made on the host:
        every iteration copies the index to the device (and a CUDA index on the host syncs).
        Also each index of several (`hidden[torch.arange(B).long(), lengths - 1]`), made inline
        (through dtype casts), into a model's output in a program that uses a device."""
        for element in node.slice:
            index = element.slice.value if isinstance(element.slice, cst.Index) else None
            factory = _cast_source(index) if index is not None else None
            made = host_index(self.facts, factory) if isinstance(factory, (cst.Name, cst.Call)) else None
            if made is None:
                continue
            loop = self.facts.iteration_loop(node)
            if loop is None or rarely_runs(self.facts, node, loop) or self.facts.iteration_loop(made) is None \
                    or not (on_device(self.facts, node.value) or self._model_output(node.value)):
                return
            self._host_index(node, index, made)  # type: ignore[arg-type]
            return

    def _model_output(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """`hidden = self.gnn(A, h)` in a program that puts things on a device: what a module
        computes lives where its parameters were moved; so does a parameter every call of the
        function passes such a value or a tensor moved there (`model.compute_scores(hidden, mask)`)."""
        if isinstance(expr, cst.Call) and depth == 0:  # `self.net(state)[idx, action]`: indexed as it is computed
            return self.facts.kind(expr.func) is Kind.MODULE and uses_device(self.facts)
        if not isinstance(expr, cst.Name) or depth > 2 or not uses_device(self.facts):
            return False
        value = self.facts.value_of(expr)
        if isinstance(value, cst.Call):
            return self.facts.kind(value.func) is Kind.MODULE
        passed = passed_for(self.facts, expr) if value is None else None
        return bool(passed) and all(on_device(self.facts, v) or self._model_output(v, depth + 1) for v in passed)  # type: ignore[union-attr]

    def _host_index(self, node: cst.Subscript, index: cst.BaseExpression, made: cst.Call) -> None:
        computed = isinstance(node.value, cst.Call)  # `net(s)[idx, a]`: name the output once, index it on its device
        tensor = "out" if computed else self.facts.code(node.value)
        ctor = self.facts.code(made.func)
        on_dev = f"{self.facts.code(made)[:-1].rstrip()}, device={tensor}.device)" if made.args \
            and ctor.rsplit(".", 1)[-1] != "from_numpy" else f"{self.facts.code(made)}.to({tensor}.device)"
        if (self.facts.qualified_name(made.func) or "") == "numpy.arange":  # the same range, made by torch on the device
            torch = module_alias(self.facts, "torch") or "torch"
            on_dev = f"{torch}.arange({', '.join(self.facts.code(a.value) for a in made.args)}, device={tensor}.device)"
        suggestion = f"{self.facts.code(index)} = {on_dev}" if isinstance(index, cst.Name) else \
            self.facts.code(index).replace(self.facts.code(made), on_dev, 1)
        if computed:
            suggestion = f"out = {self.facts.code(node.value)}\n" + (suggestion if isinstance(index, cst.Name) else self.facts.code(
                node.with_changes(value=cst.Name("out"))).replace(self.facts.code(made), on_dev, 1))
        self.report(
            node,
            f"`{self.facts.code(index)}` is made on the host (`{ctor}`) and indexes `{self.facts.code(node.value)}`, which lives on the "
            "device: the index is copied host->device on every iteration",
            fix=Fix(description=f"build the index on the device: `{suggestion}` (if it is not also used on the host"
                    + ("; the permutation then comes from the device's random generator" if ctor.endswith("randperm") else "")
                    + ")",
                    suggestion=suggestion, safe=False),
            severity=Severity.MEDIUM,  # a small index copy, not a round trip of the data
        )

    def _token_fed_back(self, node: cst.Call, values: cst.List) -> bool:
        """`torch.tensor([out[-1]], device=d)` where the same loop does `out.append(y.argmax().item())`:
        a greedy decoder copies each predicted token to the host and builds the next step's input
        from it, a round trip (and a sync) per generated token. A hint: the list is the program's
        output too, so only the person can move the copy after the loop."""
        nested = _rectangular(values)
        loops = self.facts.enclosing_loops(node)
        if nested is None or len(nested[0]) != 1 or not loops or not uses_device(self.facts):
            return False
        last = nested[0][0]
        if not (isinstance(last, cst.Subscript) and isinstance(last.value, cst.Name) and len(last.slice) == 1
                and self.facts.code(last.slice[0].slice).replace(" ", "") == "-1"):
            return False
        tokens = last.value.value
        copied = None
        for call in self.facts.calls_in(loops[0].node.body):
            func = call.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == tokens \
                    and func.attr.value == "append" and len(call.args) == 1:
                appended = call.args[0].value
                if isinstance(appended, cst.Call) and isinstance(appended.func, cst.Name) \
                        and appended.func.value in _SCALAR_CASTS and len(appended.args) == 1:
                    appended = appended.args[0].value  # `int(y.argmax().item())`
                copy = self._host_copy(appended, node)
                if copy is not None and copy.method == "item" and copy.via is None:
                    copied = copied or call
        if copied is None:
            return False
        self.report(
            node,
            f"`{self.facts.code(last)}` is the token `{self.facts.code(copied.args[0].value)}` copied to the host "
            f"in the previous iteration, and `{self.facts.code(node.func)}` copies it back: on a GPU, a "
            "device->host->device round trip and a sync for every generated token",
            fix=Fix(description="keep the predicted token on the device and feed it to the next step "
                    "(`tok = Y.argmax(dim=1)`); collect the tokens as tensors and copy them to the host once, "
                    "after the loop (`torch.cat(tokens).tolist()`)", safe=False),
            severity=Severity.MEDIUM,
        )
        return True

    def _list_of_copies(self, node: cst.Call, name: str, values: cst.List) -> None:
        """`torch.tensor([loss.item(), acc.item()], device=d)`: scalars copied out one by one;
        nested (`torch.tensor([[tok.item()]])`, a decoder's next input), rebuilt in its shape."""
        nested = _rectangular(values)
        if nested is None:
            return
        items, shape = nested
        copies = [self._host_copy(item, node) for item in items]
        if not copies or any(c is None or c.method != "item" or c.via is not None for c in copies):
            return
        parts, families, why = [], set(), ""
        for copy in copies:
            assert copy is not None
            code, safe, reason = self._rewrite(node, "tensor", copy)
            tensor = self.facts.code(copy.tensor)
            tensor = tensor if isinstance(copy.tensor, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) else f"({tensor})"
            parts.append(f"{tensor}.detach()" + ("" if is_scalar(self.facts, copy.tensor) else ".reshape(())"))
            families.add(copy.cast or family(dtype_of(self.facts, copy.tensor)))
            why = why or reason
        torch = module_alias(self.facts, "torch")
        if self._default_float(node, name, next(iter(families)) if len(families) == 1 else None):
            why = why or _DEFAULT_FLOAT_WHY
        if len(families) != 1 or None in families:
            why = why or "the scalars' dtypes differ or are unknown: `torch.tensor` would promote them"
        if may_use_device(self.facts) and may_span_devices(self.facts, [c.tensor for c in copies if c is not None]):
            # `torch.tensor([t_loss.item(), s_loss.item()])`, a teacher kept on the host beside a student
            # on the device: `torch.stack` of the two raises there (red team 58).
            why = why or ("the scalars come from different tensors, which may live on different devices: "
                          "`torch.stack` needs them on one device")
        fam = next(iter(families)) if len(families) == 1 else None
        code = f"{torch or 'torch'}.stack([{', '.join(parts)}])"
        if len(shape) > 1:
            code += f".reshape({', '.join(map(str, shape))})"
        dtype, device = keyword(node, "dtype"), keyword(node, "device")
        forced = CONSTRUCTORS[name]
        if dtype is not None:
            code += f".to({self.facts.code(dtype)})"
        elif forced is not None:
            code += f".{forced}()"
        elif fam is not None:
            code += f".to({torch or 'torch'}.{PYTHON_SCALAR_DTYPE[fam]})"
        code += f".to({self.facts.code(device)})" if device is not None else ("" if self._moved_to_device(node) else ".cpu()")
        if torch is None:
            why = why or "torch is not imported under a plain name here"
        self.report(
            node,
            f"`{self.facts.code(values)}` copies {len(copies)} device scalar{'s' if len(copies) > 1 else ''} to the host "
            f"and `torch.{name}` copies them back: on a GPU, a device->host->device round trip and a sync each "
            "on every iteration",
            fix=Fix(description=f"stay on the device: `{code}`" + (f" ({why})" if why else ""),
                    edits=() if why else (replace(self.facts, node, code),), suggestion=code, safe=not why),
        )

    def _moved_and_back(self, move: cst.Call) -> None:
        """`y = y.to(device)` whose every later use copies it back (`y.cpu().numpy()`,
        `y.tolist()`): a host->device->host round trip per batch for data only the host reads."""
        if not self._moved_to_device_call(move):
            return
        stmt = self.facts.statement_of(move)
        target = _bound_name(self.facts, move, stmt)
        loop = self.facts.iteration_loop(move)
        if target is None or loop is None or not self.facts.enclosing_loops(move):
            return
        body = self.facts.parent(stmt)
        statements = block_statements(body)
        if stmt not in statements or loop.node not in self.facts.ancestors(stmt):
            return
        scope: cst.CSTNode = self.facts.enclosing_function(move) or self.facts.module
        later = [n for n in reads_of(self.facts, target.value, scope) if self.facts.order(n) > self.facts.order(stmt)
                 and not _inside(self.facts, n, stmt)]
        if not later:
            return
        copies = []
        rest = statements[statements.index(stmt) + 1:]
        for read in sorted(later, key=self.facts.order):
            if is_binding(self.facts, read) and not any(_inside(self.facts, read, s) for s in rest):
                break  # rebound after this loop body (a later loop's target): a new value
            if not any(_inside(self.facts, read, s) for s in rest):
                return  # read after the loop, or in another block: not provably host-only
            copy = _host_copy_of(self.facts, read) or _ctc_lengths_of(self.facts, read)
            if copy is None:
                return
            copies.append(copy)
        if not copies:
            return  # never read in this body before it is rebound: no round trip (and nothing to drop)
        if self._read_next_iteration(stmt, target.value, scope) or self._read_elsewhere(target.value, scope):
            return
        if any(method == "ctc_loss" for method, _ in copies):
            self._ctc_lengths_moved(move, stmt, target, copies)
            return
        copying = all(method in ("tolist", "item") or _extended(self.facts, call) for method, call in copies)
        source = move.func.value  # type: ignore[attr-defined]
        same = isinstance(source, cst.Name) and source.value == target.value and stmt.body[0].value is move  # type: ignore[attr-defined]
        edit = delete_statement(self.facts, stmt) if same else replace(self.facts, move, self.facts.code(source))  # type: ignore[arg-type]
        shared = self._host_source_may_change(move, source, target.value)
        self.report(
            move,
            f"`{target.value}` is moved to the device here and only ever copied back to the host afterwards "
            f"(`{self.facts.code(copies[0][1])}`): a host->device->host round trip on every iteration for values "
            "only the host reads",
            fix=Fix(
                description=f"keep `{target.value}` on the host (drop the move)",
                edits=(edit,),
                suggestion=self.facts.code(source),
                review=(f"`{target.value}` would share memory with `{self.facts.code(source)}`, which may be changed in "
                        "place: on a device the move was a copy of the values it had here" if shared
                        else "" if copying else "the host array would now share memory with the batch the loader gave"),
            ),
            end_node=max((call for _, call in copies), key=self.facts.order),  # the round trip, to its last copy back
        )

    def _ctc_lengths_moved(self, move: cst.Call, stmt: cst.CSTNode, target: cst.Name,
                           copies: list[tuple[str, cst.Call]]) -> None:
        """`Target_Lengths = torch.tensor(lens).to(device)` read only as `ctc_loss`'s lengths: ATen's
        `ctc_loss` converts length tensors to CPU int64 before it runs, so the move is copied back
        at once (a sync per step). Offered for review: with host lengths PyTorch may pick another
        CTC kernel on a GPU (cuDNN's), whose loss agrees to rounding, not bit for bit, and CUDA-graph
        capture rejects host lengths."""
        source = move.func.value  # type: ignore[attr-defined]
        same = isinstance(source, cst.Name) and source.value == target.value and stmt.body[0].value is move  # type: ignore[attr-defined]
        edit = delete_statement(self.facts, stmt) if same else replace(self.facts, move, self.facts.code(source))  # type: ignore[arg-type]
        shown = self.facts.code(copies[0][1].func)
        self.report(
            move,
            f"`{target.value}` is moved to the device here and only ever passed to `{shown}` as CTC lengths, which "
            "`ctc_loss` copies back to the host before it runs: a host->device->host round trip (and a sync) on every "
            "iteration for values only the host reads",
            fix=Fix(
                description=f"keep `{target.value}` on the host (drop the move): `ctc_loss` takes host lengths",
                edits=(edit,),
                suggestion=self.facts.code(source),
                review="with host lengths PyTorch may run another CTC kernel on a GPU (cuDNN's): the loss agrees to "
                       "rounding, not bit for bit; and a step captured in a CUDA graph needs device lengths",
            ),
            end_node=max((call for _, call in copies), key=self.facts.order),
        )

    def _read_next_iteration(self, stmt: cst.CSTNode, name: str, scope: cst.CSTNode) -> bool:
        """`tok = torch.multinomial(p.cpu(), 1).to(device)` at the end of a decoding step, read by
        `tok.item()` after it and by `emb(tok)` / `torch.cat([seq, tok])` / `x.gather(0, tok)` at the
        top of the loop: the moved value flows round the loop into reads written before the move. Only
        the reads after it are host copies; dropping the move would hand the next iteration a host
        tensor (on a GPU: a device-mismatch error, or a copy per use). Any read before the move in an
        enclosing loop (its header and test included) that is not itself a host copy keeps the move,
        unless that loop's body rebinds the name before the read (a fresh value each iteration)."""
        loops = [loop.node for loop in self.facts.enclosing_loops(stmt)]
        at = self.facts.order(stmt)
        for read in reads_of(self.facts, name, scope):
            if self.facts.order(read) >= at or is_binding(self.facts, read) or _host_copy_of(self.facts, read) is not None:
                continue
            if any(_inside(self.facts, read, loop) and not self._bound_first(read, name, loop) for loop in loops):
                return True
        return False

    def _read_elsewhere(self, name: str, scope: cst.CSTNode) -> bool:
        """`def step(): return emb(tok)` called in the loop, a lambda, a closure, or (for a name of the
        cell's top level) a function of an earlier cell or any later cell: a read the loop body does not
        show, which may use the moved value on the device. Any such read keeps the move."""
        def nested_reads(unit: Facts, root: cst.CSTNode, outer: cst.CSTNode | None) -> bool:
            for node in unit.walk(root):
                if isinstance(node, cst.Name) and node.value == name and not is_binding(unit, node) \
                        and _host_copy_of(unit, node) is None:
                    inner = [a for a in unit.ancestors(node) if isinstance(a, (cst.FunctionDef, cst.Lambda))]
                    if outer is None or any(a is not outer and _inside(unit, a, outer) for a in inner):
                        return True
            return False

        if scope is not self.facts.module:
            declared = {n.name.value for g in self.facts.walk(scope) if isinstance(g, cst.Global) for n in g.names}
            if name not in declared:
                return nested_reads(self.facts, scope, scope)
        if nested_reads(self.facts, self.facts.module, self.facts.module):
            return True
        if any(nested_reads(unit, unit.module, unit.module) for unit in self.facts.prior.units()):
            return True
        return any(nested_reads(later, later.module, None) for later in self.facts.later)

    def _bound_first(self, read: cst.CSTNode, name: str, loop: cst.CSTNode) -> bool:
        """`u = torch.arange(4)` (or `for u in ...`) starts the iteration of `loop`, or of a loop inside
        it that holds `read`, before `read`: a statement of that loop's body that binds `name` whatever
        path is taken, so round `loop`'s back edge `read` never sees the value of the previous iteration.
        (A binding nested deeper, in an `if` or a `try`, is not counted: the read may still see it.)"""
        for inner in (a for a in self.facts.ancestors(read) if isinstance(a, (cst.For, cst.While))):
            if not _inside(self.facts, inner, loop):
                break
            if isinstance(inner, cst.For) and name in bound_names(inner.target) and _inside(self.facts, read, inner.body):
                return True
            for statement in block_statements(inner.body):  # type: ignore[attr-defined]
                if self.facts.order(statement) >= self.facts.order(read) or _inside(self.facts, read, statement):
                    break
                if isinstance(statement, cst.SimpleStatementLine) and any(
                        isinstance(small, cst.Assign) and any(name in bound_names(t.target) for t in small.targets)
                        for small in statement.body):
                    return True
        return False

    def _host_source_may_change(self, move: cst.Call, source: cst.BaseExpression, target: str) -> bool:
        """Dropping `.to(device)` leaves `target` sharing the host tensor's memory, where on a device the
        move was a copy taken at that line: a write to the source in place later (`pos.add_(v)` before
        `frame.tolist()`), by the program or by code that reaches it (a global, a module's state, an
        optimizer), would now show in what the host reads back. Any such write, or a source that is no
        plain name of this scope, leaves the rewrite to review."""
        scope: cst.CSTNode = self.facts.enclosing_function(move) or self.facts.module
        if isinstance(source, cst.Call) and (self.facts.qualified_name(source.func) or "") in _FRESH_FACTORIES:
            return False  # `torch.randn(2, generator=g)`: fresh memory that nothing else holds
        root = root_name(source)
        if root is None or reads_module_state(self.facts, source):
            return True
        if reached_outside(self.facts, root, scope):
            return True
        return any(changed_in_place(self.facts, name, scope) or changed_after_unit(self.facts, name, scope)
                   or handed_to_changing_call(self.facts, name, scope) for name in {root, target})

    def _entry_moved_by_helper(self, node: cst.Call) -> None:
        """`batch = move_to_device(batch, device)` (or `self._prepare_inputs(batch)`: a helper
        whose only return moves every value of the dict it is given, or that dict comprehension
        written in the loop) on a loader's batch, then
        `batch["labels"].cpu()`: the labels were on the host before the helper copied them over,
        and come back now. A hint: the host batch's entry, read before the move, has the same
        values (the device copy may still be needed, by the model's loss)."""
        receiver = node.func.value  # type: ignore[attr-defined]
        if not (isinstance(receiver, cst.Subscript) and isinstance(receiver.value, cst.Name)):
            return
        loop = self.facts.iteration_loop(node)
        made = self.facts.value_of(receiver.value)
        if loop is None or not isinstance(made, (cst.Call, cst.DictComp)) or not isinstance(loop.node, cst.For) \
                or loop.node not in self.facts.ancestors(made) or not over_loader_batches(self.facts, loop):
            return
        batch = {n.value for n in self.facts.walk(loop.node.target) if isinstance(n, cst.Name)}
        if receiver.value.value not in batch:
            return
        if isinstance(made, cst.DictComp):  # `batch = {k: v.to(device) for k, v in batch.items()}` in the loop
            if not _moves_every_value(self.facts, made, receiver.value.value):
                return
            mover = "the dict comprehension"
        else:
            passed = [a.value for a in made.args if not a.star]
            if not passed or not isinstance(passed[0], cst.Name) or passed[0].value != receiver.value.value:
                return
            helper = self.facts._function_at(made.func) if isinstance(made.func, (cst.Name, cst.Attribute)) else None
            if helper is None:
                found = method_of_object(self.facts, made.func)
                helper = found[1] if found is not None else None
            if not isinstance(helper, cst.FunctionDef) or not _returns_every_value_moved(self.facts.owner_of(helper), helper, made):
                return
            mover = f"`{self.facts.code(made.func)}`"
        entry = self.facts.code(receiver)
        self.report(
            node,
            f"`{entry}` came from the loader on the host, {mover} copied it to the device "
            f"and `.cpu()` copies it back: a host->device->host round trip (and a sync) on every iteration",
            fix=Fix(description=f"keep the host entry: read `{entry}` before the move "
                    f"(`host_{_key_name(receiver)} = {entry}`) and use it here instead of the device copy", safe=False),
            severity=Severity.MEDIUM,
        )

    def _index_to_host_and_back(self, node: cst.Call) -> None:
        """`def extract(a, t, shape): out = a.gather(-1, t.cpu()); return out.reshape(...).to(t.device)`
        (the DDPM helper of many public repositories) run per iteration: the timesteps go to the
        host (a sync) to index a schedule left on the host, and the picked values come back. A
        hint: the fix (the schedule registered as a buffer, or moved once) is the caller's."""
        index = node.func.value  # type: ignore[attr-defined]
        func = self.facts.enclosing_function(node)
        if not isinstance(index, cst.Name) or not isinstance(func, cst.FunctionDef) \
                or index.value not in {p.name.value for p in func.params.params} \
                or not self._indexes_with(node) or not uses_device(self.facts):
            return
        back = next((c for c in self.facts.walk(func.body) if isinstance(c, cst.Call)
                     and isinstance(c.func, cst.Attribute) and c.func.attr.value == "to" and c.args
                     and _is_device_of(c.args[0].value, index.value)), None)
        if back is None or not _returned(self.facts, back, func) or not self.facts.per_iteration_call_sites(func):
            return
        name = index.value
        self.report(
            node,
            f"`{name}.cpu()` brings `{name}` to the host to index a tensor kept there, and `.to({name}.device)` "
            f"sends the picked values back: on a GPU, a device->host->device round trip and a sync on every "
            f"call of `{func.name.value}`, which runs on every iteration",
            fix=Fix(description="keep the indexed tensor on the device (a buffer, or moved once before the loop) "
                    f"and index it with `{name}` directly", safe=False),
            severity=Severity.MEDIUM,
            end_node=back,
        )

    def _indexes_with(self, node: cst.Call) -> bool:
        """`x.gather(dim, <node>)`, `torch.gather(x, dim, <node>)` or `x[<node>]`."""
        parent = self.facts.parent(node)
        if isinstance(parent, cst.Arg):
            call = self.facts.parent(parent)
            if not isinstance(call, cst.Call) or parent.value is not node:
                return False
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("gather", "index_select"):
                return True
            return (self.facts.qualified_name(call.func) or "") in ("torch.gather", "torch.index_select")
        if isinstance(parent, cst.Index):
            return isinstance(self.facts.parent(self.facts.parent(parent)), cst.Subscript)
        return False

    def _moved_to_device_call(self, call: cst.Call) -> bool:
        func = call.func
        if not isinstance(func, cst.Attribute):
            return False
        if func.attr.value == "cuda":
            return not call.args or all(a.keyword is not None and a.keyword.value == "non_blocking" for a in call.args)
        if not call.args or call.args[0].keyword is not None or any(
                a.keyword is not None and a.keyword.value not in ("non_blocking",) for a in call.args[1:]) or len(
                [a for a in call.args if a.keyword is None]) != 1:
            return False
        target = call.args[0].value
        if isinstance(target, cst.SimpleString):
            return target.evaluated_value.split(":")[0] == "cuda"
        spelled = self.facts.code(target).lower()
        return "device" in spelled and "dtype" not in spelled

    def _host_computation(self, node: cst.Call, name: str, arg: cst.BaseExpression) -> None:
        """`torch.tensor((x.cpu().numpy() > 0).astype(np.float32))`, or the same through
        variables (`probs = out.cpu().numpy()`; `pred = np.argmax(probs, 1)`;
        `torch.from_numpy(pred)`): NumPy work between the two copies."""
        trace = _Trace(node)
        on_device = self._torch_equivalent(arg, trace, name)
        if trace.copy is None or made_on_host(self.facts, trace.copy.tensor):
            return  # no copy, or a tensor made on the host: nothing crossed from a device
        copy = trace.copy
        tensor = self.facts.code(copy.tensor)
        inner = self.facts.code(trace.copy_call) if trace.copy_call is not None else tensor
        if on_device is not None and any(
            names_written(stmt) & {root_name(copy.tensor)} for stmt in self._statements_between(trace.first, node)
        ):
            on_device = None  # the tensor changed after its host copy was taken
        if trace.updated:
            on_device = None  # a variable of the chain was updated in place: not the expression assigned
        if on_device is not None and trace.via and _computes(self.facts, copy.tensor):
            on_device = None  # `probs = F.softmax(model(x)).cpu().numpy()`: written again at the use, the model would run twice
        dtype, device = keyword(node, "dtype"), keyword(node, "device")
        if on_device is not None:
            on_device += "".join(f".to({self.facts.code(v)})" for v in (dtype, device) if v is not None)
            on_device += "" if self._moved_to_device(node) else ".cpu()"
        dead = [stmt for var, stmt in trace.via if self._only_use(var)]
        if on_device is not None and name in ("as_tensor", "from_numpy") and isinstance(arg, cst.Name) \
                and not any(var is arg for var, _ in trace.via if self._only_use(var)):
            on_device = None  # the host array lives on, and `torch.{name}` shares its memory
        edits = (replace(self.facts, node, on_device), *(delete_statement(self.facts, s) for s in dead)) if on_device else ()
        self.report(
            node,
            f"`{inner}` copies `{tensor}` to the host, NumPy computes on it there and `torch.{name}` copies the "
            f"result back: on a GPU, a device->host->device round trip and a sync on every iteration",
            fix=Fix(
                description="compute it with torch ops on the device" + (f": `{on_device}`" if on_device else ""),
                edits=edits,
                suggestion=on_device or f"# the same computation with torch ops on `{tensor}`",
                safe=on_device is not None,
            ),
            part_of=self._host_chain(trace.copy_call, node),
            device_cost_only=True,  # the NumPy work stays (as torch ops) after the fix
        )

    def _torch_equivalent(self, expr: cst.BaseExpression, trace: "_Trace", name: str) -> str | None:
        """The NumPy expression on the host copy, written with torch ops on the device tensor.

        Only ops that translate exactly: comparisons with numbers, `.astype(np.<dtype>)`,
        `argmax`/`argmin` (first index on ties in both), `max`/`min` along an axis (`amax`),
        and `clip` with bounds of the array's own number family (NumPy and torch promote
        arithmetic differently, so `+ - * /` never translate)."""
        if isinstance(expr, cst.Name):
            found = self._local_value(expr, trace)
            return self._torch_equivalent(found, trace, name) if found is not None else None
        copy = self._host_copy(expr, trace.use) if isinstance(expr, cst.Call) else None
        if copy is not None and copy.method == "numpy":
            trace.copy, trace.copy_call = copy, expr  # type: ignore[assignment]
            trace.first = trace.first or self.facts.statement_of(expr)
            code = self.facts.code(copy.tensor)
            return code if isinstance(copy.tensor, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) else f"({code})"
        if isinstance(expr, cst.Comparison):
            left = self._torch_equivalent(expr.left, trace, name)
            if len(expr.comparisons) != 1 or not isinstance(expr.comparisons[0].comparator, (cst.Integer, cst.Float)):
                return None
            op = self.facts.code(expr.comparisons[0].operator).strip()
            return f"({left} {op} {self.facts.code(expr.comparisons[0].comparator)})" if left is not None else None
        if not isinstance(expr, cst.Call):
            self._find_copy(expr, trace)
            return None
        array, method, args = self._numpy_call(expr)
        if array is None:
            self._find_copy(expr, trace)
            return None
        inner = self._torch_equivalent(array, trace, name)
        if inner is None or any(a.star for a in args):
            return None
        torch = module_alias(self.facts, "torch")
        positional = [a.value for a in args if a.keyword is None]
        kw = {a.keyword.value: a.value for a in args if a.keyword is not None}
        if method == "astype" and len(args) == 1 and not kw:
            spelled = positional[0]
            dtype = spelled.evaluated_value if isinstance(spelled, cst.SimpleString) else \
                (self.facts.qualified_name(spelled) or "").removeprefix("numpy.")
            return f"{inner}.to({torch}.{_NUMPY_TO_TORCH[dtype]})" if torch and dtype in _NUMPY_TO_TORCH else None
        if method in ("argmax", "argmin") and self._array_family(array, trace) not in (FLOAT, INT):
            return None  # torch's `argmax`/`argmin` refuse bool tensors (NumPy's give the first True)
        if method in ("argmax", "argmin", "max", "min"):
            axis = positional[0] if len(positional) == 1 else kw.get("axis")
            if len(positional) > 1 or set(kw) - {"axis", "keepdims"} or (len(positional) == 1 and "axis" in kw):
                return None
            keepdims = kw.get("keepdims")
            keep = isinstance(keepdims, cst.Name) and keepdims.value == "True"
            if keepdims is not None and not (isinstance(keepdims, cst.Name) and keepdims.value in ("True", "False")):
                return None
            if axis is None and (keep or name == "from_numpy"):
                return None  # a NumPy scalar: `torch.from_numpy` would raise on it
            if axis is not None and _int_literal(axis) is None:
                return None
            op = {"max": "amax", "min": "amin"}.get(method, method)
            if axis is None:
                return f"{inner}.{op}()" if method.startswith("arg") else f"{inner}.{op}().detach()"
            tail = ", keepdim=True" if keep else ""
            return f"{inner}.{op}(dim={self.facts.code(axis)}{tail})" + ("" if method.startswith("arg") else ".detach()")
        if method == "clip" and len(positional) == 2 and not kw:
            fam = family(dtype_of(self.facts, trace.copy.tensor)) if trace.copy is not None else None
            bounds = positional
            if fam is None or not all(isinstance(b, (cst.Integer, cst.Float)) or (
                    isinstance(b, cst.UnaryOperation) and isinstance(b.expression, (cst.Integer, cst.Float))) for b in bounds):
                return None
            if fam != "float" and any(isinstance(b, cst.Float) or isinstance(getattr(b, "expression", None), cst.Float) for b in bounds):
                return None  # an integer array clipped with float bounds becomes float64 in NumPy
            return f"{inner}.clamp({self.facts.code(bounds[0])}, {self.facts.code(bounds[1])}).detach()"
        return None

    def _array_family(self, array: cst.BaseExpression, trace: "_Trace", depth: int = 4) -> str | None:
        """The number family of the NumPy array a translated op reads: the copied tensor's, the
        one `.astype(...)` names, bool for a comparison; None when not known (red team 32b:
        `np.argmax(mask.cpu().numpy(), axis=1)`, the first True of a mask, has no torch twin)."""
        if depth == 0:
            return None
        if isinstance(array, cst.Name):
            found = self._local_value(array, trace, record=False)
            return self._array_family(found, trace, depth - 1) if found is not None else None
        if isinstance(array, cst.Comparison):
            return BOOL
        if isinstance(array, cst.Call) and isinstance(array.func, cst.Attribute) and array.func.attr.value == "astype" \
                and len(array.args) == 1:
            spelled = array.args[0].value
            dtype = spelled.evaluated_value if isinstance(spelled, cst.SimpleString) else \
                (self.facts.qualified_name(spelled) or "").removeprefix("numpy.").removeprefix("builtins.")
            return family(_NUMPY_TO_TORCH.get(dtype))
        copy = self._host_copy(array, trace.use) if isinstance(array, cst.Call) else None
        if copy is not None and copy.method == "numpy":
            return family(dtype_of(self.facts, copy.tensor))
        array, method, _ = self._numpy_call(array) if isinstance(array, cst.Call) else (None, "", ())
        if array is not None and method in ("max", "min", "clip"):
            return self._array_family(array, trace, depth - 1)
        return None

    def _numpy_call(self, call: cst.Call) -> tuple[cst.BaseExpression | None, str, Sequence[cst.Arg]]:
        """`np.argmax(a, axis=1)` or `a.argmax(axis=1)` -> (a, "argmax", the other arguments)."""
        qualified = self.facts.qualified_name(call.func) or ""
        if qualified.startswith("numpy.") and qualified.count(".") == 1 and call.args and call.args[0].keyword is None:
            method = qualified[len("numpy."):]
            method = {"amax": "max", "amin": "min"}.get(method, method)
            if method in ("argmax", "argmin", "max", "min", "clip"):
                return call.args[0].value, method, call.args[1:]
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("astype", "argmax", "argmin", "max", "min", "clip"):
            return call.func.value, call.func.attr.value, call.args
        return None, "", ()

    def _find_copy(self, expr: cst.BaseExpression, trace: "_Trace") -> None:
        """No translation: still note the host copy inside, so a hint is given."""
        if trace.copy is not None:
            return
        for n in self.facts.walk(expr):
            if isinstance(n, cst.Call) and (c := self._host_copy(n, trace.use)) is not None and c.method == "numpy":
                trace.copy, trace.copy_call = c, n
                return
            if isinstance(n, cst.Call) and (c := self._copied_by_helper(n)) is not None:
                trace.copy, trace.copy_call = c, n
                return
            if isinstance(n, cst.Name) and n is not expr and (value := self._local_value(n, trace, record=False)) is not None:
                self._find_copy(value, trace)
                if trace.copy is not None:
                    return
        if isinstance(expr, cst.Name) and (value := self._local_value(expr, trace, record=False)) is not None:
            self._find_copy(value, trace)

    def _copied_by_helper(self, call: cst.Call) -> HostCopy | None:
        """`get_radius(dist, nu)` with `def get_radius(dist, nu): return np.quantile(dist.cpu().numpy(), 1 - nu)`:
        a function of this unit (an earlier cell, a local module) whose only `return` copies one of
        its parameters to the host; the device tensor passed for that parameter is what crosses."""
        if not isinstance(call.func, cst.Name) or any(a.star for a in call.args):
            return None
        func = self.facts._function_at(call.func)
        if not isinstance(func, cst.FunctionDef):
            return None
        owner = self.facts.owner_of(func)
        value = only_return(owner, func)
        params = positional_params(func)
        for n in owner.walk(value) if value is not None else ():
            if not (isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in HOST_COPIES
                    and not n.args and root_name(n.func.value) in params):
                continue
            if n.func.attr.value == "numpy" and not crosses_to_host(n.func.value):
                continue  # `dist.numpy()` raises on a device tensor: the helper only ever gets host ones
            param = root_name(n.func.value)
            given = argument_bound_to(call, params, param)
            if given is not None and self.facts.kind(given) is Kind.TENSOR and not made_on_host(self.facts, given) \
                    and not on_host(self.facts, given):
                return HostCopy(given, "numpy")
        return None

    def _local_value(self, name: cst.Name, trace: "_Trace", record: bool = True) -> cst.BaseExpression | None:
        """`name`'s value when a plain assignment earlier in the same block gives it and nothing
        rebinds it before `trace.use`'s statement."""
        value = assigned_value(self.facts, name)
        if value is None:
            return self._updated_value(name, trace, record)
        define = self.facts.statement_of(value)
        here = self.facts.statement_of(trace.use)
        block = self.facts.parent(here)
        anchor = through_with(self.facts, define, block)
        if not isinstance(define, cst.SimpleStatementLine) or anchor is None or len(define.body) != 1:
            return None
        assign = define.body[0]
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return None
        later: list[cst.CSTNode] = []
        if anchor is not define:  # `with torch.no_grad(): probs = ...`: what follows it in the `with` body counts too
            inner = block_statements(self.facts.parent(define))
            if self.facts.parent(self.facts.parent(define)) is not anchor:
                return None  # nested `with` blocks: not followed
            later = inner[inner.index(define) + 1:]
        if any(name.value in names_written(stmt) for stmt in (*later, *self._statements_between(anchor, name))):
            return None  # rebound between its assignment and this read
        if record:
            trace.via.append((name, define))
            trace.first = anchor
        return value

    def _updated_value(self, name: cst.Name, trace: "_Trace", record: bool) -> cst.BaseExpression | None:
        """`probs = np.exp(logits - m)`; `probs /= probs.sum(1, keepdims=True)`; then `probs` read: the
        value assigned, through augmented updates of the name in the same block (an array updated
        in place stays the host array the copy made). Marks the trace `updated`: the finding stands,
        its NumPy no longer reads as the expression assigned, so no rewrite. truth69 d07: an
        evaluation loop's softmax normalised in place was no finding at all."""
        stmt = self.facts.statement_of(name)
        block = self.facts.parent(stmt)
        body = block_statements(block)
        if stmt not in body or self.facts.parent(self.facts.statement_of(trace.use)) is not block:
            return None
        updated = False
        for earlier in reversed(body[: body.index(stmt)]):
            if name.value not in names_written(earlier):
                continue
            small = earlier.body[0] if isinstance(earlier, cst.SimpleStatementLine) and len(earlier.body) == 1 else None
            if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) and small.target.value == name.value:
                updated = True
                continue
            if not (updated and isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name.value):
                return None
            trace.updated = True
            if record:
                trace.via.append((name, earlier))
                trace.first = earlier
            return small.value
        return None

    def _host_chain(self, copy_call: cst.CSTNode | None, use: cst.Call) -> tuple[cst.CSTNode, ...]:
        """The statements of a round trip before the copy back: the one that copies to the host,
        then those between that compute on what it made (names flow from the copy). Where its
        host work is paid: on a CPU, the copies cost nothing and this NumPy work is the cost."""
        first = self.facts.statement_of(copy_call) if copy_call is not None else None
        here = self.facts.statement_of(use)
        if first is None or first is here:
            return ()
        chain, flowing = [first], names_written(first)
        for stmt in self._statements_between(first, use):
            if names_read(stmt) & flowing:
                chain.append(stmt)
                flowing |= names_written(stmt)
        return tuple(chain)

    def _statements_between(self, first: cst.CSTNode | None, use: cst.CSTNode) -> list[cst.CSTNode]:
        """The statements of `first`'s block strictly after `first` and before the one holding `use`."""
        block = self.facts.parent(first) if first is not None else None
        body = block_statements(block)
        here = next((a for a in (use, *self.facts.ancestors(use)) if self.facts.parent(a) is block), None)
        if first is None or first not in body or here not in body:
            return []
        return body[body.index(first) + 1 : body.index(here)]

    # --- matching --------------------------------------------------------------------

    def _host_copy(self, arg: cst.BaseExpression, use: cst.Call) -> HostCopy | None:
        if isinstance(arg, cst.Name):
            return self._through_variable(arg, use)
        if isinstance(arg, cst.Call) and isinstance(arg.func, cst.Name) and arg.func.value in _SCALAR_CASTS \
                and len(arg.args) == 1 and not arg.args[0].keyword and not arg.args[0].star \
                and self.facts.qualified_name(arg.func) == f"builtins.{arg.func.value}":
            inner = arg.args[0].value
            tensor = _strip_transparent(inner, self.facts)
            if self.facts.kind(inner) is Kind.TENSOR or self.facts.kind(tensor) is Kind.TENSOR:
                return HostCopy(tensor, "item", cast=_SCALAR_CASTS[arg.func.value])
            return None
        if not (isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute)):
            return None
        method = arg.func.attr.value
        if method not in HOST_COPIES or arg.args or (method == "numpy" and not crosses_to_host(arg.func.value)):
            return None
        tensor = _strip_transparent(arg.func.value, self.facts)
        if self.facts.kind(arg.func.value) is not Kind.TENSOR and self.facts.kind(tensor) is not Kind.TENSOR \
                and not self._unseen_output_on_device(tensor):
            return None
        return HostCopy(tensor, method)

    def _unseen_output_on_device(self, expr: cst.BaseExpression) -> bool:
        """`out = model(input.cuda())` with `model` a parameter (its type unseen): what a module,
        or any callable handed a tensor on the device, computes from it lives there (a module
        whose parameters were left on the host raises instead). A function of this unit is not
        taken on trust: its body says where its result is."""
        value = self.facts.value_of(expr) if isinstance(expr, cst.Name) else expr
        if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)) \
                or self.facts.kind(value.func) not in (Kind.UNKNOWN, Kind.MODULE) \
                or (isinstance(value.func, cst.Name) and self.facts._function_at(value.func) is not None) \
                or (self.facts.qualified_name(value.func) or "").startswith(("torch.", "numpy.")):
            return False
        return any(not a.keyword and on_device(self.facts, a.value) for a in value.args)

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
        if copy.method != "item" and may_be_strided(self.facts, copy.tensor):
            safe, why = False, f"`{self.facts.code(copy.tensor)}` may be a strided view (a slice, a transpose, an " \
                "expansion): the round trip gave a fresh contiguous tensor, `detach()` keeps the view's strides " \
                "(`.view()` may then raise, and its strides print differently)"
        cloned = self._needs_clone(node, copy)
        if copy.method == "tolist" and not proved_row_major(self.facts, copy.tensor):
            # A tensor rebuilt from lists is row-major whatever the source's strides, which no list
            # of view spellings proves (a channels_last model's output, `broadcast_to`: red team 35).
            code += ".contiguous()"
        if cloned:
            if name in ("as_tensor", "from_numpy"):
                safe, why = False, f"the result is changed in place and `torch.{name}` may share memory"
            code += ".clone()"
        dtype = keyword(node, "dtype")
        forced = CONSTRUCTORS[name]
        if dtype is not None:
            code += f".to({self.facts.code(dtype)})"
        elif forced is not None:
            code += f".{forced}()"
        elif copy.cast is not None:
            source = dtype_of(self.facts, copy.tensor)
            if copy.cast == "float" and family(source) != "float" and source not in _EXACT_IN_DOUBLE:
                safe, why = False, f"`float()` of `{self.facts.code(copy.tensor)}` rounds through a double first"
            if source != PYTHON_SCALAR_DTYPE[copy.cast]:
                code += f".{CONVERT_METHOD[copy.cast]}()"
        elif copy.method != "numpy":
            source = dtype_of(self.facts, copy.tensor)
            fam = family(source)
            if fam is None:
                safe, why = False, f"the dtype of `{self.facts.code(copy.tensor)}` is unknown: Python scalars " \
                    "become float32/int64, so add `.float()`/`.long()` if it is not already one"
            elif source != PYTHON_SCALAR_DTYPE[fam]:
                code += f".{CONVERT_METHOD[fam]}()"
        if safe and self._default_float(node, name, copy.cast or (family(dtype_of(self.facts, copy.tensor))
                                                                  if copy.method != "numpy" else None)):
            safe, why = False, _DEFAULT_FLOAT_WHY
        device = keyword(node, "device")
        if device is not None:
            code += f".to({self.facts.code(device)})"
        elif not self._moved_to_device(node):
            code += ".cpu()"
            if safe and name != "from_numpy" and (setter := default_device_set(self.facts)
                                                  or project_default_setter(self.ctx.ref.path, device=True)):
                # the constructor follows torch's default device, `.cpu()` does not (red team 46 probe)
                safe, why = False, f"the program sets torch's default device (`{setter}`): the rebuilt tensor " \
                    "is made there, not on the host"
        return code, safe, why

    def _default_float(self, node: cst.Call, name: str, fam: str | None) -> bool:
        """The round trip's tensor takes torch's default dtype (Python floats into `torch.tensor`,
        any list into the legacy `torch.Tensor`) and the program changes that default somewhere:
        float32 is then not proved, and a rewrite that keeps or casts to the source's dtype differs."""
        if keyword(node, "dtype") is not None or name not in ("tensor", "as_tensor", "Tensor"):
            return False
        return (name == "Tensor" or fam == "float") and (default_dtype_changed(self.facts)
                                                         or default_dtype_changed_later(self.facts)
                                                         or bool(project_default_setter(self.ctx.ref.path)))

    def _moved_to_device(self, node: cst.Call) -> bool:
        """The constructed tensor goes (back) to a device: `device=`, `.cuda()`, `.to(device)`.

        Otherwise the original result lives on the host, and so must the rewrite's (`.cpu()`,
        free on a CPU tensor): a CUDA tensor where a host one was breaks `.numpy()` and mixes."""
        if keyword(node, "device") is not None:
            return True
        parent, grand = self.facts.parent(node), None
        if isinstance(parent, cst.Attribute) and parent.value is node:
            grand = self.facts.parent(parent)
        if not isinstance(grand, cst.Call) or not isinstance(parent, cst.Attribute):
            return False
        if parent.attr.value == "cuda":
            return True
        target = keyword(grand, "device") or (grand.args[0].value if parent.attr.value == "to" and grand.args
                                               and grand.args[0].keyword is None else None)
        if target is None:
            return False
        if isinstance(target, cst.SimpleString):
            return target.evaluated_value.split(":")[0] in ("cuda", "cpu", "mps", "xpu")
        spelled = self.facts.code(target)
        return "device" in spelled.lower() or (self.facts.qualified_name(target) or "") == "torch.device"

    def _needs_clone(self, node: cst.Call, copy: HostCopy) -> bool:
        """The constructor gave fresh memory; `detach()` shares it: matters only if mutated."""
        scope: cst.CSTNode = self.facts.enclosing_function(node) or self.facts.module
        stmt = self.facts.statement_of(node)
        target = None
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign):
            assign = stmt.body[0]
            if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name) and _flows_to(self.facts, node, assign.value):
                target = assign.targets[0].target.value
        if target is None or reads_module_state(self.facts, copy.tensor):
            return True  # (a module's buffer: a forward pass in training mode changes it in place)
        root = root_name(copy.tensor)
        if root is not None and reached_outside(self.facts, root, scope):
            return True  # a global, a parameter, `self`: another function (a caller) may change it in place
        return any(changed_in_place(self.facts, name, scope) or changed_after_unit(self.facts, name, scope)
                   or handed_to_changing_call(self.facts, name, scope)  # `SGD([w])`: its step changes `w`
                   for name in (target, root) if name is not None)

    def _only_use(self, name: cst.Name | None) -> bool:
        if name is None:
            return False
        return len(reads_of(self.facts, name.value)) == 2


@dataclass
class _Trace:
    """What translating a host computation found: the host copy, and the variables it went through."""

    use: cst.Call  # the constructor that brings the result back
    copy: HostCopy | None = None
    copy_call: cst.Call | None = None
    first: cst.CSTNode | None = None  # the earliest statement of the chain
    via: list[tuple[cst.Name, cst.SimpleStatementLine]] = field(default_factory=list)
    # A variable of the chain was updated in place (`probs /= probs.sum(...)`): still the host array
    # the copy made, but its value is no longer the expression assigned, so nothing is translated.
    updated: bool = False


def _rectangular(values: cst.List) -> tuple[list[cst.BaseExpression], tuple[int, ...]] | None:
    """The leaves of a nested list literal, in order, and its shape; None if ragged or starred."""
    if not values.elements or any(not isinstance(el, cst.Element) for el in values.elements):
        return None
    inner = [el.value for el in values.elements]
    if not any(isinstance(v, cst.List) for v in inner):
        return inner, (len(inner),)
    if not all(isinstance(v, cst.List) for v in inner):
        return None
    parts = [_rectangular(v) for v in inner]  # type: ignore[arg-type]
    if any(p is None for p in parts) or len({p[1] for p in parts}) != 1:  # type: ignore[index]
        return None
    return [leaf for p in parts for leaf in p[0]], (len(parts), *parts[0][1])  # type: ignore[index]


def _bound_name(facts: Facts, move: cst.Call, stmt: cst.CSTNode) -> cst.Name | None:
    """`y` of `y = y.to(d)` or of `x, y = x.to(d), y.to(d)` (the move is the whole value)."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
        return None
    assign = stmt.body[0]
    if len(assign.targets) != 1:
        return None
    target, value = assign.targets[0].target, assign.value
    if value is move and isinstance(target, cst.Name):
        return target
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements):
        for t, v in zip(target.elements, value.elements):
            if v.value is move and isinstance(t.value, cst.Name):
                return t.value
    return None


def _inside(facts: Facts, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    return node is outer or any(a is outer for a in facts.ancestors(node))


# Constructors whose result is always new memory (not `from_numpy` / `as_tensor`, which share it).
_FRESH_FACTORIES = frozenset(f"torch.{name}" for name in (
    "randn", "rand", "randint", "randperm", "normal", "zeros", "ones", "full", "empty", "arange", "linspace",
    "tensor", "eye", "stack", "cat"))


def _host_copy_of(facts: Facts, read: cst.Name) -> tuple[str, cst.Call] | None:
    """`y.cpu().numpy()`, `y.tolist()`, `y.detach().cpu()`...: the read only feeds a host copy."""
    node: cst.CSTNode = read
    while True:
        parent = facts.parent(node)
        call = facts.parent(parent) if isinstance(parent, cst.Attribute) else None
        if not (isinstance(parent, cst.Attribute) and parent.value is node and isinstance(call, cst.Call) and call.func is parent):
            return None
        method = parent.attr.value
        is_to_cpu = method == "to" and len(call.args) == 1 and call.args[0].keyword is None and moves_to_cpu(facts, call)
        if method == "numpy" and not call.args:
            return None  # no `.cpu()` before it: `.numpy()` raises on a device tensor, so `read` is on the host
        if method in ("tolist", "item") and not call.args:
            return method, call
        if (method == "cpu" and not call.args) or is_to_cpu:
            return method, call
        if method in ("detach", "long", "float", "int") and not call.args:
            node = call
            continue
        return None


_CTC_FUNCTIONS = frozenset({"torch.nn.functional.ctc_loss", "torch.ctc_loss"})
_CTC_MODULES = frozenset({"torch.nn.CTCLoss", "torch.nn.modules.loss.CTCLoss"})
_CTC_LENGTH_KEYWORDS = frozenset({"input_lengths", "target_lengths"})


def _ctc_lengths_of(facts: Facts, read: cst.Name) -> tuple[str, cst.Call] | None:
    """`read` is the lengths argument (third or fourth, or `input_lengths=` / `target_lengths=`)
    of `F.ctc_loss(...)` or of a call of a name bound to `nn.CTCLoss(...)`. Any other use, or a
    callee this analysis cannot name (`self.criterion`), is not one."""
    arg = facts.parent(read)
    if not isinstance(arg, cst.Arg) or arg.value is not read or arg.star:
        return None
    call = facts.parent(arg)
    if not isinstance(call, cst.Call) or not _calls_ctc_loss(facts, call.func):
        return None
    index = next(i for i, a in enumerate(call.args) if a is arg)
    if arg.keyword is not None:
        at_lengths = arg.keyword.value in _CTC_LENGTH_KEYWORDS
    else:
        at_lengths = index in (2, 3) and not any(a.keyword is not None or a.star for a in call.args[:index])
    return ("ctc_loss", call) if at_lengths else None


def _calls_ctc_loss(facts: Facts, func: cst.BaseExpression) -> bool:
    if (facts.qualified_name(func) or "") in _CTC_FUNCTIONS:
        return True
    if not isinstance(func, cst.Name):
        return False
    value = facts.value_of(func)
    return isinstance(value, cst.Call) and (facts.qualified_name(value.func) or "") in _CTC_MODULES


def _returns_every_value_moved(owner: Facts, func: cst.FunctionDef, call: cst.Call) -> bool:
    """`func`'s only `return` (through one local name) moves every value of the dict `call`
    passes as its first argument: `return {k: v.to(device) for k, v in batch.items()}`."""
    value = only_return(owner, func)
    params = positional_params(func)
    if isinstance(call.func, cst.Attribute) and params[:1] == ["self"]:
        params = params[1:]
    return isinstance(value, cst.DictComp) and bool(params) and _moves_every_value(owner, value, params[0])


def _moves_every_value(owner: Facts, comp: cst.DictComp, source: str) -> bool:
    """`{k: v.to(device) for k, v in source.items()}`: every value of `source` moved to the device
    (no filter, no nested loop)."""
    if comp.for_in.inner_for_in is not None or comp.for_in.ifs:
        return False
    it, target = comp.for_in.iter, comp.for_in.target
    if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value == "items"
            and isinstance(it.func.value, cst.Name) and it.func.value.value == source
            and isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(target.elements[1].value, cst.Name)):
        return False
    moved = comp.value
    return isinstance(moved, cst.Call) and isinstance(moved.func, cst.Attribute) and moved.func.attr.value in ("to", "cuda") \
        and isinstance(moved.func.value, cst.Name) and moved.func.value.value == target.elements[1].value.value \
        and is_device_move(owner, moved)


def _key_name(entry: cst.Subscript) -> str:
    key = entry.slice[0].slice if len(entry.slice) == 1 else None
    value = key.value if isinstance(key, cst.Index) else None
    return value.evaluated_value if isinstance(value, cst.SimpleString) and str(value.evaluated_value).isidentifier() else "entry"  # type: ignore[return-value]


def _extended(facts: Facts, call: cst.Call) -> bool:
    """`labels.extend(y.cpu().numpy())`: the values are copied into a list."""
    node: cst.CSTNode = call
    parent = facts.parent(node)
    while isinstance(parent, cst.Attribute) and parent.value is node and isinstance(facts.parent(parent), cst.Call):
        node = facts.parent(parent)  # type: ignore[assignment]
        parent = facts.parent(node)
    arg = parent
    outer = facts.parent(arg) if isinstance(arg, cst.Arg) else None
    return isinstance(outer, cst.Call) and isinstance(outer.func, cst.Attribute) and outer.func.attr.value == "extend"


def _int_literal(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) and isinstance(expr.expression, cst.Integer):
        return -int(expr.expression.evaluated_value)
    return None


def _computes(facts: Facts, tensor: cst.BaseExpression) -> bool:
    """The copied tensor is a computation (`model(x)`, `F.softmax(out, 1)`), not a value
    (`out`, `self.h`, `batch[0]`): written a second time, it would run again."""
    return any(isinstance(n, cst.Call) for n in facts.walk(_strip_transparent(tensor, facts)))


def _strip_transparent(expr: cst.BaseExpression, facts: Facts | None = None) -> cst.BaseExpression:
    """The tensor under `.cpu()`, `.detach()`, `.contiguous()` and `.to("cpu")` (with `facts`, also
    `.to(cpu_device)`, a name bound only to the CPU): the same values, on the host."""
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        method = expr.func.attr.value
        is_to_cpu = method == "to" and len(expr.args) == 1 and expr.args[0].keyword is None and (
            isinstance(expr.args[0].value, cst.SimpleString) and expr.args[0].value.evaluated_value == "cpu"
            or facts is not None and moves_to_cpu(facts, expr))
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


_INDEX_CASTS = frozenset({"long", "int", "short"})


def _cast_source(index: cst.BaseExpression) -> cst.BaseExpression:
    """`torch.arange(B).long()` -> `torch.arange(B)`: an integer cast keeps the tensor where it is."""
    while isinstance(index, cst.Call) and isinstance(index.func, cst.Attribute) and index.func.attr.value in _INDEX_CASTS \
            and not index.args:
        index = index.func.value
    return index


def _is_device_of(expr: cst.BaseExpression, name: str) -> bool:
    """`<name>.device`."""
    return isinstance(expr, cst.Attribute) and expr.attr.value == "device" and isinstance(expr.value, cst.Name) \
        and expr.value.value == name


def _returned(facts: Facts, node: cst.CSTNode, func: cst.FunctionDef) -> bool:
    """`node` is (part of) the value of a `return` of `func` itself."""
    for anc in facts.ancestors(node):
        if isinstance(anc, cst.Return):
            return facts.enclosing_function(anc) is func
        if anc is func:
            return False
    return False
