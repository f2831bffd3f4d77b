"""Where a dataset's tensors live: on the host, on a device, or somewhere this analysis cannot read.

A DataLoader over host tensors yields host batches (reading them syncs nothing: host-sync), and
only host tensors can be pinned (a pinning loader over device tensors raises: pageable-transfer).
Both questions are answered here, from the loader's dataset expression, the values its names are
bound to (here, in earlier cells, live) and the bodies of the classes and functions it calls.
"""

from __future__ import annotations

import builtins
import sys
import types
import weakref
from dataclasses import dataclass

import libcst as cst

from .device_use import host_move, host_tensors, is_device_move, spells_cpu
from .facts import Facts
from .names import bound_names, keyword_arg, positional_params


# Libraries whose functions build host data (or take a visible `device=`): a call of theirs in
# a dataset's construction or class body puts nothing on a device unseen. `torch.load` is the
# exception: it restores tensors to the device they were saved from.
_HOST_LIBRARIES = frozenset(sys.stdlib_module_names) | {
    "torch", "torchvision", "torchaudio", "torchtext", "numpy", "pandas", "PIL", "cv2", "sklearn", "scipy",
    "transformers", "tokenizers", "datasets", "h5py"}


# What building a dataset (or a batch object) and loading from it runs: other methods (a batch
# type's own `.to(device)`) run only when the program calls them.
_RUN_BY_LOADING = frozenset({"__init__", "__new__", "__post_init__", "__getitem__", "__getitems__", "__iter__",
                             "__next__", "__len__", "__call__", "pin_memory"})


@dataclass(frozen=True)
class Placement:
    """`on_device`: the dataset's tensors are made on or moved to a device (a pinning loader
    would raise on a GPU). Else `unseen` names what the analysis could not read, where device
    tensors may hide (a class or function of a library or of a cell it did not see, a
    parameter); empty when every source was read and all of them build host tensors."""

    on_device: bool
    unseen: str


_CACHE: "weakref.WeakKeyDictionary[Facts, dict[int, Placement]]" = weakref.WeakKeyDictionary()


def dataset_placement(facts: Facts, loader: cst.Call) -> Placement:
    """Where the tensors of the dataset `loader` is built on live, and what `collate_fn` makes
    of them: the dataset expression, the values its names are bound to, and the code they run."""
    known = _CACHE.setdefault(facts, {})
    if id(loader) not in known:
        known[id(loader)] = _placement(facts, loader)
    return known[id(loader)]


def passed_on_device(facts: Facts, loader: cst.Call) -> bool:
    """The loader's dataset is a parameter of the method that builds it (`def _build(self, ds):
    return DataLoader(ds, ...)`) and some call of that method in its class passes a dataset of
    device tensors (`self._build(TensorDataset(x_gpu, y_gpu))`)."""
    args = [a for a in loader.args if not a.star and (a.keyword is None or a.keyword.value == "dataset")]
    func = facts.enclosing_function(loader)
    cls = facts.parent(facts.parent(func)) if func is not None else None
    if not args or not isinstance(args[0].value, cst.Name) or not isinstance(cls, cst.ClassDef):
        return False
    assert isinstance(func, cst.FunctionDef)
    params = positional_params(func)[1:]
    if args[0].value.value not in params:
        return False
    index = params.index(args[0].value.value)
    for call in facts.walk(cls.body):
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == func.name.value
                and isinstance(call.func.value, cst.Name) and call.func.value.value == "self"):
            continue
        passed = [a.value for i, a in enumerate(call.args) if (a.keyword is None and i == index)
                  or (a.keyword is not None and a.keyword.value == params[index])]
        for expr in passed:
            provenance = _Provenance()
            provenance.walk(facts, expr, strict=True)
            if provenance.device:
                return True
    return False


def _placement(facts: Facts, loader: cst.Call) -> Placement:
    args = [a for a in loader.args if not a.star and (a.keyword is None or a.keyword.value == "dataset")]
    if not args:
        return Placement(False, "the dataset (passed through a `**` dict)")
    provenance = _Provenance()
    provenance.walk(facts, args[0].value, strict=True)
    collate = keyword_arg(loader, "collate_fn")
    if collate is not None and not provenance.device:
        provenance.callable(facts, collate.value)  # the pinning thread pins what `collate_fn` returns
    return Placement(provenance.device, provenance.unseen)


class _Provenance:
    """Where a dataset's tensors come from: the expression, the values its names are bound to
    (here, in earlier cells, live), and the bodies of the classes and functions it calls (here,
    earlier cells, local modules), followed transitively. `strict` (the loader's own unit):
    a name bound where its value is not seen (a parameter) is unseen; inside a class or function
    body its parameters are the construction's arguments, already walked."""

    def __init__(self) -> None:
        self.device = False
        self.unseen = ""
        self._seen: set[int] = set()

    def walk(self, owner: Facts, node: cst.CSTNode, strict: bool) -> None:
        if self.device or id(node) in self._seen:
            return
        self._seen.add(id(node))
        for n in owner.walk(node):
            if isinstance(n, cst.Call):
                self._call(owner, n)
            elif isinstance(n, cst.Arg) and n.keyword is not None and n.keyword.value == "device" \
                    and not spells_cpu(n.value) and not (isinstance(n.value, cst.Name) and n.value.value == "None"):
                self.device = True
            if self.device:
                return
        reads = _data_reads(owner, node) if isinstance(node, cst.BaseExpression) else _body_reads(owner, node)
        for name in reads:
            self._name(owner, name, strict)

    def callable(self, owner: Facts, expr: cst.BaseExpression) -> None:
        """A function passed by name (`collate_fn=pad_collate`) or a lambda: its body is walked
        like a called one's; one the analysis cannot read is unseen."""
        if isinstance(expr, cst.Lambda):
            self.walk(owner, expr.body, strict=False)
            return
        if isinstance(expr, cst.Name) and expr.value == "None":
            return
        defined = owner._function_at(expr) if isinstance(expr, (cst.Name, cst.Attribute)) else None
        qualified = owner.qualified_name(expr) or ""
        if defined is not None:
            self.walk(owner.owner_of(defined), defined, strict=False)
        elif isinstance(expr, cst.Call) or qualified.split(".")[0] not in _HOST_LIBRARIES:
            self._miss(f"the `collate_fn` `{owner.code(expr)}` (its code is not seen)")

    def _miss(self, what: str) -> None:
        self.unseen = self.unseen or what

    def _call(self, owner: Facts, call: cst.Call) -> None:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("to", "cuda") \
                and (func.attr.value == "cuda" or is_device_move(owner, call) or not host_move(owner, call)):
            self.device = True
            return
        qualified = owner.qualified_name(func) or ""
        if qualified == "torch.load" and keyword_arg(call, "map_location") is None:
            self._miss("`torch.load` without `map_location` (it restores tensors to the device they were saved from)")
            return
        defined = owner._function_at(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if defined is not None:
            self.walk(owner.owner_of(defined), defined, strict=False)
            return
        cls = owner.class_named(func)
        if cls is not None:
            self._class(*cls)
        elif qualified and qualified.split(".")[0] not in _HOST_LIBRARIES:
            self._miss(f"`{qualified}` (its source is not part of the analysed code)")

    def _class(self, owner: Facts, cls: cst.ClassDef) -> None:
        for base in cls.bases:
            found = owner.class_named(base.value)
            qualified = owner.qualified_name(base.value) or ""
            if found is not None:
                self._class(*found)
            elif qualified.split(".")[0] not in ("torch", "builtins", "typing") and qualified != "object":
                self._miss(f"the base class `{owner.code(base.value)}` of `{cls.name.value}`")
        methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef)}
        for stmt in cls.body.body:
            if not isinstance(stmt, cst.FunctionDef):
                self.walk(owner, stmt, strict=False)  # class-level attributes
        work = [name for name in methods if name in _RUN_BY_LOADING]
        seen: set[str] = set()
        while work and not self.device:  # what loading runs, and the methods of `self` those call
            name = work.pop()
            if name in seen:
                continue
            seen.add(name)
            self.walk(owner, methods[name], strict=False)
            work += [c.func.attr.value for c in owner.calls_in(methods[name]) if isinstance(c.func, cst.Attribute)
                     and isinstance(c.func.value, cst.Name) and c.func.value.value == "self" and c.func.attr.value in methods]

    def _name(self, owner: Facts, read: cst.Name, strict: bool) -> None:
        sources = owner.value_sources(read)
        if sources is not None:
            for source in sources:
                self.walk(owner, source, strict)
            return
        name = read.value
        if name in owner.functions or name in owner.classes or name in owner.aliases:
            return  # called: `_call` followed it; imported: judged where it is called
        if owner.binds(name):
            if strict:
                self._miss(f"`{name}` (a parameter or loop variable: its value is not seen)")
            return
        earlier = owner.prior.value(name)
        if earlier is not None:
            self.walk(earlier[0], earlier[1], strict=True)
            return
        if owner.prior.defines(name):
            return
        if name in owner.namespace:
            self._live(owner, name, owner.namespace[name])
        elif not hasattr(builtins, name):
            self._miss(f"`{name}` (defined where this analysis cannot see)")

    def _live(self, owner: Facts, name: str, value: object) -> None:
        """A value of the kernel: tensors are where they are; an object of a class of an
        earlier cell is judged by that class; other objects of user code are unseen."""
        import torch

        if isinstance(value, torch.Tensor):
            self.device = self.device or value.device.type != "cpu"
            return
        if not host_tensors(value) or any(isinstance(v, torch.Tensor) and v.device.type != "cpu"
                                           for v in getattr(value, "__dict__", {}).values()):
            self.device = True
            return
        if isinstance(value, (types.ModuleType, type, types.FunctionType, int, float, str, bool, list, dict, tuple)):
            return
        module = (getattr(type(value), "__module__", "") or "").split(".")[0]
        cls = owner.prior.classes.get(type(value).__name__)
        if cls is not None:
            self._class(*cls)
        elif module not in _HOST_LIBRARIES:
            self._miss(f"`{name}` (a `{type(value).__name__}` whose class this analysis did not read)")


# torch calls whose arguments are sizes, bounds and fill values: what they build is a new host
# tensor (a `device=` among them is seen), whatever their arguments hold.
_SIZED_FACTORIES = frozenset({"randn", "rand", "randint", "zeros", "ones", "empty", "full", "arange", "linspace",
                              "randperm", "eye"})


def _data_reads(owner: Facts, expr: cst.BaseExpression) -> list[cst.Name]:
    """The names an expression reads, less those it reads only as sizes of new tensors
    (`torch.randn(n, 4)`): a parameter there cannot carry device tensors in."""
    sized: set[str] = set()
    for call in owner.calls_in(expr):
        qualified = owner.qualified_name(call.func) or ""
        if qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1] in _SIZED_FACTORIES:
            sized |= owner.names_read(call)
    wanted = owner.names_read(expr) - sized
    return [n for n in _body_reads(owner, expr) if n.value in wanted]


def _body_reads(owner: Facts, body: cst.CSTNode) -> list[cst.Name]:
    """The names a class, function or expression reads, one node per name (not those it
    defines, binds in a comprehension or lambda, or reads as an attribute or keyword)."""
    names: dict[str, cst.Name] = {}
    bound: set[str] = set()
    for n in owner.walk(body):
        if isinstance(n, cst.CompFor):
            bound |= set(bound_names(n.target))
        elif isinstance(n, cst.Name):
            parent = owner.parent(n)
            if isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.AsName)) \
                    or isinstance(parent, cst.Attribute) and parent.attr is n or isinstance(parent, cst.Arg) and parent.keyword is n:
                continue
            names.setdefault(n.value, n)
    return [n for name, n in names.items() if name not in bound]
