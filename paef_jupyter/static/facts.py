"""The metadata module: facts about one unit of source that every rule reads.

Which names are tensors (and other kinds), where the loops are and which of them train or
evaluate, what runs once per iteration (including helpers, `forward` and
`Dataset.__getitem__` reached from a loop), and which expressions are loop-invariant.
Facts are computed once per unit, lazily, and shared by all rules.
"""

from __future__ import annotations

import builtins
import types
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator, Mapping, Sequence

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from .names import bound_names, dotted_name, is_inplace_method, names_read, names_written, root_name, walk, writes_of
from .types import (
    JediOracle,
    Kind,
    kind_of_jedi_type,
    kind_of_method,
    kind_of_qualified_call,
    kind_of_value,
)

LoopNode = cst.For | cst.While
FunctionNode = cst.FunctionDef

# Calls whose result differs per call even on the same arguments.
_IMPURE_QUALIFIED_PREFIXES = ("numpy.random.", "random.", "time.", "os.", "sys.", "torch.cuda.", "torch.random.")
_RANDOM_TORCH = frozenset({
    "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like", "normal",
    "bernoulli", "multinomial", "poisson", "dropout", "empty", "empty_like", "manual_seed", "seed",
})
_PURE_BUILTINS = frozenset({
    "len", "range", "list", "dict", "tuple", "set", "frozenset", "sorted", "sum", "min", "max",
    "abs", "int", "float", "str", "zip", "enumerate", "map", "filter", "round", "bool",
    "isinstance", "reversed", "any", "all", "divmod", "pow",
})
_IMPURE_METHODS = frozenset({
    "get", "next", "__next__", "read", "readline", "readlines", "random", "randn", "rand",
    "integers", "choice", "sample", "shuffle", "normal", "uniform", "poll", "recv", "pop",
    "popleft", "item_random", "permutation", "forward", "__call__",
})
_STATEFUL_KINDS = frozenset({Kind.MODULE, Kind.OPTIMIZER, Kind.DATALOADER, Kind.DATASET})


@dataclass(frozen=True)
class LoopSpan:
    """A loop's place and role, for the profiler's window and for views."""

    line: int
    end_line: int
    kind: str  # "train", "eval" or "plain"
    depth: int


@dataclass(eq=False)
class Loop:
    node: LoopNode
    depth: int
    parent: "Loop | None"
    function: FunctionNode | None
    facts: "Facts"
    writes: set[str] = field(default_factory=set)
    methods: set[str] = field(default_factory=set)  # attribute calls made in the body
    kind: str = "plain"
    iter_kind: Kind = Kind.UNKNOWN

    @property
    def is_training(self) -> bool:
        return self.kind == "train"

    @property
    def line(self) -> int:
        return self.facts.position(self.node).start.line

    @property
    def end_line(self) -> int:
        return self.facts.position(self.node).end.line


@dataclass(eq=False)
class _Def:
    name: str
    order: int  # pre-order index of the defining node: textual order without positions
    value: cst.BaseExpression | None
    function: FunctionNode | None
    loop: Loop | None = None  # for-loop target definitions
    annotation: cst.BaseExpression | None = None


class Prior:
    """What the earlier cells of a notebook defined (imports, top-level values), for the
    static analysis of a later cell when no live namespace is at hand (`paef scan`)."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self._values: dict[str, tuple[Facts, cst.BaseExpression | None]] = {}

    def absorb(self, facts: "Facts") -> None:
        self.aliases.update(facts.aliases)
        for name, defs in facts._defs.items():
            top = [d for d in defs if d.function is None and "." not in name]
            if top:
                self._values[name] = (facts, top[-1].value)
                self.aliases.pop(name, None)

    def kind(self, name: str) -> Kind | None:
        if name not in self._values:
            return None
        facts, value = self._values[name]
        return facts.kind(value) if value is not None else Kind.UNKNOWN

    def defines(self, name: str) -> bool:
        return name in self._values or name in self.aliases

    def value(self, name: str) -> "tuple[Facts, cst.BaseExpression] | None":
        """The last top-level value an earlier cell gave `name`, with that cell's facts."""
        facts, value = self._values.get(name, (None, None))
        return (facts, value) if facts is not None and value is not None else None


class Facts:
    def __init__(self, module: cst.Module, namespace: Mapping[str, Any] | None = None,
                 prior: Prior | None = None) -> None:
        self.module = module
        self.namespace: Mapping[str, Any] = namespace or {}
        self.prior = prior or Prior()
        self._kids: dict[cst.CSTNode, Sequence[cst.CSTNode]] = {}
        self._parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self._order: dict[cst.CSTNode, int] = {}
        self._kind_cache: dict[int, Kind] = {}
        self._pure_cache: dict[str, bool] = {}
        index = _Indexer(self)
        index.run(module)
        self.loops: list[Loop] = index.loops
        self.functions: dict[str, FunctionNode] = index.functions
        self.classes: dict[str, cst.ClassDef] = index.classes
        self.aliases: dict[str, str] = index.aliases
        self._defs: dict[str, list[_Def]] = index.defs
        self._calls_in_loops = index.calls_in_loops
        self._loop_by_node = index.by_node
        for loop in self.loops:
            if isinstance(loop.node, cst.For):
                loop.iter_kind = self.kind(loop.node.iter)
        _classify_loops(self, index.model_calls)

    # --- traversal (libcst's `children` is a visit: computed once, here) -------------

    def children(self, node: cst.CSTNode) -> Sequence[cst.CSTNode]:
        kids = self._kids.get(node)
        if kids is None:
            kids = self._kids[node] = node.children
        return kids

    def walk(self, node: cst.CSTNode, into_scopes: bool = True) -> Iterator[cst.CSTNode]:
        return walk(node, self.children, into_scopes)

    def names_read(self, node: cst.CSTNode) -> set[str]:
        return names_read(node, self.children)

    def names_written(self, node: cst.CSTNode) -> set[str]:
        return names_written(node, self.children)

    def calls_in(self, node: cst.CSTNode) -> list[cst.Call]:
        return [n for n in self.walk(node) if isinstance(n, cst.Call)]

    def order(self, node: cst.CSTNode) -> int:
        """Pre-order index: compares textual positions without computing them."""
        return self._order.get(node, -1)

    @cached_property
    def wrapper(self) -> MetadataWrapper:
        return MetadataWrapper(self.module, unsafe_skip_copy=True)

    @cached_property
    def _positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        # The slowest fact (a full code generation pass): computed only when asked.
        return self.wrapper.resolve(PositionProvider)

    # --- positions and structure ---------------------------------------------------

    def position(self, node: cst.CSTNode) -> CodeRange:
        return self._positions[node]

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self._parents.get(node)

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        parent = self._parents.get(node)
        while parent is not None:
            yield parent
            parent = self._parents.get(parent)

    def enclosing_function(self, node: cst.CSTNode) -> FunctionNode | None:
        for anc in self.ancestors(node):
            if isinstance(anc, cst.FunctionDef):
                return anc
        return None

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The statement line (or compound statement) that contains `node`."""
        current = node
        for anc in self.ancestors(node):
            if isinstance(current, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return current
            current = anc
        return current

    @cached_property
    def text(self) -> str:
        """The unit's (masked) source; `module.code` regenerates it on every access."""
        return self.module.code

    @cached_property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def source_line(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def uses(self, name: str) -> list[cst.Name]:
        """Every `Name` node spelled `name`, in textual order (one index for all rules)."""
        return self._names_index.get(name, [])

    @cached_property
    def _names_index(self) -> dict[str, list[cst.Name]]:
        index: dict[str, list[cst.Name]] = {}
        for node in self._order:  # insertion order is pre-order
            if isinstance(node, cst.Name):
                index.setdefault(node.value, []).append(node)
        return index

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    # --- loops -----------------------------------------------------------------------

    def loop_spans(self) -> list[LoopSpan]:
        return [LoopSpan(l.line, l.end_line, l.kind, l.depth) for l in self.loops]

    def enclosing_loops(self, node: cst.CSTNode) -> list[Loop]:
        """Loops of the same function whose *body* holds `node`, innermost first.

        A `for` header's iterable runs once, so it is not inside its own loop.
        """
        out: list[Loop] = []
        child = node
        for anc in self.ancestors(node):
            if isinstance(anc, cst.FunctionDef):
                break
            if isinstance(anc, (cst.For, cst.While)) and (child is anc.body or (isinstance(anc, cst.While) and child is anc.test)):
                out.append(self._loop_by_node[anc])
            child = anc
        return out

    def iteration_loop(self, node: cst.CSTNode) -> Loop | None:
        """The loop under which `node` runs once per iteration, following calls into helpers."""
        loops = self.enclosing_loops(node)
        if loops:
            return loops[0]
        func = self.enclosing_function(node)
        return self.per_iteration_functions.get(func) if func is not None else None

    def in_training(self, node: cst.CSTNode) -> bool:
        loop = self.iteration_loop(node)
        while loop is not None:
            if loop.is_training:
                return True
            loop = loop.parent
        return False

    def is_conditional(self, node: cst.CSTNode, loop: Loop) -> bool:
        """True if `node` runs only on some iterations (under an `if`/`try` inside `loop`)."""
        for anc in self.ancestors(node):
            if anc is loop.node:
                return False
            if isinstance(anc, (cst.If, cst.Try, cst.IfExp, cst.ExceptHandler)):
                return True
        return False

    @cached_property
    def per_iteration_functions(self) -> dict[FunctionNode, Loop]:
        """Functions of this unit that run once per iteration of some loop, and that loop."""
        result: dict[FunctionNode, Loop] = {}
        work: list[tuple[FunctionNode, Loop]] = []
        for call, loop in self._calls_in_loops:
            for func in self._callees(call):
                work.append((func, loop))
        hot = next((l for l in self.loops if l.kind in ("train", "eval")), None)
        if hot is not None:
            for cls in self.classes.values():
                for stmt in cls.body.body:
                    if isinstance(stmt, cst.FunctionDef) and stmt.name.value in {"forward", "__getitem__"}:
                        work.append((stmt, hot))
        while work:
            func, loop = work.pop()
            if func in result:
                continue
            result[func] = loop
            for call in self.calls_in(func.body):
                for callee in self._callees(call):
                    work.append((callee, loop))
        return result

    def _callees(self, call: cst.Call) -> list[FunctionNode]:
        func = call.func
        if isinstance(func, cst.Name) and func.value in self.functions:
            return [self.functions[func.value]]
        if isinstance(func, cst.Attribute):
            name = func.attr.value
            return [f for key, f in self.functions.items() if key.endswith("." + name)]
        return []

    # --- def-use and invariance ----------------------------------------------------------

    def varying_names(self, node: cst.CSTNode, loop: Loop | None = None) -> frozenset[str]:
        """Names whose value may change between iterations of `loop` as seen from `node`."""
        loop = loop or self.iteration_loop(node)
        if loop is None:
            return frozenset()
        names = set(loop.writes)
        func = self.enclosing_function(node)
        if func is not None and func is not loop.function:
            names |= _params(func) | self.names_written(func.body)
            if "self" in names and not self._class_mutates_self(func):
                names.discard("self")
        return frozenset(names)

    def is_invariant(self, expr: cst.CSTNode, loop: Loop | None = None) -> bool:
        """True if `expr` gives the same value on every iteration (safe to compute once)."""
        loop = loop or self.iteration_loop(expr)
        if loop is None:
            return False
        varying = self.varying_names(expr, loop)
        if self.names_read(expr) & varying:
            return False
        return all(self._call_is_pure(call, varying) for call in self.calls_in(expr))

    def hoist_loop(self, expr: cst.CSTNode) -> Loop | None:
        """The outermost loop of the same function that `expr` is invariant in, if any."""
        best = None
        for loop in self.enclosing_loops(expr):
            if self.is_invariant(expr, loop):
                best = loop
            else:
                break
        return best

    def _call_is_pure(self, call: cst.Call, varying: frozenset[str]) -> bool:
        qualified = self.qualified_name(call.func)
        if qualified is not None:
            if qualified.startswith(_IMPURE_QUALIFIED_PREFIXES):
                return False
            last = qualified.rsplit(".", 1)[-1]
            if qualified.startswith("torch."):
                return last not in _RANDOM_TORCH and not is_inplace_method(last) and kind_of_qualified_call(qualified) is not Kind.MODULE
            if qualified.startswith("numpy."):
                return True
            if qualified.startswith("builtins."):
                return last in _PURE_BUILTINS
        func = call.func
        if isinstance(func, cst.Name) and func.value in self.functions:
            return self.is_pure_function(func.value)
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method in _IMPURE_METHODS or is_inplace_method(method):
                return False
            receiver = self.kind(func.value)
            if receiver in _STATEFUL_KINDS:
                return False
            root = root_name(func.value)
            return root is None or root not in varying
        return False

    def is_pure_function(self, name: str) -> bool:
        """A function of this unit whose result depends only on its arguments and constants."""
        if name in self._pure_cache:
            return self._pure_cache[name]
        self._pure_cache[name] = False  # recursion guard
        func = self.functions[name]
        if any(isinstance(n, cst.Global) for n in self.walk(func.body)):
            return False
        varying = frozenset(_params(func) | self.names_written(func.body))
        pure = all(self._call_is_pure(c, varying) or self._arg_only_call(c, varying) for c in self.calls_in(func.body))
        self._pure_cache[name] = pure
        return pure

    def _arg_only_call(self, call: cst.Call, local: frozenset[str]) -> bool:
        """Inside a function, methods on its own locals (e.g. `out.append`) stay local."""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value not in _IMPURE_METHODS:
            root = root_name(func.value)
            return root is not None and root in local and self.kind(func.value) not in _STATEFUL_KINDS
        return False

    def _class_mutates_self(self, func: FunctionNode) -> bool:
        cls = next((a for a in self.ancestors(func) if isinstance(a, cst.ClassDef)), None)
        if cls is None:
            return True
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value != "__init__":
                for node in self.walk(stmt.body):
                    if isinstance(node, cst.AssignTarget) and root_name(node.target) == "self":
                        return True
        return False

    # --- names and kinds ---------------------------------------------------------------

    def qualified_name(self, expr: cst.CSTNode) -> str | None:
        """`torch.nn.functional.gelu` for `F.gelu` (imports and namespace modules resolved)."""
        dotted = dotted_name(expr)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        target = self.aliases.get(head)
        if target is None and head not in self._defs:
            target = self._outer_name(head)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target

    def _outer_name(self, head: str) -> str | None:
        """What `head` names when this unit does not bind it: a module in the live namespace
        (exact), else an earlier cell's import (a kernel that ran `import torch` still sees
        `from torch import tensor` as `torch.tensor`), else a live object's own name, else a
        builtin. A live namespace and earlier cells usually both know a name: neither may hide
        the other's answer."""
        value = self.namespace.get(head)
        if isinstance(value, types.ModuleType):
            return value.__name__
        if head in self.prior.aliases:
            return self.prior.aliases[head]
        if self.prior.defines(head):
            return None
        if value is not None and hasattr(value, "__qualname__") and hasattr(value, "__module__"):
            return f"{value.__module__}.{value.__qualname__}"
        if head not in self.namespace and hasattr(builtins, head):
            return f"builtins.{head}"
        return None

    def kind(self, expr: cst.CSTNode) -> Kind:
        key = id(expr)
        if key not in self._kind_cache:
            self._kind_cache[key] = Kind.UNKNOWN  # recursion guard
            self._kind_cache[key] = self._kind(expr)
        return self._kind_cache[key]

    def _kind(self, expr: cst.CSTNode) -> Kind:
        if isinstance(expr, cst.Call):
            return self._kind_of_call(expr)
        if isinstance(expr, cst.Name):
            return self._kind_of_name(expr)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in {"T", "mT", "data", "grad", "real", "imag"} and self.kind(expr.value) is Kind.TENSOR:
                return Kind.TENSOR
            if isinstance(expr.value, cst.Name) and expr.value.value == "self":
                return self._kind_of_self_attr(expr)
            return Kind.UNKNOWN
        if isinstance(expr, cst.Subscript):
            base = self.kind(expr.value)
            return {
                Kind.DICT_OF_LIST: Kind.LIST,
                Kind.DICT_OF_TENSOR: Kind.TENSOR,
                Kind.TENSOR: Kind.TENSOR,
                Kind.NDARRAY: Kind.NDARRAY,
            }.get(base, Kind.UNKNOWN)
        if isinstance(expr, cst.BinaryOperation):
            kinds = {self.kind(expr.left), self.kind(expr.right)}
            for k in (Kind.TENSOR, Kind.NDARRAY):
                if k in kinds:
                    return k
            return Kind.NUMBER if kinds == {Kind.NUMBER} else Kind.UNKNOWN
        if isinstance(expr, cst.UnaryOperation):
            return self.kind(expr.expression)
        if isinstance(expr, (cst.Integer, cst.Float)):
            return Kind.NUMBER
        if isinstance(expr, (cst.List, cst.ListComp)):
            return Kind.LIST
        if isinstance(expr, cst.Dict):
            values = [el.value for el in expr.elements if isinstance(el, cst.DictElement)]
            return _dict_kind([self.kind(v) for v in values])
        if isinstance(expr, cst.DictComp):
            return _dict_kind([self.kind(expr.value)])
        return Kind.UNKNOWN

    def _kind_of_call(self, call: cst.Call) -> Kind:
        qualified = self.qualified_name(call.func)
        if qualified is not None:
            kind = kind_of_qualified_call(qualified)
            if kind is not Kind.UNKNOWN or qualified.startswith(("torch.", "numpy.", "builtins.")):
                return kind
        func = call.func
        if isinstance(func, cst.Name):
            if func.value in self.classes:
                return self._kind_of_class(self.classes[func.value])
            if func.value in self.functions:
                return self._kind_of_returns(self.functions[func.value])
        if isinstance(func, cst.Attribute):
            receiver = self.kind(func.value)
            if receiver is not Kind.UNKNOWN:
                return kind_of_method(receiver, func.attr.value)
        if self.kind(func) is Kind.MODULE:
            return Kind.TENSOR
        return Kind.UNKNOWN

    def _kind_of_class(self, cls: cst.ClassDef) -> Kind:
        for base in cls.bases:
            q = self.qualified_name(base.value) or ""
            if q.startswith("torch.nn.") or q.endswith("Module"):
                return Kind.MODULE
            if "Dataset" in q:
                return Kind.DATASET
        return Kind.UNKNOWN

    def _kind_of_returns(self, func: FunctionNode) -> Kind:
        for node in self.walk(func.body, into_scopes=False):
            if isinstance(node, cst.Return) and node.value is not None:
                return self.kind(node.value)
        return Kind.UNKNOWN

    def _kind_of_self_attr(self, expr: cst.Attribute) -> Kind:
        for d in self._defs.get("self." + expr.attr.value, ()):
            if d.value is not None:
                return self.kind(d.value)
        return Kind.UNKNOWN

    def _reaching_def(self, name: cst.Name) -> _Def | None:
        """The definition of `name` a read most likely sees: the last one before it in the
        same function (or at top level), else any in that scope (a loop-carried value)."""
        defs = self._defs.get(name.value)
        if not defs:
            return None
        func = self.enclosing_function(name)
        scoped = [d for d in defs if d.function is func] or [d for d in defs if d.function is None]
        if not scoped:
            return None
        here = self.order(name)
        before = [d for d in scoped if d.order < here]
        return (before or scoped)[-1]

    def value_of(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value last assigned to `name` before it is read (same scoping as `kind`).

        None for parameters, loop targets, tuple unpacking and names defined elsewhere.
        """
        d = self._reaching_def(name)
        return d.value if d is not None and d.order < self.order(name) else None

    def _kind_of_name(self, name: cst.Name) -> Kind:
        d = self._reaching_def(name)
        if d is None:
            if name.value not in self._defs and name.value in self.namespace:
                return kind_of_value(self.namespace[name.value])
            earlier = self.prior.kind(name.value)
            return earlier if earlier not in (None, Kind.UNKNOWN) else self._jedi_kind(name)
        if d.value is not None:
            return self.kind(d.value)
        if d.annotation is not None:
            q = self.qualified_name(d.annotation) or ""
            return Kind.TENSOR if q.endswith("Tensor") else kind_of_jedi_type(q)
        if d.loop is not None and d.loop.iter_kind in (Kind.DATALOADER, Kind.TENSOR):
            return Kind.TENSOR
        return self._jedi_kind(name)

    def _jedi_kind(self, name: cst.Name) -> Kind:
        pos = self.position(name).start
        return kind_of_jedi_type(self.jedi.type_name(pos.line, pos.column))

    @cached_property
    def jedi(self) -> JediOracle:
        return JediOracle(self.text, self.namespace)


def loop_spans(masked_text: str) -> list[LoopSpan]:
    """The loops of a (masked) cell, e.g. to choose the profiler's window."""
    try:
        module = cst.parse_module(masked_text)
    except cst.ParserSyntaxError:
        return []
    return Facts(module).loop_spans()


def _dict_kind(values: list[Kind]) -> Kind:
    if values and all(v is Kind.LIST for v in values):
        return Kind.DICT_OF_LIST
    if values and all(v is Kind.TENSOR for v in values):
        return Kind.DICT_OF_TENSOR
    return Kind.DICT


def _params(func: FunctionNode) -> set[str]:
    p = func.params
    names = {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)}
    for star in (p.star_arg, p.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


_TRAIN_METHODS = frozenset({"backward", "step", "zero_grad"})
_MODEL_WORDS = ("model", "net", "encoder", "decoder", "policy", "critic", "classifier")


class _Indexer:
    """One walk over the unit: children, parents and order cached; imports, functions,
    classes, definitions, loops (with the names each rebinds and the methods it calls)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.loops: list[Loop] = []
        self.functions: dict[str, FunctionNode] = {}
        self.classes: dict[str, cst.ClassDef] = {}
        self.aliases: dict[str, str] = {}
        self.defs: dict[str, list[_Def]] = {}
        self.calls_in_loops: list[tuple[cst.Call, Loop]] = []
        self._funcs: list[FunctionNode | None] = [None]
        self._classes: list[cst.ClassDef] = []
        self._active: list[list[Loop]] = [[]]  # per function: loops whose body we are in
        self._open: list[list[Loop]] = [[]]  # per function: loops we are in (header too)
        self.by_node: dict[cst.CSTNode, Loop] = {}
        self.model_calls: set[Loop] = set()

    def run(self, module: cst.Module) -> None:
        facts = self.facts
        stack: list[tuple[cst.CSTNode, bool]] = [(module, False)]
        order = 0
        while stack:
            node, leaving = stack.pop()
            if leaving:
                self._leave(node)
                continue
            facts._order[node] = order
            order += 1
            self._enter(node)
            stack.append((node, True))
            kids = facts.children(node)
            for kid in reversed(kids):
                facts._parents[kid] = node
                stack.append((kid, False))

    # -- enter / leave ------------------------------------------------------------------

    def _enter(self, node: cst.CSTNode) -> None:
        parent = self.facts._parents.get(node)
        if isinstance(parent, (cst.For, cst.While)) and (node is parent.body or (isinstance(parent, cst.While) and node is parent.test)):
            self._active[-1].append(self.by_node[parent])
        for name in writes_of(node):
            for loop in self._active[-1]:
                loop.writes.add(name)
        handler = getattr(self, "_enter_" + type(node).__name__, None)
        if handler is not None:
            handler(node)

    def _leave(self, node: cst.CSTNode) -> None:
        parent = self.facts._parents.get(node)
        if isinstance(parent, (cst.For, cst.While)) and (node is parent.body or (isinstance(parent, cst.While) and node is parent.test)):
            self._active[-1].pop()
        if isinstance(node, (cst.For, cst.While)):
            self._open[-1].pop()
        elif isinstance(node, cst.FunctionDef):
            self._funcs.pop()
            self._active.pop()
            self._open.pop()
        elif isinstance(node, cst.ClassDef):
            self._classes.pop()

    def _define(self, target: cst.CSTNode, value: cst.BaseExpression | None, node: cst.CSTNode,
                loop: Loop | None = None, annotation: cst.BaseExpression | None = None) -> None:
        func = self._funcs[-1]
        order = self.facts._order[node]
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
            key = "self." + target.attr.value
            self.defs.setdefault(key, []).append(_Def(key, order, value, func))
            return
        names = list(bound_names(target))
        single = value if len(names) == 1 and isinstance(target, cst.Name) else None
        for name in names:
            self.defs.setdefault(name, []).append(_Def(name, order, single, func, loop, annotation))

    def _enter_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if alias.asname is not None:
                self.aliases[dotted_name(alias.asname.name) or full] = full
            else:
                head = full.split(".")[0]
                self.aliases[head] = head

    def _enter_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module is None or isinstance(node.names, cst.ImportStar) or node.relative:
            return
        module = dotted_name(node.module) or ""
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            local = dotted_name(alias.asname.name) if alias.asname else name
            self.aliases[local or name] = f"{module}.{name}"

    def _enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        owner = self._classes[-1].name.value + "." if self._classes and self._funcs[-1] is None else ""
        self.functions[owner + node.name.value] = node
        self._funcs.append(node)
        self._active.append([])
        self._open.append([])
        for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
            ann = param.annotation.annotation if param.annotation else None
            self.defs.setdefault(param.name.value, []).append(
                _Def(param.name.value, self.facts._order[node], None, node, None, ann)
            )

    def _enter_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes[node.name.value] = node
        self._classes.append(node)

    def _enter_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._define(target.target, node.value, node)

    def _enter_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._define(node.target, node.value, node, annotation=node.annotation.annotation)

    def _enter_AugAssign(self, node: cst.AugAssign) -> None:
        self._define(node.target, None, node)

    def _enter_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._define(node.asname.name, None, node)

    def _enter_For(self, node: cst.For) -> None:
        loop = self._enter_loop(node)
        loop.writes.update(bound_names(node.target))
        self._define(node.target, None, node, loop=loop)

    def _enter_While(self, node: cst.While) -> None:
        self._enter_loop(node)

    def _enter_loop(self, node: LoopNode) -> Loop:
        open_loops = self._open[-1]
        parent = open_loops[-1] if open_loops else None
        loop = Loop(node=node, depth=(parent.depth + 1) if parent else 0, parent=parent,
                    function=self._funcs[-1], facts=self.facts)
        self.by_node[node] = loop
        self.loops.append(loop)
        open_loops.append(loop)
        return loop

    def _enter_Call(self, node: cst.Call) -> None:
        active = self._active[-1]
        if not active:
            return
        self.calls_in_loops.append((node, active[-1]))
        func = node.func
        if isinstance(func, cst.Attribute):
            for loop in active:
                loop.methods.add(func.attr.value)
        if (isinstance(func, cst.Name) and any(w in func.value.lower() for w in _MODEL_WORDS)) or (
            isinstance(func, cst.Attribute) and func.attr.value == "forward"
        ):
            self.model_calls.update(active)


def _classify_loops(facts: Facts, models: set[Loop]) -> None:
    """'train' if a loop (or one inside it, or a helper it calls) back-propagates or steps an
    optimizer; 'eval' if it calls a model without; else 'plain'."""
    methods = {loop: set(loop.methods) for loop in facts.loops}
    for call, loop in facts._calls_in_loops:
        for callee in facts._callees(call):
            called = {c.func.attr.value for c in facts.calls_in(callee.body) if isinstance(c.func, cst.Attribute)}
            chain: Loop | None = loop
            while chain is not None:
                methods[chain] |= called
                chain = chain.parent
        func = call.func
        if isinstance(func, cst.Name) and facts.kind(func) is Kind.MODULE:
            chain = loop
            while chain is not None:
                models.add(chain)
                chain = chain.parent
    for loop in facts.loops:
        m = methods[loop]
        if "backward" in m or {"step", "zero_grad"} <= m:
            loop.kind = "train"
        elif loop in models:
            loop.kind = "eval"
