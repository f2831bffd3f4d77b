"""What the result of a call outside torch and NumPy may share memory with.

`fresh_calls` knows which torch / NumPy calls surely return new memory; everything else was read
as fresh unless a view was seen (red team 26: helpers returning their argument, a slice, a field,
`self.buf`; `dict.get`, `list(t)` of a tensor's rows, `copy.copy`, `operator.itemgetter`, a
dataclass field, an `lru_cache` table a caller changes). Here the default is the other way: such
a result may be (a view of) any argument, or of the receiver of a method, unless it is known to be
new: a builtin that builds a number, a string or a new object from copies (`len`, `float`,
`sum`), or a function of the program whose every `return` is read to give new memory. A cached
function (`functools.lru_cache` / `cache`) hands every call the same object: its result also
shares the function's own name, so a change through one call's result varies every other call."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from . import held
from ._fresh_table import NDARRAY_METHODS, TENSOR_METHODS
from .types import Kind
from .fresh_calls import library_call
from .names import root_name

if TYPE_CHECKING:
    from .facts import Facts

# Builtins whose result holds nothing of their arguments' memory: numbers, strings, booleans,
# and arithmetic on the elements (`sum`, `abs`, `pow`: a new tensor or array for tensors). Not
# here: `list`, `tuple`, `sorted`, `min`, `max`, `next`, `dict`, `getattr`, `copy.copy`... (they
# hand back the elements, or the object itself).
_FRESH_BUILTINS = frozenset({
    "len", "int", "float", "complex", "str", "bool", "repr", "format", "round", "hash", "id", "isinstance",
    "issubclass", "callable", "hasattr", "range", "print", "abs", "divmod", "pow", "sum", "any", "all", "ord",
    "chr", "hex", "bin", "oct", "type", "open", "input",
})
# Other calls documented to build new objects all the way down.
_FRESH_OTHER = frozenset({"copy.deepcopy"})
# Decorators after which a function's result is the object its body built (not a cached one).
_TRANSPARENT_DECORATORS = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "staticmethod",
                                     "torch.enable_grad"})
_CACHING_DECORATORS = frozenset({"functools.lru_cache", "functools.cache", "functools.cached_property"})
_GUARD: set[int] = set()
_ACTIVE: set[int] = set()  # calls whose `result_roots` is being read


def result_roots(facts: "Facts", call: cst.Call, qualified: str) -> frozenset[str]:
    """Names whose memory `call`'s result (a call outside torch and NumPy) may share: its
    arguments and receiver, unless the callee is known to return new memory; a cached
    function's own name."""
    if known_fresh(facts, call, qualified):
        return frozenset()
    key = id(call)
    if key in _ACTIVE:  # a recursive helper (`tuple(unpack(v) for v in h)` in `unpack`): its argument's names
        return frozenset(filter(None, (root_name(a.value) for a in call.args if _handed(facts, a))))
    _ACTIVE.add(key)
    try:
        return _result_roots(facts, call)
    finally:
        _ACTIVE.discard(key)


def _result_roots(facts: "Facts", call: cst.Call) -> frozenset[str]:
    func = _program_function(facts, call)
    cached: frozenset[str] = frozenset()
    if func is not None and {facts.qualified_name(_callee(d.decorator)) or "" for d in func.decorators} & _CACHING_DECORATORS:
        root = root_name(call.func)
        cached = frozenset({root}) if root is not None else frozenset()
    roots: set[str] = set(cached)
    for arg in call.args:  # what a container argument holds may come back too (`{"c": c}.get("c")`)
        if _handed(facts, arg):
            roots |= held.held_roots(facts, arg.value)
    if isinstance(call.func, cst.Attribute) and facts.kind(call.func.value) is not Kind.MODULE_OBJ \
            and _receiver_handed_back(facts, call):
        roots |= held.held_roots(facts, call.func.value)
    return frozenset(roots - set(facts.aliases))  # `argparse.Namespace(...)`: a module is no memory


def known_fresh(facts: "Facts", call: cst.Call, qualified: str) -> bool:
    """`call` (outside torch and NumPy) surely returns new memory: a builtin of `_FRESH_BUILTINS`,
    or an undecorated program function whose returns are read to be new (not a cached one)."""
    if qualified.startswith("builtins.") and qualified[len("builtins."):] in _FRESH_BUILTINS or qualified in _FRESH_OTHER:
        return True
    func = _program_function(facts, call)
    if func is None:
        return False
    names = {facts.qualified_name(_callee(d.decorator)) or "" for d in func.decorators}
    return not names - _TRANSPARENT_DECORATORS and _returns_fresh(facts, func)


def loss_module_call(facts: "Facts", call: cst.Call) -> bool:
    """`criterion(a, b)` where the name's reaching binding is `torch.nn.<X>Loss(...)` (torch's own
    class, not a program class of that name), `self.criterion(a, b)` where every assignment of
    that attribute in the unit is one, or `nn.MSELoss()(a, b)` written out: every `torch.nn` loss
    computes its result (a reduction, or `reduction="none"`'s element-wise loss), never hands back
    its input or target. Not part of `known_fresh`: every rule's automatic rewrite was proved
    without it; `redundant-tensor` asks it explicitly (`shared_path(..., fresh=...)`) for a site it
    then reports as a hint (recall 61), so no existing rewrite widens."""
    func = call.func
    if isinstance(func, cst.Call):
        values: list[cst.BaseExpression] = [func]
    elif isinstance(func, cst.Name):
        value = facts.value_of(func)
        values = [value] if value is not None else []
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        values = facts.self_assigned_values(func.attr.value)
    else:
        values = []
    return bool(values) and all(_torch_loss_built(facts, v) for v in values)


def _torch_loss_built(facts: "Facts", value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call):
        return False
    qualified = facts.qualified_name(value.func) or ""
    head = root_name(value.func)
    return qualified.startswith("torch.nn.") and qualified.endswith("Loss") \
        and (head is None or head not in facts.classes)


def may_return_argument(facts: "Facts", call: cst.Call, arg: cst.Arg) -> bool:
    """`call`'s result (a call outside torch and NumPy) may be `arg`'s object, a view of it or
    hold it: `helper(t)`, `list(t)` (its rows), `zip(*pairs)`, `d.get("k", t)`."""
    return _handed(facts, arg) and not known_fresh(facts, call, facts.qualified_name(call.func) or "")


def may_return_receiver(facts: "Facts", call: cst.Call) -> bool:
    """`obj.method(...)` of another object than a tensor or an array may return `obj`, a view of
    it or something it holds (`ring.current()` giving `self.buf`, `d.get("k")`)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or facts.kind(func.value) in (Kind.TENSOR, Kind.NDARRAY, Kind.MODULE_OBJ):
        return False
    qualified = facts.qualified_name(func) or ""
    if library_call(qualified) or root_name(func.value) in facts.aliases:
        return False  # a module's function (`torch.tensor`, `copy.copy`), not a method of an object
    return other_objects_method(facts, call) and _receiver_handed_back(facts, call) \
        and not known_fresh(facts, call, qualified)


# Container methods that hand back what the container holds (or a shallow copy of it).
_CONTAINER_READS = frozenset({"get", "setdefault", "pop", "popitem", "popleft", "copy", "values", "items", "keys",
                              "__getitem__", "__iter__", "__next__"})
_CONTAINER_KINDS = frozenset({Kind.DICT, Kind.LIST, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR})


def _receiver_handed_back(facts: "Facts", call: cst.Call) -> bool:
    """The method may return its receiver or what it holds: a program class's method (read: only
    when not proven fresh does it count), a container's read (`d.get`, `d.copy()`, `q.popleft()`),
    any method of a container kind or of a literal, a method of an object of unknown class that
    the analysis cannot find (`pool.buffer()` on a parameter: `unseen_method`)."""
    func = call.func
    assert isinstance(func, cst.Attribute)
    if _program_function(facts, call) is not None or func.attr.value in _CONTAINER_READS:
        return True
    return facts.kind(func.value) in _CONTAINER_KINDS or isinstance(func.value, (cst.Dict, cst.List, cst.Tuple, cst.Set)) \
        or unseen_method(facts, call)


def unseen_method(facts: "Facts", call: cst.Call) -> bool:
    """`pool.buffer()`, `tracker.track(a)`, `module.training_step(batch)`: a method of an object of
    unknown kind whose class the analysis cannot find (a parameter, a factory's result), under a
    name no Tensor / ndarray has. Its body is out of sight: it may hand back what the object
    holds (`return self.buf`) and keep what it is given (`self.kept = a`) for a later method to
    change in place."""
    func = call.func
    if not isinstance(func, cst.Attribute) or facts.kind(func.value) is not Kind.UNKNOWN:
        return False
    root = root_name(func.value)
    if root is None or root in facts.aliases or library_call(facts.qualified_name(func) or ""):
        return False  # a module's function (`json.dumps`, `torch.tensor`), not an object's method
    name = func.attr.value
    return _program_function(facts, call) is None and name not in TENSOR_METHODS and name not in NDARRAY_METHODS


def _handed(facts: "Facts", arg: cst.Arg) -> bool:
    """An argument whose object the callee gets: not a number or a size. `*pairs` hands over its
    elements, and so does `**` of a dict written out (`Namespace(**{"t": c})` holds `c`); not
    `**cfg` of a name, as `held` reads them (`held.unpacked_elements_kept`)."""
    return held.unpacked_elements_kept(arg) and not _metadata_arg(facts, arg.value)


def other_objects_method(facts: "Facts", call: cst.Call) -> bool:
    """`obj.name(...)` on a receiver not known to be a tensor or an array runs another object's
    method: a program class's (found), or one whose name no Tensor / ndarray has (`d.get`,
    `ring.current`). A Tensor / ndarray method's name on an unknown receiver (`out.sum()`) keeps
    the tables' answer, and so do torch's modules, optimizers and loaders (`model.parameters()`:
    what an optimizer's step changes is followed by other facts)."""
    func = call.func
    assert isinstance(func, cst.Attribute)
    name = func.attr.value
    if _program_function(facts, call) is not None:
        return True
    if facts.kind(func.value) in (Kind.MODULE, Kind.OPTIMIZER, Kind.DATALOADER, Kind.DATASET):
        return False  # torch's own objects (`model.parameters()`): their effects are known elsewhere
    return name not in TENSOR_METHODS and name not in NDARRAY_METHODS


def _callee(decorator: cst.BaseExpression) -> cst.BaseExpression:
    return decorator.func if isinstance(decorator, cst.Call) else decorator


def _metadata_arg(facts: "Facts", value: cst.BaseExpression) -> bool:
    """`X.shape[1]`, `t.size(0)`, a number or a string: handed over, never memory."""
    from .facts import _metadata

    return isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)) or _metadata(value) \
        or facts.kind(value) is Kind.NUMBER


def _program_function(facts: "Facts", call: cst.Call) -> cst.FunctionDef | None:
    """The program's function (this unit's, an earlier cell's, a local module's) or the method of
    a program class (`Ops.flat`, `ring.current()` with `ring = Ring(...)`) that `call` runs."""
    func = call.func
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    found = facts._function_at(func)
    if isinstance(found, cst.FunctionDef):
        return found
    if isinstance(func, cst.Attribute):
        base = func.value
        made = facts.value_of(base) if isinstance(base, cst.Name) else base
        cls = facts.class_named(made.func) if isinstance(made, cst.Call) else facts.class_named(base)
        if cls is not None:
            owner, node = cls
            return next((m for m in owner.walk(node.body) if isinstance(m, cst.FunctionDef)
                         and m.name.value == func.attr.value), None)
    return None


def _returns_fresh(facts: "Facts", func: cst.FunctionDef) -> bool:
    """Every `return` of `func` gives new memory: a value sharing nothing (`torch.zeros(n)`,
    `a * 2`, `np.sqrt(a)`), or a local bound only to such values. Not a generator (it holds its
    arguments), not a function that returns nothing it is seen building."""
    key = id(func)
    if key in _GUARD:
        return False  # recursion: not proven
    owner = facts.owner_of(func) or facts
    _GUARD.add(key)
    try:
        returns = []
        for node in owner.walk(func.body):
            if isinstance(node, (cst.Yield, cst.Await)):
                return False
            if isinstance(node, cst.Return) and owner.enclosing_function(node) is func:
                returns.append(node)
        for ret in returns:
            if ret.value is None:
                continue  # `None`
            roots = held.held_roots(owner, ret.value)  # `return a, a.sum()` holds `a`
            if not all(_fresh_local(owner, func, r) for r in roots):
                return False
        return True
    finally:
        _GUARD.discard(key)


def _fresh_local(owner: "Facts", func: cst.FunctionDef, name: str) -> bool:
    """A local of `func` bound only to values sharing nothing (`out = torch.zeros(n)`,
    `y = x * 2`; `out += b` keeps it its own)."""
    defs = [d for d in owner._defs.get(name, ()) if d.function is func]
    if not defs:
        return False
    return all(d.augmented or (d.value is not None and d.loop is None and d.unpacked is None and d.container is None
                               and not held.held_roots(owner, d.value)) for d in defs)
