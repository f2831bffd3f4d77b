"""A closed-world proof that running a loop under `no_grad` changes nothing a program shows.

Under `no_grad` the values a model computes are the same numbers without `grad_fn` /
`requires_grad=True`. Whatever reads only the numbers cannot tell the difference; whatever shows
or hands on the tensor itself can (its text, a pickle, a caller, an unseen function). Earlier
checks listed the dangerous readers (print, pprint, a dict shown later, ...), and every blind
red-team wave found one more. This proof goes the other way: it follows every use of every
value the loop computes with the model (inside the loop, after it, in the callers the unit
shows) and accepts a use only if it is on a closed list of reads whose result is the same with
and without autograd, or of operations whose result is itself followed the same way. The first
use on no list is named; the rewrite is then left to review.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import libcst as cst

from ..facts import Facts, FunctionNode, binds_locally, loss_module
from ..types import Kind
from ..names import bound_names, positional_params, root_name
from ._flag_gated import _passed, excluded_by_call
from ._support import _numeric_format_call, text_sinks

# Reads whose result never carries a graph (integer or bool tensors cannot require grad; host
# numbers and shapes carry none): the same result with and without autograd.
_CLOSED_METHODS = frozenset({
    "item", "tolist", "detach", "argmax", "argmin", "argsort", "size", "numel", "nelement", "dim",
    "eq", "ne", "gt", "lt", "ge", "le", "equal", "allclose", "isclose", "isnan", "isinf", "isfinite", "isneginf",
    "isposinf", "any", "all", "logical_and", "logical_or", "logical_not", "logical_xor", "nonzero", "count_nonzero",
    "long", "int", "short", "bool", "byte", "char", "is_contiguous", "is_floating_point", "is_complex", "stride",
    "get_device", "element_size", "bincount", "unique", "__len__", "keys", "eval", "train", "zero_grad",
})
_CLOSED_ATTRIBUTES = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "data", "indices", "layout", "is_sparse"})
# What shows whether a graph was recorded: never the same under no_grad.
_AUTOGRAD_ATTRIBUTES = frozenset({
    "requires_grad", "grad_fn", "is_leaf", "grad", "retain_grad", "retains_grad", "register_hook", "backward",
    "requires_grad_", "output_nr", "_version", "_base", "register_post_accumulate_grad_hook",
})
# Tensor methods returning tensors (or tuples of them) computed from the receiver: the result
# is followed as a graph value.
_TENSOR_METHODS = frozenset({
    "abs", "acos", "add", "addmm", "addcmul", "amax", "amin", "asin", "atan", "atan2", "bmm", "bfloat16", "ceil",
    "chunk", "clamp", "clamp_min", "clamp_max", "clip", "clone", "contiguous", "cos", "cosh", "cpu", "cuda",
    "cummax", "cummin", "cumprod", "cumsum", "diag", "diagonal", "div", "divide", "dot", "double", "erf", "exp",
    "expand", "expand_as", "expm1", "flatten", "flip", "float", "floor", "fmod", "gather", "half", "index_select",
    "kthvalue", "lerp", "log", "log10", "log1p", "log2", "log_softmax", "logit", "logsumexp", "masked_fill",
    "masked_select", "matmul", "max", "maximum", "mean", "median", "min", "minimum", "mm", "mode", "movedim", "mul",
    "multiply", "mv", "nan_to_num", "nanmean", "nansum", "narrow", "neg", "norm", "outer", "permute", "pin_memory",
    "pow", "prod", "reciprocal", "relu", "remainder", "repeat", "repeat_interleave", "reshape", "reshape_as", "roll",
    "round", "rsqrt", "scatter", "scatter_add", "select", "sigmoid", "sin", "sinh", "softmax", "sort", "split",
    "sqrt", "square", "squeeze", "std", "sub", "subtract", "sum", "t", "tan", "tanh", "tile", "to", "topk",
    "transpose", "tril", "triu", "true_divide", "trunc", "type_as", "unbind", "unfold", "unsqueeze", "var", "view",
    "view_as", "where", "exp2", "float_power", "masked_scatter", "index_add", "squeeze", "values", "copy", "pop",
    "sign", "__getitem__", "get", "items",
})
# Methods of a local list / dict / set that store an argument in it (the container is then followed).
_STORING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft"})
# Container methods that read nothing out as text and hand nothing on.
_CONTAINER_READS = frozenset({"clear", "__len__", "count", "index", "remove", "discard"})
# Functions whose result never carries a graph.
_CLOSED_FUNCTIONS = frozenset({
    "builtins.float", "builtins.int", "builtins.bool", "builtins.len", "builtins.isinstance", "builtins.type",
    "builtins.id", "builtins.callable", "builtins.hasattr",
    "torch.argmax", "torch.argmin", "torch.argsort", "torch.eq", "torch.ne", "torch.gt", "torch.lt", "torch.ge",
    "torch.le", "torch.equal", "torch.allclose", "torch.isclose", "torch.isnan", "torch.isinf", "torch.isfinite",
    "torch.is_tensor", "torch.numel", "torch.count_nonzero", "torch.nonzero", "torch.logical_and", "torch.logical_or",
    "torch.logical_not", "torch.logical_xor", "torch.any", "torch.all", "torch.bucketize", "torch.searchsorted",
    "torch.bincount", "torch.unique", "torch.zeros_like", "torch.ones_like", "torch.full_like", "torch.empty_like",
    "torch.rand_like", "torch.randn_like", "torch.randint_like",
})
# Functions computing a tensor (or a plain container) from their arguments: the result is followed.
_PASSING_FUNCTIONS = frozenset({f"torch.{n}" for n in (
    "cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "einsum", "softmax", "log_softmax", "sigmoid",
    "tanh", "relu", "exp", "log", "log1p", "where", "clamp", "clip", "mean", "sum", "max", "min", "maximum", "minimum",
    "abs", "sqrt", "matmul", "mm", "bmm", "cdist", "cosine_similarity", "pairwise_distance", "norm", "flatten",
    "squeeze", "unsqueeze", "reshape", "transpose", "permute", "split", "chunk", "topk", "sort", "gather",
    "index_select", "masked_select", "logsumexp", "cumsum", "round", "pow", "diag", "mul", "add", "sub", "div",
    "sign", "floor", "ceil", "std", "var", "median", "mode", "prod", "flip", "roll", "tril", "triu", "outer", "dot",
    "exp2", "square", "nan_to_num", "kthvalue", "as_tensor", "unbind", "std_mean", "var_mean", "amax", "amin",
    "erf", "sin", "cos", "clone", "narrow", "select", "take", "tile", "repeat_interleave", "lerp", "dist",
)} | {
    "builtins.sum", "builtins.max", "builtins.min", "builtins.abs", "builtins.round", "builtins.list", "builtins.tuple",
    "builtins.sorted", "builtins.reversed", "builtins.zip", "builtins.enumerate", "builtins.iter", "builtins.next",
    "builtins.dict", "builtins.pow", "builtins.divmod",
})
_PASSING_PREFIXES = ("torch.nn.functional.",)  # functional ops: pure tensor functions
_PAIR_METHODS = frozenset({"max", "min", "topk", "sort", "kthvalue", "median", "mode", "cummax", "cummin"})
_EMPTY_CONTAINERS = frozenset({"builtins.list", "builtins.dict", "builtins.set", "collections.defaultdict",
                               "collections.OrderedDict", "collections.deque", "collections.Counter"})
_MAX_STEPS = 3000
_MAX_DEPTH = 3


@dataclass(frozen=True)
class _Value:
    """An expression whose value may carry the graph, in `unit`, followed from `anchor` on."""
    unit: Facts
    node: cst.CSTNode
    depth: int
    anchor: cst.CSTNode | None = None  # where a followed name got the value (None: on entry of its function)
    # the calls (innermost last) a value computed inside a called function returns to: only what runs
    # in the wrapped loop is computed without a graph (not the training step's call of the same helper)
    returns_to: tuple[tuple[Facts, cst.Call], ...] = ()
    by_name: bool = False  # a read of a followed name (another binding may come first: `_rebound_before`)

    def at(self, node: cst.CSTNode, unit: Facts | None = None, anchor: cst.CSTNode | None = None,
           by_name: bool = False) -> "_Value":
        return _Value(unit or self.unit, node, self.depth, anchor, self.returns_to, by_name)


class GraphUses:
    """Follows the values a loop computes with the model; `first_unproved` names the first use
    on no closed list ('' when every use is proved)."""

    def __init__(self, facts: Facts, model_call: Callable[[cst.Call], bool], in_cell: Callable[[Facts], bool]) -> None:
        self.facts = facts
        self.model_call = model_call
        self.in_cell = in_cell

    def first_unproved(self, body: cst.CSTNode, anchor: cst.CSTNode) -> str:
        self._seen: set[tuple[int, int]] = set()
        self._names: set[tuple[object, ...]] = set()
        self._followed: set[tuple[int, str]] = set()
        self._steps = 0
        roots = list(self._roots(body, ()))
        work = [_Value(self.facts, c, 0, None, sites) for c, sites in roots]
        work += [_Value(self.facts, n, 0) for n in self._model_reads(body, [c for c, sites in roots if not sites])]
        self._anchor = anchor
        self._bindings: set[int] = set()  # bindings of a followed value
        skipped: dict[int, list[_Value]] = {}  # uses passed over, by the binding that replaced the value first
        while True:
            while work:
                value = work.pop()
                key = (id(value.unit), id(value.node), tuple(id(c) for _, c in value.returns_to))
                if key in self._seen:
                    continue
                if value.by_name and isinstance(value.node, cst.Name):
                    killer = _rebound_before(value.unit, value.node, value.anchor)
                    if killer is not None and id(killer) not in self._bindings:
                        skipped.setdefault(id(killer), []).append(value)
                        continue
                if self._not_run(value):
                    continue
                self._seen.add(key)
                self._steps += 1
                if self._steps > _MAX_STEPS:
                    return "the values this loop computes have more uses than the proof follows"
                why = self._use(value, work)
                if why:
                    return why
            # a binding taken as replacing the value may turn out to bind it (found later): its uses count
            for killer in [k for k in skipped if k in self._bindings]:
                work.extend(skipped.pop(killer))
            if not work:
                return ""

    def _model_reads(self, body: cst.CSTNode, calls: list[cst.Call]) -> Iterator[cst.CSTNode]:
        """The other reads, in `body`, of the models `calls` run (`model.bias.add_(0.5)`, `model.fc.weight`,
        `model.parameters()`): parameters require grad with or without `no_grad`, and what is computed
        from them (or done to them in place) differs."""
        models = {self.facts.code(c.func.value if isinstance(c.func, cst.Attribute) and c.func.attr.value == "forward"
                                  else c.func) for c in calls if isinstance(c.func, (cst.Name, cst.Attribute))}
        models |= _trainable_tensors([self.facts, *self.facts.prior.units()])
        called = {id(c.func) for c in calls}
        for node in self.facts.walk(body):
            if isinstance(node, (cst.Name, cst.Attribute)) and id(node) not in called and self.facts.code(node) in models \
                    and not (isinstance(node, cst.Name) and not _loaded(self.facts, node)):
                parent = self.facts.parent(node)
                if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "forward":
                    continue  # `model.forward(x)`: the call is a root already
                if isinstance(parent, cst.Attribute) and parent.attr is node:
                    continue
                yield node

    @staticmethod
    def _not_run(value: _Value) -> bool:
        """`value.node` is in a branch of the called function that the call it returns to rules out
        with a constant (`if opt is not None: loss.backward()`, called without `opt`)."""
        if not value.returns_to:
            return False
        owner, call = value.returns_to[-1]
        func = value.unit.enclosing_function(value.node)
        return func is not None and func in owner._callees(call) and excluded_by_call(value.unit, value.node, call, func)

    def _roots(self, body: cst.CSTNode, sites: tuple[tuple[Facts, cst.Call], ...]) -> Iterator[tuple[cst.Call, tuple[tuple[Facts, cst.Call], ...]]]:
        """The model calls in `body`; for a call of this unit's functions, those in its body
        (`metrics = trainer.eval(x, y)`, `def eval(...): out = self.model(x); ...; return
        loss.item()`: followed from inside, through its return to every call site)."""
        for call in self.facts.calls_in(body):
            callees = _seen_callees(self.facts, call)
            if len(sites) < 2 and callees and all(self.facts.owner_of(c) is self.facts for c in callees):
                for callee in callees:
                    yield from self._roots(callee.body, (*sites, (self.facts, call)))
            elif self.model_call(call):
                yield call, sites

    # --- one use ------------------------------------------------------------------------------

    def _use(self, value: _Value, work: list[_Value]) -> str:
        unit, node = value.unit, value.node
        parent = unit.parent(node)
        follow = lambda n: work.append(value.at(n)) or ""  # noqa: E731
        if parent is None:
            return self._unproved(unit, node, "uses `{code}` where the analysis cannot follow it")
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return self._attribute(value, parent, work)
        if isinstance(parent, (cst.Arg,)):
            call = unit.parent(parent)
            if isinstance(call, cst.Call):
                return self._argument(value, call, parent, work)
        if isinstance(parent, cst.Call) and parent.func is node:
            if unit is self.facts and self.model_call(parent):
                return follow(parent)  # a model handed on and run (`def step(model, x): return model(x)`)
            return self._unproved(unit, node, "calls `{code}` (what a graph value returns when called is not followed)")
        if isinstance(parent, cst.BinaryOperation):
            if isinstance(parent.operator, cst.Modulo) and isinstance(
                    parent.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                if any(s is parent.right for s in text_sinks(unit, unit.statement_of(parent))) or parent.left is node:
                    return self._unproved(unit, parent, "formats `{code}` as text")
                return ""  # `"%.4f" % loss`: the number (float() of it), the same text either way
            return follow(parent)
        if isinstance(parent, cst.UnaryOperation):
            return "" if isinstance(parent.operator, cst.Not) else follow(parent)
        if isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
            return ""  # a bool (tensor): no graph
        if isinstance(parent, cst.BooleanOperation):
            return follow(parent)
        if isinstance(parent, cst.IfExp):
            return "" if parent.test is node else follow(parent)
        if isinstance(parent, (cst.If, cst.While)) and parent.test is node:
            return ""
        if isinstance(parent, cst.Assert):
            return "" if parent.test is node else self._unproved(unit, node, "shows `{code}` in an assertion's message")
        if isinstance(parent, cst.FormattedStringExpression):
            if parent.conversion is None and parent.format_spec:
                return ""  # `{loss:.4f}`: a 0-d tensor formats its number; any other raises, with or without a graph
            return self._unproved(unit, node, "formats `{code}` as text (a tensor's text shows `grad_fn=<...>`)")
        if isinstance(parent, cst.Index):
            return "" if parent.value is node and isinstance(unit.parent(parent), cst.SubscriptElement) else \
                self._unproved(unit, node, "uses `{code}` where the analysis cannot follow it")
        if isinstance(parent, cst.Slice):
            return ""
        if isinstance(parent, cst.Subscript) and parent.value is node:
            return follow(parent)  # `out[0]`, `outputs["logits"]`
        if isinstance(parent, (cst.Element, cst.StarredElement)):
            container = unit.parent(parent)
            assign = unit.parent(container) if container is not None else None
            if isinstance(parent, cst.Element) and isinstance(container, cst.Tuple) and isinstance(assign, cst.Assign) \
                    and assign.value is container and len(assign.targets) == 1:
                target = assign.targets[0].target  # `feats, labels = torch.cat(feats), torch.cat(labels)`
                if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(container.elements) \
                        and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *container.elements)):
                    index = [e for e in container.elements].index(parent)
                    return self._bind(value, target.elements[index].value, assign, work)
            return follow(container) if container is not None else ""
        if isinstance(parent, cst.DictElement):
            container = unit.parent(parent)
            return follow(container) if container is not None else ""
        if isinstance(parent, (cst.ListComp, cst.SetComp, cst.GeneratorExp)) and parent.elt is node:
            return follow(parent)
        if isinstance(parent, cst.DictComp):
            return follow(parent)
        if isinstance(parent, cst.CompFor) and parent.iter is node:
            comp = unit.parent(parent)
            names = set(bound_names(parent.target))
            if comp is not None:
                work.extend(value.at(u) for name in names for u in unit.uses(name)
                            if unit.contains(comp, u) and _loaded(unit, u))
            return ""
        if isinstance(parent, cst.CompIf):
            return ""
        if isinstance(parent, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and parent.value is node:
            targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
            for target in targets:
                why = self._bind(value, target, parent, work)
                if why:
                    return why
            return ""
        if isinstance(parent, cst.NamedExpr) and parent.value is node:
            why = self._bind(value, parent.target, parent, work)
            return why or follow(parent)
        if isinstance(parent, cst.For) and parent.iter is node:
            return self._bind(value, parent.target, parent, work)
        if isinstance(parent, cst.Return):
            return self._returned(value, parent, work)
        if isinstance(parent, cst.Expr):
            stmt = unit.parent(parent)
            if self.in_cell(unit) and unit.enclosing_function(parent) is None and unit.module.body \
                    and unit.module.body[-1] is stmt and isinstance(stmt, cst.SimpleStatementLine) and stmt.body[-1] is parent:
                return self._unproved(unit, node, "leaves `{code}` as the cell's last expression: Jupyter shows it "
                                      "(`Out[]`), `grad_fn=<...>` included")
            return ""  # a statement's value, dropped
        if isinstance(parent, cst.Del) or isinstance(parent, cst.AugAssign) and parent.target is node:
            return ""  # (`total += x`: the name is followed as it is rebound)
        return self._unproved(unit, node, "uses `{code}` where the analysis cannot follow it")

    def _attribute(self, value: _Value, attr: cst.Attribute, work: list[_Value]) -> str:
        unit = value.unit
        name = attr.attr.value
        call = unit.parent(attr)
        called = isinstance(call, cst.Call) and call.func is attr
        if name in _AUTOGRAD_ATTRIBUTES:
            return self._unproved(unit, attr, "reads `{code}`, which differs under no_grad")
        if called:
            if name in _CLOSED_METHODS:
                return ""
            if name in _TENSOR_METHODS:
                work.append(value.at(call))
                return ""
            if name in _STORING_METHODS | _CONTAINER_READS:  # the container is followed; what it is given, where given
                if name in _STORING_METHODS:
                    work.append(value.at(call))  # (`d.setdefault(k, [])` hands back what it holds)
                return ""
            return self._unproved(unit, call, "calls `{code}`, a method the analysis cannot prove ignores autograd")
        if name in _CLOSED_ATTRIBUTES:
            return ""
        work.append(value.at(attr))  # a field of the model's output (`out.logits`), a view (`x.T`)
        return ""

    def _argument(self, value: _Value, call: cst.Call, arg: cst.Arg, work: list[_Value]) -> str:
        unit = value.unit
        qualified = unit.qualified_name(call.func) or ""
        func = call.func
        if qualified in _CLOSED_FUNCTIONS or qualified.startswith("math."):
            return ""
        if _numeric_format_call(call):
            return ""
        if qualified in ("builtins.map", "builtins.filter") and call.args and call.args[0] is not arg:
            applied = unit.qualified_name(call.args[0].value) or ""  # `map(torch.Tensor.sum, outs)`
            method = applied.rsplit(".", 1)[-1]
            if applied.startswith("torch.Tensor.") and method in _CLOSED_METHODS:
                return ""
            if applied.startswith("torch.Tensor.") and method in _TENSOR_METHODS or applied in _PASSING_FUNCTIONS \
                    or applied in _CLOSED_FUNCTIONS:
                work.append(value.at(call))
                return ""
        if qualified in _PASSING_FUNCTIONS or qualified.startswith(_PASSING_PREFIXES) or (unit is self.facts and self.model_call(call)) \
                or (isinstance(func, cst.Name) and loss_module(unit, func)):
            work.append(value.at(call))
            return ""
        if isinstance(func, cst.Attribute):
            receiver = func.value
            method = func.attr.value
            if method in _STORING_METHODS and isinstance(receiver, cst.Name):
                return self._store_in(value, receiver.value, call, work)
            if method in _TENSOR_METHODS | _CLOSED_METHODS and self._graph_receiver(unit, receiver):
                if method in _TENSOR_METHODS:
                    work.append(value.at(call))
                return ""  # `out.eq(labels)`, `a.add(b)`: the receiver's own use is judged too
        handed = self._handed_callables(unit, call)
        if handed is not None:  # `criterion(out, y)` with `criterion` a parameter every caller fills knowingly
            loss_like, functions = handed
            why = self._into_callees(unit, value, call, arg, functions, work)
            if why or not loss_like:
                return why
            work.append(value.at(call))
            return ""
        callees = _seen_callees(unit, call)
        if callees:
            return self._into_callees(unit, value, call, arg, callees, work)
        return self._unproved(unit, call, "hands it to `{code}`, which the analysis cannot prove ignores autograd",
                              short=True)

    def _handed_callables(self, unit: Facts, call: cst.Call) -> tuple[bool, list[cst.FunctionDef]] | None:
        """`criterion(out, y)` where `criterion` is a parameter of the enclosing function: what every
        call of that function the unit shows passes for it, when each is known (a torch loss or
        functional op: result followed; a function of the program: followed into). None otherwise."""
        func = unit.enclosing_function(call)
        if not isinstance(call.func, cst.Name) or not isinstance(func, cst.FunctionDef) \
                or call.func.value not in {p.name.value for p in _params(func)}:
            return None
        sites = [(unit, c) for c in unit.calls_in(unit.module) if func in unit._callees(c)]
        sites += [site for site in unit.per_iteration_call_sites(func) if site not in sites]
        if not sites:
            return None
        loss_like, functions = False, []
        for owner, site in sites:
            passed = _passed(owner, site, func, call.func.value)
            if passed is None:
                return None
            known = self._known_callable(owner, passed)
            if known is None:
                return None
            if isinstance(known, cst.FunctionDef):
                functions.append(known)
            else:
                loss_like = True
        return loss_like, functions

    @staticmethod
    def _known_callable(unit: Facts, expr: cst.BaseExpression) -> cst.FunctionDef | bool | None:
        """A program function `expr` names, True for a torch loss module (built there or bound once
        to one) or a torch function computing tensors, None for anything else."""
        if isinstance(expr, cst.Name):
            found = unit._function_at(expr)
            if isinstance(found, cst.FunctionDef):
                return found
            values = [n.value for n in unit.walk(unit.module) if isinstance(n, cst.Assign)
                      and any(isinstance(t.target, cst.Name) and t.target.value == expr.value for t in n.targets)]
            if len(values) == 1 and isinstance(values[0], cst.Call) and not values[0].args:
                expr = values[0]
        if isinstance(expr, cst.Call):
            qualified = unit.qualified_name(expr.func) or ""
            return True if qualified.startswith("torch.nn.") and qualified.endswith("Loss") else None
        qualified = unit.qualified_name(expr) or ""
        return True if qualified in _PASSING_FUNCTIONS or qualified.startswith(_PASSING_PREFIXES) else None

    def _graph_receiver(self, unit: Facts, receiver: cst.BaseExpression) -> bool:
        """`receiver` is itself a value this proof follows (its own uses are judged)."""
        return (id(unit), id(receiver)) in self._seen or isinstance(receiver, cst.Name) and (id(unit), receiver.value) in self._followed

    def _into_callees(self, unit: Facts, value: _Value, call: cst.Call, arg: cst.Arg,
                      callees: Iterable[cst.FunctionDef], work: list[_Value]) -> str:
        """The first unproved use inside any function `call` may run with `value` ('' if none)."""
        if value.depth >= _MAX_DEPTH:
            return self._unproved(unit, call, "hands it to `{code}`, deeper than the proof follows")
        for callee in callees:
            why = self._into_callee(value, call, arg, callee, work)
            if why:
                return why
        return ""

    def _into_callee(self, value: _Value, call: cst.Call, arg: cst.Arg, callee: cst.FunctionDef,
                     work: list[_Value]) -> str:
        owner = value.unit.owner_of(callee)
        param = _parameter_for(call, arg, callee)
        if param is None:
            return self._unproved(value.unit, call, "hands it to `{code}` through `*args`/`**kwargs`")
        inside = _Value(owner, callee, value.depth + 1, None, (*value.returns_to, (value.unit, call)))
        return self._follow_name(inside, param, callee, callee.body, work)  # (what it returns comes back to `call`)

    def _store_in(self, value: _Value, container: str, call: cst.Call, work: list[_Value]) -> str:
        unit = value.unit
        scope = unit.enclosing_function(call)
        if not _local_container(unit, container, scope):
            return self._unproved(unit, call, "stores it with `{code}` in a container made outside this function")
        work.append(value.at(call))  # (`d.setdefault(k, out)` hands it back)
        return self._follow_name(value, container, scope, scope.body if scope is not None else unit.module, work, at=call)

    def _bind(self, value: _Value, target: cst.BaseExpression, binding: cst.CSTNode, work: list[_Value]) -> str:
        unit = value.unit
        self._bindings.add(id(unit.statement_of(binding)) if not isinstance(binding, cst.For) else id(binding))
        scope = unit.enclosing_function(binding)
        body = scope.body if scope is not None else unit.module
        if isinstance(target, cst.Name):
            return self._follow_name(value, target.value, scope, body, work, at=binding)
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            skip = _indices_of_a_pair(value.node, elements)
            for element in elements:
                if element is not skip:
                    why = self._bind(value, element, binding, work)
                    if why:
                        return why
            return ""
        if isinstance(target, cst.Subscript):
            root = root_name(target.value)
            if root is not None and isinstance(target.value, cst.Name) and _local_container(unit, root, scope):
                return self._follow_name(value, root, scope, body, work, at=binding)
            return self._unproved(unit, target, "stores it in `{code}`, outside what the proof follows")
        if isinstance(target, cst.StarredElement):
            return self._bind(value, target.value, binding, work)
        return self._unproved(unit, target, "stores it in `{code}` (an attribute: whoever reads the object sees it)")

    def _follow_name(self, value: _Value, name: str, scope: FunctionNode | None, body: cst.CSTNode,
                     work: list[_Value], at: cst.CSTNode | None = None) -> str:
        """Every read of `name` in `scope` that may see the value bound at `at` (and, at the top level
        of a notebook cell, in the later cells)."""
        unit = value.unit
        anchor = self._anchor if unit is self.facts and scope is self.facts.enclosing_function(self._anchor) else at
        key = (id(unit), name, id(scope), id(anchor), tuple(id(c) for _, c in value.returns_to))
        if key in self._names:
            return ""
        self._names.add(key)
        self._followed.add((id(unit), name))
        if scope is not None and name in _globals(unit, scope):
            return self._unproved(unit, at if at is not None else scope.name,
                                  f"binds it to `{name}`, a global (read where the proof does not follow)")
        for use in _reads(unit, name, body, scope):
            if anchor is not None and _only_before(unit, use, anchor):
                continue
            work.append(value.at(use, anchor=anchor, by_name=True))
        if scope is None:
            for later in unit.later:
                for use in _reads(later, name, later.module, None):
                    work.append(value.at(use, unit=later, by_name=True))
        return ""

    def _returned(self, value: _Value, ret: cst.Return, work: list[_Value]) -> str:
        unit = value.unit
        func = unit.enclosing_function(ret)
        if func is None or isinstance(func, cst.Lambda):
            return self._unproved(unit, ret, "returns it from code the proof does not follow")
        if value.returns_to:
            owner, call = value.returns_to[-1]
            work.append(_Value(owner, call, max(value.depth - 1, 0), None, value.returns_to[:-1]))
            return ""
        sites = [(unit, c) for c in unit.calls_in(unit.module) if func in unit._callees(c) or _calls_instance(unit, c, func)]
        sites += [s for s in unit.per_iteration_call_sites(func) if s not in sites]
        if not sites:
            return self._unproved(unit, ret, f"returns it from `{func.name.value}` to callers this file does not "
                                  "show (one that prints it shows `grad_fn=<...>` only while a graph is recorded)")
        if value.depth >= _MAX_DEPTH:
            return self._unproved(unit, ret, "returns it to callers deeper than the proof follows")
        work.extend(_Value(owner, call, value.depth + 1) for owner, call in sites)  # (every caller of the loop's function)
        return ""

    def _unproved(self, unit: Facts, node: cst.CSTNode, what: str, short: bool = False) -> str:
        code = unit.code(node)
        if short and isinstance(node, cst.Call):
            code = unit.code(node.func) + "(...)"
        code = code if len(code) <= 60 else code[:57] + "..."
        where = f"line {unit.position(node).start.line}"
        if unit is not self.facts:
            where += " of another cell or module"
        return f"{where} {what.format(code=code)}"


def _trainable_tensors(units: list[Facts]) -> set[str]:
    """Tensors that require grad outside any model the loop calls: handed to an optimizer, made an
    `nn.Parameter`, created with `requires_grad=True`, or switched on (`requires_grad_()`,
    `.requires_grad = True`). What the loop computes from them (`prototypes[pred]`) carries a graph
    only with autograd on (red team 33)."""
    out: set[str] = set()
    for unit in units:
        for call in unit.calls_in(unit.module):
            qualified = unit.qualified_name(call.func) or ""
            if qualified.startswith("torch.optim.") and call.args and call.args[0].keyword is None:
                out |= {unit.code(n) for n in unit.walk(call.args[0].value) if _handed_tensor(unit, n)}
            elif isinstance(call.func, cst.Attribute) and call.func.attr.value == "requires_grad_":
                out.add(unit.code(call.func.value))
            elif qualified in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") or any(
                    a.keyword is not None and a.keyword.value == "requires_grad" for a in call.args):
                assign = unit.parent(call)
                if isinstance(assign, cst.Assign):
                    out |= {unit.code(t.target) for t in assign.targets}
        for node in unit.walk(unit.module):
            if isinstance(node, cst.Assign):
                out |= {unit.code(t.target.value) for t in node.targets
                        if isinstance(t.target, cst.Attribute) and t.target.attr.value == "requires_grad"}
    return out


def _handed_tensor(unit: Facts, node: cst.CSTNode) -> bool:
    """`prototypes` or `self.centers` in an optimizer's parameters, not a called function or the
    object whose `.parameters()` is called (`self.model.parameters()`: a model, a root already)."""
    if not isinstance(node, (cst.Name, cst.Attribute)):
        return False
    parent = unit.parent(node)
    return not isinstance(parent, cst.Attribute) and not (isinstance(parent, cst.Call) and parent.func is node)


def model_text(units: list[Facts]) -> str:
    """Why the model's own code may show what it computes ('' if not): a method of a module class
    of the program (its `forward`, a helper of it) turns a value into text (`print(h[0])` under a
    `verbose` flag). The values inside a forward are not followed one by one: any such text is
    left to review (red team cwe)."""
    for unit in units:
        for cls in unit.classes.values():
            if unit._kind_of_class(cls) is not Kind.MODULE:
                continue
            for method in cls.body.body:
                if not isinstance(method, cst.FunctionDef) or method.name.value in ("__init__", "__repr__", "extra_repr"):
                    continue
                shown = next((s for s in text_sinks(unit, method.body) if unit.names_read(s)), None)
                if shown is not None:
                    where = f"line {unit.position(shown).start.line}" + ("" if unit is units[0] else " of another cell or module")
                    return (f"{where} (`{cls.name.value}.{method.name.value}`, the model's own code) turns "
                            f"`{unit.code(shown)}` into text: a value the forward computes shows `grad_fn=<...>`")
    return ""


def _seen_callees(unit: Facts, call: cst.Call) -> list[cst.FunctionDef]:
    """The program's functions `call` runs, when the analysis knows it runs them: a plain name, a
    method of `self` / `super()`, or of an object every binding of which builds a class of the
    program defining that method. [] otherwise (a method matched by name alone may be a library
    object's: `metric.update(out)` beside the program's own `update`)."""
    callees = unit._callees(call)
    if not callees or not all(isinstance(c, cst.FunctionDef) for c in callees):
        return []
    func = call.func
    if isinstance(func, cst.Name):
        return list(callees)  # type: ignore[arg-type]
    if not isinstance(func, cst.Attribute):
        return []
    receiver = func.value
    if isinstance(receiver, cst.Name) and receiver.value in ("self", "cls") \
            or isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super":
        return list(callees)  # type: ignore[arg-type]
    if not isinstance(receiver, cst.Name):
        return []
    values = [n.value for n in unit.walk(unit.module) if isinstance(n, cst.Assign) and n.value is not None
              and any(isinstance(t.target, cst.Name) and t.target.value == receiver.value for t in n.targets)]
    if not values:
        return []
    for value in values:
        made = unit.class_named(value.func) if isinstance(value, cst.Call) else None
        if made is None or not any(isinstance(m, cst.FunctionDef) and m.name.value == func.attr.value
                                   for m in made[1].body.body):
            return []
    return list(callees)  # type: ignore[arg-type]


def _calls_instance(unit: Facts, call: cst.Call, func: FunctionNode) -> bool:
    """`call` runs `func`, a `__call__` of a program class, on an instance built right there
    (`Scorer(net)(batches)`)."""
    if not (isinstance(func, cst.FunctionDef) and func.name.value == "__call__" and isinstance(call.func, cst.Call)):
        return False
    made = unit.class_named(call.func.func)
    return made is not None and any(m is func for m in made[1].body.body)


def _loaded(unit: Facts, name: cst.Name) -> bool:
    """`name` is read there (not a binding target, an attribute's name, a keyword or a parameter)."""
    parent = unit.parent(name)
    if isinstance(parent, cst.Attribute) and parent.attr is name:
        return False
    if isinstance(parent, (cst.Arg,)) and parent.keyword is name:
        return False
    if isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.AsName,
                           cst.NameItem, cst.Global, cst.Nonlocal)):
        return False
    child: cst.CSTNode = name
    for anc in unit.ancestors(name):
        if isinstance(anc, cst.AssignTarget) or isinstance(anc, (cst.For, cst.CompFor)) and anc.target is child \
                or isinstance(anc, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr)) and anc.target is child:
            return isinstance(anc, cst.AugAssign) and child is name  # `total += x` reads `total`
        if isinstance(anc, cst.Del):
            return False
        if not isinstance(anc, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
            break
        child = anc
    return True


def _reads(unit: Facts, name: str, body: cst.CSTNode, scope: FunctionNode | None) -> Iterator[cst.Name]:
    """Reads of `name` in `body` that read `scope`'s variable: not those of a nested function
    with its own binding of the name."""
    for use in unit.uses(name):
        if not unit.contains(body, use) or not _loaded(unit, use):
            continue
        own = unit.enclosing_function(use)
        if own is not scope and own is not None and binds_locally(own, name):
            continue
        yield use


def _rebound_before(unit: Facts, use: cst.Name, anchor: cst.CSTNode | None) -> cst.CSTNode | None:
    """The statement `name = ...` that always runs after `anchor` (where the followed value was
    bound) and before `use`, with no other binding of the name between it and `use`: the use
    reads what that statement bound (the training loop's `loss = ...` before `loss.backward()`,
    on the next pass of the epoch loop that also holds the evaluation). None if there is none."""
    name = use.value
    stores = [u for u in unit.uses(name) if not _loaded(unit, u) or isinstance(unit.parent(u), cst.AugAssign)]
    child: cst.CSTNode = use
    for anc in unit.ancestors(use):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        if isinstance(anc, (cst.IndentedBlock, cst.Module)) and child in anc.body:
            body = list(anc.body)
            before = body[:body.index(child)]
            for stmt in reversed(before):
                if not any(unit.contains(stmt, s) for s in stores):
                    continue
                if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                        and isinstance(stmt.body[0], (cst.Assign, cst.AnnAssign)) and stmt.body[0].value is not None):
                    return None
                small = stmt.body[0]
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                if not any(name in bound_names(t) for t in targets):  # (`l, acc = loss(out, y)` too)
                    return None
                if any(unit.order(stmt) < unit.order(s) and unit.contains(child, s) or
                       unit.contains(stmt.body[0].value, s) for s in stores):
                    return None  # (another binding between, maybe on a later pass of an inner loop)
                if anchor is None or unit.contains(stmt, anchor):
                    return stmt if anchor is None else None
                if unit.order(use) > unit.order(anchor):
                    return stmt if unit.order(stmt) > unit.order(anchor) else None
                loops = [lp for lp in unit.enclosing_loops(use) if unit.contains(lp.node, anchor)]
                return stmt if loops and unit.contains(loops[0].node.body, stmt) else None
        child = anc
    return None


def _only_before(unit: Facts, use: cst.CSTNode, anchor: cst.CSTNode) -> bool:
    """`use` runs before `anchor` and never after it (no loop holds both)."""
    if unit.order(use) >= unit.order(anchor) or unit.contains(anchor, use) \
            or unit.enclosing_function(use) is not unit.enclosing_function(anchor):
        return False  # (a function defined before the loop may be called after it)
    return not any(unit.contains(loop.node, anchor) for loop in unit.enclosing_loops(use))


def _globals(unit: Facts, scope: FunctionNode) -> set[str]:
    return {item.name.value for n in unit.walk(scope.body) if isinstance(n, (cst.Global, cst.Nonlocal))
            for item in n.names}


def _local_container(unit: Facts, name: str, scope: FunctionNode | None) -> bool:
    """`name` is bound in `scope` (not a parameter, not global) only to a new empty or literal
    container: nobody else holds it."""
    body = scope.body if scope is not None else unit.module
    if scope is not None and (not binds_locally(scope, name) or name in {p.name.value for p in _params(scope)}):
        return False
    values: list[cst.BaseExpression | None] = []
    for n in unit.walk(body, into_scopes=False):
        if isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)) and name in bound_names(n.target):
            return False
        if isinstance(n, cst.Assign):
            for t in n.targets:
                values += _paired_values(t.target, n.value, name)
    return bool(values) and all(v is not None and _new_container(unit, v) for v in values)


def _paired_values(target: cst.BaseExpression, value: cst.BaseExpression, name: str) -> list[cst.BaseExpression | None]:
    """What `target = value` binds `name` to (`correct, preds = 0, []`), None where not seen."""
    if isinstance(target, cst.Name):
        return [value] if target.value == name else []
    if isinstance(target, (cst.Tuple, cst.List)):
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements) \
                and not any(isinstance(e, cst.StarredElement) for e in (*value.elements, *target.elements)):
            return [v for t, e in zip(target.elements, value.elements) for v in _paired_values(t.value, e.value, name)]
        return [None] if name in bound_names(target) else []
    return []


def _new_container(unit: Facts, value: cst.BaseExpression) -> bool:
    """A new object nobody else holds: a literal container, an empty one, or what a torch function
    computes (`feats = torch.cat(feats)` after the loop)."""
    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.Tuple, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    qualified = unit.qualified_name(value.func) or "" if isinstance(value, cst.Call) else ""
    return qualified in _EMPTY_CONTAINERS or qualified in _PASSING_FUNCTIONS and qualified.startswith("torch.")


def _params(func: FunctionNode) -> list[cst.Param]:
    p = func.params
    return [*p.posonly_params, *p.params, *p.kwonly_params,
            *([p.star_arg] if isinstance(p.star_arg, cst.Param) else []), *([p.star_kwarg] if p.star_kwarg else [])]


def _parameter_for(call: cst.Call, arg: cst.Arg, callee: cst.FunctionDef) -> str | None:
    """The parameter of `callee` that `arg` fills (`self` skipped for a method called on an object)."""
    if arg.star:
        return None
    if arg.keyword is not None:
        return arg.keyword.value
    positional = positional_params(callee)
    if positional and positional[0] in ("self", "cls") and isinstance(call.func, cst.Attribute):
        positional = positional[1:]
    index = [a for a in call.args if a.keyword is None and not a.star].index(arg)
    return positional[index] if index < len(positional) else None


def _indices_of_a_pair(value: cst.CSTNode, elements: list[cst.BaseExpression]) -> cst.BaseExpression | None:
    """`_, pred = out.max(1)`: the second of a (values, indices) pair holds integers, no graph."""
    if len(elements) == 2 and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in _PAIR_METHODS and value.args:
        return elements[1]
    return None
