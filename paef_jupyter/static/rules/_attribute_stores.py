"""Attribute stores that may reach the object a hoisted expression reads.

`torch.arange(args.n)` in a loop that never writes `args` is invariant only if nothing else
writes `args.n` while the loop runs. But `m(x)` runs `M.forward`, which may hold the same
object (`self.args = args` in `__init__`) and do `self.args.n += 1`. Which object a store
reaches is not known here; the attribute's name is. A store of that name in code the loop may
run (any function but a constructor filling its own `self`, and the loop's own function
outside the loop) leaves the hoist unproved: it is offered for review, naming the store.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import libcst as cst

from ..attribute_paths import chain_path
from ..names import is_inplace_method
from ._tensor_facts import spells_a_device, unit_index

if TYPE_CHECKING:
    from ..facts import Facts, Loop

# Roots that are a library's module (`torch.float32`, `np.pi`): not an object the program built.
_LIBRARIES = ("torch", "numpy", "math", "scipy", "sklearn", "pandas", "random", "os", "sys")
ANY = "*"  # `setattr(obj, name, v)` with a computed name, `vars(obj)[k] = v`, `obj.__dict__`
_STORES: "weakref.WeakKeyDictionary[Facts, dict[str, list[cst.CSTNode]]]" = weakref.WeakKeyDictionary()


def store_hazard(facts: Facts, expr: cst.CSTNode, loop: Loop) -> str:
    """Why `expr`, moved before `loop`, may read an attribute changed while the loop runs ('' if
    no attribute it reads is stored in code that may run then)."""
    stores = _stores(facts)
    for top in _attribute_reads(facts, expr):
        found = chain_path(top)
        if found is None:
            continue
        root, path = found
        call = facts.parent(top)
        if isinstance(call, cst.Call) and call.func is top:
            path = path[:-1]  # `b.tolist()`: a method looked up, not a value read
        for attr in path:
            for store in stores.get(attr, []) + stores.get(ANY, []):
                if _may_run_during(facts, store, loop, root):
                    line = facts.position(store).start.line
                    code = facts.code(facts.statement_of(store)).strip().splitlines()[0]
                    return (f"it reads `{root}.{'.'.join(path)}`, and `{code}` (line {line}) stores "
                            f"{'into that attribute' if attr in stores and store in stores[attr] else 'attributes by name'} "
                            "in code that may run during the loop: if that code holds the same object, the value "
                            "changes between iterations")
    return ""


def _attribute_reads(facts: Facts, expr: cst.CSTNode) -> list[cst.Attribute]:
    """The outermost attribute chains `expr` reads whose root is a variable, not a module."""
    tops = []
    for node in facts.walk(expr):
        if not isinstance(node, cst.Attribute):
            continue
        parent = facts.parent(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            continue  # not the outermost
        found = chain_path(node)
        if found is not None and not facts.aliases.get(found[0], "").startswith(_LIBRARIES):
            tops.append(node)
    return tops


def _stores(facts: Facts) -> dict[str, list[cst.CSTNode]]:
    """Attribute name -> the nodes of the unit that store into it (assign, augment, subscript,
    delete, a container method or in-place tensor method called on it, `setattr`)."""
    cached = _STORES.get(facts)
    if cached is not None:
        return cached
    stores: dict[str, list[cst.CSTNode]] = {}
    for node in facts.walk(facts.module):
        for attr in _stored_attributes(facts, node):
            stores.setdefault(attr, []).append(node)
    _STORES[facts] = stores
    return stores


def _stored_attributes(facts: Facts, node: cst.CSTNode) -> list[str]:
    if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
        return _target_attributes(node.target)
    if isinstance(node, cst.Del):
        return _target_attributes(node.target)
    if not isinstance(node, cst.Call):
        return []
    qualified = facts.qualified_name(node.func) or ""
    if _inside_own_setattr(facts, node):
        return []  # routes `x.a = v` of the class's instances: each is counted where it is written
    if qualified in ("builtins.setattr", "builtins.delattr") and len(node.args) >= 2:
        name = node.args[1].value
        return [name.evaluated_value] if isinstance(name, cst.SimpleString) and isinstance(name.evaluated_value, str) \
            else [ANY]
    if qualified == "builtins.vars" or isinstance(node.func, cst.Attribute) and node.func.attr.value == "__setattr__":
        return [ANY]
    func = node.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute) \
            and is_inplace_method(func.attr.value):
        return [func.value.attr.value]  # `self.hist.append(x)`, `self.count.add_(1)`
    return []


def _inside_own_setattr(facts: Facts, node: cst.Call) -> bool:
    """A call of a class's `__setattr__` / `__delattr__` method storing on its own `self`
    (`object.__setattr__(self, name, value)`, `super().__setattr__(name, value)`)."""
    function = facts.enclosing_function(node)
    if not (isinstance(function, cst.FunctionDef) and function.name.value in ("__setattr__", "__delattr__")):
        return False
    params = [p.name.value for p in function.params.params]
    args = [a.value for a in node.args]
    if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Call) \
            and isinstance(node.func.value.func, cst.Name) and node.func.value.func.value == "super":
        args = [cst.Name(params[0]), *args] if params else args  # `super().__setattr__(name, value)`
    # the attribute asked for, on `self`: not `object.__setattr__(self, "_" + name, v)`
    return len(params) >= 2 and len(args) >= 2 and all(
        isinstance(a, cst.Name) and a.value == p for a, p in zip(args[:2], params[:2]))


def _target_attributes(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [a for el in target.elements for a in _target_attributes(el.value)]
    while isinstance(target, cst.Subscript):
        target = target.value
    if isinstance(target, cst.Attribute):
        return [ANY] if target.attr.value == "__dict__" else [target.attr.value]
    return []


def _may_run_during(facts: Facts, store: cst.CSTNode, loop: Loop, root: str) -> bool:
    """The store may run while the loop runs: in the loop itself (through another name than
    the one read: a store through `root` already makes it vary), or in a function the loop
    may call, other than a constructor filling its own `self` and the loop's own function."""
    inside = any(a is loop.node for a in facts.ancestors(store))
    target = getattr(store, "target", None)
    written = chain_path(_strip(target)) if isinstance(target, cst.BaseExpression) else None
    if inside:
        return written is None or written[0] != root
    function = facts.enclosing_function(store)
    if function is None:
        return False  # module level, outside the loop: before or after it, not during
    if any(a is function for a in facts.ancestors(loop.node)):
        return False  # the loop's own function, outside the loop
    if isinstance(function, cst.FunctionDef) and function.name.value == "__init__" and written is not None:
        params = function.params.params
        return not (params and written[0] == params[0].name.value)
    return not _called_only_outside(facts, function, loop)


def _called_only_outside(facts: Facts, function: cst.CSTNode, loop: Loop) -> bool:
    """A top-level function whose name is only ever called directly, from top-level code outside
    the loop (`configure(args)` before it): it cannot run while the loop runs."""
    if not isinstance(function, cst.FunctionDef) or facts.enclosing_function(function) is not None \
            or facts.parent(function) is not facts.module:
        return False
    uses = [n for n in unit_index(facts).names.get(function.name.value, []) if n is not function.name]
    for use in uses:
        call = facts.parent(use)
        if not (isinstance(call, cst.Call) and call.func is use) or facts.enclosing_function(call) is not None \
                or any(a is loop.node for a in facts.ancestors(call)):
            return False
    return True


def _strip(target: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(target, cst.Subscript):
        target = target.value
    return target


def stored_device(facts: Facts, read: cst.Attribute) -> bool:
    """`args.__device__` holds a device: the program stores that attribute on a variable of the
    same name (`args.__device__ = device`), only by plain assignment, and every value it stores
    spells a device (`torch.device(...)`, a device string, a name that holds one). Public check
    47, p03: `args.__device__ = device` in `main`, `batch_data.to(args.__device__)` in `train`.
    Which object a store reaches is not known; the root's name and the attribute's are. Silent
    where any store is not seen as a device (a dtype, a tensor, a helper's result), is computed
    (`setattr(obj, name, v)`, `vars(obj)`), augmented or deleted, or where no store is seen."""
    if not isinstance(read.value, cst.Name):
        return False
    stores = _stores(facts)
    found = stores.get(read.attr.value, [])
    if not found or stores.get(ANY):
        return False
    same_root = False
    for store in found:
        if not isinstance(store, cst.AssignTarget) or not isinstance(store.target, cst.Attribute):
            return False  # `args.dev += ...`, `del args.dev`, `setattr(args, "dev", v)`, `self.dev.append(v)`
        assign = facts.parent(store)
        if not isinstance(assign, cst.Assign) or spells_a_device(facts, assign.value) is not True:
            return False
        target = store.target.value
        same_root = same_root or isinstance(target, cst.Name) and target.value == read.value.value
    return same_root
