"""The metadata module: facts about one unit of source that every rule reads.

Which names are tensors (and other kinds), where the loops are and which of them train or
evaluate, what runs once per iteration (including helpers, `forward` and
`Dataset.__getitem__` reached from a loop), and which expressions are loop-invariant.
Facts are computed once per unit, lazily, and shared by all rules.
"""

from __future__ import annotations

import builtins
import re
import symtable
import types
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

import libcst as cst
from libcst.metadata import CodeRange

from . import attribute_paths, field_values, forward_outputs, held, outside_calls
from .comprehensions import comprehension_binding
from .fresh_calls import fresh_call, library_call, method_may_share
from .library_effects import torch_changed_arguments
from .mutating_calls import numpy_outputs, table_written_arguments
from .names import (ARGUMENT_MUTATORS, argument_bound_to, block_statements, bound_names, dotted_name,
                    is_inplace_method, is_scope, mutated_arguments, mutated_names, named_params, names_read,
                    names_written_in, parameter_filled, positional_params, root_name, type_test, walk, writes_of)
from .positions import Positions
from .types import (
    JediOracle,
    Kind,
    kind_of_jedi_type,
    kind_of_method,
    kind_of_qualified_call,
    kind_of_value,
)

if TYPE_CHECKING:
    from .modules import ModuleImports

LoopNode = cst.For | cst.While
FunctionNode = cst.FunctionDef
# `model.train()` / `.eval()` set the module's own mode flag: not what it was built from
# (the lists and dicts its constructor read).
_OWN_FLAG_METHODS = frozenset({"train", "eval"})
# What a name means when only a star import of a module this analysis cannot read can bind it
# (`from modeling.deeplab import *`, whose module imports torch): the near-universal spellings.
_STAR_CONVENTIONS = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional"}
# Builtins whose result is one of the values they fold (`sum`'s start is 0, a no-op on a tensor).
_FOLDING_BUILTINS = frozenset({"builtins.sum", "builtins.min", "builtins.max"})
# Module names a project's shared-imports module re-exports (`from main import torch, nn, optim`).
_REEXPORTED = frozenset({"torch", "nn", "F", "optim", "np", "numpy"})
# torch's containers of modules and of parameters: what indexing one of them gives.
_CONTAINERS = {
    **{f"torch.nn.{c}": Kind.MODULE for c in ("Sequential", "ModuleList", "ModuleDict")},
    **{f"torch.nn.{c}": Kind.TENSOR for c in ("ParameterList", "ParameterDict")},
}
# A module's own tensors: its parameters (`weight`, `bias`) and BatchNorm's running statistics.
_MODULE_TENSORS = frozenset({"weight", "bias", "running_mean", "running_var"})
_is_call = type_test(cst.Call)


def _module_tensor(value: cst.BaseExpression) -> bool:
    """`tw = target.weight` (`target = copy.deepcopy(model)`, of no known kind): a module's own
    tensor by its name, so a view of the module's memory even when the owner's type is unknown."""
    return isinstance(value, cst.Attribute) and value.attr.value in _MODULE_TENSORS | {"data", "grad"}
_is_loop = type_test(cst.For, cst.While)
_is_function = type_test(cst.FunctionDef)

# Calls whose result differs per call even on the same arguments.
# einops' functions: each returns its arguments rearranged, reduced or tiled by a pattern string.
_EINOPS_PURE = frozenset({"rearrange", "reduce", "repeat", "einsum", "pack", "unpack", "parse_shape"})
_IMPURE_QUALIFIED_PREFIXES = ("numpy.random.", "random.", "time.", "os.", "sys.", "torch.cuda.", "torch.random.")
_RANDOM_TORCH = frozenset({
    "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like", "normal",
    "bernoulli", "multinomial", "poisson", "dropout", "empty", "empty_like", "manual_seed", "seed",
})
# Methods that draw random numbers (in place or into a new tensor/array).
_RANDOM_METHODS = frozenset({
    "uniform_", "normal_", "bernoulli", "bernoulli_", "random_", "exponential_", "geometric_", "cauchy_",
    "log_normal_", "multinomial", "rand", "randn", "randint", "integers", "random", "choice", "shuffle",
    "permutation", "normal", "uniform", "sample", "standard_normal",
    # NumPy `Generator`/`RandomState` and `random.Random` draws, `torch.distributions` samples
    "beta", "gamma", "binomial", "poisson", "exponential", "laplace", "lognormal", "logistic", "gumbel",
    "triangular", "vonmises", "weibull", "rayleigh", "geometric", "hypergeometric", "negative_binomial",
    "multivariate_normal", "dirichlet", "standard_gamma", "standard_exponential", "standard_cauchy", "standard_t",
    "chisquare", "pareto", "zipf", "wald", "random_sample", "ranf", "random_integers", "permuted", "randrange",
    "gauss", "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate", "betavariate",
    "paretovariate", "weibullvariate", "getrandbits", "choices", "rsample", "sample_n",
})
# Constructors of random-number objects: every method call on one draws or changes its state.
# Methods of a `torch.distributions.Distribution` that give tensors (on the device of its parameters).
_DISTRIBUTION_TENSOR_METHODS = frozenset({"sample", "rsample", "log_prob", "entropy", "cdf", "icdf"})
_RANDOM_OBJECT_PREFIXES = ("numpy.random.", "random.", "torch.distributions.", "torch.Generator",
                           "torch.random.")
# Calls that read the items of an iterable argument (a list of tensors summed, stacked, zipped).
_CONTAINER_READERS = frozenset({"sum", "list", "tuple", "set", "dict", "sorted", "min", "max", "any", "all", "zip",
                                "enumerate", "iter", "next", "map", "filter", "stack", "cat", "vstack", "hstack",
                                "concatenate", "mean", "array", "tensor", "as_tensor"})
_DICT_KINDS = frozenset({Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR})
_PURE_BUILTINS = frozenset({
    "len", "range", "list", "dict", "tuple", "set", "frozenset", "sorted", "sum", "min", "max",
    "abs", "int", "float", "str", "zip", "enumerate", "map", "filter", "round", "bool",
    "isinstance", "reversed", "any", "all", "divmod", "pow",
})
# Decorators that keep a function's result a function of its arguments (`lru_cache` hands back
# the object the first call made, as a hoisted value would be).
_PURE_DECORATORS = frozenset({
    "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "functools.lru_cache", "functools.cache",
    "staticmethod",
})
_IMPURE_METHODS = frozenset({
    "get", "next", "__next__", "read", "readline", "readlines", "random", "randn", "rand",
    "integers", "choice", "sample", "shuffle", "normal", "uniform", "poll", "recv", "pop",
    "popleft", "item_random", "permutation", "forward", "__call__",
})
# Methods that only read their receiver, whatever its type (containers, strings, tensors).
# Kinds whose methods are the library's own (a tensor's `log`, a dict's `get`), not the program's.
_LIBRARY_KINDS = frozenset({Kind.TENSOR, Kind.NDARRAY, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR,
                            Kind.NUMBER})
_READ_ONLY_METHODS = frozenset({
    "item", "tolist", "numpy", "cpu", "cuda", "to", "detach", "clone", "copy", "size", "dim", "numel",
    "float", "double", "half", "long", "int", "bool", "view", "reshape", "sum", "mean", "std", "var", "max",
    "min", "argmax", "argmin", "keys", "values", "items", "get", "count", "index", "format", "join", "split",
    "strip", "lower", "upper", "startswith", "endswith", "replace", "astype", "squeeze", "unsqueeze",
    "contiguous", "softmax", "log_softmax", "eq", "ne", "type", "parameters", "named_parameters",
    "state_dict", "all", "any", "abs", "exp", "log", "sqrt", "t", "transpose", "permute", "flatten",
})
# NumPy calls that read or write files, change settings or change an argument: not pure.
NUMPY_EFFECTS = ARGUMENT_MUTATORS | {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt", "fromfile", "memmap",
    "seterr", "set_printoptions", "printoptions", "tofile",
    # one-shot iterators: a hoisted one is exhausted after the first pass (red team 24). Reads of
    # NumPy's settings (`np.geterr()`) are not here: `_library_state` keeps them in the loop
    # when the loop may change those settings, and a loop that cannot may hoist them.
    "nditer", "ndenumerate", "ndindex", "broadcast", "nested_iters", "Arrayterator",
    "seterrcall", "setbufsize", "fromregex", "DataSource", "open_memmap",
}


def numpy_call_has_effects(call: cst.Call, qualified: str, is_program_function: Callable[[str], bool]) -> bool:
    """A NumPy call whose result or run is not a function of its arguments' values: a name in
    `NUMPY_EFFECTS`, or a call handed a lambda or a function of the program
    (`np.fromfunction(grid, shape)`, `np.apply_along_axis(f, 0, a)`, `np.vectorize(f)`): NumPy
    runs that code, with whatever it reads and changes."""
    if qualified.rsplit(".", 1)[-1] in NUMPY_EFFECTS or any(numpy_outputs(call, qualified.rsplit(".", 1)[-1], True, False)):
        return True
    return any(isinstance(a.value, cst.Lambda) or (isinstance(a.value, cst.Name) and is_program_function(a.value.value))
               for a in call.args)


_TORCH_EFFECTS = frozenset({"save", "load", "set_grad_enabled", "set_num_threads", "set_printoptions", "compile"})
# torch functions / tensor methods that return a (values, indices) pair of tensors when unpacked.
# Module methods that return the module itself.
_SAME_OBJECT_METHODS = frozenset({"to", "cuda", "cpu", "train", "eval", "float", "half", "double"})
_PAIRED_RESULTS = frozenset({"max", "min", "topk", "sort", "kthvalue", "mode", "median", "cummax", "cummin"})


def _torch_pair(call: cst.BaseExpression) -> bool:
    """`y.max(dim=1)` unpacked into two names: only torch spells the axis `dim` (NumPy, pandas
    and JAX say `axis`), and its `max`/`sort`/`topk`... along a dim return (values, indices)."""
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in _PAIRED_RESULTS \
        and any(a.keyword is not None and a.keyword.value == "dim" for a in call.args)
_STATEFUL_KINDS = frozenset({Kind.MODULE, Kind.OPTIMIZER, Kind.DATALOADER, Kind.DATASET})
# For receivers not known to be tensors or arrays: methods whose result may share the receiver's memory (a view, or the receiver
# itself when nothing needs converting: `.to(d)`, `.float()`, `.cpu()`, `.contiguous()`).
SHARING_METHODS = frozenset({
    "view", "view_as", "reshape", "reshape_as", "t", "T", "mT", "H", "transpose", "swapaxes", "permute",
    "movedim", "narrow", "select", "squeeze", "unsqueeze", "expand", "expand_as", "flatten", "unflatten",
    "ravel", "diagonal", "as_strided", "detach", "data", "contiguous", "to", "cpu", "cuda", "type", "float",
    "double", "half", "bfloat16", "long", "int", "bool", "numpy", "real", "imag", "unbind", "split", "chunk",
    "tensor_split", "unfold", "indices", "values", "__array__", "type_as", "byte", "char", "short",
    "cfloat", "cdouble", "swapdims", "moveaxis", "adjoint", "mH", "split_with_sizes", "hsplit", "vsplit", "dsplit",
    "as_subclass", "broadcast_to", "conj", "positive", "resolve_conj", "resolve_neg", "sum_to_size",
    "__dlpack__", "cast", "toreadonly",
})
# `getattr(tr, "history")`, `vars(tr)["history"]`: the object's own attribute (or attribute dict).
_OWNER_READERS = frozenset({"builtins.getattr", "builtins.vars"})


# Calls outside torch and NumPy whose result shares their first argument's memory. Whether a
# torch/NumPy call's result may share an argument's memory is no longer a list of the names known
# to share (red team 24 found 26 harmful rewrites through names missing from it): `fresh_calls`
# knows which are surely fresh, from ATen's alias annotations, `np.ufunc` and an explained list.
SHARING_CALLS = frozenset({"builtins.iter", "builtins.memoryview"})
# `with np.nditer(a, op_flags=...) as it`: context managers whose `__enter__` returns the view
# they are (by the call's last name: qualified names are not known while indexing).
_SHARING_CALL_NAMES = frozenset({"nditer", "memoryview", "iter"})
# A call told not to copy (`a.astype(t, copy=False)`, `np.array(a, copy=False)`, `np.astype(a, t,
# copy=None)`, `np.meshgrid(a, copy=False)`) may return its first argument or receiver itself.
NO_COPY_VALUES = frozenset({"False", "None"})


def told_not_to_copy(call: cst.Call) -> bool:
    """`copy=False` / `copy=None`: the result may be the argument or receiver itself."""
    return any(a.keyword is not None and a.keyword.value == "copy" and isinstance(a.value, cst.Name)
               and a.value.value in NO_COPY_VALUES for a in call.args)


_METADATA = frozenset({"shape", "ndim", "dtype", "device", "size", "itemsize", "nbytes", "layout", "is_cuda"})
# Immutable values read off a tensor or an array (`_metadata_read`): attributes, and tensor methods
# that return an int, a `torch.Size` or a device index.
_METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "device", "size", "itemsize", "nbytes", "layout", "is_cuda"})
_METADATA_METHODS = frozenset({"size", "dim", "numel", "nelement", "element_size", "get_device", "ndimension"})
# Of those, the names every array library gives an immutable value (checked on receivers of unknown kind).
_METADATA_NAMES = frozenset({"shape", "dtype", "device", "ndim", "size", "dim", "numel"})


def _metadata(expr: cst.BaseExpression) -> bool:
    """`X.shape[1]`, `x.size(0)`, `t.dtype`: a number or description read off an array, never its memory."""
    while isinstance(expr, (cst.Subscript, cst.Attribute, cst.Call)):
        if isinstance(expr, cst.Attribute) and expr.attr.value in _METADATA:
            return True
        expr = expr.func if isinstance(expr, cst.Call) else expr.value
    return False


def no_out(call: cst.Call) -> bool:
    """Neither `out=` nor `copy=False/None`: a fresh function's result is then new memory."""
    return not told_not_to_copy(call) and not any(a.keyword is not None and a.keyword.value == "out" for a in call.args)


def library_result_may_share(qualified: str, call: cst.Call) -> bool:
    """A torch/NumPy call whose result is not known to be fresh (see `fresh_calls`): it may be
    an argument, the receiver, or a view of one."""
    return library_call(qualified) and not fresh_call(qualified, no_out(call))


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
    runs_once: bool = False  # its body always leaves the loop at its end (`break`, `return`, `exit()`)

    @property
    def is_training(self) -> bool:
        return self.kind == "train"

    @property
    def line(self) -> int:
        return self.facts.position(self.node).start.line

    @property
    def end_line(self) -> int:
        return self.facts.position(self.node).end.line


def _assigned_name(facts: "Facts", name: cst.Name) -> bool:
    """`name` is the whole target of an assignment (`c = ...`)."""
    parent = facts.parent(name)
    return isinstance(parent, cst.AssignTarget) and parent.target is name


# Methods returning their receiver or a copy of it: on new memory, new memory again.
_SAME_OR_COPY_METHODS = frozenset({"to", "cuda", "cpu", "float", "double", "half", "long", "int", "bool", "bfloat16",
                                   "contiguous", "pin_memory", "clone", "detach", "requires_grad_"})


@dataclass(eq=False)
class _Def:
    name: str
    order: int  # pre-order index of the defining node: textual order without positions
    value: cst.BaseExpression | None
    function: FunctionNode | None
    loop: Loop | None = None  # for-loop target definitions
    annotation: cst.BaseExpression | None = None
    # what gives the name its kind when it has no single value: `x` of `x, y = a.to(d), b`
    # (`a.to(d)`), each name of `_, top = torch.max(out, 1)` (the call: a pair of tensors)
    element: cst.BaseExpression | None = None
    augmented: bool = False  # `loss += criterion(out, y)`: `element` is the added value
    # `logp, hidden = decoder(x, h)`: the call and the name's place in the tuple it returns
    unpacked: "tuple[cst.Call, int, int] | None" = None
    # `h_a, h_b = views` (a name, attribute or subscript): the container the name is unpacked from;
    # what it holds may share memory with what the container holds
    container: cst.BaseExpression | None = None
    # `out, (h, c) = self.lstm(x)`: for `h`, the call and the path of (place, length) pairs from the
    # outer tuple inward (((1, 2), (0, 2))); `unpacked` stays None (`h` is no element of the call's tuple)
    nested: "tuple[cst.Call, tuple[tuple[int, int], ...]] | None" = None


class Prior:
    """What the earlier cells of a notebook defined (imports, top-level values, functions and
    classes), for the static analysis of a later cell when no live namespace is at hand
    (`paef scan`). Immutable once built: each cell sees only the cells before it."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self._values: dict[str, tuple[Facts, cst.BaseExpression | None]] = {}
        self.functions: dict[str, tuple[Facts, FunctionNode]] = {}
        self.classes: dict[str, tuple[Facts, cst.ClassDef]] = {}
        self.cells: tuple[Facts, ...] = ()  # every earlier cell, in order (also those that define nothing)

    def after(self, facts: "Facts") -> "Prior":
        """What the cells up to and including `facts`' cell defined."""
        new = Prior()
        new.cells = (*self.cells, facts)
        new.aliases, new._values = dict(self.aliases), dict(self._values)
        new.functions, new.classes = dict(self.functions), dict(self.classes)
        new.aliases.update(facts.aliases)
        for name, defs in facts._defs.items():
            top = [d for d in defs if d.function is None and "." not in name]
            if top:
                new._values[name] = (facts, top[-1].value)
                for table in (new.aliases, new.functions, new.classes):
                    table.pop(name, None)
        for name, func in facts.functions.items():
            if "." not in name and facts.enclosing_function(func) is None:
                new.functions[name] = (facts, func)
                new._values.pop(name, None)
        for name, cls in facts.classes.items():
            new.classes[name] = (facts, cls)
            new._values.pop(name, None)
        return new

    def kind(self, name: str) -> Kind | None:
        if name not in self._values:
            return None
        facts, value = self._values[name]
        return facts.kind(value) if value is not None else Kind.UNKNOWN

    def units(self) -> list["Facts"]:
        """The earlier cells that defined something (each once, in no particular order)."""
        found = [facts for facts, _ in (*self._values.values(), *self.functions.values(), *self.classes.values())]
        return list({id(f): f for f in found}.values())

    def defines(self, name: str) -> bool:
        return name in self._values or name in self.aliases or name in self.functions or name in self.classes

    def value(self, name: str) -> "tuple[Facts, cst.BaseExpression] | None":
        """The last top-level value an earlier cell gave `name`, with that cell's facts."""
        facts, value = self._values.get(name, (None, None))
        return (facts, value) if facts is not None and value is not None else None


class Facts:
    def __init__(self, module: cst.Module, namespace: Mapping[str, Any] | None = None,
                 prior: Prior | None = None, imports: "ModuleImports | None" = None,
                 positions: "Callable[[], Mapping[cst.CSTNode, CodeRange]] | None" = None,
                 text: str | None = None, magics: tuple[str, ...] = ()) -> None:
        """`positions`: the module's positions as resolved once for all facts of one parsed
        unit (see `unit.ParsedUnit`); else resolved here when first asked. `text`: the source
        the module was parsed from (libcst gives it back exactly); else generated when asked.
        `magics`: the IPython lines the cell's text masks (`%run utils.py`), which may run code."""
        self.module = module
        self._text = text
        self.magics = magics
        self._shared_positions = positions
        self.namespace: Mapping[str, Any] = namespace or {}
        self.prior = prior or Prior()
        self.imports = imports  # local modules this unit's imports reach (`paef scan file.py`)
        self.later: list[Facts] = []  # the cells after this one in the same notebook (set by the analyzer)
        self.callers: list[Facts] = []  # units that call this local module's functions (set by the analyzer)
        self._owners: dict[cst.CSTNode, Facts] = {}  # functions/classes of other units -> their facts
        self._external: dict[FunctionNode, Loop] = {}  # own functions other units call per iteration
        self._call_sites: dict[FunctionNode, list[tuple[Facts, cst.Call]]] = {}  # per-iteration calls of a function
        self._foreign_sites: dict[FunctionNode, list[tuple[Facts, cst.Call]]] = {}  # ... made from other units
        self._module_sites: dict[FunctionNode, list[tuple[Facts, cst.Call]]] = {}  # `model(x)` of other units
        self._invariant_params: dict[FunctionNode, frozenset[str]] = {}
        self._kids: dict[cst.CSTNode, Sequence[cst.CSTNode]] = {}
        self._calls: dict[cst.CSTNode, list[cst.Call]] = {}
        self._parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self._order: dict[cst.CSTNode, int] = {}
        self._nodes: list[cst.CSTNode] = []  # pre-order: a node's subtree is `_nodes[i:_ends[i]]`
        self._ends: list[int] = []
        self._function_of: dict[cst.CSTNode, FunctionNode | None] = {}
        self._code: dict[cst.CSTNode, str] = {}
        self._kind_cache: dict[int, Kind] = {}
        self._binds_attribute_cache: dict[str, bool] = {}
        self._pure_cache: dict[str, bool] = {}
        self._mutated_cache: dict[tuple[Loop, bool], frozenset[str]] = {}
        self._views_cache: dict[FunctionNode | None, dict[str, set[str]]] = {}
        self._stored_cache: dict[FunctionNode | None, dict[str, set[str]]] = {}
        self._path_cache: dict[Loop, Mapping[str, frozenset[attribute_paths.Path]]] = {}
        self._param_paths: dict[FunctionNode, Mapping[str, frozenset[attribute_paths.Path]]] = {}
        index = _Indexer(self)
        index.run(module)
        self.loops: list[Loop] = index.loops
        self.functions: dict[str, FunctionNode] = index.functions
        self._redefined: set[str] = index.redefined
        self.classes: dict[str, cst.ClassDef] = index.classes
        self.aliases: dict[str, str] = index.aliases
        # Names only an import inside a function binds (`def main(): import torch`): a local of
        # that function, not a global other functions or later cells can use (red team 31b).
        self.function_imports: frozenset[str] = frozenset(index.imported_in_functions - index.imported_at_top)
        self._modules: set[str] = index.modules
        self._defs: dict[str, list[_Def]] = index.defs
        unread = [star for star in index.star_imports if not self._import_star(star)]
        self._unread_stars: tuple[str, ...] = tuple(unread)
        if unread:
            self._star_conventions()
        self._reexported_modules()
        self._calls_in_loops = index.calls_in_loops
        self._loop_by_node = index.by_node
        for loop in self.loops:
            if isinstance(loop.node, cst.For):
                loop.iter_kind = self.kind(loop.node.iter)
        self._model_calls = index.model_calls
        _classify_loops(self, self._model_calls)
        if "per_iteration_functions" in self.__dict__:
            # Asked for while the loops were being classified (the kind of a loop's `self.items`
            # reads its parameter's call sites): then no loop trained yet, and what a training
            # loop runs without naming it (`forward`, `__getitem__`, `__call__`) was left out.
            self._forget_reach()

    def _import_star(self, module: str) -> bool:
        """`from model import *` of a local module binds its public top-level functions,
        classes and imports here (research scripts keep `train_test` in model.py this way).
        Names this unit binds itself, and imports it names explicitly, win. False when the
        module cannot be read."""
        star = self.imports.module(module) if self.imports is not None else None
        if star is None:
            return False
        names = {name for name, func in star.functions.items()
                 if "." not in name and star.enclosing_function(func) is None}
        names |= set(star.classes)
        exported = star.exported_names()
        taken = set(self.aliases) | set(self._defs) | set(self.functions) | set(self.classes)
        for name in sorted(names):
            if not name.startswith("_") and (exported is None or name in exported) and name not in taken:
                self.aliases[name] = f"{module}.{name}"
        for name, target in star.aliases.items():
            if not name.startswith("_") and not target.startswith(".") and name not in taken \
                    and (exported is None or name in exported):
                self.aliases[name] = target
                if name in star._modules:
                    self._modules.add(name)
        return True

    def star_may_rebind(self, name: str, target: str) -> bool:
        """A star import of this unit run after the unit's last top-level import of `name` (all of
        them when it has none) may bind `name` to something other than `target`.

        Why: `import torch.nn.functional as F` then `from augs import *`, where augs.py imports its
        image ops as `F` (red team 43): Python binds names in the order the statements run, so the
        star import wins and code written with `F.` reaches augs' module. A readable module answers
        by what it binds at its top level (and `__all__`); an unreadable one may bind any name."""
        imported = [self.order(n) for n in self.module.body if isinstance(n, cst.SimpleStatementLine)
                    for stmt in n.body if isinstance(stmt, (cst.Import, cst.ImportFrom)) and name in _import_binds(stmt)]
        after = max(imported, default=-1)
        for node in self._order:  # insertion order is pre-order
            if not isinstance(node, cst.ImportFrom) or not isinstance(node.names, cst.ImportStar) \
                    or node.module is None or self.order(node) < after:
                continue
            module = "." * len(node.relative) + (dotted_name(node.module) or "")
            star = self.imports.module(module) if self.imports is not None else None
            if star is None or star._exports_other(name, target):
                return True
        return False

    def _exports_other(self, name: str, target: str) -> bool:
        """`from <this unit> import *` may bind `name` to something other than the module `target`."""
        exported = self.exported_names()
        if name.startswith("_") or exported is not None and name not in exported:
            return False
        assigned = any(d.function is None for d in self._defs.get(name, ()))
        if name in self.aliases and self.aliases[name] == target and name in self._modules and not assigned \
                and name not in self.functions and name not in self.classes:
            return False
        return name in self.aliases or assigned or name in self.functions or name in self.classes \
            or bool(self._unread_stars)

    def _star_conventions(self) -> None:
        """`torch.no_grad()` in a script whose only `torch` comes from `from modeling.deeplab import *`
        (a module not read): a name used here, bound by nothing here nor by an earlier cell, can only
        come from the star import, and `torch`, `nn` and `F` there mean torch's modules."""
        used = {n.value for n in self.walk(self.module) if isinstance(n, cst.Name)}
        taken = set(self.aliases) | set(self._defs) | set(self.functions) | set(self.classes)
        for name, target in _STAR_CONVENTIONS.items():
            if name in used and name not in taken and not self.prior.defines(name) and name not in self.prior.aliases \
                    and name not in self.namespace:
                self.aliases[name] = target
                self._modules.add(name)

    def _reexported_modules(self) -> None:
        """`from main import torch, nn` where main.py is a project's shared-imports module: the
        names are torch's modules, not `main.torch`, so `with torch.no_grad():` and
        `torch.device('cpu')` keep their meaning. A readable module answers through its own
        imports (exact); an unreadable one only for the name `torch` itself, which no package
        exports as anything else (`nn` may be `jax.nn`)."""
        for local, target in list(self.aliases.items()):
            module, _, name = target.rpartition(".")
            if local != name or name not in _REEXPORTED or not module or module.lstrip(".").split(".")[0] == "torch":
                continue
            source = self.imports.module(module) if self.imports is not None else None
            if source is not None:
                resolved = source.aliases.get(name)
                if resolved is None or name not in source._modules:
                    continue
            elif name == "torch":
                resolved = "torch"
            else:
                continue
            self.aliases[local] = resolved
            self._modules.add(local)

    def exported_names(self) -> set[str] | None:
        """The strings of a top-level `__all__ = [...]`, or None when the unit has none."""
        for stmt in self.module.body:
            if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
                    and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1 \
                    and dotted_name(stmt.body[0].targets[0].target) == "__all__" \
                    and isinstance(stmt.body[0].value, (cst.List, cst.Tuple)):
                return {el.value.evaluated_value for el in stmt.body[0].value.elements
                        if isinstance(el.value, cst.SimpleString) and isinstance(el.value.evaluated_value, str)}
        return None

    # --- traversal (libcst's `children` is a visit: computed once, here) -------------

    def children(self, node: cst.CSTNode) -> Sequence[cst.CSTNode]:
        kids = self._kids.get(node)
        if kids is None:
            kids = self._kids[node] = node.children
        return kids

    def walk(self, node: cst.CSTNode, into_scopes: bool = True) -> Iterator[cst.CSTNode]:
        """`names.walk`, read off the pre-order index: rules walk the same bodies hundreds of
        times per unit, and a slice costs a fraction of a generator's step per node."""
        start = self._order.get(node)
        end = self._ends[start] if start is not None else -1
        if end < 0:  # a node of another tree, or one the index is still entering (`_Indexer`)
            return walk(node, self.children, into_scopes)
        if into_scopes:
            return iter(self._nodes[start:end])
        return self._walk_own(start, end)

    def _walk_own(self, start: int, end: int) -> Iterator[cst.CSTNode]:
        nodes, ends = self._nodes, self._ends
        yield nodes[start]
        i = start + 1
        while i < end:
            node = nodes[i]
            yield node
            i = ends[i] if is_scope(node) else i + 1

    def names_read(self, node: cst.CSTNode) -> set[str]:
        return names_read(node, self.children)

    def names_written(self, node: cst.CSTNode) -> set[str]:
        return names_written_in(self.walk(node, into_scopes=False))

    def calls_in(self, node: cst.CSTNode) -> list[cst.Call]:
        """(Cached: rules ask for a function body's calls once per call site that reaches it.)"""
        calls = self._calls.get(node)
        if calls is None:
            calls = self._calls[node] = [n for n in self.walk(node) if _is_call(n)]
        return list(calls)

    def order(self, node: cst.CSTNode) -> int:
        """Pre-order index: compares textual positions without computing them."""
        return self._order.get(node, -1)

    @cached_property
    def _positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        # The slowest fact (a full code generation pass): computed only when asked.
        if self._shared_positions is not None:
            return self._shared_positions()
        return Positions(self.module)

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

    def contains(self, scope: cst.CSTNode, node: cst.CSTNode) -> bool:
        """`node` is `scope` or inside it: one comparison of pre-order ranges."""
        start, at = self._order.get(scope), self._order.get(node)
        end = self._ends[start] if start is not None else -1
        if at is None or end < 0:  # (see `walk`)
            return node is scope or any(anc is scope for anc in self.ancestors(node))
        return start <= at < end

    def enclosing_function(self, node: cst.CSTNode) -> FunctionNode | None:
        """(Memoised per node: asked for every node of a body by several walks.)"""
        known, path = self._function_of, []
        current: cst.CSTNode | None = node
        while current is not None and current not in known:
            path.append(current)
            parent = self._parents.get(current)
            if parent is None or _is_function(parent):
                known[current] = parent  # type: ignore[assignment]
                break
            current = parent
        found = known[current] if current is not None else None
        for visited in path:
            known[visited] = found
        return found

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The statement line (or compound statement) that contains `node`."""
        current = node
        for anc in self.ancestors(node):
            if isinstance(current, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return current
            current = anc
        return current

    @property
    def text(self) -> str:
        """The unit's (masked) source; `module.code` regenerates it on every access."""
        if self._text is None:
            self._text = self.module.code
        return self._text

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
        """(Memoised: rules compare spellings of every name in a scope, a code generation each.)"""
        text = self._code.get(node)
        if text is None:
            text = self._code[node] = self.module.code_for_node(node)
        return text

    # --- loops -----------------------------------------------------------------------

    def enclosing_loops(self, node: cst.CSTNode) -> list[Loop]:
        """Loops of the same function whose *body* holds `node`, innermost first.

        A `for` header's iterable runs once, so it is not inside its own loop.
        """
        out: list[Loop] = []
        child = node
        for anc in self.ancestors(node):
            if _is_function(anc):
                break
            if _is_loop(anc) and (child is anc.body or (isinstance(anc, cst.While) and child is anc.test)):
                out.append(self._loop_by_node[anc])
            child = anc
        return out

    def iteration_loop(self, node: cst.CSTNode) -> Loop | None:
        """The loop under which `node` runs once per iteration, following calls into helpers."""
        loops = self.enclosing_loops(node)
        if loops:
            return loops[0]
        func = self.enclosing_function(node)
        if func is not None and self.evaluated_at_def(node, func):
            return None  # `def f(t=torch.zeros(2))`: built once, where the `def` runs, not per call
        return self.per_iteration_functions.get(func) if func is not None else self.bound_lambda_loop(node)

    def evaluated_at_def(self, node: cst.CSTNode, func: FunctionNode) -> bool:
        """`node` sits in `func`'s parameter defaults, annotations or decorators: Python
        evaluates it once, when the `def` statement runs, not on every call of `func`."""
        child = node
        for anc in self.ancestors(node):
            if anc is func:
                return child is not getattr(func, "body", None)
            child = anc
        return False

    def bound_lambda_loop(self, node: cst.CSTNode) -> Loop | None:
        """`mse2psnr = lambda x: -10 * torch.log(x) / torch.log(torch.tensor(10.0))` at the top
        level: its body runs once per call, so once per iteration of the loop (or per-iteration
        function) that calls it. Only a name bound once, called outside any lambda."""
        lam = next((a for a in self.ancestors(node) if isinstance(a, cst.Lambda)), None)
        assign = self.parent(lam) if lam is not None else None
        if not (isinstance(assign, cst.Assign) and assign.value is lam and len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)):
            return None
        name = assign.targets[0].target.value
        if len(self._defs.get(name, ())) != 1:
            return None
        for use in self.uses(name):
            call = self.parent(use)
            if isinstance(call, cst.Call) and call.func is use \
                    and not any(isinstance(a, cst.Lambda) for a in self.ancestors(call)):
                loop = self.iteration_loop(call)
                if loop is not None:
                    return loop
        return None

    def in_training(self, node: cst.CSTNode) -> bool:
        loop = self.iteration_loop(node)
        while loop is not None:
            if loop.is_training:
                return True
            loop = loop.parent
        return False

    def is_conditional(self, node: cst.CSTNode, loop: Loop) -> bool:
        """True if `node` runs only on some iterations (under an `if`/`try`/`match` case inside `loop`)."""
        for anc in self.ancestors(node):
            if anc is loop.node:
                return False
            if isinstance(anc, (cst.If, cst.Try, cst.IfExp, cst.ExceptHandler, cst.MatchCase)):
                return True
        return False

    @cached_property
    def per_iteration_functions(self) -> dict[FunctionNode, Loop]:
        """Functions that run once per iteration of some loop, and that loop.

        Reached from this unit's loops (calls, `forward`/`__getitem__` of the models and
        datasets it uses, `collate_fn=`), following calls into earlier cells and local
        modules (see `owner_of`), plus this unit's functions other units call per iteration.
        """
        result: dict[FunctionNode, Loop] = {}
        local: list[tuple[FunctionNode, Loop]] = []
        for call, loop in self._calls_in_loops:
            for func in self._callees(call):
                local.append((func, loop))
                self._call_sites.setdefault(func, []).append((self, call))
        steps = [l for l in self.loops if l.kind in ("train", "eval")]
        hot = steps[0] if steps else None
        # a model's `forward` runs once per batch: the batch loop, not the epoch loop around it
        # (the data side, `__getitem__` and `collate_fn`, runs on the host: left with the outer loop)
        batch = next((l for l in steps if not any(s.parent is l for s in steps)), None)
        if hot is not None:
            local.extend((func, batch if func.name.value == "forward" and batch is not None else hot)
                         for func in self._per_batch_functions())
        # Breadth first, nearest loop first: a helper called in a function's batch loop runs once
        # per batch, though that function is itself called once per epoch (torchvision's
        # `train_one_epoch` calling `metric_logger.update`). Local loops win over other units'.
        for seeds in (local[::-1], list(self._external.items())[::-1]):
            work = deque(seeds)
            while work:
                func, loop = work.popleft()
                if func in result:
                    continue
                result[func] = loop
                owner = self.owner_of(func)
                for call in owner.calls_in(func.body):
                    inner = owner.enclosing_loops(call)  # `evaluate`'s own batch loop, not the epoch loop calling it
                    for callee in owner._callees(call):
                        if owner is not self:
                            self._owners.setdefault(callee, owner.owner_of(callee))
                        self._call_sites.setdefault(callee, []).append((owner, call))
                        work.append((callee, inner[0] if inner else loop))
        return result

    def owner_of(self, node: cst.CSTNode) -> "Facts":
        """The facts of the unit that defines `node` (an earlier cell, a local module, or this)."""
        return self._owners.get(node, self)

    def call_per_iteration(self, func: FunctionNode, loop: Loop, sites: Sequence[tuple["Facts", cst.Call]]) -> bool:
        """Another unit's loop calls this unit's `func` once per iteration (at `sites`); True if new."""
        self.add_call_sites(func, sites)
        known = self._external.get(func)
        if known is not None and (known.kind == "train" or loop.kind != "train"):
            return False
        # a training loop wins over an evaluation or plain loop met first (public48 p02: cell 4's
        # test loop and cell 3's training loop both run an earlier cell's `forward`; which one is
        # met first is the order units are visited in, not a fact of the program)
        self._external[func] = loop
        self._forget_reach()
        return True

    def add_caller(self, unit: "Facts") -> None:
        """`unit` calls this local module's functions: what it stores on this module's objects
        (`manager.agent = Agent(...)`) may type a call in a loop here, so the loops are judged
        again (a kind only grows: a loop that trained still trains)."""
        if all(c is not unit for c in self.callers):
            self.callers.append(unit)
            _classify_loops(self, self._model_calls)
            self._forget_reach()

    def _forget_reach(self) -> None:
        """Drop what was derived from the per-iteration functions: they are computed again."""
        self.__dict__.pop("per_iteration_functions", None)
        self._call_sites.clear()
        self._invariant_params.clear()
        self._param_paths.clear()
        self._kind_cache.clear()
        self._path_cache.clear()

    def external_loop(self, func: FunctionNode) -> Loop | None:
        """The loop of another unit that calls this unit's `func` once per iteration, if any (also
        when a loop of this unit calls it too: `forward` run by `run.py`'s training loop and by
        the module's own test loop)."""
        return self._external.get(func)

    @property
    def externally_called(self) -> list[FunctionNode]:
        """This unit's functions that run per iteration only because another unit calls them."""
        return [f for f, loop in self.per_iteration_functions.items() if loop.facts is not self and self.owner_of(f) is self]

    def per_iteration_call_sites(self, func: FunctionNode) -> list[tuple["Facts", cst.Call]]:
        """The calls (and the units holding them) that run `func` once per loop iteration."""
        self.per_iteration_functions  # noqa: B018 - fills the call sites
        return self._call_sites.get(func, []) + self._foreign_sites.get(func, [])

    def add_call_sites(self, func: FunctionNode, sites: Sequence[tuple["Facts", cst.Call]]) -> None:
        """Calls of this unit's `func` seen elsewhere: its parameters take their kinds."""
        known = self._foreign_sites.setdefault(func, [])
        added = [s for s in sites if s not in known]
        if added:
            known.extend(added)
            self._kind_cache.clear()
            self._invariant_params.clear()
            self._param_paths.clear()

    def add_module_call_sites(self, func: FunctionNode, sites: Sequence[tuple["Facts", cst.Call]]) -> None:
        """`model(x)` calls of this unit's module class seen in another unit (an earlier cell, a
        script importing this module): `forward`'s parameters take their kinds (only that)."""
        known = self._module_sites.setdefault(func, [])
        added = [s for s in sites if s not in known]
        if added:
            known.extend(added)
            self._kind_cache.clear()

    @cached_property
    def _module_calls(self) -> dict[FunctionNode, tuple["Facts", list[tuple["Facts", cst.Call]]]]:
        """`model(X[i])` / `self.block(h)` calls in this unit, by the `forward` they run, with the
        facts of the unit defining it. `nn.Module.__call__` hands its arguments to `forward` as
        they are, so these calls type `forward`'s parameters as `obj.run(x)` types `run`'s.
        Only a receiver every binding of which builds one module class of the program
        (`model = Gated().to(d)`, `self.block = Block()`), that class defining `forward` once and
        no `__call__` of its own, or the first member of an `nn.Sequential(Block(), ...)` built so
        (the later members get what the earlier ones return: untyped here). A data-parallel wrapper
        (`nn.DataParallel(model)(x)`, `model = nn.DataParallel(model)`) stands for the module it wraps
        (`_wrapped_module`); an inherited `forward` is left untyped."""
        found: dict[FunctionNode, tuple[Facts, list[tuple[Facts, cst.Call]]]] = {}
        for node in self._order:
            if not isinstance(node, cst.Call):
                continue
            target = self._module_forward(node.func)
            if target is not None:
                owner, forward = target
                found.setdefault(forward, (owner, []))[1].append((self, node))
        return found

    def _module_forward(self, func: cst.BaseExpression) -> tuple["Facts", FunctionNode] | None:
        if isinstance(func, cst.Name) and func.value != "self":
            made = self.construction_of(func)
            values = [made] if made is not None else []
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            defs = self._defs.get("self." + func.attr.value, ())
            holder = self.enclosing_class(func)  # the class calling `self.block(...)` binds it itself
            if not defs or holder is None or any(d.value is None or d.function is None
                                                 or self.enclosing_class(d.function) is not holder for d in defs):
                return None
            values = [same_object(d.value) for d in defs]
        else:
            return None
        classes = set()
        for value in values:
            value = self._wrapped_module(value)
            if isinstance(value, cst.Call) and (self.qualified_name(value.func) or "") == "torch.nn.Sequential" \
                    and value.args and value.args[0].keyword is None and not value.args[0].star:
                value = same_object(value.args[0].value)  # its first member gets the call's argument
            if not isinstance(value, cst.Call):
                return None
            named = self.class_named(value.func)
            if named is None:
                return None
            classes.add(named)
        if len(classes) != 1:
            return None
        owner, cls = classes.pop()
        if owner._kind_of_class(cls) is not Kind.MODULE:
            return None
        defs = [m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value in ("forward", "__call__")]
        if len(defs) != 1 or defs[0].name.value != "forward":
            return None
        return owner, defs[0]

    def _wrapped_module(self, value: cst.BaseExpression | None, hops: int = 3) -> cst.BaseExpression | None:
        """The module a data-parallel wrapper was built around (`Gated()` of `nn.DataParallel(Gated())`,
        or of `model = nn.DataParallel(model)` after `model = Gated()`): the wrapper's `forward` hands
        `forward` of the module its arguments (split along the batch on several GPUs: chunks of the
        same kinds), so a call of the wrapper is a call site of the module's `forward`."""
        while hops and isinstance(value, cst.Call) and (self.qualified_name(value.func) or "") in _PARALLEL_WRAPPERS:
            hops -= 1
            arg = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == "module"), None)
            if arg is None and value.args and value.args[0].keyword is None and not value.args[0].star:
                arg = value.args[0].value
            arg = same_object(arg)
            value = self.construction_of(arg) if isinstance(arg, cst.Name) else arg
        return value

    def _constructions(self, cls_name: str) -> list[tuple["Facts", cst.Call]]:
        """`Ratings(columns)` / `data.Ratings(columns)` calls in this unit."""
        sites = []
        for use in self.uses(cls_name):
            node: cst.CSTNode | None = self.parent(use)
            if isinstance(node, cst.Attribute) and node.attr is use:
                use, node = node, self.parent(node)  # type: ignore[assignment]
            if isinstance(node, cst.Call) and node.func is use:
                sites.append((self, node))
        return sites

    def _per_batch_functions(self) -> Iterator[FunctionNode]:
        """What a training/evaluation loop runs per batch without naming it: `forward` and
        `__getitem__` of the classes it uses (here, in earlier cells, in local modules) and
        the DataLoader's `collate_fn`."""
        for func, (owner, sites) in self._module_calls.items():
            if owner is not self:
                owner.add_module_call_sites(func, sites)
        classes: list[tuple[Facts, cst.ClassDef]] = [(self, c) for c in self.classes.values()]
        instances = self._prior_instances() | self.later_instances()
        for name, (owner, cls) in self.prior.classes.items():
            if name not in self.classes and (self.uses(name) or name in instances):
                classes.append((owner, cls))
        bases = self._prior_bases(classes)
        classes.extend(self._prior_submodules([*classes, *((o, c) for o, c, _ in bases)]))
        if self.imports is not None:
            for local, target in self.aliases.items():
                found = self.imports.class_def(target)
                if found is not None:
                    classes.append(found)
                module = self.imports.module(target) if found is None else None
                if module is not None:
                    classes.extend((module, c) for n, c in module.classes.items() if self.uses(n))
        for owner, cls in classes:
            for stmt in cls.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                    owner.add_call_sites(stmt, self._constructions(cls.name.value))
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value in {"forward", "__getitem__", "__call__"}:
                    if owner is not self:
                        self._owners[stmt] = owner
                    yield stmt
        for owner, cls, overridden in bases:
            for stmt in cls.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value in {"forward", "__getitem__", "__call__"} \
                        and stmt.name.value not in overridden:
                    self._owners[stmt] = owner
                    yield stmt
        for node in self._order:
            if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == "collate_fn":
                func = self._function_at(node.value)
                if func is not None:
                    yield func

    def _prior_submodules(self, classes: "list[tuple[Facts, cst.ClassDef]]") -> "list[tuple[Facts, cst.ClassDef]]":
        """Classes of earlier cells that an earlier cell's class at hand builds in its `__init__` as
        `self.<attr> = Cls(...)` (up to three levels): yoshiso's mixture of experts (public48 p02)
        keeps `self.gate = noisy_top_k_gating(...)` and calls `self.gate(inp)` in `forward`, so the
        gate's `forward` (and the helper it calls) runs per batch though no later cell names it. In
        one file every class's `forward` is already taken; this gives a notebook the same reach. A
        class this unit defines is among its own classes already."""
        seen = {id(cls) for _, cls in classes}
        out: list[tuple[Facts, cst.ClassDef]] = []
        todo = [(owner, cls) for owner, cls in classes if owner is not self]
        for _ in range(3):
            found: list[tuple[Facts, cst.ClassDef]] = []
            for owner, cls in todo:
                for init in cls.body.body:
                    if not (isinstance(init, cst.FunctionDef) and init.name.value == "__init__"):
                        continue
                    for node in owner.walk(init.body, into_scopes=False):
                        if not (isinstance(node, cst.Assign) and isinstance(node.value, cst.Call)
                                and isinstance(node.value.func, cst.Name)
                                and any(isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name)
                                        and t.target.value.value == "self" for t in node.targets)):
                            continue
                        name = node.value.func.value
                        if name in self.classes or name not in self.prior.classes or name in owner._defs \
                                or owner._function_at(node.value.func) is not None:
                            continue  # this unit's own class, not a class, or a name the cell rebinds (a `def`)
                        hit = self.prior.classes[name]
                        if id(hit[1]) not in seen:
                            seen.add(id(hit[1]))
                            found.append(hit)
            out.extend(found)
            todo = found
            if not todo:
                break
        return out

    def _prior_bases(self, classes: "list[tuple[Facts, cst.ClassDef]]") \
            -> "list[tuple[Facts, cst.ClassDef, frozenset[str]]]":
        """Base classes of earlier cells that the classes at hand inherit from (a Name base, up to
        four levels), each with the methods a class below it defines: yoshiso's mixture of experts
        (public48 p02) defines `mixture_of_experts` and its `forward` in one cell, `class
        experts(mixture_of_experts)` with only `compose` in the next, and builds `experts(...)`
        in the training cell, so the loop runs the base's `forward` though no later cell names the
        base. A method a subclass overrides is not the one run (a `super().forward(x)` inside it
        is not followed: silent). A base this unit defines is among its own classes already."""
        def own(cls: cst.ClassDef) -> frozenset[str]:
            return frozenset(s.name.value for s in cls.body.body if isinstance(s, cst.FunctionDef))

        seen = {id(cls) for _, cls in classes}
        out: list[tuple[Facts, cst.ClassDef, frozenset[str]]] = []
        todo = [(owner, cls, own(cls)) for owner, cls in classes]
        for _ in range(4):
            found: list[tuple[Facts, cst.ClassDef, frozenset[str]]] = []
            for _owner, cls, below in todo:
                for base in cls.bases:
                    if not isinstance(base.value, cst.Name) or base.keyword is not None:
                        continue
                    name = base.value.value
                    if name in self.classes or name not in self.prior.classes:
                        continue
                    owner, base_cls = self.prior.classes[name]
                    if id(base_cls) not in seen:
                        seen.add(id(base_cls))
                        found.append((owner, base_cls, below))
            out.extend(found)
            todo = [(o, c, below | own(c)) for o, c, below in found]
            if not todo:
                break
        return out

    def later_instances(self) -> set[str]:
        """Classes of earlier cells whose instances a later cell hands to this unit's functions:
        `train_epoch(model, optimizer)` in the next cell, with `model = Seq2Seq(...).to(device)`
        built before this one. The instance's `forward` runs in the function's loops as if the
        function named the class (a notebook defines the step, then calls it)."""
        out: set[str] = set()
        for later in self.later:
            for node in later._order:
                if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
                        and node.func.value in self.functions and node.func.value not in later._defs):
                    continue
                for arg in node.args:
                    if not isinstance(arg.value, cst.Name) or arg.value.value in later._defs:
                        continue
                    earlier = later.prior.value(arg.value.value)
                    value = same_object(earlier[1]) if earlier is not None else None
                    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
                            and value.func.value in self.prior.classes and value.func.value not in self.classes:
                        out.add(value.func.value)
        return out

    def _prior_instances(self) -> set[str]:
        """Classes whose instances, built in an earlier cell (`model = TinyBert().to(device)`),
        this unit uses: their `forward` runs in this unit's loops as if it named the class."""
        out = set()
        for name in self._names_index:
            if name in self._defs:
                continue
            earlier = self.prior.value(name)
            owner, value = earlier if earlier is not None else (None, None)
            owner, value = _rebound_instance(owner, value)
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
                out.add(value.func.value)
                dataset = _loader_dataset(owner, value) if owner is not None else None
                if isinstance(dataset, cst.Name):  # `ds = Images(...)` then `dl = DataLoader(ds)`, in earlier cells
                    bound = owner.value_of(dataset) if owner is not None else None
                    dataset = bound if bound is not None else (self.prior.value(dataset.value) or (None, None))[1]
                if isinstance(dataset, cst.Call) and isinstance(dataset.func, cst.Name):
                    out.add(dataset.func.value)  # `dl = DataLoader(Images(...))`: a loop over `dl` runs `__getitem__`
        return out

    def _callees(self, call: cst.Call) -> list[FunctionNode]:
        func = call.func
        if isinstance(func, cst.Name):
            found = self._function_at(func)
            return [found] if found is not None else []
        if isinstance(func, cst.Attribute):
            foreign = self._function_at(func)
            if foreign is not None:
                return [foreign]
            name = func.attr.value
            if isinstance(func.value, cst.Name):
                imported = self._imported_method(func.value, name)
                if imported is not None:
                    return [imported]
            own = [f for key, f in self.functions.items() if key.endswith("." + name)]
            holder = self.enclosing_class(func)
            if own and holder is not None and isinstance(func.value, cst.Name) and func.value.value == "self" \
                    and self.classes.get(holder.name.value) is holder and f"{holder.name.value}.{name}" in self.functions:
                return self._self_method(holder, name)  # `self.forward(x)`: this class's, or a subclass's override
            if own and holder is not None and self._attribute_holds_other(func.value, holder):
                own = [f for key, f in self.functions.items()
                       if key.endswith("." + name) and not key.startswith(holder.name.value + ".")]
            if not own and isinstance(func.value, cst.Attribute):
                stored = self._stored_attribute_method(func.value, name)
                return [stored] if stored is not None else []
            if not own and holder is not None and isinstance(func.value, cst.Name) and func.value.value == "self":
                inherited = self._inherited_method(self, holder, name, 4)
                return [inherited] if inherited is not None else []
            return own
        if isinstance(func, cst.Subscript):
            return self.dispatch_table(func) or []
        return []

    def _self_method(self, holder: cst.ClassDef, name: str) -> list[FunctionNode]:
        """What `self.<name>(...)` in a method of `holder` (which defines `name`) may run: `holder`'s
        own method, or the override of a class of this unit derived from it (at any depth), never a
        namesake of an unrelated class."""
        found = [self.functions[f"{holder.name.value}.{name}"]]
        derived, frontier = {holder.name.value}, [holder.name.value]
        while frontier:
            base = frontier.pop()
            for cls_name, cls in self.classes.items():
                if cls_name not in derived and any(isinstance(b.value, cst.Name) and b.value.value == base
                                                   or isinstance(b.value, cst.Attribute) and b.value.attr.value == base
                                                   for b in cls.bases):
                    derived.add(cls_name)
                    frontier.append(cls_name)
                    method = self.functions.get(f"{cls_name}.{name}")
                    if method is not None and method not in found:
                        found.append(method)
        return found

    def dispatch_table(self, func: cst.Subscript) -> list[FunctionNode] | None:
        """The functions `model_func[self.model_name](...)` may run: `model_func` bound once in the
        calling function to a dict literal of this unit's functions or of methods of the class
        around (`{'TransE': self.TransE, ...}`), and only ever subscripted or tested with `in`
        there. None for any other subscripted callable."""
        table = func.value
        caller = self.enclosing_function(func)
        if not isinstance(table, cst.Name) or caller is None:
            return None
        defs = self._defs.get(table.value, ())
        if len(defs) != 1 or defs[0].function is not caller or not isinstance(defs[0].value, cst.Dict):
            return None
        for use in self.uses(table.value):
            parent = self.parent(use)
            if self.enclosing_function(use) is caller and not (
                    isinstance(parent, cst.AssignTarget)  # its one binding
                    or isinstance(parent, cst.Subscript) and isinstance(self.parent(parent), cst.Call)
                    or isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.In, cst.NotIn))):
                return None  # written, passed on or returned: the table may hold something else
        cls = next((a for a in self.ancestors(func) if isinstance(a, cst.ClassDef)), None)
        elements = defs[0].value.elements
        key = func.slice[0].slice if len(func.slice) == 1 else None
        if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):  # `table["TransE"](...)`: that entry
            elements = [e for e in elements if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                        and e.key.evaluated_value == key.value.evaluated_value]
        found = []
        for element in elements:
            value = element.value if isinstance(element, cst.DictElement) else None
            if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self" \
                    and cls is not None:
                target = self.functions.get(f"{cls.name.value}.{value.attr.value}")
            else:
                target = self.functions.get(value.value) if isinstance(value, cst.Name) else None
            if target is None:
                return None
            found.append(target)
        return found or None

    def _imported_method(self, receiver: cst.Name, name: str) -> FunctionNode | None:
        """`agent.update_parameters` where `agent = SAC(...)` and `SAC` is a class of a local
        module (`from sac import SAC`) or of an earlier cell: that class's method (its unit owns
        it). The object is made here, or, when this unit never binds the name, by an earlier
        cell's top-level `net = Net(...)` (a notebook builds the model, a later cell steps it)."""
        if receiver.value == "self":
            return None
        unit, value = self, self.construction_of(receiver)
        if value is None and receiver.value not in self._defs and not any(
                isinstance(a, (cst.FunctionDef, cst.Lambda)) and receiver.value in param_names(a)
                for a in self.ancestors(receiver)):  # a parameter holds what its callers pass, not the global
            earlier = self.prior.value(receiver.value)
            if earlier is not None:
                unit, value = earlier[0], same_object(earlier[1])
        if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
            return None
        if isinstance(value.func, cst.Name) and value.func.value in unit.classes:
            if unit is self:
                return None  # this unit's own class: `_method_of_instance` and the name match cover it
            return self._method_of(unit, unit.classes[value.func.value], name)
        found = unit._class_at(value.func)
        if found is None:
            return None
        return self._method_of(*found, name)

    def _method_of(self, owner: "Facts", cls: cst.ClassDef, name: str) -> FunctionNode | None:
        """`cls.name`, a method of another unit's class: that unit owns it."""
        method = owner.functions.get(f"{cls.name.value}.{name}")
        if method is not None:
            self._owners[method] = owner
        return method

    def _stored_attribute_method(self, receiver: cst.Attribute, name: str) -> FunctionNode | None:
        """`self.agent.get_action(state)` in a method of `K`, where `K` binds `self.agent` only in
        `__init__`, from a parameter (default `None`) or to `None`, and every value the program
        gives it — that parameter's argument in each `K(...)`, each `m.agent = ...` on an object
        `K(...)` made — is `None` or an object of one class `C` of another unit (a local module the
        program imports): `C.get_action`, whatever unit holds the loop."""
        cls = next((a for a in self.ancestors(receiver) if isinstance(a, cst.ClassDef)), None)
        if cls is None or not (isinstance(receiver.value, cst.Name) and receiver.value.value == "self"):
            return None
        attr = receiver.attr.value
        init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
        params = [p.name.value for p in init.params.params][1:] if init is not None else []
        param = None
        for node in self.walk(cls.body):
            if not isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                continue
            for target in ([t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]):
                if not any(isinstance(t, cst.Attribute) and t.attr.value == attr for t in self.walk(target)):
                    continue
                value = node.value
                if not (isinstance(node, cst.Assign) and self.enclosing_function(node) is init and is_self_attr_store(target, attr)):
                    return None  # bound elsewhere, in a tuple, or augmented: not one known value
                if isinstance(value, cst.Name) and value.value in params and param in (None, value.value):
                    param = value.value
                elif not (isinstance(value, cst.Name) and value.value == "None"):
                    return None
        if param is None or param in self.names_written(init.body):  # type: ignore[union-attr]
            return None
        index = params.index(param)
        found: set[tuple[int, int]] = set()
        holder: tuple[Facts, cst.ClassDef] | None = None
        for unit in [self, *self.callers]:
            for node in unit._order:
                value: cst.BaseExpression | None = None
                if isinstance(node, cst.Call) and unit._names_class(node.func, cls):
                    arg = _argument(node, index, param)
                    if arg is _UNREADABLE:
                        return None
                    value = arg  # type: ignore[assignment]
                elif isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Attribute) \
                        and node.target.attr.value == attr and unit.enclosing_class(node) is not cls:
                    owner_obj = node.target.value
                    made = unit.construction_of(owner_obj) if isinstance(owner_obj, cst.Name) else None
                    if made is None or not unit._names_class(made.func, cls):
                        return None  # `x.agent = ...` on an object not known to be a `K`
                    value = unit.parent(node).value  # type: ignore[union-attr]
                else:
                    continue
                if value is None or isinstance(value, cst.Name) and value.value == "None":
                    continue
                made = same_object(value) if isinstance(value, cst.Call) else \
                    unit.construction_of(value) if isinstance(value, cst.Name) else None
                target = unit._class_at(made.func) if isinstance(made, cst.Call) else None
                if target is None:
                    return None
                holder = target
                found.add((id(target[0]), id(target[1])))
        if len(found) != 1 or holder is None:
            return None
        return self._method_of(*holder, name)

    def _inherited_method(self, unit: "Facts", cls: cst.ClassDef, name: str, depth: int) -> FunctionNode | None:
        """`self.backward_pass(loss)` in a method of `cls` that does not define it: the method of
        the first base class, in order, that does, when that base is a class of another unit (a
        local module the program imports, or an earlier cell); its unit owns it."""
        if depth <= 0:
            return None
        for base in cls.bases:
            found = unit._class_at(base.value)
            if found is None:
                continue
            owner, base_cls = found
            method = owner.functions.get(f"{base_cls.name.value}.{name}")
            if method is not None:
                self._owners[method] = owner
                return method
            deeper = self._inherited_method(owner, base_cls, name, depth - 1)
            if deeper is not None:
                return deeper
        return None

    def _attribute_holds_other(self, receiver: cst.BaseExpression, cls: cst.ClassDef) -> bool:
        """`self.ncf.train()` in a method of `cls`, where every binding of `self.ncf` in `cls` is
        an object made by another known class (`NCF(...)`, `torch.nn.Linear(...).to(d)`) or that
        same object again (`self.ncf = self.ncf.eval()`): the call is not `cls`'s own `train`,
        whatever the name says. False when any binding is unknown (a parameter, a factory)."""
        if not (isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name)
                and receiver.value.value == "self"):
            return False
        attr, other = receiver.attr.value, False
        for node in self.walk(cls.body):
            if not isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                continue
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            if not any(isinstance(t, cst.Attribute) and t.attr.value == attr
                       for target in targets for t in self.walk(target)):
                continue
            if not isinstance(node, cst.Assign) or not all(is_self_attr_store(t, attr) for t in targets):
                return False  # augmented, unpacked or on another object: not one known value
            value = same_object(node.value)
            if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) \
                    and value.value.value == "self" and value.attr.value == attr:
                continue  # `self.ncf = self.ncf.eval()`: the same object
            if not isinstance(value, cst.Call) or self._names_class(value.func, cls):
                return False
            made = self.classes.get(value.func.value) if isinstance(value.func, cst.Name) \
                and value.func.value not in self._defs else None
            if made is None and self._class_at(value.func) is None \
                    and not (self.qualified_name(value.func) or "").startswith("torch."):
                return False  # a function's result: it may be an object of `cls`
            other = True
        return other

    def _names_class(self, expr: cst.BaseExpression, cls: cst.ClassDef) -> bool:
        """`expr` (a call's function) is `cls`: this unit's own class, or one an import names."""
        if isinstance(expr, cst.Name) and self.classes.get(expr.value) is cls and expr.value not in self._defs:
            return True
        found = self._class_at(expr)
        return found is not None and found[1] is cls

    def enclosing_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        return next((a for a in self.ancestors(node) if isinstance(a, cst.ClassDef)), None)

    def construction_of(self, receiver: cst.Name, hops: int = 4) -> cst.Call | None:
        """The call that made the object `receiver` holds where it is read: `Net(...)` of
        `net = Net(...)`, of `net = Net().to(device)`, and through rebindings to the same object
        moved or switched (`if args.cuda: net = net.cuda()`, which reads the earlier binding)."""
        d = self._reaching_def(receiver)
        value = None if d is None or d.order >= self.order(receiver) or d.augmented else d.value or d.element
        value = same_object(value)
        if isinstance(value, cst.Name) and value.value == receiver.value and hops:
            return self.construction_of(value, hops - 1)
        return value if isinstance(value, cst.Call) else None

    def _function_at(self, expr: cst.BaseExpression) -> FunctionNode | None:
        """The function `expr` names: this unit's, an earlier cell's, or a local module's."""
        if isinstance(expr, cst.Name):
            if expr.value in self.functions:
                return self.functions[expr.value]
            if expr.value not in self._defs and expr.value in self.prior.functions:
                owner, func = self.prior.functions[expr.value]
                self._owners[func] = owner
                return func
        if self.imports is None or not isinstance(expr, (cst.Name, cst.Attribute)):
            return None
        qualified = self.qualified_name(expr)
        found = self.imports.function(qualified) if qualified else None
        if found is None:
            return None
        owner, func = found
        self._owners[func] = owner
        return func

    # --- def-use and invariance ----------------------------------------------------------

    def varying_names(self, node: cst.CSTNode, loop: Loop | None = None) -> frozenset[str]:
        """Names whose value may change between iterations of `loop` as seen from `node`."""
        loop = loop or self.iteration_loop(node)
        if loop is None:
            return frozenset()
        names = set(loop.writes) | self.mutated_in_loop(loop)
        func = self.enclosing_function(node)
        if func is not None and func is not loop.function:
            names |= (param_names(func) - self.invariant_params(func)) | self.names_written(func.body)
            if "self" in names and not self.class_mutates_self(func):
                names.discard("self")
        # `torch.zeros_like(h).index_add_(...)` is noted as a change of `torch` (the root of its
        # receiver): a module the unit imports and never binds is no object the loop changes.
        return frozenset(n for n in names if n in self._defs or not (
            n in self._modules or n in self.prior.aliases or isinstance(self.namespace.get(n), types.ModuleType)))

    def mutated_in_loop(self, loop: Loop, except_call: cst.Call | None = None,
                        attribute_owners: bool = True) -> frozenset[str]:
        """Names whose object a loop iteration may change without rebinding them: receivers of
        methods not known to only read (`metric.add_batch(...)`, `buf.push(x)`), what such an
        object was built from (`sched.step()` changes the optimizer it wraps), arguments of
        calls that may change them, and what this unit's functions called from the loop change.

        With `attribute_owners=False`, an attribute passed to a function this analysis cannot see
        (`loss(out, n=opt.n_support)`, imported) does not count as changing its owner when this
        unit never binds, stores into or calls a method of that attribute (`_plain_attribute`):
        the callee gets the attribute's value (an option), not `opt`. A visible function that
        changes its parameter keeps the owner. For graph flow only (eval-without-no-grad); loop
        invariance, which guards rewrites, keeps the owner (the value may be a list the callee changes)."""
        if loop.facts is not self:  # a helper's unit asking about its caller's loop
            return loop.facts.mutated_in_loop(loop, except_call, attribute_owners)
        key = (loop, attribute_owners)
        cached = self._mutated_cache.get(key) if except_call is None else None
        if cached is not None:
            return cached
        result = frozenset(self._collect_mutations(loop, except_call, attribute_owners, None))
        if except_call is None:
            self._mutated_cache[key] = result
        return result

    def path_changes(self, loop: Loop) -> Mapping[str, frozenset[attribute_paths.Path]]:
        """Names the loop changes only through attribute paths (`args.global_step += 1`, the
        `.grad`s a `backward()` writes), with those paths; every other cause of change, and an
        object not private to its name (`attribute_paths.private_object`), keeps the whole name
        in `varying_names` as before."""
        if loop.facts is not self:
            return loop.facts.path_changes(loop)
        cached = self._path_cache.get(loop)
        if cached is not None:
            return cached
        partial: dict[str, set[attribute_paths.Path]] = {}
        whole = self._collect_mutations(loop, None, True, partial) | attribute_paths.rebinding_writes(self, loop)
        result = {n: frozenset(p) for n, p in partial.items()
                  if n not in whole and attribute_paths.private_object(self, n, loop)}
        self._path_cache[loop] = result
        return result

    def param_paths(self, func: FunctionNode) -> Mapping[str, frozenset[attribute_paths.Path]]:
        """`attribute_paths.param_paths`, cached (and guarded against recursion)."""
        if func not in self._param_paths:
            self._param_paths[func] = {}
            self._param_paths[func] = attribute_paths.param_paths(self, func)
        return self._param_paths[func]

    def mutated_in_loop_skipping(self, loop: Loop, skipped: frozenset[cst.Call]) -> frozenset[str]:
        """`mutated_in_loop(loop, attribute_owners=False)` without what the calls in `skipped` change
        (neither their receivers and arguments nor what the functions they run write). For graph
        flow only: eval-without-no-grad skips calls proved to keep nothing but host values
        (`rules/_host_logging.py`); loop invariance keeps every change."""
        if loop.facts is not self:
            return loop.facts.mutated_in_loop_skipping(loop, skipped)
        if not skipped:
            return self.mutated_in_loop(loop, attribute_owners=False)
        return frozenset(self._collect_mutations(loop, None, False, None, skipped))

    def _collect_mutations(self, loop: Loop, except_call: cst.Call | None, attribute_owners: bool,
                           partial: dict[str, set[attribute_paths.Path]] | None,
                           skipped: frozenset[cst.Call] = frozenset()) -> set[str]:
        """`mutated_in_loop`; with `partial`, changes of attribute paths go there, not in the result."""
        out: set[str] = set()
        rebound: set[str] = set()  # names a called function (of this unit or an earlier cell) binds anew
        seen: set[FunctionNode] = set()
        work: list[cst.CSTNode] = [loop.node.body]
        if isinstance(loop.node, cst.While):
            work.append(loop.node.test)
        while work:
            for call in self.calls_in(work.pop()):
                if call in skipped:
                    continue
                for func in self._local_callees(call):
                    if func not in seen:
                        seen.add(func)
                        written = self.names_written(func.body) - _own_locals(func)
                        out |= written
                        rebound |= written
                        work.append(func.body)
                earlier = self._earlier_cell_writes(call, seen)
                out |= earlier
                rebound |= earlier
                if call is not except_call:
                    self._note_mutations(call, out, attribute_owners, partial)
        out |= self._changed_through_aliases(loop, out, partial)
        # A size, dtype or device read off a tensor is an immutable value: what the loop does to
        # other objects (a backward through what was built from it, a call it is handed to) never
        # changes it; only a rebinding does, and the loop's own rebindings are `loop.writes`.
        frozen = {n for n in out - rebound if self._metadata_only(n, loop.function)}
        if partial is not None:
            for n in frozen:
                partial.pop(n, None)
        return out - frozen

    def _metadata_only(self, name: str, function: FunctionNode | None) -> bool:
        """Every binding of `name` in `function`'s scope (and it has one) reads a size, a dtype or a
        device off a tensor or array: `h, w = img.shape[2:]`, `n = x.size(0)`, `d = t.device`,
        `c = x.shape[1]`. Such a value is an int, a `torch.Size`/tuple of ints, a dtype or a device:
        immutable, sharing no memory with the tensor it was read from."""
        defs = [d for d in self._defs.get(name, ()) if d.function is function]
        if not defs or name in self.aliases or name in self.functions:
            return False
        for d in defs:
            if d.augmented:
                return False
            value = self._shared_value(d, function)
            if value is None or not self._metadata_read(value):
                return False
        return True

    def _metadata_read(self, expr: cst.BaseExpression) -> bool:
        """`x.shape`, `x.shape[2:]`, `x.size(0)`, `x.size()[1]`, `x.dim()`, `x.numel()`, `x.dtype`,
        `x.device`, `x.ndim` where `x` is a tensor or an array (by its kind): an immutable value."""
        while isinstance(expr, cst.Subscript):
            expr = expr.value
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and not any(a.star for a in expr.args) \
                and expr.func.attr.value in _METADATA_METHODS:
            name, receiver = expr.func.attr.value, expr.func.value
            kind = self.kind(receiver)
            return kind is Kind.TENSOR or kind is Kind.UNKNOWN and name in _METADATA_NAMES \
                and not self._program_binds_attribute(name)
        if isinstance(expr, cst.Attribute) and expr.attr.value in _METADATA_ATTRIBUTES:
            name, kind = expr.attr.value, self.kind(expr.value)
            if kind is Kind.UNKNOWN:
                # `img = to_tensor(pic).cuda()` with torchvision out of sight: a library object's
                # `shape` / `dtype` / `device` / `ndim` (torch, NumPy, pandas, PIL alike) is immutable;
                # only a class of the program could bind a mutable one under that name.
                return name in _METADATA_NAMES and name != "size" and not self._program_binds_attribute(name)
            return kind is Kind.TENSOR and name != "size" or kind is Kind.NDARRAY
        return False

    def int_size(self, expr: cst.BaseExpression) -> bool:
        """`x.shape[0]`, `x.size(0)`, `x.size()[1]`, `x.numel()`, `x.dim()`, `x.ndim` on a tensor or
        an array, or a name every binding of which (in its scope) is one: an int read off a tensor,
        never data. Legacy constructors given such ints allocate by size (`torch.FloatTensor(B, 2)`
        with `B = imgs.shape[0]`) instead of converting data."""
        if isinstance(expr, cst.Name):
            function = self.enclosing_function(expr)
            defs = [d for d in self._defs.get(expr.value, ()) if d.function is function]
            if not defs or expr.value in self.aliases or expr.value in self.functions:
                return False
            for d in defs:
                value = None if d.augmented else self._shared_value(d, function)
                if value is None or isinstance(value, cst.Name) or not self.int_size(value):
                    return False
            return True
        if isinstance(expr, cst.Subscript):  # `x.shape[0]`, `x.size()[1]`: one index, not a slice
            if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
                return False
            inner = expr.value
            shape = isinstance(inner, cst.Attribute) and inner.attr.value == "shape" or isinstance(inner, cst.Call) \
                and isinstance(inner.func, cst.Attribute) and inner.func.attr.value == "size" and not inner.args
            return shape and self._metadata_read(inner)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            name = expr.func.attr.value
            if name == "size" and len(expr.args) != 1 or name not in ("size", "numel", "dim", "nelement", "ndimension"):
                return False
            return self._metadata_read(expr)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "ndim":
            return self._metadata_read(expr)
        return False

    def _program_binds_attribute(self, name: str) -> bool:
        """This unit or an earlier cell stores an attribute `name` (`self.shape = [...]`), binds it in
        a class body or defines a function or method of that name."""
        cached = self._binds_attribute_cache.get(name)
        if cached is None:
            cached = False
            for unit in (*self.prior.cells, self):
                for node in unit.walk(unit.module):
                    if isinstance(node, cst.FunctionDef) and node.name.value == name \
                            or isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) \
                            and (isinstance(node.target, cst.Attribute) and node.target.attr.value == name
                                 or isinstance(node.target, cst.Name) and node.target.value == name
                                 and isinstance(unit.enclosing_class(node), cst.ClassDef)):
                        cached = True
                        break
                if cached:
                    break
            self._binds_attribute_cache[name] = cached
        return cached

    def _earlier_cell_writes(self, call: cst.Call, seen: set[FunctionNode], depth: int = 3) -> set[str]:
        """The notebook globals an earlier cell's function called here changes (`CONFIG["t"] = ...`,
        `global POWER; POWER += 0.5`, a method on a global), and those its own earlier-cell callees
        change: the cells share one namespace, so the loop changes them as if it wrote them
        itself (red team 32b: a schedule function of the first cell annealing what a NumPy
        helper of that cell reads). Local modules' functions change their own module's names."""
        func = call.func
        if not isinstance(func, cst.Name) or func.value in self.functions or func.value in self._defs:
            return set()
        name = self._earlier_function_name(func.value)
        if name is None:
            return set()
        owner, found = self.prior.functions[name]
        if found in seen:
            return set()
        seen.add(found)
        changed: set[str] = set(owner.names_written(found.body) - _own_locals(found))
        for inner in owner.calls_in(found.body):
            owner._note_mutations(inner, changed)
            if depth > 0:
                changed |= owner._earlier_cell_writes(inner, seen, depth - 1) | self._earlier_cell_writes(inner, seen, depth - 1)
        return changed - param_names(found) - _own_locals(found)

    def _earlier_function_name(self, name: str, depth: int = 3) -> str | None:
        """`name` itself when an earlier cell defines that function, or the function an earlier
        cell bound `name` to (`sched = anneal`, `step = functools.partial(anneal, 0.5)`)."""
        if name in self.prior.functions:
            return name
        earlier = self.prior.value(name)
        if earlier is None or depth == 0:
            return None
        owner, value = earlier
        if isinstance(value, cst.Call) and (owner.qualified_name(value.func) or "") == "functools.partial" and value.args:
            value = value.args[0].value
        return self._earlier_function_name(value.value, depth - 1) if isinstance(value, cst.Name) else None

    def _changed_through_aliases(self, loop: Loop, handed: set[str],
                                 partial: dict[str, set[attribute_paths.Path]] | None = None) -> set[str]:
        """Names changed in place in the loop, and those whose memory they may share: after
        `b = torch.as_tensor(arr)` (or `arr[0]`, `arr.T`, `for row in arr`), `b += 1` changes
        `arr` although the loop never names it; and the other way, after `F = feats.numpy()`,
        `feats.sub_(m)` (or `normalise_(feats)`: the `handed` names, given to calls) changes `F`."""
        changed: set[str] = set()
        for node in self.walk(loop.node.body):
            path = attribute_paths.store_path(node) if partial is not None else None
            for n in mutated_names(node):
                if path is not None and path[0] == n:
                    partial.setdefault(n, set()).add(path[1])  # type: ignore[union-attr]
                else:
                    changed.add(n)
            changed |= self.written_through_call(node)
            changed |= self._changed_by_helper(node)
        views = self._views_of(loop.function)
        # What shares an object with a changed one (an alias, a view, the list a loop target comes
        # from) changes as a whole, or only in its `.grad`s when that is all that changed.
        # A container reached because an object it holds changed (`result = (val, model)`, `val`
        # appended to) does not change its other elements: from it, only views lead down.
        seen = set(changed)
        work = [(n, True, False) for n in changed] + [(n, paths != {attribute_paths.GRAD}, False)
                                                      for n, paths in (partial or {}).items()]
        stored = self._stored_into(loop.function)
        fresh = {n for n in changed | handed if self._fresh_each_iteration(n, loop)}
        while work:
            name, whole, up = work.pop()
            reached: set[str] = set()
            links = self._links_in_loop(name, loop) if name in fresh and not up else None
            for d in self._defs.get(name, ()):
                value = self._shared_value(d, loop.function)
                if value is not None and (links is None or self.contains(loop.node.body, value)):
                    reached |= self.shared_roots(value) if up else self._held_roots(value)
            down = set(reached) | (set() if up else stored.get(name, set()))
            reached = down | views.get(name, set())
            if links is not None:
                reached &= links | self._defs_reading(name, loop)
            for other in reached - seen:
                if whole:
                    seen.add(other)
                    work.append((other, True, other not in down))
                elif attribute_paths.GRAD not in partial.setdefault(other, set()):  # type: ignore[union-attr]
                    partial[other].add(attribute_paths.GRAD)  # type: ignore[index]
                    work.append((other, False, other not in down))
        work = list(handed - seen)
        while work:
            name = work.pop()
            reach = views.get(name, set())
            if name in fresh:
                reach = reach & (self._links_in_loop(name, loop) | self._defs_reading(name, loop))
            for view in reach - seen - handed:
                seen.add(view)
                work.append(view)
        return seen | self._earlier_views_changed(loop, seen | handed)

    def _earlier_views_changed(self, loop: Loop, changed: set[str]) -> set[str]:
        """Names the loop reads that an earlier cell bound to a view of (or an alias for) an object
        the loop changes: `first_w = model[0].weight.detach().cpu().numpy()` in the first cell
        (on the CPU the parameter's own memory), `opt.step()` here (red team 32b). The views
        of this unit are followed above; an earlier cell's bindings are only in its own facts."""
        found: set[str] = set()
        for name in {n.value for n in self.walk(loop.node.body) if isinstance(n, cst.Name)} - set(self._defs) - changed:
            if self._earlier_value_shares(name, changed, 3):
                found.add(name)
        return found

    def _earlier_value_shares(self, name: str, changed: set[str], depth: int) -> bool:
        earlier = self.prior.value(name)
        if earlier is None or depth == 0:
            return False
        owner, value = earlier
        roots = set(owner._held_roots(value)) - {name}
        return bool(roots & changed) or any(self._earlier_value_shares(r, changed, depth - 1) for r in roots)

    def _fresh_each_iteration(self, name: str, loop: Loop) -> bool:
        """Every iteration of `loop` first binds `name` (a top-level statement of its body, before
        any other mention of the name in the loop) to new memory (`c = torch.tensor(...).to(device)`):
        a change of `name` in the loop changes that iteration's object, never what an earlier
        binding of the name was stored into or viewed by (`centers.append(c)` in another loop).
        A reaching-definition fact, per loop: links made outside the loop are not followed."""
        if self._declared_global(name):
            return False
        bindings = [n for n in self.walk(loop.node) if isinstance(n, cst.Name) and n.value == name
                    and name in self.names_written(self.statement_of(n)) and _assigned_name(self, n)]
        mentions = [n for n in self.walk(loop.node) if isinstance(n, cst.Name) and n.value == name]
        if len(bindings) != 1:
            return False
        target = bindings[0]
        assign = self.parent(self.parent(target))
        statement = self.parent(assign)
        inner = next((a for a in self.ancestors(statement) if isinstance(a, cst.For)), None)
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1 or not self._new_memory(assign.value) \
                or inner is None or not self.contains(loop.node, inner) or statement not in block_statements(inner.body):
            return False  # (bound once, to new memory, directly in the body of a `for` in the loop)
        start = self.order(target)
        return all(n is target or self.order(n) > start and self.contains(inner.body, n)
                   and not self.contains(assign.value, n) for n in mentions)

    def _declared_global(self, name: str) -> bool:
        return any(isinstance(n, (cst.Global, cst.Nonlocal)) and any(x.name.value == name for x in n.names)
                   for n in self.walk(self.module))

    def _new_memory(self, value: cst.BaseExpression, depth: int = 0) -> bool:
        """`value` is memory no other name holds: a fresh torch/NumPy function's result (no
        `out=`), or a conversion / move of one (`.to(device)`, `.float()`: the object or a copy)."""
        if depth > 6 or not isinstance(value, cst.Call):
            return False
        if isinstance(value.func, cst.Attribute) and value.func.attr.value in _SAME_OR_COPY_METHODS \
                and isinstance(value.func.value, cst.Call):
            return self._new_memory(value.func.value, depth + 1)
        qualified = self.qualified_name(value.func) or ""
        return qualified.startswith(("torch.", "numpy.")) and fresh_call(qualified, no_out(value))

    def _links_in_loop(self, name: str, loop: Loop) -> set[str]:
        """Containers the loop body itself stores `name` into (`keep.append(c)` after `c = ...`)."""
        return {container for container, sources in held.stored_into(self, loop.function, loop.node).items()
                if name in sources}

    def _defs_reading(self, name: str, loop: Loop) -> set[str]:
        """Names bound inside the loop from an expression that reads `name` (possible views)."""
        out: set[str] = set()
        for other, defs in self._defs.items():
            for d in defs:
                value = self._shared_value(d, loop.function)
                if value is not None and self.contains(loop.node, value) and name in self.names_read(value):
                    out.add(other)
        return out

    def _held_roots(self, value: cst.BaseExpression) -> frozenset[str]:
        """`shared_roots`, and the objects a container, record or iterator holds: after
        `buffers = {"x": x}`, `buffers["x"] += 1` changes the array `x` names (`held.held_roots`)."""
        return held.held_roots(self, value)

    def written_through_call(self, node: cst.CSTNode) -> frozenset[str]:
        """Names changed in place through a call's result that shares their memory:
        `torch.split(b, 2)[0].mul_(2)`, `from_dlpack(b).add_(1)`, `torch.frombuffer(b.numpy())[0] = 1`
        (`mutated_names` stops at the call and names its module)."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and is_inplace_method(node.func.attr.value):
            target: cst.BaseExpression = node.func.value
        elif isinstance(node, cst.AugAssign) or isinstance(node, cst.AssignTarget) \
                and isinstance(node.target, (cst.Subscript, cst.Attribute)):
            target = node.target
        else:
            return frozenset()
        probe = target
        while isinstance(probe, (cst.Attribute, cst.Subscript)):
            probe = probe.value
        return self.shared_roots(target) if isinstance(probe, cst.Call) else frozenset()

    def _shared_value(self, d: _Def, function: FunctionNode | None) -> cst.BaseExpression | None:
        """What a plain definition of `function`'s scope binds its name to (a for-loop's iterable)."""
        if d.augmented or d.function is not function:
            return None
        if d.loop is not None and isinstance(d.loop.node, cst.For):
            return None if self._collated_batches(d.loop.node.iter) else d.loop.node.iter
        if d.value is None and d.element is None and d.unpacked is not None:
            return d.unpacked[0]  # `a, norm = helper(x)`: each name may hold what the call returns
        return d.value if d.value is not None else d.element if d.element is not None else d.container

    def _collated_batches(self, iterable: cst.BaseExpression) -> bool:
        """`for x, y in loader` (or `enumerate(loader)`) over a `torch.utils.data.DataLoader` built
        with the default `collate_fn` and batching on (`batch_size` not None): each batch is new
        memory (`default_collate` stacks tensors and arrays, builds tensors of numbers, keeps only
        strings as they are), so a change to the batch does not reach the dataset or the loader."""
        if isinstance(iterable, cst.Call) and (self.qualified_name(iterable.func) or "") == "builtins.enumerate" \
                and iterable.args and not iterable.args[0].star:
            iterable = iterable.args[0].value
        made = self.value_of(iterable) if isinstance(iterable, cst.Name) else iterable
        if not isinstance(made, cst.Call) or (self.qualified_name(made.func) or "") not in _TORCH_LOADERS:
            return False
        for arg in made.args:
            if arg.keyword is not None and arg.keyword.value == "collate_fn" and not arg.star \
                    and self._fresh_collate(arg.value):
                continue  # a collate of this unit whose every batch is built anew
            if arg.star or arg.keyword is not None and (arg.keyword.value == "collate_fn" or arg.keyword.value == "batch_size"
                                                        and isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                return False
        positional = [a for a in made.args if a.keyword is None]
        return not (len(positional) > 1 and isinstance(positional[1].value, cst.Name) and positional[1].value.value == "None") \
            and len(positional) <= 4  # (`collate_fn` is the 6th positional parameter)

    def _fresh_collate(self, collate: cst.BaseExpression) -> bool:
        """`collate_fn=collate_batch` (a function of this unit) or `collate_fn=collator` (an
        instance of a class of this unit with `__call__`, the HF data-collator shape) whose one
        `return`, its last statement, hands back only tensors it allocates: `torch.tensor(...)`,
        `torch.stack`/`cat`, `pad_sequence` (or names bound to one of those by the last write
        before the return), alone or in a tuple or a dict literal. Such a batch is new memory like
        `default_collate`'s. `tuple(zip(*batch))`, `torch.as_tensor`, `from_numpy` share memory
        with the samples: not fresh."""
        func: FunctionNode | None = None
        if isinstance(collate, cst.Name):
            func = self.functions.get(collate.value)
            made = self.value_of(collate) if func is None else None
            if isinstance(made, cst.Call) and isinstance(made.func, cst.Name):
                func = self.functions.get(made.func.value + ".__call__")
        elif isinstance(collate, cst.Call) and isinstance(collate.func, cst.Name):
            func = self.functions.get(collate.func.value + ".__call__")
        if not isinstance(func, cst.FunctionDef) or not isinstance(func.body, cst.IndentedBlock) or not func.body.body:
            return False
        body = list(func.body.body)
        last = body[-1]
        returns = [n for n in self.walk(func.body) if isinstance(n, cst.Return)]
        if len(returns) != 1 or not isinstance(last, cst.SimpleStatementLine) or last.body[0] is not returns[0] \
                or returns[0].value is None or any(isinstance(n, (cst.Yield, cst.Lambda)) for n in self.walk(func.body)):
            return False
        value = returns[0].value
        parts: list[cst.BaseExpression]
        if isinstance(value, cst.Tuple):
            parts = [e.value for e in value.elements]
        elif isinstance(value, cst.Dict):
            parts = [e.value for e in value.elements if isinstance(e, cst.DictElement)]
            if len(parts) != len(value.elements):
                return False  # a `**other` entry
        else:
            parts = [value]
        return bool(parts) and all(self._allocated(p, body[:-1]) for p in parts)

    def _allocated(self, expr: cst.BaseExpression, before: list[cst.BaseStatement]) -> bool:
        """`expr` is a tensor a call allocates (`_fresh_collate`), or a name whose last write among
        the top-level statements `before` is `name = <such a call>`."""
        if isinstance(expr, cst.Name):
            for stmt in reversed(before):
                if expr.value not in self.names_written(stmt):
                    continue
                if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                        and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1
                        and isinstance(stmt.body[0].targets[0].target, cst.Name)):
                    return False
                return self._allocated(stmt.body[0].value, [])
            return False
        return isinstance(expr, cst.Call) and (self.qualified_name(expr.func) or "") in _ALLOCATING_CALLS

    def _views_of(self, function: FunctionNode | None) -> dict[str, set[str]]:
        """source name -> the names of `function`'s scope bound to a tensor or array sharing its memory
        (`F = feats.numpy()`, `row = table[0]`, `w = layer.weight`). A bare attribute or name counts
        only when it is a tensor or an array (`n = model.n_classes` is a copy of a number)."""
        if function in self._views_cache:
            return self._views_cache[function]
        out: dict[str, set[str]] = self._views_cache.setdefault(function, {})
        stored = self._stored_into(function)
        holders = set(stored)  # names bound to a container or record that holds a view of another
        for name, defs in self._defs.items():
            for d in defs:
                value = self._shared_value(d, function)
                if value is not None and not isinstance(value, (cst.Name, cst.Attribute)) \
                        and (held.held_roots(self, value) - self.shared_roots(value) - {name}
                             or self._outside_call(value) and held.held_roots(self, value) - {name}):
                    holders.add(name)  # (what a call outside torch / NumPy returns may hold its arguments)
        for name, defs in self._defs.items():
            for d in defs:
                value = self._shared_value(d, function)
                if value is None:
                    continue
                if isinstance(value, (cst.Name, cst.Attribute)) and self.kind(value) not in (Kind.TENSOR, Kind.NDARRAY) \
                        and not (d.loop is None and self._container_alias(name, value, function)) \
                        and root_name(value) not in holders and not _module_tensor(value) \
                        and not held.held_roots(self, value) - self._attribute_owner_roots(value) \
                        and not self._roots_out_of_sight(value) \
                        and not (d.loop is None and self._shared_field(value)):
                    continue
                for source in (self._view_sources(value) | held.held_roots(self, value)) - {name}:
                    out.setdefault(source, set()).add(name)
        for container, sources in stored.items():
            for source in sources:
                out.setdefault(source, set()).add(container)
        unpacked: dict[int, dict[int, str]] = {}  # names bound from one call's returned tuple, by position
        calls: dict[int, tuple[cst.Call, int]] = {}
        for name, defs in self._defs.items():
            for d in defs:
                if d.unpacked is not None and d.function is function:
                    call, i, n = d.unpacked
                    unpacked.setdefault(id(call), {})[i] = name
                    calls[id(call)] = (call, n)
        for key, names in unpacked.items():
            if len(names) > 1:
                for i, j in held.unpacked_links(self, *calls[key]):
                    if i in names and j in names:
                        out.setdefault(names[i], set()).add(names[j])
        return out

    def _shared_field(self, value: cst.BaseExpression) -> bool:
        """`ema = state.ema`, `buf = self.buf`: an attribute of unknown kind may be a mutable object
        (an array, a tensor, a list, a program object) its owner shares with `ema`, not a copied
        number, unless every store of that field puts an immutable value there (`field_values`).
        (Asked for assignments only: a loop over an attribute, `for x, y in args.batches`, keeps
        its older reading.)"""
        return isinstance(value, cst.Attribute) and attribute_paths.chain_path(value) is not None \
            and self.kind(value) is Kind.UNKNOWN and not field_values.immutable_field(self, value)

    def _outside_call(self, value: cst.BaseExpression) -> bool:
        """A call outside torch and NumPy (`Stats(a, 1)`, `helper(t)`): its result may hold, or be, its arguments."""
        return isinstance(value, cst.Call) and not library_call(self.qualified_name(value.func) or "")

    def _attribute_owner_roots(self, value: cst.BaseExpression) -> frozenset[str]:
        """`shared_roots` of a name or an attribute read (`model.n_classes`: `model`), less what the
        call at its base may return (`Stats(t.numpy(), 1).mean` holds the array, it is not `Stats`)."""
        base = value
        while isinstance(base, (cst.Attribute, cst.Subscript)):
            base = base.value
        return frozenset() if self._outside_call(base) else self.shared_roots(value)

    def _stored_into(self, function: FunctionNode | None) -> dict[str, set[str]]:
        """container -> what `function`'s scope stores into it (`held.stored_into`), cached."""
        if function not in self._stored_cache:
            self._stored_cache[function] = held.stored_into(self, function)
        return self._stored_cache[function]

    def _container_alias(self, name: str, value: cst.BaseExpression, function: FunctionNode | None) -> bool:
        """`hist = trainer.history`, `seen = st.seen`: `name` holds the very container `value` (an
        attribute or another name) holds, so a change through the owner (`log(trainer)` appending to
        `tr.history`, `st.add(v)`) changes what `name` reads. A list or dict by its type, or a value of
        unknown type that `name` is read for what it holds (`torch.tensor(hist)`, `hist[-1]`,
        `for v in hist`); a number (`n = model.n_classes`) is a copy."""
        kind = self.kind(value)
        if kind in (Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR):
            return True
        if kind is not Kind.UNKNOWN or not isinstance(value, cst.Attribute):
            return False
        return any(self._read_as_container(n) and not isinstance(self.parent(n), (cst.Element, cst.StarredElement))
                   for n in self.walk(function.body if function is not None else self.module)
                   if isinstance(n, cst.Name) and n.value == name and self.enclosing_function(n) is function)

    def _view_sources(self, value: cst.BaseExpression) -> frozenset[str]:
        """`shared_roots`, and the names handed to a function of the program that returns a view of
        one of its parameters (`A = to_np(feats)` with `def to_np(t): return t.numpy()`)."""
        roots = self.shared_roots(value) | self._roots_out_of_sight(value)
        if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
            return roots
        func = self._function_at(value.func)
        made: cst.BaseExpression | None = None
        if not isinstance(func, cst.FunctionDef) and isinstance(value.func, cst.Attribute):
            # `Holder(t).view()`: a method of a program class, found through the object's constructor
            made = self.value_of(value.func.value) if isinstance(value.func.value, cst.Name) else value.func.value
            found = self.class_named(made.func) if isinstance(made, cst.Call) else None
            if found is not None:
                func = next((m for m in found[0].walk(found[1].body) if isinstance(m, cst.FunctionDef)
                             and m.name.value == value.func.attr.value), None)
        if not isinstance(func, cst.FunctionDef):
            return roots
        owner = self.owner_of(func) or self
        declared = (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
        params = {p.name.value for p in declared}
        returned = {r for node in owner.walk(func.body) if isinstance(node, cst.Return) and node.value is not None
                    for r in owner.shared_roots(node.value)}
        out: set[str] = set()
        if returned & params:
            out |= {r for a in value.args if (r := root_name(a.value)) is not None}
        # a default argument (`def host(t=running)`), a global or closure name the function returns a view of
        out |= {d for p in declared if p.name.value in returned and p.default is not None
                and (d := root_name(p.default)) is not None}
        out |= returned - params - _own_locals(func) - {"self"} - set(owner.aliases)
        if "self" in returned and isinstance(value.func, cst.Attribute):
            receiver = value.func.value
            out |= {receiver.value} if isinstance(receiver, cst.Name) else set()
            if isinstance(made, cst.Call):
                out |= {r for a in made.args if (r := root_name(a.value)) is not None}
        return frozenset(out - set(self.aliases)) if out else roots

    def _roots_out_of_sight(self, value: cst.BaseExpression) -> frozenset[str]:
        """What a value made by code out of the view analysis' sight may share memory with: a call of
        a `functools.partial` (its bound arguments: `partial(torch.Tensor.numpy, t)()`), of a lambda
        (its defaults and the names its body reads: `(lambda t=t: t.numpy())()`), an attribute read
        through a program class's `__getattr__`/`__getattribute__` or property (what those return,
        and the object). Anything such code reads may come back as a view."""
        if isinstance(value, cst.Call):
            func: cst.BaseExpression | None = value.func
            if isinstance(func, cst.Name) and func.value in self._defs and func.value not in self.functions:
                func = self.value_of(func)
            if isinstance(func, cst.Call) and (self.qualified_name(func.func) or "") == "functools.partial":
                return frozenset(r for a in (*func.args, *value.args) if (r := root_name(a.value)) is not None) - set(self.aliases)
            if isinstance(func, cst.Call) and (self.qualified_name(func.func) or "") == "builtins.getattr" and func.args:
                root = root_name(func.args[0].value)  # `getattr(t, "numpy")()`: any method, maybe a view
                return frozenset({root}) - set(self.aliases) if root is not None else frozenset()
            if isinstance(func, cst.Lambda):
                params = func.params
                own = named_params(params)
                defaults = {r for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                            if p.default is not None and (r := root_name(p.default)) is not None}
                return frozenset(defaults | (names_read(func.body) - own)) - set(self.aliases)
            return frozenset()
        if not isinstance(value, cst.Attribute):
            return frozenset()
        base = value.value
        made = self.value_of(base) if isinstance(base, cst.Name) else base
        found = self.class_named(made.func) if isinstance(made, cst.Call) else None
        if found is None:
            return frozenset()
        owner, cls = found
        methods = [m for m in owner.walk(cls.body) if isinstance(m, cst.FunctionDef) and (
            m.name.value in ("__getattr__", "__getattribute__") or m.name.value == value.attr.value and m.decorators)]
        roots = {r for m in methods for n in owner.walk(m.body) if isinstance(n, cst.Return) and n.value is not None
                 for r in owner.shared_roots(n.value)} - {"self"}
        if roots and isinstance(base, cst.Name):
            roots.add(base.value)
        return frozenset(roots)

    def shared_roots(self, expr: cst.BaseExpression) -> frozenset[str]:
        """Names whose object `expr`'s value may share memory with: the name itself, an element,
        attribute or view of it (`x[0]`, `m.weight`, `x.T`, `x.view(-1)`, `x.detach()`, `x.to(d)`),
        a zero-copy conversion (`torch.from_numpy(x)`, `np.asarray(x)`). Arithmetic and other
        calls build new objects."""
        while True:
            if isinstance(expr, cst.Name):
                return frozenset({expr.value})
            if isinstance(expr, (cst.Subscript, cst.Attribute)):
                expr = expr.value
            elif isinstance(expr, cst.NamedExpr):
                expr = expr.value
            elif isinstance(expr, cst.IfExp):
                return self.shared_roots(expr.body) | self.shared_roots(expr.orelse)
            elif isinstance(expr, cst.Call):
                qualified = self.qualified_name(expr.func) or ""
                if (qualified in SHARING_CALLS and not library_call(qualified)) or qualified in _OWNER_READERS:
                    if not expr.args:
                        return frozenset()
                    expr = expr.args[0].value
                elif library_call(qualified):
                    if fresh_call(qualified, no_out(expr)):
                        return frozenset()
                    # not known fresh: it may be (a view of) any argument (`np.einsum("ij->ji", a)`);
                    # a size or dtype read off an array (`nn.Linear(X.shape[1], 1)`) is no memory
                    # an object a class builds may hold what it is handed, not its settings: `SGD(params,
                    # lr=args.lr)` holds the parameters, not `args`
                    built = qualified.rsplit(".", 1)[-1][:1].isupper()
                    return frozenset().union(*(self.shared_roots(a.value) for a in expr.args if not _metadata(a.value)
                                               and self.kind(a.value) is not Kind.NUMBER  # `nn.Linear(N_MELS, 2)`
                                               and not (built and a.keyword is not None)
                                               and not self._sequence_copied(qualified, a.value)))
                elif isinstance(expr.func, cst.Attribute) and (is_inplace_method(expr.func.attr.value)
                                                               or told_not_to_copy(expr)):
                    expr = expr.func.value
                elif isinstance(expr.func, cst.Attribute) and self.kind(expr.func.value) not in (Kind.TENSOR, Kind.NDARRAY) \
                        and outside_calls.other_objects_method(self, expr):
                    # another object's method (`ring.current()`, `Ops.flat(a)`, `d.get("k")`): its
                    # receiver and arguments, unless the program's method is read to return new memory
                    return outside_calls.result_roots(self, expr, qualified)
                elif isinstance(expr.func, cst.Attribute) and self.method_may_share(expr.func):
                    expr = expr.func.value
                elif isinstance(expr.func, cst.Attribute):
                    return frozenset()  # a Tensor / ndarray method known to be fresh (`x.sum()`)
                else:
                    return outside_calls.result_roots(self, expr, qualified)
            else:
                return frozenset()

    def allocates(self, expr: cst.BaseExpression) -> bool:
        """`expr` surely evaluates to a new tensor or array nobody else holds: arithmetic, a
        comparison, a torch/NumPy function or a tensor method that is neither a view nor in place
        (`row.sum()`, `out.argmax(1)`; not `h[0]`, `h.view(-1)`, `w.float()`, a name)."""
        if isinstance(expr, (cst.BinaryOperation, cst.Comparison)):
            return True
        if isinstance(expr, cst.UnaryOperation):
            return not isinstance(expr.operator, cst.Plus)
        if not isinstance(expr, cst.Call):
            return False
        if not no_out(expr):
            return False
        qualified = self.qualified_name(expr.func) or ""
        if library_call(qualified):
            return fresh_call(qualified)
        func = expr.func
        return isinstance(func, cst.Attribute) and self.kind(func.value) in (Kind.TENSOR, Kind.NDARRAY) \
            and not self.method_may_share(func) and not is_inplace_method(func.attr.value)

    def _sequence_copied(self, qualified: str, value: cst.BaseExpression) -> bool:
        """A legacy constructor (`torch.LongTensor(rows[a:b])`) copies a Python sequence or number."""
        return qualified.endswith("Tensor") and self.kind(value) in (Kind.LIST, Kind.NUMBER)

    def method_may_share(self, func: cst.Attribute) -> bool:
        """`x.<name>` called may return `x` or a view of it: a Tensor/ndarray method not known to be
        fresh (by the receiver's kind when known), or one of the old view-like names (all that is
        known of other classes' methods)."""
        name = func.attr.value
        if is_inplace_method(name):
            return False  # `t.add_(1)` returns `t`: callers see in-place methods by name
        kind = self.kind(func.value)
        if kind in (Kind.TENSOR, Kind.NDARRAY):
            return method_may_share(name, kind is Kind.TENSOR)
        return name in SHARING_METHODS or method_may_share(name, None)

    def _note_mutations(self, call: cst.Call, out: set[str], attribute_owners: bool = True,
                        partial: dict[str, set[attribute_paths.Path]] | None = None) -> None:
        """With `partial`: what a `backward()` changes in the objects its loss was built from (their
        `.grad`s), and an attribute holding a constant handed to a call, are noted there."""
        func = call.func
        if isinstance(func, cst.Attribute):
            root = root_name(func.value)
            method = func.attr.value
            if root is not None and not self._imported(root) and not self._only_reads(func.value, method) \
                    and self.kind(func) is not Kind.MODULE:
                out.add(root)
                made = self._made_from(func.value) if method not in _OWN_FLAG_METHODS else None
                if made is not None and partial is not None and method == "backward":
                    for name in self._built_from(made) - {root}:
                        partial.setdefault(name, set()).add(attribute_paths.GRAD)
                elif made is not None and partial is not None:
                    # `SGD(params, lr=args.lr)` holds the value of `args.lr`, not `args`
                    handed = attribute_paths.attribute_arguments(self, made)
                    built = self._built_from(made, frozenset(handed))
                    out |= built
                    for name, paths in handed.items():
                        if name not in built and not self._imported(name):
                            partial.setdefault(name, set()).update(paths)
                elif made is not None:
                    out |= self._built_from(made)
        qualified = self.qualified_name(call.func) or ""
        if qualified == "torch.autograd.backward" and call.args:
            self._note_backward_function(call.args[0].value, out, partial)
        if qualified.startswith("torch."):  # `vector_to_parameters(v, layer.parameters())` changes `layer`
            out.update(r for a in torch_changed_arguments(qualified, call) if (r := root_name(a)) is not None
                       and not self._imported(r))
        if self._leaves_arguments(call):
            return
        unseen = not attribute_owners and not self._local_callees(call) \
            and not (isinstance(call.func, (cst.Name, cst.Attribute)) and self._function_at(call.func) is not None)
        for arg in call.args:
            root = root_name(arg.value)
            path = attribute_paths.chain_path(arg.value) if partial is not None else None
            if path is not None and not arg.star and attribute_paths.immutable_path(self, *path):
                partial.setdefault(path[0], set()).add(path[1])  # type: ignore[union-attr]
            elif root is not None and not isinstance(arg.value, cst.Call) \
                    and not (unseen and self._plain_attribute(arg.value)):
                out.add(root)

    def _note_backward_function(self, tensors: cst.BaseExpression, out: set[str],
                                partial: dict[str, set[attribute_paths.Path]] | None) -> None:
        """`torch.autograd.backward(loss)` is `loss.backward()` spelt as a function: the `.grad`s of
        what each loss was built from change (only those, with `partial`)."""
        for tensor in [e.value for e in tensors.elements] if isinstance(tensors, (cst.List, cst.Tuple)) else [tensors]:
            root = root_name(tensor)
            if root is None or self._imported(root):
                continue
            out.add(root)
            made = self._made_from(tensor)
            if made is None:
                continue
            if partial is None:
                out |= self._built_from(made)
            else:
                for name in self._built_from(made) - {root}:
                    partial.setdefault(name, set()).add(attribute_paths.GRAD)

    def _plain_attribute(self, expr: cst.BaseExpression) -> bool:
        """`opt.num_support_tr`: an attribute of a name (through attributes only) that this unit
        never binds, stores into (`opt.x[k] = v`, `opt.x.y = v`) or calls a method of
        (`opt.x.append(v)`): an option read, whose owner a call given it cannot reach."""
        if not isinstance(expr, cst.Attribute):
            return False
        inner: cst.BaseExpression = expr
        while isinstance(inner, cst.Attribute):
            inner = inner.value
        if not isinstance(inner, cst.Name):
            return False
        dotted = self.code(expr)
        for node in self.walk(self.module):
            if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
                text = self.code(node.target)
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                text = self.code(node.func.value)
            elif isinstance(node, cst.Del):
                text = self.code(node.target)
            elif isinstance(node, cst.Attribute) and self.code(node) == dotted:
                if self._read_as_container(node):
                    return False
                continue
            else:
                continue
            if text == dotted or text.startswith((dotted + ".", dotted + "[")):
                return False
        return True

    def _read_as_container(self, node: cst.Attribute) -> bool:
        """`opt.x[k]`, `for v in opt.x`, `*opt.x`, `sum(opt.x)`: the value is read for what it holds."""
        parent = self.parent(node)
        if isinstance(parent, cst.Subscript) and parent.value is node or isinstance(parent, (cst.StarredElement, cst.Element)):
            return True
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
            return True
        call = self.parent(parent) if isinstance(parent, cst.Arg) and parent.value is node else None
        if isinstance(call, cst.Call) and isinstance(parent, cst.Arg):
            name = (self.qualified_name(call.func) or self.code(call.func)).rsplit(".", 1)[-1]
            return parent.star != "" or name in _CONTAINER_READERS
        return False

    def _imported(self, name: str) -> bool:
        """A module (or a name imported from one) rather than an object the loop could change."""
        if name in self.aliases:
            return True
        return name not in self._defs and (name in self.prior.aliases or isinstance(self.namespace.get(name), types.ModuleType))

    def _holds_constant(self, name: str) -> bool:
        """Every binding of `name` is a number, string or bool: no call can change the object
        (`loss = loss_fn(out, ones(BATCH))`; `loss.backward()` changes no `BATCH`)."""
        defs = self._defs.get(name)
        return bool(defs) and all(d.value is not None and self._immutable(d.value) for d in defs)

    def _immutable(self, value: cst.BaseExpression) -> bool:
        """A constant, a choice between constants (`"cuda" if ... else "cpu"`), a `torch.device`."""
        if isinstance(value, cst.IfExp):
            return self._immutable(value.body) and self._immutable(value.orelse)
        if isinstance(value, cst.Call):
            return self.qualified_name(value.func) == "torch.device"
        return _is_constant(value)

    def _only_reads(self, receiver: cst.BaseExpression, method: str) -> bool:
        if is_inplace_method(method) or (method in _IMPURE_METHODS and not self._dict_read(receiver, method)):
            return False
        if method in _READ_ONLY_METHODS:
            return self.kind(receiver) in _LIBRARY_KINDS or not self._program_method_changes_self(method)
        return self.kind(receiver) in (Kind.TENSOR, Kind.NDARRAY) and not method.startswith("_")

    def _dict_read(self, receiver: cst.BaseExpression, method: str) -> bool:
        """`word_dict.get(w, 0)` on a value known to be a dict only reads it; `get` on anything else
        (a queue) may consume, so the name alone proves nothing (a helper's vocabulary lookup was
        taken for a change of the vocabulary, and its call for loop-variant)."""
        return method == "get" and self.kind(receiver) in _DICT_KINDS

    def _program_method_changes_self(self, method: str) -> bool:
        """A class of the program (this unit or an earlier cell) defines `method` and its body
        changes `self` (`def log(self, v): self.history.append(v)`): a name that reads like a
        tensor's or a dict's read-only method (`log`, `get`, `sum`, `to`) is then no proof."""
        for unit in (self, *self.prior.units()):
            for key, func in unit.functions.items():
                if key.endswith("." + method) and any("self" in mutated_names(n) for n in unit.walk(func.body)):
                    return True
        return False

    def _built_from(self, made: cst.BaseExpression, skip: frozenset[str] = frozenset()) -> set[str]:
        """The names an object was built from, and the objects those names hold references to:
        `SGD(groups)` with `groups = [{"params": [w]}]` and `w = model.weight` reaches `w` and
        `model` (a step of that optimizer changes them all). Values computed from a name
        (`xb = x @ w`) hold no reference to it and are not followed; nor are the names in `skip`."""
        out: set[str] = set()
        scope = self.enclosing_function(made)
        work = [(n, 0, scope) for n in self.names_read(made) - self._read_for_shape_only(made) - skip
                - self._program_class_called(made)]
        while work:
            name, depth, scope = work.pop()
            if name in out or self._imported(name) or self._holds_constant(name):
                continue
            out.add(name)
            for d in self._scoped_defs(name, scope):
                value = d.value if d.value is not None else d.element
                if value is not None and depth < 4:
                    work.extend((n, depth + 1, d.function) for n in self._referenced(value))
        return out

    def _program_class_called(self, made: cst.BaseExpression) -> set[str]:
        """`Accelerator` of `accelerator = Accelerator(steps=2)`: the class of the program the object
        is an instance of is not something the object holds; what its methods change (class
        attributes included) is read from their visible bodies, not by counting the class as built
        into every instance."""
        if not (isinstance(made, cst.Call) and isinstance(made.func, cst.Name) and made.func.value in self.classes):
            return set()
        name = made.func.value
        cls = self.classes[name]
        if not isinstance(cls, cst.ClassDef) or sum(1 for n in self.walk(made) if isinstance(n, cst.Name) and n.value == name) != 1:
            return set()
        for n in self.walk(self.module):  # only instantiated (`Holder.saved = t` in a method: the class holds `t`)
            if isinstance(n, cst.Name) and n.value == name and not (
                    isinstance(self.parent(n), cst.Call) and self.parent(n).func is n  # type: ignore[union-attr]
                    or isinstance(self.parent(n), cst.ClassDef) and self.parent(n).name is n):  # type: ignore[union-attr]
                return set()
            if isinstance(n, cst.Name) and n.value in ("type", "__class__", "classmethod") and self.contains(cls, n):
                return set()  # `type(self).saved = t`, `self.__class__.count += 1`, a classmethod's `cls.saved = t`
        return {name}

    def _scoped_defs(self, name: str, scope: FunctionNode | None) -> list:
        """The bindings of `name` as seen from `scope`: its own, else those of the innermost
        enclosing function (or the module) that binds it; a helper's local of the same name is
        another variable."""
        defs = self._defs.get(name, ())
        while True:
            own = [d for d in defs if d.function is scope]
            if own or scope is None:
                return own
            scope = self.enclosing_function(scope)

    def _read_for_shape_only(self, expr: cst.BaseExpression) -> set[str]:
        """Names `expr` reads only for their shape (`X.shape[1]`, `x.size(0)`, `len(x)`, `x.ndim`):
        an object built from those numbers holds no reference to them (`nn.Linear(X.shape[1], 32)`)."""
        shaped: set[str] = set()
        other: set[str] = set()
        for n in self.walk(expr):
            if not isinstance(n, cst.Name):
                continue
            parent = self.parent(n)
            if isinstance(parent, cst.Attribute) and parent.attr is n:
                continue
            outer = self.parent(parent) if parent is not None else None
            if isinstance(parent, cst.Attribute) and parent.value is n and (
                    parent.attr.value in ("shape", "ndim", "dtype")
                    or parent.attr.value == "size" and isinstance(outer, cst.Call) and outer.func is parent) \
                    or isinstance(parent, cst.Arg) and isinstance(outer, cst.Call) and len(outer.args) == 1 \
                    and (self.qualified_name(outer.func) or "") == "builtins.len":
                shaped.add(n.value)
            else:
                other.add(n.value)
        return shaped - other

    def _referenced(self, value: cst.BaseExpression) -> frozenset[str]:
        """Names whose objects `value` holds or is: the elements of a literal container (and of
        `list(...)`/`dict(...)`), the parameters of `model.parameters()`, or `shared_roots`."""
        if isinstance(value, (cst.List, cst.Tuple, cst.Set, cst.Dict, cst.ListComp, cst.DictComp, cst.SetComp)):
            return frozenset(self.names_read(value))
        if isinstance(value, cst.Call):
            qualified = self.qualified_name(value.func) or ""
            if qualified.removeprefix("builtins.") in ("list", "tuple", "dict", "set", "iter", "chain", "itertools.chain"):
                return frozenset(n for a in value.args for n in self.names_read(a.value))
            if isinstance(value.func, cst.Attribute) and value.func.attr.value in (
                    "parameters", "named_parameters", "values", "items", "children", "modules", "buffers"):
                return self.shared_roots(value.func.value)
        return self.shared_roots(value)

    def _made_from(self, receiver: cst.BaseExpression) -> cst.BaseExpression | None:
        """The arguments an object was constructed with (`StepLR(opt, ...)`), if visible."""
        if not isinstance(receiver, cst.Name):
            return None
        value = self.value_of(receiver)
        return value if isinstance(value, cst.Call) else None

    def _leaves_arguments(self, call: cst.Call) -> bool:
        """A call known not to change its arguments: torch/NumPy (no `out=`), pure builtins,
        modules' forward, and this unit's functions that change no parameter in place."""
        if any(mutated_arguments(call)):
            return False  # `out=x`, `np.add.at(x, ...)`, `np.copyto(x, ...)`
        qualified = self.qualified_name(call.func)
        if self._numpy_writes(call, qualified):
            return False  # `onp.add(a, b, a)`, `a.clip(0, 1, buf)`: outputs given by position
        if qualified is not None:
            last = qualified.rsplit(".", 1)[-1]
            if qualified.startswith(("torch.", "numpy.")) and any(table_written_arguments(call, qualified)):
                return False  # `bn = F.batch_norm; bn(x, rm, rv, training=True)`: the table by the resolved name
            if qualified.startswith(("torch.", "numpy.", "math.")):
                return not is_inplace_method(last) and not qualified.startswith("numpy.random.") \
                    and not (qualified.startswith("torch.") and torch_changed_arguments(qualified, call))
            if qualified.startswith("builtins."):
                return last in _PURE_BUILTINS or last in ("print", "next", "iter", "isinstance", "hasattr", "getattr", "type")
        func = call.func
        if isinstance(func, cst.Attribute) and self._only_reads(func.value, func.attr.value):
            return True
        if isinstance(func, cst.Attribute) and is_inplace_method(func.attr.value) \
                and func.attr.value in _safe_unknown_methods() and self.kind(func.value) is Kind.TENSOR:
            return True  # `out.index_add_(0, idx, src)` changes its receiver (noted as such), not `idx` nor `src`
        if self.kind(func) is Kind.MODULE:
            return True
        callees = self._local_callees(call)
        if callees:
            return not any(self._changes_parameters(f) for f in callees)
        foreign = self._function_at(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if foreign is not None:  # an earlier cell's or a local module's function, judged in its own unit
            return not self.owner_of(foreign)._changes_parameters(foreign)
        return False

    def _numpy_writes(self, call: cst.Call, qualified: str | None) -> bool:
        """A NumPy function (by its qualified name, whatever the alias) or an ndarray method (by the
        receiver's kind) given an output by position, which `mutated_arguments` reads only from
        the spelling `np.` / `numpy.`."""
        if qualified is not None and qualified.startswith("numpy.") \
                and any(numpy_outputs(call, qualified.rsplit(".", 1)[-1], True, False)):
            return True
        func = call.func
        return isinstance(func, cst.Attribute) and self.kind(func.value) is Kind.NDARRAY \
            and any(numpy_outputs(call, func.attr.value, False, True))

    def _changed_by_helper(self, node: cst.CSTNode) -> frozenset[str]:
        """Names handed to a program function (this unit's, an earlier cell's, a local module's)
        that changes that very parameter in place: `decay(gain_t)` with `def decay(t): t.mul_(0.5)`
        (or an `nn.init` function in place: `nn.init.constant_(yv, 5.0)`).
        Such a name changes as if changed here, so what it is a view of changes too (`gain_t =
        torch.from_numpy(gain)`: `gain`; `v = tail[1:]`: `tail`; `alias = prio`: `prio`), which
        the names merely handed to calls (followed only down to their views) miss (red team 54)."""
        if not isinstance(node, cst.Call):
            return frozenset()
        func = node.func
        qualified = self.qualified_name(func) or ""
        if qualified.startswith("torch.nn.init.") and is_inplace_method(qualified.rsplit(".", 1)[-1]) and node.args \
                and node.args[0].keyword is None and not node.args[0].star and not isinstance(node.args[0].value, cst.Call):
            # `torch.nn.init.constant_(yv, 5.0)` fills its first argument (`clip_grad_norm_` only `.grad`s)
            root = root_name(node.args[0].value)
            return frozenset({root}) if root is not None and not self._imported(root) else frozenset()
        callees: list[tuple[Facts, FunctionNode]] = [(self, f) for f in self._local_callees(node)]
        if not callees and isinstance(func, (cst.Name, cst.Attribute)):
            foreign = self._function_at(func)
            if foreign is not None:
                callees = [(self.owner_of(foreign), foreign)]
        out: set[str] = set()
        for owner, callee in callees:
            changed = owner._changed_parameters(callee)
            if not changed:
                continue
            params = positional_params(callee)
            if params[:1] in (["self"], ["cls"]) and isinstance(func, cst.Attribute):
                params = params[1:]
            for arg in node.args:
                root = root_name(arg.value)
                if root is None or root in ("None", "True", "False") or isinstance(arg.value, cst.Call) \
                        or self._imported(root):
                    continue
                param = None if arg.star else parameter_filled(node, arg, params)
                if param is None or param in changed or (callee.params.star_arg is not None
                                                         and isinstance(callee.params.star_arg, cst.Param)
                                                         and callee.params.star_arg.name.value in changed):
                    out.add(root)
        return frozenset(out)

    def _changed_parameters(self, func: FunctionNode) -> frozenset[str]:
        """The parameters whose object `func` changes in place (`_changes_parameters`, by name)."""
        params = param_names(func)
        found: set[str] = set()
        for node in self.walk(func.body, into_scopes=False):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "next" \
                    and node.args and root_name(node.args[0].value) in params:
                found.add(root_name(node.args[0].value))  # type: ignore[arg-type]
            found |= {name for name in mutated_names(node) if name in params}
        return frozenset(found)

    def _changes_parameters(self, func: FunctionNode) -> bool:
        """The function changes an argument's object in place (`a[i] = ...`, `a += ...`,
        `a.append(...)`, `next(a)`); rebinding a parameter (`a = np.log1p(a)`) changes nothing
        the caller holds."""
        params = param_names(func)
        for node in self.walk(func.body, into_scopes=False):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "next" \
                    and node.args and root_name(node.args[0].value) in params:
                return True
            if any(name in params for name in mutated_names(node)):
                return True
        return False

    def _local_callees(self, call: cst.Call) -> list[FunctionNode]:
        func = call.func
        if isinstance(func, cst.Name) and func.value in self.functions:
            return [self.functions[func.value]]
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            return [f for key, f in self.functions.items() if key.endswith("." + func.attr.value)]
        return []

    def is_invariant(self, expr: cst.CSTNode, loop: Loop | None = None, given: frozenset[str] = frozenset()) -> bool:
        """True if `expr` gives the same value on every iteration (safe to compute once); with
        `given`, the same value whenever those names hold the same values (an inner loop's target)."""
        loop = loop or self.iteration_loop(expr)
        if loop is None:
            return False
        varying = self.varying_names(expr, loop) - given
        blocked = self.names_read(expr) & varying
        if blocked:
            paths = attribute_paths.varying_paths(self, expr, loop)
            if any(n not in paths or not attribute_paths.reads_clear(self, expr, n, paths[n]) for n in blocked):
                return False
        return all(self._call_is_pure(call, varying) for call in self.calls_in(expr))

    def may_run_zero_times(self, loop: Loop) -> bool:
        """False only when the loop provably runs its body: `range(<positive literal>)`, a
        non-empty literal, `enumerate`/`zip` of those, `while True`. Work hoisted above a loop
        that may be empty runs where it never ran before (and may raise there)."""
        if isinstance(loop.node, cst.While):
            test = loop.node.test
            return not (isinstance(test, cst.Name) and test.value == "True")
        return not _non_empty(self, loop.node.iter)

    def draws_random(self, call: cst.Call) -> bool:
        """`torch.rand*`/`bernoulli`/`normal`/dropout, `np.random.*`, `random.*`, `t.uniform_()`,
        `rng.normal(...)`: same arguments, other numbers on every call."""
        qualified = self.qualified_name(call.func)
        if qualified is not None:
            last = qualified.rsplit(".", 1)[-1]
            if qualified.startswith(("numpy.random.", "random.", "torch.random.")):
                return last not in ("seed", "manual_seed", "get_state", "getstate", "get_rng_state")
            if qualified.startswith("torch."):
                return "dropout" in last or (last in _RANDOM_TORCH and last not in ("empty", "empty_like", "manual_seed", "seed"))
        func = call.func
        return isinstance(func, cst.Attribute) and (func.attr.value in _RANDOM_METHODS or self.random_object(func.value))

    def random_object(self, expr: cst.BaseExpression) -> bool:
        """`rng` of `rng = np.random.default_rng(0)` (or `RandomState`, `random.Random`,
        `torch.Generator().manual_seed(3)`, `torch.distributions.Normal(...)`, kept on `self`
        too): a method called on it draws numbers or moves its state, whatever its name."""
        if isinstance(expr, cst.Call):
            return self._random_constructor(expr)
        key = expr.value if isinstance(expr, cst.Name) else (
            f"self.{expr.attr.value}" if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)
            and expr.value.value == "self" else None)
        if key is None:
            return False
        return any(isinstance(d.value, cst.Call) and self._random_constructor(d.value) for d in self._defs.get(key, ()))

    def _random_constructor(self, call: cst.Call) -> bool:
        while isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Call):
            call = call.func.value  # `torch.Generator().manual_seed(3)`
        return (self.qualified_name(call.func) or "").startswith(_RANDOM_OBJECT_PREFIXES)

    def _call_is_pure(self, call: cst.Call, varying: frozenset[str]) -> bool:
        qualified = self.qualified_name(call.func)
        if any(mutated_arguments(call)) or self._numpy_writes(call, qualified):
            return False  # writes into an argument (`out=`, `np.add.at`): an effect, whatever it returns
        if qualified is not None:
            if qualified.startswith(_IMPURE_QUALIFIED_PREFIXES):
                return False
            last = qualified.rsplit(".", 1)[-1]
            if qualified.startswith("torch."):
                return last not in _RANDOM_TORCH and last not in _TORCH_EFFECTS and not is_inplace_method(last) \
                    and kind_of_qualified_call(qualified) is not Kind.MODULE
            if qualified.startswith("numpy."):
                return not numpy_call_has_effects(call, qualified, self.is_program_function)
            if qualified.startswith("builtins."):
                return last in _PURE_BUILTINS
            if qualified.startswith(("math.", "operator.")):
                return True
            if qualified.startswith("einops.") and last in _EINOPS_PURE:
                return True  # tensor reshaping by a pattern: a value of its arguments, no state, no draw
            return False  # another library or module (plotting, logging, I/O): effects unknown
        func = call.func
        if isinstance(func, cst.Name) and func.value in self.functions:
            return self.is_pure_function(func.value)
        earlier = self._function_at(func) if isinstance(func, cst.Name) else None
        if earlier is not None:  # an earlier cell's function: pure by its own unit's facts
            owner = self.owner_of(earlier)
            return owner is not self and owner.functions.get(earlier.name.value) is earlier \
                and owner.is_pure_function(earlier.name.value)
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            receiver = self.kind(func.value)
            if method == "get" and receiver in _DICT_KINDS:
                return True  # `vocab.get(word, unk)` reads a dict (a queue's or an iterator's `get` does not)
            if method in _IMPURE_METHODS or is_inplace_method(method) or self.draws_random(call):
                return False
            if receiver in _STATEFUL_KINDS:
                return False
            root = root_name(func.value)
            # `a.mean(axis=0)` on a parameter or local: a value of the receiver, no effect
            # (unlike `ax.plot(...)`, whose method is no known reader).
            return root is None or root not in varying or (
                method not in _RANDOM_METHODS and self._only_reads(func.value, method))
        return False

    def is_program_function(self, name: str) -> bool:
        """`name` is a function the program defines (here, or live in the notebook's namespace):
        a library handed it runs the program's code."""
        return name in self.functions or isinstance(self.namespace.get(name), types.FunctionType)

    def is_pure_function(self, name: str) -> bool:
        """A function of this unit whose result depends only on its arguments and constants."""
        if name in self._pure_cache:
            return self._pure_cache[name]
        self._pure_cache[name] = False  # recursion guard
        if name in self._redefined or name in self._defs or name in self.aliases:
            return False  # `def f` twice, or also assigned/imported: the loop may call another body than this one
        func = self.functions[name]
        if any(isinstance(n, (cst.Global, cst.Nonlocal)) for n in self.walk(func.body)):
            return False
        if any((self.qualified_name(_decorator_callee(d.decorator)) or "") not in _PURE_DECORATORS for d in func.decorators):
            return False  # a decorator may replace the body: count calls, draw, keep state
        if _changes_own_default(self, func):
            return False  # `def bump(t=torch.zeros(2)): t += 1`: the default keeps state between calls
        if self._writes_into_shared(func):
            return False  # `TABLE["n"] += 1`, `Counter.n += 1`: state kept outside the call
        varying = frozenset(param_names(func) | self.names_written(func.body))
        pure = all(self._call_is_pure(c, varying) or self._arg_only_call(c, func) for c in self.calls_in(func.body))
        self._pure_cache[name] = pure
        return pure

    def _writes_into_shared(self, func: FunctionNode) -> bool:
        """The body assigns into an object it did not build: an item or attribute of a global, a
        parameter or the function itself (`TABLE["n"] += 1`, `Counter.n += 1`, `f.calls = ...`,
        `del CACHE[k]`), or `+=` on a local bound to such an object (`alias = SEEN; alias += [x]`:
        a list's `+=` extends it in place). Locals bound only to fresh objects (`out = []`) and
        numbers stay local."""

        def shared(root: str | None) -> bool:
            if root is None:
                return True
            defs = [d for d in self._defs.get(root, ()) if d.function is func]
            return not defs or root in param_names(func) or not all(self._fresh_def(d) or d.augmented for d in defs)

        for node in self.walk(func.body):
            targets: list[cst.BaseExpression] = []
            if isinstance(node, cst.Assign):
                targets = [t.target for t in node.targets]
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and node.value is not None:
                targets = [node.target]
            elif isinstance(node, cst.Del):
                targets = [node.target]
            for target in targets:
                elements = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
                for t in elements:
                    if isinstance(t, (cst.Subscript, cst.Attribute)) and shared(root_name(t)):
                        return True
                    if isinstance(node, cst.AugAssign) and isinstance(t, cst.Name) and shared(t.value):
                        return True  # on a parameter too: an array's or a list's `+=` changes the caller's
        return False

    def _arg_only_call(self, call: cst.Call, function: FunctionNode) -> bool:
        """Inside a function, methods on containers it built itself (`out = []; out.append(x)`)
        stay local; methods on parameters (`ax.plot(...)`) or on anything else do not."""
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value in _IMPURE_METHODS:
            return False
        root = root_name(func.value)
        if root is None or root in param_names(function) or self.kind(func.value) in _STATEFUL_KINDS:
            return False
        defs = [d for d in self._defs.get(root, ()) if d.function is function]
        return bool(defs) and all(self._fresh_def(d) for d in defs)

    def _fresh_def(self, d: _Def) -> bool:
        """`out = []`, or `X, Y = [], []` (a literal container unpacked from a tuple literal)."""
        if d.value is not None:
            return self._fresh_value(d.value)
        return d.unpacked is None and isinstance(d.element, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp,
                                                             cst.SetComp))

    def _fresh_value(self, value: cst.BaseExpression) -> bool:
        """A new object nobody else holds: a literal, a comprehension, a torch/NumPy/builtin result."""
        if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.Tuple, cst.ListComp, cst.DictComp, cst.SetComp,
                              cst.SimpleString, cst.Integer, cst.Float, cst.BinaryOperation)):
            return True
        if isinstance(value, cst.Call):
            q = self.qualified_name(value.func) or ""
            return q.startswith(("torch.", "numpy.")) or q.removeprefix("builtins.") in _PURE_BUILTINS
        return False

    def class_mutates_self(self, func: FunctionNode) -> bool:
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
        return self._later_import(head)

    def _later_import(self, head: str) -> str | None:
        """A notebook's class defined before the cell that runs `import torch`: its methods read
        `torch` when they run, after that cell (a read at this cell's top level would have
        failed). The nearest later cell that imports the name answers, if none binds it first."""
        for later in self.later:
            if head in later.aliases and head in later._modules:
                return later.aliases[head]
            if head in later._defs or head in later.functions or head in later.classes:
                return None
        return None

    def reads_later_imports(self) -> bool:
        """This cell reads a name only a later cell imports (see `_later_import`)."""
        if not self.later:
            return False
        return any(name not in self.aliases and name not in self._defs and not self.prior.defines(name)
                   and name not in self.namespace and self._later_import(name) is not None
                   for name in self._names_index)

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
            if expr.attr.value in _MODULE_TENSORS and self.kind(expr.value) is Kind.MODULE:
                return Kind.TENSOR  # `model.fc.weight`: a module's parameter
            if isinstance(expr.value, cst.Name) and self._instance_attr_tensor(expr):
                return Kind.TENSOR
            return Kind.UNKNOWN
        if isinstance(expr, cst.Subscript):
            base = self.kind(expr.value)
            if base is Kind.MODULE and len(expr.slice) == 1:
                container = self._container_of(expr.value)
                if container is not None:
                    return container
            if base is Kind.LIST and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Slice):
                return Kind.LIST  # `rows[a:b]`: a slice of a list is a list
            if base is Kind.DICT:
                entry = self._dict_entry_kind(expr)
                if entry is not Kind.UNKNOWN:
                    return entry
            if base in (Kind.LIST, Kind.UNKNOWN) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
                    and isinstance(expr.value, cst.Name) and self.from_functional_model(expr.value, tensor_list=True):
                return Kind.TENSOR  # `Y[0]` of `Y, state = rnn(X, state, params)`: one step's output
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
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 \
                and not isinstance(expr.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
            sides = {self.kind(expr.left), self.kind(expr.comparisons[0].comparator)}
            return Kind.TENSOR if Kind.TENSOR in sides else Kind.NDARRAY if Kind.NDARRAY in sides else Kind.UNKNOWN
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
        if qualified in _FOLDING_BUILTINS and len(call.args) == 1 and isinstance(
                call.args[0].value, (cst.GeneratorExp, cst.ListComp, cst.SetComp)):
            # `sum(loss for loss in loss_dict.values())` adds what it is given: torchvision's
            # detection losses give a tensor, `sum(len(b) for b in batches)` a number
            element = self.kind(call.args[0].value.elt)  # type: ignore[attr-defined]
            return element if element in (Kind.TENSOR, Kind.NUMBER) else Kind.UNKNOWN
        if qualified is not None:
            kind = kind_of_qualified_call(qualified)
            if kind is not Kind.UNKNOWN or qualified.startswith(("torch.", "numpy.", "builtins.")):
                return kind
        func = call.func
        if isinstance(func, cst.Name) and func.value in self.classes:
            return self._kind_of_class(self.classes[func.value])
        defined = self._function_at(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if defined is not None and (isinstance(func, cst.Name) or self.owner_of(defined) is not self):
            return self.owner_of(defined)._kind_of_returns(defined)
        foreign_class = self._class_at(func)
        if foreign_class is not None:
            owner, cls = foreign_class
            return owner._kind_of_class(cls)
        if isinstance(func, cst.Attribute):
            returned = self._kind_of_method_returns(func)
            if returned is not Kind.UNKNOWN:
                return returned
            receiver = self.kind(func.value)
            if receiver is not Kind.UNKNOWN:
                return kind_of_method(receiver, func.attr.value)
            if func.attr.value in _DISTRIBUTION_TENSOR_METHODS and self._is_distribution(func.value):
                return Kind.TENSOR  # `Categorical(probs).log_prob(a)`: a distribution's draws and densities
            if func.attr.value == "cuda" and any(a.keyword is not None and a.keyword.value == "non_blocking" for a in call.args):
                return Kind.TENSOR  # `mask.cuda(non_blocking=True)`: `Module.cuda` takes no `non_blocking` (pub50 p03's batch)
            if defined is None and kind_of_method(receiver, func.attr.value) is Kind.TENSOR \
                    and not self._defines_method(func.attr.value):
                return Kind.TENSOR  # `out.data.topk(1)`: a method only tensors have (no class here has one)
        if self.kind(func) is Kind.MODULE:
            return Kind.TENSOR
        return self._kind_of_partial(func)

    def _is_distribution(self, expr: cst.BaseExpression, depth: int = 3) -> bool:
        """`expr` is an object of a `torch.distributions` class: the call itself
        (`Categorical(probs)`), or a name last bound to one (`dist = Normal(mu, std)`). Its
        `sample()`, `log_prob(x)`, `entropy()` are tensors, which `kind` cannot see through the
        object (the class's kind is unknown: it is neither a module nor a tensor)."""
        if isinstance(expr, cst.Name) and depth:
            value = self.value_of(expr)
            return value is not None and self._is_distribution(value, depth - 1)
        if not isinstance(expr, cst.Call):
            return False
        qualified = self.qualified_name(expr.func) or ""
        return qualified.startswith("torch.distributions.") and qualified.rpartition(".")[2][:1].isupper()

    def _defines_method(self, name: str) -> bool:
        """Some class of this unit defines a method `name` (its `topk` is no tensor's)."""
        return any(isinstance(m, cst.FunctionDef) and m.name.value == name
                   for cls in self.classes.values() if isinstance(cls.body, cst.IndentedBlock) for m in cls.body.body)

    def _kind_of_partial(self, func: cst.BaseExpression, depth: int = 3) -> Kind:
        """`build(...)` with `build = functools.partial(Net, hidden=64)` bound once, or with an
        entry of a dict literal of such partials bound once and never written
        (`REGISTRY["mlp"](...)`): what calling the wrapped class (or partial) gives, when every
        candidate gives the same kind."""
        if isinstance(func, cst.Subscript) and isinstance(func.value, cst.Name):
            values = self.assigned_values(func.value.value)
            if len(values) != 1 or not isinstance(values[0], cst.Dict) or any(
                    isinstance(self.parent(u), cst.Subscript) and isinstance(self.parent(self.parent(u)), (cst.AssignTarget, cst.Del))
                    for u in self.uses(func.value.value)):
                return Kind.UNKNOWN
            candidates = [el.value for el in values[0].elements if isinstance(el, cst.DictElement)]
        elif isinstance(func, cst.Name):
            candidates = self.assigned_values(func.value)
            if len(candidates) != 1:
                return Kind.UNKNOWN
            if isinstance(candidates[0], (cst.Name, cst.Subscript)):  # `build = REGISTRY["mlp2"]`
                return self._kind_of_partial(candidates[0], depth - 1) if depth else Kind.UNKNOWN
        else:
            return Kind.UNKNOWN
        kinds: set[Kind] = set()
        for value in candidates:
            if not (isinstance(value, cst.Call) and (self.qualified_name(value.func) or "") == "functools.partial"
                    and self._function_at(value.func) is None and value.args and value.args[0].keyword is None and not value.args[0].star) or depth == 0:
                return Kind.UNKNOWN
            target = value.args[0].value
            found = self.class_named(target)
            qualified = self.qualified_name(target) or ""
            kinds.add(found[0]._kind_of_class(found[1]) if found is not None else
                      kind_of_qualified_call(qualified) if qualified.startswith("torch.") else self._kind_of_partial(target, depth - 1))
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def class_named(self, expr: cst.BaseExpression) -> tuple["Facts", cst.ClassDef] | None:
        """The class `expr` names, with the facts of the unit defining it: this unit's, an
        earlier cell's or a local module's (None: a library's, or one this analysis cannot see)."""
        if isinstance(expr, cst.Name) and expr.value in self.classes:
            return self, self.classes[expr.value]
        return self._class_at(expr)

    def _class_at(self, expr: cst.BaseExpression) -> tuple["Facts", cst.ClassDef] | None:
        """A class of an earlier cell or a local module that `expr` names."""
        if isinstance(expr, cst.Name) and expr.value not in self._defs and expr.value in self.prior.classes:
            return self.prior.classes[expr.value]
        if self.imports is None or not isinstance(expr, (cst.Name, cst.Attribute)):
            return None
        qualified = self.qualified_name(expr)
        return self.imports.class_def(qualified) if qualified else None

    def _kind_of_class(self, cls: cst.ClassDef, depth: int = 4) -> Kind:
        for base in cls.bases:
            q = self.qualified_name(base.value) or ""
            if q.startswith("torch.nn.") or q.endswith("Module"):
                return Kind.MODULE
            if "Dataset" in q:
                return Kind.DATASET
            own = self.classes.get(base.value.value) if isinstance(base.value, cst.Name) else None
            if own is not None and own is not cls and depth > 0:  # `class Small(Base)` with `class Base(nn.Module)`
                kind = self._kind_of_class(own, depth - 1)
                if kind is not Kind.UNKNOWN:
                    return kind
        return Kind.UNKNOWN

    def _own_method(self, func: cst.BaseExpression) -> FunctionNode | None:
        """The one method of a class of this unit that `obj.method` runs: `obj` built from that
        class (`self.model = Pair()`, or `self` inside it), the method defined once there, not
        `forward` (a module call's kind is read as one already). None when unsure."""
        if not isinstance(func, cst.Attribute) or func.attr.value in ("forward", "__call__"):
            return None
        return single_method_of_object(self, func)

    def _kind_of_method_returns(self, func: cst.Attribute) -> Kind:
        """What `obj.method(...)` gives, read from the method's own code (public check 57, p03:
        a trainer's `forward_step` returns a dict of four loss tensors): the one kind every
        `return` gives, or UNKNOWN when some path returns another kind, nothing, or yields.
        The program's own reading comes first: jedi types `criterion(a, b) * 0.5` as a float
        when it cannot type `criterion` (an attribute bound to None before `setup()`)."""
        method = self._own_method(func)
        if method is None:
            return Kind.UNKNOWN
        kinds: set[Kind] = set()
        for node in self.walk(method.body, into_scopes=False):
            if isinstance(node, (cst.Yield, cst.Await)) or isinstance(node, cst.Return) and node.value is None:
                return Kind.UNKNOWN
            if isinstance(node, cst.Return):
                kinds.add(self.kind(node.value))  # type: ignore[arg-type]
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def _kind_of_returns(self, func: FunctionNode) -> Kind:
        for node in self.walk(func.body, into_scopes=False):
            if isinstance(node, cst.Return) and node.value is not None:
                return self.kind(node.value)
        return Kind.UNKNOWN

    def from_functional_model(self, name: cst.Name, tensor_list: bool = False) -> bool:
        """Every binding of `name` in its scope takes (an element of) what a model written as a
        function returns (`Y, state = rnn(X, state, params)`): tensors, or lists of them, computed
        from the weights wherever those live, never host values. With `tensor_list`, each binding
        is an element the function returns as a list it fills with matrix products (`outputs`)."""
        scope = self.enclosing_function(name)
        defs = [d for d in self._defs.get(name.value, ()) if d.function is scope]
        calls = [d.unpacked[0] if d.unpacked is not None else d.value for d in defs]
        if not calls or not all(isinstance(c, cst.Call) and runs_functional_model(self, c) for c in calls):
            return False
        return not tensor_list or all(d.unpacked is not None and _returns_products(self, *d.unpacked) for d in defs)

    def _kind_of_unpacked(self, call: cst.Call, index: int, n: int) -> Kind:
        """The kind of element `index` of what `call` returns, when it calls this unit's function,
        a model of this unit's class, or one method of the class its receiver was built from
        (`_own_method`), whose every `return` is an `n`-tuple or list
        (`return logp, h`) or a list comprehension, whose every element is its one expression
        (`return [correct[:k].sum() * 100 / n for k in topk]`, torchvision's `accuracy`); also the
        `forward` of a model handed in as a parameter or kept as `self.<attr>`, and torch's
        recurrent layers (`forward_outputs`, recall 68)."""
        recurrent = forward_outputs.recurrent_output(self, call.func, index, n)
        if recurrent is not None:
            return recurrent
        parts = forward_outputs.returned_parts(self, call, index, n)
        if parts is None:
            return Kind.UNKNOWN
        kinds = {owner.kind(part) for owner, part in parts}
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def _container_of(self, expr: cst.BaseExpression) -> Kind | None:
        """What an element of `expr` is when every binding of `expr` (a name, or `self.<attr>`) is
        built by one of torch's module containers (moved or switched: `nn.Sequential(...).to(d)`):
        a module for `Sequential`/`ModuleList`/`ModuleDict` (`self.model[0].weight`), a tensor for
        `ParameterList`/`ParameterDict`. None otherwise (a class of the program's own may give
        anything from `__getitem__`)."""
        if isinstance(expr, cst.Name):
            values = self.value_sources(expr)
        elif isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            values = self.assigned_values("self." + expr.attr.value)
            if len(values) != len(self._defs.get("self." + expr.attr.value, ())):
                return None
        else:
            return None
        kinds = set()
        for value in values or ():
            made = same_object(value)
            name = self.qualified_name(made.func) if isinstance(made, cst.Call) else None
            kinds.add(_CONTAINERS.get(name or ""))
        return kinds.pop() if len(kinds) == 1 else None

    def _kind_of_self_attr(self, expr: cst.Attribute) -> Kind:
        defs = self._defs.get("self." + expr.attr.value, ())
        for d in defs:
            # `self.criterion = None` in `__init__`, a module set in `setup()`: the placeholder says
            # nothing of what the attribute holds once it is used
            if d.value is not None and not (_is_none(d.value) and any(o.value is not None and not _is_none(o.value) for o in defs)):
                return self.kind(d.value)
        if not defs and self._registered_buffer(expr):
            return Kind.TENSOR
        return Kind.UNKNOWN

    def _instance_attr_tensor(self, expr: cst.Attribute) -> bool:
        """`agent.log_probs` where `agent` was built from a class of this unit whose methods set
        `self.log_probs` only to tensors (`self.log_probs = dist.log_prob(a).detach()` in
        `sample_action`) and no code outside a class assigns an attribute of that name: the
        attribute holds a tensor once set. (A class with bases is left alone: an inherited
        method may set it too; another class's `self.<attr>` is its own objects'.)"""
        made = same_object(self.construction_of(expr.value)) if isinstance(expr.value, cst.Name) else None
        cls = self.classes.get(made.func.value) if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) else None
        if cls is None or cls.bases:
            return False
        attr, values = expr.attr.value, []
        for node in self.walk(self.module):
            if not isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                continue
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                for sub in self.walk(target):
                    if not (isinstance(sub, cst.Attribute) and sub.attr.value == attr):
                        continue
                    on_self = isinstance(sub.value, cst.Name) and sub.value.value == "self"
                    if on_self and not self.contains(cls, node):
                        continue  # another class's own attribute (a subclass's runs on its own objects)
                    if not on_self or not isinstance(node, cst.Assign) or sub is not target or node.value is None:
                        return False  # set outside the class, through a tuple, augmented, on another object
                    values.append(node.value)
        return bool(values) and all(self.kind(v) is Kind.TENSOR for v in values)

    def _registered_buffer(self, expr: cst.Attribute) -> bool:
        """`self.queue_ptr` of a class whose method calls `self.register_buffer("queue_ptr",
        torch.zeros(1))`: a buffer of an `nn.Module` is a tensor (a `None` buffer is not)."""
        cls = next((a for a in self.ancestors(expr) if isinstance(a, cst.ClassDef)), None)
        if cls is None:
            return False
        for call in self.calls_in(cls.body):
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value == "register_buffer" and isinstance(func.value, cst.Name) \
                    and func.value.value == "self" and len(call.args) >= 2 and isinstance(call.args[0].value, cst.SimpleString) \
                    and call.args[0].value.evaluated_value == expr.attr.value:
                return self.kind(call.args[1].value) is Kind.TENSOR
        return False

    def _reaching_def(self, name: cst.Name) -> _Def | None:
        """The definition of `name` a read most likely sees: the last one before it in the
        same function (or at top level), else any in that scope (a loop-carried value). None
        for a comprehension's own variable (`v` in `[float(v) for v in d.values()]`): no
        statement binds it, whatever namesake the function has."""
        defs = self._defs.get(name.value)
        if not defs or comprehension_binding(self, name) is not None:
            return None
        func = self.enclosing_function(name)
        scoped = [d for d in defs if d.function is func] or [d for d in defs if d.function is None]
        if not scoped:
            return None
        here = self.order(name)
        own = self._defining_assignment(name)
        before = [d for d in scoped if d.order < here and d.order != own]
        return (before or scoped)[-1]

    def _defining_assignment(self, name: cst.Name) -> int:
        """The order of the assignment whose value reads `name` (`x = x.to(device)` reads the
        previous `x`, not itself); -1 when there is none."""
        for anc in self.ancestors(name):
            if isinstance(anc, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                return self.order(anc)
            if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                break
        return -1

    def assigned_values(self, name: str) -> list[cst.BaseExpression]:
        """Every value this unit assigns to `name`, in any branch (`if cuda: device = ...
        elif mps: device = ... else: ...`): what the name may hold, where `value_of` picks one."""
        return [d.value for d in self._defs.get(name, ()) if d.value is not None]

    def values_in(self, name: str, function: "FunctionNode | None") -> list[cst.BaseExpression]:
        """Every value this unit assigns to `name` in `function`'s own body (None: outside any
        function): a local's bindings, not those of a namesake in another function."""
        return [d.value for d in self._defs.get(name, ()) if d.function is function and d.value is not None]

    def global_values(self, name: str) -> list[cst.BaseExpression]:
        """Every value this unit gives its global `name` outside any function, in any branch: what
        a later cell may find in the name, where `Prior.value` keeps the last of them."""
        return [d.value for d in self._defs.get(name, ()) if d.function is None and d.value is not None]

    def with_binding(self, name: cst.Name) -> cst.BaseExpression | None:
        """What `with EXPR as name:` around this read entered (`tqdm(total=n)` for `progress`),
        when that `as` is the binding the read sees; None for any other binding."""
        d = self._reaching_def(name)
        if d is None or d.order >= self.order(name):
            return None
        for anc in self.ancestors(name):
            if isinstance(anc, (cst.With)):
                for item in anc.items:
                    if isinstance(item.asname, cst.AsName) and isinstance(item.asname.name, cst.Name) \
                            and item.asname.name.value == name.value and self.order(item) == d.order:
                        return item.item
        return None

    def global_constructors(self, name: cst.Name) -> set[str] | None:
        """What made the global a function reads (`pbar.update(1)` in `def test(...)`, run under
        `with tqdm(total=n) as pbar:` below it or in a later cell): the qualified constructor of
        every top-level binding of the name in this unit and the later cells. None when the read is
        not a function's global, or when some binding is not a call the analysis can name (a loop
        target, an import, a `global` statement in a function, an earlier cell's or a live namespace's value)."""
        if self.enclosing_function(name) is None or not self.reads_global(name) or self.prior.defines(name.value) \
                or name.value in self.namespace:
            return None
        made: set[str] = set()
        for unit in (self, *self.later):
            values = [*unit.global_values(name.value), *unit._top_level_with_items(name.value)]
            top = [d for d in unit._defs.get(name.value, ()) if d.function is None]
            if len(values) != len(top) or name.value in unit.functions or name.value in unit.classes \
                    or name.value in unit.aliases or unit._declares_global(name.value):
                return None
            for value in values:
                qualified = unit.qualified_name(value.func) if isinstance(value, cst.Call) else None
                if qualified is None:
                    return None
                made.add(qualified)
        return made or None

    def _top_level_with_items(self, name: str) -> list[cst.BaseExpression]:
        """What each `with EXPR as name:` outside any function enters."""
        return [node.item for node in self.walk(self.module)
                if isinstance(node, cst.WithItem) and isinstance(node.asname, cst.AsName)
                and isinstance(node.asname.name, cst.Name) and node.asname.name.value == name
                and self.enclosing_function(node) is None]

    def _declares_global(self, name: str) -> bool:
        return any(isinstance(node, cst.Global) and any(n.name.value == name for n in node.names)
                   for node in self.walk(self.module))

    def loop_binding(self, name: cst.Name) -> Loop | None:
        """The for-loop whose target binds `name` where it is read (`yb` of `for xb, yb in
        loader:` not rebound since); None for any other binding."""
        d = self._reaching_def(name)
        return d.loop if d is not None and d.order < self.order(name) else None

    def self_assigned_values(self, attr: str) -> list[cst.BaseExpression]:
        """The values of the unit's `self.<attr> = ...` statements, in order: what a method's
        `self.<attr>` may be, where the class builds it."""
        return self._self_assigned.get(attr, [])

    @cached_property
    def _self_assigned(self) -> dict[str, list[cst.BaseExpression]]:
        found: dict[str, list[cst.BaseExpression]] = {}
        for node in self.walk(self.module):
            if isinstance(node, cst.Assign):
                for attr in dict.fromkeys(t.target.attr.value for t in node.targets if isinstance(t.target, cst.Attribute)
                                          and isinstance(t.target.value, cst.Name) and t.target.value.value == "self"):
                    found.setdefault(attr, []).append(node.value)
        return found

    def value_of(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value last assigned to `name` before it is read (same scoping as `kind`).

        None for parameters, loop targets, tuple unpacking and names defined elsewhere.
        """
        d = self._reaching_def(name)
        return d.value if d is not None and d.order < self.order(name) else None

    def element_of(self, name: cst.Name) -> cst.BaseExpression | None:
        """What an unpacked name read here is made from (`out.topk(k)` for `_, idx = out.topk(k)`)."""
        d = self._reaching_def(name)
        return d.element if d is not None and d.order < self.order(name) else None

    def unpacked_from(self, name: cst.Name) -> "tuple[cst.Call, int, int] | None":
        """(call, index, length) when the binding of `name` read here takes element `index` of
        what a call returns (`tr_loader, val_loader = init_dataset(opt)`)."""
        d = self._reaching_def(name)
        return d.unpacked if d is not None and d.order < self.order(name) else None

    def unpacked_container(self, name: cst.Name) -> cst.BaseExpression | None:
        """The name, attribute or subscript the binding of `name` read here unpacks (`data` for
        `b, _ = data`): `name` holds one of the objects it holds. None for any other binding."""
        d = self._reaching_def(name)
        return d.container if d is not None and d.order < self.order(name) and d.value is None else None

    def parameter_of(self, name: cst.Name) -> FunctionNode | None:
        """The function whose parameter `name` reads here, unbound since (None for any other binding)."""
        d = self._reaching_def(name)
        if d is None or d.function is None or d.value is not None or d.loop is not None \
                or d.order != self.order(d.function) or not d.order < self.order(name):
            return None
        return d.function

    def arguments_for(self, func: FunctionNode, param: str) -> "list[tuple[Facts, cst.BaseExpression]] | None":
        """What every seen call of `func` passes for `param`, with the unit of the call (`train(net,
        loader)` hands `loader`): its per-iteration sites, those of other units, and this unit's direct
        calls by name. None when no call is seen, or one passes it out of sight (`*args`, a default)."""
        self.per_iteration_functions  # noqa: B018 - fills the call sites
        sites = self._call_sites.get(func, []) + self._foreign_sites.get(func, [])
        sites += [site for site in self._direct_calls.get(func, ()) if site not in sites]
        positional = positional_params(func)
        block = self.parent(func)
        if isinstance(block, cst.IndentedBlock) and isinstance(self.parent(block), cst.ClassDef) \
                and positional[:1] in (["self"], ["cls"]):
            positional = positional[1:]
        passed: list[tuple[Facts, cst.BaseExpression]] = []
        for caller, call in sites:
            if any(a.star for a in call.args):
                return None
            arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
            plain = [a.value for a in call.args if a.keyword is None]
            if arg is None and param in positional and positional.index(param) < len(plain):
                arg = plain[positional.index(param)]
            if arg is None:
                return None
            passed.append((caller, arg))
        return passed or None

    def returned_elements(self, call: cst.Call, index: int, n: int) -> "list[tuple[Facts, cst.BaseExpression]] | None":
        """Element `index` of what every `return` of the program function `call` runs gives, when
        each returns an `n`-tuple (`return trainloader, testloader`); None otherwise."""
        func = self._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
        if not isinstance(func, cst.FunctionDef):
            return None
        owner = self.owner_of(func)
        returns = [r for r in owner.walk(func.body, into_scopes=False) if isinstance(r, cst.Return)]
        found: list[tuple[Facts, cst.BaseExpression]] = []
        for ret in returns:
            value = ret.value
            if not isinstance(value, cst.Tuple) or len(value.elements) != n \
                    or any(isinstance(el, cst.StarredElement) for el in value.elements):
                return None
            found.append((owner, value.elements[index].value))
        return found or None

    def binds(self, name: str) -> bool:
        """This unit binds `name` somewhere (an assignment, a parameter, a loop target)."""
        return name in self._defs

    def binds_global(self, name: str) -> bool:
        """This unit binds `name` outside any function: a parameter or a local of the same
        spelling (`def train(model, train_dataloader): ...`) leaves the notebook's global as it is."""
        return any(d.function is None for d in self._defs.get(name, ()))

    def reads_global(self, use: cst.Name) -> bool:
        """`use` reads the unit's global of its name: no function around it binds the name."""
        scopes = {id(a) for a in self.ancestors(use) if isinstance(a, (cst.FunctionDef, cst.Lambda))}
        return not any(d.function is not None and id(d.function) in scopes for d in self._defs.get(use.value, ()))

    def value_sources(self, name: cst.Name) -> list[cst.BaseExpression] | None:
        """Every expression `name` may hold where it is read, from the bindings of its scope in
        any branch: the value, or the call a tuple it is unpacked from (`train_ds, val_ds =
        random_split(ds, ...)`). None when one of them has none (a parameter, a loop target,
        `with ... as`) or the unit never binds the name there."""
        defs = self._defs.get(name.value)
        if not defs:
            return None
        func = self.enclosing_function(name)
        scoped = [d for d in defs if d.function is func] or [d for d in defs if d.function is None]
        sources = []
        for d in scoped:
            source = d.value if d.value is not None else d.element if d.element is not None and not d.augmented \
                else d.unpacked[0] if d.unpacked is not None else None
            if source is None:
                return None
            sources.append(source)
        return sources or None

    def _kind_of_name(self, name: cst.Name) -> Kind:
        clause = comprehension_binding(self, name)
        if clause is not None:
            return self._kind_of_comprehension_variable(clause, name)
        d = self._reaching_def(name)
        if d is None:
            if name.value not in self._defs and name.value in self.namespace:
                return kind_of_value(self.namespace[name.value])
            earlier = self.prior.kind(name.value)
            return earlier if earlier not in (None, Kind.UNKNOWN) else self._jedi_kind(name)
        if d.value is not None:
            return self.kind(d.value)
        if d.element is not None and not d.augmented:
            kind = self.kind(d.element)
            return Kind.TENSOR if kind is Kind.UNKNOWN and _torch_pair(d.element) else kind
        if d.augmented and self.kind(d.element) is Kind.TENSOR:  # type: ignore[arg-type]
            return Kind.TENSOR
        if d.unpacked is not None:
            unpacked = self._kind_of_unpacked(*d.unpacked)
            if unpacked is not Kind.UNKNOWN:
                return unpacked
        if d.nested is not None:
            nested = forward_outputs.nested_kind(self, *d.nested)
            if nested is not Kind.UNKNOWN:
                return nested
        if d.annotation is not None:
            q = self.qualified_name(d.annotation) or ""
            return Kind.TENSOR if q.endswith("Tensor") else kind_of_jedi_type(q)
        if d.loop is not None and d.loop.iter_kind in (Kind.DATALOADER, Kind.TENSOR):
            return Kind.TENSOR
        if d.loop is not None and isinstance(d.loop.node, cst.For):
            held = self._dict_value_kind(d.loop.node, name.value)
            if held is not Kind.UNKNOWN:
                return held
        if d.loop is not None and isinstance(d.loop.node, cst.For) and (
                self._zipped_tensor(d.loop.node, name.value) or self._enumerated_batch(d.loop.node, name.value)
                or self._parameter_of(d.loop.node, name.value)):
            return Kind.TENSOR
        if d.loop is not None and isinstance(d.loop.node, cst.For) and self._loop_counter(d.loop.node, name.value):
            return Kind.NUMBER
        if d.function is not None and d.order == self.order(d.function):
            passed = self._param_kind(d.function, name.value)
            if passed is not Kind.UNKNOWN:
                return passed
            if self._receiver(d.function, name.value):
                return Kind.UNKNOWN  # jedi's answer: an instance of a class of `__main__`, no kind
        return self._jedi_kind(name)

    def _kind_of_comprehension_variable(self, clause: cst.CompFor, name: cst.Name) -> Kind:
        """`v` of `{k: v.item() for k, v in self.step(b).items()}`: the comprehension's own variable,
        never a namesake the enclosing function binds (the def-use table records statement
        bindings only). The same readings as a `for` statement's target: a value of a dict whose
        values are all tensors (or lists), an item of a tensor or a loader, a tensor zipped or
        enumerated, a module's parameter (`sum(p.grad.norm() for p in model.parameters())`), a
        counter; else jedi's answer, which scopes comprehensions as Python does."""
        held = self._dict_value_kind(clause, name.value)
        if held is not Kind.UNKNOWN:
            return held
        if self.kind(clause.iter) in (Kind.DATALOADER, Kind.TENSOR) and name.value in bound_names(clause.target):
            return Kind.TENSOR
        if self._zipped_tensor(clause, name.value) or self._enumerated_batch(clause, name.value) \
                or self._parameter_of(clause, name.value):
            return Kind.TENSOR
        if self._loop_counter(clause, name.value):
            return Kind.NUMBER
        return self._jedi_kind(name)

    def _dict_value_kind(self, loop: cst.For | cst.CompFor, name: str) -> Kind:
        """`v` of `for k, v in losses.items()` or of `for v in losses.values()` (a statement or a
        comprehension's clause): a value of the dict, a tensor when every value of `losses` is one
        (a list for a dict of lists)."""
        it, target = loop.iter, loop.target
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and not it.args):
            return Kind.UNKNOWN
        method = it.func.attr.value
        if method == "items" and isinstance(target, cst.Tuple) and len(target.elements) == 2 \
                and not any(isinstance(el, cst.StarredElement) for el in target.elements):
            bound = target.elements[1].value
        elif method == "values":
            bound = target
        else:
            return Kind.UNKNOWN
        if not (isinstance(bound, cst.Name) and bound.value == name):
            return Kind.UNKNOWN
        return {Kind.DICT_OF_TENSOR: Kind.TENSOR, Kind.DICT_OF_LIST: Kind.LIST}.get(self.kind(it.func.value), Kind.UNKNOWN)

    def _dict_entry_kind(self, expr: cst.Subscript) -> Kind:
        """`out["loss"]` of `out = mod.training_step(batch)` whose every return is a dict literal
        (`{"loss": total, "n": len(batches)}`), or of `out = {...}` itself: the kind every literal
        gives that key. A dict of mixed values is a host container, but this entry may still be a
        device tensor. UNKNOWN when the key is not a string literal, some literal lacks it or
        spreads `**`, the literals disagree, or the scope writes into the dict (`out["loss"] = ...`,
        `out.update(...)`)."""
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index) \
                or not isinstance(expr.value, cst.Name) or not isinstance(expr.slice[0].slice.value, cst.SimpleString):
            return Kind.UNKNOWN
        key, name = expr.slice[0].slice.value.evaluated_value, expr.value
        value = self.value_of(name)
        literals: list[cst.BaseExpression] = []
        if isinstance(value, cst.Dict):
            literals = [value]
        elif isinstance(value, cst.Call) and self._own_method(value.func) is not None:
            method = self._own_method(value.func)
            for node in self.walk(method.body, into_scopes=False):  # type: ignore[union-attr]
                if isinstance(node, (cst.Yield, cst.Await)) or isinstance(node, cst.Return) and node.value is None:
                    return Kind.UNKNOWN
                if isinstance(node, cst.Return):
                    literals.append(node.value)  # type: ignore[arg-type]
        scope = self.enclosing_function(name)
        for use in self.uses(name.value):
            if self.enclosing_function(use) is not scope:
                continue
            parent = self.parent(use)
            if isinstance(parent, cst.Subscript) and isinstance(self.parent(parent), (cst.AssignTarget, cst.AugAssign, cst.Del)) \
                    or isinstance(parent, cst.Attribute) and parent.attr.value in ("update", "setdefault", "__setitem__"):
                return Kind.UNKNOWN
        kinds: set[Kind] = set()
        for literal in literals:
            if not isinstance(literal, cst.Dict):
                return Kind.UNKNOWN
            entries = [el for el in literal.elements if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)
                       and el.key.evaluated_value == key]
            if len(entries) != 1 or any(not isinstance(el, cst.DictElement) for el in literal.elements):
                return Kind.UNKNOWN
            kinds.add(self.kind(entries[0].value))
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def _receiver(self, func: FunctionNode, name: str) -> bool:
        """`name` is the first parameter (`self`) of an undecorated method of a class of this unit."""
        block = self.parent(func)
        positional = [*func.params.posonly_params, *func.params.params]
        return not func.decorators and bool(positional) and positional[0].name.value == name \
            and isinstance(block, cst.IndentedBlock) and isinstance(self.parent(block), cst.ClassDef)

    def _loop_counter(self, loop: cst.For | cst.CompFor, name: str) -> bool:
        """`i` of `for i in range(n)` or of `for i, batch in enumerate(loader)`: an int, known
        without asking jedi (the slowest question a rule asks, ~10 ms each)."""
        it, target = loop.iter, loop.target
        if not isinstance(it, cst.Call):
            return False
        qualified = self.qualified_name(it.func)
        if qualified == "builtins.range":
            return isinstance(target, cst.Name) and target.value == name
        return qualified == "builtins.enumerate" and isinstance(target, cst.Tuple) and len(target.elements) == 2 \
            and isinstance(target.elements[0].value, cst.Name) and target.elements[0].value.value == name \
            and not isinstance(target.elements[0], cst.StarredElement)

    def _enumerated_batch(self, loop: cst.For | cst.CompFor, name: str) -> bool:
        """`for i, (xb, yb) in enumerate(loader)`: `xb` and `yb` are the loader's (or tensor's)
        items, as without `enumerate`; `i` is a count."""
        it, target = loop.iter, loop.target
        return isinstance(it, cst.Call) and self.qualified_name(it.func) == "builtins.enumerate" and bool(it.args) \
            and it.args[0].keyword is None and self.kind(it.args[0].value) in (Kind.DATALOADER, Kind.TENSOR) \
            and isinstance(target, cst.Tuple) and len(target.elements) == 2 \
            and name in bound_names(target.elements[1].value)

    def _parameter_of(self, loop: cst.For | cst.CompFor, name: str) -> bool:
        """`p` of `for p in model.parameters()` or `for n, p in model.named_parameters()` (also
        buffers), directly or through a name or `self.<attr>` bound only to `list(...)` of them, or
        an `__init__` parameter every construction of its class here passes one (LSTNet's
        `Optim(model.parameters(), ...)` keeps `self.params = list(params)`): a module's tensor."""
        target = loop.target
        named = isinstance(target, cst.Tuple) and len(target.elements) == 2 \
            and isinstance(target.elements[1].value, cst.Name) and target.elements[1].value.value == name
        if not (named or isinstance(target, cst.Name) and target.value == name):
            return False
        return self._holds_parameters(loop.iter, named, 3)

    def _holds_parameters(self, expr: cst.BaseExpression, named: bool, depth: int) -> bool:
        methods = ("named_parameters", "named_buffers") if named else ("parameters", "buffers")
        if depth < 0:
            return False
        group_of = _param_group_list(expr)
        if group_of is None and isinstance(expr, cst.Subscript):
            group_of = self._group_loop_owner(expr)
        if not named and group_of is not None and (self.kind(group_of) is Kind.OPTIMIZER or self._optimizer_self(group_of)):
            return True  # `opt.param_groups[0]["params"]`: the parameters the optimizer steps
        if isinstance(expr, cst.Call):
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in methods:
                return self.kind(expr.func.value) is Kind.MODULE
            return self.qualified_name(expr.func) in ("builtins.list", "builtins.tuple") and len(expr.args) == 1 \
                and expr.args[0].keyword is None and not expr.args[0].star \
                and self._holds_parameters(expr.args[0].value, named, depth - 1)
        values: list[cst.BaseExpression] | None = None
        if isinstance(expr, cst.Name):
            values = self.value_sources(expr) if self.value_of(expr) is not None else self.constructed_with(expr)
        elif isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            values = self.assigned_values("self." + expr.attr.value)
            if len(values) != len(self._defs.get("self." + expr.attr.value, ())):
                return False  # also bound without a value (unpacked, augmented)
        return bool(values) and all(self._holds_parameters(v, named, depth - 1) for v in values)  # type: ignore[union-attr]

    def _group_loop_owner(self, expr: cst.Subscript) -> cst.BaseExpression | None:
        """`opt` of `group["params"]` where `group` is bound only by `for group in opt.param_groups`:
        `Optimizer.__init__(params, defaults)` keeps each group's tensors under `"params"`."""
        sliced = expr.slice[0].slice if len(expr.slice) == 1 else None
        if not (isinstance(sliced, cst.Index) and isinstance(sliced.value, cst.SimpleString)
                and sliced.value.evaluated_value == "params" and isinstance(expr.value, cst.Name)):
            return None
        d = self._reaching_def(expr.value)
        loop = d.loop.node if d is not None and d.loop is not None else None
        if not (isinstance(loop, cst.For) and isinstance(loop.target, cst.Name) and loop.target.value == expr.value.value
                and isinstance(loop.iter, cst.Attribute) and loop.iter.attr.value == "param_groups"):
            return None
        return loop.iter.value

    def _optimizer_self(self, expr: cst.BaseExpression) -> bool:
        """`self` inside a method of a class derived from a `torch.optim` optimizer (LARS, LAMB
        written by hand): `self.param_groups` holds the parameters its constructor was given."""
        if not (isinstance(expr, cst.Name) and expr.value == "self"):
            return False
        cls = self.enclosing_class(expr)
        return cls is not None and self.optimizer_class(cls)

    def optimizer_class(self, cls: cst.ClassDef, depth: int = 4) -> bool:
        """`cls` derives from `torch.optim.Optimizer` (or another `torch.optim` optimizer), directly
        or through classes of this unit: its `step` updates the weights it was given."""
        for base in cls.bases:
            if (self.qualified_name(base.value) or "").startswith("torch.optim."):
                return True
            own = self.classes.get(base.value.value) if isinstance(base.value, cst.Name) else None
            if own is not None and own is not cls and depth > 0 and self.optimizer_class(own, depth - 1):
                return True
        return False

    def constructed_with(self, param: cst.Name) -> list[cst.BaseExpression] | None:
        """What every `Cls(...)` call of this unit passes for `param` of `Cls.__init__` (None when
        `param` is no such parameter, or some call does not pass it plainly)."""
        func = self.enclosing_function(param)
        block = self.parent(func) if isinstance(func, cst.FunctionDef) and func.name.value == "__init__" else None
        cls = self.parent(block) if isinstance(block, cst.IndentedBlock) else None
        if not isinstance(cls, cst.ClassDef) or self.classes.get(cls.name.value) is not cls \
                or param.value in self.names_written(func.body):  # type: ignore[union-attr]
            return None
        names = positional_params(func)[1:]  # type: ignore[union-attr]
        if param.value not in names:
            return None
        index = names.index(param.value)
        passed: list[cst.BaseExpression] = []
        for call in self.calls_in(self.module):
            if not (isinstance(call.func, cst.Name) and call.func.value == cls.name.value):
                continue
            if any(a.star for a in call.args):
                return None
            arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param.value), None)
            plain = [a.value for a in call.args if a.keyword is None]
            arg = arg if arg is not None else plain[index] if index < len(plain) else None
            if arg is None:
                return None
            passed.append(arg)
        return passed or None

    def _zipped_tensor(self, loop: cst.For | cst.CompFor, name: str) -> bool:
        """`p` of `for p, t in zip(preds, targets)` (or `for i, p in enumerate(preds)`) over a
        tensor: each element of a tensor's first dimension is a tensor."""
        it, target = loop.iter, loop.target
        if not (isinstance(it, cst.Call) and isinstance(target, cst.Tuple)) or any(a.star or a.keyword for a in it.args):
            return False
        qualified = self.qualified_name(it.func)
        names = [el.value.value if isinstance(el.value, cst.Name) and not isinstance(el, cst.StarredElement) else None
                 for el in target.elements]
        if qualified == "builtins.zip" and len(names) == len(it.args):
            sources = [a.value for a in it.args]
        elif qualified == "builtins.enumerate" and len(names) == 2 and len(it.args) == 1:
            sources = [None, it.args[0].value]  # the counter is an int
        else:
            return False
        return any(n == name and src is not None and self.kind(src) is Kind.TENSOR for n, src in zip(names, sources))

    @cached_property
    def _direct_calls(self) -> dict[FunctionNode, list[tuple["Facts", cst.Call]]]:
        """Every `f(...)` of this unit's top-level functions by name (`evaluate(model, loader)`):
        where parameters get their kinds when no loop calls the function."""
        calls: dict[FunctionNode, list[tuple[Facts, cst.Call]]] = {}
        for node in self._order:
            if not isinstance(node, cst.Call):
                continue
            if isinstance(node.func, cst.Name) and node.func.value in self.functions:
                calls.setdefault(self.functions[node.func.value], []).append((self, node))
            elif isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
                method = self._method_of_instance(node.func.value, node.func.attr.value)
                if method is not None:  # `trainer.predict(lit, loader)` with `trainer = MiniTrainer(...)`
                    calls.setdefault(method, []).append((self, node))
        return calls

    def _method_of_instance(self, receiver: cst.Name, name: str) -> FunctionNode | None:
        """`Cls.name` of this unit when `receiver` was made by `Cls(...)` (moved or switched:
        `Cls(...).to(device)`; alone or in a tuple assignment), or is `self` in `Cls`."""
        if receiver.value == "self":
            cls = next((a for a in self.ancestors(receiver) if isinstance(a, cst.ClassDef)), None)
        else:
            value = self.construction_of(receiver)
            cls = self.classes.get(value.func.value) if value is not None and isinstance(value.func, cst.Name) else None
        return self.functions.get(f"{cls.name.value}.{name}") if cls is not None else None

    def host_only(self, func: FunctionNode) -> bool:
        """No torch in the body, and no device, training or file work: NumPy / pure Python."""
        for node in self.walk(func.body):
            if isinstance(node, (cst.Name, cst.Attribute)):
                q = self.qualified_name(node) or ""
                if q == "torch" or q.startswith("torch.") or q in ("builtins.open", "builtins.print", "builtins.input"):
                    return False
            if isinstance(node, cst.Attribute) and node.attr.value in ("cuda", "to", "backward", "step"):
                return False
        return True

    def invariant_params(self, func: FunctionNode) -> frozenset[str]:
        """Parameters of a per-iteration helper that every per-iteration call passes a
        loop-invariant value (`causal_mask(seq_len)`, `positions(4)`), defaults included.

        A host helper (NumPy, Python) whose whole call is invariant is the waste itself:
        `cpu-function` reports and hoists the call, so its body stays per-call code here."""
        if func in self._invariant_params:
            return self._invariant_params[func]
        self._invariant_params[func] = frozenset()  # recursion guard
        self.per_iteration_functions  # noqa: B018 - fills the call sites
        sites = self._call_sites.get(func, []) + self._foreign_sites.get(func, [])
        p = func.params
        names = [x.name.value for x in (*p.posonly_params, *p.params)]
        block = self.parent(func)
        if isinstance(block, cst.IndentedBlock) and isinstance(self.parent(block), cst.ClassDef) and names[:1] in (["self"], ["cls"]):
            names = names[1:]
        keyword_only = [x.name.value for x in p.kwonly_params]
        candidates = set(names) | set(keyword_only)
        hot = 0
        for caller, call in sites:
            loop = caller.iteration_loop(call)
            if loop is None:
                continue  # runs once: its arguments do not vary per iteration
            if caller.kind(call) is not Kind.TENSOR and self.host_only(func) and caller.is_invariant(call, loop):
                return frozenset()  # host work wholly invariant at its call: reported (and hoisted) there
            hot += 1
            if any(a.star for a in call.args):
                return frozenset()
            for i, arg in enumerate(call.args):
                name = arg.keyword.value if arg.keyword is not None else (names[i] if i < len(names) else None)
                if name is not None and name in candidates and not caller.is_invariant(arg.value, loop):
                    candidates.discard(name)
        result = frozenset(candidates) if hot else frozenset()
        self._invariant_params[func] = result
        return result

    def _param_kind(self, func: FunctionNode, param: str) -> Kind:
        """What every per-iteration call passes for `param` (`to_cuda(batch)` -> a tensor)."""
        self.per_iteration_functions  # noqa: B018 - fills the call sites
        sites = self._call_sites.get(func, []) + self._foreign_sites.get(func, [])
        sites += [site for site in self._direct_calls.get(func, ()) if site not in sites]
        if func.name.value == "forward":  # `model(X[i])` runs `forward(X[i])`
            own = self._module_calls.get(func)
            module_sites = (own[1] if own is not None else []) + self._module_sites.get(func, [])
            sites += [site for site in module_sites if site not in sites]
        positional = positional_params(func)
        block = self.parent(func)
        is_method = isinstance(block, cst.IndentedBlock) and isinstance(self.parent(block), cst.ClassDef) \
            and positional[:1] in (["self"], ["cls"])
        kinds = set()
        for caller, call in sites:
            names = positional[1:] if is_method else positional
            arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
            plain = [a.value for a in call.args if a.keyword is None and not a.star]
            if arg is None and param in names and names.index(param) < len(plain) \
                    and not any(a.star for a in call.args[: names.index(param) + 1]):
                arg = plain[names.index(param)]
            kinds.add(caller.kind(arg) if arg is not None else Kind.UNKNOWN)
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def _jedi_kind(self, name: cst.Name) -> Kind:
        known = self._jedi_would_say(name.value, self._variable(name))
        if known is not None:
            return known
        pos = self.position(name).start
        kind = kind_of_jedi_type(self.jedi.type_name(pos.line, pos.column))
        if kind is not Kind.UNKNOWN and self._collapsed_unpack(name, kind):
            return Kind.UNKNOWN
        return kind

    def _collapsed_unpack(self, name: cst.Name, kind: Kind) -> bool:
        """jedi gives `name` the kind of the FIRST name of the tuple it is unpacked with. A
        tuple that passes through a typeshed generic (`enumerate`, `list`, `sorted`, `iter`,
        `tuple`, `random.sample`, `list.pop`) loses its per-position types there: jedi then
        answers the first element's type for every position (`for k, (edges, n) in
        enumerate(batch)`: `n`, a Python int, is read as a tensor; red team 55). The same answer
        for a later position as for the first is no evidence: a homogeneous tuple looks alike.
        A tuple that never passed through a call (`a, b = x.to(d), n`, `for x, y in loader` of a
        list of pairs) keeps its positions in jedi: there the answer stands."""
        bound = self._binding_target(name)
        if bound is None:
            return False
        tup, index, source = bound
        if index == 0 or not self._through_call(source):
            return False
        first = tup.elements[0].value
        if not isinstance(first, cst.Name) or isinstance(tup.elements[0], cst.StarredElement):
            return True  # `(a, b), c` / `*a, b`: no first name to compare with
        pos = self.position(first).start
        return kind_of_jedi_type(self.jedi.type_name(pos.line, pos.column)) is kind

    def _through_call(self, source: cst.BaseExpression, depth: int = 0) -> bool:
        """What `source` holds passed through a call (`enumerate`, `list`, `sorted`, ...), which
        may hand jedi one type for every position of its tuples: directly, or through the name
        it is read from (`for k, pair in enumerate(rows): t, n = pair`). A tuple or list written
        out, a comprehension and a container read as it is keep their positions in jedi."""
        if isinstance(source, cst.Call):
            return not (isinstance(source.func, cst.Attribute) and source.func.attr.value == "items")
        if isinstance(source, cst.Subscript):
            return self._through_call(source.value, depth)
        if not isinstance(source, cst.Name) or depth > 3:
            return False
        d = self._reaching_def(source)
        if d is None:
            return False
        if d.loop is not None and isinstance(d.loop.node, cst.For):
            return self._through_call(d.loop.node.iter, depth + 1)
        node = self._node_of_order(d.order)
        if isinstance(node, cst.Assign):
            return self._through_call(node.value, depth + 1)
        return isinstance(node, cst.For) and self._through_call(node.iter, depth + 1)

    def _binding_target(self, name: cst.Name) -> "tuple[cst.Tuple | cst.List, int, cst.BaseExpression] | None":
        """The tuple (or list) target that binds the definition `name` reads, `name`'s place in
        it and the value unpacked (the loop's iterable or the assigned value), when that
        definition unpacks: a `for` target or an assignment target."""
        d = self._reaching_def(name)
        if d is None:
            return None
        if d.loop is not None and isinstance(d.loop.node, cst.For):
            targets: list[cst.BaseExpression] = [d.loop.node.target]
            source: cst.BaseExpression = d.loop.node.iter
        else:
            node = self._node_of_order(d.order)
            if isinstance(node, cst.Assign):
                targets, source = [t.target for t in node.targets], node.value
            elif isinstance(node, cst.For):
                targets, source = [node.target], node.iter
            else:
                return None
        for target in targets:
            found = _place_in_tuple(target, name.value)
            if found is not None:
                return (*found, source)
        return None

    def _node_of_order(self, order: int) -> cst.CSTNode | None:
        return self._nodes[order] if 0 <= order < len(self._nodes) else None

    def _variable(self, name: cst.Name) -> bool:
        """`name` stands for a variable here: not an attribute (`np.pi`), a keyword or an import path,
        where jedi answers for something else than the name's own binding."""
        parent = self.parent(name)
        return not (isinstance(parent, cst.Attribute) and parent.attr is name
                    or isinstance(parent, cst.Arg) and parent.keyword is name
                    or isinstance(parent, (cst.ImportAlias, cst.AsName, cst.ImportFrom)))

    def _jedi_would_say(self, name: str, variable: bool) -> Kind | None:
        """jedi's answer, known without asking it (a tenth of a unit's questions, ~10 ms each):
        a builtin the unit never binds anywhere (`len`, `range`) is the builtin; a name bound
        only by one top-level `import torch.nn as nn` is that module, whose kind is unknown. For a
        `variable`, also: a name bound nowhere is nothing jedi knows, and a name bound only by one
        undecorated top-level `def` or `class` is that function or class of `__main__`, whose
        kind is unknown too. None when jedi must be asked (a name the kernel's namespace, a star
        import or any other binding could give another meaning)."""
        symbols = self._symbols
        if symbols is None or name in self.namespace:
            return None
        bindings, tables = symbols
        how = bindings.get(name)
        if how is None:
            if variable and not hasattr(builtins, name) and not name.startswith("__"):
                return Kind.UNKNOWN  # (an earlier cell's name is the prior's, asked before jedi)
            value = getattr(builtins, name, None)
            if isinstance(value, (type, types.BuiltinFunctionType)) and value.__name__ == name:
                return kind_of_jedi_type(f"builtins.{name}")
            return None
        modules = self._imported_modules.get(name, set())
        if how == {"imported"} and len(modules) == 1 and modules != {_FROM_IMPORT}:
            kind = kind_of_jedi_type(next(iter(modules)))
            return kind if kind is Kind.UNKNOWN else None  # (`import torch.optim.sgd as s`: jedi decides)
        if variable and how == {"other"} and tables.get(name) == 1 and self._only_defined(name):
            return Kind.UNKNOWN
        return None

    def _only_defined(self, name: str) -> bool:
        """`name` is bound once, by an undecorated `def` or `class` statement of the module's body."""
        found = [s for s in self.module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef)) and s.name.value == name]
        return len(found) == 1 and not found[0].decorators and name not in self._defs

    @cached_property
    def _symbols(self) -> tuple[dict[str, set[str]], dict[str, int]] | None:
        """How each name is bound anywhere in the unit, by Python's own symbol tables: 'imported'
        at the top level, 'other' for any other binding (assignment, parameter, `def`, `global`,
        `nonlocal`, an import inside a function); and in how many tables it is bound. None when
        the unit has a star import or the compiler refuses it (then nothing is known without jedi)."""
        if any(isinstance(n, cst.ImportFrom) and isinstance(n.names, cst.ImportStar) for n in self._order):
            return None
        try:
            top = symtable.symtable(self.text, "<unit>", "exec")
        except (SyntaxError, ValueError, RecursionError):
            return None
        out: dict[str, set[str]] = {}
        tables_binding: dict[str, int] = {}
        tables = [top]
        while tables:
            table = tables.pop()
            tables.extend(table.get_children())
            for symbol in table.get_symbols():
                if symbol.is_imported() and table is top and not symbol.is_assigned():
                    how = "imported"
                elif symbol.is_imported() or symbol.is_assigned() or symbol.is_parameter() or symbol.is_namespace() \
                        or symbol.is_declared_global() or symbol.is_nonlocal():
                    how = "other"
                else:
                    continue
                out.setdefault(symbol.get_name(), set()).add(how)
                tables_binding[symbol.get_name()] = tables_binding.get(symbol.get_name(), 0) + 1
        return out, tables_binding

    @cached_property
    def _imported_modules(self) -> dict[str, set[str]]:
        """The modules each name is bound to by `import a.b` (`a`) or `import a.b as n` (`a.b`);
        a name also bound by `from m import n` maps to a non-module marker."""
        out: dict[str, set[str]] = {}
        for node in self._order:
            if isinstance(node, cst.Import):
                for alias in node.names:
                    full = dotted_name(alias.name) or ""
                    bound = dotted_name(alias.asname.name) if alias.asname else full.split(".")[0]
                    if bound:
                        out.setdefault(bound, set()).add(full if alias.asname else full.split(".")[0])
            elif isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
                for alias in node.names:
                    bound = dotted_name(alias.asname.name if alias.asname else alias.name)
                    if bound:
                        out.setdefault(bound, set()).add(_FROM_IMPORT)
        return out

    @cached_property
    def jedi(self) -> JediOracle:
        return JediOracle(self.text, self.namespace, earlier_imports(self.prior, self.namespace))


def _nested_places(target: cst.BaseExpression, path: tuple[tuple[int, int], ...]) -> dict[str, tuple[tuple[int, int], ...]]:
    """Each name of a nested tuple target (`(h, c)` of `out, (h, c) = ...`, entered at `path`) ->
    its path of (place, length) pairs; a name that occurs twice, or a starred part, is left out."""
    if not isinstance(target, (cst.Tuple, cst.List)) or any(isinstance(el, cst.StarredElement) for el in target.elements):
        return {}
    found: dict[str, tuple[tuple[int, int], ...]] = {}
    seen: set[str] = set()
    m = len(target.elements)
    for j, el in enumerate(target.elements):
        inner = {el.value.value: (*path, (j, m))} if isinstance(el.value, cst.Name) \
            else _nested_places(el.value, (*path, (j, m)))
        for name, place in inner.items():
            if name in seen:
                found.pop(name, None)
            else:
                found[name] = place
            seen.add(name)
    return found


def _place_in_tuple(target: cst.BaseExpression, name: str) -> "tuple[cst.Tuple | cst.List, int] | None":
    """The innermost tuple (or list) of an unpacking `target` holding `name` as an element, and
    its index there; None when `name` is the whole target or is not bound by it."""
    if not isinstance(target, (cst.Tuple, cst.List)):
        return None
    for i, el in enumerate(target.elements):
        value = el.value
        if isinstance(value, cst.Name) and value.value == name:
            return target, i
        found = _place_in_tuple(value, name)
        if found is not None:
            return found
    return None


def earlier_imports(prior: Prior, namespace: Mapping[str, Any]) -> str:
    """The imports the earlier cells leave bound, as lines jedi reads before this cell's text.

    Why: jedi reads one cell at a time. A notebook that imports in its first cell (`import
    torch.nn as nn`) and builds `nn.Sequential(...)` in a later one gave jedi a later cell whose
    `nn` is unbound, so a closure's read of its enclosing function's `net` got no type there,
    where the same code in one cell is a module (an LBFGS closure's `writer.add_histogram` of
    `net(canvas)` was found in one cell, not in two). A name a later earlier cell rebinds (the
    `Prior` drops it), the live namespace declares (its own prelude), or a relative import
    (unreadable without the file's package) gives no line."""
    lines = []
    for local, target in prior.aliases.items():
        if local in namespace or not local.isidentifier() or not target or target.startswith(".") \
                or not all(part.isidentifier() for part in target.split(".")):
            continue
        module, _, name = target.rpartition(".")
        if not module:
            lines.append(f"import {target}" if local == target else f"import {target} as {local}")
        else:
            lines.append(f"from {module} import {name}" + (f" as {local}" if local != name else ""))
    return "".join(line + "\n" for line in lines)


def _import_binds(node: cst.Import | cst.ImportFrom) -> set[str]:
    """Names an import statement binds (`import a.b` -> `a`; `from m import x as y` -> `y`); none
    for a star import."""
    if isinstance(node.names, cst.ImportStar):
        return set()
    out = set()
    for alias in node.names:
        bound = dotted_name(alias.asname.name) if alias.asname else dotted_name(alias.name)
        if bound:
            out.add(bound.split(".")[0] if isinstance(node, cst.Import) and not alias.asname else bound)
    return out


_FROM_IMPORT = "<from-import>"  # `from m import n`: `n` is whatever `m` holds, no module jedi's answer is known for


def _rebound_instance(owner: "Facts | None", value: cst.BaseExpression | None) -> "tuple[Facts | None, cst.BaseExpression | None]":
    """The construction an earlier cell's value stands for, through cells that only move it:
    `model = CategoricalVAE(...)` in one cell, `model = model.to(device)` in the next (public check
    47, p04: the Colab notebook moves the model in a cell of its own). The name the chain reads is
    followed into the cells before `owner` only when `owner` binds it nowhere at the top level, or
    binds it only in this very statement (the self-rebinding): otherwise which value was read is
    not followed here."""
    for _ in range(4):
        value = same_object(value)
        if owner is None or not isinstance(value, cst.Name):
            return owner, value
        top = [d for d in owner._defs.get(value.value, ()) if d.function is None]
        if any(d.function is not None for d in owner._defs.get(value.value, ())) or len(top) > 1:
            return owner, value
        if top and not any(n is top[0].value for n in owner.ancestors(value)):
            return owner, value
        earlier = owner.prior.value(value.value)
        if earlier is None:
            return owner, value
        owner, value = earlier
    return owner, value


_PARALLEL_WRAPPERS = frozenset({"torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
                                "torch.nn.parallel.data_parallel.DataParallel", "torch.nn.parallel.DistributedDataParallel",
                                "torch.nn.parallel.distributed.DistributedDataParallel"})


def same_object(value: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """The object a chain of module methods that return it was called on: `Net()` of
    `Net().to(device)`, `Net().cuda().eval()`."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in _SAME_OBJECT_METHODS:
        value = value.func.value
    return value


def _non_empty(facts: Facts, it: cst.BaseExpression) -> bool:
    if isinstance(it, (cst.List, cst.Tuple, cst.Set)):
        return any(not isinstance(el, (cst.StarredElement,)) for el in it.elements)
    if isinstance(it, cst.SimpleString):
        return len(it.evaluated_value) > 0
    if isinstance(it, cst.Call):
        name = (facts.qualified_name(it.func) or "").removeprefix("builtins.")
        args = [a.value for a in it.args if a.keyword is None]
        if name == "range" and 1 <= len(args) <= 2 and all(isinstance(a, cst.Integer) for a in args):
            bounds = [int(a.value) for a in args]  # type: ignore[union-attr]
            return (bounds[0] > 0) if len(bounds) == 1 else bounds[1] > bounds[0]
        if name in ("enumerate", "zip", "reversed", "sorted", "list", "tuple") and args:
            return all(_non_empty(facts, a) for a in (args if name == "zip" else args[:1]))
    return False


_TORCH_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
# Calls that always return a tensor in new memory (never one of their arguments or a view of it).
_ALLOCATING_CALLS = frozenset({"torch.tensor", "torch.stack", "torch.cat",
                               "torch.nn.utils.rnn.pad_sequence"})


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _is_constant(expr: cst.BaseExpression) -> bool:
    """A number, string, `True`/`False`/`None` (signed numbers too): a value nothing can change."""
    if isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)) \
        or (isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"))


def _dict_kind(values: list[Kind]) -> Kind:
    if values and all(v is Kind.LIST for v in values):
        return Kind.DICT_OF_LIST
    if values and all(v is Kind.TENSOR for v in values):
        return Kind.DICT_OF_TENSOR
    return Kind.DICT


@lru_cache(maxsize=4096)  # asked once per call site that reaches `func`; nodes are immutable
def binds_locally(func: FunctionNode, name: str) -> bool:
    """`name` is a parameter of `func` or bound in its body (any binding makes a name local, by
    Python's rule) without `global` / `nonlocal`: what `func` does with it no other scope sees."""
    if name in param_names(func):
        return True
    if isinstance(func, cst.Lambda):
        return False
    if any(name in {a.name.value for a in n.names} for n in walk(func.body, into_scopes=False)
           if isinstance(n, (cst.Global, cst.Nonlocal))):
        return False
    for n in walk(func.body, into_scopes=False):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.Assign):
            targets = [t.target for t in n.targets]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            targets = [n.target]
        elif isinstance(n, cst.AsName) and isinstance(n.name, cst.BaseExpression):
            targets = [n.name]
        elif isinstance(n, (cst.FunctionDef, cst.ClassDef)) and n is not func:
            targets = [n.name]
        if any(name in bound_names(t) for t in targets):
            return True
    return False


def _own_locals(func: FunctionNode) -> frozenset[str]:
    """Names `func` binds as its own locals (`batch = [...]`, `for n in ...`), not declared
    `global`/`nonlocal` and not its parameters: rebinding them changes nothing its caller sees
    (a helper's `target_batch = [...]` is not the caller's loop variable of the same name)."""
    declared: set[str] = set()
    bound: set[str] = set()
    for node in walk(func.body, into_scopes=False):
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            declared.update(n.name.value for n in node.names)
        elif isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.For, cst.NamedExpr)) \
                and isinstance(node.target, (cst.Name, cst.Tuple, cst.List)):
            bound.update(bound_names(node.target))
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            bound.update(bound_names(node.asname.name))
    return frozenset(bound - declared - param_names(func))


def _decorator_callee(decorator: cst.BaseExpression) -> cst.BaseExpression:
    """`torch.no_grad` for `@torch.no_grad()`, the decorator itself when it is not called."""
    return decorator.func if isinstance(decorator, cst.Call) else decorator


_IMMUTABLE_DEFAULTS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.Name,
                       cst.UnaryOperation)


def _changes_own_default(facts: "Facts", func: FunctionNode) -> bool:
    """A parameter whose default is an object (a tensor, a list: not a number, string, `None`
    or a name) that the body changes in place (`t += 1`, `t[0] = v`, `t.add_(1)`, `seen.append(x)`):
    one object shared by every call that omits it, so each call may answer differently."""
    p = func.params
    owned = {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)
             if x.default is not None and not isinstance(x.default, _IMMUTABLE_DEFAULTS)}
    if not owned:
        return False
    for node in facts.walk(func.body):
        if isinstance(node, cst.AugAssign) and root_name(node.target) in owned:
            return True
        if isinstance(node, (cst.Assign, cst.AnnAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            if any(isinstance(t, (cst.Subscript, cst.Attribute)) and root_name(t) in owned for t in targets):
                return True
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and root_name(node.func.value) in owned:
            return True  # a method of the default object: `append`, `add_`, `update`...
        if isinstance(node, cst.Call) and any(root_name(a.value) in owned for a in node.args) \
                and not (facts.qualified_name(node.func) or "").startswith("builtins."):
            return True  # handed to code that may change it
    return False


def param_names(func: FunctionNode) -> set[str]:
    """Every name a function binds by its signature, starred ones included."""
    p = func.params
    names = named_params(p)
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
        self.redefined: set[str] = set()  # functions defined more than once: which one runs depends on where
        self.classes: dict[str, cst.ClassDef] = {}
        self.aliases: dict[str, str] = {}
        self.modules: set[str] = set()  # names `import m` / `import m as n` binds: modules, not objects
        self.star_imports: list[str] = []  # `from model import *` -> "model" (resolved by Facts)
        self.imported_in_functions: set[str] = set()  # names an import binds inside a function body
        self.imported_at_top: set[str] = set()  # names an import binds in the module (or a class) body
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
                facts._ends[facts._order[node]] = order
                self._leave(node)
                continue
            facts._order[node] = order
            facts._nodes.append(node)
            facts._ends.append(-1)
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
        if _is_loop(parent) and (node is parent.body or (isinstance(parent, cst.While) and node is parent.test)):
            self._active[-1].append(self.by_node[parent])
        for name in writes_of(node):
            for loop in self._active[-1]:
                loop.writes.add(name)
        handler = getattr(self, "_enter_" + type(node).__name__, None)
        if handler is not None:
            handler(node)

    def _leave(self, node: cst.CSTNode) -> None:
        parent = self.facts._parents.get(node)
        if _is_loop(parent) and (node is parent.body or (isinstance(parent, cst.While) and node is parent.test)):
            self._active[-1].pop()
        if _is_loop(node):
            self._open[-1].pop()
        elif _is_function(node):
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
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                and len(target.elements) == len(value.elements) and all(_is_constant(el.value) for el in value.elements) \
                and not any(isinstance(el, cst.StarredElement) for el in (*target.elements, *value.elements)):
            for el, val in zip(target.elements, value.elements):  # `BATCH, LATENT = 24, 6`: constants, element for element
                self._define(el.value, val.value, node, loop, annotation)
            return
        if isinstance(target, (cst.Tuple, cst.List)) and value is not None \
                and not any(isinstance(el, cst.StarredElement) for el in target.elements):
            n = len(target.elements)
            paired = isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == n \
                and not any(isinstance(el, cst.StarredElement) for el in value.elements)
            for i, (el, element) in enumerate(zip(target.elements, self._unpacked(value, n))):
                if paired and isinstance(el.value, cst.Attribute):  # `self.c1, self.c2 = nn.Conv2d(...), nn.Conv2d(...)`
                    self._define(el.value, value.elements[i].value, node, loop, annotation)  # type: ignore[union-attr]
                    continue
                call = (value, i, n) if element is None and isinstance(value, cst.Call) and isinstance(el.value, cst.Name) else None
                held_by = value if element is None and isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)) else None
                places = _nested_places(el.value, ((i, n),)) if element is None and isinstance(value, cst.Call) else {}
                for name in bound_names(el.value):
                    nested = (value, places[name]) if name in places else None
                    self.defs.setdefault(name, []).append(_Def(name, order, None, func, loop, annotation,
                                                               element if isinstance(el.value, cst.Name) else None,
                                                               unpacked=call, container=held_by, nested=nested))
            return
        names = list(bound_names(target))
        single = value if len(names) == 1 and isinstance(target, cst.Name) else None
        # `first, *rest = views`: each name holds part of what the unpacked value holds
        held_by = value if isinstance(target, (cst.Tuple, cst.List)) else None
        for name in names:
            self.defs.setdefault(name, []).append(_Def(name, order, single, func, loop, annotation, container=held_by))

    def _unpacked(self, value: cst.BaseExpression, n: int) -> list[cst.BaseExpression | None]:
        """What each of `n` unpacked names is made from, for its kind (None: not known)."""
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == n \
                and not any(isinstance(el, cst.StarredElement) for el in value.elements):
            return [el.value for el in value.elements]
        if n == 2 and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value in _PAIRED_RESULTS:  # `torch.max(out, 1)`, `out.topk(k)`
            return [value, value]
        return [None] * n

    def _note_import(self, local: str) -> None:
        (self.imported_at_top if self._funcs[-1] is None else self.imported_in_functions).add(local)

    def _enter_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if alias.asname is not None:
                self.aliases[dotted_name(alias.asname.name) or full] = full
                self.modules.add(dotted_name(alias.asname.name) or full)
                self._note_import(dotted_name(alias.asname.name) or full)
            else:
                head = full.split(".")[0]
                self.aliases[head] = head
                self.modules.add(head)
                self._note_import(head)

    def _enter_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module is None and not node.relative:
            return
        # `from .data import f` -> ".data.f": resolved against local modules (see `modules.py`)
        module = "." * len(node.relative) + (dotted_name(node.module) or "" if node.module is not None else "")
        if isinstance(node.names, cst.ImportStar):
            if node.module is not None:
                self.star_imports.append(module)
            return
        if node.relative and node.module is None:
            module = module[:-1]  # `from . import data` -> ".data"
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            local = dotted_name(alias.asname.name) if alias.asname else name
            self.aliases[local or name] = f"{module}.{name}"
            self._note_import(local or name)

    def _enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        owner = self._classes[-1].name.value + "." if self._classes and self._funcs[-1] is None else ""
        if owner + node.name.value in self.functions:
            self.redefined.add(owner + node.name.value)
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
        if isinstance(node.target, cst.Name):  # `loss = 0` then `loss += criterion(...)`: a tensor from here on
            self.defs.setdefault(node.target.value, []).append(
                _Def(node.target.value, self.facts._order[node], None, self._funcs[-1], element=node.value, augmented=True))
            return
        self._define(node.target, None, node)

    def _enter_NamedExpr(self, node: cst.NamedExpr) -> None:
        """`(host := t.numpy())`, as a statement, in a condition or a comprehension (which binds in
        the enclosing scope): a binding like `host = t.numpy()`, so views and kinds follow it."""
        self._define(node.target, node.value, node)

    def _enter_WithItem(self, node: cst.WithItem) -> None:
        """`with np.nditer(a, op_flags=[["readwrite"]]) as it`: `__enter__` returns the view itself, so
        `it` is bound to it (writes through its elements change `a`); other context managers'
        `__enter__` results are unknown values."""
        if node.asname is not None:
            item = node.item
            func = item.func if isinstance(item, cst.Call) else None
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            shares = last in _SHARING_CALL_NAMES  # syntactic: qualified names are not known yet
            self._define(node.asname.name, item if shares else None, node)

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
                    function=self._funcs[-1], facts=self.facts, runs_once=_runs_once(node))
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
        # `model(x)`, `self.model(x)` (a model the class was given), `net.forward(x)`: a forward pass.
        spelled = func.value if isinstance(func, cst.Name) else func.attr.value \
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" else ""
        if any(w in spelled.lower() for w in _MODEL_WORDS) or (isinstance(func, cst.Attribute) and forward_variant(func.attr.value)):
            self.model_calls.update(active)


# Words that make a `forward_*` method a training hook rather than a second forward pass.
_FORWARD_TRAINING_WORDS = frozenset({"train", "training", "loss", "losses", "step", "update", "backward", "adapt", "fit"})


def _param_group_list(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`opt` of `opt.param_groups[i]["params"]` (a list of the tensors the optimizer steps), else None."""
    if not (isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index)
            and isinstance(expr.slice[0].slice.value, cst.SimpleString)
            and expr.slice[0].slice.value.evaluated_value == "params"):
        return None
    group = expr.value
    if isinstance(group, cst.Subscript) and len(group.slice) == 1 and isinstance(group.slice[0].slice, cst.Index) \
            and isinstance(group.value, cst.Attribute) and group.value.attr.value == "param_groups":
        return group.value.value
    return None


def forward_variant(method: str) -> bool:
    """`forward`, or a second forward of the same network (`forward_features`, `forward_masks`,
    `forward_once`): a forward pass by its name, unless the name says it trains (`forward_train`,
    `forward_loss`), where a hook may back-propagate or adapt."""
    if method == "forward":
        return True
    words = [w for w in method.lower().split("_") if w]
    return words[:1] == ["forward"] and len(words) > 1 and not _FORWARD_TRAINING_WORDS.intersection(words[1:])


def is_autograd_grad(func: cst.Attribute) -> bool:
    """`torch.autograd.grad` or `autograd.grad` (not `p.grad`, an attribute, nor a method `.grad(...)`)."""
    value = func.value
    return func.attr.value == "grad" and (
        (isinstance(value, cst.Name) and value.value == "autograd")
        or (isinstance(value, cst.Attribute) and value.attr.value == "autograd"
            and isinstance(value.value, cst.Name) and value.value.value == "torch"))


# Calls that train: back-propagate, step an optimizer, or hand a loss to a helper that does.
_TRAINING_METHODS = frozenset({"backward", "step", "zero_grad", "apply_gradients", "minimize", "manual_backward"})
_TRAINING_WORDS = ("train", "fit", "update", "learn", "optimi", "backward", "step")
_TRAINING_QUALIFIED = ("torch.autograd.backward", "torch.autograd.grad", "torch.optim.", "torch.func.grad",
                       "torch.enable_grad", "torch.set_grad_enabled")
# Libraries whose functions never run a training step of the user's model.
_NON_TRAINING_LIBRARIES = (
    "torch.", "numpy.", "builtins.", "math.", "tqdm.", "sklearn.", "scipy.", "pandas.", "matplotlib.", "seaborn.",
    "plotly.", "time.", "logging.", "json.", "os.", "random.", "collections.", "itertools.", "functools.",
    "statistics.", "wandb.", "PIL.", "torchvision.", "torchmetrics.", "evaluate.", "datasets.", "operator.",
    "copy.", "pickle.", "csv.", "re.", "string.", "sys.", "warnings.", "pathlib.", "einops.", "tensorboard.",
)
# Names of callables that run a forward pass: a model, a loss, a metric.
_FORWARD_CALL_WORDS = ("model", "net", "encoder", "decoder", "policy", "critic", "actor", "classifier", "generator",
                       "discriminator", "backbone", "head", "transformer", "criterion", "loss", "metric")
_SAFE_OTHER_METHODS = frozenset({
    "append", "extend", "insert", "keys", "values", "items", "get", "join", "format", "split", "strip",
    "add_batch", "add_scalar", "add_scalars", "log", "write", "set_postfix", "set_description", "eval",
    "savefig", "plot", "close", "reset", "render", "observation_space", "sample", "to_numpy",
})
_TRAINING_TENSOR_METHODS = frozenset({"backward", "register_hook", "retain_grad", "requires_grad_", "apply_", "map_",
                                      "map2_", "grad", "register_post_accumulate_grad_hook"})


@lru_cache(maxsize=1)
def _safe_unknown_methods() -> frozenset[str]:
    """Methods that never run a training step: torch's Tensor methods (read when first needed, so
    the analysis imports without torch; without torch only the plain list, which refuses more)."""
    try:
        import torch
    except ImportError:
        return _SAFE_OTHER_METHODS
    tensor = {m for m in dir(torch.Tensor) if not m.startswith("_")} - _TRAINING_TENSOR_METHODS
    return frozenset(tensor) | _SAFE_OTHER_METHODS


def calls_reached(owner: Facts, func: FunctionNode, call: cst.Call | None = None) -> list[cst.Call]:
    """The calls in `func`'s body that `call` may run: not those under `if opt is not None:` (or
    `if opt:`) when `call` passes nothing for `opt`, whose default is `None`
    (`loss_batch(model, xb, yb)` evaluates; `loss_batch(model, xb, yb, opt)` also steps)."""
    calls = owner.calls_in(func.body)
    if call is None or any(a.star for a in call.args):
        return calls
    params = [*func.params.posonly_params, *func.params.params]
    block = owner.parent(func)
    if isinstance(call.func, cst.Attribute) and isinstance(block, cst.IndentedBlock) \
            and isinstance(owner.parent(block), cst.ClassDef) and params[:1] and params[0].name.value in ("self", "cls"):
        params = params[1:]  # bound by the attribute access
    passed = {a.keyword.value for a in call.args if a.keyword is not None}
    passed |= {p.name.value for p, a in zip(params, [a for a in call.args if a.keyword is None])}
    unset = {p.name.value for p in (*params, *func.params.kwonly_params)
             if p.name.value not in passed and isinstance(p.default, cst.Name) and p.default.value == "None"}
    for node in owner.walk(func.body, into_scopes=False):  # `opt = opt or make()`: set after all
        if isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For)):
            unset -= set(bound_names(node.target))
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            unset -= set(bound_names(node.asname.name))
    if not unset:
        return calls
    dead = [n.body for n in owner.walk(func.body) if isinstance(n, cst.If) and _tests_set(n.test, unset)]
    return [c for c in calls if not any(anc in dead for anc in owner.ancestors(c))] if dead else calls


def _tests_set(test: cst.BaseExpression, names: set[str]) -> bool:
    """`p is not None` or `p` for one of `names`: false when `p` is None."""
    if isinstance(test, cst.Name):
        return test.value in names
    return isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value in names \
        and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.IsNot) \
        and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None"


def may_train(facts: Facts, node: cst.CSTNode) -> bool:
    """True unless every call under `node` is shown not to train: no `backward()` / optimizer
    step, and no call the analysis cannot see into (a function from another module or an
    earlier cell, a method of an object of unknown type, a callable passed in). Calls of this
    unit's functions, classes and modules are followed, transitively."""
    return _Training(facts).node(node)


def trains_visibly(facts: Facts, node: cst.CSTNode) -> bool:
    """`may_train` without the benefit of the doubt: only a call shown to train (a `backward()`,
    an optimizer step, a training-named method or function, followed through this unit's and
    local modules' code) counts; calls the analysis cannot see into do not."""
    return _Training(facts, unseen_trains=False).node(node)


def passed_for(facts: Facts, name: cst.Name, every_call: bool = True) -> list[cst.BaseExpression] | None:
    """What the unit's calls pass for parameter `name` of the enclosing function. None if it is
    not a parameter; with `every_call`, also None if it is rebound, never called, or some call
    does not say (unpacked arguments, a default); without, what the calls that say pass (any
    one of them may matter)."""
    func = facts.enclosing_function(name)
    if func is None or name.value not in param_names(func) or every_call and facts.value_of(name) is not None:
        return None
    params = positional_params(func)
    method = isinstance(facts.parent(facts.parent(func)), cst.ClassDef) and params[:1] == ["self"]
    if method:  # `Trainer(...).fit(model, ...)`: the arguments fill the parameters after `self`
        params = params[1:]
    sites = [c for c in facts.calls_in(facts.module)
             if (isinstance(c.func, cst.Attribute) if method else isinstance(c.func, cst.Name))
             and _called_name(c.func) == func.name.value]
    if not sites:
        return None if every_call else []
    values: list[cst.BaseExpression] = []
    for site in sites:
        found = argument_bound_to(site, params, name.value)
        if found is None and every_call:
            return None
        values += [found] if found is not None else []
    return values


class _Training:
    def __init__(self, facts: Facts, unseen_trains: bool = True) -> None:
        self.facts = facts
        self.unseen = unseen_trains  # what a call the analysis cannot see into is taken to do
        self.seen: set[tuple[FunctionNode, int]] = set()  # (function, how many of its calls a call reaches)

    def node(self, node: cst.CSTNode) -> bool:
        return any(self.call(c) for c in self.facts.calls_in(node))

    def function(self, func: FunctionNode, call: cst.Call | None = None) -> bool:
        reached = calls_reached(self.facts, func, call)
        key = (func, len(reached))
        if key in self.seen:
            return False  # already being judged: its other calls decide
        self.seen.add(key)
        return any(self.call(c) for c in reached)

    def methods(self, cls: cst.ClassDef, name: str) -> bool:
        method = self.facts.functions.get(f"{cls.name.value}.{name}")
        return method is not None and self.function(method)

    def call(self, call: cst.Call) -> bool:
        facts = self.facts
        func = call.func
        found = facts._function_at(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if found is not None:  # this unit's, an earlier cell's or a local module's function
            other = _Training(facts.owner_of(found), self.unseen)
            other.seen = self.seen
            return other.function(found, call)
        if isinstance(func, cst.Attribute) and func.attr.value == "zero_grad":
            return False  # clears `.grad` (the same under no_grad): alone, nothing back-propagates or steps
        qualified = facts.qualified_name(func)
        if qualified is not None:
            if qualified.startswith(_TRAINING_QUALIFIED) or qualified.rsplit(".", 1)[-1] in _TRAINING_METHODS:
                return True
            return self.unseen and not (qualified.startswith(_NON_TRAINING_LIBRARIES) or qualified in ("torch", "numpy"))
        if isinstance(func, cst.Name):
            name = func.value
            if name in facts.classes:
                return self.methods(facts.classes[name], "__init__")
            return self.instance_call(func)
        if isinstance(func, cst.Attribute):
            return self.method_call(func)
        return self.unseen  # `fns[i](x)`, `make()(x)`: not resolved

    def instance_call(self, func: cst.BaseExpression) -> bool:
        """`model(x)`, `criterion(out, y)`: a forward pass (followed when the class is in this
        unit); a callable passed in is judged by what the unit's callers pass."""
        cls = self._class_of(func)
        if cls is not None:
            return self.methods(cls, "forward") or self.methods(cls, "__call__")
        if self.facts.kind(func) is Kind.MODULE:
            return False
        name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""
        lowered = name.lower()
        if any(w in lowered for w in _TRAINING_WORDS):
            return True
        if isinstance(func, cst.Name):
            passed = passed_for(self.facts, func)
            if passed is not None:
                return any(self.callable_trains(value) for value in passed)
        return self.unseen and not any(w in lowered for w in _FORWARD_CALL_WORDS)

    def callable_trains(self, value: cst.BaseExpression) -> bool:
        """A callable given as an argument: a module, this unit's function, a library function."""
        facts = self.facts
        if isinstance(value, cst.Lambda):
            return self.node(value.body)
        qualified = facts.qualified_name(value)
        if qualified is not None:
            return qualified.startswith(_TRAINING_QUALIFIED) or (self.unseen and not qualified.startswith(_NON_TRAINING_LIBRARIES))
        if isinstance(value, cst.Name) and value.value in facts.functions:
            return self.function(facts.functions[value.value])
        if isinstance(value, cst.Call):
            return self.call(value) or (self.unseen and facts.kind(value) is not Kind.MODULE)
        return self.instance_call(value) if isinstance(value, (cst.Name, cst.Attribute)) else self.unseen

    def method_call(self, func: cst.Attribute) -> bool:
        facts = self.facts
        method = func.attr.value
        receiver = func.value
        if method in _TRAINING_METHODS:
            return not (method == "step" and "env" in (root_name(receiver) or "").lower())
        if isinstance(receiver, cst.Name) and receiver.value == "self":
            cls = next((a for a in facts.ancestors(func) if isinstance(a, cst.ClassDef)), None)
            if cls is not None and f"{cls.name.value}.{method}" in facts.functions:
                return self.methods(cls, method)
            if facts.kind(func) is Kind.MODULE or self._class_of(func) is not None:
                return self.instance_call(func)
            return self.unseen and method not in _safe_unknown_methods()
        cls = self._class_of(receiver)
        if cls is not None:
            return self.methods(cls, method)
        kind = facts.kind(receiver)
        if kind in (Kind.TENSOR, Kind.NDARRAY, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR, Kind.NUMBER):
            return False
        if kind is Kind.MODULE:
            return any(w in method.lower() for w in _TRAINING_WORDS)
        if facts.kind(func) is Kind.MODULE:
            return self.instance_call(func)
        made = self._constructor(receiver)
        if made is not None and made.startswith(_NON_TRAINING_LIBRARIES) and not made.startswith(_TRAINING_QUALIFIED):
            return False
        if method in ("update", "reset") and _meter_class(self.facts, receiver):
            # `losses.update(loss.item(), n)` of an `AverageMeter()`: a running average, shown to
            # train nothing; unseen code all the same (it may keep a tensor it is given)
            return self.unseen
        if any(w in method.lower() for w in _TRAINING_WORDS):
            return True
        if method in _safe_unknown_methods():
            # a tensor's (or container's) method by its name, unless the unit defines one so named
            candidates = [f for key, f in facts.functions.items() if key.endswith("." + method)]
            return any(self.function(f) for f in candidates)
        return self.unseen

    def _class_of(self, expr: cst.BaseExpression) -> cst.ClassDef | None:
        """The unit's class an object was made from: `net = Net(...)`, `self.enc = Encoder()`,
        or a parameter every call of its function passes one for (`trainer.fit(Lit(), ...)`)."""
        value: cst.BaseExpression | None = None
        if isinstance(expr, cst.Name) and expr.value == "self":  # `self(x)` in a method: the class's own forward
            cls = next((a for a in self.facts.ancestors(expr) if isinstance(a, cst.ClassDef)), None)
            while cls is not None and not any(f"{cls.name.value}.{m}" in self.facts.functions for m in ("forward", "__call__")):
                bases = [self.facts.classes.get(b.value.value) for b in cls.bases if isinstance(b.value, cst.Name)]
                cls = bases[0] if len(cls.bases) == 1 and bases else None  # one base of this unit, or unseen
            return cls
        if isinstance(expr, cst.Name):
            value = self.facts.value_of(expr)
            passed = passed_for(self.facts, expr) if value is None else None
            if passed:
                made = {id(c): c for c in (self._made_from(v) for v in passed)}
                return next(iter(made.values())) if len(made) == 1 else None
        elif isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            defs = self.facts._defs.get("self." + expr.attr.value, ())
            value = next((d.value for d in defs if d.value is not None), None)
        value = same_object(value)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            return self.facts.classes.get(value.func.value)
        return None

    def _made_from(self, value: cst.BaseExpression) -> cst.ClassDef | None:
        """The class of an argument: `Lit()` itself, or a name bound to one where it is passed
        (`Lit().to(device)` too)."""
        made = same_object(self.facts.value_of(value) if isinstance(value, cst.Name) else value)
        return self.facts.classes.get(made.func.value) if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) else None

    def _constructor(self, expr: cst.BaseExpression) -> str | None:
        """What made the receiver: `bar = tqdm(...)`, `with tqdm(...) as bar:` around the call, or
        the one library constructor of a function's global (`Facts.global_constructors`)."""
        value = self.facts.value_of(expr) if isinstance(expr, cst.Name) else None
        if value is None and isinstance(expr, cst.Name):
            value = self.facts.with_binding(expr)
        if value is None and isinstance(expr, cst.Name):  # a function's global, bound at top level
            made = self.facts.global_constructors(expr)
            return made.pop() if made is not None and len(made) == 1 else None
        return self.facts.qualified_name(value.func) if isinstance(value, cst.Call) else None


def _meter_class(facts: Facts, receiver: cst.BaseExpression) -> bool:
    """`losses = AverageMeter()` (`ProgressMeter`, `RunningAverager`): an object made by a class
    named for keeping running statistics, the ImageNet example's helper that public training
    scripts import from a `utils` module the analysis may not see; its `update` adds a number."""
    value = facts.value_of(receiver) if isinstance(receiver, cst.Name) else None
    name = _called_name(value.func) if isinstance(value, cst.Call) else None
    return name is not None and name.endswith(("Meter", "Averager"))


def _called_name(func: cst.BaseExpression) -> str | None:
    """`f` of `f(...)` and of `obj.f(...)`."""
    return func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None


def module_methods(facts: Facts) -> set[FunctionNode]:
    """Methods of this unit's `nn.Module` subclasses and the unit's functions they call: code
    that runs inside a forward pass (or builds one), where a loop is never an evaluation loop."""
    cached = getattr(facts, "_module_methods", None)
    if cached is not None:
        return cached
    out: set[FunctionNode] = set()
    work = [stmt for cls in facts.classes.values() if facts._kind_of_class(cls) is Kind.MODULE
            for stmt in cls.body.body if isinstance(stmt, cst.FunctionDef)]
    while work:
        func = work.pop()
        if func in out:
            continue
        out.add(func)
        for call in facts.calls_in(func.body):
            work.extend(facts._local_callees(call))
    facts._module_methods = out  # type: ignore[attr-defined]
    return out


_EXITS = frozenset({"exit", "quit", "sys.exit", "os._exit"})


def _runs_once(node: LoopNode) -> bool:
    """The body's last statement leaves the loop unconditionally (`break`, `return`, `raise`,
    `exit()`), and no `continue` of this loop can skip it: at most one pass runs."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if node.orelse is not None or not isinstance(last, cst.SimpleStatementLine):
        return False
    stmt = last.body[-1]
    leaves = isinstance(stmt, (cst.Break, cst.Return, cst.Raise)) or (
        isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call) and _dotted(stmt.value.func) in _EXITS)
    return leaves and not _continues(node.body)


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        return f"{node.value.value}.{node.attr.value}"
    return ""


def _continues(node: cst.CSTNode) -> bool:
    """A `continue` in `node` that belongs to the loop around it (not to a nested loop or function)."""
    for child in node.children:
        if isinstance(child, cst.Continue):
            return True
        if isinstance(child, (cst.For, cst.While)):
            if child.orelse is not None and _continues(child.orelse):  # `else: continue` is the outer loop's
                return True
        elif not isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and _continues(child):
            return True
    return False


def _classify_loops(facts: Facts, models: set[Loop]) -> None:
    """'train' if a loop (or one inside it, or a helper it calls) back-propagates or steps an
    optimizer; 'eval' if it calls a model without; else 'plain'."""
    methods = {loop: set(loop.methods) for loop in facts.loops}
    cache: dict[tuple[FunctionNode, int], set[str]] = {}
    for call, loop in facts._calls_in_loops:
        runs_model = False
        for callee in facts._callees(call):
            called = _methods_called(facts, callee, cache, call)
            runs_model = runs_model or _forwards_argument(facts, callee, call) or evaluates_model(facts, callee)
            chain: Loop | None = loop
            while chain is not None:
                methods[chain] |= called
                chain = chain.parent
        func = call.func
        runs_model = runs_model or runs_module_hook(facts, call) or runs_inference_verb(facts, call) \
            or runs_functional_model(facts, call) or switched_to_eval(facts, call)
        if runs_model or (isinstance(func, cst.Name) or (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                                           and func.value.value == "self")) and facts.kind(func) is Kind.MODULE:
            chain = loop
            while chain is not None:
                models.add(chain)
                chain = chain.parent
    for loop in facts.loops:
        m = methods[loop]
        if loop.runs_once:
            continue  # one pass: its work is no per-step cost (a debugging `break`, `exit()` after one batch)
        if "backward" in m or {"step", "zero_grad"} <= m:
            loop.kind = "train"
        elif loop in models:
            loop.kind = "eval"
    helpers = facts._forward_helpers = _forward_helpers(facts)  # type: ignore[attr-defined]
    for call, loop in facts._calls_in_loops:
        if loop.kind == "plain" and any(f in helpers for f in facts._callees(call)):
            chain: Loop | None = loop
            while chain is not None and chain.kind == "plain":
                chain.kind = "eval"
                chain = chain.parent


_TRAINED_TENSORS = re.compile(r"requires_grad_\(\s*(True)?\s*\)|requires_grad\s*=\s*True|\.attach_grad\(")
_MATMULS = frozenset({"torch.mm", "torch.matmul", "torch.bmm", "torch.einsum", "torch.nn.functional.linear",
                      # a convolutional network's layers written functionally (MAML's `manual_forward`)
                      "torch.nn.functional.conv1d", "torch.nn.functional.conv2d", "torch.nn.functional.conv3d",
                      "torch.nn.functional.conv_transpose1d", "torch.nn.functional.conv_transpose2d",
                      "torch.nn.functional.conv_transpose3d", "torch.nn.functional.bilinear"})
# Module methods that hand out the tensors an optimizer trains (they require grad).
_PARAMETER_METHODS = frozenset({"parameters", "named_parameters"})


def runs_functional_model(facts: Facts, call: cst.Call) -> bool:
    """`rnn(X, state, params)`: a model written as a function of explicit weights (d2l's models
    from scratch), a function of this unit, an earlier cell or a local module that unpacks one of
    its parameters into names (`W_xh, W_hh, b_h = params`) or indexes it (`params[0]`) and
    multiplies matrices with them (`@`, `torch.mm`, `F.linear`), in a program that makes trained
    tensors (`requires_grad_(True)`, `requires_grad=True`) where the function or the call is."""
    if not isinstance(call.func, (cst.Name, cst.Attribute)):
        return False
    func = facts._function_at(call.func)
    if func is None and isinstance(call.func, cst.Attribute):
        # `net.manual_forward(x, params)`: a method of a class of this unit or an earlier cell, found
        # by the call graph (one method of that name), MAML's functional forward
        callees = facts._callees(call)
        func = callees[0] if len(callees) == 1 else None
    if not isinstance(func, cst.FunctionDef):
        return False
    owner = facts.owner_of(func)
    cache: dict[int, bool] = owner.__dict__.setdefault("_functional_models", {})
    if id(func) not in cache:
        cache[id(func)] = _weights_function(owner, func)
    return cache[id(func)] and (any(_TRAINED_TENSORS.search(unit.text) for unit in (owner, facts))
                                or _given_module_parameters(facts, call))


def _given_module_parameters(facts: Facts, call: cst.Call) -> bool:
    """An argument of `call` is a name the calling function binds from a module's parameters
    (`fast = OrderedDict((n, p) for n, p in net.named_parameters())`, `ws = list(net.parameters())`):
    tensors that require grad, so the functional model records a graph of them. A `state_dict()`
    (detached copies) is not one."""
    scope = facts.enclosing_function(call)
    for arg in call.args:
        if not isinstance(arg.value, cst.Name):
            continue
        for d in facts._defs.get(arg.value.value, ()):
            value = d.value if d.value is not None else d.element
            if d.function is scope and value is not None and any(
                    isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _PARAMETER_METHODS
                    for n in facts.walk(value)):
                return True
    return False


def _returns_products(facts: Facts, call: cst.Call, index: int, n: int) -> bool:
    """Every `return` of the function `call` runs is an `n`-tuple whose element `index` is a list
    it starts empty and appends only matrix products to (`outputs.append(H @ W_hq + b_q)`)."""
    func = facts._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if not isinstance(func, cst.FunctionDef):
        return False
    owner = facts.owner_of(func)
    returns = [r for r in owner.walk(func.body, into_scopes=False) if isinstance(r, cst.Return)]
    for ret in returns:
        value = ret.value
        if not isinstance(value, cst.Tuple) or len(value.elements) != n or not isinstance(value.elements[index].value, cst.Name):
            return False
        name = value.elements[index].value.value  # type: ignore[union-attr]
        starts = [a for a in owner.walk(func.body, into_scopes=False) if isinstance(a, cst.Assign)
                  and any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)]
        appends = [c for c in owner.calls_in(func.body) if isinstance(c.func, cst.Attribute) and c.func.attr.value == "append"
                   and isinstance(c.func.value, cst.Name) and c.func.value.value == name]
        if len(starts) != 1 or not (isinstance(starts[0].value, cst.List) and not starts[0].value.elements) or not appends \
                or not all(len(c.args) == 1 and any(isinstance(m, cst.BinaryOperation) and isinstance(m.operator, cst.MatrixMultiply)
                                                    for m in owner.walk(c.args[0].value)) for c in appends):
            return False
    return bool(returns)


def _weights_function(facts: Facts, func: cst.FunctionDef) -> bool:
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params)}
    weights: set[str] = set()
    for node in facts.walk(func.body, into_scopes=False):
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and node.value.value in params \
                and any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
            weights |= {n for t in node.targets for n in bound_names(t.target)}
        elif isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value in params \
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and isinstance(node.slice[0].slice.value, (cst.Integer, cst.SimpleString)):
            weights.add(facts.code(node))
    weights |= global_weights(facts, func)
    if len(weights) < 2:
        return False
    for node in facts.walk(func.body, into_scopes=False):
        operands: list[cst.BaseExpression] = []
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.MatrixMultiply):
            operands = [node.left, node.right]
        elif isinstance(node, cst.Call) and (facts.qualified_name(node.func) or "") in _MATMULS:
            operands = [a.value for a in node.args]
        if any(facts.code(o) in weights or facts.code(_moved(o)) in weights or facts.names_read(o) & weights
               for o in operands):
            return True
    return False


def global_weights(facts: Facts, func: cst.FunctionDef) -> set[str]:
    """Names `func` reads but never binds whose every binding outside functions (in its unit or an
    earlier cell) makes a tensor that requires grad (`w1 = torch.empty(..., requires_grad=True)`,
    `torch.randn(...).requires_grad_()`) and that the program hands to a `torch.optim` optimizer:
    trained weights kept in module-level names, which a function of them runs as a network (a
    spiking network's `run_snn(inputs)` reading `w1`, `w2`; misses63, public check 51 p03)."""
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)}
    read = {n.value for n in facts.walk(func.body, into_scopes=False) if isinstance(n, cst.Name)}
    units = [facts, *(facts.prior.cells if facts.prior is not None else ())]
    found: set[str] = set()
    for name in read - params:
        if facts.values_in(name, func):
            continue  # a local of `func`
        values = [v for unit in units for v in unit.values_in(name, None)]
        if values and all(_requires_grad_value(v) for v in values) and any(_optimized(unit, name) for unit in units):
            found.add(name)
    return found


def _requires_grad_value(value: cst.BaseExpression) -> bool:
    """`torch.<factory>(..., requires_grad=True)` or `<tensor>.requires_grad_()` (`True` or no argument)."""
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Attribute) and value.func.attr.value == "requires_grad_":
        return not value.args or (isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == "True")
    return any(a.keyword is not None and a.keyword.value == "requires_grad" and isinstance(a.value, cst.Name)
               and a.value.value == "True" for a in value.args)


def _optimized(facts: Facts, name: str) -> bool:
    """`name` is read in the arguments of a `torch.optim` optimizer's constructor in this unit."""
    return any(isinstance(n, cst.Call) and (facts.qualified_name(n.func) or "").startswith("torch.optim.")
               and any(name in facts.names_read(a.value) for a in n.args) for n in facts.walk(facts.module))


def _moved(value: cst.BaseExpression) -> cst.BaseExpression:
    """The tensor a chain of moves and casts was called on: `params['fc.weight']` of
    `params['fc.weight'].to(device)` (the same weights, on the device)."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in _SAME_OBJECT_METHODS | {"contiguous"}:
        value = value.func.value
    return value


def _forward_helpers(facts: Facts) -> set[FunctionNode]:
    """Helpers that are a training step's forward pass: a training loop back-propagates what
    they return (`pred, true = self._process_one_batch(...)`; `loss = criterion(pred, true)`;
    `loss.backward()`), they train nothing themselves, and they run a model they hold: an
    attribute of `self` that is not a method of their class (`self.model(x)`), or, for a
    function, a global module (a notebook's `calc_sent_loss(sent)` calling `model(...)`). A loop
    that calls one without back-propagating runs the model: an evaluation loop (Informer's
    `test` and `predict`)."""
    found: set[FunctionNode] = set()
    for loop in facts.loops:
        if loop.kind != "train":
            continue
        body = list(facts.walk(loop.node.body, into_scopes=False))
        wanted: set[str] = set()
        for call in (n for n in body if isinstance(n, cst.Call)):
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward":
                wanted |= facts.names_read(call.func.value)
        assigns = [n for n in body if isinstance(n, cst.Assign)]
        for _ in range(4):  # `loss = criterion(pred, true)` <- `pred, true = helper(...)`
            grown = set(wanted)
            for a in assigns:
                if {name for t in a.targets for name in bound_names(t.target)} & wanted:
                    grown |= facts.names_read(a.value)
            if grown == wanted:
                break
            wanted = grown
        for a in assigns:
            if isinstance(a.value, cst.Call) and {name for t in a.targets for name in bound_names(t.target)} & wanted:
                found |= {f for f in facts._callees(a.value) if _runs_held_model(facts, f)}
    return found


def _runs_held_model(facts: Facts, func: FunctionNode) -> bool:
    """`func` calls no `backward`/`step` itself and calls `self.<attr>(...)` (or its `.forward`),
    `<attr>` not a method of its class; or, outside a class, calls a global name that is a
    module where `func` is defined (not one of its parameters)."""
    owner = facts.owner_of(func)
    calls = owner.calls_in(func.body)
    if any(isinstance(c.func, cst.Attribute) and c.func.attr.value in ("backward", "step") for c in calls):
        return False
    cls = next((a for a in owner.ancestors(func) if isinstance(a, cst.ClassDef)), None)
    if cls is None:
        params = named_params(func.params)
        return any(isinstance(c.func, cst.Name) and c.func.value not in params and owner.kind(c.func) is Kind.MODULE
                   and not loss_module(owner, c.func) for c in calls)
    for c in calls:
        target = c.func.value if isinstance(c.func, cst.Attribute) and c.func.attr.value == "forward" else c.func
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self" \
                and f"{cls.name.value}.{target.attr.value}" not in owner.functions:
            return True
    return False


def loss_module(facts: Facts, name: cst.Name) -> bool:
    """`criterion` of `criterion = nn.CrossEntropyLoss()`: a module with no weights to run
    (torch's `AdaptiveLogSoftmaxWithLoss` has weights: it is a model's last layer)."""
    made = facts.construction_of(name)
    qualified = (facts.qualified_name(made.func) or "") if made is not None else ""
    return qualified.endswith("Loss") and not qualified.endswith("AdaptiveLogSoftmaxWithLoss")


def forwards_a_model(facts: Facts, call: cst.Call) -> bool:
    """`call` hands a model to a helper that runs it (`loss_batch(model, xb, yb)`), or calls a
    hook of a model that runs it (`module.validation_step(batch)`)."""
    helpers: set[FunctionNode] = getattr(facts, "_forward_helpers", set())  # (set while the loops are classified)
    return runs_module_hook(facts, call) or any(_forwards_argument(facts, callee, call) or callee in helpers
                                                for callee in facts._callees(call))


# Methods by which models commonly run outside `forward` (`model.predict(x)`, `net.generate(...)`),
# also as a word of a longer name (`full_sort_predict`, `getUsersRating`: recommenders' scorers).
INFERENCE_VERBS = frozenset({"predict", "generate", "encode", "decode", "infer", "inference", "sample", "embed"})
_INFERENCE_WORDS = frozenset({"predict", "predictions", "rating", "ratings", "recommend", "infer", "inference"})


def inference_verb(method: str) -> bool:
    """`predict`, `generate`, ... or a name with one of the words (`full_sort_predict`, `getUsersRating`)."""
    words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", method)}
    return method in INFERENCE_VERBS or bool(words & _INFERENCE_WORDS)


def runs_module_hook(facts: Facts, call: cst.Call) -> bool:
    """`module.validation_step(batch, i)`, `model.predict(x)`: a method of this unit's `nn.Module`
    class called on an object of that class (made here, or passed by every caller of the function:
    a hand-rolled Trainer's `fit(module, ...)`), whose body runs the module (`self(x)`,
    `self.forward(x)`, one of its submodules, or another of its methods that does) and trains
    nothing (no `backward`/`step` anywhere it reaches)."""
    found = method_of_object(facts, call.func)
    if found is None or facts._kind_of_class(found[0]) is not Kind.MODULE:
        return False
    cls, method = found
    if _methods_called(facts, method, {}, call) & _TRAINING_METHODS:
        return False
    return _body_runs_module(facts, cls, method, set())  # type: ignore[arg-type]


def method_of_object(facts: Facts, func: cst.BaseExpression) -> tuple[cst.ClassDef, FunctionNode] | None:
    """The class and method of this unit that `obj.method` names: `obj` made by `Net(...)`
    (moved or switched: `Net().to(device)`), or a parameter every caller passes one for."""
    if not isinstance(func, cst.Attribute) or not any(k.endswith("." + func.attr.value) for k in facts.functions):
        return None
    cls = _Training(facts)._class_of(func.value)
    method = facts.functions.get(f"{cls.name.value}.{func.attr.value}") if cls is not None else None
    if method is None and isinstance(func.value, cst.Name):
        method = facts._method_of_instance(func.value, func.attr.value)
        cls = next((a for a in facts.ancestors(method) if isinstance(a, cst.ClassDef)), None) if method is not None else None
    return (cls, method) if cls is not None and method is not None else None


def single_method_of_object(facts: Facts, func: cst.BaseExpression) -> FunctionNode | None:
    """`method_of_object`'s method when its class defines it once: a second `def` of the name
    (a property's setter, a redefinition) leaves which one runs unsure."""
    found = method_of_object(facts, func)
    if found is None:
        return None
    cls, method = found
    defined = sum(1 for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == method.name.value)
    return method if defined == 1 else None


def _body_runs_module(facts: Facts, cls: cst.ClassDef, method: FunctionNode, seen: set[str]) -> bool:
    """`self(x)`, `self.forward(x)`, `self.encoder(x)` (a submodule), or `self.log2feats(x)` (a
    method of the class that does one of these) somewhere in `method`'s body."""
    seen.add(method.name.value)
    for c in facts.calls_in(method.body):
        func = c.func
        if isinstance(func, cst.Name) and func.value == "self":
            return True
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"):
            continue
        name = func.attr.value
        other = facts.functions.get(f"{cls.name.value}.{name}")
        if name == "forward" or (other is None and facts.kind(func) is Kind.MODULE):
            return True
        if other is not None and name not in seen and _body_runs_module(facts, cls, other, seen):
            return True
    return False


def runs_inference_verb(facts: Facts, call: cst.Call) -> bool:
    """`model.predict(x)`, `net.generate(ids)` on a model whose method body this unit cannot see:
    by its name, a forward pass, enough to call the loop an evaluation loop (never enough to
    wrap it in `no_grad`: the body may still train)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and inference_verb(func.attr.value)) or facts._function_at(func) is not None \
            or method_of_object(facts, func) is not None:
        return False
    receiver = func.value
    spelled = receiver.value if isinstance(receiver, cst.Name) else receiver.attr.value \
        if isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name) and receiver.value.value == "self" else ""
    return any(w in spelled.lower() for w in _MODEL_WORDS) or facts.kind(receiver) is Kind.MODULE


def _forwards_argument(facts: Facts, func: FunctionNode, call: cst.Call) -> bool:
    """`loss_batch(model, xb, yb)` whose body calls `model(xb)` once (not in a loop of its own):
    the model runs once per iteration of the loop that makes the call."""
    if any(a.star for a in call.args):
        return False
    owner = facts.owner_of(func)
    params = positional_params(func)
    called = {c.func.value for c in owner.calls_in(func.body)
              if isinstance(c.func, cst.Name) and c.func.value in params and not owner.enclosing_loops(c)}
    for i, arg in enumerate(call.args):  # (the cheap test first: a kind may cost a type inference)
        param = arg.keyword.value if arg.keyword else params[i] if i < len(params) else ""
        if param in called and ((isinstance(arg.value, cst.Name) and any(w in arg.value.value.lower() for w in _MODEL_WORDS))
                                or facts.kind(arg.value) is Kind.MODULE):
            return True
    return False


def switched_to_eval(facts: Facts, call: cst.Call) -> bool:
    """`srcnn = SRCNN().to(device); srcnn.eval(); for b in loader: out = srcnn(b)` (pub54 p01): a
    plain name that the same scope (its function, else the module) switches to eval mode with
    `name.eval()` before the call is a model, whatever its class's import lets the analysis
    resolve and whatever its name says. No argument: `nn.Module.eval()`, not `DataFrame.eval(expr)`;
    a name a function binds is that function's own (a parameter of another function is not it)."""
    func = call.func
    if not isinstance(func, cst.Name) or not call.args:
        return False
    scope = facts.enclosing_function(call)
    if scope is not None and not binds_locally(scope, func.value):
        return False
    where = facts.position(call).start.line
    return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "eval" and not c.args
               and isinstance(c.func.value, cst.Name) and c.func.value.value == func.value
               and facts.enclosing_function(c) is scope and facts.position(c).start.line < where
               for c in facts.calls_in(scope.body if scope is not None else facts.module))


def evaluates_model(facts: Facts, func: FunctionNode) -> bool:
    """`def eval(self, x): self.model.eval(); out = self.model(x); ...`: a helper that puts a
    model in evaluation mode and then calls it, once (not in a loop of its own): a trainer
    object's per-batch evaluation method runs the model once per iteration of the loop that
    calls it."""
    owner = facts.owner_of(func)
    calls = [c for c in owner.calls_in(func.body) if not owner.enclosing_loops(c)]
    evaluated = {owner.code(c.func.value) for c in calls if isinstance(c.func, cst.Attribute)
                 and c.func.attr.value == "eval" and not c.args}
    return bool(evaluated) and any(isinstance(c.func, (cst.Name, cst.Attribute)) and c.args
                                   and owner.code(c.func) in evaluated for c in calls)


def _methods_called(facts: Facts, func: FunctionNode, cache: dict[tuple[FunctionNode, int], set[str]],
                    site: cst.Call | None = None) -> set[str]:
    """Attribute calls made by `func` (those `site` may reach) and, transitively, by the unit's
    functions it calls: a step two helpers away (`self._update(loss)` -> `apply(loss, opt)` ->
    `loss.backward()`), not one under `if opt is not None:` when `site` passes no `opt`."""
    owner = facts.owner_of(func)
    reached = calls_reached(owner, func, site)
    key = (func, len(reached))
    if key in cache:
        return cache[key]
    cache[key] = out = set()  # a recursion guard while it is filled
    for call in reached:
        if isinstance(call.func, cst.Attribute):
            out.add(call.func.attr.value)
        for callee in owner._callees(call):
            out |= _methods_called(owner, callee, cache, call)
    return out


def _loader_dataset(facts: "Facts", call: cst.Call) -> cst.BaseExpression | None:
    """The dataset argument of a `DataLoader(...)` call (first positional or `dataset=`)."""
    if (facts.qualified_name(call.func) or "").rsplit(".", 1)[-1] != "DataLoader":
        return None
    for arg in call.args:
        if (arg.keyword is None and not arg.star) or (arg.keyword is not None and arg.keyword.value == "dataset"):
            return arg.value
    return None


_UNREADABLE = cst.Name("_")  # an argument list with `*args`/`**kwargs`: which value a parameter takes is not known


def _argument(call: cst.Call, index: int, param: str) -> cst.BaseExpression | None:
    """The value `call` passes for parameter `param` (position `index` after `self`): by keyword
    or position; None when not passed (its default); `_UNREADABLE` behind a star."""
    if any(a.star for a in call.args):
        return _UNREADABLE
    for i, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == param or arg.keyword is None and i == index:
            return arg.value
    return None


def is_self_attr_store(target: cst.BaseExpression, attr: str) -> bool:
    """`self.<attr>` itself as an assignment's target."""
    return isinstance(target, cst.Attribute) and target.attr.value == attr \
        and isinstance(target.value, cst.Name) and target.value.value == "self"
