"""Which torch / NumPy calls surely return a *fresh* object: memory shared with none of their
arguments nor their receiver. Everything else from torch or NumPy *may share* (a view, or the
argument itself when nothing needs doing: `t.to(d)`, `np.asarray(a)`, `t.type_as(t)`).

The old facts listed the names known to share; a name missing from that deny-list made a wrong
proof (red team 24: 26 harmful rewrites). Here knowledge is only ever of freshness, and it comes
from a principled source, recorded in the committed table `_fresh_table.py`:

- torch: an ATen operator is fresh when none of its non-`out` overloads returns an alias
  annotation (`Tensor(a)`) or takes a mutable argument, and it has a real kernel (an op that is
  only `CompositeImplicitAutograd` may return its input whatever its schema says: `aten::dropout`
  with `train=False`, `aten::type_as` of the same dtype). A `torch.<name>` function or
  `Tensor.<name>` method is fresh when it is a C binding of such an op; Python-level functions
  (`torch.split`, `torch.broadcast_tensors`) and manual bindings without an op (`as_tensor`,
  `from_numpy`, `.numpy()`, `.float()`, `.cpu()`) are not.
- NumPy: a `np.ufunc` is fresh (without `out=`); other functions and `ndarray` methods only from
  the small, explained lists in `_numpy_fresh` below.

The table is generated with `python -m paef_jupyter.static.fresh_calls --regenerate` and a test
regenerates it from the installed torch and NumPy, so it cannot rot. Analysis never imports torch
or NumPy (cold start)."""

from __future__ import annotations

import sys
from pathlib import Path

from ._fresh_table import (FRESH_NDARRAY_METHODS, FRESH_NUMPY_FUNCTIONS, FRESH_TENSOR_METHODS, FRESH_TORCH_FUNCTIONS,
                           NDARRAY_METHODS, TENSOR_METHODS)

TABLE = Path(__file__).with_name("_fresh_table.py")

# Documented to copy always, although no single ATen op backs them.
_TORCH_COPIES = ("tensor",)  # "torch.tensor() always copies data" (torch docs)
# Tensor methods bound by hand (no ATen op) that return a Python value, never a tensor.
_TENSOR_PYTHON_VALUES = ("tolist", "data_ptr", "element_size", "nelement", "ndimension", "get_device", "is_contiguous",
                         "is_floating_point", "is_complex", "storage_offset", "dim", "numel", "size", "stride")


def fresh_call(qualified: str, no_out: bool = True) -> bool:
    """`qualified` (a torch/NumPy function) surely returns new memory; `no_out`: the call has no
    `out=` / `copy=False`. Unknown torch/NumPy names are not fresh."""
    if not no_out:
        return False
    if qualified.startswith("torch.Tensor."):
        return qualified[len("torch.Tensor."):] in FRESH_TENSOR_METHODS
    if qualified.startswith("numpy.ndarray."):
        return qualified[len("numpy.ndarray."):] in FRESH_NDARRAY_METHODS
    return qualified in FRESH_TORCH_FUNCTIONS or qualified in FRESH_NUMPY_FUNCTIONS


def library_call(qualified: str) -> bool:
    return qualified.startswith(("torch.", "numpy."))


def method_may_share(name: str, tensor: bool | None = None) -> bool:
    """`x.<name>(...)` may return `x` or a view of it. `tensor`: True for a tensor receiver, False
    for an array, None when unknown (then fresh only if fresh for both). A name that is neither a
    Tensor nor an ndarray method (a user class's, another library's) keeps the old answer: fresh
    unless it is one of the view-like names of the old list (see `facts.SHARING_METHODS`)."""
    in_tensor, in_array = name in TENSOR_METHODS, name in NDARRAY_METHODS
    if tensor is True and in_tensor:
        return name not in FRESH_TENSOR_METHODS
    if tensor is False and in_array:
        return name not in FRESH_NDARRAY_METHODS
    if in_tensor or in_array:
        return (in_tensor and name not in FRESH_TENSOR_METHODS) or (in_array and name not in FRESH_NDARRAY_METHODS)
    return False


# --- generation (imports torch and NumPy; never at analysis time) -------------------------------

def _fresh_ops() -> set[str]:
    """ATen op names all of whose dispatcher overloads (the ones Python bindings call; JIT-only
    overloads on ints or lists are not dispatched to) are fresh, `out=` overloads aside."""
    import torch

    by_op: dict[str, list[object]] = {}
    for schema in torch._C._jit_get_all_schemas():
        by_op.setdefault(schema.name, []).append(schema)
    fresh = set()
    for op, schemas in by_op.items():
        if not op.startswith("aten::") or op.endswith("_"):
            continue
        verdicts = [_overload_fresh(op, s) for s in schemas]
        if any(v is False for v in verdicts) or not any(v is True for v in verdicts):
            continue
        fresh.add(op[len("aten::"):])
    return fresh


def _overload_fresh(op: str, schema: object) -> bool | None:
    """True/False for a dispatched overload; None for an `out=` overload or one the dispatcher
    does not know."""
    import torch

    has = torch._C._dispatch_has_kernel_for_dispatch_key
    full = f"{op}.{schema.overload_name}" if schema.overload_name else op  # type: ignore[attr-defined]
    try:
        composite = has(full, "CompositeImplicitAutograd")
    except RuntimeError:
        return None
    writes = [a for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]  # type: ignore[attr-defined]
    aliased = any(r.alias_info is not None for r in schema.returns)  # type: ignore[attr-defined]
    if writes and all(a.kwarg_only for a in writes) and aliased:
        return None  # an `out=` overload: the call site's `out=` is checked instead
    if any("Dimname" in str(a.type) for a in schema.arguments):  # type: ignore[attr-defined]
        return None  # named-tensor overloads (`t.max("rows")`) only forward to the positional one
    if not writes and not any("Tensor" in str(r.type) for r in schema.returns):  # type: ignore[attr-defined]
        return True  # a Python number or bool (`aten::item`) shares no memory
    # an op only `CompositeImplicitAutograd` may return its input whatever its schema says
    if composite and op[len("aten::"):] not in _COMPOSITE_FRESH:
        return False
    return not writes and not aliased


# `CompositeImplicitAutograd` ops read in ATen's sources to end in a fresh kernel on every path
# (checked again on sample inputs by tests/test_alias45.py): `matmul` (mm/bmm/mv/dot, or a
# reshape of their fresh result), `softmax`/`log_softmax` (`_softmax` after an optional cast of
# the input), and overloads that only forward to a fresh overload of the same family (`std`/`var`
# to `.correction`, `max`/`min.other` to `maximum`/`minimum`, the Scalar `where`s to
# `where.self`, `square` to `pow`). Not here: `dropout` (returns its input when not training),
# `type_as` (`to`), `einsum` (a pure transposition is a view), `to_dense`, `_cast_*`.
# Also the losses, layers and norms a training script calls through `torch.nn.functional`:
# `diag` (`diag_embed`, or `diagonal().clone()`), `linear` (addmm/matmul), `conv*d` (`_convolution`),
# `batch_norm`/`layer_norm`/`group_norm`/`instance_norm` (their native kernels),
# `cross_entropy_loss`/`nll_loss*`/`l1_loss` (log_softmax, nll_loss_forward, `(a - b).abs()`).
_COMPOSITE_FRESH = frozenset({"matmul", "softmax", "log_softmax", "std", "var", "max", "min", "where", "square",
                              "diag", "linear", "conv1d", "conv2d", "conv3d", "batch_norm", "layer_norm", "group_norm",
                              "instance_norm", "cross_entropy_loss", "nll_loss", "nll_loss_nd", "nll_loss2d", "l1_loss"})

_TORCH_NAMESPACES = {"torch": "", "torch.special": "special_", "torch.linalg": "linalg_", "torch.fft": "fft_",
                     "torch.nn.functional": ""}


_OP_MODULES = ("torch", "torch._C._nn", "_VF", "torch._VF", "torch._C._VariableFunctions", "torch._C._linalg",
               "torch._C._special", "torch._C._fft")


def _wrapper_fresh(function: object, ops: set[str]) -> bool:
    """A Python-level torch function (`F.mse_loss`) is fresh when, read from its source, every
    `return` gives a call of a fresh op (`torch._C._nn.mse_loss(...)`, `torch.sum(...)`), arithmetic,
    or a local name bound only to such values; `handle_torch_function` (taken for `__torch_function__`
    subclasses only) aside. Anything else (a returned argument, a view, an unknown call) is not."""
    import ast
    import inspect
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    except (OSError, TypeError, SyntaxError):
        return False
    body = tree.body[0]
    if not isinstance(body, ast.FunctionDef):
        return False
    bound: dict[str, list[ast.expr]] = {}
    for node in ast.walk(body):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        bound.setdefault(n.id, []).append(node.value if isinstance(target, ast.Name) else ast.Constant(None))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
            for n in ast.walk(node.target if hasattr(node, "target") else node):  # type: ignore[attr-defined]
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    bound.setdefault(n.id, []).append(ast.Constant(None))
    params = {a.arg for a in (*body.args.posonlyargs, *body.args.args, *body.args.kwonlyargs)}

    def fresh(expr: ast.expr | None, depth: int = 0) -> bool:
        if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
            return not isinstance(expr, ast.UnaryOp) or not isinstance(expr.op, ast.UAdd)
        if isinstance(expr, ast.Call):
            func = ast.unparse(expr.func)
            if func == "handle_torch_function":
                return True
            module, _, name = func.rpartition(".")
            prefix = {"torch._C._linalg": "linalg_", "torch._C._special": "special_", "torch._C._fft": "fft_"}.get(module, "")
            # `input.softmax(dim)`: a Tensor method bound to a fresh op, called on a parameter
            return (module in _OP_MODULES or module in params) and prefix + name in ops \
                and not any(k.arg == "out" for k in expr.keywords)
        if isinstance(expr, ast.Name) and expr.id not in params and depth < 3:
            values = bound.get(expr.id, [])
            return bool(values) and all(fresh(v, depth + 1) for v in values)
        return False

    returns = [n for n in ast.walk(body) if isinstance(n, ast.Return)]
    return bool(returns) and all(fresh(r.value) for r in returns)


def _torch_tables() -> tuple[set[str], set[str], set[str]]:
    import importlib
    import types

    import torch

    ops = _fresh_ops()
    functions = {f"torch.{n}" for n in _TORCH_COPIES}
    for module_name in _TORCH_NAMESPACES:
        module = importlib.import_module(module_name)
        for name in dir(module):
            if name.startswith("_"):
                continue
            value = getattr(module, name, None)
            if isinstance(value, types.BuiltinFunctionType) and getattr(value, "__name__", None) in ops:
                functions.add(f"{module_name}.{name}")
            elif isinstance(value, types.FunctionType) and value.__module__.startswith("torch") \
                    and _wrapper_fresh(value, ops):
                functions.add(f"{module_name}.{name}")
    methods = {n for n in dir(torch.Tensor) if not n.startswith("__")}
    fresh_methods = set()
    for name in methods:
        value = getattr(torch.Tensor, name, None)
        if type(value).__name__ == "method_descriptor" and name in ops:
            fresh_methods.add(name)
    fresh_methods |= {n for n in _TENSOR_PYTHON_VALUES if n in methods}
    # `__slotnames__` is copyreg's cache, set on the class once a tensor is copied or pickled in
    # the process: not an attribute of the type, and it made the table depend on what ran before.
    dunders = {n for n in dir(torch.Tensor) if n.startswith("__") and n != "__slotnames__"}
    return functions, methods | dunders, fresh_methods


# NumPy functions (beyond ufuncs) that always build a new array, read from the NumPy sources:
# reductions and statistics (they reduce into a new array, or return a scalar), constructors that
# allocate (`np.array` copies unless `copy=False/None`, which the call site checks), joins,
# sorts and set operations, linear algebra and FFT results, and functions built on `np.empty*`
# or on a copy (`np.roll`, `np.tile`, `np.pad`, `np.insert`/`delete`/`append`, `np.apply_along_axis`
# fills a `zeros` buffer). Not here: `as*`,
# views, `np.einsum` (a pure transposition returns a view), `np.atleast_*`, `np.require`,
# `np.squeeze`, `np.ma.*`, anything returning an argument when no work is needed.
_NUMPY_FRESH = """
sum prod mean std var average median percentile quantile nanmean nansum nanstd nanvar nanmedian nanprod nanmin nanmax
nanargmin nanargmax nanpercentile nanquantile nancumsum nancumprod amin amax min max argmin argmax ptp any all
cumsum cumprod count_nonzero cov corrcoef histogram histogram2d histogramdd bincount digitize trace
zeros ones empty full zeros_like ones_like empty_like full_like arange linspace logspace geomspace eye identity tri
array copy concatenate concat stack vstack hstack dstack column_stack block tile repeat roll pad insert delete append
sort argsort lexsort unique unique_values unique_counts unique_inverse unique_all searchsorted nonzero argwhere
flatnonzero where take take_along_axis compress extract choose select piecewise diff ediff1d gradient cross outer
inner dot vdot kron tensordot convolve correlate interp polyfit polyval clip round around
isclose allclose array_equal array_equiv isin in1d intersect1d union1d setdiff1d setxor1d tril triu diagflat
meshgrid indices fromiter fromstring loadtxt genfromtxt load nan_to_num trapezoid trapz apply_along_axis
"""
_NUMPY_FRESH_LINALG = "norm inv pinv solve det slogdet eig eigh eigvals eigvalsh svd qr cholesky lstsq matrix_rank " \
                      "matrix_power multi_dot cond tensorsolve tensorinv vector_norm matrix_norm outer cross svdvals"
_NUMPY_FRESH_FFT = "fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft fftfreq rfftfreq " \
                   "fftshift ifftshift"
# ndarray methods that always build new data (or a Python value): the reductions, `copy`,
# `astype` (copies unless `copy=False`), `flatten` (always a copy, unlike `ravel`), `round`,
# `clip`, `take`, `repeat`, `compress`, `dot`, `tolist`/`item`/`tobytes`. Not `conj()`: of a real array it
# returns the array itself (found by the sampled check in tests/test_alias45.py).
_NDARRAY_FRESH = """
sum prod mean std var min max argmin argmax ptp all any cumsum cumprod trace nonzero argsort searchsorted
copy astype flatten round clip take repeat compress choose dot tolist item tobytes
"""


def _numpy_tables() -> tuple[set[str], set[str], set[str]]:
    import numpy as np

    functions = {f"numpy.{n}" for n in dir(np) if isinstance(getattr(np, n, None), np.ufunc)}
    functions |= {f"numpy.{n}" for n in _NUMPY_FRESH.split() if hasattr(np, n)}
    functions |= {f"numpy.linalg.{n}" for n in _NUMPY_FRESH_LINALG.split() if hasattr(np.linalg, n)}
    functions |= {f"numpy.fft.{n}" for n in _NUMPY_FRESH_FFT.split() if hasattr(np.fft, n)}
    methods = set(dir(np.ndarray))
    return functions, methods, {n for n in _NDARRAY_FRESH.split() if n in methods}


def render() -> str:
    import numpy as np
    import torch

    torch_functions, tensor_methods, fresh_tensor_methods = _torch_tables()
    numpy_functions, ndarray_methods, fresh_ndarray_methods = _numpy_tables()

    def block(name: str, names: set[str], doc: str) -> str:
        body = "".join(f"    {n!r},\n" for n in sorted(names))
        return f"# {doc}\n{name} = frozenset({{\n{body}}})\n"

    return (f'"""Generated by `python -m paef_jupyter.static.fresh_calls --regenerate` from torch '
            f'{torch.__version__.split("+")[0]} and NumPy {np.__version__}; do not edit."""\n\n'
            + block("FRESH_TORCH_FUNCTIONS", torch_functions, "C bindings of ATen ops whose results alias nothing")
            + block("TENSOR_METHODS", tensor_methods, "every attribute of torch.Tensor")
            + block("FRESH_TENSOR_METHODS", fresh_tensor_methods, "Tensor methods bound to such ops")
            + block("FRESH_NUMPY_FUNCTIONS", numpy_functions, "ufuncs and the explained fresh list")
            + block("NDARRAY_METHODS", ndarray_methods, "every attribute of numpy.ndarray")
            + block("FRESH_NDARRAY_METHODS", fresh_ndarray_methods, "ndarray methods that build new data"))


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        TABLE.write_text(render())
        print(f"wrote {TABLE}")
    else:
        print("usage: python -m paef_jupyter.static.fresh_calls --regenerate")
