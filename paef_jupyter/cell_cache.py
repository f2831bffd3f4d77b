"""Re-running a cell unchanged should not pay its analysis again.

A notebook cell is re-run far more often than it is edited. Its loops depend on its text only;
its static analysis also reads the live namespace (exact kinds of names, devices, list and
dict contents, the code of functions it calls). So an analysis is reused only for the same
text, the same rules, and a namespace whose *fingerprint* is the same: for every name (bar
IPython's output history, unless the cell names it) its type and what the rules read of such
a value: strings, ints and flags by value; tensors and modules by device, dtype and mode;
functions by their code; containers by every item (equal neighbours folded), plain objects by
their attributes, a few levels down. A namespace too large to fingerprint quickly, or with
container contents out of that reach, is not cached.
"""

from __future__ import annotations

import keyword
import marshal
import re
import threading
import types
from collections import OrderedDict, deque
from collections.abc import Mapping as _MappingABC
from dataclasses import fields, is_dataclass, replace
from typing import Any, Callable, Collection, Hashable, Iterable, Mapping

from .model import CellRef, Report

CACHED_CELLS = 32
MAX_NODES = 4000  # values visited per fingerprint: past this, no cache (a huge namespace)
DEPTH = 5  # levels of items/attributes looked into below a name
ATTRIBUTES = 64  # attributes of a plain object: past this, no cache

# IPython's own bookkeeping: new values on every run; only a tensor among them is read, unless
# the cell names them.
_HISTORY = re.compile(r"_+|_i{1,3}|_i?\d+|_oh|_ih|_dh|In|Out|exit|quit|get_ipython")
_NAME = re.compile(r"[A-Za-z_]\w*")
_SCALARS = (str, bytes, int, bool, type(None), complex)


class _TooLarge(Exception):
    pass


def namespace_fingerprint(namespace: Mapping[str, Any] | None, text: str) -> Hashable | None:
    """What the analysis can read of `namespace`, as a hashable value; None if too large."""
    if not namespace:
        return ()
    named = {w for w in _NAME.findall(text) if not keyword.iskeyword(w)}
    budget = [MAX_NODES]
    out = []
    try:
        for name, value in list(namespace.items()):
            if name in named or not _HISTORY.fullmatch(name):
                out.append((name, _summary(value, DEPTH, budget)))
            else:  # only a live tensor's device is read of these (is the code written for a GPU?)
                state = _torch_state(value, type(value))
                if state is not None:
                    out.append((name, state))
    except (_TooLarge, RecursionError):
        return None
    return tuple(out)


def _summary(value: Any, depth: int, budget: list[int]) -> Hashable:
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLarge
    cls = type(value)
    if isinstance(value, _SCALARS):
        return (cls, value)
    if isinstance(value, float):
        return cls  # measurements, losses: never a rule's evidence
    if isinstance(value, types.ModuleType):
        return (cls, value.__name__)
    if isinstance(value, (types.FunctionType, types.MethodType)):
        func = getattr(value, "__func__", value)
        owner = getattr(value, "__self__", None)
        return (cls, _code(func.__code__), None if owner is None else _summary(owner, depth - 1, budget))
    if isinstance(value, type):
        return (type, value)
    torch_state = _torch_state(value, cls)
    if torch_state is not None:
        return (cls, torch_state)
    # By the value's type, as `isinstance(value, typing.Mapping)` decides (not `__class__`).
    if issubclass(cls, (_MappingABC, list, tuple, set, frozenset, deque)):
        if depth <= 0:
            raise _TooLarge  # contents a rule may read, out of reach
        # Every item (a rule may read a whole column), equal neighbours folded: a list that
        # grows by one more float each run keeps its fingerprint.
        if isinstance(value, (set, frozenset)):
            return (cls, frozenset(_summary(v, depth - 1, budget) for v in value))
        if cls in _SEQUENCES and _all_floats(value):
            # What the items' own summaries fold to (each is `float`), without visiting them
            # one by one: a column of 512 class weights was most of a namespace's fingerprint.
            budget[0] -= len(value)
            if budget[0] < 0:
                raise _TooLarge
            return (cls, (float,) if value else ())
        items = value.items() if issubclass(cls, _MappingABC) else value
        return (cls, _folded(_summary(v, depth - 1, budget) for v in items))
    attrs = getattr(value, "__dict__", None)
    if depth <= 0 or not isinstance(attrs, dict):
        return (cls,)
    if len(attrs) > ATTRIBUTES:
        raise _TooLarge
    return (cls, tuple((k, _summary(v, depth - 1, budget)) for k, v in list(attrs.items())))


_SEQUENCES = frozenset({list, tuple, deque})


def _all_floats(items: Iterable[Any]) -> bool:
    """Every item is exactly a `float` (whose summary is `float` alone, see `_summary`)."""
    return all(type(v) is float for v in items)


def _folded(summaries: Iterable[Hashable]) -> tuple[Hashable, ...]:
    out: list[Hashable] = []
    for summary in summaries:
        if not out or out[-1] != summary:
            out.append(summary)
    return tuple(out)


def _code(code: types.CodeType) -> Hashable:
    try:
        return marshal.dumps(code)
    except ValueError:  # a code object marshal cannot write
        raise _TooLarge from None


def _torch_state(value: Any, cls: type) -> Hashable | None:
    """Tensors and devices: what the rules read of them (never their data)."""
    module = getattr(cls, "__module__", "") or ""
    if not module.startswith("torch"):
        return None
    try:
        import torch
    except ImportError:
        return None
    if isinstance(value, torch.Tensor):
        return (str(value.device), value.dtype, value.layout, value.requires_grad, tuple(value.shape))
    if isinstance(value, (torch.device, torch.dtype)):
        return str(value)
    if isinstance(value, torch.nn.Module):  # its mode, its parameters' devices and dtypes, its parts
        return (value.training, frozenset((str(p.device), p.dtype) for p in value.parameters()),
                tuple(type(m) for m in value.modules()))
    device = getattr(value, "device", None)
    return None if device is None else ("device", str(device))


class _Cache:
    def __init__(self) -> None:
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def drop(self, which: Callable[[Any], bool]) -> None:
        with self._lock:
            for key in [k for k in self._items if which(k)]:
                del self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > CACHED_CELLS:
                self._items.popitem(last=False)


_loops = _Cache()
_reports = _Cache()


def cached_loop(text: str, ref: CellRef, choose: Callable[[], tuple[Any, dict]]) -> tuple[Any, dict]:
    """`choose()`'s profiling window (`window_loop.choose_loop`), remembered per text when the
    loop is the cell's own: then it depends on the text alone (a loop found through a function
    of the namespace is chosen again every run)."""
    found = _loops.get(text)
    if found is not None:
        old_ref, target = found
        return _with_ref(target, old_ref, ref), {}
    target, extra = choose()
    if target is not None and not extra and target.ref == ref:
        _loops.put(text, (ref, target))
    return target, extra


def cached_analysis(
    text: str,
    ref: CellRef,
    namespace: Mapping[str, Any] | None,
    rules: Collection[str] | None,
    analyse: Callable[[], Report],
) -> Report:
    """`analyse()`'s report for this cell, or the one an identical earlier run produced (its
    cell reference made this run's)."""
    fingerprint = namespace_fingerprint(namespace, text)
    if fingerprint is None:
        return analyse()
    key = (text, None if rules is None else frozenset(rules), fingerprint)
    try:
        hash(key)
    except TypeError:  # an unhashable scalar subclass somewhere: no cache
        return analyse()
    found = _reports.get(key)
    if found is not None:
        old_ref, report = found
        return _with_ref(report, old_ref, ref)
    report = analyse()
    if not report.errors:
        _reports.put(key, (ref, report))
    return report


def forget(text: str) -> None:
    """Drop what is remembered of `text`: an analysis made without all its facts (jedi still
    cold) must not stand for the next run's."""
    _loops.drop(lambda key: key == text)
    _reports.drop(lambda key: key[0] == text)


def _with_ref(value: Any, old: CellRef, new: CellRef) -> Any:
    """`value` with every reference to the cell `old` made `new` (frozen dataclasses, tuples)."""
    if isinstance(value, CellRef):
        return new if value == old else value
    if isinstance(value, tuple):
        updated = tuple(_with_ref(v, old, new) for v in value)
        return value if all(a is b for a, b in zip(updated, value)) else updated
    if is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in fields(value):
            if not f.init:
                continue
            current = getattr(value, f.name)
            updated = _with_ref(current, old, new)
            if updated is not current:
                changes[f.name] = updated
        return replace(value, **changes) if changes else value
    return value
