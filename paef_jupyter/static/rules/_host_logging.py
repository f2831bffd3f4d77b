"""Calls of the program's own methods that change their objects only by keeping host values.

A Lightning-style trainer evaluates with `module.validation_step(batch, i)`, whose body runs the
model and logs `.item()` floats into the module (`self.log(name, loss.item())` appending to
`self.logged[name]`). The call changes `module`, and the next pass's `loss.backward()` reads
`module` (its `training_step` builds the loss): counted as a change that may carry the
evaluation's graph into that backward, it hid every such evaluation loop. What the call keeps is
a number, a string or a detached copy: no graph, whatever the grad mode. This proves that, for
graph flow only (eval-without-no-grad's `_feeds_backward`); loop invariance and rewrites of the
loop's data keep counting the object as changed.

A call is *host-keeping* when every function it may run (the program's, resolved by the call
graph) is, followed through the program functions it calls:
- no `global`/`nonlocal`, `yield`, nested `def`/`lambda`/class, and nothing that asks for autograd
  (`backward()`, `.grad`, `torch.autograd.grad`, `requires_grad`): a training step is never one;
- every store into anything but a plain local name (`self.x = v`, `d[k] = v`, `self.x += v`,
  `xs.append(v)`, `d.setdefault(k, v)`) stores a graph-free value: a literal, a string, `None`,
  `.item()`/`.tolist()`/`.numpy()`/`.detach()`, `float(...)`/`int(...)`/`len(...)`/`str(...)`,
  arithmetic of such values, a local name every binding of which is one, or a parameter given one;
- every other method call is a read-only method (`argmax`, `float`, `mean`, `to`...), a module
  call (`self.net(x)`), or a library function (`F.cross_entropy`) that changes no argument; an
  unresolved method of the program's objects (`self.metric.update(out)`), `setattr`, `exec` and
  unresolved plain calls are refused.
"""

from __future__ import annotations

import libcst as cst

from ..facts import _READ_ONLY_METHODS, Facts, FunctionNode, Loop, param_names
from ..library_effects import torch_changed_arguments
from ..names import bound_names, root_name
from ..types import Kind

# Methods that put their arguments into their receiver.
_STORING = frozenset({"append", "appendleft", "extend", "extendleft", "insert", "add", "update", "setdefault",
                      "__setitem__", "put", "put_nowait", "push"})
# Reads that give a number or text (or a detached copy) of a tensor, never its graph.
_HOST_METHODS = frozenset({"item", "tolist", "numpy", "detach"})
_HOST_BUILTINS = frozenset({"builtins.float", "builtins.int", "builtins.bool", "builtins.str", "builtins.len",
                            "builtins.round", "builtins.repr", "builtins.format"})
_REFUSED_BUILTINS = frozenset({"builtins.setattr", "builtins.exec", "builtins.eval", "builtins.globals",
                               "builtins.vars", "builtins.delattr", "builtins.__import__"})
_GRAD_ATTRIBUTES = frozenset({"backward", "grad", "grad_fn", "requires_grad", "requires_grad_", "retain_grad",
                              "register_hook", "step", "zero_grad"})
_DEPTH = 4


def host_keeping_calls(facts: Facts, loop: Loop) -> frozenset[cst.Call]:
    """The calls in `loop`'s body that are host-keeping (module docstring)."""
    return frozenset(c for c in facts.calls_in(loop.node.body) if _host_keeping_call(facts, c, _DEPTH, set()))


def _host_keeping_call(facts: Facts, call: cst.Call, depth: int, visiting: set[int],
                       given: frozenset[str] = frozenset()) -> bool:
    """`call` (in `facts`) runs only program functions that are host-keeping; `given` are the
    caller's parameters known to hold graph-free values (for the arguments handed on)."""
    callees = facts._callees(call)
    if not callees or depth <= 0:
        return False
    for callee in callees:
        owner = facts.owner_of(callee)
        graph_free = _graph_free_parameters(facts, call, callee, given)
        if not _host_keeping_function(owner, callee, graph_free, depth - 1, visiting):
            return False
    return True


def _graph_free_parameters(facts: Facts, call: cst.Call, callee: FunctionNode, given: frozenset[str]) -> frozenset[str]:
    """Parameters of `callee` that `call` (or a default) gives a graph-free value."""
    params = [*callee.params.posonly_params, *callee.params.params]
    if isinstance(call.func, cst.Attribute) and params and params[0].name.value in ("self", "cls"):
        params = params[1:]
    passed: dict[str, cst.BaseExpression] = {}
    scope = facts.enclosing_function(call)
    for i, arg in enumerate(call.args):
        if arg.star:
            return frozenset()  # `*args`: which parameter gets what is unknown
        if arg.keyword is not None:
            passed[arg.keyword.value] = arg.value
        elif i < len(params):
            passed[params[i].name.value] = arg.value
    out: set[str] = set()
    for p in (*params, *callee.params.kwonly_params):
        value = passed.get(p.name.value, p.default)
        if value is not None and _graph_free(facts, value, scope, given, 0):
            out.add(p.name.value)
    return frozenset(out)


def _host_keeping_function(facts: Facts, func: FunctionNode, graph_free: frozenset[str], depth: int,
                           visiting: set[int]) -> bool:
    key = id(func)
    if key in visiting:
        return True  # recursion: judged by the first visit
    visiting.add(key)
    try:
        return _judge(facts, func, graph_free, depth, visiting)
    finally:
        visiting.discard(key)


def _judge(facts: Facts, func: FunctionNode, graph_free: frozenset[str], depth: int, visiting: set[int]) -> bool:
    params = param_names(func)
    for n in facts.walk(func.body):
        if isinstance(n, (cst.Global, cst.Nonlocal, cst.Yield, cst.Await, cst.FunctionDef, cst.Lambda, cst.ClassDef,
                          cst.Del)):
            return False
        if isinstance(n, cst.Attribute) and n.attr.value in _GRAD_ATTRIBUTES:
            return False  # a training step (`loss.backward()`, `opt.step()`) or a graph read
        if isinstance(n, cst.Arg) and n.keyword is not None and n.keyword.value in ("requires_grad", "out"):
            return False
        if isinstance(n, cst.Assign):
            for target in n.targets:
                if not _plain_target(target.target) and not _graph_free(facts, n.value, func, graph_free, 0):
                    return False
                if not _keys_graph_free(facts, target.target, func, graph_free):
                    return False
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            if n.value is not None and not _plain_target(n.target) and not _graph_free(facts, n.value, func, graph_free, 0):
                return False
        elif isinstance(n, cst.Call) and not _allowed_call(facts, n, func, params, graph_free, depth, visiting):
            return False
    return True


def _own_forward(facts: Facts, method: FunctionNode) -> FunctionNode | None:
    """The `forward` of the class `method` is defined in, when that class defines one itself."""
    holder = facts.enclosing_class(method)
    if holder is None:
        return None
    found = [f for key, f in facts.functions.items()
             if key.endswith(f"{holder.name.value}.forward") and facts.enclosing_class(f) is holder]
    return found[0] if len(found) == 1 else None


def _plain_target(target: cst.BaseExpression) -> bool:
    """A plain local name (or a tuple of them): binding it changes no object."""
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(not isinstance(e, cst.StarredElement) and _plain_target(e.value) for e in target.elements)
    return False


def _keys_graph_free(facts: Facts, target: cst.BaseExpression, func: FunctionNode, graph_free: frozenset[str]) -> bool:
    """Subscript keys of a store (`self.cache[k] = v`) are kept too: each must be graph-free."""
    while isinstance(target, (cst.Subscript, cst.Attribute)):
        if isinstance(target, cst.Subscript):
            for el in target.slice:
                if not isinstance(el.slice, cst.Index) or not _graph_free(facts, el.slice.value, func, graph_free, 0):
                    return False
        target = target.value
    return True


def _allowed_call(facts: Facts, call: cst.Call, func: FunctionNode, params: set[str], graph_free: frozenset[str],
                  depth: int, visiting: set[int]) -> bool:
    f = call.func
    if facts._callees(call):  # (a program method named `update` is judged by its body)
        return _host_keeping_call(facts, call, depth, visiting, graph_free)
    if isinstance(f, cst.Attribute) and f.attr.value in _STORING:
        return all(not a.star and _graph_free(facts, a.value, func, graph_free, 0) for a in call.args)
    qualified = facts.qualified_name(f) or ""
    if qualified in _REFUSED_BUILTINS or torch_changed_arguments(qualified, call):
        return False
    if isinstance(f, cst.Name):
        forward = _own_forward(facts, func) if f.value == "self" else None
        if forward is not None:  # `self(x)`: the class's own `forward` (the module's hooks are `_module_hooks`')
            return _host_keeping_function(facts, forward, _graph_free_parameters(facts, call, forward, graph_free),
                                          depth - 1, visiting) if depth > 0 else False
        if f.value == "self" or f.value in params:
            return False  # a module handed in or `self(x)` whose forward the call graph did not resolve
        return qualified.startswith(("builtins.", "torch.", "math.", "numpy."))
    if not isinstance(f, cst.Attribute):
        return False
    root = root_name(f.value)
    if root is not None and facts._imported(root):
        return True  # `F.cross_entropy(out, y)`: a library function (argument changes checked above)
    if facts.kind(f) is Kind.MODULE:
        return True  # `self.net(x)`: a library module's forward keeps nothing
    method = f.attr.value
    return method in _READ_ONLY_METHODS and not method.endswith("_")


def _graph_free(facts: Facts, value: cst.BaseExpression, func: FunctionNode | None, given: frozenset[str],
                depth: int) -> bool:
    """`value` (read in `func`) can hold no autograd graph: see the module docstring."""
    if depth > 6:
        return False
    if isinstance(value, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.FormattedString,
                          cst.ConcatenatedString)):
        return True
    if isinstance(value, cst.Name):
        if value.value in ("None", "True", "False") or value.value in given:
            return True
        return _local_graph_free(facts, value.value, func, given, depth)
    if isinstance(value, (cst.Tuple, cst.List)):
        return all(not isinstance(e, cst.StarredElement) and _graph_free(facts, e.value, func, given, depth + 1)
                   for e in value.elements)
    if isinstance(value, cst.UnaryOperation):
        return _graph_free(facts, value.expression, func, given, depth + 1)
    if isinstance(value, cst.BinaryOperation):
        return _graph_free(facts, value.left, func, given, depth + 1) \
            and _graph_free(facts, value.right, func, given, depth + 1)
    if isinstance(value, cst.Call):
        f = value.func
        if isinstance(f, cst.Attribute) and f.attr.value in _HOST_METHODS and not facts._callees(value):
            return True
        return (facts.qualified_name(f) or "") in _HOST_BUILTINS
    return False


def _local_graph_free(facts: Facts, name: str, func: FunctionNode | None, given: frozenset[str], depth: int) -> bool:
    """`name` is a local of `func` (not a parameter, not declared global) every binding of which is
    a plain assignment of a graph-free value."""
    if func is None or name in param_names(func):
        return False
    values: list[cst.BaseExpression] = []
    for n in facts.walk(func.body):
        if isinstance(n, (cst.For, cst.CompFor, cst.WithItem, cst.NamedExpr, cst.AugAssign, cst.AnnAssign)):
            target = n.target if not isinstance(n, cst.WithItem) else (n.asname.name if n.asname else None)
            if target is not None and name in bound_names(target):
                return False
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                if name in bound_names(t.target):
                    if not isinstance(t.target, cst.Name):
                        return False  # unpacked: which part it gets is not followed
                    values.append(n.value)
    return bool(values) and all(_graph_free(facts, v, func, given, depth + 1) for v in values)
