"""Facts the rules beyond the paper share: hot loops, grad mode, loader loops, insertions.

Kept out of `facts.py` because they are rule policy (what counts as "every iteration" for a
sync, which loops read a loader), not facts about the code every rule needs.
"""

from __future__ import annotations

import re
import string
from typing import Iterator
from weakref import WeakKeyDictionary

import libcst as cst

from ...fix.edits import replace
from ...model import Edit
from ..device_use import LOADERS
from ..facts import Facts, FunctionNode, Loop, binds_locally, is_autograd_grad, method_of_object
from ..names import argument_bound_to, bound_names, keyword_arg, named_params, parameter_filled, positional_params
from ..types import Kind

_GRAD_OFF = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"})
_SET_GRAD = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"})
_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "trange", "progress_bar"})


# Calls whose result carries no autograd graph whatever their argument.
_GRAPHLESS_METHODS = frozenset({"tolist", "item", "detach", "numpy", "argmax", "argmin", "argsort", "size", "numel", "dim"})
_GRAPHLESS_CALLS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.len", "builtins.type",
                              "builtins.isinstance"})  # what a value is, never its graph
# NumPy's numeric functions read a tensor through `__array__`, which raises on one that records a
# graph: what they return never holds one (`NDCG += 1 / np.log2(rank + 2)`, SASRec's metric; pub64
# p01). Array builders are left out: an object array may keep the tensors themselves.
_GRAPHLESS_NUMPY = frozenset({"log", "log2", "log10", "log1p", "exp", "sqrt", "abs", "absolute", "mean", "sum",
                              "median", "std", "var", "round", "floor", "ceil", "power", "square", "maximum",
                              "minimum", "amax", "amin", "argmax", "argmin", "argsort", "clip", "isnan", "isfinite",
                              "nanmean", "nansum"})
# What turns its arguments into text as they are: a tensor's text shows `grad_fn=<...>` while
# it records a graph, so detaching it (or computing it under no_grad) changes what is printed.
# (`pprint`'s functions show a tensor by its repr, `grad_fn=<...>` included: red team 32a)
_TEXT_CALLS = frozenset({"builtins.print", "builtins.str", "builtins.repr", "builtins.format", "pprint.pprint",
                         "pprint.pformat", "pprint.pp"})
_TEXT_METHODS = frozenset({"info", "debug", "warning", "warn", "error", "critical", "write", "format",
                           "set_postfix", "set_postfix_str", "set_description"})


def _graphless(facts: Facts, node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Comparison):
        return True
    if isinstance(node, cst.Attribute) and node.attr.value in ("indices", "shape", "dtype", "device"):
        return True  # `values.topk(k).indices`, `x.shape[0]`
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        # `[round(v.sum().item(), 4) for v in outs]`: each element drops the graph, so the list holds
        # none (what it iterates is read only to make them)
        called = {n.func.value for n in facts.walk(node.elt) if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)}
        return not graph_names(facts, node.elt) - called  # (`round` itself passes no graph)
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    qualified = facts.qualified_name(func) or ""
    return (isinstance(func, cst.Attribute) and func.attr.value in _GRAPHLESS_METHODS) \
        or qualified in _GRAPHLESS_CALLS \
        or qualified.startswith("numpy.") and qualified[len("numpy."):] in _GRAPHLESS_NUMPY


def graph_names(facts: Facts, value: cst.BaseExpression) -> set[str]:
    """The names `value` reads through which an autograd graph can pass: not those read only
    under a call that drops it (`scores.topk(k).indices.tolist()`, `int(n)`, `x.detach()`) or in
    a comparison (a bool tensor)."""
    cut = _graph_cut(facts, value)
    read = facts.names_read(value)
    if not cut:
        return read
    return read & {n.value for n in facts.walk(value) if isinstance(n, cst.Name) and n not in cut}


def graph_calls(facts: Facts, value: cst.BaseExpression) -> list[cst.Call]:
    """The calls in `value` whose result an autograd graph can pass through to `value` (not those
    under a call that drops it): `mod.training_step(b)` in `mod.training_step(b)["loss"] / n`."""
    cut = _graph_cut(facts, value)
    return [n for n in facts.walk(value) if isinstance(n, cst.Call) and n not in cut]


def _graph_cut(facts: Facts, value: cst.BaseExpression) -> set[cst.CSTNode]:
    cut: set[cst.CSTNode] = set()
    for node in facts.walk(value):
        if node not in cut and _graphless(facts, node):
            cut.update(facts.walk(node))
    return cut


def graph_derived(facts: Facts, names: set[str], scope: cst.CSTNode) -> set[str]:
    """`names` and every name `scope` binds from a value through which their graph can pass
    (`avg = running_loss / n`, `shown = avg`), by name, wherever the binding stands."""
    derived, grew = set(names), True
    bindings = _graph_bindings(facts, scope)
    while grew:
        grew = False
        for read, bound in bindings:
            if read & derived:
                new = bound - derived
                derived |= new
                grew = grew or bool(new)
    return derived


def _graph_bindings(facts: Facts, scope: cst.CSTNode) -> list[tuple[set[str], set[str]]]:
    """(the graph names of its value, the names it binds) of each binding in `scope`, made once
    per scope: `graph_derived` runs for each accumulation site, and walking the scope each time
    made a 1,000-line cell take seconds."""
    memo = _GRAPH_BINDINGS.setdefault(facts, {})
    found = memo.get(scope)
    if found is None:
        found = []
        for n in facts.walk(scope):
            if isinstance(n, (cst.Assign, cst.AugAssign, cst.NamedExpr)) and n.value is not None:
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                found.append((graph_names(facts, n.value), {name for t in targets for name in bound_names(t)}))
            elif isinstance(n, cst.For):  # `for name, value in (("loss", total / n),): print(value)` (red team 32a;
                # a comprehension's variable is its own, and text of the comprehension reads its `iter`)
                found.append((graph_names(facts, n.iter), set(bound_names(n.target))))
            elif isinstance(n, cst.WithItem) and n.asname is not None:
                found.append((graph_names(facts, n.item), set(bound_names(n.asname.name))))
        memo[scope] = found
    return found


_GRAPH_BINDINGS: "WeakKeyDictionary[Facts, dict[cst.CSTNode, list[tuple[set[str], set[str]]]]]" = WeakKeyDictionary()


def text_sinks(facts: Facts, scope: cst.CSTNode) -> Iterator[cst.BaseExpression]:
    """Expressions in `scope` whose value is turned into text as it is (`_text_sinks`), found
    once per scope: graph-retention asks for each accumulation site."""
    memo = _TEXT_SINKS.setdefault(facts, {})
    found = memo.get(scope)
    if found is None:
        found = memo[scope] = list(_text_sinks(facts, scope))
    return iter(found)


_TEXT_SINKS: "WeakKeyDictionary[Facts, dict[cst.CSTNode, list[cst.BaseExpression]]]" = WeakKeyDictionary()


def _text_sinks(facts: Facts, scope: cst.CSTNode) -> Iterator[cst.BaseExpression]:
    """Expressions in `scope` whose value is turned into text as it is: arguments of `print`,
    `str`, `repr`, `format`, a logger's or a progress bar's methods, `"{}".format(...)`, the
    right side of `"%s" % ...`, and f-string fields. A numeric format (`{x:.4f}`, `"%.3f" % x`)
    formats a 0-d tensor's `.item()`: not text of the tensor."""
    for n in facts.walk(scope):
        if isinstance(n, cst.FormattedStringExpression):
            if n.conversion is not None or n.format_spec is None or not n.format_spec:
                yield n.expression
        elif isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Modulo) \
                and isinstance(n.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            pattern = n.left.evaluated_value if isinstance(n.left, cst.SimpleString) else None
            if not isinstance(pattern, str) or set(_PERCENT_CONVERSION.findall(pattern)) & set("rsa"):
                yield n.right
        elif isinstance(n, cst.Call):
            qualified = facts.qualified_name(n.func) or ""
            method = isinstance(n.func, cst.Attribute) and n.func.attr.value in _TEXT_METHODS \
                and not qualified.startswith(("torch.", "numpy.", "math.")) and not _numeric_format_call(n)
            if qualified in _TEXT_CALLS or method:  # (text built inside is judged where it is built)
                yield from (a.value for a in n.args if not _builds_text(facts, a.value))


def text_call(facts: Facts, call: cst.Call) -> bool:
    """`call` is one `text_sinks` judges (print / str / repr / format, a logger's or a progress
    bar's text methods, `"...".format`): what it turns into text is decided there, numeric
    formats included."""
    qualified = facts.qualified_name(call.func) or ""
    return qualified in _TEXT_CALLS or isinstance(call.func, cst.Attribute) and call.func.attr.value in _TEXT_METHODS \
        and not qualified.startswith(("torch.", "numpy.", "math."))


def _builds_text(facts: Facts, node: cst.BaseExpression) -> bool:
    """An f-string, a `%` or `.format` pattern, or `str(...)`/`repr(...)`: a string whose fields
    `text_sinks` reaches on their own."""
    if isinstance(node, (cst.FormattedString, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
    if isinstance(node, cst.Call):
        func = node.func
        return (facts.qualified_name(func) or "") in _TEXT_CALLS or (
            isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString))
    return False


_PERCENT_CONVERSION = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")


def _numeric_format_call(call: cst.Call) -> bool:
    """`"{:.3f} {:d}".format(...)`: every field of a literal pattern has a format spec and no
    `!r`/`!s` conversion, so a 0-d tensor is formatted as its number."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString)):
        return False
    pattern = func.value.evaluated_value
    if not isinstance(pattern, str):
        return False
    try:
        fields = [(spec, conv) for _, name, spec, conv in string.Formatter().parse(pattern) if name is not None]
    except ValueError:
        return False
    return bool(fields) and all(spec and conv is None for spec, conv in fields)


def opaque_call(facts: Facts, call: cst.Call, parameters: bool = True) -> bool:
    """A call whose body no name shows: `getattr(total, "backward")()`, `ACTIONS["bw"](total)`,
    `partial(...)(x)`, or (with `parameters`) a parameter of the calling function other than
    `self` (`finish(total)`, a callback its caller chose). Any of them may back-propagate what
    it is handed."""
    func = call.func
    if isinstance(func, (cst.Call, cst.Subscript)):
        return True
    scope = facts.enclosing_function(call)
    if not parameters or not isinstance(func, cst.Name) or scope is None or func.value == "self":
        return False
    params = scope.params
    return func.value in named_params(params)


def torch_alias(facts: Facts) -> str | None:
    """The local name of the `torch` module: imported by the unit, an earlier cell, or the namespace."""
    from ._tensor_facts import module_alias  # (imports this module)

    return module_alias(facts, "torch")


def hot_loop(facts: Facts, node: cst.CSTNode) -> Loop | None:
    """The loop that runs `node` once per training/eval step, if any.

    That is the innermost loop around `node` (through helpers) when it is, or sits inside, a
    training or evaluation loop, and no training/evaluation loop runs inside it: code after the
    batch loop of an epoch loop runs once per epoch, which is cheap.
    """
    loop = facts.iteration_loop(node)
    # The loop may be another unit's (a helper in this cell called from an epoch loop in a later
    # one, or from another module): its nesting and calls are in that unit's facts.
    inner = loop.facts if loop is not None else facts
    if loop is None or ((any(l.parent is loop and l.kind != "plain" for l in inner.loops) or _calls_step_loop(inner, loop))
                        and not steps_itself(inner, loop.node.body) and not _adapts_by_hand(inner, loop)
                        and not over_batches(inner, loop)):
        return None
    outer: Loop | None = loop
    while outer is not None:
        if outer.kind != "plain" or over_batches(inner, outer):
            if outer is not loop and (_few_fixed_rounds(inner, loop) or _over_model_parts(loop)) \
                    and _is_epoch_loop(inner, outer):
                return None  # `for c in range(n_classes):` beside an epoch's batch loop: a few rounds per epoch
            return loop
        outer = outer.parent
    return _loop_in_step_helper(inner, loop)


def _loop_in_step_helper(facts: Facts, loop: Loop) -> Loop | None:
    """`loop` is a helper's own loop (`for c in range(n_classes):` in `compute_iou`, `for k, v in
    kwargs.items():` in a logger's `update`) and the helper runs once per step of a training or
    evaluation loop (not once per epoch): every round of it runs on every step."""
    caller = step_loop(facts, loop)
    if caller is None or (_is_epoch_loop(caller.facts, caller) and not steps_itself(caller.facts, caller.node.body)):
        return None  # (a training loop that also runs a validation loop every N steps is still one step per round)
    return loop


def step_loop(facts: Facts, loop: Loop | None) -> Loop | None:
    """The training or evaluation loop `loop` runs in: itself, a loop around it, or, for a plain
    loop of a helper, the loop that calls the helper once per iteration."""
    seen: set[int] = set()
    while loop is not None and loop.kind == "plain" and id(loop) not in seen:
        seen.add(id(loop))
        if loop.parent is not None:
            loop = loop.parent
            continue
        func = facts.enclosing_function(loop.node)
        loop = facts.per_iteration_functions.get(func) if func is not None else None
        facts = loop.facts if loop is not None else facts
    return loop if loop is not None and loop.kind != "plain" else None


def is_epoch_loop(facts: Facts, loop: Loop) -> bool:
    """`loop` runs its steps through another loop (its own batch loop, or a helper's)."""
    return _is_epoch_loop(facts, loop)


def _is_epoch_loop(facts: Facts, loop: Loop) -> bool:
    """`loop` runs its steps through another loop (its own batch loop, or a helper's)."""
    return any(l.parent is loop and l.kind != "plain" for l in facts.loops) or _calls_step_loop(facts, loop)


def _few_fixed_rounds(facts: Facts, loop: Loop) -> bool:
    """`for c in range(K)` with `K` an integer literal or a name bound once to one: a loop over
    classes or heads, whose count does not grow with the data."""
    node = loop.node
    if not isinstance(node, cst.For) or not isinstance(node.iter, cst.Call) or not isinstance(node.iter.func, cst.Name) \
            or node.iter.func.value != "range" or len(node.iter.args) != 1:
        return False
    bound = node.iter.args[0].value
    if isinstance(bound, cst.Name):
        bound = facts.value_of(bound)  # type: ignore[assignment]
    return isinstance(bound, cst.Integer) and int(bound.value, 0) <= 64


_MODEL_PARTS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "modules", "named_modules",
                          "children", "named_children"})


def _over_model_parts(loop: Loop) -> bool:
    """`for name, p in net.named_parameters():`: as many rounds as the model has tensors, a
    number fixed by the architecture, not by the data."""
    node = loop.node
    it = node.iter if isinstance(node, cst.For) else None
    return isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in _MODEL_PARTS


_STEP_LOOP_CALLERS: "WeakKeyDictionary[Loop, bool]" = WeakKeyDictionary()


def _calls_step_loop(facts: Facts, loop: Loop) -> bool:
    """`loop` calls a helper that runs a training/evaluation loop of its own (`for epoch: train(...)`
    with the batch loop inside `train`): `loop` is then an epoch loop, whose body runs once per epoch.
    Cached per loop: every finding in the loop asks, and the answer walks the whole call graph."""
    known = _STEP_LOOP_CALLERS.get(loop)
    if known is None:
        known = _STEP_LOOP_CALLERS[loop] = _reaches_step_loop(facts, loop)
    return known


def _reaches_step_loop(facts: Facts, loop: Loop) -> bool:
    seen: set[cst.CSTNode] = set()
    work = [(facts, call) for call, in_loop in facts._calls_in_loops if in_loop is loop]
    while work:
        owner, call = work.pop()
        for func in owner._callees(call):
            if func in seen:
                continue
            seen.add(func)
            callee_facts = owner.owner_of(func)
            if any(l.function is func and l.parent is None and l.kind != "plain" for l in callee_facts.loops) \
                    and not steps_itself(callee_facts, func.body):
                return True  # (a helper that is one step itself runs sub-steps: decoder time steps)
            work.extend((callee_facts, c) for c in callee_facts.calls_in(func.body)
                        if not callee_facts.enclosing_loops(c))
    return False


def steps_itself(facts: Facts, body: cst.CSTNode, depth: int = 2) -> bool:
    """`body` back-propagates outside its inner loops: it is one training step (a generator
    update after `n_critic` critic steps, a seq2seq step after its decoder time steps), however
    many loops run inside it. Calling a helper that is one step itself, outside those loops, is
    back-propagating (`log = model.train_step(model, optimizer, iterator, args)`)."""
    for call in facts.calls_in(body):
        func = call.func
        if _inside_loop(facts, call, body):
            continue
        if isinstance(func, cst.Attribute) and func.attr.value == "backward":
            return True  # (an optimizer's `step` alone may be a scheduler's, once per epoch)
        helper = _named_helper(facts, call) if depth else None
        if helper is not None and steps_itself(facts.owner_of(helper), helper.body, depth - 1):
            return True
    return _accumulates_micro_batches(facts, body)


def step_function(facts: Facts, node: cst.CSTNode) -> FunctionNode | None:
    """The function around `node` when it is one training step whose loop is out of sight
    (`def meta_step(model, opt, x): ...; loss.backward(); opt.step()` in a module another file
    loops over): it back-propagates outside its own loops and nothing in this unit calls it, so
    each call is a step. None when `node` is in one of its loops, or a loop in view calls it
    (`iteration_loop` answers then), or the unit calls it elsewhere (once, at the top level)."""
    func = facts.enclosing_function(node)
    if func is None or facts.enclosing_loops(node) or facts.per_iteration_functions.get(func) is not None:
        return None
    name = func.name.value
    if any(isinstance(c.func, cst.Name) and c.func.value == name
           or isinstance(c.func, cst.Attribute) and c.func.attr.value == name for c in facts.calls_in(facts.module)):
        return None
    return func if steps_itself(facts, func.body) else None


def _named_helper(facts: Facts, call: cst.Call) -> FunctionNode | None:
    """The function `call` runs when its target is known, not guessed from a method's name: a
    function of this unit, an earlier cell or a local module, or a method of the class the
    receiver was made from (`self.update(...)`, `agent.learn(...)` with `agent = Agent(...)`)."""
    func = call.func
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    found = facts._function_at(func)
    if found is None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        found = facts._method_of_instance(func.value, func.attr.value) or facts._imported_method(func.value, func.attr.value)
    return found


def _adapts_by_hand(facts: Facts, loop: Loop) -> bool:
    """`loop` takes `torch.autograd.grad` outside its inner loops, and none of its inner step
    loops goes over batches (MAML's task loop: one adaptation step, then more of them in a loop
    over a range): each iteration is a step of its own, not an epoch around the inner loop."""
    body = loop.node.body
    return any(isinstance(c.func, cst.Attribute) and is_autograd_grad(c.func) and not _inside_loop(facts, c, body)
               for c in facts.calls_in(body)) \
        and not any(l.parent is loop and l.kind != "plain" and over_batches(facts, l) for l in facts.loops)


def updates_weights_by_hand(facts: Facts, loop: Loop) -> bool:
    """`loop` takes `torch.autograd.grad` of a loss with respect to weights and steps them itself
    (MAML: `torch.autograd.grad(loss, self.net.parameters())`, or `grad = torch.autograd.grad(loss,
    fast)` then `fast = [w - lr * g for g, w in zip(grad, fast)]`): each iteration trains, though no
    optimizer steps. Input gradients (a PINN's `autograd.grad(u, x)`) do not: `x` is not rebuilt from them."""
    body = loop.node.body
    for call in facts.calls_in(body):
        if not (isinstance(call.func, cst.Attribute) and is_autograd_grad(call.func)):
            continue
        named = keyword_arg(call, "inputs")
        inputs = named.value if named is not None else call.args[1].value if len(call.args) > 1 else None
        if isinstance(inputs, cst.Call) and isinstance(inputs.func, cst.Attribute) and inputs.func.attr.value == "parameters":
            return True
        assign = facts.parent(call)
        grads = {n for t in assign.targets for n in bound_names(t.target)} if isinstance(assign, cst.Assign) else set()
        if isinstance(inputs, cst.Name) and grads and _made_from_parameters(facts, inputs.value, loop.function) and any(
                isinstance(node, cst.Assign) and inputs.value in {n for t in node.targets for n in bound_names(t.target)}
                and facts.names_read(node.value) & grads for node in facts.walk(body)):
            return True
    return False


def _made_from_parameters(facts: Facts, name: str, func: FunctionNode | None) -> bool:
    """Some binding of `name` in `func` reads a model's `.parameters()`: adapted weights (MAML's
    `fast_weights`), not an input or a perturbation (an attack's `delta`)."""
    return any(d.function is func and d.value is not None and any(
        isinstance(c.func, cst.Attribute) and c.func.attr.value == "parameters" for c in facts.calls_in(d.value))
        for d in facts._defs.get(name, ()))


def _accumulates_micro_batches(facts: Facts, body: cst.CSTNode) -> bool:
    """`body` back-propagates only in inner loops that count rounds (`for _ in range(accum):`),
    steps and zeroes nothing inside them, and steps an optimizer outside them: gradient
    accumulation, one optimizer step per iteration of `body`'s loop. A loop over a loader inside,
    or an optimizer stepped inside the inner loop, makes it an epoch loop."""
    stepped = accumulated = False
    for call in facts.calls_in(body):
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("step", "backward", "zero_grad"):
            continue
        inner = _loop_between(facts, call, body)
        if func.attr.value == "backward":
            if inner is None or not _counts_rounds(inner):
                return False
            accumulated = True
        elif inner is not None:
            return False  # a step per inner round: the inner loop is the training loop
        elif func.attr.value == "step":
            stepped = stepped or facts.kind(func.value) is Kind.OPTIMIZER
    return stepped and accumulated


def _loop_between(facts: Facts, node: cst.CSTNode, body: cst.CSTNode) -> cst.CSTNode | None:
    """The outermost loop (or nested function) between `node` and `body`, if any."""
    found: cst.CSTNode | None = None
    for anc in facts.ancestors(node):
        if anc is body:
            return found
        if isinstance(anc, (cst.For, cst.While, cst.FunctionDef, cst.Lambda)):
            found = anc
    return found


def _counts_rounds(loop: cst.CSTNode) -> bool:
    """`for _ in range(n):`: a loop that repeats, not one that reads a sequence of batches."""
    return isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and isinstance(loop.iter.func, cst.Name) \
        and loop.iter.func.value == "range"


def _inside_loop(facts: Facts, node: cst.CSTNode, body: cst.CSTNode) -> bool:
    """A loop (or a nested function) between `node` and `body`."""
    for anc in facts.ancestors(node):
        if anc is body:
            return False
        if isinstance(anc, (cst.For, cst.While, cst.FunctionDef, cst.Lambda)):
            return True
    return False


def exclusive_branches(facts: Facts, a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """`a` and `b` sit in different branches of one `if`/`elif`/`else` that no loop of their
    function repeats: one run executes at most one of them (`if gpu: ...DDP(m) else: m.cuda()`)."""
    def branches(node: cst.CSTNode) -> dict[cst.If, str]:
        seen: dict[cst.If, str] = {}
        child = node
        for anc in facts.ancestors(node):
            if isinstance(anc, (cst.FunctionDef, cst.Lambda)):
                break
            if isinstance(anc, cst.If):
                seen[anc] = "body" if child is anc.body else "orelse" if child is anc.orelse else "test"
            child = anc
        return seen

    of_a, of_b = branches(a), branches(b)
    for branch, side in of_a.items():
        other = of_b.get(branch)
        if other is not None and other != side and "test" not in (side, other):
            repeated = any(isinstance(anc, (cst.For, cst.While)) for anc in _up_to_function(facts, branch))
            return not repeated
    return False


def _up_to_function(facts: Facts, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda)):
            return
        yield anc


def is_grad_off_call(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`torch.no_grad()`, `torch.inference_mode()`, `torch.set_grad_enabled(False)`."""
    if not isinstance(expr, cst.Call):
        return False
    name = facts.qualified_name(expr.func) or ""
    if name in _GRAD_OFF:
        mode = expr.args[0].value if expr.args and name.endswith("inference_mode") else None
        return not (isinstance(mode, cst.Name) and mode.value == "False")
    if name in _SET_GRAD and expr.args:
        value = expr.args[0].value
        return isinstance(value, cst.Name) and value.value == "False"
    return False


def grad_disabled(facts: Facts, node: cst.CSTNode) -> bool:
    """True if autograd is off where `node` runs: a `with`, a decorator, or a global switch.

    A `with torch.no_grad():` around a `def` turns autograd off while the `def` statement runs (it
    makes the function), not while the body runs later: it counts for the body only where the
    function's name is used inside that `with` (called, or handed on, there); methods of a class
    defined in the block are read as before. pub64 p02:
    `with torch.no_grad(): def get_loss(...)`, called outside, ran its forwards with autograd on."""
    crossed: cst.FunctionDef | None = None  # the outermost function left so far, walking up
    for anc in facts.ancestors(node):
        if isinstance(anc, cst.With) and any(is_grad_off_call(facts, item.item) for item in anc.items):
            if crossed is None or _name_used_in(facts, crossed, anc):
                return True
        if isinstance(anc, cst.FunctionDef):
            if any(is_grad_off_call(facts, d.decorator) or (facts.qualified_name(d.decorator) or "") in _GRAD_OFF
                   for d in anc.decorators):
                return True
            crossed = anc
        if isinstance(anc, cst.ClassDef):
            crossed = None  # a method of a class built in the block: read as before (under it)
    line = facts.position(node).start.line
    for stmt in facts.module.body:  # `torch.set_grad_enabled(False)` at top level, before the loop
        if facts.position(stmt).start.line >= line:
            break
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Expr) and is_grad_off_call(facts, small.value):
                    return True
    return False


def _name_used_in(facts: Facts, func: cst.FunctionDef, block: cst.With) -> bool:
    """`func`'s name appears in `block` outside `func` itself: the body may run under the block."""
    name = func.name.value
    return any(isinstance(n, cst.Name) and n.value == name and not facts.contains(func, n)
               for n in facts.walk(block))


def iterated_name(loop: Loop) -> str | None:
    """`loader` for `for b in loader`, `enumerate(loader)`, `tqdm(loader)`."""
    it = iterated(loop)
    return it.value if isinstance(it, cst.Name) else None


def iterated(loop: Loop) -> cst.BaseExpression | None:
    """What a `for` loop iterates, through `enumerate`/`tqdm`/`iter` wrappers (None: another call)."""
    if not isinstance(loop.node, cst.For):
        return None
    it: cst.BaseExpression = loop.node.iter
    for _ in range(_WRAPPED_NAMES):  # `tr_iter = iter(loader)` then `for batch in tqdm(tr_iter):`
        if isinstance(it, cst.Name):
            it = _progress_bar_of(loop, it) or _bar_bound_to(loop, it) or it
        if not isinstance(it, cst.Call):
            return it
        while isinstance(it, cst.Call) and isinstance(it.func, (cst.Name, cst.Attribute)) and it.args:
            func = it.func.value if isinstance(it.func, cst.Name) else it.func.attr.value
            if func not in _WRAPPERS:
                return None
            it = it.args[0].value
    return it


_WRAPPED_NAMES = 3  # names bound to a wrapper call followed from a loop's iterable


def unwrapped(it: cst.BaseExpression) -> cst.BaseExpression:
    """The iterable under `enumerate`/`tqdm`/`iter` wrappers, whatever it is (`get_loader("train")`
    of `for i, b in enumerate(get_loader("train"))`, which `iterated` leaves as None)."""
    while isinstance(it, cst.Call) and isinstance(it.func, (cst.Name, cst.Attribute)) and it.args \
            and (it.func.value if isinstance(it.func, cst.Name) else it.func.attr.value) in _WRAPPERS:
        it = it.args[0].value
    return it


def _loops_over_call(facts: Facts, call: cst.Call) -> list[Loop]:
    """`for b in f(...)` (through wrappers): the loops whose iterable is this call itself."""
    return [loop for loop in facts.loops if isinstance(loop.node, cst.For) and unwrapped(loop.node.iter) is call]


def _progress_bar_of(loop: Loop, name: cst.Name) -> cst.Call | None:
    """`with tqdm(enumerate(loader)) as t: for i, b in t:`: the wrapper call a `with` around the
    loop bound to the iterated name (a progress bar closed when the epoch ends)."""
    for anc in loop.facts.ancestors(loop.node):
        if isinstance(anc, (cst.FunctionDef, cst.ClassDef)):
            return None
        if not isinstance(anc, cst.With):
            continue
        for item in anc.items:
            target = item.asname.name if item.asname is not None else None
            if isinstance(target, cst.Name) and target.value == name.value:
                call = item.item
                return call if isinstance(call, cst.Call) and isinstance(call.func, (cst.Name, cst.Attribute)) else None
    return None


def _bar_bound_to(loop: Loop, name: cst.Name) -> cst.Call | None:
    """`pbar = tqdm(dataloader)` then `for x, _ in pbar:` (minDiffusion): the wrapper call that is
    the only value the iterated name ever holds in the loop's scope."""
    sources = loop.facts.value_sources(name)
    call = sources[0] if sources is not None and len(sources) == 1 else None
    if isinstance(call, cst.Call) and isinstance(call.func, (cst.Name, cst.Attribute)) and call.args \
            and (call.func.value if isinstance(call.func, cst.Name) else call.func.attr.value) in _WRAPPERS:
        return call
    return None


def over_batches(facts: Facts, loop: Loop) -> bool:
    """`for x, y in test_loader:` (or `enumerate`/`tqdm` of one): one iteration per batch, so
    one step, even when a helper it calls loops on its own (an attack's gradient steps, a
    decoder's time steps): that inner loop runs sub-steps of the batch, not the batches."""
    it = iterated(loop)
    return isinstance(it, (cst.Name, cst.Attribute)) and facts.kind(it) is Kind.DATALOADER


def over_loader_batches(facts: Facts, loop: Loop) -> bool:
    """`over_batches`, or a loop over a call of a function or method of this unit whose only
    `return` builds a DataLoader (`for b in self.get_dataloader(ds)`, or through a name bound to it)."""
    if over_batches(facts, loop):
        return True
    it = iterated(loop)
    made = facts.value_of(it) if isinstance(it, cst.Name) else loop.node.iter if it is None else None  # type: ignore[union-attr]
    if not isinstance(made, cst.Call):
        return False
    helper = facts._function_at(made.func) if isinstance(made.func, (cst.Name, cst.Attribute)) else None
    if helper is None:
        found = method_of_object(facts, made.func)
        helper = found[1] if found is not None else None
    owner = facts.owner_of(helper) if helper is not None else facts
    value = only_return(owner, helper) if isinstance(helper, cst.FunctionDef) else None
    return isinstance(value, cst.Call) and (owner.qualified_name(value.func) or "") in LOADERS


def loops_over(facts: Facts, name: str) -> list[Loop]:
    return [loop for loop in facts.loops if iterated_name(loop) == name]


def in_training_chain(loop: Loop) -> bool:
    """`loop` is a training loop or runs inside one (a batch loop of an epoch loop that trains)."""
    chain: Loop | None = loop
    while chain is not None:
        if chain.kind == "train":
            return True
        chain = chain.parent
    return False


def insert_after(facts: Facts, stmt: cst.CSTNode, code: str) -> Edit:
    """Insert `code` (one statement) on a new line after the compound statement `stmt`."""
    rng = facts.position(stmt)
    lines = facts.lines
    first = lines[rng.start.line - 1]
    indent = first[: len(first) - len(first.lstrip())]
    end = rng.end.line
    if end < len(lines):
        return Edit(end + 1, 0, end + 1, 0, f"{indent}{code}\n")
    col = len(lines[end - 1])
    return Edit(end, col, end, col, f"\n{indent}{code}")


def add_keyword(facts: Facts, call: cst.Call, name: str, value: str) -> Edit:
    """An edit giving `call` the argument `name=value`, touching only that spot (so it composes
    with other rules' edits inside the call)."""
    existing = keyword_arg(call, name)
    if existing is not None:
        return replace(facts, existing.value, value)
    if call.args:
        end = facts.position(call.args[-1]).end
        return Edit(end.line, end.column, end.line, end.column, f", {name}={value}")
    end = facts.position(call).end  # just before the closing parenthesis
    return Edit(end.line, end.column - 1, end.line, end.column - 1, f"{name}={value}")


def append_call(facts: Facts, expr: cst.BaseExpression, method: str) -> tuple[Edit, ...]:
    """Edits turning `expr` into `expr.method()` (parenthesised when it is not an atom)."""
    rng = facts.position(expr)
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not expr.lpar:
        return (Edit(rng.end.line, rng.end.column, rng.end.line, rng.end.column, f".{method}()"),)
    return (
        Edit(rng.start.line, rng.start.column, rng.start.line, rng.start.column, "("),
        Edit(rng.end.line, rng.end.column, rng.end.line, rng.end.column, f").{method}()"),
    )


def with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """`call` with `name=value` added (or replacing an existing `name=`), in the call's style."""
    existing = keyword_arg(call, name)
    arg = cst.Arg(
        value=value,
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    if existing is not None:
        return call.with_changes(args=[arg.with_changes(comma=a.comma) if a is existing else a for a in call.args])
    args = list(call.args)
    if args:
        last = args[-1]
        if isinstance(last.comma, cst.Comma):  # a trailing comma: the new argument keeps it
            arg = arg.with_changes(comma=last.comma)
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return call.with_changes(args=[*args, arg])


# --- `**kwargs` and loaders ----------------------------------------------------------------

_OPAQUE = "*"  # a `**` dict whose keys cannot be listed: it may carry any keyword


def star_keywords(facts: Facts, call: cst.Call) -> dict[str, cst.BaseExpression | None]:
    """Keywords the `**dict` arguments of `call` may carry: name -> its value when the dict sets
    it once, unconditionally, to a known expression; None when it may carry it with any value.

    A dict built literally or by `dict(k=v)` is listed, with every `d[k] = v`, `d.update(...)` and
    `d.setdefault(...)` in its scope (conditional ones included); a dict from anywhere else (a
    parameter, a call, a config object) or passed to another call may carry anything (`"*"`).
    """
    found: dict[str, cst.BaseExpression | None] = {}
    for arg in call.args:
        if arg.star != "**":
            continue
        for key, value in _dict_keys(facts, arg.value).items():
            found[key] = value if key not in found else None
    return found


def may_carry(facts: Facts, call: cst.Call, name: str) -> bool:
    """`call` gets `name=` explicitly or possibly through a `**dict`: adding it could repeat it."""
    if keyword_arg(call, name) is not None:
        return True
    keys = star_keywords(facts, call)
    return name in keys or _OPAQUE in keys


def keyword_value(facts: Facts, call: cst.Call, name: str) -> tuple[bool, cst.BaseExpression | None]:
    """(present, value) of keyword `name` on `call`, through `**dicts`: present is True when it
    may be given; value is its expression when known for sure."""
    explicit = keyword_arg(call, name)
    if explicit is not None:
        return True, explicit.value
    keys = star_keywords(facts, call)
    if name in keys:
        return True, keys[name]
    return _OPAQUE in keys, None


def branch_keyword(facts: Facts, call: cst.Call, name: str) -> tuple[cst.BaseExpression, cst.BaseExpression | None,
                                                                      cst.BaseExpression | None] | None:
    """(test, value if true, value if false) of keyword `name` when only one `**` dict may carry
    it and that dict is `{...} if test else {...}` (a value None: the branch leaves the keyword
    out) that nothing changes afterwards: `kwargs = {"pin_memory": True} if use_cuda else {}`."""
    if keyword_arg(call, name) is not None:
        return None
    found = None
    for arg in call.args:
        if arg.star != "**":
            continue
        keys = _dict_keys(facts, arg.value)
        if name not in keys and _OPAQUE not in keys:
            continue
        expr = arg.value
        value = facts.value_of(expr) if isinstance(expr, cst.Name) else expr
        if found is not None or not isinstance(value, cst.IfExp) \
                or isinstance(expr, cst.Name) and ({name, _OPAQUE} & set(_changed_keys(facts, expr, value))):
            return None
        when_true, when_false = _literal_keys(facts, value.body), _literal_keys(facts, value.orelse)
        if when_true is None or when_false is None or _OPAQUE in when_true or _OPAQUE in when_false:
            return None
        found = (value.test, when_true.get(name), when_false.get(name))
    return found


def _dict_keys(facts: Facts, expr: cst.BaseExpression) -> dict[str, cst.BaseExpression | None]:
    literal = _literal_keys(facts, expr)
    if literal is not None:
        return literal
    if not isinstance(expr, cst.Name):
        return {_OPAQUE: None}
    value = facts.value_of(expr)
    keys = _literal_keys(facts, value) if value is not None else None
    if keys is None:
        return {_OPAQUE: None}
    for key in _changed_keys(facts, expr, value):  # type: ignore[arg-type]
        keys[key] = None
    return keys


def _changed_keys(facts: Facts, expr: cst.Name, value: cst.BaseExpression) -> list[str]:
    """Keys the scope of `expr` may add to the dict bound to `value` after building it:
    `d.update(...)`, `d[k] = v`, `d = {...}` in a branch, `d |= {...}`; `"*"` for any key. A dict
    bound at the module's top level is a global: any function of the unit that reads it may add
    keys too (`def configure(args): LOADER_KW["pin_memory"] = ...`, red team 31b)."""
    changed: list[str] = []
    scope = facts.enclosing_function(expr) or facts.module
    global_dict = facts.enclosing_function(value) is None
    for use in facts.uses(expr.value):
        if use is expr:
            continue
        elsewhere = (facts.enclosing_function(use) or facts.module) is not scope
        if elsewhere and not (global_dict and (facts.reads_global(use) or _declared_global(facts, use))):
            continue
        parent = facts.parent(use)
        if elsewhere and (isinstance(parent, cst.AssignTarget) and facts.parent(parent).value is not value  # type: ignore[union-attr]
                          or isinstance(parent, cst.AugAssign) and parent.target is use):
            changed.append(_OPAQUE)  # `global D; D = {**D, ...}` in another function: rebound there, any keys
            continue
        if isinstance(parent, cst.Attribute) and parent.value is use:
            call = facts.parent(parent)
            method = parent.attr.value
            if method in ("update", "setdefault", "__setitem__") and isinstance(call, cst.Call):
                changed += _update_keys(facts, call) if method == "update" else _first_string(call)
            elif method not in ("get", "items", "keys", "values", "copy", "pop"):
                changed.append(_OPAQUE)
        elif isinstance(parent, cst.Subscript) and parent.value is use:
            target = facts.parent(parent)
            if isinstance(target, (cst.AssignTarget, cst.AugAssign)) or (isinstance(target, cst.Del)):
                index = parent.slice[0].slice if len(parent.slice) == 1 else None
                string = index.value if isinstance(index, cst.Index) else None
                changed.append(str(string.evaluated_value) if isinstance(string, cst.SimpleString) else _OPAQUE)
        elif isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.AugAssign) and parent.target is use):
            assigned = facts.parent(parent).value if isinstance(parent, cst.AssignTarget) else parent.value  # type: ignore[union-attr]
            if assigned is value:
                continue  # the definition resolved above
            changed += list(_literal_keys(facts, assigned) or {_OPAQUE: None})  # `d = {...}` in a branch, `d |= {...}`
        elif isinstance(parent, cst.Arg) and (parent.star == "" or parent.star == "*"):
            changed.append(_OPAQUE)  # handed to another function: it may add anything
    return changed


def _declared_global(facts: Facts, use: cst.Name) -> bool:
    """The function around `use` declares its name `global` (`global LOADER_KW; LOADER_KW = {...}`)."""
    func = facts.enclosing_function(use)
    return func is not None and any(isinstance(n, cst.Global) and any(g.name.value == use.value for g in n.names)
                                    for n in facts.walk(func))


def _literal_keys(facts: Facts, expr: cst.BaseExpression) -> dict[str, cst.BaseExpression | None] | None:
    if isinstance(expr, cst.IfExp):  # `{...} if cuda else {}`: either branch's keys, a value known when both agree
        branches = [_literal_keys(facts, expr.body), _literal_keys(facts, expr.orelse)]
        if branches[0] is None or branches[1] is None:
            return None
        merged: dict[str, cst.BaseExpression | None] = {}
        for key in {**branches[0], **branches[1]}:
            values = [b.get(key) for b in branches]
            same = values[0] is not None and values[1] is not None and facts.code(values[0]) == facts.code(values[1])
            merged[key] = values[0] if same and key in branches[0] and key in branches[1] else None
        return merged
    if isinstance(expr, cst.Dict):
        keys: dict[str, cst.BaseExpression | None] = {}
        for el in expr.elements:
            if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString):
                keys[str(el.key.evaluated_value)] = el.value
            elif isinstance(el, cst.StarredDictElement):
                keys.update({k: None for k in _dict_keys(facts, el.value)})
            else:
                keys[_OPAQUE] = None
        return keys
    if isinstance(expr, cst.Call) and (facts.qualified_name(expr.func) or "") == "builtins.dict":
        keys = {}
        for arg in expr.args:
            if arg.keyword is not None:
                keys[arg.keyword.value] = arg.value
            elif arg.star == "**":
                keys.update({k: None for k in _dict_keys(facts, arg.value)})
            else:
                keys[_OPAQUE] = None
        return keys
    return None


def _update_keys(facts: Facts, call: cst.Call) -> list[str]:
    keys: list[str] = []
    for arg in call.args:
        if arg.keyword is not None:
            keys.append(arg.keyword.value)
        else:
            keys.extend(_dict_keys(facts, arg.value))
    return keys


def _first_string(call: cst.Call) -> list[str]:
    first = call.args[0].value if call.args else None
    return [str(first.evaluated_value)] if isinstance(first, cst.SimpleString) else [_OPAQUE]


def consumer_loops(facts: Facts, loader: cst.Call) -> list[Loop]:
    """Loops that provably iterate this loader call's value: the loop's name is bound to the
    call in the loop's own scope, or is a global the loop's function reads without binding it;
    or the call is what a helper returns (its only `return`) and the loop's name is bound to a
    call of that helper. A loader reaching a loop as a parameter is not linked (the same name
    may hold another loader)."""
    if _placeholder_method(facts, loader):
        return []
    loops = _loops_of_value(facts, loader) + _loops_over_call(facts, loader)  # `for b in DataLoader(...)`
    helper = _returned_by(facts, loader)
    if helper is not None:
        for use in facts.uses(helper.name.value):
            call = facts.parent(use)
            if isinstance(call, cst.Call) and call.func is use:
                loops.extend(l for l in _loops_of_value(facts, call) + _loops_over_call(facts, call) if l not in loops)
    loops.extend(l for l in _loops_of_built_attribute(facts, loader) if l not in loops)
    loops.extend(l for l in _loops_of_attribute_binding(facts, loader) if l not in loops)
    loops.extend(l for l in _loops_of_dataclass_field(facts, loader) if l not in loops)
    loops.extend(l for l in _loops_of_loader_method(facts, loader) if l not in loops)
    return loops


def zipped_loops(facts: Facts, loader: cst.Call) -> list[tuple[Loop, int]]:
    """`for i, (data_x, data_u) in enumerate(zip(labeled_loader, unlabeled_loader))` (or through one
    name bound to the `zip(...)` call in the loop's function: FixMatch's `train_loader = zip(...)`):
    the loops that iterate this loader as argument k of a `zip`, with k. The loader reaches the
    `zip` by the name bound to it in the same function, or as a parameter of a module-level
    function every call of which in this unit passes that name (the step function taking both
    loaders of a semi-supervised or domain-adaptation loop)."""
    parent = facts.parent(loader)
    if _placeholder_method(facts, loader) or not (
            isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return []
    name = parent.targets[0].target.value
    holders = {(facts.enclosing_function(loader), name)} | _parameters_given(facts, loader, name)
    found: list[tuple[Loop, int]] = []
    for loop in facts.loops:
        pairs = _zip_of(facts, loop)
        for k, arg in enumerate(pairs.args if pairs is not None else ()):
            value = arg.value
            if arg.keyword is None and not arg.star and isinstance(value, cst.Name) \
                    and (loop.function, value.value) in holders \
                    and (facts.value_of(value) is loader or facts.value_of(value) is None
                         and (loop.function, value.value) != (facts.enclosing_function(loader), name)
                         and value.value not in facts.names_written(loop.function.body)):
                found.append((loop, k))
    return found


def _zip_of(facts: Facts, loop: Loop) -> cst.Call | None:
    """The `zip(...)` call a `for` loop iterates (through `enumerate`/`tqdm`, or one name bound to it)."""
    if not isinstance(loop.node, cst.For):
        return None
    it: cst.BaseExpression = loop.node.iter
    while isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in _WRAPPERS and it.args:
        it = it.args[0].value
    if isinstance(it, cst.Name):
        it = facts.value_of(it)
    if isinstance(it, cst.Call) and facts.qualified_name(it.func) == "builtins.zip" and it.args:
        return it
    return None


def _parameters_given(facts: Facts, loader: cst.Call, name: str) -> set[tuple[cst.FunctionDef, str]]:
    """(function, parameter) pairs of module-level functions whose every call in this unit passes
    `name` (holding `loader` where the call is) for that parameter, by position or by keyword."""
    out: set[tuple[cst.FunctionDef, str]] = set()
    for func_name, func in facts.functions.items():
        if not isinstance(func, cst.FunctionDef) or facts.enclosing_function(func) is not None \
                or any(isinstance(a, cst.ClassDef) for a in facts.ancestors(func)):
            continue
        uses = [u for u in facts.uses(func_name) if not _names_no_value(facts, u)]
        calls = [facts.parent(u) for u in uses]
        if not uses or not all(isinstance(c, cst.Call) and c.func is u for c, u in zip(calls, uses)):
            continue  # not called, or handed on as a value (a callback): other loaders may reach it
        params = positional_params(func)
        for i, param in enumerate(params):
            passed = [_argument_for(c, i, param) for c in calls]
            if all(isinstance(a, cst.Name) and a.value == name and facts.value_of(a) is loader for a in passed):
                out.add((func, param))
    return out


def _names_no_value(facts: Facts, name: cst.Name) -> bool:
    """The `train` of `def train(...)` or of `model.train()`: a spelling, not a use of the function."""
    parent = facts.parent(name)
    return isinstance(parent, cst.FunctionDef) and parent.name is name \
        or isinstance(parent, cst.Attribute) and parent.attr is name


def _argument_for(call: cst.Call, index: int, param: str) -> cst.BaseExpression | None:
    if any(a.star for a in call.args):
        return None
    keyword = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
    if keyword is not None:
        return keyword
    positional = [a.value for a in call.args if a.keyword is None]
    return positional[index] if index < len(positional) else None


def _placeholder_method(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` sits in a function that always ends in `raise NotImplementedError` and returns
    nothing (a base class's `init_dataloader` that subclasses override): what it builds there is
    thrown away with the exception, never iterated."""
    func = facts.enclosing_function(node)
    if not isinstance(func, cst.FunctionDef) or not isinstance(func.body, cst.IndentedBlock) or not func.body.body:
        return False
    last = func.body.body[-1]
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Raise)):
        return False
    exc = last.body[0].exc
    if isinstance(exc, cst.Call):
        exc = exc.func
    if not (isinstance(exc, cst.Name) and exc.value == "NotImplementedError"):
        return False
    return not any(isinstance(n, (cst.Return, cst.Yield)) for n in facts.walk(func.body))


def method_class(facts: Facts, node: cst.CSTNode) -> cst.ClassDef | None:
    """The class whose method (directly in its body) holds `node`."""
    func = facts.enclosing_function(node)
    block = facts.parent(func) if func is not None else None
    cls = facts.parent(block) if isinstance(block, cst.IndentedBlock) else None
    return cls if isinstance(cls, cst.ClassDef) else None


def _loops_of_attribute_binding(facts: Facts, loader: cst.Call) -> list[Loop]:
    """`self.train_loader = DataLoader(...)` or `self.loaders["train"] = DataLoader(...)` in any
    method (`__init__`, `setup()`): the loops of the class's methods over that attribute (or that
    key of it) iterate this call's value, when this is the attribute's (the key's) only binding:
    the dict bound once, to `{}`, and otherwise only read by string keys; no `.<attr>` written or
    handed on anywhere else in the unit. Also `self.loaders = {"train": DataLoader(...), ...}`, the
    dict literal the attribute's only binding, read by string keys in the class or, outside it,
    on provable instances of it (`trainer.loaders["train"]`, `trainer` built from the class)."""
    parent = facts.parent(loader)
    cls = method_class(facts, loader)
    key: str | None = None
    entry = dict_entry(facts, loader)
    if entry is not None:
        parent, key = facts.parent(entry[0]), entry[1]
    if cls is None or not (isinstance(parent, cst.Assign) and len(parent.targets) == 1):
        return []
    target = parent.targets[0].target
    if entry is not None and isinstance(target, cst.Subscript):
        return []
    if isinstance(target, cst.Subscript):
        key = _string_key(target)
        target = target.value
        if key is None:
            return []
    if not (isinstance(target, cst.Attribute) and is_self_attr(target, target.attr.value)):
        return []
    attr = target.attr.value
    inside = {id(n) for n in facts.walk(cls)}
    outside = [n for n in facts.walk(facts.module) if isinstance(n, cst.Attribute) and n.attr.value == attr
               and id(n) not in inside and not _unrelated_self(facts, n, cls)]
    if outside and (entry is None or not all(_keyed_use(facts, use, key, parent) for use in outside)):  # type: ignore[arg-type]
        return []  # `trainer.loaders = ...` or a use from outside the class: not followed
    uses = [n for n in facts.walk(cls) if isinstance(n, cst.Attribute) and is_self_attr(n, attr)]
    if key is None:
        bound = [n for n in facts.walk(cls.body) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign))
                 and _binds_self_attr(n.target, attr)]
        if len(bound) != 1:
            return []
    elif not all(_keyed_use(facts, use, key, parent) for use in uses):
        return []
    methods = {s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
    loops: list[Loop] = []
    for loop in facts.loops:
        it = _iterated_through_name(loop) if loop.function in methods or entry is not None else None
        if key is not None and isinstance(it, cst.Subscript) and _string_key(it) == key:
            it = it.value
        elif key is not None:
            continue
        if it is None or not isinstance(it, cst.Attribute) or it.attr.value != attr:
            continue
        if loop.function in methods and is_self_attr(it, attr) or id(it) in {id(n) for n in outside} \
                and _instance_of(facts, it.value, cls, loop):
            loops.append(loop)
    return loops


def _unrelated_self(facts: Facts, attr: cst.Attribute, cls: cst.ClassDef) -> bool:
    """`self.<attr>` in a method of another class of this unit that neither derives from `cls`
    nor is one of its bases: another object's attribute."""
    other = method_class(facts, attr)
    if other is None or other is cls or not (isinstance(attr.value, cst.Name) and attr.value.value == "self"):
        return False
    return cls.name.value not in _ancestry(facts, other) and other.name.value not in _ancestry(facts, cls)


def _ancestry(facts: Facts, cls: cst.ClassDef, depth: int = 4) -> set[str]:
    """Names of `cls`'s bases, through the classes of this unit; any base not a plain name counts as all."""
    names: set[str] = set()
    for base in cls.bases:
        if not isinstance(base.value, cst.Name):
            return names | {"*"}
        names.add(base.value.value)
        parent = facts.classes.get(base.value.value)
        if parent is not None and depth:
            names |= _ancestry(facts, parent, depth - 1)
    return names


def _string_key(sub: cst.Subscript) -> str | None:
    index = sub.slice[0].slice if len(sub.slice) == 1 else None
    value = index.value if isinstance(index, cst.Index) else None
    return str(value.evaluated_value) if isinstance(value, cst.SimpleString) else None


def _keyed_use(facts: Facts, use: cst.Attribute, key: str, binding: cst.Assign) -> bool:
    """A use of the dict attribute `self.<attr>` that leaves its entry `key` as `binding` set it:
    its one binding `self.<attr> = {}` (or `binding` itself, a dict literal), a read or a write of
    another string key, or `binding`."""
    parent = facts.parent(use)
    if isinstance(parent, cst.AssignTarget):
        stmt = facts.parent(parent)
        return stmt is binding or isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, cst.Dict) \
            and not stmt.value.elements and facts.enclosing_function(stmt) is not None \
            and facts.enclosing_function(stmt).name.value == "__init__"  # type: ignore[union-attr]
    if isinstance(parent, cst.Subscript) and parent.value is use:
        found = _string_key(parent)
        holder = facts.parent(parent)
        if isinstance(holder, cst.AssignTarget):
            return found is not None and (found != key or facts.parent(holder) is binding)
        return found is not None and not isinstance(holder, (cst.AugAssign, cst.Del))
    return isinstance(parent, cst.Attribute) and parent.value is use and parent.attr.value in ("get", "items", "keys", "values") \
        and isinstance(facts.parent(parent), cst.Call)


def _loops_of_dataclass_field(facts: Facts, loader: cst.Call) -> list[Loop]:
    """`loaders = Loaders(train=DataLoader(...), ...)` with `Loaders` a `@dataclass` of this unit
    that writes none of its fields itself, the name bound once: loops over `loaders.train` iterate
    this call's value while no `.train` is written anywhere in the unit."""
    arg = facts.parent(loader)
    call = facts.parent(arg) if isinstance(arg, cst.Arg) and arg.value is loader and not arg.star else None
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name) or call.func.value not in facts.classes:
        return []
    cls = facts.classes[call.func.value]
    if not any((facts.qualified_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) or "")
               in ("dataclasses.dataclass", "dataclass") for d in cls.decorators):
        return []
    fields = [s.body[0].target.value for s in cls.body.body if isinstance(s, cst.SimpleStatementLine)  # type: ignore[union-attr]
              and isinstance(s.body[0], cst.AnnAssign) and isinstance(s.body[0].target, cst.Name)]
    assert isinstance(arg, cst.Arg)
    index = call.args.index(arg)
    field = arg.keyword.value if arg.keyword is not None else fields[index] if index < len(fields) \
        and all(a.keyword is None for a in call.args[: index + 1]) else None
    bound = facts.parent(call)
    if field is None or field not in fields or any(a.star for a in call.args) or not (
            isinstance(bound, cst.Assign) and len(bound.targets) == 1 and isinstance(bound.targets[0].target, cst.Name)):
        return []
    name = bound.targets[0].target.value
    if len(facts.assigned_values(name)) != 1 or any(
            isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and isinstance(n.target, cst.Attribute)
            and n.target.attr.value == field for n in facts.walk(facts.module)):
        return []  # rebound, or a field written (`loaders.train = ...`, `self.train = ...` in the class)
    loops: list[Loop] = []
    for loop in facts.loops:
        it = _iterated_through_name(loop)
        if isinstance(it, cst.Attribute) and it.attr.value == field and isinstance(it.value, cst.Name) \
                and it.value.value == name and (facts.value_of(it.value) is call or _reads_global(facts, loop, call, name)):
            loops.append(loop)
    return loops


def _loops_of_built_attribute(facts: Facts, loader: cst.Call) -> list[Loop]:
    """`self.train_loader = self._build_loader(ds, ...)` in `__init__`, with the loader call the
    builder method's only `return`, or `self.trainloader, self.testloader = self.build_loaders()`
    with the loader at that place of the tuple the builder returns: loops of the class's methods
    over that attribute iterate this call's value (the attribute is bound nowhere else in the class)."""
    loops: list[Loop] = []
    for cls, target in built_attributes(facts, loader):
        loops += [l for l in _loops_over_attribute(facts, cls, target.attr.value) if l not in loops]
    return loops


def built_attributes(facts: Facts, loader: cst.Call) -> list[tuple[cst.ClassDef, cst.Attribute]]:
    """The `self.<attr>` targets `__init__` binds to what a builder method returning `loader` gives
    (see `_loops_of_built_attribute`), with their class."""
    func = facts.enclosing_function(loader)
    cls = facts.parent(facts.parent(func)) if func is not None else None
    if not isinstance(cls, cst.ClassDef):
        return []
    returned = only_return(facts, func)  # type: ignore[arg-type]
    place = None if returned is loader else _tuple_place(facts, returned, loader)
    init = dataset_method(cls, "__init__")
    if init is None or returned is not loader and place is None:
        return []
    found: list[tuple[cst.ClassDef, cst.Attribute]] = []
    for node in facts.walk(init.body, into_scopes=False):
        if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Call)
                and is_self_attr(node.value.func, func.name.value)):  # type: ignore[union-attr]
            continue
        target = node.targets[0].target
        if place is not None:
            index, n = place
            elements = target.elements if isinstance(target, (cst.Tuple, cst.List)) else ()
            if len(elements) != n or any(isinstance(el, cst.StarredElement) for el in elements):
                continue
            target = elements[index].value
        if isinstance(target, cst.Attribute) and is_self_attr(target, target.attr.value):
            found.append((cls, target))
    return found


def _tuple_place(facts: Facts, value: cst.BaseExpression | None, loader: cst.Call) -> tuple[int, int] | None:
    """(k, n): `value` is a tuple literal of n elements, no starred one, whose element k is `loader`
    (directly or through a name bound to it once)."""
    if not isinstance(value, cst.Tuple) or any(isinstance(el, cst.StarredElement) for el in value.elements):
        return None
    index = next((i for i, el in enumerate(value.elements) if el.value is loader
                  or isinstance(el.value, cst.Name) and facts.value_of(el.value) is loader), None)
    return None if index is None else (index, len(value.elements))


def only_return(facts: Facts, func: cst.FunctionDef) -> cst.BaseExpression | None:
    """The value of `func`'s only `return` (through one local name)."""
    returns = [n for n in facts.walk(func.body, into_scopes=False) if isinstance(n, cst.Return)]
    if len(returns) != 1 or returns[0].value is None:
        return None
    value = returns[0].value
    return facts.value_of(value) if isinstance(value, cst.Name) else value


def _loops_over_attribute(facts: Facts, cls: cst.ClassDef, attr: str) -> list[Loop]:
    """Loops of `cls`'s methods over `self.<attr>` (through `enumerate`/`tqdm`), where the class
    binds `self.<attr>` exactly once (in `__init__`): every such loop iterates that one value."""
    if init_value(facts, cls, attr) is None:
        return []
    bound = [n for n in facts.walk(cls.body) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign))
             and _binds_self_attr(n.target, attr)]
    if len(bound) != 1:
        return []
    methods = {s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
    loops = [loop for loop in facts.loops if loop.function in methods and (it := _iterated_through_name(loop)) is not None
             and is_self_attr(it, attr)]
    # `self.iteration(epoch, self.train_data)`: a method handed the attribute loops over its parameter
    passed = [(facts, node) for node in facts.walk(cls.body) if isinstance(node, cst.Attribute) and is_self_attr(node, attr)
              and facts.enclosing_function(node) in methods and _argument_call(facts, node) is not None]
    loops += [loop for loop in _fed_through_arguments(passed, _FORWARDS - 1) if loop not in loops]
    outside = _instance_reads(facts, cls, attr)  # `train_kd(..., trainer.trainloader)` in main.py
    for unit, read in outside:
        loops += [loop for loop in unit.loops if _iterated_through_name(loop) is read and loop not in loops]
    return loops + [loop for loop in _fed_through_arguments(outside) if loop not in loops]


def _instance_reads(facts: Facts, cls: cst.ClassDef, attr: str) -> list[tuple[Facts, cst.Attribute]]:
    """`trainer.<attr>` read outside the class, in this unit or a unit that calls it (a script's
    main.py), where `trainer` holds an object made by `cls(...)` and that unit writes no `.<attr>`
    on anything: the value the class bound."""
    reads: list[tuple[Facts, cst.Attribute]] = []
    for unit in [facts, *facts.callers]:
        found = [node for node in unit.walk(unit.module) if isinstance(node, cst.Attribute) and node.attr.value == attr]
        if any(isinstance(unit.parent(node), (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)) for node in found):
            continue
        for node in found:
            if isinstance(node.value, cst.Name) and node.value.value != "self" and unit.enclosing_class(node) is not cls:
                made = unit.construction_of(node.value)
                if made is not None and unit._names_class(made.func, cls):
                    reads.append((unit, node))
    return reads


def _iterated_through_name(loop: Loop) -> cst.BaseExpression | None:
    """`iterated`, and through a local name bound to the iterable (`tk = tqdm(self.train_loader)`
    then `for i, batch in enumerate(tk):`, pytorch/examples' vision_transformer)."""
    it = iterated(loop)
    if not isinstance(it, cst.Name):
        return it
    value = loop.facts.value_of(it)
    while isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)) and value.args \
            and (value.func.value if isinstance(value.func, cst.Name) else value.func.attr.value) in _WRAPPERS:
        value = value.args[0].value
    return value if isinstance(value, cst.Attribute) else it


def _binds_self_attr(target: cst.BaseExpression, attr: str) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds_self_attr(el.value, attr) for el in target.elements)
    return is_self_attr(target.value if isinstance(target, cst.StarredElement) else target, attr)


def _loops_of_stored_argument(owner: Facts, call: cst.Call, arg: cst.Arg) -> list[Loop]:
    """`Engine(model, opt, train_loader, ...)` (a class of this unit, an earlier cell or a local
    module) whose `__init__` stores the parameter, never rebound, on `self`
    (`self.train_loader = train_loader`): the loops of its methods over that attribute."""
    if isinstance(call.func, cst.Name) and call.func.value in owner.classes:
        callee, cls = owner, owner.classes[call.func.value]
    else:
        found = owner._class_at(call.func)
        if found is None:
            return []
        callee, cls = found
    init = dataset_method(cls, "__init__")
    if init is None:
        return []
    param = parameter_filled(call, arg, positional_params(init)[1:])
    if param is None or param in callee.names_written(init.body):
        return []
    loops: list[Loop] = []
    for node in callee.walk(init.body, into_scopes=False):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Name) \
                and node.value.value == param and isinstance(node.targets[0].target, cst.Attribute) \
                and is_self_attr(node.targets[0].target, node.targets[0].target.attr.value):
            attr = node.targets[0].target.attr.value
            inner = _loops_over_attribute(callee, cls, attr)
            loops += [l for l in inner if l not in loops]
            if inner and _yields_items_of_attribute(callee, cls, attr):  # `for x, y in Batches(loader):`
                loops += [l for l in _loops_of_value(owner, call) + _loops_over_call(owner, call) if l not in loops]
    return loops


def _yields_items_of_attribute(facts: Facts, cls: cst.ClassDef, attr: str) -> bool:
    """`cls.__iter__` is a generator whose every `yield` gives the item of a `for` over
    `self.<attr>` as it is (`for x, y in self.loader: yield x, y`): iterating an instance iterates
    the attribute's batches, unchanged (their memory, pinned or not, is the loader's)."""
    method = dataset_method(cls, "__iter__")
    yields = [n for n in facts.walk(method.body, into_scopes=False) if isinstance(n, cst.Yield)] if method else []
    return bool(yields) and all(_yields_target_of_attribute(facts, y, attr) for y in yields)


def _yields_target_of_attribute(facts: Facts, y: cst.Yield, attr: str) -> bool:
    value = y.value
    if value is None or isinstance(value, cst.From):
        return False
    for anc in facts.ancestors(y):
        if isinstance(anc, cst.FunctionDef):
            return False
        if isinstance(anc, cst.For) and is_self_attr(anc.iter, attr):
            return _same_names(anc.target, value)
    return False


def _same_names(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """`x` and `x`, `(x, y)` and `x, y`: the value rebuilds the target as it was bound."""
    if isinstance(target, cst.Name) and isinstance(value, cst.Name):
        return target.value == value.value
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, cst.Tuple) \
            and len(target.elements) == len(value.elements):
        return all(not isinstance(t, cst.StarredElement) and not isinstance(v, cst.StarredElement)
                   and _same_names(t.value, v.value) for t, v in zip(target.elements, value.elements))
    return False


def loops_fed(facts: Facts, loader: cst.Call) -> list[Loop]:
    """Loops elsewhere that iterate this loader call's value: in a function it is passed to by
    name (`train_epoch(model, train_loader, ...)` -> `for batch in loader:` over that parameter,
    never rebound there), in this unit, an earlier cell or a local module; and, for a loader
    bound at a notebook's top level, loops over the name in later cells (and functions they
    pass it to) while no cell in between binds the name again."""
    parent = facts.parent(loader)
    if isinstance(parent, cst.DictComp) and parent.value is loader:
        return _entries_fed(facts, parent)
    entry = dict_entry(facts, loader)
    if entry is not None:
        return _entries_fed(facts, *entry)
    if isinstance(parent, cst.Arg):  # `DeviceLoader(DataLoader(...), device)`, `fit(model, DataLoader(...))`
        return _fed_through_arguments([(facts, loader)])
    returned = _returned_element_uses(facts, loader)
    later_returned = later_returned_element_uses(facts, loader)
    if returned or later_returned:  # `tr, val = init_dataset(opt)`: loops over the caller's name, or where it is passed
        pairs = [(facts, u) for u in returned] + later_returned
        direct = [loop for owner, u in pairs for loop in owner.loops if iterated(loop) is u]
        return direct + [loop for loop in _fed_through_arguments(pairs) if loop not in direct]  # type: ignore[arg-type]
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Attribute):
        return _fed_as_instance_attribute(facts, loader, parent.targets[0].target)
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return []
    name = parent.targets[0].target.value
    uses = [(facts, u) for u in facts.uses(name) if facts.value_of(u) is loader]
    loops: list[Loop] = []
    if facts.enclosing_function(loader) is None and len(facts.assigned_values(name)) == 1:
        for later in facts.later:
            if later.binds_global(name):
                break
            uses += [(later, u) for u in later.uses(name) if later.reads_global(u)]
            loops += [loop for loop in loops_over(later, name) if loop.function is None]
    return loops + [loop for loop in _fed_through_arguments(uses) if loop not in loops]


def drawn_batches(facts: Facts, loader: cst.Call) -> list[tuple[Loop, set[str]]]:
    """Loops that draw this loader's batches one at a time: `x, y = next(it)`,
    `data_gen.__next__()` or `it.next()` in the loop's body, where the iterator name is bound once
    in the loop's function, before the loop, to `iter(L)` / `L.__iter__()` or to a call of a
    generator function of this unit that yields the batches of its parameter (ODE-Net's
    `inf_generator(train_loader)`), and `L` holds the loader (bound to it here, unpacked from the
    tuple a helper returns, or a parameter of a function it is passed to: MixMatch's
    `train(labeled_loader, unlabeled_loader, ...)`). Each loop comes with the names its `next`
    statements bind (the batch)."""
    parent = facts.parent(loader)
    direct = [u for u in facts.uses(parent.targets[0].target.value) if facts.value_of(u) is loader] \
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name) else []
    uses = direct + _returned_element_uses(facts, loader)
    found = _drawn_through(facts, uses)
    for owner, use in ((facts, u) for u in uses):
        passed = _argument_call(owner, use)
        landing = _parameter_for(owner, *passed) if passed is not None else None
        if landing is not None:
            callee, func, param = landing
            found += _drawn_through(callee, [u for u in callee.uses(param) if callee.enclosing_function(u) is func])
    return found


def _drawn_through(facts: Facts, uses: list[cst.Name]) -> list[tuple[Loop, set[str]]]:
    """The loops of `drawn_batches` for these reads of a name holding the loader."""
    found: list[tuple[Loop, set[str]]] = []
    for use in uses:
        made = _iterator_over(facts, use)
        bound = facts.parent(made) if made is not None else None
        if not (isinstance(bound, cst.Assign) and len(bound.targets) == 1 and isinstance(bound.targets[0].target, cst.Name)):
            continue
        for draw in facts.uses(bound.targets[0].target.value):
            if facts.value_of(draw) is not made:
                continue
            taken = _drawn_into(facts, draw)
            loops = facts.enclosing_loops(draw)
            if taken is None or not loops or not isinstance(loops[0].node, cst.For) \
                    or facts.enclosing_function(loops[0].node) is not facts.enclosing_function(made) \
                    or any(a is loops[0].node for a in facts.ancestors(made)):
                continue
            for i, (loop, batch) in enumerate(found):
                if loop is loops[0]:
                    found[i] = (loop, batch | taken)
                    break
            else:
                found.append((loops[0], taken))
    return found


def _iterator_over(facts: Facts, use: cst.Name) -> cst.Call | None:
    """The call making an iterator over what `use` holds: `iter(use)`, `use.__iter__()`, or a
    generator function of this unit (one parameter given `use`) that yields that iterable's items."""
    parent = facts.parent(use)
    if isinstance(parent, cst.Attribute) and parent.value is use and parent.attr.value == "__iter__":
        call = facts.parent(parent)
        return call if isinstance(call, cst.Call) and not call.args else None
    arg = parent
    call = facts.parent(arg) if isinstance(arg, cst.Arg) and arg.value is use and arg.keyword is None and not arg.star else None
    if not isinstance(call, cst.Call) or len(call.args) != 1 or not isinstance(call.func, cst.Name):
        return None
    if call.func.value == "iter" and facts.qualified_name(call.func) in (None, "builtins.iter"):
        return call
    func = facts._function_at(call.func)
    if not isinstance(func, cst.FunctionDef) or len(func.params.params) != 1 or func.params.posonly_params:
        return None
    owner = facts.owner_of(func)
    return call if _yields_items_of(owner, func, func.params.params[0].name.value) else None


def _yields_items_of(facts: Facts, func: cst.FunctionDef, param: str) -> bool:
    """Every `yield` of `func` gives the next item of an iterator over `param` (`yield
    iterator.__next__()` / `yield next(iterator)` with every binding of `iterator` an `iter(param)` /
    `param.__iter__()`), or an item of a `for` over `param` (`for x in param: yield x`)."""
    yields = [n for n in facts.walk(func.body, into_scopes=False) if isinstance(n, cst.Yield)]
    if not yields or param in facts.names_written(func.body):
        return False
    for y in yields:
        value = y.value
        if isinstance(value, cst.From) or value is None:
            return False
        if isinstance(value, cst.Name) and _for_target_over(facts, y, value.value, param):
            continue
        it = _next_of(value)
        sources = facts.value_sources(it) if it is not None else None
        if not sources or not all(_iter_of_name(s, param) for s in sources):
            return False
    return True


def _for_target_over(facts: Facts, node: cst.CSTNode, name: str, param: str) -> bool:
    """`node` sits in `for <name> in <param>:` (the loop's whole target)."""
    for anc in facts.ancestors(node):
        if isinstance(anc, cst.For) and isinstance(anc.target, cst.Name) and anc.target.value == name \
                and isinstance(anc.iter, cst.Name) and anc.iter.value == param:
            return True
        if isinstance(anc, cst.FunctionDef):
            return False
    return False


def _next_of(expr: cst.BaseExpression) -> cst.Name | None:
    """`it` of `next(it)` / `it.__next__()`."""
    if not isinstance(expr, cst.Call):
        return None
    if isinstance(expr.func, cst.Name) and expr.func.value == "next" and len(expr.args) == 1 \
            and isinstance(expr.args[0].value, cst.Name) and expr.args[0].keyword is None and not expr.args[0].star:
        return expr.args[0].value
    if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("__next__", "next") and not expr.args \
            and isinstance(expr.func.value, cst.Name):  # `it.next()`: the old DataLoader iterator's alias
        return expr.func.value
    return None


def _iter_of_name(expr: cst.BaseExpression, param: str) -> bool:
    """`iter(param)` / `param.__iter__()`."""
    if not isinstance(expr, cst.Call):
        return False
    if isinstance(expr.func, cst.Name) and expr.func.value == "iter" and len(expr.args) == 1:
        arg = expr.args[0].value
        return isinstance(arg, cst.Name) and arg.value == param
    return isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "__iter__" and not expr.args \
        and isinstance(expr.func.value, cst.Name) and expr.func.value.value == param


def _drawn_into(facts: Facts, draw: cst.Name) -> set[str] | None:
    """The names `x, y = next(draw)` / `batch = draw.__next__()` binds (one whole statement)."""
    call: cst.CSTNode | None = facts.parent(draw)
    if isinstance(call, cst.Arg):
        call = facts.parent(call)
    elif isinstance(call, cst.Attribute):
        call = facts.parent(call)
    if not isinstance(call, cst.Call) or _next_of(call) is not draw:
        return None
    bound = facts.parent(call)
    if not isinstance(bound, cst.Assign) or bound.value is not call:
        return None
    return {n for t in bound.targets for n in bound_names(t.target)}


def _instance_method_calls(facts: Facts, cls: str, method: str) -> list[cst.Call]:
    """`loader.load_dataset()` where `loader` is bound (its reaching binding) to `Loader(...)`, or
    `Loader(...).load_dataset()`: calls of `method` on an instance of the module-level class `cls`
    (check 49, p04: the loaders a method returns in a tuple). A receiver of unknown class (a
    parameter, another class with a method of that name) is not one."""
    found = []
    for call in facts.calls_in(facts.module):
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == method):
            continue
        receiver = func.value
        made = facts.value_of(receiver) if isinstance(receiver, cst.Name) else receiver
        if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) and made.func.value == cls \
                and facts.qualified_name(made.func) in (None, cls, f"__main__.{cls}"):
            found.append(call)
    return found


def later_returned_element_uses(facts: Facts, loader: cst.Call) -> list[tuple[Facts, cst.Name]]:
    """`_returned_element_uses` in the notebook's later cells, with each read's cell: the loaders'
    function defined in this cell, called by a later one (`train_loader, val_loader =
    get_train_val_loaders(...)` in `main()` of the last cell), until a cell binds its name again
    (determinism56: split into cells, the program lost what one file proved)."""
    func = facts.enclosing_function(loader)
    if not isinstance(func, cst.FunctionDef):
        return []
    cls = method_class(facts, func.body)
    found: list[tuple[Facts, cst.Name]] = []
    for later in facts.later:
        if later.binds_global(cls.name.value if cls is not None else func.name.value):
            break
        found += [(later, u) for u in _returned_element_uses(facts, loader, later)]
    return found


def _returned_element_uses(facts: Facts, loader: cst.Call, unit: Facts | None = None) -> list[cst.Name]:
    """Reads, in this unit (or in `unit`, a later cell calling the function by its name), of a name
    bound to element k of a call of the module-level function
    whose only `return` is a tuple literal holding `loader` at k (directly or through a name bound
    to it once): `tr, val, test = init_dataset(opt)` or `test = init_dataset(opt)[-1]`. Only a
    read whose reaching binding is that element counts (a name rebound later holds another value)."""
    func = facts.enclosing_function(loader)
    if not isinstance(func, cst.FunctionDef) or facts.enclosing_function(func) is not None:
        return []
    cls = method_class(facts, func.body)
    if any(isinstance(a, cst.ClassDef) for a in facts.ancestors(func)) and (
            cls is None or any(isinstance(a, (cst.ClassDef, cst.FunctionDef)) for a in facts.ancestors(cls))):
        return []  # a method of a nested class: its instances are not followed
    value = only_return(facts, func)
    if not isinstance(value, cst.Tuple) or any(isinstance(el, cst.StarredElement) for el in value.elements):
        return []
    n = len(value.elements)
    index = next((i for i, el in enumerate(value.elements) if el.value is loader
                  or isinstance(el.value, cst.Name) and facts.value_of(el.value) is loader), None)
    if index is None:
        return []
    home = facts
    facts = unit or facts
    uses: list[cst.Name] = []
    if cls is not None:
        for call in _instance_method_calls(facts, cls.name.value, func.name.value):
            for candidate in _tuple_bound_names(facts, call):
                uses += [u for u in facts.uses(candidate) if facts.unpacked_from(u) == (call, index, n)]
        return uses
    for use in facts.uses(func.name.value):
        call = facts.parent(use)
        if not (isinstance(call, cst.Call) and call.func is use):
            continue
        if facts is not home and (facts.enclosing_function(use) is not None and binds_locally(facts.enclosing_function(use), use.value)
                                  or facts._function_at(use) is not func):
            continue  # a later cell's own function or local of that name
        picked = facts.parent(call)
        if isinstance(picked, cst.Subscript) and picked.value is call and _literal_index(picked) in (index, index - n):
            bound = facts.parent(picked)
            if isinstance(bound, cst.Assign) and len(bound.targets) == 1 and isinstance(bound.targets[0].target, cst.Name):
                name = bound.targets[0].target.value
                uses += [u for u in facts.uses(name) if facts.value_of(u) is picked]
            continue
        for candidate in _tuple_bound_names(facts, call):
            uses += [u for u in facts.uses(candidate) if facts.unpacked_from(u) == (call, index, n)
                     or _global_read_after(facts, u, call, index)]
    return uses


def _global_read_after(facts: Facts, use: cst.Name, call: cst.Call, index: int) -> bool:
    """`use` is a global read in a module-level function (`for x, y in train_loader:` in
    `train(model, path)`) of a name whose only top-level binding is element `index` of `call`
    (`train_loader, val_loader, ... = create_data_loaders()` under `if __name__ == '__main__':`),
    and that function is only called by name at top level after the binding: each call reads it."""
    func = facts.enclosing_function(use)
    bound = facts.parent(call)
    if not isinstance(func, cst.FunctionDef) or facts.enclosing_function(func) is not None \
            or facts.enclosing_function(call) is not None or not facts.reads_global(use) \
            or not isinstance(bound, cst.Assign) or len(bound.targets) != 1 \
            or not isinstance(bound.targets[0].target, (cst.Tuple, cst.List)):
        return False
    elements = bound.targets[0].target.elements
    if index >= len(elements) or not isinstance(elements[index].value, cst.Name) \
            or elements[index].value.value != use.value or not facts.binds_global(use.value):
        return False
    top = [d for d in facts._defs.get(use.value, ()) if d.function is None]
    if len(top) != 1 or facts.order(bound) > top[0].order:
        return False
    calls = [u for u in facts.uses(func.name.value) if u is not func.name and not _spelled_only(facts, u)]
    return bool(calls) and all(isinstance(facts.parent(u), cst.Call) and facts.parent(u).func is u  # type: ignore[union-attr]
                               and facts.enclosing_function(u) is None and facts.order(u) > facts.order(bound)
                               for u in calls)


def _spelled_only(facts: Facts, name: cst.Name) -> bool:
    """`train` of `model.train()`, `f(train=True)`, `def g(train): ...`: the spelling, not the name."""
    parent = facts.parent(name)
    return isinstance(parent, cst.Attribute) and parent.attr is name \
        or isinstance(parent, (cst.Arg, cst.Param)) and (getattr(parent, "keyword", None) is name or getattr(parent, "name", None) is name)


def _tuple_bound_names(facts: Facts, call: cst.Call) -> set[str]:
    """The names a tuple-unpacking assignment of `call`'s value binds (`a, b = f(...)`)."""
    bound = facts.parent(call)
    if not isinstance(bound, cst.Assign) or bound.value is not call:
        return set()
    return {n for t in bound.targets if isinstance(t.target, (cst.Tuple, cst.List)) for n in bound_names(t.target)}


def _literal_index(sub: cst.Subscript) -> int | None:
    """`k` of `x[k]` / `x[-k]` with one integer literal index."""
    if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
        return None
    value = sub.slice[0].slice.value
    sign = 1
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        sign, value = -1, value.expression
    return sign * int(value.evaluated_value) if isinstance(value, cst.Integer) else None


_FORWARDS = 2  # helpers that hand the loader on (`train(...)` -> `train_step(dataloader=...)`)


def _fed_as_instance_attribute(facts: Facts, loader: cst.Call, target: cst.Attribute) -> list[Loop]:
    """`self.train_loader = DataLoader(...)` in a method of class `C`, then
    `trainer.train(trainer.train_loader)` with `trainer = C(...)`: the loops of the function or
    method the attribute is handed to. Proven by a closed list: `.<attr>` bound nowhere else in
    the unit (by `self` or any object), and only reads on `self` or on objects `construction_of`
    shows were made by `C(...)` handed on (any other object's `.<attr>` may be another loader)."""
    cls = method_class(facts, loader)
    if cls is None or not is_self_attr(target, target.attr.value):
        return []
    attr = target.attr.value
    bindings = [n for n in facts.walk(facts.module) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign))
                and _binds_attribute(n.target, attr)]
    if len(bindings) != 1:
        return []
    uses: list[tuple[Facts, cst.BaseExpression]] = []
    for node in facts.walk(facts.module):
        if not (isinstance(node, cst.Attribute) and node.attr.value == attr) or is_self_attr(node, attr):
            continue
        made = facts.construction_of(node.value) if isinstance(node.value, cst.Name) else None
        if made is None or not isinstance(made.func, cst.Name) or facts.classes.get(made.func.value) is not cls:
            return []  # another object's `.<attr>`: not proven to be this loader
        uses.append((facts, node))
    return _fed_through_arguments(uses)


def _binds_attribute(target: cst.BaseExpression, attr: str) -> bool:
    """`x.<attr> = ...` on any object, alone or in a tuple target."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds_attribute(el.value, attr) for el in target.elements)
    target = target.value if isinstance(target, cst.StarredElement) else target
    return isinstance(target, cst.Attribute) and target.attr.value == attr


def _fed_through_arguments(uses: list[tuple[Facts, cst.BaseExpression]], depth: int = 0) -> list[Loop]:
    loops: list[Loop] = []
    for owner, use in uses:
        passed = _argument_call(owner, use)
        if passed is None:
            continue
        call, arg = passed
        landing = _parameter_for(owner, call, arg)
        if landing is None:
            if not isinstance(owner._function_at(call.func), cst.FunctionDef):
                loops += [loop for loop in _loops_of_stored_argument(owner, call, arg) if loop not in loops]
            continue
        callee, func, param = landing
        loops += [loop for loop in loops_over(callee, param) if loop.function is func and loop not in loops]
        if depth < _FORWARDS:  # the parameter passed on, unchanged, to the helper that loops over it
            passed_on = [(callee, u) for u in callee.uses(param) if callee.enclosing_function(u) is func]
            loops += [loop for loop in _fed_through_arguments(passed_on, depth + 1) if loop not in loops]
    return loops


def _argument_call(owner: Facts, use: cst.BaseExpression) -> tuple[cst.Call, cst.Arg] | None:
    """The call `use` is passed to as a whole argument (no `*`/`**` anywhere in the call)."""
    arg = owner.parent(use)
    call = owner.parent(arg) if isinstance(arg, cst.Arg) and arg.value is use and not arg.star else None
    if not isinstance(call, cst.Call) or not isinstance(call.func, (cst.Name, cst.Attribute)) or any(a.star for a in call.args):
        return None
    assert isinstance(arg, cst.Arg)
    return call, arg


def _parameter_for(owner: Facts, call: cst.Call, arg: cst.Arg) -> tuple[Facts, cst.FunctionDef, str] | None:
    """The function `call` runs (this unit, an earlier cell, a local module) and the parameter `arg`
    binds there, when the function never rebinds it."""
    func = owner._function_at(call.func) or _own_method(owner, call) or _object_method(owner, call)
    if not isinstance(func, cst.FunctionDef):
        return None
    params = positional_params(func)
    if isinstance(call.func, cst.Attribute) and params[:1] in (["self"], ["cls"]):
        params = params[1:]
    param = parameter_filled(call, arg, params)
    callee = owner.owner_of(func)
    if param is None or param in callee.names_written(func.body):
        return None
    return callee, func, param


def _object_method(owner: Facts, call: cst.Call) -> FunctionNode | None:
    """`trainer.train(loader)` with `trainer = Trainer(...)`: the method of the class, of this unit
    or of an earlier cell (a notebook's class cell, then `trainer = Trainer(...)`;
    `trainer.train(dataloader)` in a later one), that made the object the call is made on. The
    object is the one `construction_of` proves (its one reaching binding is the constructor call),
    so no other class's method of that name can run there."""
    func = call.func
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name) or func.value.value == "self":
        return None
    found = method_of_object(owner, func)
    if found is not None:
        return found[1]
    made = owner.construction_of(func.value)
    if made is None and func.value.value not in owner._defs:  # bound in an earlier cell
        earlier = owner.prior.value(func.value.value)
        made = earlier[1] if earlier is not None and isinstance(earlier[1], cst.Call) else None
    if made is None or not isinstance(made.func, cst.Name) or made.func.value in owner.classes:
        return None  # a class of this unit is `method_of_object`'s; a call of anything else proves nothing
    cls_owner, cls = owner.prior.classes.get(made.func.value, (None, None))
    method = cls_owner.functions.get(f"{cls.name.value}.{func.attr.value}") if cls_owner is not None else None
    if method is not None:
        owner._owners[method] = cls_owner
    return method


def _own_method(owner: Facts, call: cst.Call) -> cst.FunctionDef | None:
    """`self.iteration(...)` in a method: the method of that name of the class around the call."""
    if not (isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name) and call.func.value.value == "self"):
        return None
    cls = next((a for a in owner.ancestors(call) if isinstance(a, cst.ClassDef)), None)
    if cls is None or not isinstance(cls.body, cst.IndentedBlock):
        return None
    return next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == call.func.attr.value), None)


def _entries_fed(facts: Facts, table: cst.DictComp | cst.Dict, key: str | None = None) -> list[Loop]:
    """`train_model(model, dataloaders, ...)` with `dataloaders = {x: DataLoader(...) for x in
    splits}` bound once: loops over `param[key]` in the function it is handed to, where the
    parameter is never rebound; no entry of the dict is written here or there. For a dict
    literal, only loops over `param["train"]`, the loader's own key."""
    parent = facts.parent(table)
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return []
    name = parent.targets[0].target.value
    if len(facts.assigned_values(name)) != 1 or entries_written(facts, name):
        return []
    loops: list[Loop] = []
    for use in facts.uses(name):
        passed = _argument_call(facts, use) if facts.value_of(use) is table else None
        landing = _parameter_for(facts, *passed) if passed is not None else None
        if landing is None:
            continue
        callee, func, param = landing
        if entries_written(callee, param, func):
            continue
        loops += [loop for loop in callee.loops if loop.function is func and loop not in loops
                  and isinstance(it := iterated(loop), cst.Subscript) and isinstance(it.value, cst.Name) and it.value.value == param
                  and (key is None or _string_key(it) == key)]
    return loops


_DICT_WRITERS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__", "__delitem__"})


def entries_written(facts: Facts, name: str, func: cst.FunctionDef | None = None) -> bool:
    """An entry of the dict `name` may change: `name[k] = ...`, `del name[k]`, `name[k] += ...`,
    `name.update(...)`, `name |= ...` anywhere in the unit (in `func` only, when given)."""
    for use in facts.uses(name):
        if func is not None and facts.enclosing_function(use) is not func:
            continue
        parent = facts.parent(use)
        if isinstance(parent, cst.Subscript) and parent.value is use:
            holder = facts.parent(parent)
            if isinstance(holder, (cst.AssignTarget, cst.Del)) or isinstance(holder, cst.AugAssign) and holder.target is parent:
                return True
        elif isinstance(parent, cst.Attribute) and parent.value is use and parent.attr.value in _DICT_WRITERS:
            return True
        elif isinstance(parent, cst.AugAssign) and parent.target is use:
            return True
    return False


def _loops_of_loader_method(facts: Facts, loader: cst.Call) -> list[Loop]:
    """`def train_dataloader(self): return DataLoader(...)` (Lightning's hook, in a plain class of
    this unit; or `get_loader(self, split)` with arguments): loops over `x.train_dataloader()` (or
    a name bound to it) where `x` is provably an instance of the class itself (a subclass may
    override it). Every call runs the one `DataLoader(...)` call, whatever its arguments."""
    func = facts.enclosing_function(loader)
    cls = method_class(facts, loader)
    if cls is None or func is None or only_return(facts, func) is not loader:
        return []
    method = func.name.value
    loops: list[Loop] = []
    for loop in facts.loops:
        it = iterated(loop)
        if it is None and isinstance(loop.node, cst.For):
            it = unwrapped(loop.node.iter)  # `for b in dm.loader("train")`: a call with arguments
        if isinstance(it, cst.Name) and isinstance(value := facts.value_of(it), cst.Call):
            it = unwrapped(value)  # `loader = dm.train_dataloader()`, then `for batch in loader:`
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value == method \
                and _instance_of(facts, it.func.value, cls, loop):
            loops.append(loop)
    return loops


def _instance_of(facts: Facts, expr: cst.BaseExpression, cls: cst.ClassDef, loop: Loop) -> bool:
    """`expr` holds an instance of `cls`: `self` in its methods, a name every binding of which is
    `Cls(...)`, or a parameter of the loop's function that every call of it in this unit fills
    with such a name (one call at least, no `*`/`**`)."""
    if not isinstance(expr, cst.Name):
        return False
    if expr.value == "self":
        return method_class(facts, expr) is cls
    func = loop.function
    params = positional_params(func) if func is not None else []
    if expr.value not in params:
        return _built_from(facts, expr.value, cls)
    if func is None or _rebound(facts, func.body, expr.value) or not isinstance(func, cst.FunctionDef):
        return False
    sites = [facts.parent(u) for u in facts.uses(func.name.value) if isinstance(facts.parent(u), cst.Call) and facts.parent(u).func is u]
    for call in sites:
        given = argument_bound_to(call, params, expr.value)  # type: ignore[arg-type]
        if given is None or not (isinstance(given, cst.Name) and _built_from(facts, given.value, cls)
                                 or _instantiates(given, cls)):
            return False
    return bool(sites) and all(isinstance(u, cst.Name) for u in facts.uses(func.name.value))


def _rebound(facts: Facts, body: cst.CSTNode, name: str) -> bool:
    """`name` is bound again in `body` (an assignment, a loop or `with` target, `del`, `global`):
    unlike `names_written`, a method call on it (`trainer.opt.step()`) keeps the object it names."""
    for n in facts.walk(body):
        targets: list[cst.CSTNode] = []
        if isinstance(n, cst.Assign):
            targets = [t.target for t in n.targets]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.For, cst.CompFor)):
            targets = [n.target]
        elif isinstance(n, cst.WithItem) and n.asname is not None:
            targets = [n.asname.name]
        elif isinstance(n, cst.Del):
            targets = [n.target]
        elif isinstance(n, (cst.Global, cst.Nonlocal)):
            targets = [item.name for item in n.names]
        if any(name in bound_names(t) for t in targets):
            return True
    return False


def _built_from(facts: Facts, name: str, cls: cst.ClassDef) -> bool:
    """Every binding of `name` in this unit is `Cls(...)`."""
    values = facts.assigned_values(name)
    return bool(values) and all(_instantiates(v, cls) for v in values)


def _instantiates(value: cst.BaseExpression, cls: cst.ClassDef) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == cls.name.value


def _loops_of_value(facts: Facts, value: cst.Call) -> list[Loop]:
    parent = facts.parent(value)
    if isinstance(parent, cst.DictComp) and parent.value is value:
        return _loops_over_entries(facts, parent)
    entry = dict_entry(facts, value)
    if entry is not None:
        return _loops_over_entries(facts, *entry)
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return []
    name = parent.targets[0].target.value
    loops = []
    for loop in loops_over(facts, name):
        it = iterated(loop)
        if isinstance(it, cst.Name) and (facts.value_of(it) is value or _reads_global(facts, loop, value, name)):
            loops.append(loop)
    return loops


def dict_entry(facts: Facts, value: cst.BaseExpression) -> tuple[cst.Dict, str] | None:
    """(the dict literal, the key) when `value` is the value of an entry with a string key, in a
    dict whose keys are all distinct string literals (no `**other` that could repeat the key)."""
    element = facts.parent(value)
    table = facts.parent(element) if isinstance(element, cst.DictElement) and element.value is value else None
    if not isinstance(table, cst.Dict) or not all(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                                                  for e in table.elements):
        return None
    keys = [str(e.key.evaluated_value) for e in table.elements]  # type: ignore[union-attr]
    key = str(element.key.evaluated_value)  # type: ignore[union-attr]
    return (table, key) if keys.count(key) == 1 else None


def _loops_over_entries(facts: Facts, table: cst.DictComp | cst.Dict, key: str | None = None) -> list[Loop]:
    """`loaders = {split: DataLoader(...) for split in splits}`: every entry is the one call, so a
    loop over `loaders[phase]` (any key) iterates its value; for a dict literal
    (`{"train": DataLoader(...), "val": ...}`), a loop over `loaders["train"]`, the entry's key."""
    parent = facts.parent(table)
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return []
    name = parent.targets[0].target.value
    if entries_written(facts, name):
        return []  # `loaders["train"] = DataLoader(...)`: an entry may no longer be this call's value
    loops = []
    for loop in facts.loops:
        it = iterated(loop)
        if isinstance(it, cst.Subscript) and isinstance(it.value, cst.Name) and it.value.value == name \
                and (key is None or _string_key(it) == key) \
                and (facts.value_of(it.value) is table or _reads_global(facts, loop, table, name)):
            loops.append(loop)
    return loops


def _returned_by(facts: Facts, call: cst.Call) -> cst.FunctionDef | None:
    """The module-level function whose only `return` gives `call` (directly or through one name)."""
    func = facts.enclosing_function(call)
    if func is None or facts.enclosing_function(func) is not None or any(isinstance(a, cst.ClassDef) for a in facts.ancestors(func)):
        return None
    return func if only_return(facts, func) is call else None


def _reads_global(facts: Facts, loop: Loop, loader: cst.CSTNode, name: str) -> bool:
    """The loop's function reads the module-level `name`, bound once, to `loader`."""
    func = loop.function
    if func is None or facts.enclosing_function(loader) is not None:
        return False
    p = func.params
    params = named_params(p)
    if name in params or name in facts.names_written(func.body):
        return False
    bindings = [u for u in facts.uses(name) if isinstance(facts.parent(u), cst.AssignTarget)]
    return len(bindings) == 1


_TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
_COLLATED = frozenset({Kind.TENSOR, Kind.NDARRAY, Kind.NUMBER, Kind.DICT_OF_TENSOR})


def loader_dataset(facts: Facts, loader: cst.Call) -> cst.BaseExpression | None:
    """The dataset expression a DataLoader call is built on (a name resolved to its value)."""
    args = [a for a in loader.args if (a.keyword is None and not a.star) or (a.keyword is not None and a.keyword.value == "dataset")]
    if not args:
        return None
    dataset = args[0].value
    if isinstance(dataset, cst.Name):
        return facts.value_of(dataset) or dataset
    return dataset


def batches_are_tensors(facts: Facts, loader: cst.Call) -> bool:
    """Every leaf of this loader's batches is a torch Tensor (so `.to(..., non_blocking=True)` on
    them is `Tensor.to`): the default collate over a `TensorDataset`, a torchvision dataset, or a
    `Dataset` of this unit whose `__getitem__` returns tensors, arrays and numbers (in a tuple or
    a dict). A custom `collate_fn` (or one a `**dict` may carry) proves nothing."""
    if may_carry(facts, loader, "collate_fn") or may_carry(facts, loader, "batch_sampler"):
        return False
    dataset = loader_dataset(facts, loader)
    if not isinstance(dataset, cst.Call):
        return False
    qualified = facts.qualified_name(dataset.func) or ""
    if qualified in _TENSOR_DATASETS:
        return True
    if qualified.startswith("torchvision.datasets.") and keyword_arg(dataset, "transform") is not None:
        return True
    if not isinstance(dataset.func, cst.Name) or dataset.func.value not in facts.classes:
        return False
    getitem = dataset_method(facts.classes[dataset.func.value], "__getitem__")
    if getitem is None:
        return False
    returns = [n for n in facts.walk(getitem.body, into_scopes=False) if isinstance(n, cst.Return)]
    return bool(returns) and all(r.value is not None and _collates_to_tensors(facts, r.value) for r in returns)


def dataset_method(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    return next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)


def _collates_to_tensors(facts: Facts, expr: cst.BaseExpression) -> bool:
    if isinstance(expr, (cst.Tuple, cst.List)):
        return all(_collates_to_tensors(facts, el.value) for el in expr.elements if isinstance(el, cst.Element))
    if isinstance(expr, cst.Dict):
        return all(isinstance(el, cst.DictElement) and _collates_to_tensors(facts, el.value) for el in expr.elements)
    return facts.kind(expr) in _COLLATED


def through_with(facts: Facts, stmt: cst.CSTNode, block: cst.CSTNode) -> cst.CSTNode | None:
    """The statement of `block` that holds `stmt`, when only `with` bodies lie between them
    (`with torch.no_grad(): probs = ...` then `pred = ...probs...`: a `with` opens no scope, its
    names flow on); None when `stmt` sits elsewhere (a branch, a loop, another block)."""
    node = stmt
    while facts.parent(node) is not block:
        body = facts.parent(node)
        owner = facts.parent(body) if isinstance(body, cst.IndentedBlock) else None
        if not isinstance(owner, cst.With):
            return None
        node = owner
    return node


# --- `self` attributes -----------------------------------------------------------------

def init_value(facts: Facts, cls: cst.ClassDef, attr: str) -> cst.BaseExpression | None:
    """The value `__init__` assigns to `self.<attr>` (once, unconditionally), or None."""
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        return None
    values = [value for node in facts.walk(init, into_scopes=False)
              if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None
              for value in _assigned_to_attr(node, attr)]
    return values[0] if len(values) == 1 else None


def _assigned_to_attr(node: cst.Assign | cst.AnnAssign, attr: str) -> list[cst.BaseExpression]:
    """What `node` assigns to `self.<attr>`: its value, or its element of a paired tuple
    (`self.capacity, self.memory, self.pos = capacity, [], 0`)."""
    out: list[cst.BaseExpression] = []
    for target in _targets(node):
        if is_self_attr(target, attr):
            out.append(node.value)  # type: ignore[arg-type]
        elif isinstance(target, (cst.Tuple, cst.List)) and isinstance(node.value, (cst.Tuple, cst.List)) \
                and len(target.elements) == len(node.value.elements) \
                and not any(isinstance(el, cst.StarredElement) for el in (*target.elements, *node.value.elements)):
            out += [v.value for t, v in zip(target.elements, node.value.elements) if is_self_attr(t.value, attr)]
        elif any(is_self_attr(el.value, attr) for el in getattr(target, "elements", ())):
            out.append(cst.Name("None"))  # unpacked from something else: not a known value
    return out


def _targets(node: cst.Assign | cst.AnnAssign) -> list[cst.BaseExpression]:
    return [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]


def is_self_attr(expr: cst.BaseExpression, attr: str) -> bool:
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self" \
        and expr.attr.value == attr


def _arm_leaves(arm: cst.BaseSuite, depth: int = 3) -> bool:
    """The arm's last statement is `return`, `raise`, `continue` or `break`, or a `with` block
    ending so (`with torch.no_grad(): return model(x)`), or an `if`/`else` every arm of which ends
    so: what follows the branch in its block never runs after that arm."""
    last = arm.body[-1] if isinstance(arm, cst.IndentedBlock) and arm.body else arm
    return _statement_leaves(last, depth)


def _statement_leaves(stmt: cst.CSTNode, depth: int) -> bool:
    if isinstance(stmt, cst.With) and depth > 0:
        return _arm_leaves(stmt.body, depth - 1)
    if isinstance(stmt, cst.If) and depth > 0:
        rest = stmt.orelse
        return _arm_leaves(stmt.body, depth - 1) and rest is not None and (
            _arm_leaves(rest.body, depth - 1) if isinstance(rest, cst.Else) else _statement_leaves(rest, depth - 1))
    smalls = getattr(stmt, "body", ())
    return isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and bool(smalls) \
        and isinstance(smalls[-1], (cst.Break, cst.Continue, cst.Return, cst.Raise))


def exclusive_arms_before(facts: Facts, node: cst.CSTNode, stop: cst.CSTNode | None = None) \
        -> list[tuple[cst.If, cst.BaseSuite, bool]]:
    """The branches `node` runs beside only when they took their other way: each `if` earlier in a
    block around `node` (up to `stop`, else `node`'s function) whose one arm ends in `return`,
    `raise`, `continue` or `break`. `if train: ...; return loss` and then the `no_grad` part
    without `else:`: the part after the `if` runs only when `train` is false, as an `else:` arm
    would. Each entry: the branch, the arm that leaves (whose statements never run together with
    `node`), and the test's value under which `node` can run. An `elif` chain is not read."""
    limit = stop if stop is not None else facts.enclosing_function(node)
    found: list[tuple[cst.If, cst.BaseSuite, bool]] = []
    child = node
    for anc in facts.ancestors(node):
        if anc is limit:
            break
        if isinstance(anc, (cst.IndentedBlock, cst.Module)):
            for stmt in anc.body:
                if stmt is child:
                    break
                if not isinstance(stmt, cst.If) or isinstance(stmt.orelse, cst.If):
                    continue
                body_leaves = _arm_leaves(stmt.body)
                else_leaves = stmt.orelse is not None and _arm_leaves(stmt.orelse.body)
                if body_leaves and not else_leaves:
                    found.append((stmt, stmt.body, False))
                elif else_leaves and not body_leaves:
                    found.append((stmt, stmt.orelse.body, True))  # type: ignore[union-attr]
        if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            break
        child = anc
    return found
