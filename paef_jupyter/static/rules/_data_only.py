"""Values that carry no autograd graph whatever the grad mode: batches of a DataLoader over a
`TensorDataset` of tensors built by torch's factories, and what tensor methods make of them.

Wrapping a loop in `torch.no_grad()` changes only what the loop computes from tensors that
require grad (the model's parameters, a graph). A value built from data alone is the same
tensor either way, so reading it after the loop (the labels of a probe) proves nothing about
the model's outputs. Anything not proven data-only (a call of unseen code, a parameter, a
dataset of another kind) is treated as possibly carrying a graph.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts, Loop
from ..names import keyword_arg
from ._support import iterated

# torch functions whose result is a fresh leaf: no graph unless asked for with `requires_grad=`.
_FACTORIES = frozenset(f"torch.{f}" for f in (
    "zeros", "ones", "empty", "full", "rand", "randn", "randint", "randperm", "arange", "linspace",
    "logspace", "eye", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
    "randint_like", "tensor", "from_numpy",
))
# Tensor methods that change a tensor in place: a graph may enter through their arguments.
_IN_PLACE_EXTRA = frozenset({"copy_", "index_put_", "masked_fill_", "scatter_", "index_copy_", "put_"})
_DEPTH = 6


def data_only(facts: Facts, expr: cst.BaseExpression, depth: int = _DEPTH) -> bool:
    """`expr` is built from constants, torch factories and loader batches alone (never a graph)."""
    if depth <= 0:
        return False
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis)):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False", "None") or _name_data_only(facts, expr, depth - 1)
    if isinstance(expr, (cst.Tuple, cst.List)):
        return all(not isinstance(el, cst.StarredElement) and data_only(facts, el.value, depth) for el in expr.elements)
    if isinstance(expr, cst.UnaryOperation):
        return data_only(facts, expr.expression, depth)
    if isinstance(expr, cst.BinaryOperation):
        return data_only(facts, expr.left, depth) and data_only(facts, expr.right, depth)
    if isinstance(expr, cst.Comparison):
        return data_only(facts, expr.left, depth) and all(data_only(facts, c.comparator, depth) for c in expr.comparisons)
    if isinstance(expr, cst.IfExp):
        return all(data_only(facts, e, depth) for e in (expr.test, expr.body, expr.orelse))
    if isinstance(expr, cst.Attribute):
        return expr.attr.value not in ("grad", "grad_fn") and data_only(facts, expr.value, depth)
    if isinstance(expr, cst.Subscript):
        return data_only(facts, expr.value, depth) and all(_index_data_only(facts, s, depth) for s in expr.slice)
    if isinstance(expr, cst.Call):
        return _call_data_only(facts, expr, depth)
    return False


def _index_data_only(facts: Facts, element: cst.SubscriptElement, depth: int) -> bool:
    index = element.slice
    if isinstance(index, cst.Index):
        return data_only(facts, index.value, depth)
    return all(part is None or data_only(facts, part, depth) for part in (index.lower, index.upper, index.step))


def _call_data_only(facts: Facts, call: cst.Call, depth: int) -> bool:
    if keyword_arg(call, "requires_grad") is not None:
        return False
    qualified = facts.qualified_name(call.func) or ""
    if qualified in _FACTORIES or qualified == "torch.device" or qualified == "torch.cuda.is_available":
        return True
    args = all(data_only(facts, a.value, depth) for a in call.args)
    if qualified in ("torch.cat", "torch.stack", "builtins.len", "builtins.int", "builtins.float"):
        return args
    func = call.func
    if isinstance(func, cst.Attribute) and not qualified.startswith("torch."):
        # a method of a data-only tensor on data-only arguments (`y.to(device)`, `x.float()`)
        return func.attr.value != "requires_grad_" and args and data_only(facts, func.value, depth)
    return False


def _name_data_only(facts: Facts, name: cst.Name, depth: int) -> bool:
    loop = facts.loop_binding(name)
    if loop is not None:  # a batch: appended to lists by design, but never written into with a graph
        return graph_free_batches(facts, loop, depth) \
            and not _written_with_other_values(facts, name.value, facts.enclosing_function(name), depth, aliases=False)
    sources = facts.value_sources(name)
    if not sources:
        earlier = _earlier_cell_value(facts, name)  # `device` of the set-up cell
        if earlier is None:
            return False
        owner, value = earlier
        if not _source_data_only(owner, value, depth):
            return False
        return _not_a_tensor(owner, value) or not any(
            _written_with_other_values(unit, name.value, None, depth) for unit in (facts, *facts.prior.units()))
    if not all(_source_data_only(facts, s, depth) for s in sources):
        return False
    if all(_not_a_tensor(facts, s) for s in sources):
        return True  # `device = torch.device(...)`, `n = 64`: nothing to write a graph into
    return not _written_with_other_values(facts, name.value, facts.enclosing_function(name), depth)


def _not_a_tensor(facts: Facts, source: cst.BaseExpression) -> bool:
    return isinstance(source, (cst.Integer, cst.Float, cst.SimpleString)) \
        or isinstance(source, cst.Call) and facts.qualified_name(source.func) == "torch.device"


def _source_data_only(facts: Facts, source: cst.BaseExpression, depth: int) -> bool:
    """A bound value, or the call a tuple is unpacked from (a local helper: every `return` data-only)."""
    if data_only(facts, source, depth):
        return True
    if not isinstance(source, cst.Call) or not isinstance(source.func, cst.Name):
        return False
    helper = facts._function_at(source.func)
    if helper is None or facts.owner_of(helper) is not facts:
        return False
    returns = [n for n in facts.walk(helper.body) if isinstance(n, cst.Return)
               and facts.enclosing_function(n) is helper]
    return bool(returns) and all(r.value is not None and data_only(facts, r.value, depth) for r in returns)


def _written_with_other_values(facts: Facts, name: str, scope: object, depth: int, aliases: bool = True) -> bool:
    """Some statement of the name's scope writes into it in place (`img[mask] = v`, `t.copy_(v)`,
    `t.requires_grad = True`) with a value not proven data-only (or, with `aliases`, makes an alias of it)."""
    for use in facts.uses(name):
        if facts.enclosing_function(use) is not scope:
            continue
        if aliases and _aliased(facts, use):
            return True
        parent = facts.parent(use)
        if isinstance(parent, cst.Attribute) and parent.value is use:
            if parent.attr.value in ("requires_grad", "requires_grad_", "data", "grad"):
                return True
            call = facts.parent(parent)
            if isinstance(call, cst.Call) and call.func is parent and (
                    parent.attr.value.endswith("_") or parent.attr.value in _IN_PLACE_EXTRA) \
                    and not all(data_only(facts, a.value, depth) for a in call.args):
                return True
        if isinstance(parent, cst.Subscript) and parent.value is use:
            target = facts.parent(parent)
            holder = facts.parent(target) if isinstance(target, cst.AssignTarget) and target.target is parent \
                else target if isinstance(target, cst.AugAssign) and target.target is parent else None
            if holder is not None and not data_only(facts, holder.value, depth):  # type: ignore[union-attr]
                return True
    return False


# Calls that read a tensor without keeping a reference to it someone could write through.
_READERS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset", "builtins.len",
                      "builtins.print", "torch.cat", "torch.stack"})


def _aliased(facts: Facts, use: cst.Name) -> bool:
    """The tensor (or a view of it: `images[:4]`, `images.view(-1)`) is bound to another name,
    stored, or handed to a call that may write into it: a write through that alias is unseen."""
    top: cst.CSTNode = use
    parent = facts.parent(top)
    while isinstance(parent, (cst.Subscript, cst.Attribute)) and parent.value is top \
            or isinstance(parent, cst.Call) and parent.func is top:
        top, parent = parent, facts.parent(parent)
    if isinstance(parent, cst.Element):
        holder = facts.parent(parent)
        # a binding (`images, classes = make(64)`), or returned: the caller's name is checked where it is bound
        return not isinstance(facts.parent(holder), (cst.Return, cst.AssignTarget))
    if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.WithItem, cst.Yield)):
        return True
    if isinstance(parent, cst.Arg):
        call = facts.parent(parent)
        qualified = facts.qualified_name(call.func) or "" if isinstance(call, cst.Call) else ""
        pure_torch = qualified.startswith("torch.") and not qualified.endswith("_") \
            and not qualified.startswith(("torch.nn.", "torch.autograd.")) and parent.keyword is None
        return not (qualified in _READERS or pure_torch)
    return False


def graph_free_batches(facts: Facts, loop: Loop, depth: int = _DEPTH) -> bool:
    """`loop` iterates a DataLoader (through `enumerate`/`tqdm`) over a `TensorDataset` whose
    tensors are all data-only: every batch it yields is a plain tensor (no graph)."""
    it = iterated(loop)
    loader = facts.value_of(it) if isinstance(it, cst.Name) else it
    owner = facts
    if loader is None and isinstance(it, cst.Name):
        earlier = _earlier_cell_value(facts, it)
        if earlier is not None:
            owner, loader = earlier
    if not isinstance(loader, cst.Call) or (owner.qualified_name(loader.func) or "").rpartition(".")[2] != "DataLoader":
        return False
    if keyword_arg(loader, "collate_fn") is not None:
        return False
    first = loader.args[0] if loader.args and loader.args[0].keyword is None else keyword_arg(loader, "dataset")
    dataset = first.value if first is not None else None
    if isinstance(dataset, cst.Name):
        dataset = owner.value_of(dataset)
    if not (isinstance(dataset, cst.Call)
            and (owner.qualified_name(dataset.func) or "") in ("torch.utils.data.TensorDataset",
                                                               "torch.utils.data.dataset.TensorDataset")
            and bool(dataset.args) and all(a.keyword is None and data_only(owner, a.value, depth - 1) for a in dataset.args)):
        return False
    if owner is facts:
        return True
    # built in an earlier cell: no other cell (this one, another earlier one) writes a graph into its tensors
    names = {n.value for a in dataset.args for n in owner.walk(a.value) if isinstance(n, cst.Name)}
    return not any(_written_with_other_values(unit, name, None, depth - 1)
                   for unit in (facts, *facts.prior.units()) if unit is not owner for name in names)


def _earlier_cell_value(facts: Facts, name: cst.Name) -> tuple[Facts, cst.BaseExpression] | None:
    """The value an earlier notebook cell last gave `name` at its top level, with that cell's facts,
    when this unit reads `name` at its own top level and never binds it (`probe_loader` made in the
    data cell, iterated in the evaluation cell): determinism56, where splitting a program into
    cells lost what one file proved."""
    if facts.enclosing_function(name) is not None or name.value in facts.names_written(facts.module):
        return None
    return facts.prior.value(name.value)


def data_only_products(facts: Facts, loop: Loop, produced: set[str]) -> set[str]:
    """The names of `produced` that the loop binds or stores only data-only values into: the
    loop's target over graph-free batches, `labels.append(y.to(device))`, `n = y.numel()`."""
    if not isinstance(loop.node, cst.For) or not graph_free_batches(facts, loop):
        return set()
    target = set(_bound(loop.node.target))
    written: dict[str, list[cst.BaseExpression | None]] = {}
    for n in facts.walk(loop.node.body):
        if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            for t in targets:
                for name in _bound(t) or _roots(t):
                    written.setdefault(name, []).append(n.value)
        elif isinstance(n, (cst.For, cst.CompFor, cst.WithItem, cst.NamedExpr)):
            bound = n.target if isinstance(n, (cst.For, cst.CompFor, cst.NamedExpr)) else n.asname.name if n.asname else None
            for name in _bound(bound) if bound is not None else ():
                written.setdefault(name, []).append(None)
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name):
            name = n.func.value.value
            if n.func.attr.value in ("append", "extend", "insert", "add"):
                written.setdefault(name, []).extend(a.value for a in n.args)
            elif n.func.attr.value.endswith("_") or n.func.attr.value in ("update", "setdefault", "__setitem__"):
                written.setdefault(name, []).append(None)
    out = set()
    for name in produced:
        values = written.get(name, [])
        if name in target and not values:
            out.add(name)
        elif name not in target and values and all(v is not None and data_only(facts, v) for v in values):
            out.add(name)
    return out


def _bound(target: cst.CSTNode) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for el in target.elements for n in _bound(el.value)]
    if isinstance(target, cst.StarredElement):
        return _bound(target.value)
    return []


def _roots(target: cst.CSTNode) -> list[str]:
    """The name a subscript or attribute target writes into (`rows[i] = v` writes `rows`)."""
    while isinstance(target, (cst.Subscript, cst.Attribute)):
        target = target.value
    return [target.value] if isinstance(target, cst.Name) else []
