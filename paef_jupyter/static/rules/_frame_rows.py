"""A pandas row read per sample to build a tensor: `row = self.df.iloc[i]` in `__getitem__`, then
`torch.tensor(row[features].values)`. Each `.iloc` / `.loc` access builds a Series (tens of
microseconds), on every sample of every epoch, for numbers that one conversion of the columns
would hold. A row read only for a file path or a label string is not this: the file's decoding
dwarfs it."""

from __future__ import annotations

from typing import Callable, Iterator

import libcst as cst

from ..facts import Facts, Loop

_ROW_ACCESSORS = frozenset({"iloc", "loc", "iat", "at"})
# Reading and decoding a file: beside it, a row access is not the cost.
_FILE_READS = ("PIL.Image.open", "cv2.imread", "torchvision.io.", "builtins.open", "numpy.load", "torchaudio.load",
               "librosa.load", "soundfile.read", "imageio.", "skimage.io.imread", "torch.load", "pydicom.", "nibabel.load",
               "h5py.File", "PIL.Image.fromarray")
# What turns a row's values into tensor data.
_TO_TENSOR = frozenset({"torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor", "torch.FloatTensor",
                        "torch.LongTensor", "torch.DoubleTensor", "numpy.array", "numpy.asarray"})


def frame_row_reads(facts: Facts, loop_of: Callable[[cst.CSTNode], Loop | None]) -> Iterator[tuple[cst.Subscript, cst.Call, Loop]]:
    """(the row read, the conversion it feeds, the loop it runs in per iteration) for each
    `.iloc[...]` / `.loc[...]` read that runs once per sample or step and whose values a tensor
    constructor (or `np.array`) takes, directly or through a name bound once in the function."""
    seen: set[int] = set()
    for call in facts.calls_in(facts.module):
        if (facts.qualified_name(call.func) or "") not in _TO_TENSOR:
            continue
        loop = loop_of(call)
        if loop is None or _reads_files(facts, call):
            continue
        for read in _rows_read(facts, call):
            if id(read) not in seen:
                seen.add(id(read))
                yield read, call, loop


def _rows_read(facts: Facts, call: cst.Call) -> list[cst.Subscript]:
    found: list[cst.Subscript] = []
    func = facts.enclosing_function(call)
    for arg in call.args:
        for node in facts.walk(arg.value):
            if _row_access(node):
                found.append(node)  # type: ignore[arg-type]
            elif isinstance(node, cst.Name):
                defs = [d for d in facts._defs.get(node.value, ()) if d.function is func]
                if len(defs) == 1 and defs[0].value is not None:
                    found += [n for n in facts.walk(defs[0].value) if _row_access(n)]  # type: ignore[misc]
    return found


def _row_access(node: cst.CSTNode) -> bool:
    """`frame.iloc[...]`, `self.df.loc[...]`; not `self.loc[...]` (an attribute that happens to be
    called so)."""
    return isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) \
        and node.value.attr.value in _ROW_ACCESSORS \
        and not (isinstance(node.value.value, cst.Name) and node.value.value.value in ("self", "cls"))


def _reads_files(facts: Facts, call: cst.Call) -> bool:
    """The function (or loop body) around `call` also reads and decodes a file per sample."""
    scope = facts.enclosing_function(call)
    if scope is None:
        loops = facts.enclosing_loops(call)
        scope = loops[0].node if loops else None
    if scope is None:
        return False
    return any((q := facts.qualified_name(c.func) or "") and any(q == f or f.endswith(".") and q.startswith(f) for f in _FILE_READS)
               for c in facts.calls_in(scope))
