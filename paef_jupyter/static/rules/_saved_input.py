"""Whether the input a fused op saves for backward may be written in place before the backward.

`F.leaky_relu(x, s)` saves its input `x` for the backward; the hand-written
`torch.where(x > 0, x, s * x)` saves only the mask `x > 0` (a product with a Python number saves
nothing). An in-place write to `x`, or to a tensor sharing its memory, between the forward and the
backward then makes the fused form raise where the hand-written one trained (red team 29a: a
residual `h += self.fc2(a)` after the activation read `h`; `e.add_(m)` in the caller of an
`lrelu(x)` helper). Proved only for a name whose binding, the names it may share memory with and,
for a parameter, the arguments at every call site in the unit are in sight and never written in
place, nor handed back to a caller that could write them."""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ..names import named_params
from ._tensor_facts import _DTYPE_KEEPING_MODULES, _module_built_from, earlier_value, reads_of, unit_index, within

_DEPTH = 4


def may_be_written_before_backward(facts: Facts, operand: cst.CSTNode, fused: cst.CSTNode) -> str:
    """Why the tensor `operand` (read by the hand-written expression `fused`) may be changed in
    place before the backward runs, or "" when the analysis proves it is not."""
    return _check(facts, operand, fused, 0)


def _check(facts: Facts, node: cst.CSTNode, fused: cst.CSTNode, depth: int) -> str:
    if depth > _DEPTH:
        return "the tensor is reached through too many names to follow"
    if not isinstance(node, cst.Name):
        if not isinstance(node, cst.BaseExpression):
            return "the tensor is not a plain expression"
        roots = facts.shared_roots(node)
        if "self" in roots and _own_attribute_written(facts, node):
            return f"`{facts.code(node)}` is changed in place by the class's code"
        return next((r for r in (_check(facts, n, fused, depth + 1) for n in _root_names(facts, node, roots - {"self"})) if r), "")
    name = node.value
    func = facts.enclosing_function(node)
    if func is not None and not _bound_in(facts, name, func):
        func = None  # a global read in a function: written anywhere in the unit
    scope: cst.CSTNode = func or facts.module
    if any(_same_object(facts, node, site, name) for site in mutation_sites(facts, name, scope)):
        return f"`{name}` is changed in place in the same code"
    if func is None and any(unit_index(cell).mutations.get(name) for cell in (*facts.prior.cells, *facts.later)):
        return f"another cell changes `{name}` in place"
    if any(_returns(facts, r) and not within(facts, r, fused) and _same_object(facts, node, r, name)
           for r in reads_of(facts, name, scope)):
        return f"`{name}` is handed back to the caller, which may change it in place"
    bound = _bound_by_loop(facts, node)
    if bound is not None:
        roots = facts.shared_roots(bound) - {"self"}
        return next((r for r in (_check(facts, n, fused, depth + 1) for n in _root_names(facts, bound, roots)) if r), "")
    value = facts.value_of(node)
    if value is not None:
        if _fresh_layer_output(facts, value):
            return ""
        roots = facts.shared_roots(value) - {"self", name}
        return next((r for r in (_check(facts, n, fused, depth + 1) for n in _root_names(facts, value, roots)) if r), "")
    if func is None and (earlier := earlier_value(facts, node)) is not None:
        cell, made = earlier  # bound by an earlier cell: what it shares memory with, there
        return next((r for r in (_check(cell, n, fused, depth + 1) for n in _root_names(cell, made, cell.shared_roots(made) - {"self"})) if r), "")
    params = [p.name.value for p in func.params.params] if isinstance(func, cst.FunctionDef) else []
    if isinstance(func, cst.FunctionDef) and name in params:
        passed = _passed(facts, func, params.index(name), name)
        if not passed:
            return f"`{name}` is a parameter whose callers are out of sight (one may change it in place after the call)"
        return next((r for r in (_check(facts, a, fused, depth + 1) for a in passed) if r), "")
    return f"where `{name}` comes from is out of sight"


def mutation_sites(facts: Facts, name: str, scope: cst.CSTNode) -> list[cst.CSTNode]:
    """The unit's in-place writes to `name` inside `scope` (`mutated_in_place`'s sites)."""
    return [site for site in unit_index(facts).mutations.get(name, ()) if within(facts, site, scope)]


def _same_object(facts: Facts, operand: cst.Name, site: cst.CSTNode, name: str) -> bool:
    """The write (or read) `site` may reach the object `operand` holds: unless both are bound by
    different assignments in sight (`out = act(out); out += skip` writes the new `out`) and no loop
    holds both (the next iteration's operand could be the object written)."""
    spelled = operand if isinstance(site, cst.Name) and site is operand else next(
        (n for n in facts.walk(site) if isinstance(n, cst.Name) and n.value == name), None)
    if spelled is None:
        return True
    here, there = _binding(facts, operand), _binding(facts, spelled)
    if here is None or there is None or here is there:
        return True
    loops = {id(loop.node) for loop in facts.enclosing_loops(operand)}
    return any(id(loop.node) in loops for loop in facts.enclosing_loops(site))


def _bound_in(facts: Facts, name: str, func: cst.CSTNode) -> bool:
    """`name` is a local of `func`: a parameter or assigned there (else a global or a closure's)."""
    params = func.params if isinstance(func, (cst.FunctionDef, cst.Lambda)) else None
    if params is not None and name in named_params(params):
        return True
    return any(d.function is func for d in facts._defs.get(name, ()))


def _own_attribute_written(facts: Facts, node: cst.CSTNode) -> bool:
    """`self.h` (or a view of it) read where some in-place write of the unit spells `self.h`."""
    attr = node
    while isinstance(attr, (cst.Subscript, cst.Attribute)) and not (
            isinstance(attr, cst.Attribute) and isinstance(attr.value, cst.Name) and attr.value.value == "self"):
        attr = attr.value
    if not isinstance(attr, cst.Attribute):
        return True  # `self` itself, through a call: not followed
    spelled = facts.code(attr)
    return any(spelled in facts.code(site) for site in unit_index(facts).mutations.get("self", ()))


def _binding(facts: Facts, name: cst.Name) -> object | None:
    """The assignment whose object `name` holds where it is read: the reaching definition, or
    for `x += ...` (in place on a tensor) the one before it."""
    found = facts._reaching_def(name)
    if found is None or not found.augmented:
        return found
    earlier = [d for d in facts._defs.get(name.value, ()) if d.function is found.function and not d.augmented
               and d.order < found.order]
    return earlier[-1] if earlier else None


def _root_names(facts: Facts, expr: cst.CSTNode, roots: frozenset[str]) -> list[cst.Name]:
    """One `Name` node per root name in `expr` (the node `_check` follows)."""
    found: dict[str, cst.Name] = {}
    for n in facts.walk(expr):
        if isinstance(n, cst.Name) and n.value in roots and n.value not in found:
            found[n.value] = n
    return list(found.values())


# Methods whose result may be the tensor itself or a view of its memory.
_VIEWS = frozenset({"view", "view_as", "reshape", "reshape_as", "flatten", "squeeze", "unsqueeze", "transpose", "permute",
                    "t", "contiguous", "detach", "narrow", "expand", "expand_as", "select", "unflatten", "movedim",
                    "float", "double", "half", "to", "type_as", "chunk", "split", "unbind"})


def _returns(facts: Facts, name: cst.Name) -> bool:
    """`name` (or a view of it, or a tuple holding it) is what a `return` hands back; iterating
    it or computing from it builds new tensors."""
    node: cst.CSTNode = name
    while True:
        parent = facts.parent(node)
        if isinstance(parent, cst.Return):
            return True
        if isinstance(parent, (cst.Element, cst.Tuple, cst.List)) or isinstance(parent, cst.Subscript) and parent.value is node:
            node = parent
        elif isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in ("T", "mT", "data"):
            node = parent
        elif isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _VIEWS \
                and isinstance(call := facts.parent(parent), cst.Call) and call.func is parent:
            node = call
        else:
            return False


def _bound_by_loop(facts: Facts, name: cst.Name) -> cst.BaseExpression | None:
    """The iterable of the comprehension or `for` whose target binds `name` around it."""
    for anc in facts.ancestors(name):
        fors: list[cst.CompFor] = []
        if isinstance(anc, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            comp: cst.CompFor | None = anc.for_in
            while comp is not None:
                fors.append(comp)
                comp = comp.inner_for_in
        for comp_for in fors:
            if any(isinstance(t, cst.Name) and t.value == name.value for t in facts.walk(comp_for.target)):
                return comp_for.iter
        if isinstance(anc, cst.For) and any(isinstance(t, cst.Name) and t.value == name.value for t in facts.walk(anc.target)):
            return anc.iter
    return None


def _fresh_layer_output(facts: Facts, value: cst.BaseExpression) -> bool:
    """`self.conv(x)` / `lin(x)` with the layer built in sight by a `torch.nn` class that returns a
    new tensor (not `nn.Identity`, `nn.Flatten`, a dropout or pooling that may hand back its input
    or a view of it, nor a `Sequential` whose last layer might)."""
    if not isinstance(value, cst.Call):
        return False
    built = _module_built_from(facts, value.func)
    qualified = (facts.qualified_name(built.func) or "") if built is not None else ""
    last = qualified.rsplit(".", 1)[-1]
    return qualified.startswith("torch.nn.") and last[:1].isupper() and last not in _DTYPE_KEEPING_MODULES \
        and last not in ("Sequential", "ModuleList", "ModuleDict")


def _passed(facts: Facts, func: cst.FunctionDef, index: int, name: str) -> list[cst.BaseExpression]:
    """What every call of `func` by its name in the unit passes for its parameter `name`; [] when
    a call passes it out of sight (`*args`, `**kw`) or there is no call."""
    passed: list[cst.BaseExpression] = []
    for call in facts.calls_in(facts.module):
        if not (isinstance(call.func, cst.Name) and call.func.value == func.name.value):
            continue
        if any(a.star for a in call.args):
            return []
        args = [a.value for a in call.args if a.keyword is None]
        keyed = [a.value for a in call.args if a.keyword is not None and a.keyword.value == name]
        picked = keyed[0] if keyed else args[index] if index < len(args) else None
        if picked is None:
            return []
        passed.append(picked)
    return passed
