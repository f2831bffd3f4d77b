"""Names a loop rebuilds, at the top of its body, from loop-invariant data alone.

pyGAT's dense adjacency in the epoch loop:

    adj = np.zeros((N, N), dtype=np.float32)
    adj[edges[:, 0], edges[:, 1]] = 1.0
    adj = adj + adj.T + np.eye(N, dtype=np.float32)
    adj = torch.from_numpy((adj > 0).astype(np.float32)).to(device)

`adj` is written in the loop, so no invariance proof admits it; yet every iteration starts it
afresh (the first statement that mentions it binds it), and every later statement that writes it
reads only itself and invariant data: each iteration computes the same values. `cpu-function`
reads the buffer's fills as work on invariant data (not a per-batch buffer), `redundant-tensor`
the tensor made from it as rebuilt from invariant data. Both are hints: moving part of such a
chain changes which object each statement sees, and the proof is by name, statement by statement.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts, Loop
from ..names import block_statements, bound_names, is_inplace_method
from ..types import Kind
from ._tensor_facts import invariant, is_binding, library_changed_arguments, module_changes_input, reads_of, within


# ndarray methods that change the array without a trailing underscore.
_ARRAY_MUTATORS = frozenset({"fill", "sort", "resize", "put", "itemset", "setfield", "partition", "byteswap",
                             "append", "extend", "insert", "update", "setdefault", "pop", "clear", "remove"})


def rebuilt_chains(facts: Facts, loop: Loop) -> dict[str, list[cst.SimpleStatementLine]]:
    """Each name the body of `loop` rebuilds from invariant data, with the statements that do
    (in order): top-level lines `name = <value>` and `name[<index>] = <value>` whose values read only
    loop-invariant data and names already in a chain; the first mention of the name in the body is
    its first binding, and nothing else in the loop writes it, changes it in place or draws."""
    cache = facts.__dict__.setdefault("_rebuilt_chains", {})
    if id(loop.node) in cache:
        return cache[id(loop.node)]
    chains: dict[str, list[cst.SimpleStatementLine]] = {}
    poisoned: set[str] = set()
    body = block_statements(loop.node.body)
    for stmt in body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        if isinstance(target, cst.Name) and target.value not in poisoned:
            name = target.value
            value = small.value  # type: ignore[union-attr]
            first = name in chains or not _mentioned_before(facts, name, stmt, loop)
            if first and _invariant_given(facts, value, loop, set(chains)):
                chains.setdefault(name, []).append(stmt)
                for other in facts.names_read(value) & set(chains) - {name}:
                    chains[name] = _merged(chains[other], chains[name])
                continue
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value in chains:
            name = target.value.value
            parts = [small.value, *(e.slice.value for e in target.slice if isinstance(e.slice, cst.Index))]  # type: ignore[union-attr]
            if all(_invariant_given(facts, p, loop, set(chains)) for p in parts) \
                    and all(not isinstance(e.slice, cst.Slice) or all(
                        b is None or _invariant_given(facts, b, loop, set(chains)) for b in (e.slice.lower, e.slice.upper, e.slice.step))
                        for e in target.slice):
                chains[name].append(stmt)
                continue
        for name in _written(facts, stmt):  # any other write ends (and spoils) that name's chain
            chains.pop(name, None)
            poisoned.add(name)
    for name in list(chains):
        if not _only_chain_writes(facts, name, chains[name], loop):
            del chains[name]
    cache[id(loop.node)] = chains
    return chains


def _invariant_given(facts: Facts, expr: cst.BaseExpression, loop: Loop, given: set[str]) -> bool:
    return invariant(facts, expr, loop, frozenset(given)) and not any(facts.draws_random(c) for c in facts.calls_in(expr)) \
        and all(facts._call_is_pure(c, frozenset()) for c in facts.calls_in(expr))


def _merged(first: list[cst.SimpleStatementLine], second: list[cst.SimpleStatementLine]) -> list[cst.SimpleStatementLine]:
    return [*first, *(s for s in second if s not in first)]


def _mentioned_before(facts: Facts, name: str, stmt: cst.CSTNode, loop: Loop) -> bool:
    """`name` appears in the loop body before `stmt` (or inside it, read by its own value)."""
    start = facts.order(stmt)
    value = stmt.body[0].value  # type: ignore[attr-defined]
    return any(facts.order(n) < start or within(facts, n, value) for n in reads_of(facts, name, loop.node.body))


def _written(facts: Facts, stmt: cst.CSTNode) -> set[str]:
    """Names `stmt` binds or changes in place (targets, subscript and attribute stores, `+=`)."""
    out: set[str] = set()
    for node in facts.walk(stmt):
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            out |= set(bound_names(node.target))
            base = node.target
            while isinstance(base, (cst.Subscript, cst.Attribute)):
                base = base.value
            if isinstance(base, cst.Name):
                out.add(base.value)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                and (is_inplace_method(node.func.attr.value) or node.func.attr.value in _ARRAY_MUTATORS):
            out.add(node.func.value.value)  # `adj.fill_(0)`, `adj.sort()`: changed in place
    return out


def _only_chain_writes(facts: Facts, name: str, chain: list[cst.SimpleStatementLine], loop: Loop) -> bool:
    """Outside its chain, the loop only reads `name`: no binding, no store through it, no method
    call on it that may change it, no call of the program's that may (a module's call is the
    chain's reader: `model(features, adj)`, as for any invariant input)."""
    for node in reads_of(facts, name, loop.node.body):
        if any(within(facts, node, s) for s in chain):
            continue
        if is_binding(facts, node):
            return False
        parent = facts.parent(node)
        if isinstance(parent, (cst.Subscript, cst.Attribute)) and parent.value is node:
            outer = facts.parent(parent)
            if isinstance(outer, (cst.AssignTarget, cst.AugAssign, cst.Del)) \
                    or isinstance(outer, cst.Call) and outer.func is parent and isinstance(parent, cst.Attribute) \
                    and (is_inplace_method(parent.attr.value) or parent.attr.value in _ARRAY_MUTATORS):
                return False
        if isinstance(parent, cst.Arg) and isinstance(facts.parent(parent), cst.Call) \
                and not _handed_for_reading(facts, facts.parent(parent), node):  # type: ignore[arg-type]
            return False
        if isinstance(parent, (cst.Element, cst.DictElement)):
            return False  # held in a container: changed through it, out of this proof's sight
    return not _changed_in_place_outside(facts, name, chain, loop)


def _handed_for_reading(facts: Facts, call: cst.Call, node: cst.Name) -> bool:
    """`call` only reads `node`: a torch/NumPy/builtin function that changes none of its arguments,
    a tensor's or an array's method, a list's `append` (it keeps the value, which the next iteration
    rebinds), or a torch module that does not change its input (`model(features, adj)`). Anything
    else (a function or a class of the program, an unknown object's method) may change it."""
    func = call.func
    qualified = facts.qualified_name(func) or ""
    if qualified.startswith(("torch.", "numpy.", "builtins.", "math.")) and qualified.count(".") >= 1 \
            and facts.kind(func) is not Kind.MODULE:
        return not any(a is node for a in library_changed_arguments(facts, call))
    if isinstance(func, cst.Attribute) and (facts.kind(func.value) in (Kind.TENSOR, Kind.NDARRAY)
                                            and not is_inplace_method(func.attr.value)
                                            or func.attr.value == "append" and facts.kind(func.value) is Kind.LIST):
        return True
    return facts.kind(func) is Kind.MODULE and not module_changes_input(facts, func)


def _changed_in_place_outside(facts: Facts, name: str, chain: list[cst.SimpleStatementLine], loop: Loop) -> bool:
    from ._tensor_facts import unit_index

    return any(within(facts, site, loop.node.body) and not any(within(facts, site, s) for s in chain)
               for site in unit_index(facts).mutations.get(name, ()))
