"""`total += loss`: every step's autograd graph stays alive as long as `total` does."""

from __future__ import annotations

import dataclasses

import libcst as cst

from ...model import Fix, Severity
from .. import forward_outputs
from ..facts import Facts, Loop, binds_locally
from ..names import bound_names, named_params, root_name, writes_of
from ..types import Kind
from ._support import append_call, grad_disabled, graph_derived, graph_names, opaque_call, text_call, text_sinks
from ._periodic_reset import periodic_reset
from . import _attribute_totals as attribute_totals
from ._importers import importers_of, read_by_importers
from ._closed_reads import binding_scope, deferred_scope, is_a_name_read, same_without_graph
from .base import Rule, RuleContext

# Methods whose result carries no autograd history.
_DETACHING = frozenset({"detach", "item", "tolist", "numpy", "size", "dim", "numel", "argmax", "argmin"})
_DEPTH = 8
# Methods storing their argument in the object they are called on.
_STORING = frozenset({"append", "extend", "insert", "add", "put", "put_nowait", "setdefault", "update", "appendleft",
                      "__setitem__"})
# Library functions storing an argument in another: `heapq.heappush(best, total)`.
_STORING_FUNCTIONS = frozenset({"builtins.setattr", "operator.setitem", "heapq.heappush", "heapq.heappushpop",
                                "heapq.heapreplace", "bisect.insort", "bisect.insort_left", "bisect.insort_right"})
# Builtins and library functions whose result is (or is built from) their argument itself:
# `self.best = min(self.best, total)` keeps the total with its graph (red team 18).
_HANDING_BACK = frozenset({"builtins.min", "builtins.max", "builtins.sum", "builtins.sorted", "builtins.list",
                           "builtins.tuple", "builtins.abs", "builtins.round", "builtins.pow", "builtins.reversed",
                           "builtins.iter", "builtins.next", "copy.copy", "copy.deepcopy", "functools.reduce"})
# Tensor methods whose result keeps its input's autograd graph: a metric made of them from a
# model's output (`logits.softmax(1).max(1).values.mean()`) requires grad.
_GRAD_KEEPING = frozenset({
    "softmax", "log_softmax", "sigmoid", "tanh", "relu", "exp", "log", "abs", "pow", "square", "sqrt",
    "mean", "sum", "amax", "amin", "norm", "std", "var", "max", "min", "float", "double", "clamp",
})
# Methods returning (values, indices): only the values keep the graph.
_PAIRED = frozenset({"max", "min", "topk", "sort", "median", "kthvalue", "mode"})


# Methods that put their arguments into the receiving container.
_FILLING_METHODS = frozenset({"append", "extend", "insert", "add", "appendleft", "extendleft"})


def _in_place(method: str) -> bool:
    """torch's in-place spelling: `add_`, `mul_`, `copy_` (not a private `_name`)."""
    return method.endswith("_") and not method.startswith("_")


class GraphRetention(Rule):
    id = "graph-retention"
    title = "Loss tensors accumulated with their autograd graphs"
    severity = Severity.HIGH
    explanation = (
        "A tensor computed from a model's output requires grad and references its step's autograd "
        "graph. Adding it to a running total (or appending it to a list) that outlives the step "
        "chains every step's graph onto the total: `backward()` frees the tensors a graph saved but "
        "not its nodes, and a value that was never back-propagated (a metric computed with grad) "
        "keeps its saved activations too. Memory grows with every iteration (about 7 KB per step for "
        "a backpropagated loss, 48 KB for a small softmax metric, measured here), and `total.backward()` "
        "would walk all of it. `.detach()` keeps the value, on the device and without a sync."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._returns: dict[cst.CSTNode, list[cst.BaseExpression]] = {}  # scope -> the values it returns
        self._graph_questions: list[cst.Attribute] | None = None  # `x.requires_grad` / `.grad_fn` / `.is_leaf`

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)) and isinstance(node.target, cst.Name):
            self._accumulation(node, node.target.value, node.value)
        elif isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)) and _self_attribute(node.target):
            self._attribute_accumulation(node, node.target, node.value)  # type: ignore[arg-type]

    def _attribute_accumulation(self, node: cst.AugAssign, target: cst.Attribute, added: cst.BaseExpression) -> None:
        """`self.current_loss -= loss` in the training loop, `loss` back-propagated there: the
        total on the object keeps every step's graph. Silent when the loop binds the attribute
        afresh each step, or when any read of it (or of an attribute it is folded into) may reach
        a backward. The `.detach()` is always left to review: the attribute is read elsewhere
        (logged as a tensor, its text loses `grad_fn=<...>`) and callers in other files are unseen."""
        loop = self.facts.iteration_loop(node)
        if loop is None or not self.facts.in_training(node) or grad_disabled(self.facts, node):
            return
        attr = target.attr.value
        if attribute_totals.rebound_each_step(self.facts, loop, attr, node):
            return
        held = attribute_totals.holders(self.facts, attr)
        found = attribute_totals.reads(self.facts, held, self.facts.statement_of(node))
        if attribute_totals.reaches_backward(self.facts, found, self._may_backward):
            return
        leaves = self._graph_leaves(loop, added)
        if not leaves:
            return
        edits = tuple(edit for leaf in leaves for edit in append_call(self.facts, leaf, "detach"))
        shown = self.facts.statement_of(node).visit(_Detach(leaves))
        parts = shown.body if isinstance(shown, cst.SimpleStatementLine) else (shown,)
        new_code = "; ".join(self.facts.module.code_for_node(p) for p in parts)
        names = ", ".join(f"`{self.facts.code(leaf)}`" for leaf in leaves)
        kept = ", ".join(f"`self.{h}`" for h in sorted(held))
        lines = sorted({self.facts.position(n).start.line for n in found})
        self.report(
            node,
            f"adding {names} to `self.{attr}` chains every step's autograd graph onto the object's "
            "running total: its nodes, and any tensors they saved that no backward freed, stay alive until "
            "the attribute is reset, so memory grows with every iteration; `.detach()` keeps the value "
            "without the graph (and, unlike `.item()`, without a sync)",
            fix=Fix(description=f"detach before accumulating: `{new_code}`", edits=edits, suggestion=new_code,
                    review=(f"{kept} is read elsewhere (line(s) {', '.join(map(str, lines)) or 'none here'}) and "
                            "maybe by callers in other files: check that none back-propagates through it; a tensor "
                            "printed from it loses `grad_fn=<...>` in its text")),
        )

    def _graph_leaves(self, loop: Loop, added: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The parts of `added` that carry a step's autograd graph (see `_accumulation`)."""
        backwarded = self._backwarded_in(loop)
        backwarded |= self._loss_terms(loop, backwarded)
        leaves: list[cst.BaseExpression] = [
            leaf for leaf in _leaves(added)
            if (isinstance(leaf, cst.Name) and (leaf.value in backwarded or self._bound_to_step_loss(leaf)))
            or self._carries_graph(leaf, _DEPTH)]
        leaves += [call for call in _called(added)
                   if self._returns_backwarded_loss(call) or self._metric_with_graph(call, _DEPTH)]
        return leaves

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if (
            len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
            and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract))
            and isinstance(value.left, cst.Name) and value.left.value == node.targets[0].target.value
        ):
            self._accumulation(node, value.left.value, value.right)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if (
            isinstance(func, cst.Attribute) and func.attr.value == "append" and len(node.args) == 1
            and isinstance(func.value, cst.Name)
        ):
            self._accumulation(node, func.value.value, node.args[0].value, container=func.value)
        elif isinstance(func, cst.Attribute) and func.attr.value == "append" and len(node.args) == 1 \
                and _self_attribute(func.value):
            self._kept_on_self(node, func.value, node.args[0].value)  # type: ignore[arg-type]

    def _kept_on_self(self, node: cst.Call, kept: cst.Attribute, added: cst.BaseExpression) -> None:
        """`self.preds.append(pred)` in a training loop, `pred` a model output of the step's
        forward helper or the loss the loop back-propagates: the list on the object keeps every
        step's graph. Silent if any read of the
        list may reach a backward; any other read leaves the `.detach()` to review."""
        loop = self.facts.iteration_loop(node)
        if loop is None or not self.facts.in_training(node) or grad_disabled(self.facts, node):
            return
        if not isinstance(added, cst.Name):
            return
        # the model's output of a forward helper, or the step's loss itself (its `.backward()` is
        # called in the loop: truth67's trainer keeping `self.history.append(loss)`)
        output = self._helper_model_output(added)
        if not output and added.value not in self._backwarded_in(loop):
            return
        attr = kept.attr.value
        reads = [n for n in self.facts.walk(self.facts.module) if isinstance(n, cst.Attribute) and n.attr.value == attr
                 and not _written(self.facts, n)]
        others = [n for n in reads if not _appended_to(self.facts, n) and not self._counted(n)]
        if any(self._may_backward(self.facts.statement_of(n)) for n in others):
            return
        new_code = self.facts.module.code_for_node(node.visit(_Detach([added])))
        what = (f"appending `{added.value}` (the model's output) to `self.{attr}` keeps every step's autograd "
                "graph alive on the object: its nodes and saved activations stay until the list is cleared, "
                "so memory grows with every iteration; `.detach()` keeps the value without the graph") if output else (
                f"appending `{added.value}` (the loss back-propagated in this loop) to `self.{attr}` keeps every "
                "step's autograd graph alive on the object: its nodes, and any tensors they saved that no "
                "backward freed, stay until the list is cleared, so memory grows with every iteration; "
                "`.detach()` keeps the value without the graph (and, unlike `.item()`, without a sync)")
        self.report(
            node,
            what,
            fix=Fix(description=f"detach before keeping it: `{new_code}`",
                    edits=tuple(append_call(self.facts, added, "detach")), suggestion=new_code,
                    review=(f"`self.{attr}` is read elsewhere ({len(others)} place(s)): check that none of "
                            "them back-propagates through it or asks for its gradients") if others else ""),
        )

    def _counted(self, node: cst.Attribute) -> bool:
        """`len(self.preds)`: only the list's length is read."""
        arg = self.facts.parent(node)
        call = self.facts.parent(arg) if isinstance(arg, cst.Arg) else None
        return isinstance(call, cst.Call) and (self.facts.qualified_name(call.func) or "") == "builtins.len"

    def _helper_model_output(self, name: cst.Name) -> bool:
        """`pred` of `pred, true = self._process_one_batch(...)`, where that helper is the training
        step's forward pass and returns, in `pred`'s place, the value of its `self.model(...)` call."""
        d = self.facts._reaching_def(name)
        if d is None or d.unpacked is None:
            return False
        call, index, n = d.unpacked
        helpers: set = getattr(self.facts, "_forward_helpers", set())
        callees = self.facts._callees(call)
        if not callees or not all(f in helpers and self.facts.owner_of(f) is self.facts for f in callees):
            return False
        for func in callees:
            returns = [r for r in self.facts.walk(func.body) if isinstance(r, cst.Return)
                       and self.facts.enclosing_function(r) is func]
            for r in returns or [None]:
                value = r.value if r is not None else None
                if not isinstance(value, cst.Tuple) or len(value.elements) != n \
                        or not _own_model_call(self.facts, func, value.elements[index].value):
                    return False
        return True

    def _may_backward(self, stmt: cst.CSTNode) -> bool:
        """The statement back-propagates, returns, or binds a name that reaches a backward."""
        if isinstance(stmt, cst.Return) or any(isinstance(n, cst.Return) for n in self.facts.walk(stmt)):
            return True
        for c in self.facts.calls_in(stmt):
            if isinstance(c.func, cst.Attribute) and c.func.attr.value in ("backward", "requires_grad_", "register_hook") \
                    or (self.facts.qualified_name(c.func) or "").startswith("torch.autograd."):
                return True
        if any(isinstance(n, cst.Attribute) and n.attr.value in ("grad_fn", "requires_grad", "grad")
               for n in self.facts.walk(stmt)):
            return True
        bound = {name for n in self.facts.walk(stmt) if isinstance(n, (cst.Assign, cst.AugAssign))
                 for t in (n.targets if isinstance(n, cst.Assign) else [n]) for name in bound_names(t.target)}
        return bool(bound & self._backward_names) or not isinstance(stmt, cst.SimpleStatementLine)

    def _accumulation(self, node: cst.CSTNode, total: str, added: cst.BaseExpression,
                      container: cst.Name | None = None) -> None:
        """`total += added`, or `container.append(added)` (then `total` is the container's name)."""
        appended = container is not None
        loop = self.facts.iteration_loop(node)
        if loop is None or not self.facts.in_training(node) or grad_disabled(self.facts, node):
            return
        if not appended and self._fresh_per_call(node, total):
            return  # `h = h + t_emb` in a block's `forward`: a local of one call, not a running total
        if total in self._reset_each_step(loop, node) or total in self._backward_names:
            return  # a per-step sum (`loss = 0; loss += l; loss.backward()`) must keep its graph
        backwarded = self._backwarded_in(loop)
        backwarded |= self._loss_terms(loop, backwarded)
        leaves = [leaf for leaf in _leaves(added)
                  if (isinstance(leaf, cst.Name) and (leaf.value in backwarded or self._bound_to_step_loss(leaf)))
                  or self._carries_graph(leaf, _DEPTH)]
        leaves = [leaf for leaf in leaves if not (isinstance(leaf, cst.Name) and self._rebound_without_graph(loop, leaf))]
        leaves += [call for call in _called(added)
                   if self._returns_backwarded_loss(call) or self._metric_with_graph(call, _DEPTH)]
        if not leaves or (container is not None and self.facts.kind(container) not in (Kind.LIST, Kind.UNKNOWN)):
            return
        edits = tuple(edit for leaf in leaves for edit in append_call(self.facts, leaf, "detach"))
        shown = (node if appended else self.facts.statement_of(node)).visit(_Detach(leaves))
        parts = shown.body if isinstance(shown, cst.SimpleStatementLine) else (shown,)
        new_code = "; ".join(self.facts.module.code_for_node(p) for p in parts)
        names = ", ".join(f"`{self.facts.code(leaf)}`" for leaf in leaves)
        review = self._graph_seen(total, node)
        if not review:
            review = self._maybe_not_a_tensor(loop, leaves)
        stepped = [leaf for leaf in leaves if isinstance(leaf, cst.Name) and self._bound_to_step_loss(leaf)]
        if not review and self._returned(total, node) and (stepped or not self._callers_read_a_number(node)):
            review = (f"`{total}` is returned: a caller that prints it as a tensor shows `grad_fn=<...>` before the "
                      "rewrite, not after, and one that back-propagates through it loses the graph")
        if not review:
            review = self._callers_own(total, node)
        if not review:
            review = self._kept_elsewhere(total, node)
        if not review:
            review = self._read_by_later_cell(total, node)
        if not review:
            review = self._read_by_importer(total, node)
        if not review:
            review = self._unproved_read(total, node, bool(stepped))
        how = f"appending {names} to `{total}`" if appended else f"adding {names} to `{total}`"
        self.report(
            node,
            f"{how} chains every step's autograd graph onto `{total}`: its nodes, and any tensors they "
            "saved that no backward freed, stay alive, so memory grows with every iteration; `.detach()` "
            "keeps the value without the graph (and, unlike `.item()`, without a sync)",
            fix=Fix(description=f"detach before accumulating: `{new_code}`", edits=edits, suggestion=new_code,
                    review=review),
        )

    def _rebound_without_graph(self, loop: Loop, name: cst.Name) -> bool:
        """`loss = 0.0; with torch.no_grad(): for b in val: loss = crit(...)`, then `history.append(loss)`
        in the epoch loop (public check 59, a super-resolution script's periodic validation): the
        name the training steps back-propagate is bound again before it is kept, by a plain
        assignment of a block the read is in (it runs whenever the read does), and that binding and
        every one that may reach the read after it (in between, or in a loop entered since) carry
        no graph: a number, a detaching call, or any value computed with autograd off. One binding
        that may reach with autograd on (a branch, a loop that may not run, a later plain
        assignment) and the name is kept as it was: possibly the step's loss with its graph."""
        stmt = self.facts.statement_of(name)
        dominator: cst.CSTNode | None = None
        child: cst.CSTNode = stmt
        for anc in self.facts.ancestors(stmt):
            if anc is loop.node:
                break
            if isinstance(anc, cst.IndentedBlock):
                before = []
                for s in anc.body:
                    if s is child:
                        break
                    before.append(s)
                dominator = next((b for b in map(lambda s: _last_plain_binding(s, name.value), reversed(before))
                                  if b is not None), None)
                if dominator is not None:
                    break
            child = anc
        if dominator is None:
            return False
        start, end = self.facts.order(dominator), self.facts.order(stmt)
        entered = [anc for anc in self.facts.ancestors(stmt) if isinstance(anc, (cst.For, cst.While))
                   and self.facts.order(anc) > start and self.facts.contains(loop.node, anc)]
        for n in self.facts.walk(loop.node.body, into_scopes=False):
            if name.value not in _names_bound_by(n):
                continue
            at = self.facts.order(n)
            if not (start <= at < end or any(self.facts.contains(inner, n) for inner in entered)):
                continue
            if not self._graph_free_binding(n):
                return False
        return True

    def _graph_free_binding(self, n: cst.CSTNode) -> bool:
        """A binding whose value has no autograd graph: a plain assignment of a number, of a
        detaching call (`.item()`, `.detach()`), or of anything under `no_grad` / `inference_mode`."""
        if not isinstance(n, (cst.Assign, cst.AnnAssign)) or n.value is None:
            return False
        if grad_disabled(self.facts, n):
            return True
        value = n.value
        if isinstance(value, cst.UnaryOperation):
            value = value.expression
        if isinstance(value, (cst.Integer, cst.Float)):
            return True
        return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _DETACHING

    def _unproved_read(self, total: str, node: cst.CSTNode, stepped: bool) -> str:
        """The final gate (closed world): every read of `total` after the change, and of each name
        bound to a tensor derived from it, must be one `same_without_graph` lists (a number format,
        `.item()`, `float()`, a comparison, arithmetic whose result is checked the same way, a
        return to callers that all read a number): in the accumulating function (closures in it
        included), or, for a global, anywhere in this unit and in the functions of earlier cells
        (their top level ran before; later cells are `_read_by_later_cell`'s). The first read not
        on the list is named, and the `.detach()` is left to review."""
        func = self.facts.enclosing_function(node)
        home = func if func is not None and binds_locally(func, total) else None
        returned = lambda: not stepped and self._callers_read_a_number(node)  # noqa: E731
        units = [self.facts] + ([] if home is not None else self.facts.prior.units())
        pending: list[tuple[Facts, str, cst.CSTNode | None]] = [(unit, total, home) for unit in units]
        seen: set[tuple[int, str, int]] = set()
        while pending:
            unit, name, scope = pending.pop(0)
            if (id(unit), name, id(scope)) in seen:
                continue
            seen.add((id(unit), name, id(scope)))
            found: list[tuple[str, cst.CSTNode]] = []
            for n in unit.uses(name):
                if unit is self.facts and self.facts.contains(node, n) or not is_a_name_read(unit, n) \
                        or binding_scope(unit, n, name) is not scope:
                    continue  # the accumulation itself, or another variable of the same spelling
                if unit is not self.facts and deferred_scope(unit, n, None) is None:
                    continue  # an earlier cell's top level: it ran before
                found.clear()
                if not same_without_graph(unit, n, lambda bound, at: found.append((bound, at)), returned):
                    where = "" if unit is self.facts else " of an earlier cell"
                    return (f"line {unit.position(n).start.line}{where} reads `{name}` "
                            f"(`{unit.code(unit.statement_of(n)).strip().splitlines()[0]}`) in a way not proved to give "
                            "the same result without the graph (proved: a number format, `.item()`, `float()`, a "
                            "comparison, arithmetic checked the same way)")
                pending += [(unit, bound, binding_scope(unit, at, bound)) for bound, at in found]
        return ""

    def _fresh_per_call(self, node: cst.CSTNode, total: str) -> bool:
        """`h = h + self.time_mlp(t)` in a residual block's `forward`, which the loop runs once per
        step through the model call: `h` is a local of that call, bound anew each time, so it
        cannot carry one step's graph into the next (the graph it holds is the forward's own, and
        detaching it would cut the gradient). Not when the statement sits in a loop of its own
        function (a running total over that loop), for a `global`/`nonlocal` name, nor for
        `acc += x` on a parameter (an in-place add on the caller's tensor)."""
        if self.facts.enclosing_loops(node):
            return False
        func = self.facts.enclosing_function(node)
        if func is None:
            return False
        declared = {name.name.value for n in self.facts.walk(func.body, into_scopes=False)
                    if isinstance(n, (cst.Global, cst.Nonlocal)) for name in n.names}
        if total in declared:
            return False
        params = func.params
        names = named_params(params)
        names |= {p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)}
        return total not in names or isinstance(node, cst.Assign)

    def _graph_seen(self, total: str, node: cst.CSTNode) -> str:
        """Why detaching may change what the program shows ('' if nothing says so): `total` is
        printed or formatted as a tensor (its text shows `grad_fn=<...>` only with the graph), or
        asked whether it has one (`total.requires_grad`, `history[0].grad_fn`)."""
        inside = set(self.facts.walk(node))
        derived = graph_derived(self.facts, {total}, self.facts.module)
        for shown in text_sinks(self.facts, self.facts.module):
            if shown not in inside and graph_names(self.facts, shown) & derived:
                return (f"line {self.facts.position(shown).start.line} prints `{self.facts.code(shown)}` as a tensor: "
                        "its text shows `grad_fn=<...>` before the rewrite, not after")
        if self._graph_questions is None:
            self._graph_questions = [n for n in self.facts.walk(self.facts.module) if isinstance(n, cst.Attribute)
                                     and n.attr.value in ("requires_grad", "grad_fn", "is_leaf")]
        for n in self._graph_questions:
            if root_name(n.value) == total:
                return (f"line {self.facts.position(n).start.line} reads `{self.facts.code(n)}`, which the rewrite "
                        "changes")
        return ""

    def _reset_each_step(self, loop: Loop, node: cst.CSTNode) -> set[str]:
        """Names bound afresh by a plain assignment in the loop body: they do not outlive a step.
        Not one under an `if` that does not also hold the accumulation `node` (`if count >= 10:
        loss_sum = 0`, public28 p01): that reset is periodic, and the total carries the graphs of
        every step in between."""
        reset: set[str] = set()
        for n in self.facts.walk(loop.node.body, into_scopes=False):
            if isinstance(n, cst.Assign) and not periodic_reset(self.facts, n, loop.node, node):
                value = n.value
                for target in n.targets:
                    if isinstance(target.target, cst.Name) and not (
                        isinstance(value, cst.BinaryOperation) and isinstance(value.left, cst.Name)
                        and value.left.value == target.target.value
                    ):
                        reset.add(target.target.value)
        return reset

    @property
    def _backward_names(self) -> set[str]:
        """Names whose value reaches a `.backward()` (or `torch.autograd.grad`) in the unit."""
        cached = getattr(self, "_backward_cache", None)
        if cached is not None:
            return cached
        names: set[str] = set()
        calls = self.facts.calls_in(self.facts.module)
        for call in calls:
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value == "backward":
                names |= self.facts.names_read(call)  # `loss.backward()`, `accelerator.backward(loss)`
                # `[t.backward() for t in (fit_sum, reg_sum)]`: what the comprehension iterates
                for comp in self.facts.ancestors(call):
                    if isinstance(comp, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                        clause: cst.CompFor | None = comp.for_in
                        while clause is not None:
                            names |= self.facts.names_read(clause.iter)
                            clause = clause.inner_for_in
            elif opaque_call(self.facts, call):  # `finish(total)`, `getattr(total, "backward")()`
                names |= set().union(*(self.facts.names_read(a.value) for a in call.args)) \
                    | (self.facts.names_read(func) if isinstance(func, cst.Call) else set())
            elif (self.facts.qualified_name(func) or "").startswith("torch.autograd.") and call.args:
                names |= self.facts.names_read(call.args[0].value)
        # what flows into a name: every binding of it (`x = v`, `a, b = v`, `x += v`, `for x in v`,
        # `with v as x`, `(x := v)`: red team 32a, `for term in (mse_sum / n, ...): term.backward()`),
        # what callers pass for a parameter, what a function returns
        flows: dict[str, list[cst.BaseExpression]] = {}
        for n in self.facts.walk(self.facts.module):
            for target, value in _bindings(n):
                for name in bound_names(target):
                    flows.setdefault(name, []).append(value)
            if isinstance(n, cst.Return) and n.value is not None:
                func = self.facts.enclosing_function(n)
                if func is not None:
                    flows.setdefault(func.name.value, []).append(n.value)
        for call in calls:
            receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
            method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
            if isinstance(receiver, cst.Name) and (method in _FILLING_METHODS or _in_place(method)):
                # `value_losses.append(F.smooth_l1_loss(value, R))` ... `torch.stack(value_losses).sum().backward()`:
                # what is put into a container flows into it as surely as a binding (an A2C's kept values);
                # so does the operand of an in-place op (`total.add_(balance)` ... `total.backward()`)
                flows.setdefault(receiver.value, []).extend(a.value for a in call.args)
            callee = call.func.value if isinstance(call.func, cst.Name) else None
            func = self.facts.functions.get(callee) if callee else None
            if func is not None:
                params = [p.name.value for p in func.params.params]
                for i, arg in enumerate(call.args):
                    param = arg.keyword.value if arg.keyword else params[i] if i < len(params) and not arg.star else None
                    if param is not None:
                        flows.setdefault(param, []).append(arg.value)
        work = list(names)
        while work:
            for value in flows.get(work.pop(), ()):
                for name in self.facts.names_read(value) - names:
                    names.add(name)
                    work.append(name)
        self._backward_cache = names
        return names

    def _backwarded_in(self, loop: Loop) -> set[str]:
        """Names the loop calls `.backward()` on: they require grad, whatever built them."""
        return {c.func.value.value for c in self.facts.calls_in(loop.node.body)  # type: ignore[attr-defined]
                if isinstance(c.func, cst.Attribute) and c.func.attr.value == "backward" and isinstance(c.func.value, cst.Name)}

    def _maybe_not_a_tensor(self, loop: Loop, leaves: list[cst.BaseExpression]) -> str:
        """Why `.detach()` may meet a value that is not a tensor ('' if none): a name taken for a
        tensor only because the loop calls `.backward()` on it, where every such call sits under a
        branch (`if torch.is_tensor(loss): loss.backward()`, red team 29b: a `training_step` that
        returns `0.0` for a batch with nothing to learn). On the steps the branch skips the name
        may hold a Python number, which has no `.detach()`; an unconditional backward would have
        failed on it already."""
        for leaf in leaves:
            if not isinstance(leaf, cst.Name) or self._bound_to_step_loss(leaf) or self._carries_graph(leaf, _DEPTH):
                continue
            calls = [c for c in self.facts.calls_in(loop.node.body)
                     if isinstance(c.func, cst.Attribute) and c.func.attr.value == "backward"
                     and isinstance(c.func.value, cst.Name) and c.func.value.value == leaf.value]
            if calls and all(self._under_branch(c, loop, leaf.value) for c in calls):
                return (f"`{leaf.value}` is back-propagated only under a branch (line "
                        f"{self.facts.position(calls[0]).start.line}): on the steps it skips, `{leaf.value}` may not "
                        "be a tensor (a step that returned a number), and `.detach()` would fail on it")
        return ""

    def _under_branch(self, node: cst.CSTNode, loop: Loop, name: str) -> bool:
        """`node` (a backward of `name`) may be skipped on a step of `loop` that still reaches the
        accumulation with `name` bound: an `if`/`try`/`match`, a conditional expression or a
        short-circuit `and`/`or` lies between them. An inner loop does not count when it holds
        every binding of `name` in the scope (the WGAN critic's `for _ in range(n_critic):`
        binding and back-propagating `d_loss`): whatever value `name` has after it was
        back-propagated, or it is unbound."""
        for anc in self.facts.ancestors(node):
            if anc is loop.node:
                return False
            if isinstance(anc, (cst.For, cst.While)) and self._binds_only_inside(anc, loop, name):
                continue
            if isinstance(anc, (cst.If, cst.IfExp, cst.Try, cst.TryStar, cst.Match, cst.BooleanOperation, cst.For,
                                cst.While, cst.FunctionDef, cst.Lambda)):
                return True
        return False

    def _binds_only_inside(self, inner: cst.For | cst.While, loop: Loop, name: str) -> bool:
        """Every binding of `name` in the scope of `loop` lies in the body of `inner` (at least one)."""
        scope = loop.function.body if loop.function is not None else self.facts.module
        inside = set(self.facts.walk(inner.body))
        binds = [n for n in self.facts.walk(scope)
                 if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr))
                 and name in self.facts.names_written(n)]
        innermost = [n for n in binds if not any(m is not n and m in set(self.facts.walk(n)) for m in binds)]
        return bool(innermost) and all(n in inside for n in innermost)

    def _loss_terms(self, loop: Loop, backwarded: set[str]) -> set[str]:
        """Tensors added into a loss the loop back-propagates (`loss = ce + 0.01 * aux`, where
        `logits, aux, counts = model(x)`): a term of a differentiated sum requires grad."""
        owner = loop.facts  # the loop may be another unit's (a helper here, called from its loop)
        terms: set[str] = set()
        outputs: set[str] = set()  # names unpacked from a model's call in the loop
        body = list(owner.walk(loop.node.body, into_scopes=False))
        for n in body:
            if isinstance(n, cst.Assign) and isinstance(n.value, cst.Call) and owner.kind(n.value.func) is Kind.MODULE:
                outputs |= {name for t in n.targets for name in bound_names(t.target)}
        for n in body:
            if isinstance(n, cst.Assign) and isinstance(n.value, cst.BinaryOperation) \
                    and any(isinstance(t.target, cst.Name) and t.target.value in backwarded for t in n.targets):
                terms |= {leaf.value for leaf in _leaves(n.value) if isinstance(leaf, cst.Name)
                          and (leaf.value in outputs or owner.kind(leaf) is Kind.TENSOR)}
        return terms

    def _returns_backwarded_loss(self, call: cst.Call, element: tuple[int, int] | None = None) -> bool:
        """`self.training_step(batch)` whose every `return` is a name that function called
        `.backward()` on (a Trainer's step: `loss.backward(); return loss`): a tensor with its graph.
        With `element` (index, length), the call's result is unpacked (`loss, h = train(data)`):
        every `return` is then a tuple of that length whose element at the index is such a name."""
        callees = self.facts._callees(call)
        for func in callees:
            owner = self.facts.owner_of(func)
            body = list(owner.walk(func.body, into_scopes=False))
            backwarded = _still_backwarded(owner, body)
            returns = [n for n in body if isinstance(n, cst.Return)]
            # an early exit (`if self("before_forward"): return`) hands back no tensor at all
            valued = [r.value for r in returns if r.value is not None and not _none(r.value)]
            if element is not None:
                valued = [_element(v, *element) for v in valued]
            if not valued or not all(v is not None and _backwarded_sum(v, backwarded) for v in valued):
                return False
        return bool(callees)

    def _returned(self, total: str, node: cst.CSTNode) -> bool:
        """`return total / n` in the function that accumulates it: its readers are the callers'."""
        func = self.facts.enclosing_function(node)
        scope = func.body if func is not None else self.facts.module
        if scope not in self._returns:  # (asked once per accumulation: a long cell has many)
            self._returns[scope] = [n.value for n in self.facts.walk(scope, into_scopes=False)
                                    if isinstance(n, cst.Return) and n.value is not None]
        return any(isinstance(m, cst.Name) and m.value == total and not self._as_number(m)
                   for value in self._returns[scope] for m in self.facts.walk(value))

    def _callers_own(self, total: str, node: cst.CSTNode) -> str:
        """Why the total's readers are out of sight ('' if not): it is a parameter of the function
        accumulating it (`history.append(loss)` into the list a caller handed in, red team 29b): the
        caller keeps it and may print it as a tensor or back-propagate through it, as for a returned total."""
        func = self.facts.enclosing_function(node)
        if not isinstance(func, cst.FunctionDef):
            return ""
        params = func.params
        names = named_params(params)
        names |= {p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)}
        if total not in names:
            return ""
        for n in self.facts.walk(func.body):  # `history = []` first: the function's own list, not the caller's
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else \
                [n.target] if isinstance(n, (cst.AnnAssign, cst.For, cst.NamedExpr)) else []
            if any(total in bound_names(t) for t in targets):
                return ""
        return (f"`{total}` is handed in by the caller of `{func.name.value}`: what it holds is read there (printed "
                "as a tensor, asked for `grad_fn`, back-propagated through), which the rewrite changes")

    def _as_number(self, name: cst.Name) -> bool:
        """`total.item()`, `total.detach()`, `float(total)`: what is returned holds no graph."""
        parent = self.facts.parent(name)
        if isinstance(parent, cst.Attribute):
            return parent.value is name and parent.attr.value in _DETACHING \
                and isinstance(self.facts.parent(parent), cst.Call)
        outer = self.facts.parent(parent) if isinstance(parent, cst.Arg) else None
        return isinstance(outer, cst.Call) and (self.facts.qualified_name(outer.func) or "") in ("builtins.float", "builtins.int")

    def _callers_read_a_number(self, node: cst.CSTNode) -> bool:
        """Every call of the function returning the total is seen (in this unit, or another unit's
        per-iteration call) and its result becomes a number at once (`trainer.train(data).item()`,
        `float(run(...))`) or is bound to a name read only that way (`avg = train_epoch(...)`, then
        `avg.item()`): no caller can print it as a tensor, ask `requires_grad` / `grad_fn`, or
        back-propagate through it (red team 17: `ret = Returner().train(data); ret.requires_grad`).
        Unseen callers (none found) leave the detach to review."""
        func = self.facts.enclosing_function(node)
        if func is None:
            return False
        units = [self.facts] + [owner for owner, _ in self.facts.per_iteration_call_sites(func)]
        sites: list[tuple[Facts, cst.Call]] = []
        for unit in dict.fromkeys(units):  # every call in each unit seen calling it, not only those in loops
            sites += [(unit, c) for c in unit.calls_in(unit.module) if func in unit._callees(c)]
        sites += [s for s in self.facts.per_iteration_call_sites(func) if s not in sites]
        return bool(sites) and all(_read_as_number(owner, call) or _bound_then_read_as_number(owner, call)
                                   for owner, call in sites)

    def _kept_elsewhere(self, total: str, node: cst.CSTNode) -> str:
        """Another holder of the total itself, in the accumulating scope: a container or object it
        is stored into (`self.history.append(running)`, `self.hist += [total]`, `{"loss": total}`,
        `setattr(self, "last", total)`, `self.best = total`), a program function handed it (which
        may keep it), a closure reading it, a `yield`, an alias read later. Whoever reads that
        holder may print it as a tensor, ask `requires_grad` / `grad_fn`, or back-propagate
        through it (red team 17). A value derived from it through which its graph passes
        (`history.append(total / (k + 1))`, `avg = total / n` then `logs.append(avg)`,
        `self.scaled = total * 2`, `yield total * 1.0`) is held the same way (red team 18)."""
        func = self.facts.enclosing_function(node)
        scope = func.body if func is not None else self.facts.module
        derived = graph_derived(self.facts, {total}, scope)
        uses = sorted((n for name in derived for n in self.facts.uses(name) if self.facts.contains(scope, n)),
                      key=self.facts.order)
        for n in uses:
            if self._holds_total(n, scope, n.value != total):
                what = f"`{total}` itself" if n.value == total else f"`{n.value}` (derived from `{total}`)"
                return (f"line {self.facts.position(n).start.line} keeps {what} where another name, "
                        "object or closure holds it: a reader there may print it as a tensor, ask `requires_grad` / "
                        "`grad_fn`, or back-propagate through it, which the rewrite changes")
        return ""

    def _read_by_later_cell(self, total: str, node: cst.CSTNode) -> str:
        """A later cell of the notebook reads the global `total` (the running sum, or the list of
        losses) other than as a number (`total.item()`, `float(total)`): the cells after this one
        run on what it leaves, and may print it as a tensor, ask for its graph or back-propagate
        through it (red team 27: `print(step_losses[-1])`, `epoch2.grad_fn`, `confidence[-1].backward()`
        two cells down, a `fit()` helper's global history read by the next cell)."""
        func = self.facts.enclosing_function(node)
        if func is not None and binds_locally(func, total):
            return ""  # a local of its function: a later cell's `total` is another variable
        for later in self.facts.later:
            # only for a training cell's own top level: a function filling the global may be called
            # again after the rebinding (`history = []` then `fit()`), and fill the new value too
            rebound = _top_level_rebinding(later, total) if func is None else None
            for n in later.uses(total):
                if rebound is not None and later.order(_top_statement(later, n)) > later.order(rebound):
                    continue  # `total = 0.0` at the top of this cell ran first: the read sees the new value
                parent = later.parent(n)
                if isinstance(parent, cst.Attribute) and parent.attr is n or isinstance(parent, cst.Arg) and parent.keyword is n:
                    continue  # `obj.total`, `f(total=...)`: other names
                if isinstance(parent, cst.AssignTarget) or _read_as_number(later, n) or _number_read(later, n):
                    continue  # `total = 0.0` again, `total.item()`, `float(total)`, `type(total).__name__`
                return (f"a later cell reads `{total}` (line {later.position(n).start.line} of that cell: "
                        f"`{later.code(later.statement_of(n)).strip().splitlines()[0]}`): it may print it as a tensor, "
                        "ask for its graph or back-propagate through it, which the rewrite changes")
            if rebound is not None:
                return ""  # the training cell's value is gone for every cell after this one
        return ""

    def _read_by_importer(self, total: str, node: cst.CSTNode) -> str:
        """A global of a `.py` module (`HISTORY.append(loss)` in its function, `global RUNNING`) is
        read by the files importing it, out of sight when the module is fixed on its own (red team
        30b: `print(metrics.HISTORY[-1])` lost its `grad_fn`): review where an importer in the
        project mentions the name, or where the function filling it is called by no code in sight."""
        if self.ctx.ref.cell is not None:
            return ""  # a notebook: its later cells are read by `_read_by_later_cell`
        func = self.facts.enclosing_function(node)
        if func is not None and binds_locally(func, total):
            return ""
        why = read_by_importers(self.ctx.ref.path, total)
        if why or func is None:
            return why
        if not importers_of(self.ctx.ref.path) and any(func in self.facts._callees(c) for c in self.facts.calls_in(self.facts.module)):
            return ""  # a script calling its own function: the global is its own
        return (f"`{total}` is a global of this module filled by `{getattr(func, 'name', None) and func.name.value}`, "
                "which code out of sight calls (an importer): it may read the global as a tensor, which the rewrite changes")

    def _graph_carrier(self, n: cst.Name) -> cst.BaseExpression:
        """The outermost expression around `n` through which its autograd graph passes: arithmetic
        (`total / (k + 1)`), indexing, a tensor method that keeps the graph (`total.unsqueeze(0)`,
        not `.item()` / `.detach()`), a `torch.*` function taking it (`torch.stack([total])`), a
        builtin handing it back (`min(best, total)`, `sum([total, 0])`, `copy.copy(total)`)."""
        value: cst.BaseExpression = n
        while True:
            parent = self.facts.parent(value)
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)) \
                    or isinstance(parent, cst.Subscript) and parent.value is value:
                value = parent
                continue
            if isinstance(parent, cst.Attribute) and parent.value is value:
                call = self.facts.parent(parent)
                if isinstance(call, cst.Call) and call.func is parent and parent.attr.value not in _DETACHING:
                    value = call
                    continue
                return value
            while isinstance(parent, (cst.Element, cst.List, cst.Tuple)):
                parent = self.facts.parent(parent)
            if isinstance(parent, cst.Arg) and parent.keyword is None:
                call = self.facts.parent(parent)
                qualified = self.facts.qualified_name(call.func) or "" if isinstance(call, cst.Call) else ""
                if qualified.startswith("torch.") and not qualified.startswith("torch.save") \
                        or qualified in _HANDING_BACK:
                    value = call
                    continue
            return value

    def _holds_total(self, n: cst.Name, scope: cst.CSTNode, derived_name: bool = False) -> bool:
        """`n` (a use of the total, or of a name derived from it) hands the tensor, or a value
        keeping its graph, to something that outlives the statement. A derived value bound to a
        plain name is not a holder: `graph_derived` follows that name to its own uses."""
        parent = self.facts.parent(n)
        if isinstance(parent, cst.Attribute) and parent.attr is n:
            return False  # `obj.total`: another name
        if isinstance(parent, cst.Arg) and parent.keyword is n:
            return False  # `f(total=...)`: a keyword's name
        for anc in self.facts.ancestors(n):
            if anc is scope:
                break
            if isinstance(anc, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
                # a closure (or a nested def) reading the total whenever it runs; not one binding its own
                return not (isinstance(anc, (cst.FunctionDef, cst.Lambda)) and binds_locally(anc, n.value))
        carrier = self._graph_carrier(n)
        followed = derived_name or carrier is not n  # a derived value: names it is bound to are followed
        value: cst.CSTNode = carrier
        parent = self.facts.parent(carrier)
        while isinstance(parent, (cst.Element, cst.Tuple, cst.List, cst.Set, cst.DictElement, cst.Dict,
                                  cst.StarredElement, cst.StarredDictElement)):
            if isinstance(parent, cst.DictElement) and parent.key is value:
                return False  # a key is hashed, not kept as a tensor reader would see it
            value, parent = parent, self.facts.parent(parent)
        contained = value is not carrier
        if isinstance(parent, cst.Arg):
            call = self.facts.parent(parent)
            if parent.keyword is n or not isinstance(call, cst.Call):
                return False
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in _STORING:
                return True
            qualified = self.facts.qualified_name(func) or ""
            return qualified in _STORING_FUNCTIONS or bool(self.facts._callees(call)) \
                or _unseen_call_may_keep(self.facts, call, qualified)
        if isinstance(parent, cst.Yield):
            return True
        if isinstance(parent, cst.AugAssign) and parent.value is value:
            if followed and not contained:
                return not isinstance(parent.target, cst.Name)
            return not (isinstance(parent.target, cst.Name) and parent.target.value == n.value and not contained)
        if isinstance(parent, cst.Assign) and parent.value is value:
            if followed and not contained:
                return any(not isinstance(t.target, cst.Name) for t in parent.targets)
            return any(not isinstance(t.target, cst.Name)
                       or (t.target.value != n.value or contained) and self._read_again(t.target)
                       for t in parent.targets)
        return False

    def _read_again(self, alias: cst.Name) -> bool:
        """`result = [total, ...]`: the alias matters only if something reads it."""
        return any(isinstance(n, cst.Name) and n.value == alias.value and n is not alias
                   and not isinstance(self.facts.parent(n), cst.Attribute)
                   for n in self.facts.walk(self.facts.module))

    def _bound_to_step_loss(self, name: cst.Name) -> bool:
        """`loss = self.do_batch(x, y)` earlier in the same loop body, `do_batch` returning the loss
        it back-propagates: `total += loss * n` keeps that graph just as `total += self.do_batch(...)`."""
        value, element = self.facts.value_of(name), None
        if value is None:  # `loss, h = train(data)`: one element of what the call returns
            unpacked = self.facts.unpacked_from(name)
            if unpacked is not None:
                value, element = unpacked[0], (unpacked[1], unpacked[2])
        if not isinstance(value, cst.Call):
            return False
        here, there = self.facts.enclosing_loops(name), self.facts.enclosing_loops(value)
        return bool(here) and bool(there) and here[0] is there[0] and self._returns_backwarded_loss(value, element)

    def _metric_with_graph(self, expr: cst.BaseExpression, depth: int) -> bool:
        """`logits.softmax(1).max(1).values.mean()`: a chain of graph-keeping tensor methods
        (the values of a (values, indices) pair included) on a model's output."""
        if depth == 0:
            return False
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _GRAD_KEEPING:
            return self._graph_source(expr.func.value, depth - 1)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "values":
            pair = expr.value
        elif isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
                and isinstance(expr.slice[0].slice.value, cst.Integer) and expr.slice[0].slice.value.value == "0":
            pair = expr.value
        else:
            return False
        return isinstance(pair, cst.Call) and isinstance(pair.func, cst.Attribute) and pair.func.attr.value in _PAIRED \
            and bool(pair.args) and self._graph_source(pair.func.value, depth - 1)

    def _graph_source(self, expr: cst.BaseExpression, depth: int) -> bool:
        """A name bound to a model's output, a graph-keeping metric chain on one, or arithmetic
        on them (`(p.exp() * p).sum()`)."""
        if isinstance(expr, cst.BinaryOperation):
            return not _string_format(expr) and (
                self._graph_source(expr.left, depth - 1) or self._graph_source(expr.right, depth - 1))
        if isinstance(expr, cst.UnaryOperation):
            return self._graph_source(expr.expression, depth - 1)
        return (isinstance(expr, cst.Name) and self._carries_graph(expr, depth)) or self._metric_with_graph(expr, depth)

    def _part_carries_graph(self, name: cst.Name, depth: int) -> bool:
        """`z` of `z, rec, logits = model(x)` (recall 68): a part of a program model's tuple output
        that every `return` of its `forward` builds from a module's output (`return z,
        self.dec(z), self.cls(z)`), called with autograd on. A part the forward detaches, or
        computes from its inputs alone, carries no graph."""
        call, index, n = self.facts.unpacked_from(name)  # type: ignore[misc]
        if grad_disabled(self.facts, call) or self.facts.kind(name) is not Kind.TENSOR:
            return False
        if forward_outputs.recurrent_output(self.facts, call.func, index, n) is Kind.TENSOR:
            return self._carries_graph(call, depth - 1)
        if self.facts.kind(call.func) is not Kind.MODULE:
            return False
        parts = forward_outputs.returned_parts(self.facts, call, index, n)
        return bool(parts) and all(
            not grad_disabled(owner, part) and self._judged_in(owner)._carries_graph(part, depth - 1) for owner, part in parts)

    def _judged_in(self, owner: Facts) -> "GraphRetention":
        return self if owner is self.facts else type(self)(dataclasses.replace(self.ctx, facts=owner))

    def _carries_graph(self, expr: cst.BaseExpression, depth: int) -> bool:
        """True if `expr` is (built from) the output of a model or loss module: it requires grad."""
        if depth == 0:
            return False
        if isinstance(expr, cst.Name):
            value = self.facts.value_of(expr)
            if value is None and self.facts.unpacked_from(expr) is not None:
                return self._part_carries_graph(expr, depth)
            return value is not None and not grad_disabled(self.facts, value) and self._carries_graph(value, depth - 1)
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute):
                if func.attr.value in _DETACHING:
                    return False
                if self.facts.kind(func.value) is Kind.MODULE:
                    return func.attr.value in ("forward", "__call__")
                if self.facts.kind(func.value) is Kind.TENSOR and self._carries_graph(func.value, depth - 1):
                    return True
            if self.facts.kind(func) is Kind.MODULE:
                return True
            qualified = self.facts.qualified_name(func) or ""
            if qualified.startswith("torch.") and self.facts.kind(expr) is Kind.TENSOR:
                return any(self._carries_graph(a.value, depth - 1) for a in expr.args)
            return False
        if isinstance(expr, cst.BinaryOperation):
            return not _string_format(expr) and (
                self._carries_graph(expr.left, depth - 1) or self._carries_graph(expr.right, depth - 1))
        if isinstance(expr, cst.UnaryOperation):
            return self._carries_graph(expr.expression, depth - 1)
        if isinstance(expr, cst.Subscript):
            return self._carries_graph(expr.value, depth - 1)
        if isinstance(expr, cst.Attribute):
            return expr.attr.value not in ("data", "shape", "device", "dtype") and self._carries_graph(expr.value, depth - 1)
        return False


def _last_plain_binding(stmt: cst.CSTNode, name: str) -> cst.CSTNode | None:
    """The statement line `name = value` (one plain-name target) that `stmt` runs whenever it runs,
    the last one if several: `stmt` itself, or a line of a `with` block's body (a `with` runs its
    body; a branch or a loop may not)."""
    if isinstance(stmt, cst.SimpleStatementLine) and any(
            isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
            and small.targets[0].target.value == name for small in stmt.body):
        return stmt
    if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
        return next((b for b in map(lambda s: _last_plain_binding(s, name), reversed(stmt.body.body))
                     if b is not None), None)
    return None


def _names_bound_by(n: cst.CSTNode) -> set[str]:
    """The names this node itself binds (not those bound in its body): an assignment's targets, a
    `for` target, a `with ... as` target, a walrus."""
    if isinstance(n, cst.Assign):
        return {name for t in n.targets for name in bound_names(t.target)}
    if isinstance(n, (cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr)):
        return set(bound_names(n.target))
    if isinstance(n, cst.With):
        return {name for item in n.items if item.asname is not None for name in bound_names(item.asname.name)}
    return set()


def _self_attribute(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self"


def _bindings(n: cst.CSTNode) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(target, value) of each binding `n` makes, whatever its form: the value flows into every
    name of the target (unpacking is not followed element by element: the whole value counts)."""
    if isinstance(n, cst.Assign):
        return [(t.target, n.value) for t in n.targets]
    if isinstance(n, (cst.AugAssign, cst.NamedExpr)) or isinstance(n, cst.AnnAssign) and n.value is not None:
        return [(n.target, n.value)]  # type: ignore[list-item]
    if isinstance(n, cst.For):  # (a comprehension's variable is its own: `_backward_names` reads its `iter` there)
        return [(n.target, n.iter)]
    if isinstance(n, cst.WithItem) and n.asname is not None:
        return [(n.asname.name, n.item)]
    return []


def _written(facts: Facts, node: cst.Attribute) -> bool:
    """`self.preds = []`: the attribute is (re)bound here, not read."""
    parent = facts.parent(node)
    return isinstance(parent, cst.AssignTarget) and parent.target is node


def _appended_to(facts: Facts, node: cst.Attribute) -> bool:
    parent = facts.parent(node)
    return isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in ("append", "clear") \
        and isinstance(facts.parent(parent), cst.Call)


def _own_model_call(facts: Facts, func: cst.FunctionDef, expr: cst.BaseExpression) -> bool:
    """`expr` (a name of `func` bound once, or the call itself) is `self.<attr>(...)` or
    `self.<attr>.forward(...)`, `<attr>` not a method of the class: the model the step trains."""
    if isinstance(expr, cst.Name):
        binds = [n for n in facts.walk(func.body) if isinstance(n, (cst.Assign, cst.AugAssign, cst.For, cst.WithItem))
                 and expr.value in facts.names_written(n) and facts.enclosing_function(n) is func]
        if len(binds) != 1 or not isinstance(binds[0], cst.Assign) or len(binds[0].targets) != 1 \
                or not isinstance(binds[0].targets[0].target, cst.Name):
            return False
        expr = binds[0].value
    if not isinstance(expr, cst.Call):
        return False
    target = expr.func.value if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "forward" else expr.func
    cls = next((a for a in facts.ancestors(func) if isinstance(a, cst.ClassDef)), None)
    return cls is not None and _self_attribute(target) \
        and f"{cls.name.value}.{target.attr.value}" not in facts.functions  # type: ignore[union-attr]


# Calls that read what they are handed as a number (or only ask about it) and keep nothing.
_NUMBER_READERS = frozenset({"builtins.float", "builtins.int", "builtins.bool", "builtins.len", "builtins.isinstance",
                             "builtins.id", "builtins.type", "builtins.hash", "builtins.callable"})
# Receivers whose methods are torch's own (a module, an optimizer, a tensor): they keep no total.
_TORCH_KINDS = frozenset({Kind.TENSOR, Kind.MODULE, Kind.OPTIMIZER, Kind.DATALOADER, Kind.NUMBER})


def _unseen_call_may_keep(facts: Facts, call: cst.Call, qualified: str) -> bool:
    """`call`, whose body the analysis does not see, is handed the total (or a value or container
    holding it): a library function or class (`pprint.pprint(history)`, a csv writer's
    `writerow([epoch, total])`, a `namedtuple` record, `dict(last=losses[-1])`, `json.dumps`), or a
    method of an object of unknown kind. It may keep the tensor or turn it into text, where
    `grad_fn=<...>` shows only with the graph (red team 27). Not the builtins and `math` functions
    that read a number, `torch.*` (but `torch.save`, which keeps it in a file), nor a method of a
    torch object (a module, an optimizer, a tensor, an object a `torch.*` call built: a scheduler,
    a `SummaryWriter`)."""
    if qualified in _NUMBER_READERS or qualified.startswith("math.") or text_call(facts, call):
        return False  # (text calls: `_graph_seen` judges what they print)
    if qualified.startswith("torch."):
        return qualified.startswith("torch.save")
    func = call.func
    if isinstance(func, cst.Attribute):
        receiver = func.value
        if facts.kind(receiver) in _TORCH_KINDS:
            return False
        made = facts.value_of(receiver) if isinstance(receiver, cst.Name) else None
        if isinstance(made, cst.Call) and (facts.qualified_name(made.func) or "").startswith("torch."):
            return False
    return True


def _number_read(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`expr` is the argument of a call that reads a number or asks about it (`len(history)`,
    `type(total)`, `isinstance(total, float)`): detached or not, the answer is the same."""
    arg = facts.parent(expr)
    call = facts.parent(arg) if isinstance(arg, cst.Arg) and arg.keyword is None else None
    return isinstance(call, cst.Call) and (facts.qualified_name(call.func) or "") in _NUMBER_READERS


def _read_as_number(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`expr.item()`, `expr.tolist()`, `float(expr)`, `int(expr)`: a number, no graph."""
    parent = facts.parent(expr)
    if isinstance(parent, cst.Attribute) and parent.value is expr and parent.attr.value in ("item", "tolist"):
        return isinstance(facts.parent(parent), cst.Call)
    outer = facts.parent(parent) if isinstance(parent, cst.Arg) else None
    return isinstance(outer, cst.Call) and len(outer.args) == 1 \
        and (facts.qualified_name(outer.func) or "") in ("builtins.float", "builtins.int")


def _bound_then_read_as_number(facts: Facts, call: cst.Call) -> bool:
    """`avg = train_epoch(...)`, and every other use of `avg` in that scope is `avg.item()` or
    `float(avg)` (bound nowhere else there)."""
    assign = facts.parent(call)
    if not (isinstance(assign, cst.Assign) and assign.value is call and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)):
        return False
    target = assign.targets[0].target
    scope = facts.enclosing_function(call)
    uses = [u for u in facts.uses(target.value) if u is not target and facts.enclosing_function(u) is scope
            and not (isinstance(facts.parent(u), cst.Attribute) and facts.parent(u).attr is u)  # type: ignore[union-attr]
            and not (isinstance(facts.parent(u), cst.Arg) and facts.parent(u).keyword is u)]  # type: ignore[union-attr]
    return bool(uses) and all(_read_as_number(facts, u) for u in uses)


def _still_backwarded(owner: Facts, body: list[cst.CSTNode]) -> set[str]:
    """Names a function called `.backward()` on and did not bind again afterwards: `loss = loss.item()`
    after the backward hands back a number (public check 60: such a helper was taken for the loss)."""
    first: dict[str, int] = {}
    for c in body:
        if (isinstance(c, cst.Call) and isinstance(c.func, cst.Attribute) and c.func.attr.value == "backward"
                and isinstance(c.func.value, cst.Name)):
            line = owner.position(c).start.line
            first[c.func.value.value] = min(line, first.get(c.func.value.value, line))
    rebound = {name for n in body for name in writes_of(n)
               if name in first and owner.position(n).start.line > first[name]}
    return set(first) - rebound


# Arithmetic that keeps its operands' graphs: `loss_real + loss_fake`, `0.5 * (a + b)`.
_KEEPING_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)


def _backwarded_sum(expr: cst.BaseExpression, backwarded: set[str]) -> bool:
    """A back-propagated loss, or arithmetic of such losses and number literals only
    (`return loss_real + loss_fake`, a GAN discriminator's step; public check 60): the result
    references every operand's graph. A name not proved back-propagated there, or any call
    (`.item()`, `.detach()`, `float(...)`), leaves it unproved."""
    names: list[str] = []

    def proved(e: cst.BaseExpression) -> bool:
        if isinstance(e, cst.Name):
            names.append(e.value)
            return e.value in backwarded
        if isinstance(e, (cst.Integer, cst.Float)):
            return True
        if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, _KEEPING_OPERATORS):
            return proved(e.left) and proved(e.right)
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
            return proved(e.expression)
        return False

    return proved(expr) and bool(names)


def _element(expr: cst.BaseExpression, index: int, length: int) -> cst.BaseExpression | None:
    """Element `index` of a returned tuple of `length` plain elements (`return loss, embedding`);
    None for anything else (a starred element, another length, a name holding a tuple)."""
    if not isinstance(expr, cst.Tuple) or len(expr.elements) != length \
            or any(isinstance(e, cst.StarredElement) for e in expr.elements):
        return None
    return expr.elements[index].value


def _none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _string_format(expr: cst.BaseExpression) -> bool:
    """`"loss %.4f" % loss`: a `str` (the tensor's value copied to the host), no tensor at all."""
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo) \
        and isinstance(expr.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def _leaves(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The names (and attribute/subscript reads) an arithmetic expression adds up."""
    if _string_format(expr):
        return []
    if isinstance(expr, cst.BinaryOperation):
        return _leaves(expr.left) + _leaves(expr.right)
    if isinstance(expr, cst.UnaryOperation):
        return _leaves(expr.expression)
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Subscript)):
        return [expr]
    return []


def _called(expr: cst.BaseExpression) -> list[cst.Call]:
    """The calls an arithmetic expression adds up (`total += step(batch)`, `a + f(x)`)."""
    if _string_format(expr):
        return []
    if isinstance(expr, cst.BinaryOperation):
        return _called(expr.left) + _called(expr.right)
    if isinstance(expr, cst.UnaryOperation):
        return _called(expr.expression)
    return [expr] if isinstance(expr, cst.Call) else []


class _Detach(cst.CSTTransformer):
    """`x` -> `x.detach()` for the given nodes (for the suggested code)."""

    def __init__(self, leaves: list[cst.BaseExpression]) -> None:
        super().__init__()
        self.leaves = {id(leaf) for leaf in leaves}

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[no-untyped-def]
        if id(original_node) in self.leaves:
            return cst.Call(func=cst.Attribute(value=updated_node, attr=cst.Name("detach")))  # type: ignore[arg-type]
        return updated_node


def _top_statement(unit: Facts, node: cst.CSTNode) -> cst.CSTNode:
    """The statement of the cell's top level that holds `node` (a `def` for a read in its body)."""
    top = node
    for anc in unit.ancestors(node):
        if isinstance(anc, cst.Module):
            return top
        top = anc
    return top


def _top_level_rebinding(unit: Facts, name: str) -> cst.CSTNode | None:
    """The first statement at the top level of the cell (not under an `if`, a loop, a `try` or a
    `with`) that binds `name` by a plain assignment without reading it (`total = 0.0`,
    `losses: list = []`): every statement after it, and every later cell, sees the new value,
    not the one a training cell left (fix49). None if there is none."""
    for stmt in unit.module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            targets: list[cst.BaseExpression] = []
            if isinstance(small, cst.Assign):
                targets = [t.target for t in small.targets]
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                targets = [small.target]
            value = getattr(small, "value", None)
            if any(isinstance(t, cst.Name) and t.value == name for t in targets) and value is not None \
                    and not any(isinstance(n, cst.Name) and n.value == name for n in unit.walk(value)):
                return stmt
    return None
