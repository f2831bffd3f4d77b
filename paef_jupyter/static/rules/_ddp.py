"""Facts the data-parallel (`ddp-*`) rules share: is this a DDP script, which calls wrap a
model in DDP, and is a statement guarded so that only one rank runs it.

A rule of this family speaks only in a script that itself sets up data parallelism
(`DistributedDataParallel(...)` or `init_process_group(...)`); a script whose loop is run by
Accelerate or Lightning is theirs to manage (they insert the sampler, `no_sync` and rank-0
guards), so every `ddp-*` rule is silent there.
"""

from __future__ import annotations

import weakref

import libcst as cst

from ..facts import Facts
from ..names import dotted_name

DDP = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})
INIT = frozenset({"torch.distributed.init_process_group", "torch.distributed.distributed_c10d.init_process_group"})
_MANAGERS = ("accelerate", "lightning", "pytorch_lightning", "deepspeed", "transformers.Trainer", "ignite")
SAMPLERS = frozenset({"torch.utils.data.DistributedSampler", "torch.utils.data.distributed.DistributedSampler"})
# Names and calls that say "which process am I": a test that reads one is a rank guard.
_RANK_WORDS = ("rank", "is_main", "main_process", "is_master", "master_process", "is_chief", "is_primary", "is_zero")


_CACHE: "weakref.WeakKeyDictionary[Facts, dict[str, object]]" = weakref.WeakKeyDictionary()


def _facts_cache(facts: Facts) -> dict[str, object]:
    """Per-unit answers: eight rules ask the same questions of one unit."""
    return _CACHE.setdefault(facts, {})


def ddp_calls(facts: Facts) -> list[cst.Call]:
    """Every `DistributedDataParallel(...)` call of the unit."""
    cache = _facts_cache(facts)
    if "wraps" not in cache:
        cache["wraps"] = [n for n in facts.walk(facts.module)
                          if isinstance(n, cst.Call) and (facts.qualified_name(n.func) or "") in DDP]
    return cache["wraps"]  # type: ignore[return-value]


def is_ddp_script(facts: Facts) -> bool:
    """The unit sets up DDP itself (and no framework runs its loop)."""
    cache = _facts_cache(facts)
    if "script" not in cache:
        managed = any(target == m or target.startswith(m + ".") for target in facts.aliases.values() for m in _MANAGERS)
        inits = any(isinstance(n, cst.Call) and (facts.qualified_name(n.func) or "") in INIT
                    for n in facts.walk(facts.module))
        cache["script"] = not managed and (inits or bool(ddp_calls(facts)))
    return bool(cache["script"])


def dist_alias(facts: Facts) -> str | None:
    """The local name of `torch.distributed` (`dist`), or `torch.distributed` through `torch`."""
    for local, target in facts.aliases.items():
        if target == "torch.distributed":
            return local
    for local, target in facts.aliases.items():
        if target == "torch":
            return f"{local}.distributed"
    return None


def wrapped_model(facts: Facts, wrap: cst.Call) -> cst.BaseExpression | None:
    """The module a DDP call wraps (its first argument or `module=`)."""
    for arg in wrap.args:
        if (arg.keyword is None and not arg.star) or (arg.keyword is not None and arg.keyword.value == "module"):
            return arg.value
    return None


def wrapper_names(facts: Facts) -> set[str]:
    """Names bound to a DDP call (`model = DDP(model, ...)`)."""
    names: set[str] = set()
    for wrap in ddp_calls(facts):
        parent = facts.parent(wrap)
        if isinstance(parent, cst.Assign):
            names.update(t.target.value for t in parent.targets if isinstance(t.target, cst.Name))
        elif isinstance(parent, cst.AnnAssign) and isinstance(parent.target, cst.Name):
            names.add(parent.target.value)
    return names


def mentions_rank(facts: Facts, expr: cst.CSTNode) -> bool:
    """`expr` reads a rank (`rank`, `args.local_rank`, `dist.get_rank()`, `is_main_process`...), or
    a name or `self.` attribute the unit assigns from one (`self.gpu_id = int(os.environ["LOCAL_RANK"])`)."""
    derived = _rank_names(facts)
    for node in facts.walk(expr):
        if isinstance(node, cst.Name) and node.value in derived:
            return True
        if isinstance(node, cst.Attribute) and node.attr.value in derived:
            return True
        if _rank_word(node):
            return True
    return False


def _rank_word(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.SimpleString):
        return str(node.evaluated_value) in ("RANK", "LOCAL_RANK")
    text = node.value if isinstance(node, cst.Name) else node.attr.value if isinstance(node, cst.Attribute) else None
    return text is not None and any(word in text.lower() for word in _RANK_WORDS)


def _rank_names(facts: Facts) -> frozenset[str]:
    """Names and attributes bound to a rank-derived value anywhere in the unit (one step)."""
    cache = _facts_cache(facts)
    if "rank_names" not in cache:
        names: set[str] = set()
        for node in facts.walk(facts.module):
            if isinstance(node, cst.Assign) and _rank_value(facts, node.value):
                for target in node.targets:
                    t = target.target
                    if isinstance(t, cst.Name):
                        names.add(t.value)
                    elif isinstance(t, cst.Attribute):
                        names.add(t.attr.value)
        cache["rank_names"] = frozenset(names)
    return cache["rank_names"]  # type: ignore[return-value]


def _rank_value(facts: Facts, value: cst.BaseExpression) -> bool:
    """A value that *is* a rank or a test of one (`int(os.environ["LOCAL_RANK"])`, `dist.get_rank() == 0`),
    not merely built with one (`DDP(model, device_ids=[rank])` is a model)."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("int", "str", "bool") \
            and value.args:
        value = value.args[0].value
    if isinstance(value, cst.Call) and not _rank_word(value.func) and "environ" not in facts.code(value.func) \
            and "getenv" not in facts.code(value.func):
        return False
    return any(_rank_word(n) for n in facts.walk(value))


def rank_guarded(facts: Facts, node: cst.CSTNode, depth: int = 0) -> bool:
    """Only some ranks run `node`: an enclosing `if` (or a decorator) reads a rank, an earlier
    statement of an enclosing block leaves it on a rank test (`if rank != 0: return`), or it sits
    in a function of this unit that is only ever called under such a guard."""
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.If, cst.While)) and child is not anc.test and mentions_rank(facts, anc.test):
            return True
        if isinstance(anc, cst.IfExp) and child is not anc.test and mentions_rank(facts, anc.test):
            return True
        if isinstance(anc, cst.FunctionDef) and any(mentions_rank(facts, d.decorator) for d in anc.decorators):
            return True
        if isinstance(anc, (cst.IndentedBlock, cst.Module)) and _left_on_rank_test(facts, anc, child):
            return True
        child = anc
    func = facts.enclosing_function(node)
    if func is None or depth > 3:
        return False
    sites = [n for n in facts.walk(facts.module) if isinstance(n, cst.Call) and _calls_by_name(n, func.name.value)]
    return bool(sites) and all(rank_guarded(facts, site, depth + 1) for site in sites)


def _calls_by_name(call: cst.Call, name: str) -> bool:
    func = call.func
    return (isinstance(func, cst.Name) and func.value == name) or (isinstance(func, cst.Attribute) and func.attr.value == name)


def _left_on_rank_test(facts: Facts, block: cst.IndentedBlock | cst.Module, stmt: cst.CSTNode) -> bool:
    for earlier in block.body:
        if earlier is stmt:
            return False
        if isinstance(earlier, cst.If) and mentions_rank(facts, earlier.test) and _exits(earlier.body):
            return True
    return False


def _exits(body: cst.BaseSuite) -> bool:
    stmts = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for stmt in stmts:
        smalls = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []
        if any(isinstance(s, (cst.Return, cst.Continue, cst.Break, cst.Raise)) for s in smalls):  # type: ignore[union-attr]
            return True
        if any(isinstance(s, cst.Expr) and isinstance(s.value, cst.Call)
               and (dotted_name(s.value.func) or "") in ("sys.exit", "exit", "quit") for s in smalls):  # type: ignore[union-attr]
            return True
    return False


def is_literal_true(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "True"


_MOVES = frozenset({"to", "cuda", "train", "float", "half", "double", "bfloat16"})


def model_constructor(facts: Facts, expr: cst.BaseExpression | None, depth: int = 0) -> cst.Call | None:
    """The call that built the module `expr` names: `Net()` for `model` in `model = Net().to(dev)`
    (through names bound once before, and `.to()` / `.cuda()` chains)."""
    if expr is None or depth > 8:
        return None
    if isinstance(expr, cst.Name):
        return model_constructor(facts, facts.value_of(expr), depth + 1)
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _MOVES:
            return model_constructor(facts, expr.func.value, depth + 1)
        return expr
    return None


def local_class(facts: Facts, call: cst.Call | None) -> cst.ClassDef | None:
    if call is not None and isinstance(call.func, cst.Name):
        return facts.classes.get(call.func.value)
    return None


def method(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    return next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)

