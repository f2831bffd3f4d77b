"""PyTorch Lightning's hooks: methods of a `LightningModule` (or `LightningDataModule`) that the
`Trainer` calls in a loop this program never writes (`training_step` once per batch; the loader
`train_dataloader` returns iterated every epoch)."""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ._support import method_class

_BASES = ("LightningModule", "LightningDataModule")
_PACKAGES = ("pytorch_lightning.", "lightning.")


def lightning_class(facts: Facts, cls: cst.ClassDef) -> bool:
    """`cls` derives directly from Lightning's `LightningModule` or `LightningDataModule`."""
    for base in cls.bases:
        qualified = facts.qualified_name(base.value) or ""
        if qualified.startswith(_PACKAGES) and qualified.endswith(_BASES):
            return True
    return False


def hook_of(facts: Facts, node: cst.CSTNode) -> str | None:
    """The name of the Lightning hook whose body holds `node` (not a function nested in it)."""
    method = facts.enclosing_function(node)
    cls = method_class(facts, node)
    if method is None or cls is None or not lightning_class(facts, cls):
        return None
    return method.name.value
