"""Every rank of a DDP script writing the same checkpoint."""

from __future__ import annotations

import libcst as cst

from ...model import Edit, Fix, Severity
from ..names import bound_names
from ._ddp import INIT, dist_alias, is_ddp_script, mentions_rank, rank_guarded, wrapper_names
from .base import Rule

_SAVES = frozenset({"torch.save", "torch.serialization.save"})
_LOADS = frozenset({"torch.load", "torch.serialization.load"})
_DESTROY = frozenset({"torch.distributed.destroy_process_group", "torch.distributed.distributed_c10d.destroy_process_group"})
# Calls an argument may make and still be local to the rank (no collective, no side effect).
_LOCAL_CALLS = frozenset({"os.path.join", "builtins.str", "builtins.dict", "builtins.int", "pathlib.Path"})
_SHARDED = ("fsdp", "FullyShardedDataParallel", "torch.distributed.checkpoint", "torch.distributed.tensor")
# Calls and methods whose result is a path built from their arguments (`_names_a_path`).
_PATH_CALLS = frozenset({"os.path.join", "os.path.abspath", "os.path.expanduser", "os.path.normpath", "os.fspath",
                         "pathlib.Path", "pathlib.PurePath", "builtins.str", "builtins.int", "builtins.format",
                         "os.environ.get", "os.getenv", "os.getcwd", "tempfile.gettempdir"})
_PATH_METHODS = frozenset({"format", "joinpath", "with_suffix", "with_name", "replace", "strip", "rstrip"})
_LOCAL_METHODS = frozenset({"state_dict", "format", "cpu", "detach", "joinpath", "item", "tolist", "clone"})


class DdpSaveEveryRank(Rule):
    id = "ddp-save-every-rank"
    title = "Checkpoint written by every rank"
    severity = Severity.MEDIUM
    explanation = (
        "DDP keeps the replicas identical, so every rank holds the same weights: a `torch.save` that "
        "every rank runs serialises the same checkpoint N times, N processes write one file at once "
        "(racing, on a shared file system), and the step stalls on every rank. Saving on rank 0 "
        "alone writes it once. Save `model.module.state_dict()` (the wrapped module's keys, without "
        "the `module.` prefix) so the checkpoint loads into an unwrapped model."
    )

    def visit_Call(self, node: cst.Call) -> None:
        facts = self.facts
        if (facts.qualified_name(node.func) or "") not in _SAVES or not is_ddp_script(facts):
            return
        if rank_guarded(facts, node) or len(node.args) < 2 or mentions_rank(facts, node.args[1].value):
            return  # one rank saves, or each rank writes its own file on purpose
        obj = node.args[0].value
        module_hint = ""
        if (isinstance(obj, cst.Call) and isinstance(obj.func, cst.Attribute) and obj.func.attr.value == "state_dict"
                and isinstance(obj.func.value, cst.Name) and obj.func.value.value in wrapper_names(facts)):
            module_hint = (f"; save `{obj.func.value.value}.module.state_dict()` so the keys lose DDP's `module.` "
                           "prefix (not rewritten: it changes the file's keys)")
        dist = dist_alias(facts)
        guard = self._guard(node, dist or "dist")
        why_not = self._unprovable(node, dist)
        edits: tuple[Edit, ...] = ()
        if why_not is None:
            rng = facts.position(facts.statement_of(node))
            edits = (Edit(rng.start.line, rng.start.column, rng.start.line, rng.start.column,
                          f"{guard}\n{' ' * rng.start.column}    "),)
        varying = self._per_rank_values(obj)
        review = (f"the checkpoint also holds {', '.join(f'`{n}`' for n in varying)}, which may differ between ranks: "
                  "rank 0's value is written (before, whichever rank wrote last)") if varying and edits else ""
        self.report(
            node,
            "every rank runs this `torch.save`: the same checkpoint is serialised and written once per rank, "
            "to the same file",
            fix=Fix(description=f"save on rank 0 only (`{guard}`){module_hint}"
                    + ("" if why_not is None else f". Not rewritten: {why_not}"),
                    edits=edits, suggestion=f"{guard}\n    {facts.code(node)}", safe=why_not is None, review=review),
        )

    def _per_rank_values(self, obj: cst.BaseExpression, depth: int = 0) -> list[str]:
        """Names in the saved object that are not replicated state: not the owner of a `.state_dict()`
        (DDP keeps models, optimizers and schedulers identical on every rank), not a loop counter over
        `range(...)`, not a name bound to a literal or to such a structure (`ckpt = {...}`)."""
        facts = self.facts
        owners = {id(n) for c in facts.calls_in(obj) if isinstance(c.func, cst.Attribute) and c.func.attr.value == "state_dict"
                  for n in facts.walk(c.func.value) if isinstance(n, cst.Name)}
        found: list[str] = []
        for node in facts.walk(obj):
            if not isinstance(node, cst.Name) or id(node) in owners or node.value in found:
                continue
            parent = facts.parent(node)
            if isinstance(parent, cst.Attribute) and parent.attr is node:
                continue  # `.state_dict` of `model.state_dict`: an attribute name, not a value
            value = facts.value_of(node)
            if self._counter(node) or isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
                continue
            if isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Call)) and depth < 3:
                found.extend(n for n in self._per_rank_values(value, depth + 1) if n not in found)
                continue
            found.append(node.value)
        return found

    def _counter(self, name: cst.Name) -> bool:
        """`epoch` of an enclosing `for epoch in range(...)` (also through `enumerate`'s index)."""
        for loop in self.facts.enclosing_loops(name):
            node = loop.node
            if not isinstance(node, cst.For) or not isinstance(node.iter, cst.Call):
                continue
            func = self.facts.qualified_name(node.iter.func)
            target = node.target
            if func == "builtins.range" and isinstance(target, cst.Name) and target.value == name.value:
                return True
            if func == "builtins.enumerate" and isinstance(target, cst.Tuple) and target.elements \
                    and isinstance(target.elements[0].value, cst.Name) and target.elements[0].value.value == name.value:
                return True
        return False

    def _unprovable(self, save: cst.Call, dist: str | None) -> str | None:
        """Why guarding this save by rank might change the program, or None."""
        facts = self.facts
        stmt = facts.statement_of(save)
        if dist is None:
            return "`torch.distributed` is not imported"
        if any(any(word in target for word in _SHARDED) for target in facts.aliases.values()):
            return "the program shards its state (FSDP, DTensor, distributed checkpoint): saving may be collective"
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)
                and stmt.body[0].value is save):
            return "the save shares its statement with other code"
        if any(not self._local(c) for arg in save.args for c in facts.calls_in(arg.value)):
            return "an argument calls code that may communicate with the other ranks (a collective must run on all)"
        for call in facts.calls_in(facts.module):
            name = facts.qualified_name(call.func) or ""
            if name in _LOADS:
                return "the program loads a checkpoint: another rank may read this file"
        destination = save.args[1].value
        if not self._names_a_path(destination):
            return (f"`{facts.code(destination)}` is not proved to name one file every rank shares (an in-memory buffer, "
                    "an open file or a per-process temporary path is each rank's own: the other ranks' copies would "
                    "no longer be written)")
        return None

    def _names_a_path(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """Closed world: `expr` is a path, the one file the ranks race to write, built only from
        strings, path joins and values the unit does not bind to anything else (a parameter, an
        attribute: `args.out`). A buffer (`io.BytesIO()`), a file object (`with open(p, "wb") as f`)
        or a call off the list (`tempfile.mkdtemp()`: a directory per process) is not proved: the
        save is then each rank's own (red team 34: the replica sizes gathered from per-rank buffers)."""
        facts = self.facts
        if depth > 10:
            return False
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
            return True
        if isinstance(expr, cst.FormattedString):
            return all(self._names_a_path(part.expression, depth + 1) for part in expr.parts
                       if isinstance(part, cst.FormattedStringExpression))
        if isinstance(expr, cst.BinaryOperation):  # `dir + "/m.pt"`, `ckpt_dir / "m.pt"`, `"%s.pt" % name`
            return self._names_a_path(expr.left, depth + 1) and self._names_a_path(expr.right, depth + 1)
        if isinstance(expr, cst.Attribute):  # `args.out`; `self.buf`, bound by this unit to a buffer, is not
            return all(self._names_a_path(v, depth + 1) for v in self._attribute_values(expr.attr.value))
        if isinstance(expr, (cst.Integer, cst.Subscript)):
            return True  # `epoch` in a name; `cfg["ckpt"]`: not bound by this unit
        if isinstance(expr, cst.Call):
            name = facts.qualified_name(expr.func) or ""
            method = expr.func.attr.value if isinstance(expr.func, cst.Attribute) else ""
            if name not in _PATH_CALLS and not (method in _PATH_METHODS and self._names_a_path(expr.func.value, depth + 1)):  # type: ignore[attr-defined]
                return False
            return all(self._names_a_path(arg.value, depth + 1) for arg in expr.args)
        if isinstance(expr, cst.Name):
            if any(isinstance(n, cst.WithItem) and n.asname is not None and expr.value in bound_names(n.asname.name)
                   for n in facts.walk(facts.module)):
                return False  # `with open(path, "wb") as f`: an open file, each rank's own handle
            values = [d.value for d in facts._defs.get(expr.value, ()) if d.value is not None]
            return all(self._names_a_path(v, depth + 1) for v in values)
        return False

    def _attribute_values(self, attr: str) -> list[cst.BaseExpression]:
        """What the unit stores into any `<object>.<attr>` (`self.buf = io.BytesIO()`)."""
        return [node.value for node in self.facts.walk(self.facts.module) if isinstance(node, cst.Assign)
                and any(isinstance(t.target, cst.Attribute) and t.target.attr.value == attr for t in node.targets)]

    def _guard(self, save: cst.Call, dist: str) -> str:
        """`if dist.get_rank() == 0:` where the process group surely exists when the save runs (set up
        unconditionally before it in the same scope, never torn down before it); else a guard that also
        lets a run without a process group save as before (`if args.distributed: init_process_group(...)`,
        a helper that may be called before the set-up)."""
        facts = self.facts
        inits = [c for c in facts.calls_in(facts.module) if (facts.qualified_name(c.func) or "") in INIT]
        scope = facts.enclosing_function(save)
        destroyed = any((facts.qualified_name(c.func) or "") in _DESTROY and not self._torn_down_after(c, save, scope)
                        for c in facts.calls_in(facts.module))
        if not destroyed and any(self._unconditional(c) and facts.enclosing_function(c) is scope
                                 and facts.order(c) < facts.order(save) for c in inits):
            return f"if {dist}.get_rank() == 0:"
        return f"if not {dist}.is_initialized() or {dist}.get_rank() == 0:"

    def _torn_down_after(self, destroy: cst.Call, save: cst.Call, scope: object) -> bool:
        """`destroy_process_group()` surely runs after the save: in the save's own function (or both at
        the top), below it, and in no loop around the save (whose next pass would save after it).
        Text order is run order only there: a teardown in a helper (`cleanup()`, defined anywhere and
        called before the save) or in another function runs whenever it is called (red team 34)."""
        facts = self.facts
        if facts.enclosing_function(destroy) is not scope or facts.order(destroy) < facts.order(save):
            return False
        return not any(loop.node is other.node for loop in facts.enclosing_loops(save)
                       for other in facts.enclosing_loops(destroy))

    def _unconditional(self, call: cst.Call) -> bool:
        """Runs whenever its function (or the module) runs: under no `if`, loop, `try` or `with`."""
        for anc in self.facts.ancestors(call):
            if isinstance(anc, cst.FunctionDef):
                return True
            if isinstance(anc, (cst.If, cst.IfExp, cst.For, cst.While, cst.Try, cst.With, cst.BooleanOperation)):
                return False
        return True

    def _local(self, call: cst.Call) -> bool:
        name = self.facts.qualified_name(call.func) or ""
        if name in _LOCAL_CALLS:
            return True
        return isinstance(call.func, cst.Attribute) and call.func.attr.value in _LOCAL_METHODS and not (
            call.func.attr.value == "state_dict" and call.args)

