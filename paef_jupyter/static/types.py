"""The type oracle of the metadata module: what kind of value an expression holds.

Three sources, cheapest first: the cell's own assignments and imports (syntactic), the live
kernel namespace (exact, after earlier cells ran), and jedi on the source (torch's stubs).
jedi is slow cold (seconds) and ~10 ms warm per inference, so it is asked last, lazily,
and its answers are cached per position.
"""

from __future__ import annotations

import ast
import os
import threading
import types
from enum import Enum
from typing import Any, Iterable, Mapping

from .annotated import may_annotate as _may_annotate
from .names import dotted_name
from .parso_cache import make_safe


class Kind(str, Enum):
    TENSOR = "tensor"
    MODULE = "module"
    DATALOADER = "dataloader"
    DATASET = "dataset"
    OPTIMIZER = "optimizer"
    DICT_OF_LIST = "dict_of_list"
    DICT_OF_TENSOR = "dict_of_tensor"
    DICT = "dict"
    LIST = "list"
    NDARRAY = "ndarray"
    NUMBER = "number"
    FUNCTION = "function"
    MODULE_OBJ = "python_module"
    UNKNOWN = "unknown"


# torch.* callables that do not return a tensor.
_TORCH_NOT_TENSOR = {
    "torch.device", "torch.no_grad", "torch.inference_mode", "torch.enable_grad", "torch.manual_seed",
    "torch.set_grad_enabled", "torch.Size", "torch.set_num_threads", "torch.save", "torch.load",
    "torch.compile", "torch.get_default_dtype", "torch.is_tensor", "torch.numel", "torch.set_printoptions",
    "torch.Generator", "torch.autocast", "torch.jit.script", "torch.jit.trace", "torch.allclose",
    "torch.equal", "torch.use_deterministic_algorithms", "torch.is_grad_enabled",
}
# torch.nn callables that make a tensor, not a module (`self.gamma = nn.Parameter(...)`), sharing the memory of the
# tensor they wrap and making it a leaf an optimizer changes in place.
PARAMETER_WRAPPERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer", "torch.nn.parameter.Buffer"})
_TENSOR_METHODS_NOT_TENSOR = {
    "item": Kind.NUMBER, "tolist": Kind.LIST, "numpy": Kind.NDARRAY, "size": Kind.UNKNOWN,
    "dim": Kind.NUMBER, "numel": Kind.NUMBER, "element_size": Kind.NUMBER, "backward": Kind.UNKNOWN,
    "data_ptr": Kind.NUMBER, "is_contiguous": Kind.UNKNOWN, "get_device": Kind.NUMBER,
    "register_hook": Kind.UNKNOWN, "__len__": Kind.NUMBER, "stride": Kind.UNKNOWN,
    # metadata, read without touching the data (no device copy): counts and flags
    "_nnz": Kind.NUMBER, "nelement": Kind.NUMBER, "ndimension": Kind.NUMBER, "sparse_dim": Kind.NUMBER,
    "dense_dim": Kind.NUMBER, "storage_offset": Kind.NUMBER, "is_floating_point": Kind.UNKNOWN,
    "is_complex": Kind.UNKNOWN, "is_signed": Kind.UNKNOWN, "is_pinned": Kind.UNKNOWN, "is_shared": Kind.UNKNOWN,
    "is_coalesced": Kind.UNKNOWN, "is_inference": Kind.UNKNOWN, "has_names": Kind.UNKNOWN,
}
_NDARRAY_METHODS = {"tolist": Kind.LIST, "item": Kind.NUMBER}
_NUMBER_BUILTINS = {"len", "int", "float", "sum", "max", "min", "abs", "round", "bool"}


def kind_of_value(value: Any) -> Kind:
    """Exact kind of a live object (the namespace after earlier cells ran)."""
    cls = type(value)
    names = {f"{c.__module__}.{c.__qualname__}" for c in getattr(cls, "__mro__", ())}
    if "torch.Tensor" in names:
        return Kind.TENSOR
    if "torch.nn.modules.module.Module" in names:
        return Kind.MODULE
    if "torch.utils.data.dataloader.DataLoader" in names:
        return Kind.DATALOADER
    if "torch.utils.data.dataset.Dataset" in names:
        return Kind.DATASET
    if "torch.optim.optimizer.Optimizer" in names:
        return Kind.OPTIMIZER
    if "numpy.ndarray" in names:
        return Kind.NDARRAY
    if isinstance(value, bool) or isinstance(value, (int, float)):
        return Kind.NUMBER
    if isinstance(value, dict):
        values = list(value.values())[:64]
        if values and all(isinstance(v, list) for v in values):
            return Kind.DICT_OF_LIST
        if values and all(kind_of_value(v) is Kind.TENSOR for v in values):
            return Kind.DICT_OF_TENSOR
        return Kind.DICT
    if isinstance(value, list):
        return Kind.LIST
    if isinstance(value, types.ModuleType):
        return Kind.MODULE_OBJ
    if callable(value) and isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        return Kind.FUNCTION
    return Kind.UNKNOWN


def kind_of_qualified_call(name: str) -> Kind:
    """Kind returned by calling the dotted name `name` (imports resolved)."""
    if name in _TORCH_NOT_TENSOR or name.startswith(("torch.cuda.", "torch.backends.", "torch.distributed.")):
        return Kind.UNKNOWN
    if name.startswith("torch.utils.data."):
        last = name.rsplit(".", 1)[-1]
        if last == "DataLoader":
            return Kind.DATALOADER
        if "Dataset" in last:
            return Kind.DATASET
        return Kind.UNKNOWN
    if name.startswith("torch.optim."):
        return Kind.OPTIMIZER if name.rsplit(".", 1)[-1][:1].isupper() else Kind.UNKNOWN
    if name.startswith("torch.nn.functional.") or name.startswith("torch.special.") or name.startswith("torch.linalg.") or name.startswith("torch.fft."):
        return Kind.TENSOR
    if name in PARAMETER_WRAPPERS:
        return Kind.TENSOR
    if name.startswith("torch.nn."):
        return Kind.MODULE if name.rsplit(".", 1)[-1][:1].isupper() else Kind.UNKNOWN
    if name.startswith("torch.") and name.count(".") == 1:
        return Kind.TENSOR
    if name.startswith("numpy."):
        return Kind.NDARRAY
    if name in ("builtins.list", "builtins.sorted"):  # `sorted` always returns a new list
        return Kind.LIST
    if name == "builtins.dict":
        return Kind.DICT
    if name.startswith("builtins.") and name.split(".", 1)[1] in _NUMBER_BUILTINS:
        return Kind.NUMBER
    return Kind.UNKNOWN


# Methods only a tensor has (no NumPy array, pandas object, list or module spells them), whose
# result is tensors: `decoder_output.data.topk(1)` on the output of a model whose class the
# analysis cannot read still makes tensors.
_TENSOR_ONLY_METHODS = frozenset({"topk", "kthvalue"})


def kind_of_method(receiver: Kind, method: str) -> Kind:
    if receiver is Kind.UNKNOWN and method in _TENSOR_ONLY_METHODS:
        return Kind.TENSOR
    if receiver is Kind.TENSOR:
        return _TENSOR_METHODS_NOT_TENSOR.get(method, Kind.TENSOR)
    if receiver is Kind.NDARRAY:
        return _NDARRAY_METHODS.get(method, Kind.NDARRAY)
    if receiver is Kind.MODULE and method in {"forward", "__call__"}:
        return Kind.TENSOR
    if receiver is Kind.MODULE and method in {"to", "cuda", "cpu", "train", "eval", "float", "half"}:
        return Kind.MODULE
    return Kind.UNKNOWN


class JediOracle:
    """jedi over (prelude + source). The prelude declares the live namespace's names."""

    _lock = threading.Lock()
    _warm = False
    # By default jedi inspects compiled modules (torch._C) in a subprocess of its own, which
    # imports them again: seconds on the first inference, beside the user's work. A process
    # that has already imported what it analyses (a kernel: `%load_ext` sets this) lets jedi
    # inspect them in place.
    in_process = False
    _here: Any = None
    # A kernel's first cell does not wait for jedi's cold start (seconds, warmed between cells):
    # while this is set and jedi is not warm, questions go unanswered, counted in `unanswered`.
    skip_cold = False
    unanswered = 0
    # Answers shared across analyses, keyed by the whole source jedi reads and the position:
    # for a process that analyses the same unchanging sources again and again (the test suite
    # reads each rule fixture in four ways, a scorer rewrites and re-checks every program).
    # Off by default: a kernel's local modules can change on disk between two analyses of one
    # cell, and jedi reads them. `share_answers()` turns it on.
    _shared: dict[tuple[bool, str, str, int, int], str | None] | None = None

    @classmethod
    def share_answers(cls, known: Iterable[tuple[tuple[bool, str, str, int, int], str | None]] = ()) -> dict:
        """Turn sharing on, adding answers `known` elsewhere (another process of the suite);
        returns the shared answers."""
        if cls._shared is None:
            cls._shared = {}
        cls._shared.update(known)
        return cls._shared

    @classmethod
    def _environment(cls) -> Any:
        if not cls.in_process:
            return None  # jedi's default: the running interpreter, in a subprocess
        if cls._here is None:
            from .jedi_in_process import kernel_environment

            cls._here = kernel_environment()
        return cls._here

    def __init__(self, source: str, namespace: Mapping[str, Any] | None = None, earlier: str = "") -> None:
        """`earlier`: lines read before the source and the namespace's prelude (the imports of a
        notebook's earlier cells, whole lines ending in a newline); answers stay at the source's lines."""
        self._prelude = earlier + _prelude(namespace or {})
        self._offset = self._prelude.count("\n")
        self._source = self._prelude + without_vague_annotations(source)
        self._script: Any = None
        self._cache: dict[tuple[int, int], str | None] = {}

    def type_name(self, line: int, col: int) -> str | None:
        """Full name of the inferred type at a 1-based line / 0-based column, or None."""
        key = (line, col)
        if key not in self._cache:
            self._cache[key] = self._infer(line + self._offset, col)
        return self._cache[key]

    def _infer(self, line: int, col: int) -> str | None:
        # jedi's caches are global and not thread-safe: a warm-up in progress (`warm`, in a
        # thread) finishes first. An analysis that never asks jedi never waits for it.
        if JediOracle.skip_cold and not JediOracle._warm:
            JediOracle.unanswered += 1
            return None
        # jedi resolves the source's imports from the working directory too
        shared, key = JediOracle._shared, (JediOracle.in_process, os.getcwd(), self._source, line, col)
        if shared is not None and key in shared:
            return shared[key]
        names = self._names(line, col)
        if names is None:
            return None
        answer = _one_kind(names)
        if shared is not None:
            shared[key] = answer
        return answer

    def _names(self, line: int, col: int, retry: bool = True) -> list[str] | None:
        try:
            with JediOracle._lock:
                if self._script is None:
                    self._script = _own_script(self._source, self._environment())
                return [n.full_name for n in self._script.infer(line, col) if n.full_name]
        except Exception as error:  # jedi has many internal failure modes; inference is best effort
            # jedi's compiled-module subprocess can die under us (killed, out of memory): the
            # Script holding it then fails every question. jedi starts a new one for a new Script.
            if retry and type(error).__name__ == "InternalError" and "subprocess" in str(error):
                self._script = None
                return self._names(line, col, retry=False)
            return None

    @classmethod
    def warm(cls) -> None:
        """Pay jedi's cold start (torch stubs) once, e.g. in a background thread."""
        with cls._lock:
            if cls._warm:
                return
            try:
                import jedi

                make_safe()
                jedi.Script("import torch\nx = torch.zeros(1)\nx", environment=cls._environment()).infer(3, 0)
            except Exception:
                pass
            cls._warm = True


_VAGUE = frozenset({"object", "Any", "typing.Any"})


def without_vague_annotations(source: str) -> str:
    """`source` with each `x: object = v` / `x: Any = v` read by jedi as `x = v`. jedi types a
    name from its annotation, not its value: `data: Any = [(x, y), ...]` hides that the loop
    over `data` yields tensors. The annotation is blanked with spaces, so every position jedi is
    asked about stays where it was; a precise annotation is kept (it is better than the value)."""
    if not _may_annotate(source):
        return source
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    lines = source.split("\n")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.AnnAssign) and node.value is not None
                and ast.unparse(node.annotation) in _VAGUE):
            continue
        first, last = node.target.end_lineno, node.annotation.end_lineno
        if first != last or first is None:
            continue
        raw = lines[first - 1].encode()
        start, end = node.target.end_col_offset or 0, node.annotation.end_col_offset or 0
        lines[first - 1] = (raw[:start] + b" " * (end - start) + raw[end:]).decode()
    return "\n".join(lines)


def _one_kind(names: list[str]) -> str | None:
    """`v` of `{"loss": loss, "step": 3}.items()` is an int or a tensor: a union of kinds is
    no one kind (an optional value, `None` or a tensor, is still a tensor)."""
    kinds = {kind_of_jedi_type(n) for n in names if n != "builtins.NoneType"}
    return next((n for n in names if n != "builtins.NoneType"), names[0] if names else None) if len(kinds) <= 1 else None


def _own_script(source: str, environment: Any) -> Any:
    """A `jedi.Script` whose parse tree no later Script can touch. Scripts without a path all
    share parso's diff-parser cache entry (key `None`): the next one re-parses by reusing the
    previous tree's nodes, so a unit asked again after another unit (a helper module, another
    cell) got types for the wrong places (an `enumerate` counter read as a tensor). A full parse,
    kept out of that cache, costs a few ms per unit. Called under `JediOracle._lock`."""
    import jedi

    make_safe()  # the parse cache on disk is shared with other processes
    diff = jedi.settings.fast_parser
    jedi.settings.fast_parser = False
    try:
        return jedi.Script(source, environment=environment)
    finally:
        jedi.settings.fast_parser = diff


def kind_of_jedi_type(full_name: str | None) -> Kind:
    if not full_name:
        return Kind.UNKNOWN
    if full_name in {"torch.Tensor", "torch._tensor.Tensor", "torch._C.TensorBase", "torch._C._TensorBase"}:
        return Kind.TENSOR
    if full_name.startswith("torch.nn.modules."):
        return Kind.MODULE
    if full_name.startswith("torch.utils.data.dataloader"):
        return Kind.DATALOADER
    if full_name.startswith("torch.optim."):
        return Kind.OPTIMIZER
    if full_name.startswith("numpy") and full_name.endswith("ndarray"):
        return Kind.NDARRAY
    if full_name in {"builtins.int", "builtins.float", "builtins.bool"}:
        return Kind.NUMBER
    if full_name == "builtins.list":
        return Kind.LIST
    if full_name == "builtins.dict":
        return Kind.DICT
    return Kind.UNKNOWN


def _prelude(namespace: Mapping[str, Any]) -> str:
    """Declarations that let jedi see the namespace: imports and annotated names."""
    lines: list[str] = []
    for name, value in list(namespace.items())[:500]:
        if not name.isidentifier() or name.startswith("_"):
            continue
        if isinstance(value, types.ModuleType):
            mod = value.__name__
            lines.append(f"import {mod} as {name}" if mod != name else f"import {mod}")
            continue
        cls = type(value)
        module = getattr(cls, "__module__", "")
        if module.startswith(("torch", "numpy")):
            public = "torch.Tensor" if kind_of_value(value) is Kind.TENSOR else f"{module}.{cls.__qualname__}"
            root = public.split(".", 1)[0]
            lines.append(f"import {root}")
            lines.append(f"{name}: {public}")
    return "\n".join(lines) + ("\n" if lines else "")


__all__ = [
    "JediOracle",
    "Kind",
    "dotted_name",
    "kind_of_jedi_type",
    "kind_of_method",
    "kind_of_qualified_call",
    "kind_of_value",
]
