"""How many iterations a loop will run, read from its header without running user code.

The window's size is a share of the loop (the overhead of profiling it scales with that
share), so the tracer asks, at the loop's first iteration, for the length of the header's
iterable: `range(n)`, a list/tensor/array/DataLoader name, `zip`/`enumerate` of those.
Only lengths of known sized types are read; anything else (a generator, a call) is unknown.
The same reading tells whether the header iterates a DataLoader with worker processes: its
time is then waiting for the workers, not preparing batches in the training process.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any, Callable, Mapping

_WRAPPERS = frozenset({"enumerate", "reversed", "sorted", "list", "tuple"})
_SIZED = (list, tuple, dict, str, range, set, frozenset)


def loop_length(iter_source: str, global_ns: Mapping[str, Any], local_ns: Mapping[str, Any]) -> int | None:
    if not iter_source:
        return None
    try:
        expr = ast.parse(iter_source.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None

    def lookup(name: str) -> Any:
        if name in local_ns:
            return local_ns[name]
        if name in global_ns:
            return global_ns[name]
        raise LookupError(name)

    try:
        return _length(expr, lookup)
    except Exception:  # noqa: BLE001 - a length we cannot read is simply unknown
        return None


def loader_workers(iter_source: str, global_ns: Mapping[str, Any], local_ns: Mapping[str, Any]) -> int | None:
    """The most worker processes of a DataLoader (or its iterator) the header's iterable names,
    reading names and attributes only (`tqdm(self.train_loader)`, `zip(a, b)`); None: none seen."""
    try:
        expr = ast.parse(iter_source.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    found: list[int] = []
    for node in ast.walk(expr):
        if not isinstance(node, (ast.Name, ast.Attribute)):
            continue
        try:
            obj = _read(node, global_ns, local_ns)
        except Exception:  # noqa: BLE001 - a value we cannot read (a property raising) is unseen
            continue
        workers = _workers_of(obj)
        if workers is not None:
            found.append(workers)
    return max(found) if found else None


def _read(node: ast.expr, global_ns: Mapping[str, Any], local_ns: Mapping[str, Any]) -> Any:
    """A name or a chain of attributes on one, read statically: no property or `__getattr__` runs."""
    if isinstance(node, ast.Name):
        if node.id in local_ns:
            return local_ns[node.id]
        return global_ns[node.id]
    if isinstance(node, ast.Attribute):
        return inspect.getattr_static(_read(node.value, global_ns, local_ns), node.attr)
    raise LookupError(ast.dump(node))


def _workers_of(obj: Any) -> int | None:
    names = {cls.__name__ for cls in type(obj).__mro__}
    if "DataLoader" in names:
        workers = inspect.getattr_static(obj, "num_workers", None)
    elif "_BaseDataLoaderIter" in names:
        workers = inspect.getattr_static(obj, "_num_workers", None)
    else:
        return None
    return workers if isinstance(workers, int) else None


def _length(expr: ast.expr, lookup: Callable[[str], Any]) -> int | None:
    if isinstance(expr, ast.Name):
        return _sized_length(lookup(expr.id))
    if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
        return len(expr.elts)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and not expr.keywords:
        name = expr.func.id
        if name == "range":
            args = [_int(a, lookup) for a in expr.args]
            return len(range(*args)) if args and None not in args else None
        if name in _WRAPPERS and len(expr.args) == 1:
            return _length(expr.args[0], lookup)
        if name == "zip" and expr.args:
            lengths = [_length(a, lookup) for a in expr.args]
            return min(lengths) if None not in lengths else None  # type: ignore[type-var]
    return None


def _int(expr: ast.expr, lookup: Callable[[str], Any]) -> int | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int):
        return expr.value
    if isinstance(expr, ast.Name):
        value = lookup(expr.id)
        return value if isinstance(value, int) else None
    if isinstance(expr, ast.Attribute):  # `range(args.epochs)`, `range(self.num_epochs)` (truth17)
        value = _attribute(expr, lookup)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _int(expr.operand, lookup)
        return -inner if inner is not None else None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" and len(expr.args) == 1:
        return _length(expr.args[0], lookup)
    return None


def _attribute(expr: ast.Attribute, lookup: Callable[[str], Any]) -> Any:
    """A chain of attributes on a name, read statically: no property or `__getattr__` runs."""
    base = lookup(expr.value.id) if isinstance(expr.value, ast.Name) else \
        _attribute(expr.value, lookup) if isinstance(expr.value, ast.Attribute) else None
    if base is None:
        return None
    value = inspect.getattr_static(base, expr.attr, None)
    return None if isinstance(value, (property, staticmethod, classmethod)) or callable(value) else value


def _sized_length(obj: Any) -> int | None:
    if isinstance(obj, _SIZED):
        return len(obj)
    shape = getattr(obj, "shape", None)  # torch.Tensor, numpy.ndarray
    if isinstance(shape, tuple) or type(shape).__name__ == "Size":
        return int(shape[0]) if len(shape) else None
    if type(obj).__name__ == "DataLoader":
        return len(obj)
    return None
