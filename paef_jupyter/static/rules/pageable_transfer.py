"""Batches copied to the GPU from pageable memory, and copies that block the host."""

from __future__ import annotations

import dataclasses

import libcst as cst

from ...model import Edit, Finding, Fix, Severity
from ..dataset_placement import dataset_placement, passed_on_device
from ..device_use import cuda_condition, host_tensors, is_accelerator_device, is_device_move, may_be_cuda_tensor_type
from ..facts import Facts, Loop
from ..names import bound_names, mutated_names, named_params, positional_params, root_name
from ..types import Kind, kind_of_value
from ._support import (
    LOADERS,
    _returned_element_uses,
    later_returned_element_uses,
    built_attributes,
    add_keyword,
    batches_are_tensors,
    branch_keyword,
    consumer_loops,
    dict_entry,
    drawn_batches,
    iterated,
    iterated_name,
    keyword_arg,
    keyword_value,
    loops_fed,
    may_carry,
    torch_alias,
    unwrapped,
    with_keyword,
    zipped_loops,
)
from ._cuda_branches import built_without_cuda
from ._grad_only_code import reached_units
from ._pinned_batches import rebuilt_batch_class
from ._pinning import asks_for_overlap, live_pinning_pays, pinning_pays
from ._sample_transforms import fed_as_sample_transform
from .base import Rule, RuleContext
from .redundant_tensor import IDENTITY_WRAPPERS
from ..fresh_calls import TENSOR_METHODS

_TRUE = cst.Name("True")


class PageableTransfer(Rule):
    id = "pageable-transfer"
    title = "Host-to-device copies from pageable memory"
    severity = Severity.MEDIUM
    explanation = (
        "A copy from ordinary (pageable) host memory to the GPU goes through a pinned staging "
        "buffer: the driver copies twice and the host thread blocks until the transfer is done, so "
        "loading the next batch and the GPU's work cannot overlap. With `pin_memory=True` the "
        "DataLoader pins each batch in a background thread, and `.to(device, non_blocking=True)` "
        "then returns at once while the copy runs alongside compute. Results are identical."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._loaders: list[tuple[Finding, str, str]] = []  # unpinned loaders reported: finding, name, "train"/"eval"/""

    def visit_Call(self, node: cst.Call) -> None:
        if (self.facts.qualified_name(node.func) or "") not in LOADERS:
            return
        loops = consumer_loops(self.facts, node)
        moves = [move for loop in loops for move in self._batch_moves(loop)]
        zipped = zipped_loops(self.facts, node)
        for loop, k in zipped:
            moves += [m for m in self._batch_moves(loop, k) if m not in moves]
        if not moves:
            self._fed_elsewhere(node)
            return
        if loops and (loops[0].facts is not self.facts or _over_parameter(loops[0])):  # `train_kd(..., trainer.trainloader)`
            name = self._own_name(node)
        elif loops:
            name = self.facts.code(unwrapped(loops[0].node.iter)) if iterated_name(loops[0]) is None else iterated_name(loops[0])
        else:  # only through `zip(...)`: the loader's own name
            name = self.facts.code(self.facts.parent(node).targets[0].target)  # type: ignore[union-attr]
        proven = batches_are_tensors(self.facts, node)
        elsewhere = {id(m) for loop in loops if loop.facts is not self.facts for m in self._batch_moves(loop)}
        blocking = [m for m in moves if id(m) not in elsewhere  # another module's copies are its own to edit
                    and is_device_move(self.facts, m) and not may_carry(self.facts, m, "non_blocking")]  # a helper call takes no `non_blocking`
        given, pin = keyword_value(self.facts, node, "pin_memory")
        if not given:
            given, pin = _pin_by_position(node)
        if (not given or _is_false(pin)) and built_without_cuda(self.facts, node, moves):
            return  # made only where the program uses no CUDA device, and copied only where it does
        if (not given or _is_false(pin)) and not pinning_pays(
                self.facts, node, _with_helper_copies([(loop.facts, m) for loop in loops for m in self._batch_moves(loop)]
                                                      + [(loop.facts, m) for loop, k in zipped for m in self._batch_moves(loop, k)])):
            return  # a single-process loader copied synchronously: pinning would run on the training thread (`_pinning`)
        if not given or _is_false(pin):
            placement = dataset_placement(self.facts, node)
            foreign = next((loop for loop in loops if loop.facts is not self.facts), None)
            if placement.on_device or placement.unseen and passed_on_device(self.facts, node):
                pass
            elif foreign is not None:  # the copies are another module's (`train(..., trainer.trainloader)`)
                self._pageable(node, name, [], [], False, placement.unseen, consumers=loops + [loop for loop, _ in zipped],
                               moved=self._moved_in(foreign, self._batch_moves(foreign)))
            else:
                self._pageable(node, name, moves, blocking if proven else [], proven, placement.unseen,  # type: ignore[arg-type]
                               consumers=loops + [loop for loop, _ in zipped])
        elif pin is not None and _is_pinned(pin):
            for move in blocking:
                self._blocking(move, name, proven)  # type: ignore[arg-type]
        elif pin is None and keyword_arg(node, "pin_memory") is None and blocking and not self._pins_with_cuda(node):
            self.report(
                node,
                f"`{name}` may or may not pin its batches: `pin_memory` comes from a `**` dict this analysis "
                "cannot read, and the batches are copied to the device synchronously",
                fix=Fix(description="if the loader pins (`pin_memory=True` on a GPU), copy its batches with "
                        "`non_blocking=True`; not rewritten, because the keyword may already be in the dict",
                        suggestion=self.facts.code(with_keyword(blocking[0], "non_blocking", _TRUE)), safe=False),
                severity=Severity.LOW,
            )

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """`__getitem__` of a Dataset that copies its sample to the device (x-transformers'
        `return full_seq.cuda()`): one small blocking copy per sample, and a loader of device
        samples can use neither worker processes nor pinning. A hint: the batch is moved in the
        loop instead. Silent when the class moves or places anything on a device elsewhere (its
        data may already be there, and the move a no-op)."""
        cls = self.facts.parent(self.facts.parent(node))
        if node.name.value == "__call__" and isinstance(cls, cst.ClassDef):
            self._sample_transform_moves(cls, node)
            return
        if node.name.value != "__getitem__" or not isinstance(cls, cst.ClassDef) or self.facts._kind_of_class(cls) is not Kind.DATASET:
            return
        moves = [n for n in self.facts.walk(node.body, into_scopes=False) if isinstance(n, cst.Call) and is_device_move(self.facts, n)]
        if not moves or (self._places_elsewhere(cls, node) and not _read_from_file(self.facts, moves[0])):
            return
        move = moves[0]
        self.report(
            move,
            f"`{cls.name.value}.__getitem__` copies each sample to the device (`{self.facts.code(move)}`): one small "
            "blocking host-to-device copy per sample instead of one per batch, and a loader of device samples "
            "can neither pin its batches nor load them in worker processes",
            fix=Fix(description="return host tensors from `__getitem__` and move the whole batch in the training "
                    "loop: `DataLoader(..., pin_memory=torch.cuda.is_available())` and "
                    "`batch.to(device, non_blocking=True)`", safe=False),
            severity=Severity.LOW,
        )

    def _sample_transform_moves(self, cls: cst.ClassDef, call: cst.FunctionDef) -> None:
        """`__call__` of a transform a dataset applies to each sample (`transforms.Compose([ToDevice(),
        ...])` given as `transform=`) that copies the sample to the device: the same per-sample copy
        as in `__getitem__`, run in the loader's workers. A hint; silent when the class places data
        on a device elsewhere, or when no `transform=` is seen receiving it (a `Compose` applied to
        whole batches in the training loop copies once per batch)."""
        if self.facts._kind_of_class(cls) is not Kind.UNKNOWN:
            return
        moves = [n for n in self.facts.walk(call.body, into_scopes=False) if isinstance(n, cst.Call) and is_device_move(self.facts, n)]
        if not moves or self._places_elsewhere(cls, call) or not fed_as_sample_transform(self.facts, cls):
            return
        move = moves[0]
        self.report(
            move,
            f"`{cls.name.value}`, a transform the dataset applies to each sample, copies it to the device "
            f"(`{self.facts.code(move)}`): one small blocking host-to-device copy per sample instead of one per "
            "batch (made in each worker process when the loader has workers, each then holding a CUDA context), "
            "and batches of device tensors cannot be pinned",
            fix=Fix(description="keep the transform on the host and move the whole batch in the training loop: "
                    "`DataLoader(..., pin_memory=torch.cuda.is_available())` and `batch.to(device, non_blocking=True)`",
                    safe=False),
            severity=Severity.LOW,
        )

    def _places_elsewhere(self, cls: cst.ClassDef, getitem: cst.FunctionDef) -> bool:
        """A device move or a `device=` argument anywhere in the class outside `__getitem__`."""
        for stmt in cls.body.body:
            if stmt is getitem:
                continue
            for n in self.facts.walk(stmt):
                if isinstance(n, cst.Call) and is_device_move(self.facts, n):
                    return True
                if isinstance(n, cst.Arg) and n.keyword is not None and n.keyword.value == "device":
                    return True
        return False

    def _pins_with_cuda(self, loader: cst.Call) -> bool:
        """`**({"pin_memory": True} if use_cuda else {})`: pinned exactly where the batches go to
        a CUDA device, like `pin_memory=use_cuda` (which this rule leaves as it is)."""
        branch = branch_keyword(self.facts, loader, "pin_memory")
        if branch is None:
            return False
        test, when_true, when_false = branch
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, when_true, when_false = test.expression, when_false, when_true
        unpinned = when_false is None or _is_false(when_false)
        return when_true is not None and _is_pinned(when_true) and unpinned and cuda_condition(self.facts, test)

    def _fed_elsewhere(self, node: cst.Call) -> None:
        """`train_epoch(model, train_loader, ...)` whose loop copies the batches, or a later cell's
        loop over the loader: pin the loader here. The copies are in another function or cell,
        which this edit leaves as they are (`non_blocking=True` there is the user's to add)."""
        given, pin = keyword_value(self.facts, node, "pin_memory")
        if given and not _is_false(pin):
            return
        fed: list[tuple[Loop, set[str] | None]] = [(loop, None) for loop in loops_fed(self.facts, node)]
        for loop, batch in fed + [(loop, batch) for loop, batch in drawn_batches(self.facts, node)]:
            moves = self._batch_moves(loop, batch=batch)
            if not moves:
                continue
            if not pinning_pays(self.facts, node, _with_helper_copies([(loop.facts, m) for m in moves])):
                continue  # a single-process loader copied synchronously (`_pinning`)
            placement = dataset_placement(self.facts, node)
            if placement.on_device:
                return
            self._pageable(node, self._own_name(node), [], [], False, placement.unseen, consumers=[loop],
                           moved=self._moved_in(loop, moves), later=self._called_by_later_cells(node))
            return

    def _called_by_later_cells(self, node: cst.Call) -> str:
        """Why the pinning is left to review when the loader's function is called only by later cells
        (`get_train_val_loaders(...)` in the last cell's `main()`), '' otherwise: the copies were found
        through cells that may be edited or run in another order (determinism56's split notebook)."""
        later = later_returned_element_uses(self.facts, node)
        if not later or _returned_element_uses(self.facts, node):
            return ""
        func = self.facts.enclosing_function(node)
        name = func.name.value if isinstance(func, cst.FunctionDef) else "the loader's function"
        return (f"`{name}` is called only by a later cell, which this rewrite of this cell relies on: a later cell "
                "edited or run in another order may use the loader differently")

    def _moved_in(self, loop: Loop, moves: list[cst.Call]) -> str:
        """"`x.to(DEVICE)` in `train`": the copy another function, cell or module makes."""
        where = f"`{loop.function.name.value}`" if isinstance(loop.function, cst.FunctionDef) \
            else "a later cell" if loop.facts is not self.facts else "the module-level loop"
        return f"`{loop.facts.code(moves[0])}` in {where}"

    def _own_name(self, node: cst.Call) -> str:
        """What the program calls the loader `node` builds, where it is built."""
        bound = self.facts.parent(node)
        if isinstance(bound, cst.DictComp):  # `{x: DataLoader(...) for x in splits}`: the entries
            bound = self.facts.parent(bound)
            return f"{self.facts.code(bound.targets[0].target)}[...]" if isinstance(bound, cst.Assign) else "the loader"
        if isinstance(bound, cst.Arg):  # `DeviceLoader(DataLoader(...), device)`
            return f"{self.facts.code(node.func)}(...)"
        if (entry := dict_entry(self.facts, node)) is not None:  # `{"train": DataLoader(...), ...}`
            table = self.facts.parent(entry[0])
            return f"{self.facts.code(table.targets[0].target)}[{entry[1]!r}]" if isinstance(table, cst.Assign) \
                and len(table.targets) == 1 else "the loader"
        stored = built_attributes(self.facts, node)
        if stored:  # `self.trainloader, self.testloader = self.build_loaders()`
            return self.facts.code(stored[0][1])
        if isinstance(bound, cst.Element):  # `return DataLoader(...), DataLoader(...)`
            func = self.facts.enclosing_function(node)
            return f"{func.name.value}(...)" if isinstance(func, cst.FunctionDef) else "the loader"
        return self.facts.code(bound.targets[0].target) if isinstance(bound, cst.Assign) else "the loader"

    def visit_Module(self, node: cst.Module) -> None:
        """Loops over a DataLoader built in an earlier cell: its settings come from the live object,
        or, with no kernel at hand (`paef scan` of a notebook), from the cell that built it."""
        for loop in self.facts.loops:
            name = iterated_name(loop)
            node = iterated(loop)
            if isinstance(node, cst.Name) and not self.facts.reads_global(node):
                continue  # a parameter or local spelled like the notebook's loader (`def run(model, loader):`)
            live = self.facts.namespace.get(name) if name is not None else None
            if live is None and name is not None and not self._assigned_here(name):
                self._earlier_cell_loader(loop, name)
            if live is None or kind_of_value(live) is not Kind.DATALOADER or self._assigned_here(name):  # type: ignore[arg-type]
                continue
            moves = self._batch_moves(loop)
            blocking = [m for m in moves if is_device_move(self.facts, m) and not may_carry(self.facts, m, "non_blocking")]  # a helper call takes no `non_blocking`
            if getattr(live, "pin_memory", False):
                for move in blocking:
                    self._blocking(move, name, _live_tensor_batches(live))  # type: ignore[arg-type]
            elif moves and host_tensors(getattr(live, "dataset", None)) \
                    and (live_pinning_pays(live) or asks_for_overlap([(self.facts, m) for m in moves])):
                self._pageable_elsewhere(moves[0], name)  # type: ignore[arg-type]

    def _earlier_cell_loader(self, loop: Loop, name: str) -> None:
        """`for batch in loader:` where an earlier cell ran `loader = DataLoader(...)` unpinned."""
        earlier = self.facts.prior.value(name)
        if earlier is None or not isinstance(earlier[1], cst.Call):
            return
        owner, loader = earlier
        if (owner.qualified_name(loader.func) or "") not in LOADERS or not isinstance(loop.node, cst.For):
            return
        if loop in loops_fed(owner, loader):
            return  # the earlier cell sees this loop (`paef scan` of the notebook): reported at its loader
        given, pin = keyword_value(owner, loader, "pin_memory")
        carried = keyword_arg(loader, "pin_memory") is None and may_carry(owner, loader, "pin_memory") \
            or _pin_by_position(loader)[0]
        moves = self._batch_moves(loop)
        if moves and not carried and (not given or _is_false(pin)) and not dataset_placement(owner, loader).on_device \
                and pinning_pays(owner, loader, _with_helper_copies([(self.facts, m) for m in moves])):
            self._pageable_elsewhere(moves[0], name)

    def _pageable_elsewhere(self, move: cst.Call, name: str) -> None:
        self.report(
            move,
            f"`{name}` (built in an earlier cell) yields batches in pageable memory and "
            f"`{self.facts.code(move)}` copies each one to the device: the copy is staged through a "
            "pinned buffer and blocks the host every step",
            fix=Fix(
                description=f"create `{name}` with `pin_memory=torch.cuda.is_available()` (in its own cell) "
                "and copy its batches with `non_blocking=True`",
                suggestion=f"{name} = DataLoader(..., pin_memory=torch.cuda.is_available())",
                safe=False,
            ),
        )

    def _assigned_here(self, name: str) -> bool:
        return any(isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name) and n.target.value == name
                   for n in self.facts.walk(self.facts.module))

    def _pageable(self, loader: cst.Call, name: str, moves: list[cst.Call], blocking: list[cst.Call], proven: bool,
                  unseen: str, consumers: list[Loop], moved: str = "", later: str = "") -> None:
        """Pin the loader (a keyword `DataLoader` itself accepts) and, where the batches are proven
        tensors, copy them with `non_blocking=True`; a `**dict` that may carry `pin_memory` gets a
        hint; a dataset built from code the analysis did not see (`unseen`) gets the edit for review."""
        reported = len(self.findings)
        span = self.facts.position(loader)
        place = (span.start.line, span.end.line)
        again = place in self._seen  # `return DataLoader(train_ds), DataLoader(test_ds)`: a second loader on the line
        self._seen.discard(place)
        torch = torch_alias(self.facts)
        first = moved or f"`{self.facts.code(moves[0])}`"
        pin_value = f"{torch or 'torch'}.cuda.is_available()"
        new_loader = with_keyword(loader, "pin_memory", cst.parse_expression(pin_value))
        carried = keyword_arg(loader, "pin_memory") is None and may_carry(self.facts, loader, "pin_memory") \
            or _pin_by_position(loader)[0]
        asynchronous = [m for m in blocking if not self._used_on_host(m) and not self._source_changed(m)
                        and not self._rewrapped(m)]
        edits: tuple[Edit, ...] = ()
        if torch is not None and not carried:
            edits = (add_keyword(self.facts, loader, "pin_memory", pin_value),
                     *(add_keyword(self.facts, m, "non_blocking", "True") for m in asynchronous))
        if carried:
            description = ("pin the batches (`pin_memory=True` where there is a GPU). Not rewritten: a `**` dict "
                           "or an argument by position passed to the loader may already set `pin_memory`, and "
                           "repeating it as a keyword is an error")
        elif moved:
            description = (f"pin the batches (`pin_memory={pin_value}`); the copies are made by {moved}, which this "
                           "rewrite leaves as they are: give them `non_blocking=True` there so the pinned copy "
                           "overlaps compute")
        elif not blocking and all(_is_copy_into(m) for m in moves):
            description = (f"pin the batches (`pin_memory={pin_value}`): `{self.facts.code(moves[0])}` then copies from "
                           "pinned memory, directly; it still waits for the copy unless given `non_blocking=True`, "
                           "which this rewrite leaves to you (the buffer must not be read on the host meanwhile)")
        elif not blocking and any(not is_device_move(self.facts, m) for m in moves):
            description = (f"pin the batches (`pin_memory={pin_value}`); the copy itself is made inside "
                           f"`{self.facts.code(moves[0].func)}`, which this rewrite leaves as it is: give its "
                           "`.to(...)`/`.cuda()` `non_blocking=True` there so the pinned copy overlaps compute")
        elif asynchronous:
            description = (f"pin the batches (`pin_memory={pin_value}`: pinned where there is a GPU, no "
                           "warning on CPU-only machines) and copy them with `non_blocking=True`")
        else:
            description = (f"pin the batches (`pin_memory={pin_value}`); the copies are left blocking: "
                           + ("the batches are not proven to be tensors, so `.to(..., non_blocking=True)` may not "
                              "be accepted (a custom batch class, a tokenizer's `BatchEncoding`)" if not proven
                              else "their results are read on the host at once"))
        review = f"the batches are built from {unseen}: if they are already on the GPU, a pinning loader raises" \
            if unseen and edits else later if edits else ""
        if edits and not review and not proven and (rebuilt := rebuilt_batch_class(reached_units(self.facts))):
            review = (f"the batches are not proved tensors in plain tuples and dicts, and the program defines "
                      f"`{rebuilt}`, a container subclass or a class with its own `pin_memory`: pinning rebuilds "
                      "each batch container (`type(batch)(...)` for a tuple subclass, a copy for a mapping or list) "
                      "or calls the batch's `pin_memory()`, so on a GPU the loop may get another object, or an error")
        self.report(
            loader,
            f"`{name}` yields batches in pageable memory and {first} copies each one to the device: "
            "the copy is staged through a pinned buffer and blocks the host every step, so data "
            "loading and GPU work cannot overlap",
            fix=Fix(description=description, edits=edits, suggestion=self.facts.code(new_loader), safe=bool(edits),
                    review=review),
            end_node=loader,
        )
        if len(self.findings) > reported:
            kinds = {loop.kind for loop in consumers}
            finding = self.findings.pop() if again else self.findings[-1]  # one finding per place: a second one
            self._loaders.append((finding, name, "train" if "train" in kinds else "eval" if kinds == {"eval"} else ""))  # lives on only if it joins
        elif again:
            self._seen.add(place)

    def leave_Module(self, original_node: cst.Module) -> None:
        """One finding for a training program's unpinned loaders: an evaluation-only loader's
        pinning joins the training loader's finding (its edits, its line, a word in the message).
        Evaluation reads a small share of the batches training does, so apart it is not worth a
        finding of its own; a program that only evaluates keeps its findings. Edits join only
        where that keeps each one's safety: never an edit for review into an automatic fix."""
        training = [finding for finding, _, role in self._loaders if role == "train"]
        if not training:
            return
        host = training[0]
        joined: list[tuple[Finding, str]] = []
        for finding, name, role in self._loaders:
            if role == "eval" and finding.fix is not None and host.fix is not None and _joins(host.fix, finding.fix):
                joined.append((finding, name))
        if not joined:
            return
        assert host.fix is not None
        others = ", ".join(f"`{name}` (line {finding.line})" for finding, name in joined)
        edits = host.fix.edits + tuple(e for finding, _ in joined for e in finding.fix.edits)  # type: ignore[union-attr]
        pins = " It pins the evaluation loaders too." if any(finding.fix.edits for finding, _ in joined) else ""  # type: ignore[union-attr]
        merged = dataclasses.replace(
            host,
            message=f"{host.message}; so does {others}, used for evaluation",
            fix=dataclasses.replace(host.fix, edits=edits, description=host.fix.description + pins),
            part_lines=host.part_lines + tuple(finding.line for finding, _ in joined),
        )
        gone = {id(finding) for finding, _ in joined}
        kept = [merged if f is host else f for f in self.findings if id(f) not in gone]
        self.findings = kept if any(f is merged for f in kept) else sorted([*kept, merged], key=lambda f: f.line)  # a host second on its line

    def _blocking(self, move: cst.Call, name: str, proven: bool) -> None:
        new = with_keyword(move, "non_blocking", _TRUE)
        if self._used_on_host(move):
            return  # the host reads the copy at once: an asynchronous copy would only be waited for
        if self._source_changed(move):
            return  # the host batch is changed in place while the copy may still be reading it
        if not proven or self._rewrapped(move):
            return  # as for an unpinned loader: `non_blocking` is advised only where `.to` is proven a tensor's
        edits = (add_keyword(self.facts, move, "non_blocking", "True"),)
        self.report(
            move,
            f"`{self.facts.code(move)}` copies a pinned batch of `{name}` synchronously: the host waits "
            "for the transfer instead of preparing the next step; `non_blocking=True` overlaps it",
            fix=Fix(description=f"copy asynchronously: `{self.facts.code(new)}`",
                    edits=edits, suggestion=self.facts.code(new)),
            severity=Severity.LOW,
        )

    def _used_on_host(self, move: cst.Call) -> bool:
        """`x.to(device).cpu()`, `.item()`, `.numpy()`, `.tolist()`: the copy's result is read on the host at once."""
        node: cst.CSTNode = move
        parent = self.facts.parent(node)
        while isinstance(parent, cst.Attribute) and parent.value is node:  # `x.to(d).norm().item()`
            if parent.attr.value in ("cpu", "item", "numpy", "tolist"):
                return True
            call = self.facts.parent(parent)
            if not isinstance(call, cst.Call):
                return False
            node, parent = call, self.facts.parent(call)
        return False

    def _source_changed(self, move: cst.Call) -> bool:
        """`xd = x.to(device)` then `x.zero_()` in the loop: a non-blocking copy from pinned memory
        returns before it has read `x`, so a later in-place change of the host batch would race
        with it (the copy may see the new values; only a GPU run shows it). The host batch is
        changed through any name that shares it: the loop's batch names and the names bound to
        parts of them (`frames = batch[0]`, then `frames.mul_(255)`), in place or by a function
        of the program that changes its parameter (`winsorize_(xb)`) (red team 31b). A name rebound to a device copy (`x = x.to(device)`, `batch = {k: v.to(device) ...}`)
        names the device tensors from there on."""
        func = move.func
        source = root_name(func.value) if isinstance(func, cst.Attribute) else None
        if source is None:
            return True
        loops = self.facts.enclosing_loops(move)
        if not loops or not isinstance(loops[0].node, cst.For):
            scope = loops[0].node if loops else self.facts.module
            return any(source in set(mutated_names(n)) for n in self.facts.walk(scope))
        loop = loops[0]
        host = (_host_names(self.facts, loop) | {source}) - _rebound_to_device_copies(self.facts, loop)
        return bool(host & _changed_in_loop(self.facts, loop))

    def _rewrapped(self, move: cst.Call) -> bool:
        """The name the move copies is rebound in its loop to something not proved a tensor of the
        batch (`batch = Batch(*batch)`, `inputs = Masked(inputs, lens)`: a program's record with its
        own `to(device)`, which may take no `non_blocking`): the loader's batches being tensors says
        nothing of it (red team 31b)."""
        moved = _moved(self.facts, move)
        name = _root(moved)
        loops = self.facts.enclosing_loops(move)
        if name is None or not loops:
            return name is None
        for node in self.facts.walk(loops[0].node.body, into_scopes=False):
            if not isinstance(node, cst.Assign) or not any(name in bound_names(t.target) for t in node.targets):
                continue
            values = [el.value for el in node.value.elements] if isinstance(node.value, cst.Tuple) else [node.value]
            if not all(_tensor_valued(self.facts, v) for v in values):
                return True
        return False

    # --- facts ---------------------------------------------------------------------------

    def _batch_moves(self, loop: Loop, zipped: int | None = None, batch: set[str] | None = None) -> list[cst.Call]:
        """`.to(device)` / `.cuda()` calls on the loop's batches (or names unpacked from them); for a
        loop over `zip(...)`, on the batches of its argument `zipped` only; for a loop drawing them
        with `next(...)`, on the names given (`batch`)."""
        assert isinstance(loop.node, cst.For)
        facts = loop.facts
        if batch is not None:
            batch = set(batch)
        elif zipped is None:
            batch = set(bound_names(loop.node.target))
        else:
            batch = _zipped_batch(loop.node, zipped)
        if isinstance(loop.node.iter, cst.Call) and isinstance(loop.node.iter.func, cst.Name) and loop.node.iter.func.value == "enumerate":
            target = loop.node.target
            if isinstance(target, cst.Tuple) and target.elements and isinstance(target.elements[0].value, cst.Name):
                batch.discard(target.elements[0].value.value)  # the step counter
        moves: list[cst.Call] = []
        for n in facts.walk(loop.node.body, into_scopes=False):
            if isinstance(n, cst.Assign) and facts.names_read(n.value) & batch and _part_of(facts, n.value):
                for target in n.targets:  # `x, y = batch`
                    batch |= set(bound_names(target.target))
            if isinstance(n, cst.Call) and is_device_move(facts, n) and _root(_moved(facts, n)) in batch:
                moves.append(n)
            elif isinstance(n, cst.Call) and _copied_into_device_buffer(facts, n, batch):
                moves.append(n)
            elif isinstance(n, cst.Call) and self._moves_in_helper(facts, n, batch):
                moves.append(n)
            elif isinstance(n, cst.Call) and _mapped_move(facts, n, batch):
                moves.append(n)
            elif isinstance(n, _COMPREHENSIONS):
                moves += [m for m in _moves_of_entries(facts, n, batch) if m not in moves]
        return moves

    def _moves_in_helper(self, facts: Facts, call: cst.Call, batch: set[str]) -> bool:
        """`to_cuda(x)`, `move_to_device(batch, device)`: a function of this file, an earlier cell
        or a local module that copies the batch it is given to the device (the parameter itself,
        or each value of it in a comprehension: `{k: v.to(device) for k, v in batch.items()}`)."""
        if not isinstance(call.func, cst.Name) or any(a.star for a in call.args):
            return False
        func = facts._function_at(call.func)
        if func is None:
            return False
        params = positional_params(func)
        given = {params[i] for i, a in enumerate(call.args) if a.keyword is None and i < len(params)
                 and _root(a.value) in batch and not isinstance(a.value, cst.Call)}
        given |= {a.keyword.value for a in call.args if a.keyword is not None and _root(a.value) in batch}
        if not given:
            return False
        owner = facts.owner_of(func)
        for node in owner.walk(func.body, into_scopes=True):
            if isinstance(node, _COMPREHENSIONS) and _root(_entries_of(node.for_in.iter)) in given:
                given = given | set(bound_names(node.for_in.target))
        return any(isinstance(n, cst.Call) and is_device_move(owner, n) and _root(_moved(owner, n)) in given
                   for n in owner.walk(func.body))

_COMPREHENSIONS = (cst.ListComp, cst.DictComp, cst.GeneratorExp, cst.SetComp)


def _with_helper_copies(copies: list[tuple[Facts, cst.Call]]) -> list[tuple[Facts, cst.Call]]:
    """The batch copies, with the device copies inside each copying helper added (the fastai-style
    `to_device(batch, device)` whose `data.to(device, non_blocking=True)` asks for overlap: the
    helper call itself carries no `non_blocking`, the copy it makes does)."""
    found = list(copies)
    for facts, call in copies:
        if is_device_move(facts, call) or not isinstance(call.func, cst.Name):
            continue
        func = facts._function_at(call.func)
        if func is None:
            continue
        owner = facts.owner_of(func)
        params = {p.name.value for p in (*func.params.posonly_params, *func.params.params)}
        for node in owner.walk(func.body, into_scopes=True):
            if isinstance(node, _COMPREHENSIONS) and _root(_entries_of(node.for_in.iter)) in params:
                params |= set(bound_names(node.for_in.target))
        found += [(owner, n) for n in owner.walk(func.body) if isinstance(n, cst.Call)
                  and is_device_move(owner, n) and _root(_moved(owner, n)) in params]
    return found


def _host_names(facts: Facts, loop: Loop) -> set[str]:
    """The names of a `for` loop's batch on the host: its target (without an `enumerate`
    counter) and the names bound to parts of it in the body (`x, y = batch`, `frames = batch[0]`),
    as `_batch_moves` follows them."""
    assert isinstance(loop.node, cst.For)
    names = set(bound_names(loop.node.target))
    it = loop.node.iter
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "enumerate" \
            and isinstance(loop.node.target, cst.Tuple) and loop.node.target.elements \
            and isinstance(loop.node.target.elements[0].value, cst.Name):
        names.discard(loop.node.target.elements[0].value.value)
    for n in facts.walk(loop.node.body, into_scopes=False):
        if isinstance(n, cst.Assign) and facts.names_read(n.value) & names \
                and (_part_of(facts, n.value) or _shares_memory(facts, n.value, names)):
            for target in n.targets:
                names |= set(bound_names(target.target))
    return names


# Calls whose result shares its argument's (or receiver's) memory: a change through it changes the batch.
_SHARING_METHODS = frozenset({"view", "reshape", "unsqueeze", "squeeze", "permute", "transpose", "flatten", "narrow", "t",
                              "numpy", "detach", "view_as", "expand", "select", "contiguous", "as_strided", "unflatten"})
_SHARING_FUNCTIONS = frozenset({"numpy.asarray", "torch.from_numpy", "torch.as_tensor", "torch.utils.dlpack.from_dlpack"})


def _shares_memory(facts: Facts, value: cst.BaseExpression, names: set[str]) -> bool:
    """`xb.numpy()`, `xb.view(-1)`, `np.asarray(batch[0])`: a view of the host batch (probe rt31bp:
    `img = xb.numpy(); img *= 255` writes the pinned batch)."""
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Attribute) and value.func.attr.value in _SHARING_METHODS:
        return _root(value.func.value) in names or _shares_memory(facts, value.func.value, names)
    return (facts.qualified_name(value.func) or "") in _SHARING_FUNCTIONS and bool(value.args) \
        and _root(value.args[0].value) in names


def _changed_in_loop(facts: Facts, loop: Loop) -> set[str]:
    """Names the loop body changes in place: by their own spelling (`x.mul_(...)`, `x[i] = v`,
    `x += v`, `out=x`), or handed to a function of the program that changes its parameters."""
    changed: set[str] = set()
    for node in facts.walk(loop.node.body):
        changed.update(mutated_names(node))
        if isinstance(node, cst.Call) and any(facts.owner_of(f)._changes_parameters(f) for f in facts._callees(node)
                                              if isinstance(f, cst.FunctionDef)):
            changed.update(r for a in node.args if not isinstance(a.value, cst.Call) and (r := root_name(a.value)) is not None)
    return changed


def _rebound_to_device_copies(facts: Facts, loop: Loop) -> set[str]:
    """Names every binding of which in the loop body makes a device copy (`x = x.to(device)`,
    `x, y = x.cuda(), y.cuda()`, `batch = {k: v.to(device) for k, v in batch.items()}`): from there
    on they name device tensors, which a later in-place change does not race with."""
    bindings: dict[str, list[bool]] = {}
    for n in facts.walk(loop.node.body, into_scopes=False):
        if not isinstance(n, cst.Assign):
            continue
        targets = [t.target for t in n.targets]
        pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = []
        for target in targets:
            if isinstance(target, (cst.Tuple, cst.List)) and isinstance(n.value, (cst.Tuple, cst.List)) \
                    and len(target.elements) == len(n.value.elements):
                pairs += [(t.value, v.value) for t, v in zip(target.elements, n.value.elements)]
            else:
                pairs.append((target, n.value))
        for target, value in pairs:
            copies = any(isinstance(c, cst.Call) and is_device_move(facts, c) for c in facts.walk(value))
            for name in bound_names(target):
                bindings.setdefault(name, []).append(copies)
    return {name for name, copies in bindings.items() if all(copies)}


def _tensor_valued(facts: Facts, value: cst.BaseExpression) -> bool:
    """`value` is (a part of) the batch or a tensor made from it: a name, a subscript or an
    attribute of one (`_part_of`), a device copy, a torch function's result, a tensor method's."""
    if _part_of(facts, value) or facts.kind(value) is Kind.TENSOR:
        return True
    if isinstance(value, cst.BinaryOperation):  # `x.float() / 255`
        return _tensor_valued(facts, value.left) or _tensor_valued(facts, value.right)
    if not isinstance(value, cst.Call):
        return False
    if is_device_move(facts, value) and _tensor_valued(facts, _moved(facts, value)):
        return True
    qualified = facts.qualified_name(value.func) or ""
    if qualified.startswith("torch.") and not qualified.startswith(("torch.utils.", "torch.nn.")):
        return True
    return isinstance(value.func, cst.Attribute) and value.func.attr.value in TENSOR_METHODS \
        and _tensor_valued(facts, value.func.value)


def _mapped_move(facts: Facts, call: cst.Call, batch: set[str]) -> bool:
    """`map(lambda x: x.to(device), batch)` (attention-is-all-you-need's `train_epoch`): each part
    of the batch moved by the lambda, as in `[x.to(device) for x in batch]`. The `map` call is the
    move reported; the copy inside the lambda is left as it is (no `non_blocking` edit there)."""
    if (facts.qualified_name(call.func) or "") != "builtins.map" or len(call.args) != 2 \
            or any(a.keyword is not None or a.star for a in call.args):
        return False
    func, parts = call.args[0].value, call.args[1].value
    if not isinstance(func, cst.Lambda) or len(func.params.params) != 1 or _root(parts) not in batch:
        return False
    param = func.params.params[0].name.value
    return any(isinstance(n, cst.Call) and is_device_move(facts, n) and _root(_moved(facts, n)) == param
               for n in facts.walk(func.body))


def _copied_into_device_buffer(facts: Facts, call: cst.Call, batch: set[str]) -> bool:
    """`input_A.copy_(batch['A'])` (CycleGAN), `im_data.data.resize_(data[0].size()).copy_(data[0])`
    (faster-rcnn.pytorch): a batch copied into a preallocated buffer that the program keeps on the
    GPU, a host-to-device copy like `.to(device)`."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "copy_" and call.args
            and call.args[0].keyword is None and _root(call.args[0].value) in batch):
        return False
    buffer = _buffer_name(func.value)
    return buffer is not None and _kept_on_device(facts, buffer)


def _buffer_name(expr: cst.BaseExpression) -> cst.Name | None:
    """`im_data` for `im_data`, `im_data.data` or `im_data.data.resize_(shape)`: views and in-place
    resizes that write into the buffer's own storage."""
    while True:
        if isinstance(expr, cst.Attribute) and expr.attr.value == "data":
            expr = expr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) \
                and expr.func.attr.value in ("resize_", "resize_as_"):
            expr = expr.func.value
        else:
            return expr if isinstance(expr, cst.Name) else None


def _kept_on_device(facts: Facts, name: cst.Name) -> bool:
    """Every binding of the buffer makes it on the GPU (a `torch.cuda.FloatTensor` type, a factory
    given an accelerator `device=`, a device move), re-wraps it (`Variable(im_data)`), or is the
    host placeholder (`torch.FloatTensor(1)`) that a later move of the name itself (`im_data =
    im_data.cuda()`) replaces, unconditionally or under the CUDA flag: in the run where a copy to
    the GPU costs anything, the buffer is on the GPU. A host buffer bound after the move (an
    `else:` branch) may be the one the loop writes."""
    sources = facts.value_sources(name)
    if not sources:
        return False
    self_moves = [v for v in sources if isinstance(v, cst.Call) and is_device_move(facts, v)
                  and _root(_moved(facts, v)) == name.value and _moved_when_cuda(facts, v)]
    placeholders = 0
    for value in sources:
        if isinstance(value, cst.Call) and _makes_on_device(facts, value):
            continue
        wrapped = value.args[0].value if isinstance(value, cst.Call) and value.args \
            and (facts.qualified_name(value.func) or "") in IDENTITY_WRAPPERS else None
        if isinstance(wrapped, cst.Name) and wrapped.value == name.value:
            continue
        if isinstance(wrapped, cst.Call) and _makes_on_device(facts, wrapped):  # `Variable(torch.FloatTensor(1).cuda())`
            continue
        if isinstance(value, cst.Call) and (facts.qualified_name(value.func) or "").startswith("torch.") \
                and any(facts.order(value) < facts.order(move) for move in self_moves):
            placeholders += 1  # made before a move replaces it (not an `else:` host buffer after it)
            continue
        return False
    return len(sources) > placeholders


def _moved_when_cuda(facts: Facts, move: cst.Call) -> bool:
    """The move runs whenever the program uses CUDA: at no `if` (but the script's `__main__`
    guard), or only under ones whose test is the CUDA flag (`if args.cuda:`)."""
    return all(cuda_condition(facts, anc.test) or _main_guard(anc.test)
               for anc in facts.ancestors(move) if isinstance(anc, cst.If))


def _joins(host: Fix, other: Fix) -> bool:
    """Whether `other`'s edits may ride in `host`'s fix without changing how either is applied:
    a hint (no edits) always; edits when `host` asks at least the review `other` asks."""
    if not other.edits:
        return True
    return bool(host.edits) and host.safe and other.safe and (not other.review or host.review == other.review)


def _main_guard(test: cst.BaseExpression) -> bool:
    """`__name__ == "__main__"`: true whenever the program runs as a script."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    sides = (test.left, test.comparisons[0].comparator)
    return any(isinstance(s, cst.Name) and s.value == "__name__" for s in sides) \
        and any(isinstance(s, cst.SimpleString) and s.evaluated_value == "__main__" for s in sides)


def _part_of(facts: Facts, value: cst.BaseExpression) -> bool:
    """`batch`, `batch[0]`, `batch.x`, `(batch[0], batch[1])`, `Variable(batch[0])`: the batch's own
    tensors (pinned with it; a legacy `Variable` shares the storage it is given), not a new host
    tensor computed from them (`0.9 * avg + 0.1 * x`), which pinning cannot help."""
    if isinstance(value, (cst.Tuple, cst.List)):
        return all(_part_of(facts, el.value) for el in value.elements)
    if isinstance(value, cst.Call) and value.args and value.args[0].keyword is None and not value.args[0].star \
            and (facts.qualified_name(value.func) or "") in IDENTITY_WRAPPERS:
        return _part_of(facts, value.args[0].value)
    return isinstance(value, (cst.Name, cst.Subscript, cst.Attribute))


def _is_copy_into(call: cst.Call) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == "copy_"


def _makes_on_device(facts: Facts, call: cst.Call) -> bool:
    device = keyword_arg(call, "device")
    return may_be_cuda_tensor_type(facts, call.func) or is_device_move(facts, call) \
        or device is not None and is_accelerator_device(facts, device.value)


def _zipped_batch(loop: cst.For, k: int) -> set[str]:
    """The names `for i, (data_x, data_u) in enumerate(zip(a, b))` binds to `zip`'s argument k."""
    target: cst.BaseExpression = loop.target
    it: cst.BaseExpression = loop.iter
    while isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("enumerate", "tqdm", "iter") \
            and it.args:
        if it.func.value == "enumerate":  # `tqdm(enumerate(zip(a, b)))`: each `enumerate` adds a counter
            if not (isinstance(target, cst.Tuple) and len(target.elements) == 2):
                return set()
            target = target.elements[1].value
        it = it.args[0].value
    if not (isinstance(target, (cst.Tuple, cst.List)) and k < len(target.elements)) \
            or any(isinstance(e, cst.StarredElement) for e in target.elements):
        return set()
    return set(bound_names(target.elements[k].value))


def _entries_of(it: cst.BaseExpression) -> cst.BaseExpression:
    """`batch` for `batch.items()` / `batch.values()`: what a comprehension takes its entries from."""
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in ("items", "values"):
        return it.func.value
    return it


def _moves_of_entries(facts: Facts, comp: cst.BaseComp, batch: set[str]) -> list[cst.Call]:
    """`{k: v.to(device) for k, v in batch.items()}` in the loop itself (the Hugging Face idiom):
    device moves of the entries of a batch, named by the comprehension's own target."""
    if _root(_entries_of(comp.for_in.iter)) not in batch:
        return []
    entries = set(bound_names(comp.for_in.target))
    return [n for n in facts.walk(comp) if isinstance(n, cst.Call) and is_device_move(facts, n)
            and _root(_moved(facts, n)) in entries]


# Tensor methods that return a view of the batch's storage: a pinned batch stays pinned through them.
_VIEWS = frozenset({"view", "reshape", "unsqueeze", "squeeze", "permute", "transpose", "flatten", "narrow", "t"})


def _moved(facts: Facts, move: cst.Call) -> cst.BaseExpression:
    """What a device move copies: `img` for `img.cuda()` and for `Variable(img).cuda()` (a legacy
    `Variable` is the tensor it is given, its storage, pinned or not, shared)."""
    receiver = move.func.value  # type: ignore[attr-defined]
    if isinstance(receiver, cst.Call) and receiver.args and receiver.args[0].keyword is None \
            and not receiver.args[0].star and (facts.qualified_name(receiver.func) or "") in IDENTITY_WRAPPERS:
        return receiver.args[0].value
    return receiver


# Readers that return a new host value from a file: what they give `__getitem__` is on the host,
# whatever else the dataset class places on a device (public34 p05: `signal, sr =
# torchaudio.load(path)`, then `signal.to(self.device)`, beside a mel transform moved there).
_FILE_READERS = frozenset({
    "torchaudio.load", "soundfile.read", "librosa.load", "numpy.load", "numpy.loadtxt", "PIL.Image.open",
    "cv2.imread", "imageio.imread", "imageio.v2.imread", "imageio.v3.imread", "scipy.io.wavfile.read",
    "torchvision.io.read_image", "torchvision.io.decode_image"})

_AS_TENSOR = frozenset({"torch.from_numpy", "torch.as_tensor", "torch.tensor"})


def _read_from_file(facts: Facts, move: cst.Call) -> bool:
    """The moved value is a name last bound, in the same function, from a file reader's call
    (or an element of one: `signal, sr = torchaudio.load(p)`)."""
    moved = _moved(facts, move)
    if not isinstance(moved, cst.Name):
        return False
    d = facts._reaching_def(moved)
    if d is None or d.function is not facts.enclosing_function(move):
        return False
    source = d.unpacked[0] if d.unpacked is not None else d.value if isinstance(d.value, cst.Call) else d.element
    if isinstance(source, cst.Call) and (facts.qualified_name(source.func) or "") in _AS_TENSOR and source.args:
        source = source.args[0].value  # `torch.from_numpy(np.load(p))`
    return isinstance(source, cst.Call) and (facts.qualified_name(source.func) or "") in _FILE_READERS


def _root(expr: cst.BaseExpression) -> str | None:
    """`x` of `x`, `x[0]`, `x.a`, and of views of it (`x.reshape(n, -1)`, `x.view(-1, 784)`)."""
    while True:
        if isinstance(expr, (cst.Subscript, cst.Attribute)):
            expr = expr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _VIEWS:
            expr = expr.func.value
        else:
            return expr.value if isinstance(expr, cst.Name) else None


def _is_false(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "False"


def _is_pinned(expr: cst.BaseExpression) -> bool:
    """`True` or `torch.cuda.is_available()` (and the like): pinned whenever a GPU is there."""
    if isinstance(expr, cst.Name):
        return expr.value == "True"
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "is_available"


def _live_tensor_batches(loader: object) -> bool:
    """A live loader with the default collate over a `TensorDataset`: its batches are tensors."""
    from torch.utils.data import TensorDataset
    from torch.utils.data._utils.collate import default_collate

    return isinstance(getattr(loader, "dataset", None), TensorDataset) and getattr(loader, "collate_fn", None) is default_collate


# DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, collate_fn, pin_memory, ...)
_PIN_POSITION = 7


def _pin_by_position(loader: cst.Call) -> tuple[bool, cst.BaseExpression | None]:
    """(present, value) of `pin_memory` given by position: the eighth argument, or maybe in a
    `*args` (value unknown); adding it as a keyword would then repeat it."""
    positional = [a for a in loader.args if a.keyword is None and a.star != "**"]
    if any(a.star == "*" for a in positional):
        return True, None
    if len(positional) > _PIN_POSITION:
        return True, positional[_PIN_POSITION].value
    return False, None


def _over_parameter(loop: Loop) -> bool:
    """`for x, y in loader:` over a parameter of the loop's function: the loader's name is the caller's."""
    func = loop.function
    name = iterated_name(loop)
    return isinstance(func, cst.FunctionDef) and name is not None \
        and name in named_params(func.params)
