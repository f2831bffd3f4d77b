"""Closed-world proofs for hoists: every value from outside the analysed unit that a hoisted
call reads must be proved unchanged, from a closed list.

A notebook's earlier cells (and a local module a script imports) are an open world: a value bound
inside an earlier cell's function and returned, an object whose methods keep references, a
module-level cache, an array handed to a library that keeps it, a view of a parameter that
`opt.step()` changes. Red team 32b found 5 harmful hoists of 7 through such state; each fix
patched one route. Here nothing is assumed: a hoist stays automatic only when every outside value
the hoisted code reads - directly, through the names this unit binds from it, or through the
functions it calls (their global reads, transitively) - is one of:

- a module, a library import or a builtin;
- a function of the program (its own global reads are then judged the same way);
- an immutable constant (a number, string, bool, None, a tuple or arithmetic of such) bound once
  and never rebound in any unit seen;
- a fresh object (a literal list/dict/set, or a torch/NumPy call that surely returns new memory,
  `fresh_calls.fresh_call`) bound once, whose every use in every unit seen is a read from the
  closed list `_safe_use` (arithmetic, a comparison, an index, a read-only attribute, a fresh
  method, a fresh torch/NumPy call, a read-only builtin, printing) - never stored, aliased,
  viewed into a name, changed in place or handed to any other call.

Anything else leaves the finding with its fix marked `needs review`, naming the unproved value and
where it is bound. The live-namespace path (the `%paef` magic, no earlier cells' source) proves
immutable constants no live function rebinds, and nothing else."""

from __future__ import annotations

import dis
import re
import types
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import libcst as cst

from .facts import Facts, FunctionNode, _is_constant, _own_locals, param_names
from .fresh_calls import fresh_call
from .mutating_calls import table_written_arguments
from ._fresh_table import FRESH_NDARRAY_METHODS, FRESH_TENSOR_METHODS, NDARRAY_METHODS, TENSOR_METHODS
from .names import parameter_filled, positional_params, root_name
from .types import Kind

_DEPTH = 4
# Attributes that read a property into a new (or immutable) value.
_READ_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "device", "itemsize", "nbytes", "is_cuda",
                              "requires_grad", "is_leaf", "layout"})
# Attributes that are views of the object: what is done with the view decides.
_VIEW_ATTRIBUTES = frozenset({"T", "mT", "H", "real", "imag", "data", "flat"})
# Methods that change nothing and return the object itself or a view of it (on the CPU
# `.numpy()` is the tensor's memory): followed like the object.
_VIEW_METHODS = frozenset({"numpy", "view", "view_as", "reshape", "reshape_as", "detach", "flatten", "ravel",
                           "squeeze", "unsqueeze", "t", "transpose", "permute", "expand", "expand_as", "contiguous",
                           "to", "cpu", "cuda", "float", "double", "long", "int", "half", "bool", "type_as",
                           "astype", "swapaxes", "narrow", "select", "unflatten", "movedim",
                           # a container's reads: the element itself (a stored constant, or an alias)
                           "get", "keys", "values", "items", "index", "count"})
# Tensor/ndarray methods returning a Python value (no tensor, no view).
_VALUE_METHODS = frozenset({"size", "dim", "numel", "item", "tolist", "nelement", "ndimension", "element_size",
                            "is_contiguous", "is_floating_point", "stride", "get_device", "any", "all"})
# Builtins that only read their argument and return a new or immutable value.
_READING_BUILTINS = frozenset({"len", "print", "str", "repr", "float", "int", "bool", "isinstance", "type", "hash",
                               "id", "format", "abs", "round", "hasattr", "complex"})
_DTYPE_NAMES = ("float16", "half", "bfloat16", "float32", "float", "float64", "double", "complex64", "complex128",
                "int8", "uint8", "int16", "short", "int32", "int", "int64", "long", "bool")
_DTYPES = frozenset({f"torch.{n}" for n in _DTYPE_NAMES} | {f"numpy.{n}" for n in _DTYPE_NAMES if n not in ("half", "short", "long", "double", "bfloat16")})
_HISTORY = re.compile(r"_{1,3}|_\d+|Out|_oh")
_IMMUTABLE_TYPES = (int, float, complex, str, bytes, bool, type(None))


@dataclass
class _Proof:
    """One hoist's proof: the outside names judged so far, the functions walked."""

    facts: Facts
    judged_calls: set[int] = field(default_factory=set)  # ids of the hoisted calls (their arguments are judged)
    names: dict[tuple[int, str], str | None] = field(default_factory=dict)
    functions: set[int] = field(default_factory=set)
    depth: int = 3  # program functions a use may be followed into
    _history: str | None = None

    def history_reader(self) -> str:
        """The unit of the notebook that reads IPython's output history (`_`, `Out[3]`, `_3`), if any."""
        if self._history is None:
            units = [*self.facts.prior.cells, self.facts, *self.facts.later]
            space = _Namespace(units, self.facts)
            self._history = next((space.where(u) for u in units if any(
                _HISTORY.fullmatch(n) and any(not _binds_name(u, use) for use in u.uses(n)) for n in _names_of(u))), "")
        return self._history


def unproved_outside_value(facts: Facts, nodes: Sequence[cst.CSTNode]) -> str | None:
    """Why the values from outside `facts`' unit that `nodes` (the hoisted code) read are not
    proved unchanged; None when every one is proved (or the unit reads none)."""
    if not _has_outside(facts):
        return None
    proof = _Proof(facts)
    for node in nodes:
        proof.judged_calls.update(id(c) for c in facts.calls_in(node))
        if isinstance(node, cst.Call):
            proof.judged_calls.add(id(node))
    for node in nodes:
        reason = _unproved_in(proof, facts, node, _DEPTH)
        if reason:
            return reason
    return None


def _has_outside(facts: Facts) -> bool:
    return bool(facts.prior.cells) or bool(facts.namespace) or facts.imports is not None


def _unproved_in(proof: _Proof, unit: Facts, node: cst.CSTNode, depth: int) -> str | None:
    """The names `node` reads in `unit` (and the functions it calls) that are not proved."""
    if depth < 0:
        return "the values it reads are too deep to follow"
    for call in unit.calls_in(node) if not isinstance(node, cst.Call) else [node, *unit.calls_in(node)]:
        reason = _unproved_callee(proof, unit, call, depth)
        if reason:
            return reason
    for name in sorted(unit.names_read(node)):
        reason = _unproved_name(proof, unit, name, node, depth)
        if reason:
            return reason
    for attr in (n for n in unit.walk(node) if isinstance(n, cst.Attribute)):
        reason = _unproved_module_attribute(proof, unit, attr)
        if reason:
            return reason
    return None


def _unproved_callee(proof: _Proof, unit: Facts, call: cst.Call, depth: int) -> str | None:
    """A program function called here: its own global reads (an earlier cell's, a local module's,
    or this unit's reading outside values)."""
    func = unit._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if func is None and isinstance(call.func, cst.Name) and call.func.value not in unit._defs:
        live = unit.namespace.get(call.func.value)
        if isinstance(live, types.FunctionType):
            return _unproved_live_function(live, set())
        return None
    if func is None or id(func) in proof.functions:
        return None
    proof.functions.add(id(func))
    owner = unit.owner_of(func)
    if isinstance(func, cst.Lambda):
        return None
    reads = owner.names_read(func.body) - param_names(func) - _own_locals(func)
    for name in sorted(reads):
        reason = _unproved_name(proof, owner, name, func.body, depth - 1)
        if reason:
            return reason
    for inner in owner.calls_in(func.body):
        reason = _unproved_callee(proof, owner, inner, depth - 1)
        if reason:
            return reason
    for attr in (n for n in owner.walk(func.body) if isinstance(n, cst.Attribute)):
        reason = _unproved_module_attribute(proof, owner, attr)
        if reason:
            return reason
    return None


def _unproved_name(proof: _Proof, unit: Facts, name: str, where: cst.CSTNode, depth: int) -> str | None:
    """`name`, read in `unit`: this unit's own binding (followed to what it was built from when
    that is outside), or an outside value judged by the closed list."""
    key = (id(unit), name)
    if key in proof.names:
        return proof.names[key]
    proof.names[key] = None  # (a cycle proves nothing new)
    reason = _judge_name(proof, unit, name, depth)
    proof.names[key] = reason
    return reason


def _judge_name(proof: _Proof, unit: Facts, name: str, depth: int) -> str | None:
    if name in ("True", "False", "None", "__name__", "__file__"):
        return None
    space = _Namespace.of(proof.facts, unit)
    if unit is proof.facts and not space.notebook_global(name):
        if name in unit.functions or name in unit.classes:
            return None  # this unit's own: its functions' bodies are walked where they are called
        # bound in the hoisting unit: the rule's own analysis judges it; what it was built from
        # may still come from outside (a value returned by an earlier cell's function, a view)
        for d in unit._defs.get(name, ()):
            value = d.value if d.value is not None else d.element
            if value is None or depth <= 0:
                continue
            reason = _unproved_binding(proof, unit, value, depth - 1)
            if reason:
                return reason
        if name in unit._defs:
            return _handed_outside(proof, unit, name)
    if unit is not proof.facts and name in unit._defs and all(d.function is not None for d in unit._defs[name]) \
            and not space.notebook_global(name):
        return None  # a local of the outside function (not one of its globals)
    return space.judge(proof, name, depth)


def _unproved_binding(proof: _Proof, unit: Facts, value: cst.BaseExpression, depth: int) -> str | None:
    """What a binding of the hoisting unit may carry from outside: the objects it shares or holds
    (`w = W_earlier[0]`, `t = np.asarray(T)`), and what the program functions it calls return
    from their globals (`w = build()` returning a list's element). A computed value
    (`pseudo = model(x).argmax(1)`) holds none of what it was computed from."""
    for root in sorted(unit._held_roots(value)):
        reason = _unproved_name(proof, unit, root, value, depth)
        if reason:
            return reason
    for call in unit.calls_in(value):
        reason = _unproved_callee(proof, unit, call, depth)
        if reason:
            return reason
    return None


def _handed_outside(proof: _Proof, unit: Facts, name: str) -> str | None:
    """`reg(w)` with `reg` an earlier cell's (or a local module's, or the kernel's) function or
    object, in the hoisting unit: that code may keep `w` and change it later (red team 32b's
    tracker). Proved only when the function is pure and only reads its parameter."""
    for use in unit.uses(name):
        if _not_a_read(unit, use):
            continue
        current: cst.CSTNode = use
        for anc in unit.ancestors(use):
            if isinstance(anc, cst.Subscript) and anc.value is current or isinstance(anc, cst.Attribute) and anc.value is current:
                current = anc
                continue
            if isinstance(anc, cst.Call) and anc.func is current and isinstance(current, cst.Attribute) \
                    and current.attr.value in _VIEW_METHODS:
                current = anc
                continue
            if isinstance(anc, cst.Arg) and anc.value is current:
                call = unit.parent(anc)
                if isinstance(call, cst.Call) and id(call) not in proof.judged_calls and _outside_callee(unit, call) \
                        and not _read_by_program_function(proof, unit, call, anc):
                    return f"`{name}` (this cell) is handed to `{unit.code(call.func)}`, code of another cell or " \
                        f"module that may keep it (`{_short(unit, unit.statement_of(use))}`)"
            break
    return None


def _outside_callee(unit: Facts, call: cst.Call) -> bool:
    """The call runs code of another unit: an earlier cell's or a local module's function, class
    or object, or a live object of the kernel."""
    func = unit._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if func is not None:
        return unit.owner_of(func) is not unit
    head = root_name(call.func)
    if head is None or head in unit._defs or head in unit.functions or head in unit.classes:
        return False
    if head in unit.aliases:
        target = unit.aliases[head]
        return unit.imports is not None and unit.imports.module_of(target) is not None
    if unit.prior.defines(head) and head not in unit.prior.aliases:
        return True
    value = unit.namespace.get(head)
    return value is not None and not isinstance(value, types.ModuleType)


def _unproved_module_attribute(proof: _Proof, unit: Facts, attr: cst.Attribute) -> str | None:
    """`cfg.LR` with `cfg` a local module: the module's global `LR`."""
    if unit.imports is None or not isinstance(attr.value, cst.Name):
        return None
    qualified = unit.qualified_name(attr)
    module = unit.imports.module(qualified.rsplit(".", 1)[0]) if qualified and "." in qualified else None
    if module is None:
        return None
    return _Namespace([module], module, f"module `{qualified.rsplit('.', 1)[0]}`").judge(proof, attr.attr.value, _DEPTH - 1)


@dataclass
class _Namespace:
    """The units whose top-level code shares one global namespace: a notebook's cells (earlier
    ones and the hoisting one), or one local module."""

    units: list[Facts]
    home: Facts
    label: str = ""

    @staticmethod
    def of(hoisting: Facts, unit: Facts) -> "_Namespace":
        if unit is hoisting or any(unit is c for c in (*hoisting.prior.cells, *hoisting.later)):
            return _Namespace([*hoisting.prior.cells, hoisting, *hoisting.later], hoisting)
        return _Namespace([unit], unit, "a local module")

    def where(self, unit: Facts) -> str:
        if self.label:
            return self.label
        index = next((i for i, u in enumerate(self.units) if u is unit), None)
        if unit is self.home:
            return "this cell" if len(self.units) > 1 else "this file"
        return f"code cell {index + 1}" if index is not None else "another cell"

    def notebook_global(self, name: str) -> bool:
        """`name` is bound at the top level of another unit of the namespace too."""
        return len(self.units) > 1 and any(u is not self.home and self._binds(u, name) for u in self.units)

    @staticmethod
    def _binds(unit: Facts, name: str) -> bool:
        return name in unit.functions or name in unit.classes or name in unit.aliases or any(
            d.function is None or _declares_global(d.function, name) for d in unit._defs.get(name, ()))

    def judge(self, proof: _Proof, name: str, depth: int) -> str | None:
        binders = [u for u in self.units if self._binds(u, name)]
        if not binders:
            if self.home.namespace and name in self.home.namespace:
                return _judge_live(self.home.namespace, name)
            return None  # a builtin, or a name nothing binds (it fails as it did)
        bindings = [(u, kind, value, plain) for u in binders for kind, value, plain in self._bindings(u, name)]
        if all(kind == "import" for _, kind, _, _ in bindings):
            return next((r for r in (self._judge_import(proof, u, name, v, depth) for u, _, v, _ in bindings) if r), None)
        if len(bindings) == 1 and bindings[0][1] == "function":
            return None  # its body is walked where it is called
        reflective = next((u for u in self.units if _reflects(u)), None)
        if reflective is not None:
            return f"`{name}` may be reached by name: {self.where(reflective)} calls `globals()`/`vars()`/`exec`/`eval`"
        if any(kind in ("function", "class", "import") for _, kind, _, _ in bindings):
            unit = bindings[0][0]
            return f"`{name}` ({self.where(unit)}) is a class or is rebound: an object of unseen state"
        if len(bindings) != 1:
            return f"`{name}` is bound {len(bindings)} times ({', '.join(sorted({self.where(u) for u, _, _, _ in bindings}))})"
        unit, kind, value, plain = bindings[0]
        if kind != "value" or not isinstance(value, cst.BaseExpression):
            return f"`{name}` ({self.where(unit)}) is bound by a loop, an unpacking, `with` or an augmented assignment"
        if self._constant(unit, value, depth):
            return None
        if not plain or not _fresh_value(unit, value):
            return f"`{name}` ({self.where(unit)}) is `{_short(unit, value)}`: not a constant nor a fresh object " \
                "of a known constructor, so what changes it is not seen"
        for user in self.units:
            for use in user.uses(name):
                why = _unsafe_use(proof, user, use, name)
                if why:
                    return f"`{name}` ({self.where(unit)}) is {why} ({self.where(user)}: `{_short(user, user.statement_of(use))}`)"
        return None

    def _bindings(self, unit: Facts, name: str) -> list[tuple[str, object, bool]]:
        """(kind, value, bound by a plain `name = value`) of each global binding of `name` in `unit`."""
        out: list[tuple[str, object, bool]] = []
        if name in unit.aliases:
            out.append(("import", unit.aliases[name], False))
        if name in unit.functions:
            out.append(("function", unit.functions[name], False))
        if name in unit.classes:
            out.append(("class", unit.classes[name], False))
        for d in unit._defs.get(name, ()):
            if d.function is not None and not _declares_global(d.function, name):
                continue
            simple = d.value is not None and not d.augmented and d.loop is None and d.container is None \
                and d.unpacked is None
            out.append(("value" if simple else "other", d.value if simple else None,
                        simple and _assigned_plainly(unit, d.value, name)))  # type: ignore[arg-type]
        return out

    def _constant(self, unit: Facts, value: cst.BaseExpression, depth: int) -> bool:
        """An immutable constant: literals, tuples and arithmetic of them, a `torch.device`, a
        dtype, a choice between such, names of such."""
        if _is_constant(value) or unit._immutable(value):
            return True
        if isinstance(value, (cst.Attribute, cst.Name)) and (unit.qualified_name(value) or "") in _DTYPES:
            return True
        if isinstance(value, cst.IfExp):
            return self._constant(unit, value.body, depth) and self._constant(unit, value.orelse, depth)
        if isinstance(value, cst.Tuple):
            return all(isinstance(e, cst.Element) and self._constant(unit, e.value, depth) for e in value.elements)
        if isinstance(value, cst.BinaryOperation):
            return self._constant(unit, value.left, depth) and self._constant(unit, value.right, depth)
        if isinstance(value, cst.UnaryOperation):
            return self._constant(unit, value.expression, depth)
        if isinstance(value, cst.Name) and depth > 0:
            binders = [u for u in self.units if self._binds(u, value.value)]
            bindings = [(u, k, v) for u in binders for k, v, _ in self._bindings(u, value.value)]
            return len(bindings) == 1 and bindings[0][1] == "value" and bindings[0][2] is not None \
                and self._constant(bindings[0][0], bindings[0][2], depth - 1)  # type: ignore[arg-type]
        return False

    def _judge_import(self, proof: _Proof, unit: Facts, name: str, target: object, depth: int) -> str | None:
        """A library import is no program state; a name imported from a local module is that
        module's global, judged there."""
        if not isinstance(target, str) or unit.imports is None or "." not in target:
            return None
        module_name, _, member = target.rpartition(".")
        module = unit.imports.module(module_name)
        if module is None:
            return None  # a library (or no local file): not program state
        if member in module.functions or module.imports is not None and module.imports.function(target) is not None:
            return None  # a function: walked where it is called
        return _Namespace([module], module, f"module `{module_name}`").judge(proof, member, depth - 1)


_REFLECTION = frozenset({"globals", "vars", "exec", "eval", "locals", "__import__"})


def _reflects(unit: Facts) -> bool:
    """The unit reaches globals by name (`globals()["W"] *= 0.5`): no use of a name is then seen."""
    return any(not _not_a_read(unit, use) for name in _REFLECTION for use in unit.uses(name))


def _declares_global(func: FunctionNode, name: str) -> bool:
    return name not in _own_locals(func) and name not in param_names(func) and any(
        isinstance(n, cst.Global) and any(x.name.value == name for x in n.names)
        for n in _walk_no_scopes(func.body))


def _walk_no_scopes(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in current.children:
            if not isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                stack.append(child)


def _assigned_plainly(unit: Facts, value: cst.BaseExpression, name: str) -> bool:
    """`name = value` (one target, a plain name), not `a = name = value` or an unpacking."""
    assign = unit.parent(value)
    return isinstance(assign, cst.Assign) and len(assign.targets) == 1 \
        and isinstance(assign.targets[0].target, cst.Name) and assign.targets[0].target.value == name


def _fresh_value(unit: Facts, value: cst.BaseExpression) -> bool:
    """A new object no other name holds: a literal container, or a torch/NumPy call (or a
    tensor/array method) that surely returns new memory."""
    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True  # (its elements may be shared: a use that reads one out into a name is an alias)
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)):
        return unit.kind(value) in (Kind.NDARRAY, Kind.TENSOR)  # array/tensor arithmetic allocates its result
    if not isinstance(value, cst.Call) or any(a.keyword is not None and a.keyword.value in ("out", "copy")
                                              for a in value.args):
        return False
    qualified = unit.qualified_name(value.func) or ""
    if qualified and fresh_call(qualified):
        return True
    if isinstance(value.func, cst.Attribute):
        method, kind = value.func.attr.value, unit.kind(value.func.value)
        if kind is Kind.TENSOR:
            return method in FRESH_TENSOR_METHODS
        if kind is Kind.NDARRAY:
            return method in FRESH_NDARRAY_METHODS
    return False


def _unsafe_use(proof: _Proof, unit: Facts, use: cst.Name, name: str) -> str | None:
    """What a use of the fresh object `name` does that the closed list does not prove harmless
    (None: a read from the list, a binding of the name itself, or not this global at all)."""
    parent = unit.parent(use)
    if isinstance(parent, cst.Attribute) and parent.attr is use or isinstance(parent, cst.Arg) and parent.keyword is use \
            or isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef)) and parent.name is use \
            or isinstance(parent, (cst.ImportAlias, cst.NameItem)):
        return None
    if isinstance(parent, cst.AssignTarget) and parent.target is use:
        return None  # the binding itself (a second one was refused above)
    func = unit.enclosing_function(use)
    if func is not None and not isinstance(func, cst.Lambda) and name in _own_locals(func) | param_names(func):
        return None  # a local of the same name
    return _flow(proof, unit, use)


def _flow(proof: _Proof, unit: Facts, node: cst.CSTNode) -> str | None:
    """Follow a use up to where its value (or a view of it) ends; None when that is a read from
    the closed list, else what it does."""
    current = node
    for anc in unit.ancestors(node):
        if anc is current or isinstance(anc, cst.Attribute) and anc.attr is current:
            continue  # (the call a view method was followed into)
        if isinstance(anc, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.Index, cst.Slice,
                            cst.FormattedStringExpression)) or isinstance(anc, cst.IfExp) and anc.test is current:
            return None  # a new value; an index or a test only reads
        if isinstance(anc, cst.SubscriptElement):
            return None
        if isinstance(anc, cst.Subscript) and anc.value is current:
            current = anc  # an item or a view: what is done with it decides
            continue
        if isinstance(anc, cst.Attribute) and anc.value is current:
            attr = anc.attr.value
            call = unit.parent(anc)
            if isinstance(call, cst.Call) and call.func is anc:
                if any(a.keyword is not None and a.keyword.value == "out" for a in call.args):
                    return f"written by `.{attr}(out=...)`"
                if attr in _VALUE_METHODS or _fresh_method(attr):
                    return None
                if attr in _VIEW_METHODS:
                    current = call  # the object itself or a view of it: what is done with it decides
                    continue
                return f"used by its method `.{attr}(...)`, which may change or expose it"
            if attr in _READ_ATTRIBUTES:
                return None
            if attr in _VIEW_ATTRIBUTES:
                current = anc
                continue
            return f"read through `.{attr}`, not a known read-only attribute"
        if isinstance(anc, cst.Arg) and anc.value is current:
            call = unit.parent(anc)
            if isinstance(call, cst.Call):
                if id(call) in proof.judged_calls:
                    return None  # the hoisted call: judged by the rule
                if any(a.keyword is not None and a.keyword.value in ("out", "copy") for a in call.args):
                    return f"handed to `{unit.code(call.func)}` with `out=`/`copy=`"
                qualified = unit.qualified_name(call.func) or ""
                if qualified.startswith("builtins.") and qualified[len("builtins."):] in _READING_BUILTINS:
                    return None
                if qualified and fresh_call(qualified) and not qualified.startswith("builtins.") and not any(
                        w is current for w in table_written_arguments(call, qualified, qualified.startswith("numpy."))):
                    return None  # (`np.add(a, 1, A)` writes `A`: an output given by position)
                if _read_by_program_function(proof, unit, call, anc):
                    return None
                return f"handed to `{unit.code(call.func)}`, which may keep or change it"
            return "passed on"
        if isinstance(anc, cst.Expr) and anc.value is current:
            if _displayed(unit, anc) and proof.history_reader():
                return f"shown last in its cell, so IPython keeps it as `_`/`Out`, which {proof.history_reader()} reads"
            return None  # evaluated (or shown), not kept
        if isinstance(anc, cst.Call) and anc.func is current:
            return "called"
        if isinstance(anc, (cst.AssignTarget, cst.AugAssign, cst.Del)):
            return "changed in place"
        if isinstance(anc, (cst.Assign, cst.AnnAssign, cst.NamedExpr)):
            return "aliased by an assignment"
        if isinstance(anc, (cst.Element, cst.DictElement, cst.StarredElement, cst.StarredDictElement)):
            return "kept in a container"
        if isinstance(anc, (cst.For, cst.CompFor)):
            return "iterated (its items are views or shared elements)"
        if isinstance(anc, (cst.Return, cst.Yield)):
            return "returned from a function"
        return f"used in `{type(anc).__name__}`, not a known read"
    return "used where this analysis does not follow it"


def _fresh_method(name: str) -> bool:
    """A method returning new memory on a tensor and on an ndarray alike (`sort` is fresh on a
    tensor, in place on an array), or on the one of the two that has it."""
    tensor = name in FRESH_TENSOR_METHODS if name in TENSOR_METHODS else None
    array = name in FRESH_NDARRAY_METHODS if name in NDARRAY_METHODS else None
    return (tensor, array) != (None, None) and tensor is not False and array is not False


def _read_by_program_function(proof: _Proof, unit: Facts, call: cst.Call, arg: cst.Arg) -> bool:
    """`feats(RAW)` with `feats` a pure function of the program (no global writes, no
    randomness) whose parameter is only read from the closed list in its body."""
    if proof.depth <= 0 or arg.star or any(a.star for a in call.args):
        return False
    func = unit._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if not isinstance(func, cst.FunctionDef) or func.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) \
            and isinstance(func.params.star_arg, cst.Param):
        return False
    owner = unit.owner_of(func)
    key = next((k for k, f in owner.functions.items() if f is func), None)
    if key is None or "." in key or not owner.is_pure_function(key):
        return False
    param = parameter_filled(call, arg, positional_params(func))
    if param is None or param in owner.names_written(func.body):
        return False
    proof.depth -= 1
    try:
        return all(_flow(proof, owner, use) is None for use in owner.uses(param)
                   if owner.contains(func.body, use) and not _not_a_read(owner, use))
    finally:
        proof.depth += 1


def _not_a_read(unit: Facts, use: cst.Name) -> bool:
    parent = unit.parent(use)
    return isinstance(parent, cst.Attribute) and parent.attr is use or isinstance(parent, cst.Arg) and parent.keyword is use


def _displayed(unit: Facts, expr: cst.Expr) -> bool:
    """The last statement of a unit's top level: a notebook shows its value and keeps it."""
    line = unit.parent(expr)
    body = unit.module.body
    return bool(body) and body[-1] is line


def _binds_name(unit: Facts, use: cst.Name) -> bool:
    """`_` in `for _ in range(3)` or `x, _ = pair`: a throwaway binding, not a read of the history."""
    current: cst.CSTNode = use
    for anc in unit.ancestors(use):
        if isinstance(anc, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            current = anc
            continue
        return isinstance(anc, cst.AssignTarget) or isinstance(anc, (cst.For, cst.CompFor)) and anc.target is current \
            or isinstance(anc, cst.AsName)
    return False


def _names_of(unit: Facts) -> Iterable[str]:
    return unit._names_index.keys()


def _short(unit: Facts, node: cst.CSTNode) -> str:
    text = " ".join(unit.code(node).split())
    return text if len(text) <= 60 else text[:57] + "..."


# --- the live namespace (`%paef` with the kernel's objects, no earlier cells' source) ----------

def _judge_live(namespace: object, name: str) -> str | None:
    value = namespace.get(name)  # type: ignore[attr-defined]
    if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
        return None  # (a function's own reads are judged where it is called)
    if _immutable(value):
        writer = _live_writer(namespace, name)
        return f"`{name}` (the kernel's namespace) is rebound by `{writer}`" if writer else None
    return f"`{name}` (the kernel's namespace) is a live `{type(value).__name__}` whose other uses are not seen"


def _immutable(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_immutable(v) for v in value)
    return isinstance(value, _IMMUTABLE_TYPES)


def _live_writer(namespace: object, name: str) -> str | None:
    """A function of the kernel's namespace that rebinds the global `name`."""
    for key, value in list(namespace.items()):  # type: ignore[attr-defined]
        if isinstance(value, types.FunctionType) and name in _stored_globals(value.__code__):
            return key
    return None


def _stored_globals(code: types.CodeType) -> set[str]:
    return _global_names(code, ("STORE_GLOBAL", "DELETE_GLOBAL"))


def _loaded_globals(code: types.CodeType) -> set[str]:
    return _global_names(code, ("LOAD_GLOBAL", "LOAD_NAME"))


def _global_names(code: types.CodeType, opnames: tuple[str, ...]) -> set[str]:
    """Names the bytecode (nested functions and comprehensions included) uses with these opcodes."""
    out = {i.argval for i in dis.get_instructions(code) if i.opname in opnames}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _global_names(const, opnames)
    return out


def _unproved_live_function(func: types.FunctionType, seen: set[int]) -> str | None:
    """A function of the kernel's namespace: every global it reads, transitively, proved."""
    if id(func) in seen or len(seen) > 20:
        return None
    seen.add(id(func))
    for name in sorted(_loaded_globals(func.__code__)):
        if name not in func.__globals__:
            continue  # a builtin
        value = func.__globals__[name]
        if isinstance(value, types.FunctionType):
            reason = _unproved_live_function(value, seen)
            if reason:
                return reason
            continue
        if isinstance(value, (types.ModuleType, types.BuiltinFunctionType, type)):
            continue
        reason = _judge_live(func.__globals__, name)
        if reason:
            return reason
    return None
