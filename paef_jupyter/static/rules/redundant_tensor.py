"""`torch.tensor(CONST)` inside the loop: the same tensor rebuilt on every iteration."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial
from typing import Callable

import libcst as cst

from ...fix.edits import fresh_name, hoist_expression, hoist_statement, hoist_statements
from ...model import Fix, Severity
from ..names import (argument_bound_to, block_statements, bound_names, is_inplace_method, named_params,
                     parameter_filled, positional_params, root_name, writes_of)
from ..facts import Facts, Loop
from ..outside_values import unproved_outside_value
from ..outside_calls import loss_module_call
from ..types import PARAMETER_WRAPPERS, Kind
from ._tensor_facts import (steps_itself_per_call, optimised, aliases, caught_in_loop, changed_by_callees, unit_index, assigned_value, invariant, is_binding, keyword,
                            library_changed_arguments, module_changes_input, mutated_in_place, rarely_runs,
                            reads_of, rebound_in_unit, shared_end, shared_path, sole_writers, surely_runs, within)
from ..device_use import is_device_move, on_host, uses_device
from ._attribute_stores import store_hazard
from ._kept_objects import callee_keeps, kept_by_program_code
from ._parametrized_reads import parametrized_read
from ._support import hot_loop
from ._data_builder import builds_data_once
from ._frozen_forward import fixed_input_forwards
from ._sized_tables import sized_host_table
from ._rebuilt_chains import rebuilt_chains
from ._repeated_copies import repeated_copy
from .base import Rule, RuleContext

# Spectral windows: tables of their length alone (computed with cosines: their last bits may
# differ between host and device).
WINDOWS = frozenset({"hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"})
# Factories whose result depends only on their arguments (random draws never qualify).
DATA_FACTORIES = frozenset({"tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor", "arange", "linspace",
                            "logspace", "eye"}) | WINDOWS
SEQUENCE_FACTORIES = frozenset({"tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor"})
FILL_FACTORIES = frozenset({"zeros", "ones", "full", "zeros_like", "ones_like", "full_like"})
# Masks and index tables torch builds from sizes alone (not `torch.<factory>`: `cpu-then-move` leaves them),
# spectral windows (`torch.hann_window(n_fft)`) among them.
TABLE_BUILDERS = frozenset({"torch.nn.Transformer.generate_square_subsequent_mask", "torch.triu_indices",
                            "torch.tril_indices"} | {f"torch.{name}" for name in WINDOWS})
_STORING_METHODS = frozenset({"append", "extend", "insert", "add", "setdefault", "put", "push", "appendleft",
                              "update", "__setitem__"})
# Builtins that keep what they are given: in an attribute, a new container, an iterator.
_STORING_CALLS = frozenset({f"builtins.{name}" for name in (
    "setattr", "dict", "list", "tuple", "set", "frozenset", "zip", "enumerate", "iter", "reversed", "sorted")}
    | {"types.SimpleNamespace", "collections.OrderedDict", "collections.deque"})
# Operator methods a class may define: `obj += t` / `obj + t` hands `t` to the class's code.
_OPERATOR_METHODS = frozenset({f"__{p}{op}__" for op in ("add", "sub", "mul", "truediv", "floordiv", "matmul", "mod",
                                                          "pow", "and", "or", "xor", "lshift", "rshift")
                               for p in ("", "i", "r")})
# Legacy wrappers that return the tensor they are given (`return Variable(torch.zeros(1, n))`).
IDENTITY_WRAPPERS = frozenset({"torch.autograd.Variable", "torch.autograd.variable.Variable"})
# What tells one object from another equal one: hoisted, every iteration hands them the same object.
# Methods that hand out a tensor's storage or its address: another tensor may be made on that
# memory (`torch.empty(0).set_(t.untyped_storage())`), or the address compared between iterations.
_STORAGE_READERS = frozenset({"untyped_storage", "storage", "_typed_storage", "data_ptr"})
_IDENTITY_READERS = frozenset({"builtins.id", "builtins.hash", "weakref.ref", "weakref.proxy", "weakref.finalize"})
_DICT_KINDS = frozenset({Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR})
# Calls after which a module's parameters are views of (or are) the tensor handed over;
# `swap_tensors` exchanges the two objects' contents.
_STORAGE_ADOPTERS = frozenset({"torch.nn.utils.vector_to_parameters",
                               "torch.nn.utils.convert_parameters.vector_to_parameters", "torch.utils.swap_tensors"})
# Calls that run a module's forward on the parameters and buffers given in their second argument:
# a batch norm's forward then updates the running statistics given, in place.
_FUNCTIONAL_CALLS = frozenset({"torch.func.functional_call", "torch._functorch.functional_call.functional_call",
                               "torch.nn.utils.stateless.functional_call"})
_STATE_KEYWORDS = frozenset({"parameter_and_buffer_dicts", "parameters_and_buffers"})
# Builtins that call the function they are given on the items they are given.
_APPLYING_BUILTINS = frozenset({"builtins.map", "builtins.filter", "builtins.sorted", "builtins.min", "builtins.max",
                                "functools.reduce", "itertools.starmap"})
# Calls chained on the new tensor that keep it a pure function of the same data.
_CHAIN = frozenset({"to", "cuda", "float", "long", "double", "half", "bool", "int", "unsqueeze", "view",
                    "reshape", "expand", "t", "contiguous", "repeat", "pin_memory", "squeeze", "flatten"})


# A rebuilt tensor of at most this many elements, of a size written in the code, costs one small
# allocation and fill per iteration (microseconds): a hint, not a medium.
TINY_ELEMENTS = 1024
_SIZED_FILLS = frozenset({"zeros", "ones", "full", "empty"})


def _literal_size(node: cst.Call, factory: str) -> int | None:
    """The element count of `torch.full((32, 1), v)`, `torch.zeros(4, 8)`, `torch.tensor([0.5, 2.0])`,
    `torch.arange(16)` where the code writes it with integer literals (None otherwise)."""
    positional = [a.value for a in node.args if a.keyword is None]
    if factory in _SIZED_FILLS:
        dims = positional[:1] if factory == "full" or positional and isinstance(positional[0], (cst.Tuple, cst.List)) \
            else positional
        if len(dims) == 1 and isinstance(dims[0], (cst.Tuple, cst.List)):
            dims = [e.value for e in dims[0].elements]
        if not dims or not all(isinstance(d, cst.Integer) for d in dims):
            return None
        count = 1
        for d in dims:
            count *= int(d.evaluated_value)  # type: ignore[union-attr]
        return count
    if factory in ("tensor", "as_tensor") and positional:
        return _literal_leaves(positional[0])
    if factory == "arange" and len(positional) == 1 and isinstance(positional[0], cst.Integer):
        return int(positional[0].evaluated_value)
    return None


def _literal_leaves(expr: cst.BaseExpression) -> int | None:
    """Numbers in a literal (nested) list or tuple of numbers; None for anything else."""
    if isinstance(expr, (cst.Integer, cst.Float)) or isinstance(expr, cst.UnaryOperation) \
            and isinstance(expr.expression, (cst.Integer, cst.Float)):
        return 1
    if isinstance(expr, (cst.List, cst.Tuple)):
        total = 0
        for element in expr.elements:
            if isinstance(element, cst.StarredElement):
                return None
            count = _literal_leaves(element.value)
            if count is None:
                return None
            total += count
        return total
    return None


class RedundantTensor(Rule):
    id = "redundant-tensor"
    title = "Tensor rebuilt every iteration from loop-invariant data"
    severity = Severity.MEDIUM
    explanation = (
        "Every call to a tensor factory allocates memory and fills it; `torch.tensor(list)` also "
        "walks the Python list element by element, and a tensor meant for the GPU is copied "
        "there again. When the arguments do not change between iterations the result is the "
        "same tensor each time: building it once before the loop removes that work from every "
        "step."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._names: set[str] = set()
        self._copied: set[tuple[cst.CSTNode | None, str]] = set()
        self.sites = FactorySites(self.facts, losses_fresh=True)

    def visit_Module(self, node: cst.Module) -> None:
        for loop in self.facts.loops:
            for stmt, call in fixed_input_forwards(self.facts, loop):
                self._fixed_forward(stmt, call)

    def _fixed_forward(self, stmt: cst.SimpleStatementLine, call: cst.Call) -> None:
        """Style transfer's `content_features = vgg(content)` in the optimisation loop: a hint,
        since hoisting moves a statement whose outputs the loop may read under other names."""
        facts = self.facts
        line = facts.code(stmt).strip()
        self.report(
            stmt,
            f"`{facts.code(call)}` runs the frozen `{facts.code(call.func)}` (in `.eval()`, trained by nothing in this loop) "
            "on inputs the loop never changes: the same output every iteration, recomputed each time (with an autograd "
            "graph unless gradients are off)",
            fix=Fix(description="compute it once before the loop, without a graph (its output then carries no gradient "
                    "back to the frozen model, which no optimizer here steps)",
                    suggestion=f"with torch.no_grad():\n    {line}", safe=False),
        )

    def visit_Call(self, node: cst.Call) -> None:
        site = self.sites.site(node)
        if site is None:
            self._invariant_helper(node)
            self._table_copied(node)
            self._invariant_copied(node)
            self._sized_table(node)
            self._rebuilt_from_chain(node)
            self._repeated_copy(node)
            return
        if site.in_helper and (self._carried_by_call_sites(node) or self._once_per_pass(node)):
            return
        expr, factory, target, in_helper, assigned, mutated = (
            site.expr, site.factory, site.target, site.in_helper, site.assigned, site.mutated)
        if expr is node and _literal_size(node, factory) == 0:
            return  # `torch.zeros((0, 6), device=d)` (no boxes in this image): nothing to fill or copy, nothing to gain
        chain: list[cst.SimpleStatementLine] = []
        end: cst.CSTNode | None = None
        in_lambda = in_helper and self.facts.enclosing_function(expr) is None  # a top-level lambda the loop calls
        code = self.facts.code(expr)
        name = assigned or factory
        constant = site.shaped and invariant(self.facts, node, site.target)  # `hann_window(N)` moved to the input's device
        if constant:
            fix = Fix(
                description="it depends on constants and the input's device only: build it once in `__init__` "
                "(`self.register_buffer(..., persistent=False)` moves it with the model) or once per device, and use it here",
                suggestion=f"self.register_buffer(\"{name}\", {self.facts.code(node)}, persistent=False)",
                safe=False,
            )
        elif site.shaped:
            fix = Fix(
                description="it depends only on the input's length and device: build it once for the longest "
                "length in `__init__` (`self.register_buffer(..., persistent=False)` moves it with the model) "
                "and slice it per call (`[:L]`)",
                suggestion=f"self.register_buffer(\"{name}\", {code}, persistent=False)",
                safe=False,
            )
        elif in_helper:
            fix = Fix(
                description=f"build it once outside the per-iteration {'lambda' if in_lambda else 'function'} (module level or `__init__`) "
                f"and use it here: `{name} = {code}`",
                suggestion=f"{name} = {code}",
                safe=False,
            )
        elif site.via_loss:
            fix = Fix(
                description=f"build it once before the loop and read it here: `{name}_const = {code}` (not rewritten "
                "automatically: that it stays unchanged rests on the loss module returning a new tensor, which the "
                "rewrite proofs do not assume)",
                suggestion=f"{name}_const = {code}",
                safe=False,
            )
        elif mutated:
            fix = Fix(
                description=f"build it once before the loop and copy it here (it is changed in place): "
                f"`{name}_base = {code}` ... `{name}_base.clone()`",
                suggestion=f"{name}_base = {code}",
                safe=False,
            )
        else:
            stmt = self.sites.hoistable_statement(expr, assigned, target)
            chain = self._derived(stmt, assigned, target) if stmt is not None and assigned is not None else []
            if chain:
                edits = hoist_statements(self.facts, [stmt, *chain], target)  # type: ignore[list-item]
                end = chain[-1]
                code = "; ".join(self.facts.code(s.body[0]).strip() for s in [stmt, *chain])  # type: ignore[union-attr]
            elif stmt is not None:
                edits = hoist_statement(self.facts, stmt, target)
            else:
                name = fresh_name(self.facts, f"{name}_const", self._names)
                self._names.add(name)
                edits = hoist_expression(self.facts, expr, target, name)
            built = code if chain else f"{name} = {code}"
            review = self.sites.review(site)
            moved = [stmt, *chain] if stmt is not None else [expr]
            review = "; and ".join(r for r in (review, parametrized_read(self.facts, moved)) if r)
            outside = unproved_outside_value(self.facts, moved)
            if outside:
                review = "; and ".join(r for r in (review, f"{outside}: built once before the loop, it could miss a "
                                                   "change made by code this analysis does not see (closed-world proof)") if r)
            fix = Fix(description=f"build it once before the loop: `{built}`", edits=edits,
                      suggestion=built, review=review)
        where = f"in a {'lambda' if in_lambda else 'function'} called on every iteration" if in_helper else "inside the loop"
        data = "constants and the input's device only" if constant else "the input's length and device only" \
            if site.shaped else "loop-invariant data"
        code = self.facts.code(expr)
        size = _literal_size(node, factory) if not self.sites._moved_after(node) else None  # a copy per iteration
        tiny = size is not None and size <= TINY_ELEMENTS
        self.report(
            expr,
            f"`{code}` is rebuilt {where} from {data}"
            + (f" (with the {len(chain)} statement{'s' if len(chain) > 1 else ''} after it, computed only from it)" if chain else "")
            + ": an allocation, a fill"
            f"{' from a Python sequence' if factory in SEQUENCE_FACTORIES else ' of a new NumPy array' if factory == 'from_numpy' else ''}"
            " and any device copy are repeated each iteration for the same tensor"
            + (f" (a tiny tensor of {size} element{'s' if size != 1 else ''}: little time to gain per iteration)" if tiny else ""),
            fix=fix,
            end_node=end,
            severity=Severity.LOW if tiny else None,
        )


    def _repeated_copy(self, node: cst.Call) -> None:
        """`torch.cat(n * [self.W], dim=0)` on every step where `self.W` has size 1 there (public
        check 51 p04): `n` copies of one tensor, which `expand` gives as a view (`_repeated_copies`)."""
        found = repeated_copy(self.facts, node)
        if found is None or hot_loop(self.facts, node) is None:
            return
        x, kind, view = found
        self.report(
            node,
            f"`{self.facts.code(node)}` {'concatenates' if kind == 'cat' else 'stacks'} copies of one tensor (`{x}`) on "
            "every iteration: an allocation and a copy of it per repetition, where a broadcast view reads it once",
            fix=Fix(description=f"use a view that repeats `{x}` without copying it (`{view}`), or let the consumer "
                    "broadcast it; not rewritten automatically: a view shares one memory block, so the result must not "
                    "be written in place or need a contiguous layout", suggestion=view, safe=False),
        )

    def _table_copied(self, node: cst.Call) -> None:
        """`self.alphas_cumprod.to(x.device)[t]` in a method run every iteration, where `__init__`
        built `self.alphas_cumprod` once on the host (a diffusion noise schedule) and nothing
        changes it: the same table is copied to the device on every call."""
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("to", "cuda") or not is_device_move(self.facts, node):
            return  # `self.table.to(torch.float64)`: a conversion, not a copy to the device
        table = func.value
        if not (isinstance(table, cst.Attribute) and isinstance(table.value, cst.Name) and table.value.value == "self"):
            return
        method = self.facts.enclosing_function(node)
        if method is None or method.name.value == "__init__" or not uses_device(self.facts) \
                or hot_loop(self.facts, node) is None:
            return
        if not _host_table(self.facts, method, table.attr.value, 0):
            return
        code = self.facts.code(table)
        self.report(
            node,
            f"`{self.facts.code(node)}` copies `{code}`, a table `__init__` built once on the host, to the device "
            "on every call, and this runs on every iteration: the same host-to-device copy each time",
            fix=Fix(description=f"move it to the device once: build it there in `__init__` (or register it with "
                    f"`self.register_buffer(...)` on a module, which `.to(device)` carries) and read `{code}` here",
                    suggestion=f"{code} = {code}.to(device)  # once, after construction", safe=False),
        )

    def _sized_table(self, node: cst.Call) -> None:
        """`torch.eye(2 * n, dtype=torch.bool).to(z.device)` with `n = z1.size(0)` in a loss helper
        run every step: a table of the input's sizes alone (the batch size included), built on the
        host and copied on every call (`_sized_tables`). `cpu-then-move` fixes the copy; the rebuild
        stays. A hint: while the sizes repeat it is the same table, which a cache keyed by the sizes
        (and the device) would build once."""
        built = sized_host_table(self.facts, node) if not self.facts.enclosing_loops(node) else None
        if built is None:
            return
        loop = hot_loop(self.facts, node)
        func = self.facts.enclosing_function(node)
        if loop is None or func is None or rarely_runs(self.facts, node, loop) or self._once_per_pass(node):
            return
        receiver = node.func.value  # type: ignore[attr-defined]
        if any(self.sites.site(c) is not None for part in built for c in self.facts.calls_in(part)):
            return  # a factory of this table (or of a local it reads) is reported as rebuilt already
        whole = self.sites.outermost(node)
        if self.sites._mutated(whole, self.sites._holder(whole), func):
            return  # changed in place after it is built: one shared table would carry the change to the next call
        code = self.facts.code(receiver)
        self.report(
            node,
            f"`{code}` is built on the host from sizes of `{func.name.value}`'s inputs and constants alone, and copied "
            "to the device, in a function called on every iteration: while the sizes repeat (a fixed batch size or "
            "length: nearly every step), every call builds and copies the same table",
            fix=Fix(description="keep one table per size: build it on the device once per (sizes, device), in a "
                    "cache keyed by them (`functools.lru_cache` on a function of the sizes and the device, or a dict "
                    "on the module), and read it here; a last, smaller batch then gets its own entry",
                    suggestion=f"@functools.lru_cache(maxsize=8)\ndef table(sizes, device):\n    return {code}.to(device)",
                    safe=False),
        )

    def _rebuilt_from_chain(self, node: cst.Call) -> None:
        """`adj = torch.from_numpy((adj > 0).astype(np.float32)).to(device)` in the epoch loop, where
        the lines before it rebuild `adj` from loop-invariant data alone on every iteration
        (`_rebuilt_chains`): the tensor is the same each time, though no invariance proof admits a
        name the loop writes. A hint: the chain would move as a whole."""
        qualified = self.facts.qualified_name(node.func) or ""
        factory = qualified.rsplit(".", 1)[-1]
        if not qualified.startswith("torch.") or qualified.count(".") != 1 \
                or factory not in DATA_FACTORIES | FILL_FACTORIES and not self.sites.wraps_new_array(node, factory) \
                or self.sites._chained_into_factory(node):
            return
        loops = self.facts.enclosing_loops(node)
        if not loops or rarely_runs(self.facts, node, loops[0]):
            return
        stmt = self.facts.statement_of(node)
        chains = rebuilt_chains(self.facts, loops[0])
        read = self.facts.names_read(node) & set(chains)
        chain = next((c for c in chains.values() if stmt in c), None)
        if not read or chain is None or chain[0] is stmt:
            return
        first, last = self.facts.position(chain[0]).start.line, self.facts.position(stmt).start.line
        whole = self.sites.outermost(node)
        names = ", ".join(f"`{n}`" for n in sorted(read))
        self.report(
            whole,
            f"`{self.facts.code(whole)}` is rebuilt inside the loop from {names}, which lines {first}-{last - 1} rebuild "
            "from loop-invariant data only on every iteration: an allocation, a fill and any device copy are repeated "
            "each iteration for the same tensor",
            fix=Fix(description=f"build it once before the loop, with the statements of lines {first}-{last} in order, "
                    "and read the result here (not rewritten automatically: the statements move together)",
                    suggestion="\n".join(self.facts.code(s).strip() for s in chain[: chain.index(stmt) + 1]), safe=False),
        )

    def _invariant_copied(self, node: cst.Call) -> None:
        """`labels[idx_train].to(device)` in a training or evaluation loop, or in a function it
        calls every iteration (full-batch graph training's `train()`), where every name read is a
        global bound before the loop on the host and nothing changes it: the same data is indexed
        and copied to the device on every iteration. A hint: moving it once changes which object
        later code reads, and the names may be read elsewhere as host tensors."""
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("to", "cuda") \
                or not is_device_move(self.facts, node):
            return
        data = func.value
        base = _indexed_names(data)
        if not base:
            return
        loop = self.facts.iteration_loop(node)
        if loop is None or loop.kind not in ("train", "eval") or rarely_runs(self.facts, node, loop) \
                or not uses_device(self.facts):
            return
        scope = self.facts.enclosing_function(node)
        if scope is not None and any(n in bound_names_in(scope) for n in base):
            return  # a parameter or a local: each call may hand other data
        if any(inner.parent is loop for inner in self.facts.loops) or scope is not None \
                and not self.facts.enclosing_loops(node) and any(isinstance(n, (cst.For, cst.While)) for n in self.facts.walk(scope)):
            return  # once per epoch around a batch loop (an evaluation pass): not once per step
        if not _data_unchanged(self.facts, base, loop) or not _left_on_host(self.facts, data if isinstance(data, cst.Name) else data.value):  # type: ignore[attr-defined]
            return
        key = (scope, self.facts.code(data))
        if key in self._copied:
            return
        self._copied.add(key)
        code = self.facts.code(data)
        where = "in a function called on every iteration" if not self.facts.enclosing_loops(node) else "inside the loop"
        self.report(
            node,
            f"`{self.facts.code(node)}` copies `{code}`, host data bound once before the loop and never changed, "
            f"to the device {where}: the same indexing and host-to-device copy are repeated each iteration",
            fix=Fix(description=f"move it to the device once, before the loop, and read the moved tensor here "
                    f"(not rewritten automatically: `{base[0]}` may be read elsewhere as a host tensor)",
                    suggestion=f"{base[0]} = {base[0]}.to(device)  # once, before the loop", safe=False),
        )

    def _derived(self, stmt: cst.SimpleStatementLine, name: str, loop: Loop) -> list[cst.SimpleStatementLine]:
        """`betas = torch.linspace(...)` then `alpha_bar = torch.cumprod(1 - betas, dim=0)`: the
        statements right after a hoisted factory that compute, with pure ops, only from it (and
        loop-invariant data) give the same tensors every iteration too, and move with it. Each
        must bind a fresh name the loop writes nowhere else, never changes in place nor keeps."""
        block = self.facts.parent(stmt)
        body = block_statements(block)
        chain: list[cst.SimpleStatementLine] = []
        names = {name}
        for nxt in body[body.index(stmt) + 1 :] if stmt in body else ():
            small = nxt.body[0] if isinstance(nxt, cst.SimpleStatementLine) and len(nxt.body) == 1 else None
            if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
                break
            target, value = small.targets[0].target.value, small.value
            reads = self.facts.names_read(value)
            if target in names or not reads & names or reads & (loop.writes - names) \
                    or not invariant(self.facts, value, loop, frozenset(names)) \
                    or any(self.facts.draws_random(c) for c in self.facts.calls_in(value)) \
                    or self.sites._mutated(value, target, loop.node) or self.sites.kept(value, target, loop.node):
                break
            chain.append(nxt)
            names.add(target)
        while chain and not sole_writers(self.facts, names, [stmt, *chain], loop):
            names.discard(chain.pop().body[0].targets[0].target.value)  # type: ignore[attr-defined]
        return chain

    def _invariant_helper(self, node: cst.Call) -> None:
        """`row, col, w = gcn_norm(edge_index, N)` in the loop, or `model(seq, causal_mask(L))`:
        a pure function of this unit, an earlier cell or a local module, on loop-invariant
        arguments, that computes tensors (not only fills: an initial state), so every iteration
        rebuilds the same ones. Moving the call changes the loop: a hint, and only when the loop
        never rebinds nor changes what it returns."""
        hoisted = self._invariant_helper_hoist(node)
        if hoisted is None:
            return
        code = self.facts.code(node)
        self.report(
            node,
            f"`{code}` runs `{self.facts.code(node.func)}` on every iteration with the same arguments: the tensors "
            "it builds are the same each time (an allocation and the ops that fill them, repeated)",
            fix=Fix(description=f"call it once before the loop: `{hoisted}`" + (
                "" if isinstance(self.facts.parent(self.sites.outermost(node)), cst.Assign) else ", and pass that name here"),
                    suggestion=hoisted, safe=False),
        )

    def _invariant_helper_hoist(self, node: cst.Call) -> str | None:
        """What `_invariant_helper` suggests to run once: the `name = helper(...)` (or
        `helper(...).to(device)`) statement, or, for a call passed straight to another call,
        that call bound to a new name."""
        func = node.func
        loops = self.facts.enclosing_loops(node)
        helper = self.facts._function_at(func) if isinstance(func, cst.Name) else None
        if helper is None or not loops or not node.args:
            return None
        owner, loop = self.facts.owner_of(helper), loops[0]
        whole = self.sites.outermost(node)
        if rarely_runs(self.facts, node, loop) or not owner.is_pure_function(helper.name.value) \
                or not _computes_tensors(owner, helper) or not invariant(self.facts, whole, loop):
            return None
        if self._passed_on(whole):
            name = fresh_name(self.facts, helper.name.value.removeprefix("make_").removeprefix("build_"), self._names)
            return f"{name} = {self.facts.code(whole)}"
        stmt = self.facts.statement_of(node)
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
                and stmt.body[0].value is whole and len(stmt.body[0].targets) == 1):
            return None
        names = set(bound_names(stmt.body[0].targets[0].target))
        if any(mutated_in_place(self.facts, n, loop.node) for n in names):
            return None
        if sole_writers(self.facts, names, [stmt], loop):
            return self.facts.code(stmt.body[0]).strip()
        # `coords = grid(h, w).cuda()` here, and `coords = ...` again elsewhere in the loop (a periodic
        # validation): moving the statement would lose those rebindings' order, but the call alone can
        # run once, bound to a new name this statement reads, when one plain name holds it and the
        # loop neither changes in place (checked above, as for the statement) nor keeps what it holds.
        target = stmt.body[0].targets[0].target
        if not isinstance(target, cst.Name) or self.sites.kept(whole, target.value, loop.node):
            return None
        name = fresh_name(self.facts, helper.name.value.removeprefix("make_").removeprefix("build_"), self._names)
        return f"{name} = {self.facts.code(whole)}"

    def _passed_on(self, expr: cst.BaseExpression) -> bool:
        """`model(seq, causal_mask(L))`, `x.masked_fill(mask(L)[:n].bool(), 0)`: the result (or a
        slice or conversion of it) is an argument of a call, read there and never kept by the loop
        (not stored into a container, not changed in place)."""
        node: cst.CSTNode = expr
        while True:
            parent = self.facts.parent(node)
            if isinstance(parent, cst.Subscript) and parent.value is node:
                node = parent
            elif isinstance(parent, cst.Attribute) and parent.value is node and not is_inplace_method(parent.attr.value) \
                    and isinstance(self.facts.parent(parent), cst.Call) and self.facts.parent(parent).func is parent:  # type: ignore[union-attr]
                node = self.facts.parent(parent)  # type: ignore[assignment]
            else:
                break
        call = self.facts.parent(parent) if isinstance(parent, cst.Arg) and not parent.star else None
        return isinstance(call, cst.Call) and not (isinstance(call.func, cst.Attribute) and call.func.attr.value in _STORING_METHODS)

    def _once_per_pass(self, node: cst.Call) -> bool:
        """`item_emb = tower(torch.arange(N_ITEMS, device=device))` at the top of `recall_at_k`, which
        the epoch loop calls after its batch loop: the loop that runs the function holds a loop of its
        own (the batches) and the function loops itself (an evaluation pass), so the factory runs once
        per pass, not once per step (the rule `_invariant_copied` draws the same line)."""
        loop = self.facts.iteration_loop(node)
        scope = self.facts.enclosing_function(node)
        return loop is not None and scope is not None and any(inner.parent is loop for inner in self.facts.loops) \
            and any(isinstance(n, (cst.For, cst.While)) for n in self.facts.walk(scope))

    def _carried_by_call_sites(self, node: cst.Call) -> bool:
        """Every per-iteration call of the helper holding `node` is reported at its call site
        (`mask = causal_mask(L)` in the loop): one finding there, not another inside."""
        func = self.facts.enclosing_function(node)
        sites = self.facts.per_iteration_call_sites(func) if func is not None else []
        return bool(sites) and all(owner is self.facts and self._invariant_helper_hoist(call) is not None
                                   for owner, call in sites)



def _literal_number(node: cst.BaseExpression) -> float | None:
    """The value of a number literal (`3`, `-2`, `0.5`), else None."""
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        sign, node = (-1 if isinstance(node.operator, cst.Minus) else 1), node.expression
    if isinstance(node, (cst.Integer, cst.Float)):
        return sign * float(node.evaluated_value)
    return None


def _holds_strings(node: cst.BaseExpression) -> bool:
    """A string literal is the data or an element of its nested list/tuple literals."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    return isinstance(node, (cst.List, cst.Tuple)) and any(_holds_strings(e.value) for e in node.elements)


def _ragged(node: cst.BaseExpression) -> bool:
    """A list/tuple literal whose nested literals differ in length or depth."""
    if not isinstance(node, (cst.List, cst.Tuple)):
        return False
    items = [e.value for e in node.elements]
    shapes = {(len(i.elements) if isinstance(i, (cst.List, cst.Tuple)) else None) for i in items}
    return len(shapes) > 1 or any(_ragged(i) for i in items)


def _indexed_names(expr: cst.BaseExpression) -> list[str]:
    """`labels[idx_train]` -> `["labels", "idx_train"]` (the indexed name first): a name indexed by
    names, integers or slices of them, nothing computed; [] otherwise."""
    if isinstance(expr, cst.Name):
        return [expr.value]
    if not isinstance(expr, cst.Subscript) or not isinstance(expr.value, cst.Name):
        return []
    names = [expr.value.value]
    for element in expr.slice:
        part = element.slice
        leaves = [part.value] if isinstance(part, cst.Index) else [p for p in (part.lower, part.upper, part.step) if p is not None]
        for leaf in leaves:
            if isinstance(leaf, cst.Name):
                names.append(leaf.value)
            elif not isinstance(leaf, cst.Integer):
                return []
    return names


def bound_names_in(func: cst.FunctionDef) -> set[str]:
    """The parameters of `func` and the names its body binds (its locals)."""
    params = func.params
    out = named_params(params)
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            out.add(star.name.value)
    for node in _walk(func.body):
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.WithItem)):
            target = node.asname.name if isinstance(node, cst.WithItem) and node.asname is not None else \
                getattr(node, "target", None)
            if target is not None:
                out |= set(bound_names(target))
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            out -= {n.name.value for n in node.names}
    return out


def _walk(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _walk(child)


# Methods that change their receiver without the trailing underscore of torch's in-place ops.
_CHANGING_METHODS = frozenset({"append", "extend", "insert", "update", "pop", "clear", "remove", "setdefault",
                               "sort", "resize", "fill", "put", "copy"})


def _data_unchanged(facts: Facts, names: list[str], loop: Loop) -> bool:
    """No iteration of `loop` (its body and the functions it runs per iteration) rebinds `names`,
    assigns into them, calls an in-place or changing method on them or hands them to a call that
    is not torch's: their data is the same on every iteration. A `backward()` is not a change of
    the data (it fills `.grad`s), which is why this is not `invariant`'s stricter test."""
    wanted = set(names)
    if wanted & loop.writes or any(optimised(facts, n) for n in names):
        return False  # rebound, or handed to an optimizer whose `step()` changes it in place
    bodies: list[cst.CSTNode] = [loop.node.body]
    bodies += [f.body for f, l in facts.per_iteration_functions.items() if l is loop and facts.owner_of(f) is facts]
    for body in bodies:
        if body is not loop.node.body and wanted & facts.names_written(body):
            return False
        for node in facts.walk(body):
            if isinstance(node, (cst.AssignTarget, cst.AugAssign)) and root_name(node.target) in wanted:
                return False
            if not isinstance(node, cst.Call):
                continue
            func = node.func
            if isinstance(func, cst.Attribute) and root_name(func.value) in wanted and (
                    is_inplace_method(func.attr.value) or func.attr.value in _CHANGING_METHODS):
                return False
            if (facts.qualified_name(func) or "").startswith("torch."):
                continue
            if any(root_name(a.value) in wanted and not isinstance(a.value, cst.Call) for a in node.args):
                return False
    return True


def _left_on_host(facts: Facts, node: cst.Name) -> bool:
    """`node`'s name holds host data and no binding of it moves it: built on the host (`on_host`),
    or unpacked from one call beside names the program then moves to the device itself
    (`adj, features, labels = load(...)` then `features = features.to(device)`): moving the
    siblings and not this one says where it stays."""
    name = node.value
    unpacked = [n for n in facts.walk(facts.module) if isinstance(n, cst.Assign) and len(n.targets) == 1
                and isinstance(n.targets[0].target, (cst.Tuple, cst.List)) and name in bound_names(n.targets[0].target)]
    values = facts.assigned_values(name) + [n.value for n in unpacked]
    if not values or any(_moves_or_places(facts, v) for v in values):
        return False
    if on_host(facts, node):
        return True
    if len(unpacked) != 1 or len(values) != 1 or not isinstance(unpacked[0].value, cst.Call):
        return False
    siblings = set(bound_names(unpacked[0].targets[0].target)) - {name}
    return any(_moves_or_places(facts, v) for s in siblings for v in facts.assigned_values(s))


def _moves_or_places(facts: Facts, value: cst.BaseExpression) -> bool:
    """`value` moves data to a device or builds it on one (`x.to(device)`, `torch.zeros(n, device=d)`)."""
    return any(is_device_move(facts, c) or keyword(c, "device") is not None for c in facts.calls_in(value)) \
        or isinstance(value, cst.Call) and (is_device_move(facts, value) or keyword(value, "device") is not None)


def _scalar_fill(node: cst.Call, factory: str) -> bool:
    """`torch.tensor(0.)`, `torch.as_tensor(-1)`: a one-element tensor of a literal number is a
    fill like `torch.zeros(())`; as an accumulator's seed (MAML's `mean_outer_loss`) it is meant
    to be fresh on each call."""
    if factory not in ("tensor", "as_tensor") or not node.args or node.args[0].keyword is not None:
        return False
    numbers = _literal_numbers(node.args[0].value)
    return numbers is not None and len(numbers) == 1 and not isinstance(node.args[0].value, (cst.List, cst.Tuple))


def _filled_list(node: cst.Call, factory: str) -> bool:
    """`torch.Tensor([0])`, `torch.tensor([0.0, 0.0])`: one literal number repeated in a list is a
    fill too; changed in place (an epoch's `total_loss += loss.item()`) it is an accumulator's seed."""
    if factory not in SEQUENCE_FACTORIES or not node.args or node.args[0].keyword is not None \
            or not isinstance(node.args[0].value, (cst.List, cst.Tuple)):
        return False
    numbers = _literal_numbers(node.args[0].value)
    return bool(numbers) and len(set(numbers)) == 1


def _literal_numbers(value: cst.BaseExpression) -> list[float] | None:
    """The numbers of a literal number or a (nested) list or tuple of them; None for anything else."""
    if isinstance(value, (cst.List, cst.Tuple)):
        numbers: list[float] = []
        for element in value.elements:
            if not isinstance(element, cst.Element):
                return None  # `[*xs]`
            inner = _literal_numbers(element.value)
            if inner is None:
                return None
            numbers.extend(inner)
        return numbers
    sign = 1.0
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
        sign, value = (-1.0 if isinstance(value.operator, cst.Minus) else 1.0), value.expression
    if isinstance(value, (cst.Integer, cst.Float)):
        return [sign * float(value.evaluated_value)]
    return None


def _index_parts(sub: cst.Subscript) -> list[cst.BaseExpression]:
    """The expressions of a subscript: each index, each slice bound."""
    parts: list[cst.BaseExpression] = []
    for el in sub.slice:
        if isinstance(el.slice, cst.Index):
            parts.append(el.slice.value)
        else:
            parts.extend(p for p in (el.slice.lower, el.slice.upper, el.slice.step) if p is not None)
    return parts


def _computes_tensors(facts: Facts, func: cst.FunctionDef) -> bool:
    """The function calls torch (directly or through its unit's functions) beyond fills, and
    writes into none of its parameters (`buf[i] = v` is an effect a purity test of calls does
    not see)."""
    seen: set[str] = set()
    work = [func]
    found = False
    while work:
        current = work.pop()
        params = named_params(current.params)
        for n in facts.walk(current.body):
            if isinstance(n, (cst.AssignTarget, cst.AugAssign)) and not isinstance(n.target, cst.Name) \
                    and root_name(n.target) in params:
                return False
        for call in facts.calls_in(current.body):
            q = facts.qualified_name(call.func) or ""
            if q.startswith("torch.") and q.rsplit(".", 1)[-1] not in FILL_FACTORIES | {"empty", "empty_like"}:
                found = True
            if isinstance(call.func, cst.Name) and call.func.value in facts.functions and call.func.value not in seen:
                seen.add(call.func.value)
                work.append(facts.functions[call.func.value])  # type: ignore[arg-type]
    return found



@dataclass(frozen=True)
class Site:
    expr: cst.BaseExpression
    factory: str
    target: Loop
    in_helper: bool
    assigned: str | None  # `name = <expr>`
    holder: str | None  # the name whose object it is or is held in (`a, t = ..., <expr>`; `hc = (<expr>, c)`)
    mutated: bool
    shaped: bool = False  # varies only with the input's length or device (see `shape_derived`)
    via_loss: bool = False  # unchanged only once a torch loss module's result is read as new memory: a hint


class FactorySites:
    """Which tensor factories are rebuilt from loop-invariant data: shared with `cpu-then-move`,
    which leaves such a site to this rule (one finding per site)."""

    def __init__(self, facts: Facts, losses_fresh: bool = False) -> None:
        self.facts = facts
        # `redundant-tensor` itself reads a torch loss module's result as new memory (recall 61) and
        # reports what that alone admits as a hint; the rules that share these sites to stay out of
        # one (`cpu-then-move`, `cpu-function`) keep the default, so their findings do not move.
        self.losses_fresh = losses_fresh

    def site(self, node: cst.Call) -> Site | None:
        """The factory expression (with its pure chain) to build once, and where; None when the
        factory is not redundant (varying, conditional, a fresh accumulator or initial state)."""
        qualified = self.facts.qualified_name(node.func) or ""
        factory = qualified.rsplit(".", 1)[-1]
        builder = qualified in TABLE_BUILDERS
        head = root_name(node.func)
        if head is not None and rebound_in_unit(self.facts, head):
            return None  # `torch = Tracer(torch)` in a function: the call may not reach torch at all
        if not builder and (not qualified.startswith("torch.") or qualified.count(".") != 1
                            or factory not in DATA_FACTORIES | FILL_FACTORIES and not self.wraps_new_array(node, factory)):
            return None
        if keyword(node, "requires_grad") is not None or keyword(node, "out") is not None or not node.args:
            return None
        if self._chained_into_factory(node):
            return None  # reported once, at the outermost expression
        if self._feeds_random_draw(node):
            return None  # `torch.bernoulli(torch.full(...))`: the draw differs every step, it is not redundant
        loop = self.facts.iteration_loop(node)
        size = _literal_size(node, factory)
        if loop is None or rarely_runs(self.facts, node, loop) \
                or size is not None and size <= TINY_ELEMENTS and builds_data_once(self.facts, node):
            return None
        whole = self.outermost(node)
        # `torch.tensor([0.9]).cuda().expand(b, 1)`: the invariant part of the chain is what is built once
        chain = self._chain(node, whole)
        expr = next((e for e in reversed(chain) if invariant(self.facts, e, loop)), whole)
        if any(isinstance(e.func, cst.Attribute) and e.func.attr.value in ("to", "cuda")  # type: ignore[attr-defined]
               for e in chain[chain.index(expr) + 1 :]):
            expr = whole  # moved to a varying device after: `cpu-then-move` builds it there instead
        in_helper = not self.facts.enclosing_loops(node)
        if in_helper and steps_itself_per_call(self.facts, node):
            return None
        target = self._hoist_target(expr) if not in_helper else (loop if invariant(self.facts, expr, loop) else None)
        shaped = False
        if target is None:
            # `torch.tensor([1e10], device=x.device).expand(d.shape)`: the table is the part of the chain
            # that depends only on the input's length and device; what follows it reads the data
            shaped_part = next((e for e in reversed(chain) if shape_derived(self.facts, e, loop)), None) \
                if in_helper and (builder or self._table(node, factory, loop) and not self._moved_after(node)) else None
            if shaped_part is None:
                return None  # built on the host then moved: `cpu-then-move`'s fix is the one to offer
            expr, target, shaped = shaped_part, loop, True
        assigned = self._assigned_name(expr)
        holder = self._holder(whole)  # a view of the hoisted tensor shares it: its holder's changes count
        scope = target.node if not in_helper else self.facts.enclosing_function(node)
        mutated = self._changed(whole, expr, holder, scope)
        via_loss = False
        if mutated and self.losses_fresh:
            # `smooth = torch.tensor([0.9]).cuda().expand(b, 1)` then `lossG = criterion(netD(fake), smooth)`
            # and `lossG.backward()`: only the loss's result, read as possibly `smooth` itself, made it "changed"
            via_loss = not self._changed(whole, expr, holder, scope, partial(loss_module_call, self.facts))
            mutated = not via_loss
        fills = factory in FILL_FACTORIES or _scalar_fill(node, factory)
        if (fills or _filled_list(node, factory)) and mutated and not self._constant_edits(holder, scope, loop) \
                or fills and (self._seeds_state(whole, holder, scope) or self._stored_as_state(whole)):
            return None  # a fresh accumulator or initial state per iteration is the point, not waste
        if self._seeds_recurrence(whole, holder, scope):
            return None  # `token = torch.tensor([[SOS]])` then a decode loop rebinding `token`: a recurrence's start
        if factory in FILL_FACTORIES and in_helper and self._returned(whole, holder, scope) \
                and self._callers_carry_state(scope):
            return None  # `h = model.init_hidden(b)` then `out, h = rnn(x, h)`: an initial state factory
        return Site(expr, factory, target, in_helper, assigned, holder, mutated, shaped, via_loss)

    def _changed(self, whole: cst.BaseExpression, expr: cst.BaseExpression, holder: str | None,
                 scope: cst.CSTNode | None, fresh: Callable[[cst.Call], bool] | None = None) -> bool:
        """Would one tensor shared across iterations be changed (the whole chain through its
        holder, or the hoisted part of it)? With `fresh`, the calls it accepts are read as returning
        new memory: a question asked with an explicit argument, never through state the facts keep."""
        return self._mutated(whole, holder, scope, fresh) or (whole is not expr and self._mutated(expr, None, scope, fresh))

    def wraps_new_array(self, node: cst.Call, factory: str) -> bool:
        """`torch.from_numpy(np.array([1, 0, 0, 1]).astype(np.float32))`: the array is built in the
        call, so the tensor is too; `torch.from_numpy(self.table)` only wraps memory (no work)."""
        return factory == "from_numpy" and len(node.args) == 1 and self.facts.allocates(node.args[0].value)

    def _moved_after(self, node: cst.Call) -> bool:
        """`torch.arange(L).unsqueeze(0).to(x.device)`: made on the host, then copied."""
        if keyword(node, "device") is not None:
            return False
        current: cst.CSTNode = node
        while True:
            parent = self.facts.parent(current)
            if isinstance(parent, cst.Subscript) and parent.value is current:
                current = parent
                continue
            grand = self.facts.parent(parent) if parent is not None else None
            if not (isinstance(parent, cst.Attribute) and parent.value is current and isinstance(grand, cst.Call)):
                return False
            if parent.attr.value in ("to", "cuda"):
                return True
            if parent.attr.value not in _CHAIN:
                return False
            current = grand

    def _table(self, node: cst.Call, factory: str, loop: Loop) -> bool:
        """A position table, index range or mask (`arange`, `linspace`, `eye`, a fill turned into
        a causal mask by `triu`/`tril`): what a model builds for a length, not for a batch; or
        constant data put where the input lives (`torch.tensor(self.offsets, device=x.device)`)."""
        if factory in ("arange", "linspace", "logspace", "eye") or factory in WINDOWS:
            return True
        if factory in ("tensor", "as_tensor", "from_numpy") and node.args and node.args[0].keyword is None \
                and invariant(self.facts, node.args[0].value, loop):
            return True
        parent = self.facts.parent(node)
        call = self.facts.parent(parent) if isinstance(parent, cst.Arg) else None
        return factory in FILL_FACTORIES and isinstance(call, cst.Call) \
            and (self.facts.qualified_name(call.func) or "") in ("torch.triu", "torch.tril")

    def review(self, site: Site) -> str:
        """Why hoisting `site` out of its loop is not proved safe ("" when it is): every reason
        found, so that a reviewer who accepts one (a shared object nobody changes) still sees the
        other (a device call hoisted out of `if torch.cuda.is_available():`)."""
        reasons = []
        shared = self.kept(site.expr, site.holder, site.target.node)
        if shared:
            reasons.append(f"every iteration would then {shared} the same tensor object: a later in-place change "
                           "of one would change them all")
        if caught_in_loop(self.facts, site.expr, site.target.node):
            reasons.append("it runs inside a `try` whose handler catches what it raises: built before the loop, "
                           "an error it raises would no longer be caught")
        elif not self._cannot_raise(site.expr) and not surely_runs(self.facts, site.expr, site.target.node):
            reasons.append("the loop may not run (or runs this only under a condition): built before it, "
                           "the tensor is made where it never was, and a call that fails there (an argument "
                           "still unset, a missing device) now fails")
        stored = store_hazard(self.facts, site.expr, site.target)
        if stored:
            reasons.append(stored)
        kept = kept_by_program_code(self.facts, site.expr, site.target)
        if kept and not stored:
            reasons.append(kept)
        unfollowed = self._bound_unfollowed(site.expr)
        if unfollowed:
            reasons.append(f"`{unfollowed}` is bound by an annotated assignment or a walrus, whose later in-place "
                           "changes this analysis does not follow: the tensor may not be the same every iteration")
        failing = self._fails_on_its_input(site.expr)
        if not failing and not self._cannot_raise(site.expr) and self._caught_around(site.target.node) \
                and self._runs_after_other_statements(site.expr, site.target.node):
            failing = "it may raise on its arguments, and a handler around the loop catches what the loop raises"
        if failing:
            reasons.append(f"{failing}: built before the loop, that happens before what the loop did first "
                           "(its appends, prints, counters) and outside the handlers around it")
        return "; and ".join(reasons)

    def _bound_unfollowed(self, expr: cst.BaseExpression) -> str | None:
        """A name the tensor reads that some `(x := ...)` of the unit binds: the invariance and
        in-place proofs follow assignments only (annotated ones included: `static/annotated.py`),
        and a source bound by a walrus then changed in place kept a stale copy once hoisted."""
        bound = set(self.facts.names_read(expr)) & self._walrus_bound
        return sorted(bound)[0] if bound else None

    @cached_property
    def _walrus_bound(self) -> frozenset[str]:
        return frozenset(name for node in self.facts.walk(self.facts.module) if isinstance(node, cst.NamedExpr)
                         for name in bound_names(node.target))

    def _caught_around(self, loop_node: cst.CSTNode) -> bool:
        """The loop sits in the body of a `try` with handlers (in its own function or at the top)."""
        child: cst.CSTNode = loop_node
        for anc in self.facts.ancestors(loop_node):
            if isinstance(anc, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return False
            if isinstance(anc, (cst.Try, cst.TryStar)) and anc.handlers and child is anc.body:
                return True
            child = anc
        return False

    def _runs_after_other_statements(self, expr: cst.BaseExpression, loop_node: cst.CSTNode) -> bool:
        """In the loop's first iteration something runs before `expr` (it is not in the loop
        body's first statement): moved before the loop, an error it raises skips that."""
        body = getattr(loop_node, "body", None)
        stmts = block_statements(body)
        return not stmts or not any(a is stmts[0] for a in self.facts.ancestors(expr))

    def _fails_on_its_input(self, expr: cst.BaseExpression) -> str:
        """Why building `expr` raises or warns whatever the iteration ("" if it need not): a
        ragged nested literal (`torch.tensor([[1.0, 2.0], [3.0]])` raises), or `torch.tensor` of
        a tensor (a UserWarning, an error under `warnings.simplefilter("error")`)."""
        for call in self.facts.calls_in(expr):
            factory = (self.facts.qualified_name(call.func) or "").rsplit(".", 1)[-1]
            numbers = [_literal_number(a.value) for a in call.args if a.keyword is None]
            if factory in ("arange", "range") and len(numbers) >= 2 and None not in numbers[:3]:
                start, end, step = numbers[0], numbers[1], numbers[2] if len(numbers) > 2 else 1
                if step == 0 or (end - start) * step < 0:
                    return "its bounds contradict its step, so it raises"
            if factory in FILL_FACTORIES | {"eye", "empty"} and any(
                    (v := _literal_number(n)) is not None and v < 0 for a in call.args[:1 if factory.startswith("full") else None]
                    if a.keyword is None for n in ([a.value] + [e.value for e in getattr(a.value, "elements", ())])):
                return "it is given a negative size, so it raises"
            if factory not in DATA_FACTORIES or not call.args or call.args[0].keyword is not None:
                continue
            data = call.args[0].value
            if _ragged(data):
                return "its nested literal is ragged, so it raises"
            if _holds_strings(data):
                return "its literal holds strings, so it raises"
            if factory == "tensor" and self.facts.kind(data) is Kind.TENSOR:
                return "`torch.tensor` of a tensor warns (an error where warnings are errors)"
        return ""

    def _cannot_raise(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """Numbers, strings, `torch.<dtype>` and names bound once to such literals: no value that
        may be unset or wrong (`None`), no device that may be missing."""
        for node in self.facts.walk(expr):
            parent = self.facts.parent(node)
            if isinstance(node, cst.Name) and not isinstance(parent, cst.Attribute) \
                    and not (isinstance(parent, cst.Arg) and parent.keyword is node) and node.value not in ("True", "False"):
                value = assigned_value(self.facts, node)
                if value is None or depth > 2 or not self._cannot_raise(value, depth + 1):
                    return False
            if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == "device":
                return False
            if isinstance(node, cst.Attribute) and node.attr.value == "cuda":
                return False  # no GPU on this host
            if isinstance(node, cst.Attribute) and isinstance(node.value, (cst.Name, cst.Attribute)) \
                    and not (self.facts.qualified_name(node) or "").startswith("torch."):
                return False
        return True

    def _feeds_random_draw(self, node: cst.Call) -> bool:
        """The factory is an argument or the receiver (through a pure chain) of a random draw:
        `torch.bernoulli(torch.full(...))`, `torch.zeros(3).float().uniform_()`."""
        current: cst.CSTNode = node
        while True:
            parent = self.facts.parent(current)
            grand = self.facts.parent(parent) if parent is not None else None
            if isinstance(parent, cst.Arg) and isinstance(grand, cst.Call):
                return self.facts.draws_random(grand)
            if not (isinstance(parent, cst.Attribute) and parent.value is current and isinstance(grand, cst.Call)):
                return False
            if self.facts.draws_random(grand):
                return True
            if parent.attr.value not in _CHAIN:
                return False
            current = grand

    def _chained_into_factory(self, node: cst.Call) -> bool:
        """`torch.zeros_like(torch.ones(3))`: the inner factory is part of the outer one."""
        for anc in self.facts.ancestors(node):
            if isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return False
            if isinstance(anc, cst.Call) and anc is not node:
                q = self.facts.qualified_name(anc.func) or ""
                if q.startswith("torch.") and q.rsplit(".", 1)[-1] in DATA_FACTORIES | FILL_FACTORIES:
                    return True
        return False

    def outermost(self, node: cst.Call) -> cst.BaseExpression:
        """Extend `torch.ones(4)` to `torch.ones(4).cuda().unsqueeze(0)` when the chain is pure."""
        current: cst.BaseExpression = node
        while True:
            parent = self.facts.parent(current)
            grand = self.facts.parent(parent) if parent is not None else None
            if isinstance(parent, cst.Attribute) and parent.value is current and isinstance(grand, cst.Call) \
                    and parent.attr.value in _CHAIN:
                current = grand
            else:
                return current

    def _chain(self, node: cst.Call, whole: cst.BaseExpression) -> list[cst.BaseExpression]:
        """`node`, `node.cuda()`, `node.cuda().expand(b, 1)`, ... up to `whole`."""
        out: list[cst.BaseExpression] = [node]
        while out[-1] is not whole:
            out.append(self.facts.parent(self.facts.parent(out[-1])))  # type: ignore[arg-type]
        return out

    def _hoist_target(self, expr: cst.BaseExpression) -> Loop | None:
        best = None
        for loop in self.facts.enclosing_loops(expr):
            if not invariant(self.facts, expr, loop):
                break
            best = loop
        return best

    def _assigned_name(self, expr: cst.BaseExpression) -> str | None:
        parent = self.facts.parent(expr)
        if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Name):
                return target.value
        return None

    def _holder(self, expr: cst.BaseExpression) -> str | None:
        """The name that holds the tensor after its statement: `t = <expr>`, `a, t = x, <expr>`
        (element for element), `hc = (<expr>, c)` (a container literal holding it),
        `correct = {k: <expr> for k in keys}` (each item of a comprehension: a change through
        `correct[k]` is a change of the tensor)."""
        target = self._unpacked_target(expr)
        return target.value if isinstance(target, cst.Name) else None

    def _unpacked_target(self, expr: cst.BaseExpression) -> cst.BaseExpression | None:
        """What the tensor is bound to by its statement, unpacked element for element as far as
        the target's shape follows the value's: a name, or a tuple target that still holds it
        (`head, *rest = [a, <expr>]`: `rest` gets it in a list); None when not bound."""
        node: cst.CSTNode = expr
        path: list[int] = []
        parent = self.facts.parent(node)
        while isinstance(parent, (cst.Element, cst.Tuple, cst.List, cst.DictElement, cst.Dict, cst.Set)) \
                or (isinstance(parent, cst.DictComp) and parent.value is node) \
                or (isinstance(parent, (cst.ListComp, cst.SetComp)) and parent.elt is node):
            if isinstance(parent, (cst.Tuple, cst.List)):
                path.append(next(i for i, el in enumerate(parent.elements) if el is node))
            node, parent = parent, self.facts.parent(parent)
        if not isinstance(parent, (cst.Assign, cst.NamedExpr)) or parent.value is not node:
            return None
        target = parent.targets[0].target if isinstance(parent, cst.Assign) and len(parent.targets) == 1 else \
            parent.target if isinstance(parent, cst.NamedExpr) else None
        for index in reversed(path):  # unpack element for element while the target is a tuple too
            if not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) <= index \
                    or any(isinstance(el, cst.StarredElement) for el in target.elements):
                break
            target = target.elements[index].value
        return target

    def _mutated(self, expr: cst.BaseExpression, holder: str | None, scope: cst.CSTNode | None,
                 fresh: Callable[[cst.Call], bool] | None = None) -> bool:
        """Would sharing one tensor across iterations be visible (in-place changes: its own, an
        alias's or a view's, or a call's that may change its arguments)? `fresh`: calls read as
        returning new memory (see `_changed`)."""
        unpacked = self._unpacked_target(expr) if holder is None else None
        if isinstance(unpacked, (cst.Tuple, cst.List)):  # `head, *rest = [a, <expr>]`: any target may hold it
            return any(self._mutated(expr, name, scope, fresh) for name in bound_names(unpacked))
        if holder is None:
            # through whatever may still be the same tensor: `.type_as(x)`, `.to(d)`, `.float()`
            # return their receiver when nothing needs converting, `[i]`/`.view()` share its memory
            path = shared_path(self.facts, expr, fresh)
            if any(self._argument_changed(node) for node in path[:-1]):
                return True  # `F.relu(torch.tensor(v), inplace=True)`: changed by a call that returns it
            end = path[-1]
            if isinstance(end, cst.Attribute) and not self.facts.method_may_share(end):  # a method called on it
                if is_inplace_method(end.attr.value):
                    return True  # `torch.ones(3).mul_(2)`, `torch.ones(1).type_as(x).add_(v)`: it would grow
                end = end.value
            shared_holder = self._holder(end) if end is not expr else None
            if shared_holder is not None:
                return self._mutated(end, shared_holder, scope, fresh)  # `s = torch.ones(1).type_as(x)` then `s.mul_(3)`
            return self._argument_changed(end)
        if scope is None:
            return False
        names = aliases(self.facts, holder, scope, fresh)
        return any(mutated_in_place(self.facts, n, scope) for n in names) \
            or changed_by_callees(self.facts, scope, names) \
            or any(self._argument_changed(use) or self._written_through(use)
                   for n in names for use in reads_of(self.facts, n, scope))

    def _written_through(self, use: cst.CSTNode) -> bool:
        """`np.asarray(t)[1] = v`, `torch.as_tensor(t)[0] += 1`: written, in the same expression,
        through something that shares the name's memory."""
        end = shared_end(self.facts, use)
        if end is use:
            return False
        parent = self.facts.parent(end)
        return isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.AugAssign) and parent.target is end) \
            or (isinstance(end, cst.Attribute) and is_inplace_method(end.attr.value)
                and isinstance(parent, cst.Call) and parent.func is end)

    def _constant_edits(self, holder: str | None, scope: cst.CSTNode | None, loop: Loop) -> bool:
        """Every change of the fill is `holder[<invariant index>] = <number>` (a masked
        convolution's `mask[:, :, kh // 2, kw // 2 + 1:] = 0` with `kh` from the weight's shape):
        the same mask each call, not an accumulator or a state. Its alias or a call that may
        change it: not provable."""
        if holder is None or scope is None or aliases(self.facts, holder, scope) != {holder} \
                or any(self._argument_changed(use) for use in reads_of(self.facts, holder, scope)):
            return False
        sites = [site for site in unit_index(self.facts).mutations.get(holder, ()) if within(self.facts, site, scope)]
        for site in sites:
            stmt = self.facts.statement_of(site)
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
            value = small.value if isinstance(small, cst.Assign) else None
            if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
                value = value.expression
            if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value == holder
                    and isinstance(value, (cst.Integer, cst.Float))
                    and all(self._fixed_per_call(part, loop) for part in _index_parts(target))):
                return False
        return bool(sites)

    def _fixed_per_call(self, expr: cst.BaseExpression, loop: Loop) -> bool:
        """Loop-invariant, or computed in a method from a parameter's shape (`_, _, kh, kw =
        self.weight.shape`: training changes a weight's values, never its shape) and attributes
        set only in `__init__`, by arithmetic and comparisons."""
        if invariant(self.facts, expr, loop):
            return True
        func = self.facts.enclosing_function(expr)
        if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
            return True
        if isinstance(expr, cst.BinaryOperation):
            return self._fixed_per_call(expr.left, loop) and self._fixed_per_call(expr.right, loop)
        if isinstance(expr, cst.UnaryOperation):
            return self._fixed_per_call(expr.expression, loop)
        if isinstance(expr, cst.Comparison):
            return self._fixed_per_call(expr.left, loop) and all(self._fixed_per_call(c.comparator, loop) for c in expr.comparisons)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            return isinstance(func, cst.FunctionDef) and _set_only_in_init(self.facts, func, expr.attr.value)
        if isinstance(expr, cst.Name) and isinstance(func, cst.FunctionDef):
            binds = [n for n in self.facts.walk(func.body) if isinstance(n, cst.AssignTarget)
                     and expr.value in bound_names(n.target)]
            value = self.facts.parent(binds[0]).value if len(binds) == 1 else None  # type: ignore[union-attr]
            return isinstance(value, cst.Attribute) and value.attr.value == "shape" \
                and isinstance(value.value, cst.Attribute) and isinstance(value.value.value, cst.Name) \
                and value.value.value.value == "self" and value.value.attr.value in ("weight", "bias")
        return False

    def _argument_changed(self, node: cst.CSTNode) -> bool:
        """`node` is handed to a call that may change it: `out=`, a function of the unit that
        changes that parameter in place, or a callable whose effects are unknown."""
        parent = self.facts.parent(node)
        if self._overloaded_operand(node, parent):
            return True
        while isinstance(parent, (cst.Element, cst.List, cst.Tuple, cst.Set)):
            node, parent = parent, self.facts.parent(parent)  # `map(f, [a, b])`: handed over in a literal
        call = self.facts.parent(parent) if isinstance(parent, cst.Arg) else None
        if not isinstance(call, cst.Call) or not isinstance(parent, cst.Arg):
            return False
        if parent.keyword is not None and parent.keyword.value == "out":
            return True
        func = call.func
        if (self.facts.qualified_name(func) or "") in _APPLYING_BUILTINS:
            return self._applies_unknown_callable(call)
        if self.facts.kind(func) is Kind.MODULE and module_changes_input(self.facts, func):
            return True
        if isinstance(func, cst.Name) and func.value in self.facts.functions:
            defined = self.facts.functions[func.value]
            param = parameter_filled(call, parent, positional_params(defined))
            return param is None or mutated_in_place(self.facts, param, defined.body)
        qualified = self.facts.qualified_name(func) or ""
        if qualified.startswith(("torch.", "numpy.")):
            return any(a is node for a in library_changed_arguments(self.facts, call))  # `nn.init.normal_(torch.zeros(n))`
        if qualified.startswith(("math.", "builtins.")) or self.facts.kind(func) is Kind.MODULE:
            return False
        return not (isinstance(func, cst.Attribute) and (
            is_inplace_method(func.attr.value) or func.attr.value in _STORING_METHODS  # changes the receiver; a store is `kept`
            or self.facts.kind(func.value) in (Kind.TENSOR, Kind.MODULE)))

    def _overloaded_operand(self, node: cst.CSTNode, parent: cst.CSTNode | None) -> bool:
        """`counter += t`, `bag + t`: `t` is the operand of an operator whose other side is an
        instance of a class of the program defining that operator (`__iadd__` may change `t`)."""
        if isinstance(parent, cst.AugAssign) and parent.value is node:
            other: cst.BaseExpression = parent.target  # type: ignore[assignment]
        elif isinstance(parent, cst.BinaryOperation):
            other = parent.right if parent.left is node else parent.left
        else:
            return False
        value = assigned_value(self.facts, other) if isinstance(other, cst.Name) else None
        found = self.facts.class_named(value.func) if isinstance(value, cst.Call) else None
        return found is not None and any(isinstance(s, cst.FunctionDef) and s.name.value in _OPERATOR_METHODS
                                         for s in found[1].body.body)

    def _applies_unknown_callable(self, call: cst.Call) -> bool:
        """`map(lambda t: t.add_(1), [a, b])`, `sorted(xs, key=f)`: the items are handed to a
        callable; only a torch/NumPy/builtin function that changes no argument is known."""
        applied = [a.value for a in call.args if a.keyword is not None and a.keyword.value == "key"]
        if (self.facts.qualified_name(call.func) or "") not in ("builtins.sorted", "builtins.min", "builtins.max") \
                and call.args and call.args[0].keyword is None:
            applied.append(call.args[0].value)
        for value in applied:
            qualified = self.facts.qualified_name(value) or ""
            if not (qualified.startswith(("torch.", "numpy.", "builtins.", "math."))
                    and not is_inplace_method(qualified.rsplit(".", 1)[-1])):
                return True
        return False

    def _seeds_state(self, expr: cst.BaseExpression, assigned: str | None, scope: cst.CSTNode | None) -> bool:
        """`h = torch.zeros(L, B, H)` then `out, h = rnn(x, h)`; `total = torch.zeros(())` then
        `total = total + x`: the initial value of something the loop changes, or a state handed
        to a model (`rnn(x, torch.zeros(...))`)."""
        if assigned is None:
            node: cst.CSTNode = expr
            parent = self.facts.parent(node)
            while isinstance(parent, (cst.Element, cst.Tuple, cst.List)):  # `(h0, c0)` for an LSTM
                node, parent = parent, self.facts.parent(parent)
            if node is not expr and isinstance(parent, cst.Assign) and len(parent.targets) == 1 \
                    and isinstance(parent.targets[0].target, cst.Name):
                return self._seeds_state(node, parent.targets[0].target.value, scope)  # type: ignore[arg-type]
            return self._handed_to_call(node)  # type: ignore[arg-type]
        if scope is None:
            return False
        stmt = self.facts.statement_of(expr)
        for use in reads_of(self.facts, assigned, scope):
            if within(self.facts, use, stmt):
                continue
            parent = self.facts.parent(use)
            if is_binding(self.facts, use) or (isinstance(parent, cst.Arg) and self._handed_to_call(use)):
                return True
        return False

    def _stored_as_state(self, expr: cst.BaseExpression) -> bool:
        """`self.total = torch.zeros(())` (or `state["h"] = ...`): a reset of an object's state,
        which other methods change in place or rebind (a meter's `update`); not a loop's waste."""
        parent = self.facts.parent(expr)
        return isinstance(parent, cst.Assign) and parent.value is expr \
            and all(isinstance(t.target, (cst.Attribute, cst.Subscript)) for t in parent.targets)

    def _seeds_recurrence(self, expr: cst.BaseExpression, holder: str | None, scope: cst.CSTNode | None) -> bool:
        """The tensor is the first value of a variable that a later loop of `scope` reads and
        rebinds (`token = torch.tensor([[SOS]])`; `for t in ...: out = dec(token); token = out.argmax()`):
        a recurrence's initial state, built fresh for each run of that loop."""
        if holder is None or scope is None:
            return False
        stmt = self.facts.statement_of(expr)
        for loop in self.facts.walk(scope):
            if not isinstance(loop, (cst.For, cst.While)) or within(self.facts, stmt, loop) \
                    or self.facts.order(loop) < self.facts.order(stmt):
                continue
            uses = reads_of(self.facts, holder, loop.body)
            if any(is_binding(self.facts, u) for u in uses) and any(not is_binding(self.facts, u) for u in uses):
                return True
        return False

    def _returned(self, expr: cst.BaseExpression, holder: str | None, scope: cst.CSTNode | None) -> bool:
        """The tensor is what the helper returns: `return <expr>`, `return (h0, c0)`."""
        nodes: list[cst.CSTNode] = [expr]
        if holder is not None and scope is not None:
            stmt = self.facts.statement_of(expr)
            nodes = [u for u in reads_of(self.facts, holder, scope) if not within(self.facts, u, stmt)]
        for node in nodes:
            parent = self.facts.parent(node)
            while isinstance(parent, (cst.Element, cst.Tuple, cst.List)) or (
                    isinstance(parent, cst.Arg) and isinstance(self.facts.parent(parent), cst.Call)
                    and (self.facts.qualified_name(self.facts.parent(parent).func) or "") in IDENTITY_WRAPPERS):  # type: ignore[union-attr]
                parent = self.facts.parent(self.facts.parent(parent) if isinstance(parent, cst.Arg) else parent)
            if isinstance(parent, cst.Return):
                return True
        return False

    def _callers_carry_state(self, helper: cst.CSTNode | None) -> bool:
        """Some per-iteration caller binds the helper's result to a name that it then rebinds
        (`hidden = init_hidden()`; `out, hidden = rnn(x, hidden)`): a loop-carried state's seed."""
        if not isinstance(helper, cst.FunctionDef):
            return False
        for caller, call in self.facts.per_iteration_call_sites(helper):
            stmt = caller.statement_of(call)
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if not isinstance(small, cst.Assign) or small.value is not call or len(small.targets) != 1:
                continue
            target = small.targets[0].target
            if isinstance(target, cst.Attribute):
                # `model.hidden = model.init_hidden()` with `..., self.hidden = self.lstm(x, self.hidden)`
                # in its forward: the state lives on the module and each pass rebinds it.
                if _attribute_assignments(caller, target.attr.value) > 1:
                    return True
                continue
            if not isinstance(target, cst.Name):
                continue
            name = small.targets[0].target.value
            scope = caller.enclosing_function(call) or caller.module
            if sum(name in set(writes_of(n)) for n in caller.walk(scope)) > 1:
                return True
        return False

    def _handed_to_call(self, expr: cst.BaseExpression) -> bool:
        """`expr` is an argument of a call that is not a torch/NumPy function or tensor method."""
        parent = self.facts.parent(expr)
        call = self.facts.parent(parent) if isinstance(parent, cst.Arg) else None
        if not isinstance(call, cst.Call):
            return False
        q = self.facts.qualified_name(call.func) or ""
        if q.startswith(("torch.", "numpy.", "builtins.")) and self.facts.kind(call.func) is not Kind.MODULE:
            return False
        func = call.func
        return not (isinstance(func, cst.Attribute) and (
            self.facts.kind(func.value) is Kind.TENSOR or func.attr.value in _STORING_METHODS))

    def kept(self, expr: cst.BaseExpression, assigned: str | None, scope: cst.CSTNode) -> str:
        """'store' / 'return' if the tensor outlives its iteration (appended, stored in a
        container or attribute, returned, yielded): hoisted, every one would be the same object."""
        nodes: list[cst.CSTNode] = [expr]
        if assigned is not None:
            stmt = self.facts.statement_of(expr)
            nodes = [u for u in reads_of(self.facts, assigned, scope) if not within(self.facts, u, stmt)]
        for node in nodes:
            if self._storage_adopted(node):
                return "give a module's parameters or buffers (`set_`, `load_state_dict(assign=True)`, " \
                       "`vector_to_parameters`, `functional_call` and `swap_tensors` use a tensor's memory without " \
                       "copying; the optimizer or the forward then changes it in place)"
            parent = self.facts.parent(node)
            if isinstance(parent, (cst.Return, cst.Yield)):
                return "return"
            if isinstance(parent, cst.Param) and parent.default is node:
                return "store"  # `lambda b=base: b`: each function keeps its iteration's tensor
            if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _STORAGE_READERS:
                return f"read its storage (`.{parent.attr.value}()`: a tensor `set_` on it shares it, its address identifies it)"
            if isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.Is, cst.IsNot)) \
                    or isinstance(parent, cst.Comparison) and any(isinstance(c.operator, (cst.Is, cst.IsNot))
                                                                  for c in parent.comparisons):
                return "compare by identity (`is`)"
            if isinstance(parent, cst.Index) and self._dict_key(parent):
                return "key a dict with (tensors hash by identity)"
            if isinstance(parent, cst.Arg):
                call = self.facts.parent(parent)
                if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) \
                        and call.func.attr.value in _STORING_METHODS:
                    return "store"
                called = (self.facts.qualified_name(call.func) or "") if isinstance(call, cst.Call) else ""
                if called in _STORING_CALLS:
                    return "store"  # `setattr(m, "mask", <expr>)`, `dict(t=<expr>)`
                keeper = callee_keeps(self.facts, call, parent) if isinstance(call, cst.Call) else ""
                if keeper:
                    return f"store (through `{keeper}`, which keeps it)"  # `dec.begin(start)`: `self.prev = start`
                if called in _IDENTITY_READERS:
                    return f"pass to `{called.rsplit('.', 1)[-1]}()` (which reads its identity)"
                if called in PARAMETER_WRAPPERS:
                    return "wrap as a parameter (sharing its memory, changed in place by an optimizer)"
            if isinstance(parent, cst.Assign) and parent.value is node \
                    and any(isinstance(t.target, (cst.Subscript, cst.Attribute)) for t in parent.targets):
                return "store"
        return ""

    def _storage_adopted(self, node: cst.CSTNode) -> bool:
        """`w.set_(<t>)`, `m.load_state_dict({"weight": <t>}, assign=True)`,
        `vector_to_parameters(<t>, ps)`, `functional_call(m, {"running_mean": <t>}, x)`,
        `swap_tensors(w, <t>)`: the tensor (alone or in a container literal) becomes a parameter's
        or buffer's memory, which the next training steps or forward passes change in place."""
        node, held = self._container_of(node)
        parent = self.facts.parent(node)
        if held and isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1 \
                and isinstance(parent.targets[0].target, cst.Name):
            # `state = {"running_mean": <t>}` ... `functional_call(bn, (state, bufs), x)`: the container's reads
            target = parent.targets[0].target
            return any(self._adopting_argument(self._container_of(read)[0])
                       for read in reads_of(self.facts, target.value) if read is not target)
        return self._adopting_argument(node)

    def _container_of(self, node: cst.CSTNode) -> tuple[cst.CSTNode, bool]:
        """The outermost container literal holding `node` (`node` itself if none), and whether there is one."""
        parent, held = self.facts.parent(node), False
        while isinstance(parent, (cst.Element, cst.DictElement)) and parent.value is node:
            node, parent, held = self.facts.parent(parent), self.facts.parent(self.facts.parent(parent)), True
        return node, held

    def _adopting_argument(self, node: cst.CSTNode) -> bool:
        """`node` is handed to a call that makes it a parameter's or buffer's memory (`_storage_adopted`)."""
        parent = self.facts.parent(node)
        call = self.facts.parent(parent) if isinstance(parent, cst.Arg) else None
        if not isinstance(call, cst.Call):
            return False
        called = self.facts.qualified_name(call.func) or ""
        if isinstance(call.func, cst.Name) and not called:  # `fc = torch.func.functional_call`
            bound = self.facts.value_of(call.func)
            called = (self.facts.qualified_name(bound) or "") if bound is not None else ""
        if called in _STORAGE_ADOPTERS:
            return True
        if called in _FUNCTIONAL_CALLS:  # `functional_call(m, {"running_mean": <t>}, x)`: not the inputs `x`
            positional = [a for a in call.args if a.keyword is None]
            return parent.keyword is not None and parent.keyword.value in _STATE_KEYWORDS \
                or len(positional) > 1 and positional[1] is parent
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
        if method == "set_":
            return True
        if method != "load_state_dict":
            return False
        if any(a.star for a in call.args):
            return True  # `load_state_dict(init, **options)`: `assign` may be in there
        positional = [a.value for a in call.args if a.keyword is None]
        assign = keyword(call, "assign") or (positional[2] if len(positional) > 2 else None)  # (state_dict, strict, assign)
        return assign is not None and not (isinstance(assign, cst.Name) and assign.value == "False")

    def _dict_key(self, index: cst.Index) -> bool:
        """`seen[t] = step`: the subscripted object is a dict, which hashes the tensor by identity."""
        element = self.facts.parent(index)
        subscript = self.facts.parent(element) if isinstance(element, cst.SubscriptElement) else None
        return isinstance(subscript, cst.Subscript) and self.facts.kind(subscript.value) in _DICT_KINDS

    def hoistable_statement(self, expr: cst.BaseExpression, assigned: str | None,
                             loop: Loop) -> cst.SimpleStatementLine | None:
        """`name = <expr>` moved whole: unconditional, the only write of `name`, not read before."""
        if assigned is None:
            return None
        stmt = self.facts.statement_of(expr)
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            return None
        if self.facts.is_conditional(stmt, loop):
            return None
        if not sole_writers(self.facts, {assigned}, [stmt], loop):
            return None
        return stmt


# `x.size(i)`, `x.shape[i]`, `x.device`: what a per-call table may depend on and still be the same
# table call after call (a model sees one block size); dimension 0 is the batch, which is not.
_SHAPE_METHODS = frozenset({"size"})
_PLACE_ATTRS = frozenset({"device", "dtype"})


def shape_derived(facts: Facts, expr: cst.BaseExpression, loop: Loop, depth: int = 0) -> bool:
    """Everything in `expr` that varies between calls is the length (a non-batch dimension)
    or the device of an input: `torch.arange(x.size(1), device=x.device)`,
    `torch.ones(L, L)` after `B, L = idx.shape`, a helper's parameter every call passes such a
    value. Not proof of invariance (the length may differ per batch): a hint's reason."""
    func = facts.enclosing_function(expr)
    varying = facts.varying_names(expr, loop)
    sources = _shape_sources(facts, expr, func, varying, loop, depth)
    if not sources or "batch" in sources:
        return False
    return all(_is_shape_call(c) or facts._call_is_pure(c, frozenset()) for c in facts.calls_in(expr))


def _is_shape_call(call: cst.Call) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in _SHAPE_METHODS


def _shape_sources(facts: Facts, expr: cst.CSTNode, func: cst.FunctionDef | None, varying: frozenset[str],
                   loop: Loop, depth: int) -> set[str] | None:
    """{"dim", "device", "batch"} for the varying names `expr` reads; None if one is something else."""
    sources: set[str] = set()
    for node in facts.walk(expr):
        if not isinstance(node, cst.Name) or node.value not in varying:
            continue
        parent = facts.parent(node)
        if (isinstance(parent, cst.Attribute) and parent.attr is node) or (isinstance(parent, cst.Arg) and parent.keyword is node):
            continue
        found = _shape_access(facts, node)
        if found is None:
            found = _shape_local(facts, node.value, func, loop, depth)
        if found is None:
            return None
        sources |= found
    return sources


def _dimension(index: cst.BaseExpression) -> set[str] | None:
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus) and isinstance(index.expression, cst.Integer):
        return {"dim"}
    if isinstance(index, cst.Integer):
        return {"batch"} if index.evaluated_value == 0 else {"dim"}
    return None


def _shape_access(facts: Facts, name: cst.Name) -> set[str] | None:
    """`name.device`, `name.dtype`, `name.size(i)`, `name.shape[i]`, `name.size()[i]` (the dimension it reads)."""
    attr = facts.parent(name)
    if not isinstance(attr, cst.Attribute) or attr.value is not name:
        return None
    if attr.attr.value in _PLACE_ATTRS:
        return {"device"}
    outer = facts.parent(attr)
    if attr.attr.value in _SHAPE_METHODS and isinstance(outer, cst.Call) and outer.func is attr \
            and len(outer.args) == 1 and outer.args[0].keyword is None:
        return _dimension(outer.args[0].value)
    if attr.attr.value in _SHAPE_METHODS and isinstance(outer, cst.Call) and outer.func is attr and not outer.args:
        outer = facts.parent(outer)  # `x.size()[1]` indexes the shape like `x.shape[1]`
        indexed = isinstance(outer, cst.Subscript)
    else:
        indexed = attr.attr.value == "shape" and isinstance(outer, cst.Subscript)
    if indexed and len(outer.slice) == 1 and isinstance(outer.slice[0].slice, cst.Index):  # type: ignore[union-attr]
        return _dimension(outer.slice[0].slice.value)
    return None


def _shape_local(facts: Facts, name: str, func: cst.FunctionDef | None, loop: Loop, depth: int) -> set[str] | None:
    """What a local of `func` holds when every binding is a shape read (`B, L = x.shape`,
    `L = x.size(1)`, `dev = x.device`), or a parameter every per-iteration call passes one."""
    if func is None or depth > 2:
        return None
    params = named_params(func.params)
    if name in params:
        return _shape_param(facts, func, name, loop, depth)
    sources: set[str] = set()
    bound = False
    for node in facts.walk(func.body, into_scopes=False):
        if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr)) \
                and name in bound_names(node.target if not isinstance(node, cst.With) else node):
            return None
        if not isinstance(node, cst.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0].target
        if name not in bound_names(target):
            continue
        bound = True
        value = node.value
        if isinstance(target, cst.Tuple) and isinstance(value, cst.Attribute) and value.attr.value == "shape" \
                and isinstance(value.value, cst.Name):
            index = next(i for i, el in enumerate(target.elements) if name in bound_names(el.value))
            sources.add("batch" if index == 0 else "dim")  # `B, L = idx.shape`
            continue
        if not isinstance(target, cst.Name):
            return None
        head = _shape_receiver(value)
        found = _shape_access(facts, head) if isinstance(head, cst.Name) else None
        if found is None:
            found = _configured(facts, value, func, loop, depth)
        if found is None:
            return None
        sources |= found
    return sources if bound else None


def _shape_receiver(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` of `x.device`, `x.size(1)`, `x.shape[1]`, `x.size()[1]`."""
    if isinstance(value, cst.Subscript):
        value = value.value
    if isinstance(value, cst.Call):
        value = value.func
    return value.value if isinstance(value, cst.Attribute) else None


_SIZE_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Divide, cst.Modulo, cst.Power)


def _configured(facts: Facts, value: cst.BaseExpression, func: cst.FunctionDef, loop: Loop, depth: int) -> set[str] | None:
    """`half_dim = self.dim // 2`: arithmetic on numbers, on attributes of `self` that only
    `__init__` sets (the module's configuration: the same on every call) and on locals that are
    shape reads themselves. None for anything else (a call, a parameter's value, an attribute
    another method changes)."""
    if isinstance(value, (cst.Integer, cst.Float)):
        return set()
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, _SIZE_ARITHMETIC):
        left = _configured(facts, value.left, func, loop, depth)
        right = _configured(facts, value.right, func, loop, depth) if left is not None else None
        return left | right if left is not None and right is not None else None
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        return _configured(facts, value.expression, func, loop, depth)
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        return set() if _set_only_in_init(facts, func, value.attr.value) else None
    if isinstance(value, cst.Name):
        return _shape_local(facts, value.value, func, loop, depth + 1)
    return None


_TABLE_OPS = frozenset({"cumprod", "cumsum", "sqrt", "rsqrt", "exp", "log", "cos", "sin", "clamp", "clip", "cat",
                        "flip", "pow", "reciprocal", "sigmoid", "stack"})


def _host_table(facts: Facts, method: cst.FunctionDef, attr: str, depth: int) -> bool:
    """`self.<attr>` is set once, in `__init__` of `method`'s class, to a tensor built on the host
    (a factory without `device=`, or torch arithmetic of numbers and other such tables), and
    nothing in the class changes it in place."""
    if depth > 6 or not _set_only_in_init(facts, method, attr):
        return False
    cls = facts.parent(facts.parent(method))
    assert isinstance(cls, cst.ClassDef)
    init = next(m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__")
    values = [n.value for n in facts.walk(init) if isinstance(n, cst.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0].target, cst.Attribute) and n.targets[0].target.attr.value == attr
              and root_name(n.targets[0].target) == "self"]
    if len(values) != 1:
        return False
    for node in facts.walk(cls):  # `self.betas[0] = ...` is a write `_set_only_in_init` sees; `self.betas.mul_(2)` is not
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and is_inplace_method(node.func.attr.value) \
                and isinstance(node.func.value, cst.Attribute) and node.func.value.attr.value == attr \
                and root_name(node.func.value) == "self":
            return False
    return _host_tensor_expr(facts, method, values[0], depth)


def _host_tensor_expr(facts: Facts, method: cst.FunctionDef, expr: cst.BaseExpression, depth: int) -> bool:
    if isinstance(expr, (cst.Integer, cst.Float)):
        return False  # a number alone is no table
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        return _host_table(facts, method, expr.attr.value, depth + 1)
    if isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation)):
        parts = [expr.left, expr.right] if isinstance(expr, cst.BinaryOperation) else [expr.expression]
        numbers = [p for p in parts if isinstance(p, (cst.Integer, cst.Float))]
        return len(numbers) < len(parts) and all(
            isinstance(p, (cst.Integer, cst.Float)) or _host_tensor_expr(facts, method, p, depth) for p in parts)
    if not isinstance(expr, cst.Call) or any(a.keyword is not None and a.keyword.value == "device" for a in expr.args):
        return False
    qualified = facts.qualified_name(expr.func) or ""
    name = qualified[len("torch."):] if qualified.startswith("torch.") else None
    if name in FILL_FACTORIES or name in DATA_FACTORIES - SEQUENCE_FACTORIES:
        return all(isinstance(a.value, (cst.Integer, cst.Float, cst.Name, cst.UnaryOperation)) for a in expr.args)
    if name in _TABLE_OPS:
        tensors = [a.value for a in expr.args if a.keyword is None and not isinstance(a.value, (cst.Integer, cst.Float))]
        return bool(tensors) and all(_host_tensor_expr(facts, method, t, depth) for t in tensors)
    return False


def _set_only_in_init(facts: Facts, func: cst.FunctionDef, attr: str) -> bool:
    """`self.<attr>` is bound in `__init__` of `func`'s class and nowhere else in the class."""
    block = facts.parent(func)
    cls = facts.parent(block) if isinstance(block, cst.IndentedBlock) else None
    if not isinstance(cls, cst.ClassDef):
        return False
    found = False
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef):
            continue
        for node in facts.walk(method):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "setattr":
                return False
            written = node.target if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) else None
            for part in facts.walk(written) if written is not None else ():
                if isinstance(part, cst.Attribute) and isinstance(part.value, cst.Name) \
                        and part.value.value == "self" and part.attr.value == attr:
                    if method.name.value != "__init__" or not isinstance(node, cst.AssignTarget):
                        return False
                    found = True
    return found


def _shape_param(facts: Facts, func: cst.FunctionDef, name: str, loop: Loop, depth: int) -> set[str] | None:
    """The shape sources every call of `func` passes for parameter `name` (None if any is not one)."""
    facts.per_iteration_functions  # noqa: B018 - fills the call sites
    owner = facts.owner_of(func)
    sites = owner._call_sites.get(func, []) + owner._foreign_sites.get(func, [])
    positional = positional_params(func)
    if positional[:1] in (["self"], ["cls"]):
        positional = positional[1:]
    sources: set[str] = set()
    for caller, call in sites:
        arg = argument_bound_to(call, positional, name)
        caller_loop = caller.iteration_loop(call)
        if arg is None or caller_loop is None:
            return None
        found = _shape_sources(caller, arg, caller.enclosing_function(call), caller.varying_names(arg, caller_loop),
                               caller_loop, depth + 1)
        if found is None:
            return None
        sources |= found or {"device"}  # an invariant argument adds nothing
    return sources or None


def _attribute_assignments(facts: Facts, attr: str) -> int:
    """How many assignments in `module` bind some object's `attr` (`self.hidden = ...`,
    `out, self.hidden = ...`)."""
    count = 0
    for node in facts.walk(facts.module):
        if isinstance(node, cst.AssignTarget):
            target = node.target
            parts = [el.value for el in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
            count += sum(isinstance(p, cst.Attribute) and p.attr.value == attr for p in parts)
    return count

