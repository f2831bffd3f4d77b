"""A training DataLoader of a DDP script without a `DistributedSampler`: every rank trains on all the data."""

from __future__ import annotations

import libcst as cst

from ...fix.edits import replace
from ...model import Fix, Severity
from ._ddp import SAMPLERS, is_ddp_script, mentions_rank
from ._support import LOADERS, add_keyword, consumer_loops, in_training_chain, iterated_name, keyword_arg, may_carry, torch_alias
from .base import Rule

_STREAMING = ("webdataset", "wds.", "torchdata", "streaming.", "litdata", "ffcv")
_MAP_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})


class DdpMissingSampler(Rule):
    id = "ddp-missing-sampler"
    title = "DDP training loader without DistributedSampler"
    severity = Severity.HIGH
    explanation = (
        "Under DistributedDataParallel each rank runs the same script: a DataLoader without a "
        "`DistributedSampler` hands every rank the whole dataset, so N ranks compute N copies of "
        "the same epoch (with `shuffle=False` the very same batches) and the all-reduce averages "
        "identical gradients. A `DistributedSampler` gives each rank its own 1/N of the data; the "
        "shuffling moves into the sampler (a loader with a sampler refuses `shuffle=True`)."
    )

    def visit_Call(self, node: cst.Call) -> None:
        facts = self.facts
        if (facts.qualified_name(node.func) or "") not in LOADERS or not is_ddp_script(facts):
            return
        if any(may_carry(facts, node, k) for k in ("sampler", "batch_sampler")):
            return  # a sampler given, or possibly given through `**kwargs`
        loops = consumer_loops(facts, node)
        if not any(in_training_chain(loop) for loop in loops):
            return  # an evaluation loader is often meant to see everything on every rank
        dataset_arg = _dataset_arg(node)
        if dataset_arg is None or dataset_arg.star:
            return
        dataset = dataset_arg.value
        value = facts.value_of(dataset) if isinstance(dataset, cst.Name) else dataset
        if any(mentions_rank(facts, e) for e in (dataset, value) if e is not None):
            return  # sharded by hand (`Subset(ds, range(rank, n, world))`)
        if self._iterable(value):
            return  # an IterableDataset takes no sampler: it must shard itself
        name = iterated_name(loops[0]) or "the loader"
        self.report(
            node,
            f"`{name}` has no `DistributedSampler` in a DDP script: every rank iterates the whole dataset, "
            "so each epoch is computed once per rank instead of once in total",
            fix=self._fix(node, dataset, value),
        )

    def _fix(self, loader: cst.Call, dataset: cst.BaseExpression, value: cst.BaseExpression | None) -> Fix:
        facts = self.facts
        shuffle = keyword_arg(loader, "shuffle")
        order = facts.code(shuffle.value) if shuffle is not None else "False"
        sampler = self._sampler_name()
        data = facts.code(dataset)
        call = f"{sampler or 'DistributedSampler'}({data}, shuffle={order})"
        suggestion = f"sampler={call}" + ("  # and drop `shuffle=` from the loader" if shuffle is not None else "")
        description = ("give each rank its own shard: a `DistributedSampler` (which takes over the loader's "
                       "`shuffle`), and `sampler.set_epoch(epoch)` at the start of each epoch")
        provable = (sampler is not None and isinstance(dataset, cst.Name) and self._map_style(value)
                    and not (shuffle is not None and shuffle.star))
        if not provable:
            return Fix(description=description + ". Not rewritten: " + (
                "`DistributedSampler` is not imported and `torch` is not" if sampler is None else
                "the dataset is not a name bound to a map-style dataset this analysis can see"),
                suggestion=suggestion, safe=False)
        edits = (replace(facts, shuffle, f"sampler={call}"),) if shuffle is not None else (
            add_keyword(facts, loader, "sampler", call),)
        return Fix(description=description, edits=edits, suggestion=suggestion, review=(
            "each rank then trains on 1/N of the data: an epoch has N times fewer steps and the global batch is "
            "N times larger, so learning rate and schedule may need retuning; with `shuffle=True` call "
            "`sampler.set_epoch(epoch)` each epoch (ddp-missing-set-epoch)"))

    def _sampler_name(self) -> str | None:
        for local, target in self.facts.aliases.items():
            if target in SAMPLERS:
                return local
        torch = torch_alias(self.facts)
        return f"{torch}.utils.data.distributed.DistributedSampler" if torch else None

    def _iterable(self, value: cst.BaseExpression | None) -> bool:
        """An IterableDataset: a class of this unit deriving from one, or a known streaming source."""
        cls = self._local_class(value)
        if cls is not None:
            return any("IterableDataset" in self.facts.code(b.value) for b in cls.bases)
        while isinstance(value, cst.Call):  # `load_dataset(..., streaming=True).with_format("torch")`
            qualified = self.facts.qualified_name(value.func) or self.facts.code(value.func)
            if qualified.startswith(_STREAMING) or qualified.endswith(("to_iterable_dataset", "split_dataset_by_node")):
                return True
            streaming = keyword_arg(value, "streaming")
            if streaming is not None and not (isinstance(streaming.value, cst.Name) and streaming.value.value == "False"):
                return True
            value = value.func.value if isinstance(value.func, cst.Attribute) else None
        return False

    def _map_style(self, value: cst.BaseExpression | None) -> bool:
        """A `TensorDataset`, a torchvision dataset, or a local `Dataset` subclass with `__len__`."""
        if not isinstance(value, cst.Call):
            return False
        qualified = self.facts.qualified_name(value.func) or ""
        if qualified in _MAP_DATASETS or qualified.startswith("torchvision.datasets."):
            return True
        cls = self._local_class(value)
        return (cls is not None and any(self.facts.code(b.value).split(".")[-1] == "Dataset" for b in cls.bases)
                and any(isinstance(s, cst.FunctionDef) and s.name.value == "__len__" for s in cls.body.body))

    def _local_class(self, value: cst.BaseExpression | None) -> cst.ClassDef | None:
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            return self.facts.classes.get(value.func.value)
        return None


def _dataset_arg(loader: cst.Call) -> cst.Arg | None:
    for arg in loader.args:
        if (arg.keyword is None) or arg.keyword.value == "dataset":
            return arg
    return None

