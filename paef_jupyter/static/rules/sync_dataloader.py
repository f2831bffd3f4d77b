"""A DataLoader that loads every batch in the training process, between steps."""

from __future__ import annotations

import inspect

import libcst as cst

from ...model import Fix, Severity
from ..dataset_placement import dataset_placement
from ..facts import Facts
from ..names import bound_names, dotted_name
from ..types import Kind, kind_of_value
from ._support import (
    LOADERS,
    iterated,
    consumer_loops,
    dataset_method,
    entries_written,
    in_training_chain,
    is_self_attr,
    iterated_name,
    keyword_arg,
    keyword_value,
    loader_dataset,
    loops_fed,
    method_class,
    unwrapped,
    with_keyword,
)
from ._lightning import hook_of
from .base import Rule



# torchvision datasets that open and decode one file per sample in `__getitem__`.
_FILE_FOLDERS = frozenset({"ImageFolder", "DatasetFolder"})

class SyncDataLoader(Rule):
    id = "sync-dataloader"
    title = "DataLoader without worker processes"
    severity = Severity.LOW
    explanation = (
        "With `num_workers=0` the training process itself runs `Dataset.__getitem__` for every "
        "sample and collates the batch, between two steps: the step (and on a GPU, the device) waits "
        "while Python decodes, augments and converts. Worker processes (`num_workers>0`, kept alive across epochs with "
        "`persistent_workers=True`) prepare the next batches while the current step runs. Static "
        "analysis only sees that per-sample Python work exists; the profiler says whether loading "
        "is on the critical path."
    )

    def visit_Call(self, node: cst.Call) -> None:
        if (self.facts.qualified_name(node.func) or "") not in LOADERS:
            return
        given, workers = keyword_value(self.facts, node, "num_workers")
        if given and not self._is_zero(workers):
            return  # workers set, or set by a value this analysis cannot prove to be 0
        loops = consumer_loops(self.facts, node) or loops_fed(self.facts, node)  # `train(model, train_loader, ...)`
        # an evaluation pass inside the training loop reads a small share of the batches: its
        # loader's workers are not worth a finding of their own
        loops = [loop for loop in loops if in_training_chain(loop) and loop.kind != "eval"]
        hook = None if loops else self._lightning_training_loader(node)
        if not loops and hook is None:
            return
        if dataset_placement(self.facts, node).on_device:
            return  # samples made on the device: a worker process cannot make them (CUDA in a forked worker fails)
        work = self._per_sample_work(node)
        if work is None:
            return
        if hook is not None:
            name = f"the loader `{hook}()` returns (the Lightning `Trainer` iterates it every training epoch)"
            self._report(node, name, work, self.facts.code(self._suggested(node)))
            return
        it = iterated(loops[0])
        if it is None and isinstance(loops[0].node, cst.For):
            it = unwrapped(loops[0].node.iter)  # `get_loader(lines)`, `Batches(DataLoader(...))`
        name = iterated_name(loops[0]) or (loops[0].facts.code(it) if it is not None else "the loader")
        self._report(node, f"`{name}`", work, self.facts.code(self._suggested(node)))

    def _suggested(self, node: cst.Call) -> cst.Call:
        suggested = with_keyword(node, "num_workers", cst.Integer("4"))
        if not keyword_value(self.facts, node, "persistent_workers")[0]:  # a `**dict` may set it: never repeat a keyword
            suggested = with_keyword(suggested, "persistent_workers", cst.Name("True"))
        return suggested

    def _lightning_training_loader(self, node: cst.Call) -> str | None:
        """`train_dataloader` when `node` is what that method of a `LightningModule` (or
        `LightningDataModule`) returns: the `Trainer` runs the training loop over it, a loop
        this program never writes. Only the training loader, returned directly or through a name
        bound once in the method."""
        if hook_of(self.facts, node) != "train_dataloader":
            return None
        method = self.facts.enclosing_function(node)
        assert method is not None
        returned = [r.value for r in self.facts.walk(method.body) if isinstance(r, cst.Return) and r.value is not None]
        if len(returned) != 1:
            return None
        value = returned[0]
        if isinstance(value, cst.Name) and len(self.facts.assigned_values(value.value)) == 1:
            value = self.facts.assigned_values(value.value)[0]
        return "train_dataloader" if value is node else None

    def _is_zero(self, expr: cst.BaseExpression | None) -> bool:
        """`0`, or a name bound once to `0` before the call."""
        if isinstance(expr, cst.Name):
            expr = self.facts.value_of(expr)
        return isinstance(expr, cst.Integer) and expr.value == "0"

    def visit_Module(self, node: cst.Module) -> None:
        """Loops over a DataLoader built in an earlier cell: its settings come from the live object."""
        for loop in self.facts.loops:
            name = iterated_name(loop)
            live = self.facts.namespace.get(name) if name is not None else None
            if live is None or kind_of_value(live) is not Kind.DATALOADER or getattr(live, "num_workers", 1) != 0:
                continue
            if not in_training_chain(loop) or loop.kind == "eval" or any(
                isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name) and n.target.value == name
                for n in self.facts.walk(self.facts.module)
            ):
                continue
            work = _live_per_sample_work(getattr(live, "dataset", None))
            if work is not None:
                self._report(loop.node.iter, f"`{name}`", work,  # type: ignore[union-attr]
                             f"{name} = DataLoader(..., num_workers=4, persistent_workers=True)  # in its own cell")

    def _report(self, node: cst.CSTNode, name: str, work: str, suggestion: str) -> None:
        self.report(
            node,
            f"{name} loads every batch in the training process ({work}) between steps: with "
            "`num_workers=0` each step waits for it (on a GPU, the device idles meanwhile); worker processes would prepare the next batches "
            "during the current step",
            fix=Fix(
                description=(
                    "use worker processes. Not rewritten automatically: each worker has its own copy "
                    "of the dataset and its own random state (random augmentations draw other numbers), "
                    "and under the `spawn`/`forkserver` start methods (macOS, Windows, Linux from "
                    "Python 3.14) a Dataset class defined in a notebook cell cannot be pickled into the "
                    "workers: move it to a module there. With `fork` (Linux up to Python 3.13) it works as is."
                ),
                suggestion=suggestion,
                safe=False,
            ),
        )

    def _per_sample_work(self, loader: cst.Call) -> str | None:
        """What `__getitem__` does per sample, if it does Python work; None if it only indexes
        data preloaded in `__init__` (`self.x[i]`, with cheap tensor views and casts)."""
        dataset = self._built_by(loader_dataset(self.facts, loader), loader)
        if not isinstance(dataset, cst.Call):
            return self._collate_work(loader)
        qualified = self.facts.qualified_name(dataset.func) or ""
        if qualified.rsplit(".", 1)[-1] in _FILE_FOLDERS and qualified.startswith("torchvision.datasets."):
            return "reading and decoding each image file"  # from disk per sample, with or without a transform
        if qualified.startswith("torchvision.datasets.") and keyword_arg(dataset, "transform") is not None:
            return "decoding and transforming each image"
        found = self.facts.class_named(dataset.func)  # this unit's class, an earlier cell's or a local module's
        if found is None:
            return None
        owner, cls = found
        if not any("Dataset" in (owner.qualified_name(b.value) or owner.code(b.value)) for b in cls.bases):
            return None
        getitem = dataset_method(cls, "__getitem__")
        if getitem is None:
            return None
        # an exception built on the error path (`raise ValueError(...)`) is no per-sample work
        calls = [c for c in owner.calls_in(getitem.body)
                 if not _indexing_only(c) and not _wraps_preloaded(owner, c, getitem)
                 and not any(isinstance(a, cst.Raise) for a in owner.ancestors(c))]
        loops = [n for n in owner.walk(getitem.body) if isinstance(n, (cst.For, cst.While, cst.ListComp, cst.GeneratorExp))]
        if not calls and not loops:
            return self._collate_work(loader)
        named = [dotted_name(c.func) for c in calls if dotted_name(c.func)]
        # name the call that does the work: a load or decode before a type check (`torch.is_tensor(idx)`)
        named.sort(key=lambda n: not any(w in n.lower() for w in ("load", "open", "read", "decode")))
        shown = f"calls `{named[0]}`" if named else "runs Python code"
        return f"`{cls.name.value}.__getitem__` {shown} and more, per sample"


    def _built_by(self, dataset: cst.BaseExpression | None, loader: cst.Call) -> cst.BaseExpression | None:
        """The call that built `dataset` when it is read from where one call put it: an entry of a
        dict comprehension bound once and never written (`image_datasets[x]` of `{x: Folder(x) for
        x in splits}`), or `self.<attr>` bound once in the loader's class (`self.train_set =
        Folder(...)` in `setup()`) and written nowhere else in the unit."""
        if isinstance(dataset, cst.Subscript) and isinstance(dataset.value, cst.Name):
            table = self.facts.value_of(dataset.value)
            if isinstance(table, cst.DictComp) and len(self.facts.assigned_values(dataset.value.value)) == 1 \
                    and not entries_written(self.facts, dataset.value.value):
                return table.value
        cls = method_class(self.facts, loader)
        if cls is not None and isinstance(dataset, cst.Attribute) and is_self_attr(dataset, dataset.attr.value):
            attr = dataset.attr.value
            bindings = [n for n in self.facts.walk(self.facts.module) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign))
                        and isinstance(n.target, cst.Attribute) and n.target.attr.value == attr]
            stmt = self.facts.parent(bindings[0]) if len(bindings) == 1 else None
            if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and is_self_attr(stmt.targets[0].target, attr) \
                    and method_class(self.facts, stmt) is cls:
                return stmt.value
        return dataset

    def _collate_work(self, loader: cst.Call) -> str | None:
        """`collate_fn=collate` whose loop over the batch calls a helper of this unit or NumPy per
        sample (`[log_mel(w) for w, _ in batch]`): feature extraction in the training process.
        Padding and `torch.tensor` of the batch's lists are not counted: they are the collate's job."""
        arg = keyword_arg(loader, "collate_fn")
        func = self.facts.functions.get(arg.value.value) if arg is not None and isinstance(arg.value, cst.Name) else None
        if func is None:
            return None
        for loop in self.facts.walk(func.body):
            if not isinstance(loop, (cst.For, cst.ListComp, cst.GeneratorExp)):
                continue
            for call in self.facts.calls_in(loop):
                q = self.facts.qualified_name(call.func) or ""
                if (isinstance(call.func, cst.Name) and call.func.value in self.facts.functions) or q.startswith("numpy."):
                    return f"`{func.name.value}` calls `{self.facts.code(call.func)}` for every sample of each batch"
        return None


def _wraps_preloaded(facts: Facts, call: cst.Call, getitem: cst.FunctionDef) -> bool:
    """`torch.from_numpy(img)` / `int(self.labels[i])` of a sample stored in `__init__`
    (`img, boxes = self.samples[i]`): a zero-copy wrap or a scalar cast, no per-sample work."""
    q = facts.qualified_name(call.func) or ""
    if q not in _WRAPS or len(call.args) != 1 or call.args[0].keyword is not None:
        return False
    return _preloaded(facts, call.args[0].value, getitem, 2)


_CHEAP_METHODS = frozenset({"float", "long", "int", "double", "half", "bool", "unsqueeze", "squeeze", "view",
                            "reshape", "flatten", "t", "contiguous", "clone", "detach", "size", "dim", "type"})


_WRAPS = frozenset({"torch.from_numpy", "torch.as_tensor", "builtins.int", "builtins.float", "builtins.bool"})


def _preloaded(facts: Facts, expr: cst.BaseExpression, getitem: cst.FunctionDef, depth: int) -> bool:
    """`self.x[i]` (any chain of indexing and attributes on `self`), or a local name that only
    such values bind in `__getitem__` (`img, boxes = self.samples[i]`)."""
    while isinstance(expr, (cst.Subscript, cst.Attribute)):
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return False
    if expr.value == "self":
        return True
    if depth == 0:
        return False
    values = [n.value for n in facts.walk(getitem.body) if isinstance(n, cst.Assign)
              and any(expr.value in bound_names(t.target) for t in n.targets)]
    rebound = any(isinstance(n, (cst.AugAssign, cst.For, cst.CompFor)) and expr.value in bound_names(n.target)
                  for n in facts.walk(getitem.body))
    return bool(values) and not rebound and all(
        isinstance(v, (cst.Subscript, cst.Attribute)) and _preloaded(facts, v, getitem, depth - 1) for v in values)


def _indexing_only(call: cst.Call) -> bool:
    """A view or cast of preloaded data (`self.x[i].float()`), or `len(...)`: no per-sample Python work."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value == "len"
    if not (isinstance(func, cst.Attribute) and func.attr.value in _CHEAP_METHODS):
        return False
    receiver: cst.BaseExpression = func.value
    while isinstance(receiver, (cst.Subscript, cst.Attribute, cst.Call)):
        if isinstance(receiver, cst.Call):
            if not _indexing_only(receiver):
                return False
            receiver = receiver.func
        else:
            receiver = receiver.value
    return isinstance(receiver, cst.Name) and receiver.value == "self"


def _live_per_sample_work(dataset: object) -> str | None:
    """A live dataset whose `__getitem__` is Python code outside torch (runs per sample)."""
    getitem = getattr(type(dataset), "__getitem__", None)
    if not inspect.isfunction(getitem) or getitem.__module__.startswith("torch."):
        return None
    return f"`{type(dataset).__name__}.__getitem__` is Python code, run per sample"
