"""A shuffling `DistributedSampler` whose epoch is never set: every epoch repeats the first order."""

from __future__ import annotations

import libcst as cst

from ...fix.edits import insert_before
from ...model import Fix, Severity
from ..facts import Facts, Loop
from ._ddp import SAMPLERS, is_ddp_script, is_literal_true
from ._support import LOADERS, _calls_step_loop, consumer_loops, keyword_arg, keyword_value
from .base import Rule


class DdpMissingSetEpoch(Rule):
    id = "ddp-missing-set-epoch"
    title = "DistributedSampler without set_epoch"
    severity = Severity.MEDIUM
    explanation = (
        "A `DistributedSampler` with `shuffle=True` seeds its permutation with `seed + epoch`, and "
        "the epoch is whatever `sampler.set_epoch(epoch)` last set: never called, it stays 0, so every "
        "epoch visits the samples in the same order on every rank, as if shuffling were off after the "
        "first epoch. Calling `set_epoch(epoch)` at the start of each epoch gives each epoch its own "
        "order while the ranks still agree on how to split it."
    )

    def visit_Module(self, node: cst.Module) -> None:
        facts = self.facts
        if not is_ddp_script(facts) or any(
                isinstance(n, cst.Attribute) and n.attr.value == "set_epoch" for n in facts.walk(facts.module)):
            return  # set somewhere: how and where is not second-guessed
        for call in facts.calls_in(facts.module):
            if (facts.qualified_name(call.func) or "") in SAMPLERS:
                self._check(call)

    def _check(self, sampler: cst.Call) -> None:
        facts = self.facts
        given, shuffle = keyword_value(facts, sampler, "shuffle")
        if given and not is_literal_true(shuffle):
            return  # not shuffled (or not provably): the epoch changes nothing
        found = self._sampler_and_loader(sampler)
        if found is None:
            return
        reference, loader = found
        for epoch_loop in self._epoch_loops(loader):
            self._report(epoch_loop, reference)

    def _sampler_and_loader(self, sampler: cst.Call) -> tuple[str, cst.Call] | None:
        """How the loop can name the sampler (`sampler`, `loader.sampler`) and the loader using it."""
        facts = self.facts
        parent = facts.parent(sampler)
        if isinstance(parent, cst.Arg) and parent.keyword is not None and parent.keyword.value == "sampler":
            loader = facts.parent(parent)
            name = _assigned_name(facts, loader)
            if isinstance(loader, cst.Call) and name is not None:
                return f"{name}.sampler", loader
            return None
        name = _assigned_name(facts, sampler)
        if name is None:
            return None
        for use in facts.uses(name):
            arg = facts.parent(use)
            loader = facts.parent(arg) if isinstance(arg, cst.Arg) else None
            if (isinstance(loader, cst.Call) and (facts.qualified_name(loader.func) or "") in LOADERS
                    and keyword_arg(loader, "sampler") is arg and facts.value_of(use) is sampler):
                return name, loader
        return None

    def _epoch_loops(self, loader: cst.Call) -> list[Loop]:
        """The loops around each pass over the loader: the parent of a loop over it, or a loop that
        hands the loader's name to a helper (`for epoch ...: train_one_epoch(model, loader)`)."""
        facts = self.facts
        found: list[Loop] = []
        for loop in consumer_loops(facts, loader):
            if loop.parent is not None and loop.parent not in found:
                found.append(loop.parent)
        name = _assigned_name(facts, loader)
        if name is not None:
            for use in facts.uses(name):
                arg = facts.parent(use)
                if not (isinstance(arg, cst.Arg) and isinstance(facts.parent(arg), cst.Call)) or facts.value_of(use) is not loader:
                    continue
                loops = facts.enclosing_loops(use)
                if loops and loops[-1] not in found:
                    found.append(loops[-1])
        return [loop for loop in found if _trains(facts, loop)]

    def _report(self, loop: Loop, reference: str) -> None:
        facts = self.facts
        node = loop.node
        epoch = node.target.value if isinstance(node, cst.For) and isinstance(node.target, cst.Name) else None
        code = f"{reference}.set_epoch({epoch or 'epoch'})"
        block = node.body
        first = block.body[0] if isinstance(block, cst.IndentedBlock) and block.body else None
        provable = epoch is not None and epoch != "_" and first is not None and self._visible(reference, loop)
        edits = (insert_before(facts, first, code),) if provable else ()  # type: ignore[arg-type]
        description = f"call `{code}` first thing in each epoch"
        self.report(
            node.iter if isinstance(node, cst.For) else node.test,  # type: ignore[attr-defined]
            f"this epoch loop never calls `{reference}.set_epoch(...)`: the shuffling `DistributedSampler` "
            "draws the same permutation every epoch",
            fix=Fix(description=description + ("" if provable else
                    ". Not rewritten: the loop has no epoch variable (or the sampler is not in scope there)"),
                    edits=edits, suggestion=code, safe=provable,
                    review="from the second epoch on, each epoch visits the data in a new order (before, every "
                           "epoch repeated the first one's): the first epoch is unchanged, later ones are not"
                    if provable else ""),
        )

    def _visible(self, reference: str, loop: Loop) -> bool:
        """The sampler's (or loader's) name is bound in the epoch loop's own scope, before the loop."""
        facts = self.facts
        name = reference.split(".")[0]
        bindings = [u for u in facts.uses(name) if isinstance(facts.parent(u), cst.AssignTarget)]
        return len(bindings) == 1 and facts.enclosing_function(bindings[0]) is loop.function \
            and facts.order(bindings[0]) < facts.order(loop.node)


def _assigned_name(facts: Facts, value: cst.CSTNode | None) -> str | None:
    parent = facts.parent(value) if value is not None else None
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        return parent.targets[0].target.value
    return None


def _trains(facts: Facts, loop: Loop) -> bool:
    """A training loop, or a loop whose body (or a helper it calls) runs one."""
    return loop.kind == "train" or any(l.parent is loop and l.kind == "train" for l in facts.loops) \
        or _calls_step_loop(facts, loop)
