"""Per-sample module calls: `[expert(x[b]) for b in range(x.size(0))]` runs a module once per sample.

Why a separate module: `elementwise-loop` proves per-element maps it can rewrite; a module call
per sample is never rewritten (what a module does to one sample vs a batch is not provable: a
`BatchNorm`, a `view(-1)` inside, shape-dependent code), so this only finds the loop and names
the batched form as a hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import libcst as cst

from ..facts import Facts
from ..types import Kind


@dataclass(frozen=True)
class PerSample:
    call: cst.Call  # the module call on one sample
    batch: str  # the batch tensor the loop walks
    var: str  # the loop's per-sample name (index or row)


IsTensor = Callable[[cst.BaseExpression], bool]
Covered = Callable[[cst.BaseExpression], "cst.Name | None"]


def per_sample_call(facts: Facts, is_tensor: IsTensor, covered: Covered, target: cst.BaseExpression,
                    it: cst.BaseExpression, body: cst.CSTNode, loop: cst.CSTNode) -> PerSample | None:
    """The module call in `body` that takes one sample of a batch tensor the loop (`for target in it`)
    walks, when nothing computed in one iteration feeds the next call (no RNN state carried), the
    loop has no `break`, and it runs more than once per program (in a function or a loop, not a
    top-level evaluation run once)."""
    samples = _sample_vars(facts, is_tensor, covered, target, it)
    if samples is None or _runs_once(facts, loop):
        return None
    batch, indices, rows = samples
    if _pieces_of_a_split(facts, it, batch):
        return None  # one call per group of samples: the grouped form the hint itself suggests
    if any(isinstance(n, cst.Break) for n in facts.walk(body, into_scopes=False)):
        return None
    if _steps_an_optimizer(facts, body):
        return None  # each iteration is a training step: `x[i]` is a mini-batch of a stack of them
    written = facts.names_written(body) - indices - rows
    for node in facts.walk(body, into_scopes=False):
        if not isinstance(node, cst.Call) or not _is_module(facts, node.func):
            continue
        if facts.names_read(node) & written:
            return None  # a value carried from the previous step (`h = cell(x[t], h)`)
        for arg in node.args:
            if _one_sample(facts, arg.value, batch, indices, rows):
                var = next(iter(sorted(indices or rows)))
                return PerSample(node, batch, var)
    return None


def _steps_an_optimizer(facts: Facts, body: cst.CSTNode) -> bool:
    """`opt.step()` in the loop's own body (under an `if` too, as in gradient accumulation; not in a
    nested loop or function): every iteration (or every k-th) updates the weights, so the loop walks
    the training steps of a stack of mini-batches (`X = torch.randn(48, 256, 64)`, `model(X[i])`), not
    the samples of one batch - and one call on all of `X` would be another training (one update for
    every batch), so the per-sample hint is wrong there even when each `X[i]` is a single sample."""
    for node in facts.walk(body, into_scopes=False):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "step" \
                and not node.args and not any(isinstance(a, (cst.For, cst.While))
                                              for a in _ancestors_below(facts, node, body)):
            receiver = node.func.value
            name = (_root(receiver) or "").lower()
            if _a_scheduler(facts, receiver) or "sched" in name:
                continue  # `sched.step()` changes the learning rate, not the weights
            if facts.kind(receiver) is Kind.OPTIMIZER or "opt" in name:
                return True
    return False


def _a_scheduler(facts: Facts, receiver: cst.BaseExpression) -> bool:
    """`sched` bound to a `torch.optim.lr_scheduler` / `swa_utils` object (their kind is the
    optimizer's: every class under `torch.optim`)."""
    value = facts.value_of(receiver) if isinstance(receiver, cst.Name) else None
    qualified = facts.qualified_name(value.func) if isinstance(value, cst.Call) else None
    return bool(qualified) and qualified.startswith(("torch.optim.lr_scheduler.", "torch.optim.swa_utils."))  # type: ignore[union-attr]


def _ancestors_below(facts: Facts, node: cst.CSTNode, top: cst.CSTNode) -> list[cst.CSTNode]:
    out = []
    for anc in facts.ancestors(node):
        if anc is top:
            break
        out.append(anc)
    return out


def _root(expr: cst.BaseExpression) -> str | None:
    """`opt` of `opt`, `self.opt`'s `opt` (the last attribute names the object)."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    return None


# Splitters whose pieces are groups of rows: `torch.split(x, sizes)`, `x.chunk(4)`, ...
_SPLITTERS = frozenset({"split", "split_with_sizes", "chunk", "tensor_split"})


def _pieces_of_a_split(facts: Facts, it: cst.BaseExpression, batch: str) -> bool:
    """`batch` holds the pieces a split returns (check 48 p02's mixture of experts: `batches_experts =
    torch.split(x[order], sizes)`, one expert call per piece): each piece is a group of samples, and one
    module call per group is what the per-sample hint itself asks for, not a call per sample. Every
    binding of the name in the loop's scope must be such a split; a split into pieces of one row
    (`torch.split(x, 1)`, or a count that is not a literal for `chunk`/`tensor_split`) stays a split into samples."""
    use = next((n for n in facts.walk(it) if isinstance(n, cst.Name) and n.value == batch), None)
    sources = facts.value_sources(use) if use is not None else None
    return bool(sources) and all(_splits_into_groups(facts, source) for source in sources)  # type: ignore[union-attr]


def _splits_into_groups(facts: Facts, value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call):
        return False
    qualified = facts.qualified_name(value.func) or ""
    if qualified.startswith("torch.") and qualified[len("torch."):] in _SPLITTERS:
        how, args = qualified[len("torch."):], [a for a in value.args if a.keyword is None][1:]
    elif isinstance(value.func, cst.Attribute) and value.func.attr.value in _SPLITTERS \
            and facts.kind(value.func.value) in (Kind.TENSOR, Kind.UNKNOWN):
        how, args = value.func.attr.value, [a for a in value.args if a.keyword is None]
    else:
        return False
    size = args[0].value if args else None
    if size is None or any(a.star for a in value.args):
        return False
    if how in ("split", "split_with_sizes"):
        return not (isinstance(size, cst.Integer) and size.value == "1")  # pieces of one row are samples
    return isinstance(size, cst.Integer) and int(size.value, 0) > 1  # a number of pieces: known only as a literal


def _sample_vars(facts: Facts, is_tensor: IsTensor, covered: Covered, target: cst.BaseExpression,
                 it: cst.BaseExpression) -> tuple[str, set[str], set[str]] | None:
    """(batch tensor, index names, row names) of a loop over a batch's samples: `range(len(x))`,
    `range(x.size(0))`, `zip(range(x.size(0)), ...)`, `enumerate(x)`, `for row in x`, `zip(x, y)`."""
    qualified = facts.qualified_name(it.func) if isinstance(it, cst.Call) else None
    if isinstance(target, cst.Name) and qualified == "builtins.range":
        batch = _range_batch(facts, covered, it)  # type: ignore[arg-type]
        return (batch, {target.value}, set()) if batch else None
    if isinstance(target, cst.Name) and isinstance(it, cst.Name) and is_tensor(it):
        return it.value, set(), {target.value}
    if not isinstance(target, cst.Tuple) or not isinstance(it, cst.Call) or qualified not in ("builtins.zip", "builtins.enumerate"):
        return None
    names = [el.value.value if isinstance(el.value, cst.Name) else None for el in target.elements]
    sources = [a.value for a in it.args if not a.star]
    if qualified == "builtins.enumerate":
        if len(sources) != 1 or len(names) != 2 or not isinstance(sources[0], cst.Name) or not is_tensor(sources[0]) \
                or None in names:
            return None
        return sources[0].value, {names[0]}, {names[1]}  # type: ignore[arg-type]
    if len(sources) != len(names):
        return None
    batch, indices, rows = None, set(), set()
    for name, source in zip(names, sources):
        if name is None:
            return None
        found = _range_batch(facts, covered, source) if isinstance(source, cst.Call) \
            and facts.qualified_name(source.func) == "builtins.range" else None
        if found:
            batch, _ = found, indices.add(name)
        elif isinstance(source, cst.Name) and is_tensor(source):
            batch = batch or source.value
            rows.add(name)
    return (batch, indices, rows) if batch else None


def _range_batch(facts: Facts, covered: Covered, it: cst.Call) -> str | None:
    """`x` of `range(len(x))` / `range(x.size(0))` / `range(n)` with `n = x.shape[0]` bound once."""
    if len(it.args) != 1:
        return None
    n = it.args[0].value
    if isinstance(n, cst.Name):
        n = facts.value_of(n) or n
    tensor = covered(n)
    return tensor.value if tensor is not None else _first_dim_of(facts, n)


def _first_dim_of(facts: Facts, n: cst.BaseExpression) -> str | None:
    """`x` of `x.size(0)` / `x.shape[0]` where `x` has no known type (a `forward` parameter): only an
    array has a `.size(0)`/`.shape[0]`, and a known non-tensor (a NumPy array) is left out."""
    base: cst.BaseExpression | None = None
    if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "size" and len(n.args) == 1 \
            and isinstance(n.args[0].value, cst.Integer) and n.args[0].value.value == "0":
        base = n.func.value
    elif isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape" \
            and len(n.slice) == 1 and isinstance(n.slice[0].slice, cst.Index) \
            and isinstance(n.slice[0].slice.value, cst.Integer) and n.slice[0].slice.value.value == "0":
        base = n.value.value
    return base.value if isinstance(base, cst.Name) and facts.kind(base) in (Kind.TENSOR, Kind.UNKNOWN) else None


def _is_module(facts: Facts, func: cst.BaseExpression) -> bool:
    """A call of an `nn.Module` (by type): `self.net(...)`, `self.experts[k](...)`, `model(...)`."""
    return facts.kind(func) is Kind.MODULE


def _one_sample(facts: Facts, arg: cst.BaseExpression, batch: str, indices: set[str], rows: set[str]) -> bool:
    """`x[b]`, `x[b].unsqueeze(0)`, `x[b:b+1]`-free: the argument is one sample of the batch."""
    while isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute) and not arg.args \
            or isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute) and arg.func.attr.value in ("unsqueeze", "view", "reshape"):
        arg = arg.func.value  # type: ignore[union-attr]
    if isinstance(arg, cst.Name):
        return arg.value in rows
    if isinstance(arg, cst.Subscript) and isinstance(arg.value, cst.Name) and arg.value.value == batch and arg.slice:
        first = arg.slice[0].slice
        return isinstance(first, cst.Index) and isinstance(first.value, cst.Name) and first.value.value in indices
    return False


def _runs_once(facts: Facts, loop: cst.CSTNode) -> bool:
    """The loop is top-level code outside any loop (an evaluation run once), or in a plain
    function only called from such code: its per-sample calls cost once, not per step."""
    if facts.enclosing_loops(loop):
        return False
    function = facts.enclosing_function(loop)
    if function is None:
        return True
    if not isinstance(function, cst.FunctionDef) or facts.enclosing_function(function) is not None \
            or isinstance(facts.parent(facts.parent(function) or function), cst.ClassDef):
        return False  # a method (`forward`) or a nested function: called per step
    calls = [u for u in facts.uses(function.name.value) if isinstance(facts.parent(u), cst.Call)]
    return bool(calls) and all(facts.enclosing_function(c) is None and not facts.enclosing_loops(c) for c in calls)


@dataclass(frozen=True)
class PerCell:
    read: cst.Subscript  # `conf[b, i, j]`: one element (cell) of one sample
    batch: str
    var: str


def per_cell_ops(facts: Facts, covered: Covered, loop: cst.For) -> PerCell | None:
    """`for b in range(x.size(0)): for i in range(S): for j in range(S): ... conf[b, i, j].sum().item()`:
    a nest whose outer loop walks a batch's samples and whose inner loops walk positions, reading
    single cells (indexed by every loop variable) through torch ops and `.item()` reads - a few tiny
    ops and a host read per cell of every sample. Nothing carried between cells is checked here:
    this is a hint, and the batched form (a mask over the whole batch) is the user's to write."""
    if not isinstance(loop.target, cst.Name) or not isinstance(loop.iter, cst.Call) \
            or facts.qualified_name(loop.iter.func) != "builtins.range" or _runs_once(facts, loop):
        return None
    batch = _range_batch(facts, covered, loop.iter)
    if batch is None:
        return None
    inner = [n for n in facts.walk(loop.body, into_scopes=False) if isinstance(n, cst.For)]
    if not inner or any(isinstance(n, (cst.Break, cst.Return)) for n in facts.walk(loop.body, into_scopes=False)):
        return None
    variables = {loop.target.value}
    for n in inner:
        if not (isinstance(n.target, cst.Name) and isinstance(n.iter, cst.Call)
                and facts.qualified_name(n.iter.func) == "builtins.range"):
            return None
        variables.add(n.target.value)
    for node in facts.walk(loop.body, into_scopes=False):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "item" \
                and not node.args:
            read = _cell_read(node.func.value, loop.target.value, variables)
            if read is not None:
                return PerCell(read, batch, loop.target.value)
    return None


def _cell_read(expr: cst.BaseExpression, sample: str, variables: set[str]) -> cst.Subscript | None:
    """`conf[b, i, j]` in `conf[b, i, j].sum()` / `torch.argmax(cls[b, i, j])`: a read of one cell,
    indexed first by the sample and then only by loop variables, all of them."""
    for node in _subscripts(expr):
        names = [el.slice.value.value for el in node.slice
                 if isinstance(el.slice, cst.Index) and isinstance(el.slice.value, cst.Name)]
        if len(names) == len(node.slice) >= 2 and names[0] == sample and set(names) == variables:
            return node
    return None


def _subscripts(expr: cst.BaseExpression) -> list[cst.Subscript]:
    out: list[cst.Subscript] = []

    class _Collect(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            out.append(node)

    expr.visit(_Collect())
    return out
