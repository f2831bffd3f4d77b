"""A frozen model's forward pass inside a training loop (a distillation teacher, a fixed target
network run on the batch): autograd records its graph, and `backward()` fills gradients of
parameters that no optimizer of the loop steps.

Only when every link is shown: the model is put in `.eval()` before the loop and never back in
`.train()` in between or inside it; no `requires_grad` is switched anywhere (a model frozen that
way records no graph); the model is never handed to anything (a wrapper, a loss, an optimizer
list could train it); each optimizer the loop steps is built here, from other parameters; and
the model's inputs are the batch itself (loop targets moved or reshaped): an input computed by
a trained model (a perceptual loss on a generator's output, a GAN's discriminator on fakes)
needs the graph to carry gradients back.

Red team 61: a switch of `requires_grad` may hide in the model's own class or factory in a local
module or an earlier cell (`teacher.release_head()`), and an optimizer built from other
parameters may be given the model's later (`opt.add_param_group({'params': teacher.fc.parameters()})`):
either refuses the proof.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from ..facts import Facts, Loop, same_object
from ..names import bound_names, positional_params
from ._support import grad_disabled, init_value
from ._tensor_facts import mutated_in_place, optimised

# Tensor methods that keep a batch a batch (a move, a cast, a reshape).
_DATA_METHODS = frozenset({
    "to", "cuda", "cpu", "float", "half", "double", "long", "int", "bool", "bfloat16", "view", "reshape", "permute",
    "unsqueeze", "squeeze", "flatten", "contiguous", "transpose", "clone", "detach", "type",
})
_PARAMETER_VIEWS = frozenset({"parameters", "named_parameters", "modules", "named_modules", "children", "state_dict"})


def frozen_forwards(facts: Facts, loop: Loop) -> Iterator[tuple[cst.SimpleStatementLine, str]]:
    """`out = model(batch)` statements run per iteration of training `loop` (not of a loop inside
    it) by a frozen `model`, with the model's name."""
    if not isinstance(loop.node, cst.For) or loop.kind != "train" or _switches_requires_grad(facts):
        return
    data = set(bound_names(loop.node.target))
    for stmt in loop.node.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            continue
        small = stmt.body[0]
        if isinstance(small, cst.Assign):
            call = small.value
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.args \
                    and all(_is_data(a.value, data) for a in call.args) and not grad_disabled(facts, call) \
                    and _frozen(facts, call.func.value, loop):
                yield stmt, call.func.value
            bound = _data_bound(small.targets[0].target, small.value, data) if len(small.targets) == 1 else set()
            data = (data - facts.names_written(small)) | bound
        else:
            data -= facts.names_written(small)


def fixed_input_forwards(facts: Facts, loop: Loop) -> Iterator[tuple[cst.SimpleStatementLine, cst.Call]]:
    """`feats = vgg(style)` run per iteration of training `loop` by a frozen model (in `.eval()`,
    trained by no optimizer of the loop, handed to nothing) on names the loop never rebinds or
    changes in place: the same output every iteration (a style image's features, a fixed
    prompt's embedding). Unlike `frozen_forwards`, `requires_grad` switches elsewhere do not
    matter: the output is the same whether or not a graph is recorded."""
    if not isinstance(loop.node, cst.For) or loop.kind != "train":
        return
    changed = facts.names_written(loop.node.body) | set(bound_names(loop.node.target))
    for stmt in loop.node.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
            continue
        call = stmt.body[0].value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.args
                and all(a.keyword is None and not a.star and isinstance(a.value, cst.Name) for a in call.args)):
            continue
        name, inputs = call.func.value, [a.value.value for a in call.args]  # type: ignore[attr-defined]
        if name in changed or any(i in changed or i == name or mutated_in_place(facts, i, loop.node) or optimised(facts, i)
                                  for i in inputs):
            continue
        if _put_in_eval(facts, name, loop) and _frozen(facts, name, loop, evaluated=True):
            yield stmt, call


def _put_in_eval(facts: Facts, name: str, loop: Loop) -> bool:
    """`name = Net().to(device).eval()` before the loop (a `name.eval()` call is `_frozen`'s)."""
    start = facts.order(loop.node)
    for value in facts.assigned_values(name):
        chain = value
        if facts.order(value) < start and isinstance(chain, cst.Call) and isinstance(chain.func, cst.Attribute) \
                and chain.func.attr.value == "eval" and not chain.args:
            return True
    return any(facts.order(c) < start and not c.args for c in _method_calls(facts, name, "eval"))


def _data_bound(target: cst.BaseExpression, value: cst.BaseExpression, data: set[str]) -> set[str]:
    """Names `target = value` binds to the batch: `xb = xb.to(device)`, `x, y = x.cuda(), y.cuda()`."""
    if isinstance(target, cst.Name):
        return {target.value} if _is_data(value, data) else set()
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
            and len(target.elements) == len(value.elements):
        out: set[str] = set()
        for t, v in zip(target.elements, value.elements):
            out |= _data_bound(t.value, v.value, data)
        return out
    return set()


def _is_data(expr: cst.BaseExpression, data: set[str]) -> bool:
    """`expr` is the batch (or part of it) moved, cast or reshaped: nothing a model computed."""
    if isinstance(expr, cst.Name):
        return expr.value in data
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Subscript):
        return _is_data(expr.value, data)
    if isinstance(expr, cst.Attribute):
        return _is_data(expr.value, data)
    if isinstance(expr, cst.BinaryOperation):
        return _is_data(expr.left, data) and _is_data(expr.right, data)
    if isinstance(expr, cst.UnaryOperation):
        return _is_data(expr.expression, data)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _DATA_METHODS:
        return _is_data(expr.func.value, data)
    return False


def _frozen(facts: Facts, name: str, loop: Loop, evaluated: bool = False) -> bool:
    """`evaluated`: the caller saw the model put in `.eval()` before the loop itself. A model or
    optimizer a notebook cell does not bind is read from the one earlier cell that does."""
    start = facts.order(loop.node)
    end = max((facts.order(n) for n in facts.walk(loop.node)), default=start)
    sites = _call_sites(facts, loop)
    if sites is None:
        return False
    models = _origins(facts, name, loop, sites)
    if models is None:
        return False
    local = name in _parameters(loop)  # a parameter: its `.eval()` is the function's own
    cells = not local and not evaluated  # a proof that may read earlier cells (review only: not `fixed_input_forwards`)
    home = _binding_cell(facts, name) if cells else facts
    if home is None:
        return False
    evals = [c for c in _method_calls(facts, name, "eval") if facts.order(c) < start and not c.args
             and (not local or facts.enclosing_function(c) is loop.function)]
    if home is not facts and not (evals or _frozen_in_earlier_cells(facts, home, name)) \
            or not evals and not evaluated and home is facts and not (local and _evaluated_by_callers(models, loop, name, sites)):
        return False
    last_eval = max((facts.order(c) for c in evals), default=0)
    if any(last_eval < facts.order(c) < end for c in _method_calls(facts, name, "train")):
        return False
    known = {call for _, call in sites}
    if any(_handed_over(owner, n, known) for owner, n in models | {(facts, name)}):
        return False
    steps = [c.func.value.value for c in facts.calls_in(loop.node.body)  # type: ignore[union-attr]
             if isinstance(c.func, cst.Attribute) and c.func.attr.value == "step" and isinstance(c.func.value, cst.Name)]
    optimizers = [_origins(facts, opt, loop, sites, attributes=True) for opt in steps]
    optimizers = [None if held is None else {(_binding_cell(u, o) if cells and u is facts and opt not in _parameters(loop) else u, o)
                                             for u, o in held} for held, opt in zip(optimizers, steps)]
    if any(held is None or any(u is None for u, _ in held) for held in optimizers):
        return False
    if (home is not facts or any(u is not facts for held in optimizers for u, _ in held)) \
            and not _untouched_across_cells(facts, name):  # type: ignore[union-attr]
        return False
    if not evaluated and any(_switched_where_built(owner, n) for owner, n in models | {(home, name)}):
        return False
    return bool(steps) and all(
        all(_stored_optimizer(owner, o) and not _extended(owner, o.split(".")[1], attribute=True) if "." in o else  # type: ignore[arg-type]
            _optimizer_without(owner, o, {n for u, n in models if u is owner} | {name})  # type: ignore[arg-type]
            for owner, o in held)  # type: ignore[union-attr]
        for held in optimizers) and all(_fresh(home if u is facts and n == name else u, n)
                                        for u, n in models if n not in _parameters(loop) or u is not facts)


Site = tuple[Facts, cst.Call]


def _binding_cell(facts: Facts, name: str) -> Facts | None:
    """The unit whose bindings of `name` a loop of `facts` sees: `facts` itself when it binds
    the name (as in a file), else the one earlier cell of the notebook that does, when no other
    cell (earlier or later) binds it. None when two cells bind it, a later one rebinds it, or
    none does (the live namespace alone: nothing shows what it holds)."""
    if name in facts._defs:
        return facts
    binding = [c for c in facts.prior.cells if name in c._defs]
    if len(binding) != 1 or any(name in c._defs for c in facts.later):
        return None
    return binding[0]


def _frozen_in_earlier_cells(facts: Facts, home: Facts, name: str) -> bool:
    """`name`, bound in the earlier cell `home`, is put in `.eval()` after that binding (in
    `home` or a cell between it and `facts`), and no `.train()` follows the last `.eval()`
    before `facts`' cell."""
    cells = facts.prior.cells[facts.prior.cells.index(home):]
    bound = max(home.order(v) for v in [home.module, *home.assigned_values(name)])
    switches: list[tuple[int, int, str]] = []
    for i, cell in enumerate(cells):
        for method in ("eval", "train"):
            switches += [(i, cell.order(c), method) for c in _method_calls(cell, name, method)
                         if (i > 0 or cell.order(c) > bound) and (method == "train" or not c.args)]
    return bool(switches) and max(switches)[2] == "eval"


def _untouched_across_cells(facts: Facts, name: str) -> bool:
    """For a proof that reads earlier cells: no cell of the notebook switches `requires_grad` or
    hands `name` over to anything, and no later cell (which may run again after the loop's) puts
    it back in `.train()`, builds an optimizer of its parameters or steps one an earlier cell
    built (the gradients the loop left would then move it)."""
    cells = [*facts.prior.cells, facts, *facts.later]
    trainers = {o for c in cells for o, values in c._defs.items()
                if any(name in c.names_read(v) for v in _optimizer_calls(c, [d.value for d in values if d.value is not None]))}
    return not any(_switches_requires_grad(c) for c in cells) \
        and not any(_handed_over(c, name) for c in cells if c is not facts) \
        and not any(_method_calls(c, name, "train") or any(name in c.names_read(v) for v in _optimizer_calls(c, c.calls_in(c.module)))
                    or any(_method_calls(c, o, "step") for o in trainers) for c in facts.later)


def _optimizer_calls(facts: Facts, values: list[cst.BaseExpression] | list[cst.Call]) -> list[cst.Call]:
    return [v for v in values if isinstance(v, cst.Call) and (facts.qualified_name(v.func) or "").startswith("torch.optim.")]


def _evaluated_by_callers(models: set[tuple[Facts, str]], loop: Loop, name: str, sites: list[Site]) -> bool:
    """`teacher.eval()` before each `train_kd(student, teacher, ...)`, in the caller's own scope,
    and no `.train()` of what any caller passes, anywhere (a later call may get it training)."""
    if any(_method_calls(owner, n, "train") for owner, n in models):
        return False
    for owner, call in sites:
        arg = _argument(loop, call, name)
        if not isinstance(arg, cst.Name) or not any(
                owner.enclosing_function(e) is owner.enclosing_function(call) and owner.order(e) < owner.order(call)
                and not e.args for e in _method_calls(owner, arg.value, "eval")):
            return False
    return True


def _origins(facts: Facts, name: str, loop: Loop, sites: list[Site], attributes: bool = False) -> set[tuple[Facts, str]] | None:
    """The names (and their units) that hold what `name` holds in `loop`: itself, or, for a
    parameter of the function holding the loop, the name each caller passes (None: a caller
    passes something else, or no caller is seen). With `attributes`, an object's attribute a
    caller passes (`trainer.opt`) is spelled `"trainer.opt"`."""
    if name not in _parameters(loop):
        return {(facts, name)}
    passed = [(owner, _argument(loop, call, name)) for owner, call in sites]
    if not passed or not all(isinstance(arg, cst.Name) or attributes and _instance_attribute(arg) for _, arg in passed):
        return None
    return {(owner, owner.code(arg)) for owner, arg in passed}  # type: ignore[arg-type]


def _instance_attribute(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value != "self"


def _stored_optimizer(facts: Facts, spelled: str) -> bool:
    """`trainer.opt` where `trainer` is bound once, to `Trainer(...)` of a class the program holds,
    whose `__init__` alone binds `self.opt`, to a `torch.optim` optimizer, and no other code
    rebinds `.opt` on that object: an optimizer the trainer built, from what it was given."""
    instance, attr = spelled.split(".")
    values = facts.assigned_values(instance)
    made = same_object(values[0]) if len(values) == 1 else None
    if not isinstance(made, cst.Call) or any(
            isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Attribute) and n.target.attr.value == attr
            for n in facts.walk(facts.module)):
        return False
    found = facts._class_at(made.func) if not (isinstance(made.func, cst.Name) and made.func.value in facts.classes) \
        else (facts, facts.classes[made.func.value])
    if found is None:
        return False
    owner, cls = found
    value = init_value(owner, cls, attr)
    stores = [n for n in owner.walk(cls.body) if isinstance(n, (cst.AssignTarget, cst.AugAssign))
              and any(isinstance(t, cst.Attribute) and t.attr.value == attr for t in owner.walk(n.target))]
    return isinstance(value, cst.Call) and (owner.qualified_name(value.func) or "").startswith("torch.optim.") \
        and len(stores) == 1


def _fresh(facts: Facts, name: str) -> bool:
    """Every value `name` is bound to is a new object (`Teacher()`, `models.resnet18()`,
    `torch.load(path)`, `copy.deepcopy(student)`, moved or switched): not another name's model
    (`teacher = student`, `teacher = trainer.model`), which an optimizer built elsewhere may hold."""
    values = facts.assigned_values(name)
    for value in values:
        made = same_object(value)
        if not isinstance(made, cst.Call):
            return False
        func = made.func
        while isinstance(func, cst.Attribute):
            func = func.value
        if not (isinstance(made.func, cst.Name) or isinstance(func, cst.Name) and facts._imported(func.value)):
            return False  # `trainer.get_teacher()`: a method may hand back an object it keeps
    return bool(values)


def _parameters(loop: Loop) -> list[str]:
    func = loop.function
    return positional_params(func) \
        if isinstance(func, cst.FunctionDef) else []


def _argument(loop: Loop, call: cst.Call, param: str) -> cst.BaseExpression | None:
    params = _parameters(loop)
    for i, arg in enumerate(call.args):
        if (arg.keyword.value if arg.keyword is not None else params[i] if i < len(params) else None) == param:
            return arg.value
    return None


def _call_sites(facts: Facts, loop: Loop) -> list[Site] | None:
    """The calls of the module-level function holding `loop` (`train_kd(student, teacher, opt,
    dl)`), in this unit and in the units that call this module (a script's `main.py`): a teacher
    and an optimizer given by a caller are judged by what that caller built. None when the
    function is handed on as a value or called with a star; no calls for a loop outside such a
    function."""
    func = loop.function
    if not isinstance(func, cst.FunctionDef) or facts.enclosing_function(func) is not None \
            or any(isinstance(a, cst.ClassDef) for a in facts.ancestors(func)):
        return []
    sites: list[Site] = []
    for owner in [facts, *facts.callers]:
        for node in owner._order:
            spelled = node.value if isinstance(node, cst.Name) else node.attr.value if isinstance(node, cst.Attribute) else None
            if spelled != func.name.value or isinstance(node, cst.Name) and isinstance(owner.parent(node), cst.Attribute):
                continue
            parent = owner.parent(node)
            if owner is facts and isinstance(parent, cst.FunctionDef) and parent.name is node \
                    or isinstance(parent, (cst.ImportAlias, cst.Attribute)):
                continue
            if (owner._function_at(node) if owner is not facts else facts.functions.get(spelled)) is not func:
                continue
            if not (isinstance(parent, cst.Call) and parent.func is node) or any(a.star for a in parent.args):
                return None  # handed on as a value: other callers may pass anything
            sites.append((owner, parent))
    return sites


def _method_calls(facts: Facts, name: str, method: str) -> list[cst.Call]:
    return [c for c in facts.calls_in(facts.module) if isinstance(c.func, cst.Attribute) and c.func.attr.value == method
            and isinstance(c.func.value, cst.Name) and c.func.value.value == name]


def _handed_over(facts: Facts, name: str, known: set[cst.Call] = frozenset()) -> bool:  # type: ignore[assignment]
    """The model (or its parameters) is an argument, an element or a value somewhere: something
    else may own and train it. Its parameters may go to a `torch.optim` call, which is judged
    on its own (`_optimizer_without`). An argument of a `known` call (the function holding the
    loop, which is judged itself) is not handed over. A name not known at all (`""`) is."""
    if not name:
        return True
    for use in facts.uses(name):
        parent = facts.parent(use)
        if isinstance(parent, cst.Arg) and parent.value is use and facts.parent(parent) in known \
                or isinstance(parent, cst.Param) and parent.name is use or _unpacked_into(facts, use):
            continue  # the call of the function judged, the parameter that receives the model, `s, t = ...`
        if isinstance(parent, cst.Call) and parent.func is use or isinstance(parent, cst.AssignTarget) \
                or isinstance(parent, cst.Attribute) and parent.attr is use:
            continue  # `teacher(x)`, `teacher = ...`, another object's attribute of that name (`self.teacher`)
        if not (isinstance(parent, cst.Attribute) and parent.value is use):
            return True
        if parent.attr.value in _PARAMETER_VIEWS and not any(
                isinstance(a, cst.Call) and (facts.qualified_name(a.func) or "").startswith("torch.optim.")
                for a in facts.ancestors(parent)):
            return True  # `params = list(teacher.parameters()) + ...`
    return False


def _unpacked_into(facts: Facts, name: cst.Name) -> bool:
    """`name` is bound by unpacking (`student, teacher = Net(), Net()`): a binding, not a use."""
    node: cst.CSTNode = name
    while isinstance(facts.parent(node), cst.Element) and isinstance(facts.parent(facts.parent(node)), (cst.Tuple, cst.List)):
        node = facts.parent(facts.parent(node))
    return node is not name and isinstance(facts.parent(node), cst.AssignTarget)


def _optimizer_without(facts: Facts, opt: str, models: set[str]) -> bool:
    """`opt` is only ever a `torch.optim` optimizer built from parameters that read none of
    `models` (the model's names: the loop's, and what its callers pass)."""
    values = facts.assigned_values(opt) if opt else []
    return bool(values) and not _extended(facts, opt) and all(
        isinstance(v, cst.Call) and (facts.qualified_name(v.func) or "").startswith("torch.optim.")
        and not models & facts.names_read(v) for v in values)


def _switches_requires_grad(facts: Facts) -> bool:
    """`requires_grad` is set or switched anywhere in the unit (`p.requires_grad = False`,
    `m.requires_grad_(False)`, `requires_grad=`): the unit's one index of names, not a walk."""
    return bool(facts.uses("requires_grad") or facts.uses("requires_grad_"))


_SWITCHES = frozenset({"requires_grad", "requires_grad_"})


def _extended(facts: Facts, opt: str, attribute: bool = False) -> bool:
    """`opt.add_param_group(...)` anywhere in the unit, or its `param_groups` given parameters
    (`opt.param_groups.append(...)`, `opt.param_groups[0]['params'] += ...`): an optimizer built
    from other parameters may then step the model's. With `attribute`, `opt` is an attribute name
    (`self.opt`, `trainer.opt`) and any object's attribute of that name counts."""
    for node in facts.walk(facts.module):
        if not (isinstance(node, cst.Attribute) and node.attr.value in ("add_param_group", "param_groups")):
            continue
        owner = node.value
        if not (isinstance(owner, cst.Name) and owner.value == opt and not attribute
                or attribute and isinstance(owner, cst.Attribute) and owner.attr.value == opt):
            continue
        if node.attr.value == "add_param_group":
            return True
        code = facts.code(facts.statement_of(node))
        if any(m in code for m in (".append(", ".extend(", ".insert(", "+=")) or \
                "params" in code and "=" in code.replace("==", ""):
            return True
    return False


def _switched_where_built(facts: Facts, name: str) -> bool:
    """The model's class (or factory) comes from a local module or an earlier cell whose code switches
    `requires_grad` (a `freeze()` / `release_head()` method called as `teacher.release_head()`):
    the unit-wide check (`_switches_requires_grad`) does not see it."""
    for value in facts.assigned_values(name):
        made = same_object(value)
        if not isinstance(made, cst.Call) or not isinstance(made.func, (cst.Name, cst.Attribute)):
            continue
        found = facts._class_at(made.func)
        if found is not None and any(isinstance(n, cst.Name) and n.value in _SWITCHES for n in found[0].walk(found[1])):
            return True
        qualified = facts.qualified_name(made.func)
        owner = facts.imports.module_of(qualified) if facts.imports is not None and qualified else None
        if owner is not None and owner is not facts and _switches_requires_grad(owner):
            return True
    return False
