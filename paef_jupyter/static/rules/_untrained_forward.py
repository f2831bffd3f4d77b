"""A network no optimizer trains, run with autograd on inside a training step: a DQN's target
network on the replay batch's next states, a BYOL/MoCo momentum encoder, a teacher held by an
agent object. Autograd records its forward every step (its activations stay alive until the
graph is freed) and, when its output is not detached, `backward()` computes gradients for its
parameters that nothing reads.

Proved by a closed world over every unit the program shows (this cell, the cells before and
after it, the modules it imports or that import it):
 - the network is a name or a `self.<attr>` of a plain class (not an `nn.Module`, whose own
   `parameters()` would hold it), every binding of which builds a module (`DQN(...)`,
   `nn.Sequential(...)`, `copy.deepcopy(policy)`), and every other use of it is one of a closed
   list that neither trains it nor switches `requires_grad` (`eval()`, `load_state_dict`,
   `state_dict()` handed to a `load_state_dict`, `parameters()` under `no_grad` or zipped into an
   update through `.data`): it is handed to nothing (a wrapper, a loss, a helper could train it);
 - no optimizer of any unit takes its parameters: every call that builds one (`torch.optim`, or
   named like an optimizer) is read for the network; any other route to an optimizer (a list, a
   helper, a wrapper's `parameters()`) needs a use of the network the closed list refuses;
 - the step that runs it back-propagates and steps a `torch.optim` optimizer (it trains
   something, once per call);
 - its inputs carry no graph: torch's factories, numpy, data the step is handed by every caller
   (traced through the callers' arguments and the helpers they call, a replay buffer's `sample`),
   moved, cast, reshaped, indexed or detached; never a trained model's output (a perceptual loss
   on a generated image needs the graph to the image).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

import libcst as cst

from ..facts import Facts, same_object
from ..names import argument_bound_to, positional_params
from ..types import Kind
from ._data_only import data_only
from ._support import _named_helper, _object_method, _own_method, grad_disabled, steps_itself

# Module methods that neither train the module nor change whether its parameters require grad.
_KEEPING_METHODS = frozenset({"eval", "train", "load_state_dict", "to", "cuda", "cpu", "float", "double", "half"})
# Tensor methods whose result carries a graph only if their receiver does (arguments are sizes,
# devices, dtypes or indices), and `detach`, whose result never does.
_DATA_METHODS = frozenset({
    "to", "cuda", "cpu", "float", "half", "double", "long", "int", "bool", "bfloat16", "view", "reshape", "permute",
    "unsqueeze", "squeeze", "flatten", "contiguous", "transpose", "clone", "type", "t", "expand", "repeat",
})
_GRAPH_FREE_CALLS = frozenset({"torch.tensor", "torch.from_numpy", "torch.zeros", "torch.ones", "torch.randn",
                               "torch.rand", "torch.randint", "torch.arange", "torch.empty", "torch.full"})
_JOINS = frozenset({"torch.cat", "torch.stack", "torch.vstack", "torch.hstack"})
_TUPLE_MAKERS = frozenset({"collections.namedtuple", "typing.NamedTuple"})
# Calls that take parameters to update: every one is traced, `torch.optim` or not.
_OPTIMIZER_WORDS = re.compile(r"(?i)optim|adam|sgd|rmsprop|adagrad|adadelta|lbfgs|lamb\b|lion\b")
_NOT_OPTIMIZERS = ("torch.optim.lr_scheduler.", "torch.optim.swa_utils.")
_DEPTH = 6


@dataclass(frozen=True)
class UntrainedForward:
    stmt: cst.SimpleStatementLine
    call: cst.Call
    model: str  # as spelled: `target_net`, `self.q_target_net`
    detached: bool  # the forward's output is detached in the same expression


def untrained_forwards(facts: Facts) -> Iterator[UntrainedForward]:
    units = _units(facts)
    for call in facts.calls_in(facts.module):
        spelled = _spelled_model(call.func)
        if spelled is None or grad_disabled(facts, call):
            continue
        stmt = facts.statement_of(call)
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 \
                or not isinstance(stmt.body[0], (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr)):
            continue
        step = _training_step(facts, call)
        if step is None or not _steps_an_optimizer(facts, step) or _periodic(facts, call, step):
            continue
        if not untrained(facts, units, call, spelled):
            continue
        if _output_graph_read(facts, stmt):
            continue
        yield UntrainedForward(stmt, call, spelled, _detached(facts, call, stmt))


_GRAPH_READS = frozenset({"backward", "requires_grad_", "retain_grad", "register_hook", "grad", "grad_fn", "requires_grad",
                          "is_leaf", "retains_grad"})


def _output_graph_read(facts: Facts, stmt: cst.SimpleStatementLine) -> bool:
    """The statement, or a later read of a name it binds in the same scope, asks for the graph
    (`.backward()`, `.retain_grad()`, `.grad`, `torch.autograd.grad(out, ...)`)."""
    small = stmt.body[0]
    bound: set[str] = set()
    for target in ([t.target for t in small.targets] if isinstance(small, cst.Assign)
                   else [small.target] if isinstance(small, (cst.AugAssign, cst.AnnAssign)) else []):
        bound |= {n.value for n in facts.walk(target) if isinstance(n, cst.Name)}
    scope = facts.enclosing_function(stmt)
    reads = [n for n in facts.walk(stmt) if isinstance(n, cst.Attribute)]
    for name in bound:
        reads += [u for u in facts.uses(name) if facts.enclosing_function(u) is scope]
    for node in reads:
        parent = facts.parent(node)
        if isinstance(node, cst.Attribute) and node.attr.value in _GRAPH_READS \
                or isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _GRAPH_READS:
            return True
        if any(isinstance(a, cst.Call) and (facts.qualified_name(a.func) or "").startswith("torch.autograd.")
               for a in facts.ancestors(node)):
            return True
    return False


def untrained(facts: Facts, units: list[Facts], call: cst.Call, spelled: str, depth: int = _DEPTH) -> bool:
    """`call` runs a network no optimizer trains, on inputs that carry no graph (or only graphs of
    such networks): whatever graph its output carries reaches no trained parameter."""
    return bool(call.args) and _built_and_kept(facts, units, call.func, spelled) \
        and not _trained_by_an_optimizer(units, spelled) \
        and all(not a.star and graph_free(facts, units, a.value, depth) for a in call.args)


def _units(facts: Facts) -> list[Facts]:
    found = [facts, *facts.prior.cells, *facts.prior.units(), *facts.later, *facts.callers]
    return list({id(u): u for u in found}.values())


def _spelled_model(func: cst.BaseExpression) -> str | None:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        return "self." + func.attr.value
    return None


def _training_step(facts: Facts, call: cst.Call) -> cst.CSTNode | None:
    """The body that runs `call` once per training step: the function around it when it
    back-propagates outside its own loops, else the innermost training loop around it that does."""
    loops = facts.enclosing_loops(call)
    func = facts.enclosing_function(call)
    if func is not None and not loops and steps_itself(facts, func.body):
        return func.body
    if loops and loops[0].kind == "train" and steps_itself(facts, loops[0].node.body):
        return loops[0].node.body
    return None


def _periodic(facts: Facts, node: cst.CSTNode, step: cst.CSTNode) -> bool:
    """Under an `if` of the step whose test takes a `%` by a number of 10 or more (a snapshot every
    100 steps): not a per-step cost (TD3's `if t % 2 == 0:` update still is)."""
    for anc in facts.ancestors(node):
        if anc is step:
            return False
        if isinstance(anc, cst.If) and any(
                isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Modulo)
                and not (isinstance(n.right, cst.Integer) and n.right.evaluated_value < 10) for n in facts.walk(anc.test)):
            return True
    return False


def _steps_an_optimizer(facts: Facts, body: cst.CSTNode) -> bool:
    for c in facts.calls_in(body):
        if isinstance(c.func, cst.Attribute) and c.func.attr.value == "step":
            receiver = _spelled_model(c.func.value)
            if receiver is not None and any(
                    (facts.qualified_name(v.func) or "").startswith("torch.optim.")
                    for v in _bindings(facts, receiver) if isinstance(v, cst.Call)):
                return True
    return False


def _bindings(facts: Facts, spelled: str) -> list[cst.BaseExpression]:
    values = list(facts.assigned_values(spelled))
    if not values and "." not in spelled:
        for unit in [*facts.later, *facts.prior.cells]:
            values += [d.value for d in unit._defs.get(spelled, ()) if d.function is None and d.value is not None]
    return values


def _trained_by_an_optimizer(units: list[Facts], spelled: str) -> bool:
    """Some call in the program that builds an optimizer (`torch.optim` or one named like it)
    mentions the network in its arguments. (Every other way to hand its parameters to one is a
    use `_built_and_kept` refuses: the network is never a value, an argument or an element.)"""
    attr = "." + spelled[5:] if spelled.startswith("self.") else None
    for unit in units:
        for call in unit.calls_in(unit.module):
            qualified = unit.qualified_name(call.func) or ""
            if qualified.startswith(_NOT_OPTIMIZERS):
                continue
            if not (qualified.startswith("torch.optim.")
                    or _OPTIMIZER_WORDS.search((qualified or unit.code(call.func)).rpartition(".")[2])):
                continue
            for arg in call.args:
                for n in unit.walk(arg):
                    if attr is None and isinstance(n, cst.Name) and n.value == spelled \
                            or attr is not None and isinstance(n, cst.Attribute) and "." + n.attr.value == attr:
                        return True
    return False


def _built_and_kept(facts: Facts, units: list[Facts], func: cst.BaseExpression, spelled: str) -> bool:
    """Every binding of the network builds a module, and every use of it keeps its parameters
    as they are (no optimizer, wrapper, helper or `requires_grad` switch sees them)."""
    attr = spelled[5:] if spelled.startswith("self.") else None
    if attr is not None:
        cls = next((a for a in facts.ancestors(func) if isinstance(a, cst.ClassDef)), None)
        if cls is None or facts._kind_of_class(cls) is Kind.MODULE:
            return False
    seen_binding = False
    for unit in units:
        nodes: list[cst.CSTNode] = [n for n in unit.walk(unit.module) if isinstance(n, cst.Attribute)
                                    and n.attr.value == attr] if attr is not None else list(unit.uses(spelled))
        for node in nodes:
            if attr is None and not unit.reads_global(node):  # type: ignore[arg-type]
                parent = unit.parent(node)
                if not (isinstance(parent, cst.Attribute) and parent.attr is node):
                    return False  # a local or a parameter of the same name: not proved the same object
                continue
            verdict = _use(unit, node)
            if verdict is None:
                return False
            seen_binding |= verdict
    return seen_binding


def _use(unit: Facts, node: cst.CSTNode) -> bool | None:
    """True: a binding to a new module; False: a use that keeps the parameters; None: anything else."""
    parent = unit.parent(node)
    if isinstance(node, cst.Name) and isinstance(parent, cst.Attribute) and parent.attr is node:
        return False  # another object's attribute of that spelling (`args.target_net`)
    if isinstance(parent, cst.AssignTarget) and parent.target is node:
        assign = unit.parent(parent)
        return True if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and _builds_module(unit, assign.value) \
            else None
    if isinstance(parent, cst.Call) and parent.func is node:
        return False
    if not (isinstance(parent, cst.Attribute) and parent.value is node):
        return None
    call = unit.parent(parent)
    method = parent.attr.value
    if not (isinstance(call, cst.Call) and call.func is parent):
        return None
    if method in _KEEPING_METHODS:
        return False
    if method == "state_dict":
        arg = unit.parent(call)
        holder = unit.parent(arg) if isinstance(arg, cst.Arg) else None
        return False if isinstance(holder, cst.Call) and isinstance(holder.func, cst.Attribute) \
            and holder.func.attr.value == "load_state_dict" else None
    if method in ("parameters", "named_parameters"):
        return False if grad_disabled(unit, call) or _zipped_update(unit, call) else None
    return None


def _zipped_update(unit: Facts, call: cst.Call) -> bool:
    """`for t, s in zip(target.parameters(), net.parameters()): t.data.copy_(...)`: the target's
    parameters written through `.data` (no graph, `requires_grad` unchanged), read nowhere else."""
    arg = unit.parent(call)
    zipped = unit.parent(arg) if isinstance(arg, cst.Arg) else None
    loop = unit.parent(zipped) if isinstance(zipped, cst.Call) and (unit.qualified_name(zipped.func) or "") == "builtins.zip" \
        else None
    if not isinstance(loop, cst.For) or loop.iter is not zipped or not isinstance(loop.target, cst.Tuple):
        return False
    index = [a.value for a in zipped.args].index(call)
    if index >= len(loop.target.elements) or not isinstance(loop.target.elements[index].value, cst.Name):
        return False
    name = loop.target.elements[index].value.value  # type: ignore[union-attr]
    reads = [n for n in unit.walk(loop.body) if isinstance(n, cst.Name) and n.value == name]
    return bool(reads) and all(isinstance(p := unit.parent(n), cst.Attribute) and p.value is n and p.attr.value == "data"
                               for n in reads)


def _builds_module(unit: Facts, value: cst.BaseExpression) -> bool:
    made = same_object(value)
    if not isinstance(made, cst.Call):
        return False
    qualified = unit.qualified_name(made.func) or ""
    if qualified == "copy.deepcopy":
        return len(made.args) == 1 and _spelled_model(made.args[0].value) is not None
    if qualified.startswith("torch.nn.") and qualified.rpartition(".")[2][:1].isupper() \
            and qualified not in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") \
            or qualified.startswith("torchvision.models."):
        return True
    found = unit.class_named(made.func)
    if found is None:
        return False
    owner, cls = found
    return owner._kind_of_class(cls) is Kind.MODULE and not any(
        isinstance(n, cst.Name) and n.value in ("requires_grad", "requires_grad_") for n in owner.walk(cls))


def _detached(facts: Facts, call: cst.Call, stmt: cst.CSTNode) -> bool:
    """`target(x).max(1)[0].detach()`: the forward's value reaches `.detach()` through methods
    and indexing alone."""
    node: cst.CSTNode = call
    while True:
        parent = facts.parent(node)
        if parent is None or parent is stmt:
            return False
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value == "detach":
                return True
            grand = facts.parent(parent)
            node = grand if isinstance(grand, cst.Call) and grand.func is parent else parent
        elif isinstance(parent, cst.Subscript) and parent.value is node:
            node = parent
        else:
            return False


# --- inputs that carry no graph ----------------------------------------------------------------

def graph_free(facts: Facts, units: list[Facts], expr: cst.BaseExpression, depth: int = _DEPTH) -> bool:
    """`expr` can never carry an autograd graph: built from torch's factories, numpy or
    constants, or handed in by every caller as such, and moved, cast, reshaped, indexed or
    detached since."""
    if depth <= 0:
        return False
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)) or data_only(facts, expr):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False", "None") or _name_graph_free(facts, units, expr, depth - 1)
    if isinstance(expr, cst.Attribute):
        return expr.attr.value == "data" or expr.attr.value not in ("grad", "grad_fn") \
            and graph_free(facts, units, expr.value, depth)
    if isinstance(expr, cst.Subscript):
        return graph_free(facts, units, expr.value, depth)
    if isinstance(expr, cst.UnaryOperation):
        return graph_free(facts, units, expr.expression, depth)
    if isinstance(expr, cst.BinaryOperation):
        return graph_free(facts, units, expr.left, depth) and graph_free(facts, units, expr.right, depth)
    if isinstance(expr, (cst.List, cst.Tuple)):
        return all(not isinstance(e, cst.StarredElement) and graph_free(facts, units, e.value, depth) for e in expr.elements)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return graph_free(facts, units, expr.elt, depth)
    if isinstance(expr, cst.Call):
        return _call_graph_free(facts, units, expr, depth)
    return False


def _call_graph_free(facts: Facts, units: list[Facts], call: cst.Call, depth: int) -> bool:
    func = call.func
    if any(a.keyword is not None and a.keyword.value == "requires_grad" for a in call.args):
        return False
    if isinstance(func, cst.Attribute) and func.attr.value == "detach" and not call.args:
        return True
    qualified = facts.qualified_name(func) or ""
    if qualified in _GRAPH_FREE_CALLS or qualified.startswith("numpy."):
        return True
    if qualified in _JOINS:
        return bool(call.args) and graph_free(facts, units, call.args[0].value, depth)
    if isinstance(func, cst.Attribute) and func.attr.value in _DATA_METHODS and not qualified.startswith("torch."):
        return graph_free(facts, units, func.value, depth)
    if isinstance(func, cst.Name) and _tuple_maker(facts, func):
        return all(graph_free(facts, units, a.value, depth) for a in call.args)
    spelled = _spelled_model(func)
    if spelled is not None and untrained(facts, units, call, spelled, depth - 1):
        return True  # `critic_target(s2, actor_target(s2))`: a graph that reaches no trained parameter
    helper = _named_helper(facts, call) or _own_method(facts, call) or _object_method(facts, call)
    if helper is None:
        return False
    owner = facts.owner_of(helper)
    returns = [n for n in owner.walk(helper.body) if isinstance(n, cst.Return) and owner.enclosing_function(n) is helper]
    return bool(returns) and all(r.value is not None and graph_free(owner, _units(owner), r.value, depth - 1)
                                 for r in returns)


def _tuple_maker(facts: Facts, func: cst.Name) -> bool:
    """`Batch` bound once to `namedtuple('Batch', ...)`: its fields are what it is built from."""
    values = _bindings(facts, func.value)
    return len(values) == 1 and isinstance(values[0], cst.Call) \
        and (facts.qualified_name(values[0].func) or "") in _TUPLE_MAKERS


def _name_graph_free(facts: Facts, units: list[Facts], name: cst.Name, depth: int) -> bool:
    func = facts.enclosing_function(name)
    sources = facts.value_sources(name)
    if sources is not None:
        if not all(graph_free(facts, units, s, depth) for s in sources):
            return False
        return not _written_in_place(facts, units, name.value, func, depth)
    if isinstance(func, cst.FunctionDef) and name.value not in facts.names_written(func.body) \
            and name.value in positional_params(func):
        return _passed_graph_free(facts, units, func, name.value, depth)
    return False


def _written_in_place(facts: Facts, units: list[Facts], name: str, scope: object, depth: int) -> bool:
    """`x[mask] = v` or `x.copy_(v)` with a `v` not proved graph-free, in the name's scope."""
    for use in facts.uses(name):
        if facts.enclosing_function(use) is not scope:
            continue
        parent = facts.parent(use)
        if isinstance(parent, cst.Attribute) and parent.value is use:
            call = facts.parent(parent)
            if parent.attr.value in ("requires_grad", "requires_grad_", "grad"):
                return True
            if isinstance(call, cst.Call) and call.func is parent and parent.attr.value.endswith("_") \
                    and not all(graph_free(facts, units, a.value, depth) for a in call.args):
                return True
        if isinstance(parent, cst.Subscript) and parent.value is use:
            target = facts.parent(parent)
            holder = facts.parent(target) if isinstance(target, cst.AssignTarget) else target
            if isinstance(holder, (cst.Assign, cst.AugAssign)) and not graph_free(facts, units, holder.value, depth):
                return True
    return False


def _passed_graph_free(facts: Facts, units: list[Facts], func: cst.FunctionDef, param: str, depth: int) -> bool:
    """Every call of `func` the program shows passes `param` a graph-free value (or leaves its
    graph-free default); `func` is called, never handed on as a value."""
    names = positional_params(func)
    default = next((p.default for p in (*func.params.posonly_params, *func.params.params) if p.name.value == param), None)
    method = facts.enclosing_function(func) is None and any(isinstance(a, cst.ClassDef) for a in facts.ancestors(func))
    sites = 0
    for unit in units:
        for node in unit.walk(unit.module):
            spelled = node.value if isinstance(node, cst.Name) else node.attr.value if isinstance(node, cst.Attribute) else None
            if spelled != func.name.value:
                continue
            parent = unit.parent(node)
            if isinstance(parent, cst.FunctionDef) and parent.name is node \
                    or isinstance(node, cst.Name) and (method or isinstance(parent, cst.Attribute) and parent.attr is node
                                                       or not unit.reads_global(node)):
                continue  # a method is called on an object; a local of the function's spelling is another name
            if not (isinstance(parent, cst.Call) and parent.func is node) or any(a.star for a in parent.args):
                return False
            callee = unit._function_at(node) or _own_method(unit, parent) or _object_method(unit, parent) \
                or (_named_helper(unit, parent) if isinstance(node, cst.Attribute) else None)
            if callee is not None and callee is not func:
                continue
            offset = 1 if method and isinstance(node, cst.Attribute) and names[:1] == ["self"] else 0
            arg = argument_bound_to(parent, names[offset:], param)
            if arg is None:
                arg = default
            if callee is None and arg is None:
                continue  # `opt.step()`: a call of `func` that passes nothing for `param` (no default) would raise
            if callee is None or arg is None or not graph_free(unit, units, arg, depth):
                return False
            sites += 1
    return sites > 0


def statement_graph_free(facts: Facts, units: list[Facts], stmt: cst.SimpleStatementLine, forward: cst.Call) -> bool:
    """Apart from the forward itself, everything the statement computes carries no graph: under
    `no_grad` it computes the same values (used to offer the wrap's edits)."""
    small = stmt.body[0]
    value = getattr(small, "value", None)
    if not isinstance(value, cst.BaseExpression):
        return False
    return _free_except(facts, units, value, forward)


def _free_except(facts: Facts, units: list[Facts], expr: cst.BaseExpression, forward: cst.Call) -> bool:
    if expr is forward:
        return True
    if forward not in set(facts.walk(expr)):
        return graph_free(facts, units, expr)
    if isinstance(expr, cst.Subscript):
        return _free_except(facts, units, expr.value, forward)
    if isinstance(expr, cst.Attribute):
        return _free_except(facts, units, expr.value, forward)
    if isinstance(expr, cst.BinaryOperation):
        return _free_except(facts, units, expr.left, forward) and _free_except(facts, units, expr.right, forward)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        return _free_except(facts, units, expr.func.value, forward) and all(
            graph_free(facts, units, a.value) for a in expr.args)
    return False
