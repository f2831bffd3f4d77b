"""Which of PyTorch's layers with a grad-off fast path a unit uses, however it reaches the class.

In eval mode under `no_grad`, attention and transformer layers run PyTorch's fused fast path (a
`TransformerEncoder` given a padding mask returns zeros at the padded positions) and an LSTM
oneDNN's inference kernel: wrapping their forward in `no_grad` changes the numbers. Red team 21
found the class reached without a constructor call spelled `nn.X(...)`: imported from its
defining module (`torch.nn.modules.transformer`), subclassed in the program, or handed on as a
value (`functools.partial(nn.TransformerEncoderLayer, ...)`, a table of classes, an alias). So
every reference to the class counts, in every torch spelling of it, not only a call.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from ..facts import Facts

# The classes themselves, by their last name; `torch.nn.` plus any of torch's submodules.
_FAST_PATH_CLASSES = frozenset({
    "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
    "TransformerDecoder", "Transformer", "LSTM",
})


def fast_path_class(qualified: str) -> str | None:
    """`TransformerEncoderLayer` for `torch.nn.TransformerEncoderLayer`,
    `torch.nn.modules.transformer.TransformerEncoderLayer` or `torch.nn.modules.TransformerEncoderLayer`
    (None for any other name)."""
    head, _, last = qualified.rpartition(".")
    if last not in _FAST_PATH_CLASSES or not (head == "torch.nn" or head.startswith("torch.nn.modules")):
        return None
    return last


def _references(facts: Facts) -> Iterator[cst.BaseExpression]:
    """Every name or outermost dotted name of the unit (a call's callee, a base class, an argument,
    a value stored in a table)."""
    inner: set[int] = set()
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Attribute):
            if id(node) not in inner:
                yield node
            inner.update((id(node.value), id(node.attr)))
        elif isinstance(node, cst.Name) and id(node) not in inner:
            yield node


def fast_path_classes(facts: Facts) -> set[str]:
    """The fast-path classes this unit names anywhere, and those named by the units (earlier
    cells, local modules) whose classes it names, transitively: a class of one local module
    subclassing the layer, stacked by a class of another (red team 21)."""
    used: set[str] = set()
    seen: set[int] = {id(facts)}
    todo = [facts]
    while todo:
        unit = todo.pop()
        for ref in _references(unit):
            if (found := fast_path_class(unit.qualified_name(ref) or "")) is not None:
                used.add(found)
            elif (cls := unit.class_named(ref)) is not None and id(cls[0]) not in seen:
                seen.add(id(cls[0]))
                todo.append(cls[0])
    return used
