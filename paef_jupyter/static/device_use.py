"""Program-wide device facts: does the analysed program put anything on an accelerator,
and which values provably live on the host.

Host-device syncs and pinned copies only cost anything when the program uses a device, and a
value that is already on the host (`.cpu()`, NumPy, a Python number) cannot be synchronised
again. Both facts are read from the unit, the earlier cells it builds on (`Prior`) and the
live namespace, so the same line gets the same verdict in a script and in a notebook.
"""

from __future__ import annotations

import re
import weakref

import libcst as cst

from .constant_flags import in_dead_branch
from .cpu_parameters import cpu_parameter
from .facts import Facts
from .names import keyword_arg
from .types import Kind

_ACCELERATORS = ("cuda", "xpu", "mps")
LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
# CUDA-only APIs: code that calls them (`autocast` of `torch.cuda.amp`, a `GradScaler` for its
# float16 gradients) is written for a GPU, even where batches reach it through another module.
_CUDA_ONLY = ("torch.cuda.amp.", "torch.cuda.synchronize", "torch.cuda.set_device")
_HOST_KINDS = frozenset({Kind.NDARRAY, Kind.NUMBER, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST})
_HOST_COPIES = frozenset({"cpu", "numpy", "tolist", "item"})
# Tensor methods reading metadata: Python ints, wherever the data is, and no sync.
_SHAPE_QUERIES = frozenset({"size", "dim", "numel", "nelement", "ndimension"})
# Libraries that compute on the host: what they return is a host value, what they take must be one.
HOST_LIBRARIES = ("numpy.", "math.", "random.", "scipy.", "sklearn.", "pandas.", "statistics.", "gym.", "gymnasium.")
_HOST_BUILTINS = frozenset({"builtins.float", "builtins.int", "builtins.len", "builtins.round", "builtins.sum",
                            "builtins.min", "builtins.max", "builtins.abs"})
# torch factories that build on the host unless given `device=` (random draws and tables made
# from a shape alone too: a seeded CPU generator's `randint`, a `linspace` of sample points).
_HOST_FACTORIES = frozenset({"torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor", "torch.LongTensor",
                             "torch.IntTensor", "torch.ShortTensor", "torch.ByteTensor", "torch.BoolTensor", "torch.DoubleTensor",
                             "torch.FloatTensor", "torch.zeros", "torch.ones", "torch.arange", "torch.empty", "torch.full",
                             "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.linspace",
                             "torch.logspace", "torch.eye"})
# Tensor methods that keep the tensor where it is (on the host if it was there).
_STAYS = frozenset({"sum", "mean", "max", "min", "argmax", "argmin", "float", "long", "int", "double", "detach",
                    "squeeze", "unsqueeze", "view", "reshape", "flatten", "clone", "abs", "eq", "ne", "norm",
                    "std", "var", "prod", "round", "sqrt", "exp", "log", "softmax", "sigmoid", "type_as", "bool",
                    "multinomial", "bernoulli"})  # draws from a weights tensor: made where the weights are


def is_accelerator_device(facts: Facts, expr: cst.BaseExpression, depth: int = 2) -> bool:
    """A device expression that may name an accelerator (not the CPU, a dtype or a tensor)."""
    if isinstance(expr, cst.SimpleString):
        return str(expr.evaluated_value).split(":")[0] in _ACCELERATORS
    if isinstance(expr, cst.FormattedString):  # f"cuda:{local_rank}"
        head = expr.parts[0] if expr.parts else None
        return isinstance(head, cst.FormattedStringText) and head.value.split(":")[0] in _ACCELERATORS
    if isinstance(expr, cst.IfExp):
        return is_accelerator_device(facts, expr.body, depth) or is_accelerator_device(facts, expr.orelse, depth)
    if isinstance(expr, cst.Attribute):
        # `self.device`, `args.device`, a private `self._device` (public34 p07) and a configuration
        # constant `config.DEVICE` (public42 p05) alike; not an attribute every store of which in
        # this unit is the CPU; and, whatever its name (`self.dev`), one a store gives a device
        # that may be an accelerator (`self.dev = torch.device("cuda" if ... else "cpu")`)
        if _attribute_cpu(facts, expr, depth):
            return False
        return expr.attr.value.lstrip("_").lower() == "device" or _attribute_accelerator(facts, expr, depth)
    if isinstance(expr, cst.Subscript):
        return _config_device(facts, expr, depth)
    if isinstance(expr, cst.Call):
        return (facts.qualified_name(expr.func) or "") == "torch.device" and bool(expr.args) \
            and is_accelerator_device(facts, expr.args[0].value, depth)
    if isinstance(expr, cst.Name):
        if facts.kind(expr) is Kind.TENSOR:
            return False
        if expr.value in facts.namespace:
            return str(facts.namespace[expr.value]).split(":")[0] in _ACCELERATORS
        value = facts.value_of(expr)
        known = isinstance(value, (cst.SimpleString, cst.IfExp, cst.Attribute)) or (
            isinstance(value, cst.Call) and (facts.qualified_name(value.func) or "") == "torch.device")
        if value is not None and known and depth > 0:
            return is_accelerator_device(facts, value, depth - 1)
        if value is None and depth > 0 and _earlier_cpu(facts, expr.value):
            return False  # `DEV = torch.device("cpu")` in an earlier cell: its spelling says nothing
        if isinstance(value, cst.Call) and picks_a_gpu(value.func):
            return True
        imported = _imported_device(facts, expr.value) if value is None and depth > 0 else None
        if imported is not None:
            source, values = imported
            return any(is_accelerator_device(source, v, depth - 1) for v in values)
        if value is None and cpu_parameter(facts, expr):
            return False  # `def evaluate(..., device)` called only with the CPU: its spelling says nothing
        return any(word in expr.value.lower() for word in ("device", "dev", "gpu", "cuda"))
    return False


def _config_device(facts: Facts, expr: cst.Subscript, depth: int) -> bool:
    """`params['device']`, `cfg["gpu"]`: a configuration entry whose key names a device, as
    `args.device` does; read from the dict literal when the unit binds one (`opts = {"device":
    "cpu"}` names the CPU), else it may be an accelerator."""
    key = expr.slice[0].slice if len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) else None
    text = key.value.evaluated_value if key is not None and isinstance(key.value, cst.SimpleString) else None
    if not isinstance(text, str) or not set(re.findall(r"[a-z]+", text.lower())) & {"device", "dev", "gpu", "cuda"}:
        return False
    table = facts.value_of(expr.value) if isinstance(expr.value, cst.Name) else None
    entries: list[tuple[object, cst.BaseExpression]] = []
    if isinstance(table, cst.Dict):
        entries = [(e.key.evaluated_value, e.value) for e in table.elements
                   if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)]
    elif isinstance(table, cst.Call) and facts.qualified_name(table.func) == "builtins.dict":
        entries = [(a.keyword.value, a.value) for a in table.args if a.keyword is not None]
    value = next((v for k, v in entries if k == text), None)
    return is_accelerator_device(facts, value, depth - 1) if value is not None and depth > 0 else True


def _earlier_cpu(facts: Facts, name: str) -> bool:
    """`name` is bound in an earlier cell (not this one) to `"cpu"` or `torch.device("cpu")`, and
    only to it: the cell's `if torch.cuda.is_available(): device = torch.device("cuda") else:
    device = torch.device("cpu")` leaves its last binding the CPU, but the name may hold the GPU
    (public42 p06), as it may when the unit binds it alike."""
    if facts.assigned_values(name):
        return False
    earlier = facts.prior.value(name)
    if earlier is None or earlier[0] is facts:
        return False
    unit, values = _earlier_values(facts, name, earlier)
    return all(spells_cpu(value) or isinstance(value, cst.Call) and unit.qualified_name(value.func) == "torch.device"
               and len(value.args) == 1 and spells_cpu(value.args[0].value) for value in values)


def _earlier_values(facts: Facts, name: str, earlier: "tuple[Facts, cst.BaseExpression]") \
        -> tuple[Facts, list[cst.BaseExpression]]:
    """Every value the earlier cell that last bound `name` gives it (each branch of its `if
    torch.cuda.is_available(): ... else: ...`), not only the last one `Prior.value` keeps."""
    unit = earlier[0]
    return unit, unit.global_values(name) or [earlier[1]]


def _imported_device(facts: Facts, name: str) -> tuple[Facts, list[cst.BaseExpression]] | None:
    """`from train import model, device` where train.py sets `device = torch.device('cpu')`: the
    values the local module assigns to the name, read there (a CPU-only program stays one).
    None when the name is not imported from a readable module or that module never assigns it
    a value this analysis can read as a device."""
    target = facts.aliases.get(name)
    module, _, attr = (target or "").rpartition(".")
    source = facts.imports.module(module) if module and facts.imports is not None else None
    values = source.assigned_values(attr) if source is not None else []
    known = values and all(isinstance(v, (cst.SimpleString, cst.IfExp)) or (
        isinstance(v, cst.Call) and (source.qualified_name(v.func) or "") == "torch.device") for v in values)
    return (source, values) if known else None


def picks_a_gpu(func: cst.BaseExpression) -> bool:
    """A helper whose name says it returns a GPU when there is one: d2l's `try_gpu()` /
    `try_all_gpus()`, `get_default_device()`, `get_device()`; not one that names the CPU
    (`d2l.cpu()`, `cpu_device()`). Its value (`ctx = d2l.try_gpu()`) is a device for the program."""
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    words = set(re.findall(r"[a-z]+", name.lower()))
    return not {"cpu", "cpus"} & words and bool({"gpu", "gpus", "cuda", "device", "devices", "accelerator"} & words)


def cuda_condition(facts: Facts, test: cst.BaseExpression, depth: int = 2) -> bool:
    """`test` is false only where the program uses no CUDA device: `torch.cuda.is_available()`,
    `device.type == "cuda"`, or the flag that picks the device (`use_cuda` of
    `torch.device("cuda" if use_cuda else "cpu")` or of `if use_cuda: model.cuda()`), or a name
    bound to one of these. `a and b` needs both to be; an unrelated flag is not."""
    if isinstance(test, cst.BooleanOperation):
        return isinstance(test.operator, cst.And) and cuda_condition(facts, test.left, depth) \
            and cuda_condition(facts, test.right, depth)
    if isinstance(test, cst.Call):
        return (facts.qualified_name(test.func) or "") == "torch.cuda.is_available"
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal):
        sides = (test.left, test.comparisons[0].comparator)
        return any(isinstance(s, cst.SimpleString) and s.evaluated_value == "cuda" for s in sides) and any(
            isinstance(s, cst.Attribute) and s.attr.value == "type" and is_accelerator_device(facts, s.value) for s in sides)
    if not isinstance(test, (cst.Name, cst.Attribute)):
        return False
    code = _bare_code(facts, test)
    if any(_selects_cuda(unit, node, code) for unit in (facts, *_prior_units(facts)) for node in unit.walk(unit.module)):
        return True
    values = facts.assigned_values(test.value) if isinstance(test, cst.Name) else []
    return depth > 0 and len(values) == 1 and cuda_condition(facts, values[0], depth - 1)


def _bare_code(facts: Facts, expr: cst.BaseExpression) -> str:
    """The code of `expr` without its own parentheses: `if(use_cuda):` tests `use_cuda`."""
    if isinstance(expr, (cst.Name, cst.Attribute)) and (expr.lpar or expr.rpar):
        return facts.code(expr.with_changes(lpar=[], rpar=[]))
    return facts.code(expr)


def _selects_cuda(facts: Facts, node: cst.CSTNode, code: str) -> bool:
    """`"cuda" if <code> else "cpu"`, or `if <code>:` around a `.cuda()` call."""
    if isinstance(node, cst.IfExp) and _bare_code(facts, node.test) == code:
        return isinstance(node.body, cst.SimpleString) and str(node.body.evaluated_value).startswith("cuda")
    if isinstance(node, cst.If) and _bare_code(facts, node.test) == code:
        return any(isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "cuda"
                   for n in facts.walk(node.body))
    return False


def uses_device(facts: Facts) -> bool:
    """The program moves or creates something on an accelerator: `.cuda()`, `.to(device)`,
    `device=...`, `accelerator.prepare(...)`, here, in an earlier cell, in a unit that runs this
    unit's functions per iteration (a script importing a helper module), or in the live namespace."""
    return _unit_uses_device(facts) or any(_unit_uses_device(f) for f in (*_prior_units(facts), *_caller_units(facts))) \
        or _namespace_uses_device(facts) or _moved_by_module_helper(facts) or _called_by_device_unit(facts)


def may_use_device(facts: Facts) -> bool:
    """For a rewrite's safety, never for reporting: `uses_device`, or a move or `device=` whose
    target this analysis cannot read as the CPU (`.to(params['device'])`, `.to(cfg.gpu)`), here,
    in an earlier cell, or in a unit that calls this one's functions. Such a program may run on an
    accelerator, so a rewrite that leaves a value where its inputs live instead of on the host
    (`torch.stack` of device tensors for `torch.tensor` of Python numbers) must copy it back."""
    units = (facts, *_prior_units(facts), *_caller_units(facts), *facts.callers)
    return uses_device(facts) or any(_unreadable_move(f) for f in units)


def _unreadable_move(facts: Facts) -> bool:
    """A `.cuda()`, or a `.to(...)` / `device=` that is neither a dtype conversion nor provably the
    CPU, anywhere in the unit."""
    for node in facts.walk(facts.module):
        if not isinstance(node, cst.Call):
            continue
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("cuda", "to") \
                and not (func.attr.value == "to" and host_move(facts, node)) \
                and not moves_to_cpu(facts, node):
            return True
        device = keyword_arg(node, "device")
        if device is not None and not reads_as_cpu(facts, device.value):
            return True
    return False


def moves_to_cpu(facts: Facts, call: cst.Call) -> bool:
    """`.to(DEV)` where `DEV` is provably the CPU (`torch.device("cpu")`, `"cpu"`, a name bound
    only to those, like the torchvision references' `cpu_device`): a copy to the host, as `.cpu()` is."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "to"):
        return False
    device = keyword_arg(call, "device")
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    target = device.value if device is not None else positional[0] if len(positional) == 1 else None
    return target is not None and reads_as_cpu(facts, target)


def reads_as_cpu(facts: Facts, expr: cst.BaseExpression, depth: int = 2) -> bool:
    """`"cpu"`, `torch.device("cpu")`, or a name every binding of which (here or in an earlier
    cell) is one of those."""
    if spells_cpu(expr):
        return True
    if isinstance(expr, cst.Call) and facts.qualified_name(expr.func) == "torch.device" and len(expr.args) == 1:
        return spells_cpu(expr.args[0].value)
    if isinstance(expr, cst.Name) and depth > 0:
        values = live_values(facts, expr.value)
        if values:
            return all(reads_as_cpu(facts, v, depth - 1) for v in values)
        earlier = facts.prior.value(expr.value)
        if earlier is None:
            return False
        unit, earlier_values = _earlier_values(facts, expr.value, earlier)
        return all(reads_as_cpu(unit, v, depth - 1) for v in earlier_values)
    return False


def live_values(facts: Facts, name: str) -> list[cst.BaseExpression]:
    """`assigned_values`, less a binding the very next statement replaces before anything can
    read it: jiangdaniel's equilibrium propagation (public48 p04) writes `device = th.device("cpu"
    if not th.cuda.is_available() ... else "cuda")` and then, on the next line, `device =
    th.device("cpu")`: the CUDA choice is dead, the program runs on the CPU. Only the next
    statement of the same block counts (a call in between may read the global), and only a plain
    `name = value` that does not read `name` itself."""
    return [v for v in facts.assigned_values(name) if not _replaced_at_once(facts, name, v)]


def _single_assign(line: cst.CSTNode, name: str) -> cst.Assign | None:
    """`name = value` as the only statement of a line, else None."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)):
        return None
    assign = line.body[0]
    targets = assign.targets
    if len(targets) == 1 and isinstance(targets[0].target, cst.Name) and targets[0].target.value == name:
        return assign
    return None


def _replaced_at_once(facts: Facts, name: str, value: cst.BaseExpression) -> bool:
    assign = facts.parent(value)
    line = facts.parent(assign) if isinstance(assign, cst.Assign) else None
    if line is None or _single_assign(line, name) is not assign:
        return False
    block = facts.parent(line)
    body = block.body if isinstance(block, (cst.Module, cst.IndentedBlock)) else ()
    at = next((i for i, stmt in enumerate(body) if stmt is line), None)
    if at is None or at + 1 >= len(body):
        return False
    following = _single_assign(body[at + 1], name)
    return following is not None and not any(
        isinstance(n, cst.Name) and n.value == name
        and not (isinstance(facts.parent(n), cst.Attribute) and facts.parent(n).attr is n)  # `th.device`
        for n in facts.walk(following.value))


def _global_bound_to_cpu(facts: Facts, read: cst.Name) -> bool:
    """`read` sees the unit's global (a top-level read, or a function's read of a name it does not
    bind), no earlier or later cell binds the name, every top-level binding is a plain `name = value`, and
    every one `live_values` leaves reads as the CPU: the global holds the CPU. A parameter or local
    of the same spelling in another function is that function's own name and changes nothing here."""
    name = read.value
    if facts.enclosing_function(read) is not None and not facts.reads_global(read):
        return False
    top = [d for d in facts._defs.get(name, ()) if d.function is None]
    if not top or any(d.value is None or d.augmented for d in top) or facts.prior.value(name) is not None \
            or any(later.binds_global(name) for later in facts.later):
        return False  # a later cell's `device = "cuda"` is what this cell's function reads when called there
    dead = {id(v) for v in facts.assigned_values(name)} - {id(v) for v in live_values(facts, name)}
    values = [d.value for d in top if d.value is not None and id(d.value) not in dead]
    return bool(values) and all(reads_as_cpu(facts, v, 1) for v in values)


def _attribute_stores(facts: Facts, expr: cst.Attribute) -> list[cst.BaseExpression]:
    """Every value `<base>.<attr> = value` of the unit stores into the attribute `expr` reads, for
    a plain name as the base (`self.dev`, `opts.__device__`); none for a deeper chain."""
    if not isinstance(expr.value, cst.Name):
        return []
    base, attr = expr.value.value, expr.attr.value
    return [n.value for n in facts.walk(facts.module) if isinstance(n, cst.Assign)
            for t in n.targets if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name)
            and t.target.value.value == base and t.target.attr.value == attr]


def _attribute_cpu(facts: Facts, expr: cst.Attribute, depth: int) -> bool:
    """`self._device`, `opts.__device__` where every store of the unit into the attribute reads
    as the CPU (`torch.device("cpu")`, `"cpu"`, a name bound only to those): its name says nothing."""
    if depth <= 0:
        return False
    values = _attribute_stores(facts, expr)
    return bool(values) and all(reads_as_cpu(facts, v, depth - 1) for v in values)


def _spells_a_device(facts: Facts, value: cst.BaseExpression | None) -> bool:
    """A device's spelling, not any value: a string, an f-string, a conditional choice, or a
    `torch.device(...)` call (a helper's result is not read here)."""
    if isinstance(value, cst.Call):
        return (facts.qualified_name(value.func) or "") == "torch.device"
    return isinstance(value, (cst.SimpleString, cst.FormattedString, cst.IfExp))


def _attribute_accelerator(facts: Facts, expr: cst.Attribute, depth: int) -> bool:
    """An attribute whose name does not say `device` (`self.dev`, `self.where`) holds one when a
    store of the unit gives it an accelerator's spelling: `torch.device("cuda" if ... else "cpu")`,
    `"cuda"`, a `"cuda" if ... else "cpu"` choice, or a name bound to one of those. The device is
    recognised by what is bound to the attribute, as it is for a name; a parameter's or a helper's
    value gives nothing here."""
    if depth <= 0:
        return False
    for value in _attribute_stores(facts, expr):
        if isinstance(value, cst.Name):
            value = facts.value_of(value)
        if _spells_a_device(facts, value) and is_accelerator_device(facts, value, depth - 1):  # type: ignore[arg-type]
            return True
    return False


def _called_by_device_unit(facts: Facts, depth: int = 3) -> bool:
    """A local module whose functions a unit that uses a device calls (`run.py` moves the model
    with `.to(config.device)` and calls `train_eval.train(config, model, ...)`): its loops run
    that program's model and batches, on the device, though the module never names one."""
    return depth > 0 and any(_unit_uses_device(c) or _moved_by_module_helper(c) or _called_by_device_unit(c, depth - 1)
                             for c in facts.callers)


def may_use_mps(facts: Facts) -> bool:
    """The program may pick Apple's `mps` device (which has no float64): named in this unit or an
    earlier cell. A rewrite that computes in float64 on the device is not offered there."""
    return any("mps" in f.text for f in (facts, *_prior_units(facts)))


def _prior_units(facts: Facts) -> list[Facts]:
    seen: dict[int, Facts] = {}
    for earlier, _ in facts.prior._values.values():
        seen.setdefault(id(earlier), earlier)
    return [f for f in seen.values() if f is not facts]


def _caller_units(facts: Facts) -> list[Facts]:
    """The other units whose loops call this unit's functions (`metrics.compute_iou` from `main.py`)."""
    seen: dict[int, Facts] = {}
    for func in facts.externally_called:
        for caller, _ in facts.per_iteration_call_sites(func):
            seen.setdefault(id(caller), caller)
    return [f for f in seen.values() if f is not facts]


_UNIT_CACHE: "weakref.WeakKeyDictionary[Facts, bool]" = weakref.WeakKeyDictionary()


def _unit_uses_device(facts: Facts) -> bool:
    known = _UNIT_CACHE.get(facts)
    if known is None:
        known = _UNIT_CACHE[facts] = _scan_unit(facts)
    return known


_HELPER_CACHE: "weakref.WeakKeyDictionary[Facts, bool]" = weakref.WeakKeyDictionary()


def _moved_by_module_helper(facts: Facts) -> bool:
    """`model = prepare_model(Net())`, `texts, labels = move(batch)`: this unit calls a function of
    a local module whose own body moves or creates a value on an accelerator (`return
    model.to(get_device())`), directly or through one function of its module: the program runs on
    the device though this unit never names one."""
    known = _HELPER_CACHE.get(facts)
    if known is None:
        known = _HELPER_CACHE[facts] = facts.imports is not None and any(
            _helper_moves(facts, node) for node in facts.walk(facts.module)
            if isinstance(node, cst.Call) and isinstance(node.func, (cst.Name, cst.Attribute))
            and not (isinstance(node.func, cst.Name) and node.func.value in facts.functions))
    return known


def _helper_moves(facts: Facts, call: cst.Call) -> bool:
    func = facts._function_at(call.func)
    owner = facts.owner_of(func) if isinstance(func, cst.FunctionDef) else None
    if owner is None or owner is facts or func is None:
        return False
    if _moves_in(owner, func, _cpu_arguments(facts, owner, call, func)):
        return True
    return any(isinstance(c.func, cst.Name) and c.func.value in owner.functions
               and _moves_in(owner, owner.functions[c.func.value]) for c in owner.calls_in(func.body))  # type: ignore[union-attr]


def _moves_in(facts: Facts, root: cst.CSTNode, cpu: frozenset[str] = frozenset()) -> bool:
    """A `.cuda()`, a `.to(...)` of an accelerator, or a `device=` naming one, under `root`;
    a parameter in `cpu` (the call at hand passes the CPU for it) names no accelerator."""
    def names(target: cst.BaseExpression) -> bool:
        return not (isinstance(target, cst.Name) and target.value in cpu) and _names_accelerator(facts, target)

    for node in facts.walk(root):
        if not isinstance(node, cst.Call) or in_dead_branch(facts, node):
            continue
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "cuda":
            return True
        if isinstance(func, cst.Attribute) and func.attr.value == "to":
            positional = [a.value for a in node.args if a.keyword is None and not a.star]
            device = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "device"), None)
            target = device if device is not None else (positional[0] if positional else None)
            if target is not None and names(target):
                return True
        if any(a.keyword is not None and a.keyword.value == "device" and names(a.value) for a in node.args):
            return True
    return False


def _cpu_arguments(facts: Facts, owner: Facts, call: cst.Call, func: cst.FunctionDef) -> frozenset[str]:
    """The parameters of `func` (of the unit `owner`) for which `call` (of `facts`) passes a value that is
    provably the CPU (`DEV = torch.device("cpu")` in an earlier cell, `"cpu"`), and which `func`
    never rebinds: `sample(model, x, DEV)` with `def sample(model, x, device): x.to(device)`
    moves nothing to an accelerator, whatever the parameter is called."""
    params = list(func.params.params)
    if any(a.star for a in call.args) or params and params[0].name.value in ("self", "cls"):
        return frozenset()  # a method's receiver shifts the positions: not mapped
    positional = [a.value for a in call.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    rebound = {n.value for n in owner.walk(func.body) if isinstance(n, cst.Name)
               and isinstance(owner.parent(n), (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Element))}
    cpu: set[str] = set()
    for i, param in enumerate(params):
        name = param.name.value
        passed = positional[i] if i < len(positional) else keywords.get(name)
        if passed is not None and name not in rebound and reads_as_cpu(facts, passed):
            cpu.add(name)
    return frozenset(cpu)


def _names_accelerator(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`_may_name_accelerator`, or a call of a helper whose name picks a GPU (`.to(get_device())`)."""
    return _may_name_accelerator(facts, expr) or isinstance(expr, cst.Call) and picks_a_gpu(expr.func)


def _scan_unit(facts: Facts) -> bool:
    text = facts.text
    if not any(marker in text for marker in (".cuda", ".to(", "device", "prepare(", "Accelerator")):
        return False  # cheap: most units that never touch a device say none of these words
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Call) and _device_call(facts, node) and not in_dead_branch(facts, node):
            return True
    return False


def _device_call(facts: Facts, node: cst.Call) -> bool:
    """`node` moves or creates a value on an accelerator, or sets one up (`accelerator.prepare`)."""
    func = node.func
    if isinstance(func, cst.Attribute):
        if func.attr.value == "cuda" or func.attr.value == "prepare":
            return True
        if func.attr.value == "to":
            positional = [a.value for a in node.args if a.keyword is None and not a.star]
            device = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "device"), None)
            target = device if device is not None else (positional[0] if positional else None)
            if target is not None and _may_name_accelerator(facts, target) and not _follows_a_tensor(facts, target):
                return True
    qualified = facts.qualified_name(func) or ""
    if "Accelerator" in qualified or qualified.startswith(_CUDA_ONLY):
        return True
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == "device" and _may_name_accelerator(facts, arg.value) \
                and not _follows_a_tensor(facts, arg.value):
            return True
    return False


_SHAPE_ATTRIBUTES = frozenset({"shape", "ndim"})
_SHAPE_METHODS = frozenset({"size", "dim"})


def _follows_a_tensor(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`torch.zeros(..., device=x.device)`, `.to(x.device)` where `x` is a tensor (known as one, or
    the same function reads `x.shape` / `x.size(0)` / `x.dim()`): the value goes where `x` already
    lives, which chooses no device. It is no evidence that the program uses one: whatever put `x` on
    an accelerator (`.cuda()`, `.to(device)`) is. `args.device`, `self.device`, `cfg.device` choose
    one and stay evidence."""
    if not (isinstance(expr, cst.Attribute) and expr.attr.value == "device" and isinstance(expr.value, cst.Name)):
        return False
    base = expr.value.value
    if base in ("self", "cls"):
        return False
    if facts.kind(expr.value) is Kind.TENSOR:
        return True
    scope = facts.enclosing_function(expr)
    if scope is None:
        return False
    for node in facts.walk(scope):
        if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == base):
            continue
        if node.attr.value in _SHAPE_ATTRIBUTES:
            return True
        call = facts.parent(node)
        if node.attr.value in _SHAPE_METHODS and isinstance(call, cst.Call) and call.func is node:
            return True
    return False


def _may_name_accelerator(facts: Facts, expr: cst.BaseExpression) -> bool:
    """Like `is_accelerator_device`, but from the code alone, never from the live value: a
    kernel on a CPU-only machine holds `device = "cpu"` where the code says `"cuda" if ...`, and
    the verdict must not depend on the machine the analysis runs on."""
    if isinstance(expr, cst.Name) and facts.kind(expr) is not Kind.TENSOR:
        if any(is_accelerator_device(facts, v, 1) for v in live_values(facts, expr.value)):
            return True  # one branch of `if cuda: device = "cuda" else: device = "cpu"` names one
        if _global_bound_to_cpu(facts, expr):
            return False  # `device = torch.device("cpu")` the unit's only live binding, read in `main()`
        value = facts.value_of(expr)
        if value is None:
            earlier = facts.prior.value(expr.value)
            if earlier is not None:
                unit, earlier_values = _earlier_values(facts, expr.value, earlier)
                return any(is_accelerator_device(unit, v) for v in earlier_values)
            imported = _imported_device(facts, expr.value)
            if imported is not None:
                return any(is_accelerator_device(imported[0], v, 1) for v in imported[1])
            if cpu_parameter(facts, expr):
                return False
            return any(word in expr.value.lower() for word in ("device", "dev", "gpu", "cuda"))
    if isinstance(expr, cst.Call) and _names_a_device(expr.func):
        return True
    return is_accelerator_device(facts, expr)


def _names_a_device(func: cst.BaseExpression) -> bool:
    """guided-diffusion's `micro.to(dist_util.dev())`: a helper of an unread module whose name says
    it returns the device (`dev()`, `get_device()`, `try_gpu()`), not the CPU. Code that moves its
    batches there is written for an accelerator, as a name spelled `dev` or `device` is."""
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    words = set(re.findall(r"[a-z]+", name.lower()))
    return picks_a_gpu(func) or ("dev" in words and not {"cpu", "cpus"} & words)


def _namespace_uses_device(facts: Facts) -> bool:
    """A live `torch.device` (any: code that names a device is written for one), or a live
    tensor or module already on an accelerator."""
    for value in list(facts.namespace.values())[:512]:
        cls = type(value)
        if cls.__module__ == "torch" and cls.__name__ == "device":
            return True
        device = getattr(value, "device", None)
        if cls.__module__.startswith("torch") and getattr(device, "type", "cpu") in _ACCELERATORS:
            return True
    return False


def on_host(facts: Facts, expr: cst.BaseExpression, depth: int = 3) -> bool:
    """`expr` provably lives on the host: NumPy, a Python number or list, a tensor that came
    from `.cpu()` / `torch.from_numpy` / a factory without `device=`; reading it syncs nothing."""
    root = expr.value if isinstance(expr, cst.Subscript) else expr
    if isinstance(root, cst.Name) and facts.from_functional_model(root, tensor_list=True):
        return False  # `Y[0]` of `Y, state = rnn(X, state, params)`: the model's output, a list of tensors
    if facts.kind(expr) in _HOST_KINDS:
        return True
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Call):
        qualified = facts.qualified_name(expr.func) or ""
        folded = _folded_elements(expr) if qualified in _FOLDING_BUILTINS else None
        if folded is not None:  # `sum(loss for loss in loss_dict.values())`: where its values are
            return facts.kind(expr) is Kind.NUMBER or on_host(facts, folded, depth - 1) if depth > 0 else False
        if qualified.startswith(HOST_LIBRARIES) or qualified in _HOST_BUILTINS:
            return True
        if qualified in _HOST_FACTORIES:
            return not any(a.keyword is not None and a.keyword.value == "device" for a in expr.args)
        if qualified.startswith("torch.") and qualified[len("torch."):] in _STAYS:
            return _operands_on_host(facts, expr, depth)
        func = expr.func
        if isinstance(func, cst.Attribute):
            if func.attr.value in _HOST_COPIES or func.attr.value in _SHAPE_QUERIES or moves_to_cpu(facts, expr):
                return True
            if func.attr.value in _STAYS:
                return on_host(facts, func.value, depth)
        return host_processed(facts, expr, depth)
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("shape", "ndim"):
        return True  # a tensor's metadata: Python ints wherever the data is
    if isinstance(expr, cst.Subscript) and facts.kind(expr) is Kind.TENSOR and facts.kind(expr.value) is Kind.DICT:
        return False  # `out["loss"]` of a dict of mixed values: the container is the host's, this entry a tensor
    if isinstance(expr, (cst.Subscript, cst.Attribute)) and not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self"):
        return on_host(facts, expr.value, depth)
    if isinstance(expr, cst.Comparison):
        return on_host(facts, expr.left, depth) and all(on_host(facts, c.comparator, depth) for c in expr.comparisons)
    if isinstance(expr, cst.BinaryOperation):
        return on_host(facts, expr.left, depth) and on_host(facts, expr.right, depth)
    if isinstance(expr, cst.UnaryOperation):
        return on_host(facts, expr.expression, depth)
    if isinstance(expr, cst.Name) and depth > 0:
        if expr.value in facts.namespace:
            live = facts.namespace[expr.value]
            return type(live).__module__ == "numpy" or isinstance(live, (int, float, list))
        value = facts.value_of(expr)
        if value is None:  # a loop's batch: of a host loader here, or a field left where a sibling is moved
            return _batch_of_host_loader(facts, expr) or unmoved_batch_field(facts, expr) \
                or _element_of_host_values(facts, expr, depth)
        return on_host(facts, value, depth - 1)
    return False


_FOLDING_BUILTINS = frozenset({"builtins.sum", "builtins.min", "builtins.max"})


def _folded_elements(call: cst.Call) -> cst.BaseExpression | None:
    """The element expression of `sum(<comprehension>)` (None for any other argument list)."""
    if len(call.args) == 1 and isinstance(call.args[0].value, (cst.GeneratorExp, cst.ListComp, cst.SetComp)):
        return call.args[0].value.elt  # type: ignore[union-attr]
    return None


def host_processed(facts: Facts, call: cst.Call, depth: int = 3) -> bool:
    """`converter.decode(preds.cpu().data, sizes)`: a callable this analysis cannot see (no
    function or class of the program, not torch, not a module) handed host copies of tensors
    (`.cpu()`, `.numpy()`, `.tolist()`) and nothing else that may be on the device: host-side
    processing of copied values, whose result (strings, tag lists, host tensors) lives on the host."""
    func = call.func
    if not isinstance(func, (cst.Name, cst.Attribute)) or facts.kind(func) is not Kind.UNKNOWN \
            or (facts.qualified_name(func) or "").startswith("torch.") or facts._function_at(func) is not None:
        return False
    if isinstance(func, cst.Attribute) and (facts.kind(func.value) is Kind.MODULE or isinstance(func.value, cst.Name)
                                            and facts._method_of_instance(func.value, func.attr.value) is not None):
        return False
    operands = [a.value for a in call.args if not _constant(a.value)]
    return any(_host_copy(facts, o) for o in operands) and all(on_host(facts, o, depth) for o in operands)


def _constant(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)) or \
        isinstance(expr, cst.Name) and expr.value in ("True", "False", "None")


def _host_copy(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`t.cpu()`, `t.detach().cpu().numpy()`, `t.cpu().data`, `t.to(cpu_device)`: a copy of a tensor to the host."""
    while isinstance(expr, cst.Attribute) and expr.attr.value == "data":
        expr = expr.value
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) \
        and (expr.func.attr.value in _HOST_COPIES - {"item"} or moves_to_cpu(facts, expr))


def _element_of_host_values(facts: Facts, name: cst.Name, depth: int) -> bool:
    """`ref` of `for hyp, ref in zip(transcripts, labels)` (or `for n in sizes`) where the values
    walked live on the host: a host tensor, an array, what an unseen helper made of host copies.
    Not the items of a Python list or dict: a list of device tensors is a host object."""
    loop = facts.loop_binding(name)
    if loop is None or not isinstance(loop.node, cst.For) or depth <= 0:
        return False
    if facts._parameter_of(loop.node, name.value):
        return False  # `p` of `for p in group["params"]`: a module's tensor, where the module lives (a group is a host dict)
    it, target = loop.node.iter, loop.node.target
    if isinstance(target, cst.Name):
        source = it if target.value == name.value else None
    elif isinstance(it, cst.Call) and isinstance(target, cst.Tuple) \
            and facts.qualified_name(it.func) == "builtins.zip" and len(it.args) == len(target.elements) \
            and not any(a.star or a.keyword for a in it.args):
        source = next((a.value for el, a in zip(target.elements, it.args)
                       if isinstance(el.value, cst.Name) and el.value.value == name.value), None)
    else:
        source = None
    return source is not None and facts.kind(source) not in (Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST) \
        and on_host(facts, source, depth)


_OPTION_KEYWORDS = frozenset({"dim", "keepdim", "dtype", "num_samples", "replacement", "generator"})


def _operands_on_host(facts: Facts, call: cst.Call, depth: int) -> bool:
    """`torch.prod(torch.tensor(x.shape[1:]))`: the function form of a method in `_STAYS` puts its
    result where its operands are, so it is a host tensor when every operand is on the host (the
    `dim`/`keepdim`/`dtype` options are no operands; an `out=` tensor is one)."""
    operands = [a.value for a in call.args if a.keyword is None or a.keyword.value not in _OPTION_KEYWORDS]
    return bool(operands) and all(on_host(facts, o, depth) for o in operands)


def _batch_of_host_loader(facts: Facts, name: cst.Name) -> bool:
    """`yb` of `for xb, yb in loader:`, read as the loader gave it (only `xb` was moved), or `b` of
    `b, _ = data` unpacked from such a loop's batch: a DataLoader over host data with the default
    collate yields host tensors until something moves them."""
    loop = facts.loop_binding(name)
    if loop is None:
        container = facts.unpacked_container(name)  # `b, _ = data` of `for i, data in enumerate(loader)`
        if isinstance(container, cst.Subscript):
            container = container.value
        if not isinstance(container, cst.Name):
            return False
        loop = facts.loop_binding(container)
    if loop is None or not isinstance(loop.node, cst.For):
        return False
    it = loop.node.iter
    if isinstance(it, cst.Call) and facts.qualified_name(it.func) == "builtins.enumerate" and it.args:
        it = it.args[0].value
    return host_loader(facts, it)


def host_loader(facts: Facts, expr: cst.BaseExpression, depth: int = 4) -> bool:
    """`expr` holds a DataLoader over host data with a collate whose code is seen, wherever it was
    built: here, in an earlier cell, in `self.<attr>` (every store of the unit), returned as part of
    a tuple by a program function (`trainloader, testloader = dataloader(args)`), or handed in for
    a parameter by every seen call of the function (`def train(net, trainloader): ...` called as
    `train(net, trainloader)`; a constructor's parameter by every `Cls(...)` of the unit)."""
    from .dataset_placement import dataset_placement  # it reads device moves from here

    if depth <= 0:
        return False
    owner, loader = facts, expr
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        stored = facts.self_assigned_values(expr.attr.value)
        return bool(stored) and all(host_loader(facts, v, depth - 1) for v in stored)
    if isinstance(expr, cst.Name):
        owner, loader = facts, facts.value_of(expr)
        if loader is None:
            earlier = facts.prior.value(expr.value)
            if earlier is not None:
                owner, loader = earlier
        if loader is None:
            unpacked = facts.unpacked_from(expr)
            if unpacked is not None:
                parts = facts.returned_elements(*unpacked)
                return parts is not None and all(host_loader(unit, part, depth - 1) for unit, part in parts)
            func = facts.parameter_of(expr)
            passed = facts.arguments_for(func, expr.value) if func is not None else None
            if passed is None and func is not None and func.name.value == "__init__":
                made = facts.constructed_with(expr)
                passed = [(facts, v) for v in made] if made is not None else None
            return passed is not None and all(host_loader(unit, arg, depth - 1) for unit, arg in passed)
        if isinstance(loader, cst.Name):
            return host_loader(owner, loader, depth - 1)  # `loader = train_loader`
    return isinstance(loader, cst.Call) and (owner.qualified_name(loader.func) or "") in LOADERS \
        and _host_collate(owner, loader) and sum(a.keyword is None for a in loader.args) <= 3 \
        and not dataset_placement(owner, loader).on_device


def unmoved_batch_field(facts: Facts, expr: cst.BaseExpression, depth: int = 4) -> bool:
    """`batch_y` (or `batch_y.float()`) of `for batch_x, batch_y in loader:` whose loop moves a
    sibling field to the device (`batch_x.to(device)`) and not this one: whatever the loader is,
    it yields host tensors (moving a sibling would be pointless otherwise), so `batch_y.device`
    is the host's."""
    while depth > 0:
        depth -= 1
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _STAYS:
            expr = expr.func.value
        elif isinstance(expr, cst.Subscript):
            expr = expr.value
        elif isinstance(expr, cst.Name):
            value = facts.value_of(expr)
            if value is None:
                break
            expr = value
        else:
            return False
    if not isinstance(expr, cst.Name):
        return False
    loop = facts.loop_binding(expr)
    if loop is None or not isinstance(loop.node, cst.For):
        return False
    siblings = _target_names(loop.node.target) - {expr.value}
    return any(
        is_device_move(facts, call) and _receiver_name(call) in siblings
        for call in facts.calls_in(loop.node.body)
    )


def _target_names(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_target_names(e.value) for e in target.elements))
    return set()


def _receiver_name(call: cst.Call) -> str | None:
    """`batch_x` of `batch_x.float().to(device)`: the name a chain of method calls starts from."""
    expr: cst.BaseExpression = call.func.value if isinstance(call.func, cst.Attribute) else call.func
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        expr = expr.func.value
    return expr.value if isinstance(expr, cst.Name) else None


def _host_collate(facts: Facts, loader: cst.Call) -> bool:
    """The default collate, or a `collate_fn` whose code is seen (this unit, an earlier cell, a
    local module): `dataset_placement` walks it, so a device there makes the batch a device one."""
    arg = keyword_arg(loader, "collate_fn")
    return arg is None or (isinstance(arg.value, (cst.Name, cst.Attribute)) and facts._function_at(arg.value) is not None)


def host_move(facts: Facts, call: cst.Call) -> bool:
    """`.to(torch.float32)`, `.to(dtype=...)`, `.to("cpu")`: a conversion that stays on the host."""
    positional = [a.value for a in call.args if a.keyword is None]
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    if "device" in keywords:
        return spells_cpu(keyword_arg(call, "device").value)  # type: ignore[union-attr]
    if not positional:
        return bool(keywords) and keywords <= {"dtype", "memory_format", "copy", "non_blocking"}
    first = positional[0]
    return spells_cpu(first) or (facts.qualified_name(first) or "").startswith("torch.") and not _is_device_ctor(facts, first)


def _is_device_ctor(facts: Facts, expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Call) and facts.qualified_name(expr.func) == "torch.device"


def crosses_to_host(expr: cst.BaseExpression) -> bool:
    """`x.cpu()`, `x.detach().to("cpu")`: the chain before `.numpy()` holds a device-to-host copy.
    Without one, `.numpy()` reads host memory: it raises on a device tensor, so wherever it runs
    the tensor is on the host already and nothing crosses."""
    while isinstance(expr, (cst.Call, cst.Attribute, cst.Subscript)):
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("cpu", "to"):
            return True
        expr = expr.func if isinstance(expr, cst.Call) else expr.value
    return False


def spells_cpu(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.SimpleString) and expr.evaluated_value == "cpu"


def is_device_move(facts: Facts, call: cst.Call) -> bool:
    """`x.cuda()`, `x.to(device)` towards an accelerator (not a dtype conversion), or
    `x.type(Tensor)` with a CUDA tensor type (the legacy style of many GAN scripts)."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    if func.attr.value == "cuda":
        return True
    if func.attr.value == "type":
        chosen = keyword_arg(call, "dtype")
        positional = [a.value for a in call.args if a.keyword is None]
        target = chosen.value if chosen is not None else positional[0] if positional else None
        return target is not None and may_be_cuda_tensor_type(facts, target)
    if func.attr.value != "to" or any(a.keyword is not None and a.keyword.value in ("dtype", "memory_format") for a in call.args):
        return False
    positional = [a.value for a in call.args if a.keyword is None]
    device = keyword_arg(call, "device")
    target = device.value if device is not None else (positional[0] if len(positional) == 1 else None)
    return target is not None and is_accelerator_device(facts, target)


def host_tensors(dataset: object) -> bool:
    """False for a live `TensorDataset` whose tensors already sit on a device (pinning would raise)."""
    tensors = getattr(dataset, "tensors", ())
    return all(getattr(getattr(t, "device", None), "type", "cpu") == "cpu" for t in tensors)


def may_be_cuda_tensor_type(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`torch.cuda.FloatTensor`, `"torch.cuda.LongTensor"`, or a name bound to one (in this unit
    or an earlier cell), directly or as a branch of `torch.cuda.FloatTensor if cuda else
    torch.FloatTensor`: a tensor type that makes (or converts to) a tensor on the GPU."""
    def spelled(e: cst.BaseExpression) -> str:
        return str(e.evaluated_value) if isinstance(e, cst.SimpleString) else facts.code(e)

    chosen: cst.BaseExpression | None = expr
    if isinstance(expr, cst.Name):
        chosen = facts.value_of(expr)
        if chosen is None:
            earlier = facts.prior.value(expr.value)
            chosen = earlier[1] if earlier is not None and earlier[0] is not facts else None
    branches = [chosen.body, chosen.orelse] if isinstance(chosen, cst.IfExp) else [chosen] if chosen is not None else []
    return any(spelled(b).startswith("torch.cuda.") and spelled(b).endswith("Tensor") for b in branches)


def may_span_devices(facts: Facts, tensors: list[cst.BaseExpression]) -> bool:
    """More than one tensor, not all provably on the host, nor all computed by one model: they
    may sit on two devices.

    Nothing here proves which device a tensor is on, only that it may be an accelerator's: a
    teacher's loss computed on the host and a student's on the device are both "maybe the
    device", yet `torch.stack` of the two raises (red team 58). One tensor read at several
    places, or outputs of the same model (`model(x[:2])`, `model(x[s:s + 2])`), are one source."""
    if not tensors or all(on_host(facts, t) for t in tensors):
        return False
    if moved_between(facts, tensors):
        return True
    if len({facts.code(t) for t in tensors}) < 2:
        return False
    origins = {_models_behind(facts, t) for t in tensors}
    return len(origins) != 1 or None in origins


def moved_between(facts: Facts, tensors: list[cst.BaseExpression]) -> bool:
    """A model moved (`.cpu()`, `.cuda()`, `.to(DEV)`), or a tensor name rebound to a copy on the host,
    while the values are being made: from the first value's statement to the last value, and in
    every loop that makes one of them again.

    Why: "the same code" and "outputs of the same model" are one device only while nothing moves.
    A notebook that trains on the device, parks the model on the host (`model = model.cpu()`) and
    trains on, appending `loss.item()` to the same history from both phases, has host and device
    values in one list (red team 60): `torch.tensor` copied each to the host, `torch.stack` raises.
    A tensor name rebound to a copy on the device counts only between two of the values, outside the
    loops that make them: `xb = xb.to(device)` every step moves each batch to the same place."""
    mine = [t for t in tensors if facts.order(t) >= 0 and facts.owner_of(t) is facts]
    if not mine:
        return False
    first = min(facts.order(facts.statement_of(t)) for t in mine)
    last = max(facts.order(t) for t in mine)
    loops = [loop.node for t in mine for loop in facts.enclosing_loops(t)]
    for call in facts.calls_in(facts.module):
        between = first <= facts.order(call) <= last
        in_loop = any(facts.contains(loop, call) for loop in loops)
        if (between or in_loop) and _switches_device(facts, call, between and not in_loop):
            return True
    return False


def moves_in_loop(facts: Facts, loop: cst.CSTNode) -> bool:
    """A model moved, or a tensor name rebound to a host copy, inside `loop`: a value made at the
    same line may sit on the device in one iteration and on the host in the next (`moved_between`)."""
    return any(_switches_device(facts, call, False) for call in facts.calls_in(loop))


def _switches_device(facts: Facts, call: cst.Call, device_rebinds: bool) -> bool:
    """`call` moves a module (either way), rebinds a tensor name to its host copy, or (where
    `device_rebinds`) rebinds one to its device copy."""
    func = call.func
    if isinstance(func, cst.Name) and _helper_moves_in_place(facts, func.value):
        return True
    if not _is_move(facts, call):
        return _callee_moves_in_place(facts, call)
    if facts.kind(func.value) is Kind.MODULE or _bare_statement(facts, call):
        return True  # `net.cpu()` as a statement: only a module moves in place
    to_host = func.attr.value == "cpu" or moves_to_cpu(facts, call)  # type: ignore[union-attr]
    return _rebinds_receiver(facts, call) and (to_host or device_rebinds)


def _is_move(facts: Facts, call: cst.Call) -> bool:
    """`.cpu()`, `.cuda()`, `.to(DEV)` (a device, not a dtype)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in ("cpu", "cuda", "to"):
        return False
    return func.attr.value != "to" or moves_to_cpu(facts, call) or is_device_move(facts, call) or _unread_target(call)


def _bare_statement(facts: Facts, call: cst.Call) -> bool:
    parent = facts.parent(call)
    return isinstance(parent, cst.Expr)


def _helper_moves_in_place(facts: Facts, name: str) -> bool:
    """`park(model)` where the program's `park` (this unit's, else an earlier cell's) moves something in
    place (`m.cpu()` as a statement): a move the caller's line does not show."""
    found = facts.functions.get(name)
    owner, func = (facts, found) if found is not None else facts.prior.functions.get(name, (None, None))
    if owner is None or func is None:
        return False
    return any(_is_move(owner, c) and _bare_statement(owner, c) for c in owner.calls_in(func))


def _callee_moves_in_place(facts: Facts, call: cst.Call, depth: int = 2) -> bool:
    """What the call graph resolves `call` to (a function of a local module, `utils.park(model)`; a
    method of the program's class, `trainer.to_cpu()`) moves something in place: a move written as a
    statement (`self.model.cpu()`), a module's move, or an attribute rebound to its own copy
    (`self.model = self.model.to("cpu")`); or calls, `depth` levels down, a function that does
    (red team 60's left: `moved_between` read only this unit's moves and helpers by bare name).
    A callee the call graph does not resolve is not read here."""
    for callee in facts._callees(call):
        owner = facts.owner_of(callee)
        for inner in owner.calls_in(callee.body):
            if _is_move(owner, inner):
                receiver = inner.func.value  # type: ignore[union-attr]
                if _bare_statement(owner, inner) or owner.kind(receiver) is Kind.MODULE \
                        or _rebinds_attribute(owner, inner):
                    return True
            elif depth > 0 and not (isinstance(inner.func, cst.Name) and inner.func.value == callee.name.value) \
                    and _callee_moves_in_place(owner, inner, depth - 1):
                return True
    return False


def _rebinds_attribute(facts: Facts, call: cst.Call) -> bool:
    """`self.model = self.model.cpu()`: an object's attribute rebound to the copy of itself."""
    receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
    stmt = facts.statement_of(call)
    if not isinstance(receiver, cst.Attribute) or not isinstance(stmt, cst.SimpleStatementLine):
        return False
    spelled = facts.code(receiver)
    return any(isinstance(small, cst.Assign) and facts.contains(small, call)
               and any(facts.code(t.target) == spelled for t in small.targets) for small in stmt.body)


def _unread_target(call: cst.Call) -> bool:
    """`.to(dev)` whose one argument is neither a dtype keyword nor spelled as a dtype (`torch.float32`)."""
    if any(a.keyword is not None and a.keyword.value in ("dtype", "memory_format") for a in call.args):
        return False
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    device = keyword_arg(call, "device")
    target = device.value if device is not None else positional[0] if len(positional) == 1 else None
    if target is None:
        return False
    code = cst.Module([]).code_for_node(target)
    return not re.search(r"(float|int|bool|half|double|long|complex|uint)\d*$", code)


def _rebinds_receiver(facts: Facts, call: cst.Call) -> bool:
    """`X = X.cpu()`, `X, y = X.to(d), y.to(d)`: the call's receiver name is rebound to its copy."""
    receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
    if not isinstance(receiver, cst.Name):
        return False
    statement = facts.statement_of(call)
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and facts.contains(small, call):
            if receiver.value in facts.names_written(small):
                return True
    return False


def _models_behind(facts: Facts, expr: cst.BaseExpression, depth: int = 4) -> frozenset[str] | None:
    """The names of the modules whose forward computed `expr` (through names bound once, tensor
    methods and functions of tensors), or None where something else may have made it."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return frozenset()
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr) if depth > 0 else None
        return None if value is None else _models_behind(facts, value, depth - 1)
    if isinstance(expr, cst.Subscript):
        return _models_behind(facts, expr.value, depth)
    if isinstance(expr, cst.BinaryOperation):
        return _joined(facts, [expr.left, expr.right], depth)
    if isinstance(expr, cst.UnaryOperation):
        return _models_behind(facts, expr.expression, depth)
    if not isinstance(expr, cst.Call):
        return None
    func = expr.func
    if isinstance(func, cst.Name) and facts.kind(func) is Kind.MODULE:
        return frozenset({func.value})
    if isinstance(func, cst.Attribute) and not (facts.qualified_name(func) or "").startswith("torch."):
        if func.attr.value in _STAYS or func.attr.value in ("item", "to", "reshape"):
            return _models_behind(facts, func.value, depth)
        return None
    if (facts.qualified_name(func) or "").startswith("torch."):
        return _joined(facts, [a.value for a in expr.args if a.keyword is None], depth)
    return None


def _joined(facts: Facts, parts: list[cst.BaseExpression], depth: int) -> frozenset[str] | None:
    found: set[str] = set()
    for part in parts:
        models = _models_behind(facts, part, depth)
        if models is None:
            return None
        found |= models
    return frozenset(found)
