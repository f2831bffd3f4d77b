"""Flags that are false on every path, and the code they guard (which never runs).

Tutorial code often keeps its GPU path behind a switch it hard-wires off: `GPU_available = False`
(then `GPU_available = GPU_available and torch.cuda.is_available()`), `use_cuda = False` handed to a
model's constructor and kept as `self.gpu`, a config class's `USE_CUDA = False`. Every `.cuda()`
under `if self.gpu:` is then dead code: the program never puts anything on a device, and counting
it as device use makes every `.item()` a "sync" that does not happen (public check 61, p05).

`always_false` proves a test false from the code alone: constants, `not`/`and`/`or` of proved
values, a name whose every binding (in its scope, the earlier and later cells) is proved false, a
parameter every call of its function (every construction of its class, for `__init__`) fills with a
proved-false value, an attribute every store of which (`self.gpu = gpu` in the class, a class-body
`USE_CUDA = False`, a `SimpleNamespace(cuda=False)`) is one. A name bound to itself and a falsy
value (`flag = flag and ...`) is false by induction. Whatever this analysis cannot see (a caller in
another module, a command line, `setattr`, a live value it cannot read) leaves the flag open.
"""

from __future__ import annotations

import weakref

import libcst as cst

from .facts import Facts
from .names import positional_params

_CACHE: "weakref.WeakKeyDictionary[Facts, dict[tuple[int, bool], bool]]" = weakref.WeakKeyDictionary()
_FALSY_LITERALS = frozenset({"False", "None"})
_NAMESPACES = frozenset({"types.SimpleNamespace", "argparse.Namespace"})


# Strict proofs (`in_dead_branch(..., named_only=True)`): a parameter counts as false only where every
# call passes a *named* false value (a flag, an attribute, a config entry, the parameter's default),
# not a literal `False` written at the call. `arms(epochs, mix=False)` is a function's ordinary
# argument, whose other arm is code the author wrote to run; `Net(GPU)` with `GPU = False` is a switch.
_STRICT = [False]


def in_dead_branch(facts: Facts, node: cst.CSTNode, named_only: bool = False) -> bool:
    """See `_in_dead_branch`; `named_only` asks for a strict proof (see `_STRICT`), which every rule's
    report asks before dropping a finding in dead code."""
    if not named_only:
        return _in_dead_branch(facts, node)
    saved = _STRICT[0]
    _STRICT[0] = True
    try:
        return _in_dead_branch(facts, node)
    finally:
        _STRICT[0] = saved


def _in_dead_branch(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` sits where no run reaches: the body of an `if` (or of `a if TEST else b`) whose test
    is always false, the `else` of one whose test is always true, the right side of an `and`
    whose left side is always false, or a statement after a guard that always leaves its block
    (`if not USE_CUDA: return` with `USE_CUDA` always false)."""
    child: cst.CSTNode = node
    for parent in facts.ancestors(node):
        if isinstance(parent, (cst.IndentedBlock, cst.Module)) and _after_a_leaving_guard(facts, parent, child):
            return True
        if isinstance(parent, cst.If):
            if child is parent.body and always_false(facts, parent.test):
                return True
            if child is parent.orelse and always_true(facts, parent.test):
                return True
        elif isinstance(parent, cst.IfExp):
            if child is parent.body and always_false(facts, parent.test):
                return True
            if child is parent.orelse and always_true(facts, parent.test):
                return True
        elif isinstance(parent, cst.BooleanOperation) and child is parent.right:
            if isinstance(parent.operator, cst.And) and always_false(facts, parent.left):
                return True
            if isinstance(parent.operator, cst.Or) and always_true(facts, parent.left):
                return True
        child = parent
    return False


_LEAVING = (cst.Return, cst.Raise, cst.Continue, cst.Break)


def _after_a_leaving_guard(facts: Facts, block: cst.IndentedBlock | cst.Module, child: cst.CSTNode) -> bool:
    """A statement before `child` in `block` is an `if` whose test is always true and whose body
    ends by leaving the block (`return`, `raise`, `continue`, `break`): nothing after it runs."""
    body = block.body
    if not any(stmt is child for stmt in body):
        return False
    for stmt in body:
        if stmt is child:
            return False
        if isinstance(stmt, cst.If) and _leaves(stmt.body) and always_true(facts, stmt.test):
            return True
    return False


def _leaves(block: cst.BaseSuite) -> bool:
    """The suite's last statement is a `return`, `raise`, `continue` or `break`."""
    if isinstance(block, cst.IndentedBlock):
        last = block.body[-1] if block.body else None
        return isinstance(last, cst.SimpleStatementLine) and bool(last.body) and isinstance(last.body[-1], _LEAVING)
    return isinstance(block, cst.SimpleStatementSuite) and bool(block.body) and isinstance(block.body[-1], _LEAVING)


def always_true(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`not FLAG` of an always-false flag, `True`: the test holds on every path."""
    if isinstance(expr, cst.Name) and expr.value == "True":
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return always_false(facts, expr.expression)
    return False


def always_false(facts: Facts, expr: cst.BaseExpression, depth: int = 4) -> bool:
    """The value of `expr` is falsy wherever the program evaluates it (see the module's docstring)."""
    table = _CACHE.setdefault(facts, {})
    key = (id(expr), _STRICT[0])
    if key not in table:
        table[key] = False  # a cycle (`self.a = self.b`, `self.b = self.a`) proves nothing
        table[key] = _false(facts, expr, depth, frozenset())
    return table[key]


def _false(facts: Facts, expr: cst.BaseExpression, depth: int, assumed: frozenset[str]) -> bool:
    if depth < 0:
        return False
    if isinstance(expr, cst.Name) and expr.value in _FALSY_LITERALS:
        return True
    if isinstance(expr, cst.Integer) and expr.evaluated_value == 0:
        return True
    if isinstance(expr, cst.SimpleString) and expr.evaluated_value == "":
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return always_true(facts, expr.expression)
    if isinstance(expr, cst.BooleanOperation):
        left = _false(facts, expr.left, depth, assumed)
        if isinstance(expr.operator, cst.And):
            return left or _false(facts, expr.right, depth, assumed)
        return left and _false(facts, expr.right, depth, assumed)
    if isinstance(expr, cst.Name):
        return _name_false(facts, expr, depth, assumed)
    if isinstance(expr, cst.Attribute):
        return _attribute_false(facts, expr, depth, assumed)
    if isinstance(expr, cst.Subscript):
        return _entry_false(facts, expr, depth, assumed)
    if isinstance(expr, cst.Call):
        return _call_false(facts, expr, depth, assumed)
    return False


def _entry_false(facts: Facts, expr: cst.Subscript, depth: int, assumed: frozenset[str]) -> bool:
    """`cfg["cuda"]` of a dict written out (`cfg = {"cuda": False, ...}`) whose entry is false, where
    the unit's every binding of `cfg` is such a literal and `cfg` is only ever read by key."""
    key = _constant_key(expr)
    return key is not None and isinstance(expr.value, cst.Name) and _dict_entry_false(facts, expr.value, key, None, depth, assumed)


def _constant_key(expr: cst.Subscript) -> str | None:
    if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
        return None
    key = expr.slice[0].slice.value
    return key.evaluated_value if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str) else None


def _dict_entry_false(facts: Facts, name: cst.Name, key: str, default: cst.BaseExpression | None, depth: int,
                      assumed: frozenset[str]) -> bool:
    """Every binding of `name` the read may see is a dict literal whose `key` is false (or, for
    `.get(key, default)`, absent with a false default), and no use of `name` can change it: each
    one reads an entry (`cfg[k]`, `cfg.get(k)`) and nothing stores, deletes or hands the dict on."""
    sources = facts.value_sources(name)
    if not sources or name.value in facts.namespace or facts.prior.defines(name.value) \
            or any(name.value in unit.text for unit in (*facts.later, *facts.callers) if unit is not facts):
        return False
    for source in sources:
        if not isinstance(source, cst.Dict) or any(not isinstance(el, cst.DictElement) for el in source.elements):
            return False
        keys = [el.key.evaluated_value if isinstance(el.key, cst.SimpleString) else None for el in source.elements]  # type: ignore[union-attr]
        if None in keys:
            return False
        values = [el.value for el, k in zip(source.elements, keys) if k == key]
        if values:
            if not _false(facts, values[-1], depth - 1, assumed):
                return False
        elif default is None or not _false(facts, default, depth - 1, assumed):
            return False
    for use in facts.uses(name.value):
        if use is name or facts.parent(use) is None:
            continue
        parent = facts.parent(use)
        if isinstance(parent, cst.Subscript) and parent.value is use and not _stored(facts, parent):
            continue
        if isinstance(parent, cst.Attribute) and parent.value is use and parent.attr.value in ("get", "keys", "items", "values") \
                and isinstance(facts.parent(parent), cst.Call):
            continue
        if _binding_target(facts, use):
            continue
        return False
    return True


def _stored(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` is written: the target (or part of the target tuple) of an assignment, an augmented
    assignment, a `del` or a loop."""
    child, parent = node, facts.parent(node)
    while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        child, parent = parent, facts.parent(parent)
    return isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.Del)) \
        and parent.target is child


def _binding_target(facts: Facts, name: cst.Name) -> bool:
    """`name` is the target a plain `name = ...` binds (a binding `value_sources` read)."""
    parent = facts.parent(name)
    return isinstance(parent, cst.AssignTarget) and parent.target is name


def _call_false(facts: Facts, call: cst.Call, depth: int, assumed: frozenset[str]) -> bool:
    """`get_flag()` of a program function (undecorated, defined once, only ever called) whose every
    `return` gives a proved-false value (a bare `return` or falling off the end gives None), or
    `cfg.get("cuda")` / `cfg.get("cuda", False)` of a dict literal read only by key."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name) \
            and 1 <= len(call.args) <= 2 and not any(a.star or a.keyword for a in call.args) \
            and isinstance(call.args[0].value, cst.SimpleString) and isinstance(call.args[0].value.evaluated_value, str):
        default = call.args[1].value if len(call.args) == 2 else cst.Name("None")
        return _dict_entry_false(facts, func.value, call.args[0].value.evaluated_value, default, depth, assumed)
    if not isinstance(func, cst.Name) or func.value in facts._redefined or func.value in facts._defs or func.value in assumed:
        return False
    target = facts.functions.get(func.value)
    if not isinstance(target, cst.FunctionDef) or target.decorators or _class_of(facts, target) is not None \
            or isinstance(target.asynchronous, cst.Asynchronous) or not _every_call(facts, target):
        return False
    found = False
    for node in facts.walk(target.body, into_scopes=False):
        if isinstance(node, (cst.Yield, cst.Await)):
            return False
        if isinstance(node, cst.Return) and not in_dead_branch(facts, node):
            if node.value is not None and not _false(facts, node.value, depth - 1, assumed | {func.value}):
                return False
            found = True
    return found


def _name_false(facts: Facts, name: cst.Name, depth: int, assumed: frozenset[str]) -> bool:
    if name.value in assumed:
        return True  # `flag = flag and torch.cuda.is_available()`: false if it was false before
    func = facts.enclosing_function(name)
    if isinstance(func, cst.FunctionDef) and name.value in positional_params(func) \
            and name.value not in facts.names_written(func.body):
        return _parameter_false(facts, func, name.value, depth, assumed)
    if func is not None and not facts.reads_global(name):
        values = facts.values_in(name.value, func)
        defs = [d for d in facts._defs.get(name.value, ()) if d.function is func]
        return bool(values) and len(values) == len(defs) and not any(d.augmented for d in defs) \
            and all(_false(facts, v, depth - 1, assumed | {name.value}) for v in values)
    return _global_false(facts, name.value, depth, assumed)


def _global_false(facts: Facts, name: str, depth: int, assumed: frozenset[str]) -> bool:
    """Every binding of the global `name`, in this unit, the cells before and after it, is proved
    false; none made otherwise (an import, a `global` statement in a function, a loop)."""
    units: list[Facts] = [facts, *facts.later]
    earlier = facts.prior.value(name)
    if earlier is not None and earlier[0] is not facts:
        units.append(earlier[0])
    elif facts.prior.defines(name) and earlier is None:
        return False  # an import or a function of an earlier cell
    if name in facts.namespace and not any(unit.binds_global(name) for unit in (facts, *facts.later)):
        return facts.namespace[name] is False or facts.namespace[name] is None
    found = False
    for unit in units:
        top = [d for d in unit._defs.get(name, ()) if d.function is None]
        if not top:
            continue
        if name in unit.aliases or name in unit.functions or name in unit.classes or unit._declares_global(name) \
                or any(d.value is None or d.augmented for d in top):
            return False
        if not all(_false(unit, d.value, depth - 1, assumed | {name}) for d in top):  # type: ignore[arg-type]
            return False
        found = True
    if not found:
        return _imported_false(facts, name, depth, assumed)
    return True


def _imported_false(facts: Facts, name: str, depth: int, assumed: frozenset[str]) -> bool:
    """`from config import USE_CUDA` of a local module whose every binding of it is false."""
    target = facts.aliases.get(name)
    module, _, attr = (target or "").rpartition(".")
    source = facts.imports.module(module) if module and facts.imports is not None else None
    return source is not None and source is not facts and _global_false(source, attr, depth - 1, frozenset())


def _parameter_false(facts: Facts, func: cst.FunctionDef, param: str, depth: int, assumed: frozenset[str]) -> bool:
    """Every call of `func` this program makes fills `param` with a proved-false value (or leaves
    it to a false default), and no call can be unseen: the function's name is only ever called,
    and no other unit (a module importing this one) or later cell names it."""
    calls = _every_call(facts, func)
    if not calls:
        return False
    names = positional_params(func)
    method = _class_of(facts, func) is not None
    offset = 1 if method and names and names[0] in ("self", "cls") else 0
    index = names.index(param) - offset
    default = next((p.default for p in (*func.params.posonly_params, *func.params.params)
                    if p.name.value == param), None)
    for call in calls:
        if any(a.star for a in call.args):
            return False
        keyword = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
        plain = [a.value for a in call.args if a.keyword is None]
        passed = keyword if keyword is not None else plain[index] if 0 <= index < len(plain) else default
        if _STRICT[0] and passed is not default and _literal(passed):
            return False  # `arms(2, False)`: an argument, not a switch (see `_STRICT`)
        if passed is None or not _false(facts, passed, depth - 1, frozenset() if passed is default else assumed):
            return False
    return True


def _literal(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)) or isinstance(expr, cst.Name) \
        and expr.value in ("False", "None", "True")


def _class_of(facts: Facts, func: cst.FunctionDef) -> cst.ClassDef | None:
    block = facts.parent(func)
    cls = facts.parent(block) if isinstance(block, cst.IndentedBlock) else None
    return cls if isinstance(cls, cst.ClassDef) else None


def _unseen_users(facts: Facts, word: str) -> bool:
    """Code this analysis does not read may use `word`: another unit (a later cell, an importer),
    or the unit itself reaches names dynamically (`setattr`, `getattr`, `__dict__`)."""
    return any(word in unit.text for unit in (*facts.later, *facts.callers) if unit is not facts) \
        or any(spelled in facts.text for spelled in ("setattr(", "__dict__", "vars("))


def _every_call(facts: Facts, func: cst.FunctionDef) -> list[cst.Call]:
    """Each call of `func` in the unit: `f(...)` of a top-level function, `Cls(...)` for an
    `__init__`, `self.m(...)` / `obj.m(...)` for another method. Empty when the name is used
    any other way (handed on, read as a value) or code out of sight may call it."""
    cls = _class_of(facts, func)
    if cls is None:
        if facts.functions.get(func.name.value) is not func or _unseen_users(facts, func.name.value):
            return []
        target, attribute = func.name.value, False
    elif func.name.value == "__init__":
        if facts.classes.get(cls.name.value) is not cls or _unseen_users(facts, cls.name.value):
            return []
        target, attribute = cls.name.value, False
    else:
        if facts.classes.get(cls.name.value) is not cls or _unseen_users(facts, func.name.value):
            return []
        if sum(isinstance(s, cst.FunctionDef) and s.name.value == func.name.value
               for c in facts.walk(facts.module) if isinstance(c, cst.ClassDef) for s in c.body.body) != 1:
            return []  # another class's method of the same name: `obj.m(...)` may be either
        target, attribute = func.name.value, True
    calls: list[cst.Call] = []
    for node in facts.walk(facts.module):
        if attribute:
            if not (isinstance(node, cst.Attribute) and node.attr.value == target):
                continue
        elif not (isinstance(node, cst.Name) and node.value == target):
            continue
        parent = facts.parent(node)
        if isinstance(parent, (cst.FunctionDef, cst.ClassDef)) and parent.name is node:
            continue
        if isinstance(parent, cst.Call) and parent.func is node:
            calls.append(parent)
            continue
        if not attribute and _names_without_calling(facts, parent):
            continue
        return []
    return calls


def _names_without_calling(facts: Facts, arg: cst.CSTNode | None) -> bool:
    """`super(Cls, self)`, `isinstance(x, Cls)`: the name read where nothing can call it."""
    call = facts.parent(arg) if isinstance(arg, cst.Arg) else None
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) \
        and call.func.value in ("super", "isinstance", "issubclass")


def _attribute_false(facts: Facts, expr: cst.Attribute, depth: int, assumed: frozenset[str]) -> bool:
    """`self.gpu`, `model.gpu`, `cfg.USE_CUDA`, `config.USE_CUDA` (a local module), `args.cuda` of a
    `SimpleNamespace(cuda=False)`: every value the program can store in the attribute is false."""
    attr = expr.attr.value
    base = expr.value
    if isinstance(base, cst.Name) and base.value != "self":
        module = _local_module(facts, base.value)
        if module is not None:
            return _global_false(module, attr, depth - 1, frozenset())
        made = _made_by(facts, base)
        if isinstance(made, cst.Call) and (facts.qualified_name(made.func) or "") in _NAMESPACES:
            value = next((a.value for a in made.args if a.keyword is not None and a.keyword.value == attr), None)
            return value is not None and not _stored_elsewhere(facts, attr, None) \
                and _false(facts, value, depth - 1, frozenset())
        if isinstance(made, cst.Call) and _parsed_without_a_command_line(facts, made):
            return _argument_default_false(facts, made, attr, depth)
        cls = _local_class(facts, made.func if isinstance(made, cst.Call) else base)
    elif isinstance(base, cst.Name):
        cls = facts.enclosing_class(expr)
    else:
        return False
    if cls is None:
        return False
    return _class_attribute_false(facts, cls, attr, depth, assumed)


def _parsed_without_a_command_line(facts: Facts, call: cst.Call) -> bool:
    """`parser.parse_args([])` (or `("")`, `(args=[])`): a notebook's parse of no arguments, where
    every option keeps its default. `parse_args()` reads the command line, which may set anything."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "parse_args") or len(call.args) != 1:
        return False
    arg = call.args[0]
    empty = isinstance(arg.value, cst.List) and not arg.value.elements \
        or isinstance(arg.value, cst.SimpleString) and arg.value.evaluated_value == ""
    return empty and (arg.keyword is None or arg.keyword.value == "args")


def _argument_default_false(facts: Facts, parse: cst.Call, attr: str, depth: int) -> bool:
    """Every `parser.add_argument(...)` whose destination is `attr` has a false default (`False`,
    `None`, none given, or `action="store_true"` without one), the parser takes no `set_defaults`,
    and nothing stores `.attr` afterwards."""
    parser = parse.func.value if isinstance(parse.func, cst.Attribute) else None
    if not isinstance(parser, cst.Name) or not isinstance(facts.value_of(parser), cst.Call) \
            or (facts.qualified_name(facts.value_of(parser).func) or "") != "argparse.ArgumentParser":  # type: ignore[union-attr]
        return False
    found = False
    for call in facts.calls_in(facts.module):
        func = call.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == parser.value):
            continue
        if func.attr.value in ("set_defaults", "parse_known_args", "add_subparsers", "add_argument_group"):
            return False
        if func.attr.value != "add_argument" or _destination(call) != attr:
            continue
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        default = keywords.get("default")
        action = keywords.get("action")
        if default is not None:
            if not _false(facts, default, depth - 1, frozenset()):
                return False
        elif action is not None and not (isinstance(action, cst.SimpleString)
                                         and action.evaluated_value in ("store_true", "store", "append", "count")):
            return False  # `store_false` defaults to True; a custom action may set anything
        found = True
    return found and not _stored_elsewhere(facts, attr, None)


def _destination(call: cst.Call) -> str | None:
    """The attribute `add_argument` stores into: `dest=`, else the first long option (`--use-cuda`:
    `use_cuda`), else the positional name."""
    dest = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "dest"), None)
    if isinstance(dest, cst.SimpleString):
        return str(dest.evaluated_value)
    flags = [str(a.value.evaluated_value) for a in call.args if a.keyword is None and isinstance(a.value, cst.SimpleString)]
    long = next((f for f in flags if f.startswith("--")), None)
    chosen = long[2:] if long is not None else flags[0].lstrip("-") if flags else None
    return chosen.replace("-", "_") if chosen else None


def _made_by(facts: Facts, name: cst.Name) -> cst.BaseExpression | None:
    """The one value the unit binds `name` to in the read's scope (a `.to(device)` / `.eval()` of it
    keeps the object)."""
    sources = facts.value_sources(name)
    if not sources or len(sources) != 1:
        return None
    value = sources[0]
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in ("to", "cpu", "eval", "train", "float", "double"):
        value = value.func.value
    return value


def _local_module(facts: Facts, name: str) -> Facts | None:
    target = facts.aliases.get(name)
    if target is None or facts.imports is None or name in facts._defs:
        return None
    source = facts.imports.module(target)
    return source if source is not facts else None


def _local_class(facts: Facts, func: cst.BaseExpression) -> cst.ClassDef | None:
    if isinstance(func, cst.Name):
        cls = facts.classes.get(func.value)
        return cls if isinstance(cls, cst.ClassDef) else None
    return None


def _stored_elsewhere(facts: Facts, attr: str, cls: cst.ClassDef | None) -> bool:
    """Some store into `.attr` of the unit is not a `self.attr = ...` of a method of `cls`."""
    for node in facts.walk(facts.module):
        targets: list[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, (cst.For, cst.CompFor)):
            targets = [node.target]
        for target in targets:
            for part in facts.walk(target):
                if isinstance(part, cst.Attribute) and part.attr.value == attr:
                    own = cls is not None and isinstance(part.value, cst.Name) and part.value.value == "self" \
                        and facts.enclosing_class(part) is cls and isinstance(node, cst.Assign)
                    if not own:
                        return True
    return _unseen_users(facts, "." + attr)


def _class_attribute_false(facts: Facts, cls: cst.ClassDef, attr: str, depth: int, assumed: frozenset[str]) -> bool:
    """Every `self.attr = v` of the class's methods and its class-body `attr = v` give a proved-false
    value, at least one does, nothing else stores `.attr`, and the class has no base of the program
    (whose methods could store it) nor a property of that name."""
    key = f"{cls.name.value}.{attr}"
    if key in assumed:
        return True
    if _stored_elsewhere(facts, attr, cls) or any(isinstance(b.value, cst.Name) and b.value.value in facts.classes
                                                  for b in cls.bases):
        return False
    values: list[cst.BaseExpression] = []
    for stmt in cls.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == attr:
            return False
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == attr
                                                         for t in small.targets):
                    values.append(small.value)
    for node in facts.walk(cls):
        if isinstance(node, cst.Assign) and any(isinstance(t.target, cst.Attribute) and t.target.attr.value == attr
                                                for t in node.targets):
            if len(node.targets) != 1:
                return False
            values.append(node.value)
    return bool(values) and all(_false(facts, v, depth - 1, assumed | {key}) for v in values)
