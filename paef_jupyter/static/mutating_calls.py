"""Which torch / NumPy calls write into an *argument* (not only their receiver), read from the
libraries themselves rather than from a list of names.

The old facts knew writers by name only: a trailing `_`, `out=`, and a short deny-list
(`np.copyto`, `np.put`...). A call that writes an argument under another name was invisible:
`F.batch_norm(x, running_mean, running_var, training=True)` updates the running statistics,
`np.add(a, 1, a)` writes `a`, `torch.ops.aten.add_.Tensor(buf, x)` writes `buf` (red team 26m:
19 harmful rewrites of 22). The committed table `_mutation_table.py` records:

- torch: every ATen schema argument annotated `Tensor(a!)` that is not keyword-only (`out=`,
  checked at the call site) - by op (`torch.ops.aten.<op>`), and for the C bindings
  (`torch.<op>`, `torch.nn.functional.<op>`) and Tensor methods (self dropped) bound to it.
  Some ATen schemas leave a write unannotated (`aten::batch_norm` updates the running stats its
  composite kernel hands to `_native_batch_norm_legit`, whose schema says `Tensor(a!)`): an
  argument *named* as one that some op annotates as written (`running_mean`, `exp_avgs`,
  `momentum_buffer_list`...; generic names such as `self`, `values` aside) counts as written
  too, in C bindings and in Python-level torch functions (`F.batch_norm`, `torch.optim.adam.adam`),
  whose first parameter also counts when that op writes its `self` (the fused optimisers'
  `params`). A write guarded by a `training` / `use_input_stats` flag of the same signature
  records the flag, so `F.batch_norm(..., training=False)` still only reads.
- NumPy: a ufunc's outputs given by position (`np.add(a, b, a)`: positions from `nin`), the
  position of a positional `out` parameter (`np.clip(a, lo, hi, a)`, `a.clip(lo, hi, a)`), and
  the explained lists of writers NumPy documents as in place (`_NUMPY_ARGUMENT_WRITERS`,
  `_NDARRAY_SELF_WRITERS`).

Generated with `python -m paef_jupyter.static.mutating_calls --regenerate`; a test regenerates
it from the installed torch and NumPy. Analysis never imports torch or NumPy."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import libcst as cst

from ._mutation_table import (ATEN_WRITES, FUNCTION_WRITES, METHOD_WRITES, NDARRAY_OUT_AT, NUMPY_OUT_AT,
                              SELF_WRITING_METHODS, UFUNC_INPUTS)

TABLE = Path(__file__).with_name("_mutation_table.py")


class Written(NamedTuple):
    """One written argument: its position (None: keyword-only) and keyword, and the flag that
    guards the write (`training`), its position and its default (None: required)."""
    position: int | None
    keyword: str
    flag: str = ""
    flag_position: int | None = None
    flag_default: bool | None = None


def _false(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Name) and expr.value in ("False", "None") or \
        isinstance(expr, cst.Integer) and expr.value == "0"


def _literal(expr: cst.BaseExpression) -> bool:
    """A constant, which no call can write into (`t.max(1, True)`: `True` is no `out`)."""
    return isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)) or \
        isinstance(expr, cst.Name) and expr.value in ("True", "False", "None")


def _written_by(call: cst.Call, specs: tuple[tuple[object, ...], ...]) -> Iterator[cst.BaseExpression]:
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    for raw in specs:
        spec = Written(*raw)  # type: ignore[arg-type]
        if spec.flag:
            flag = keywords.get(spec.flag)
            if flag is None and spec.flag_position is not None and spec.flag_position < len(positional):
                flag = positional[spec.flag_position]
            if flag is None and spec.flag_default is False or flag is not None and _false(flag):
                continue  # `F.batch_norm(..., training=False)`: only reads the running stats
        if spec.position is not None and spec.position < len(positional):
            yield positional[spec.position]
        elif spec.keyword in keywords:
            yield keywords[spec.keyword]


def _aten_op(dotted: str | None) -> str | None:
    """`add_` for `torch.ops.aten.add_`, `torch.ops.aten.add_.Tensor`, `ops.aten.add_.default`."""
    if not dotted:
        return None
    parts = dotted.split(".")
    if "aten" in parts[:-1] and parts.index("aten") >= 1 and parts[parts.index("aten") - 1] == "ops":
        return parts[parts.index("aten") + 1]
    return None


def table_written_arguments(call: cst.Call, dotted: str | None, numpy: bool | None = None,
                            ndarray: bool = False) -> Iterator[cst.BaseExpression]:
    """The arguments `call` writes, by the table: `dotted` is the callee's dotted name as written
    (a name is looked up as a torch function and a Tensor method at once, which can only keep more
    values loop-variant). NumPy's outputs by position are read only where the callee is known to
    be NumPy's (`numpy`; by default a call spelt `np.` / `numpy.`) or the receiver an ndarray
    (`ndarray`): `logger.log(msg, step)` and `t.max(1, keep)` write nothing. `out=` is the caller's."""
    func = call.func
    op = _aten_op(dotted)
    if op is not None:
        yield from _written_by(call, ATEN_WRITES.get(op, ()))
        return
    if dotted:
        name = dotted.rsplit(".", 1)[-1]  # a qualified name resolved through an alias (`bn = F.batch_norm`)
    elif isinstance(func, cst.Attribute):
        name = func.attr.value
    else:
        return
    yield from _written_by(call, FUNCTION_WRITES.get(name, ()))
    if isinstance(func, cst.Attribute):
        yield from _written_by(call, METHOD_WRITES.get(name, ()))
    if any(a.star for a in call.args):
        return
    if numpy is None:
        numpy = dotted is not None and dotted.split(".")[0] in ("np", "numpy")
    yield from numpy_outputs(call, name, numpy, ndarray)


def numpy_outputs(call: cst.Call, name: str, function: bool, method: bool) -> Iterator[cst.BaseExpression]:
    """A NumPy function's (`function`) or ndarray method's (`method`) outputs given by position:
    a ufunc's past its inputs (`np.add(a, b, a)`), a positional `out` (`np.clip(a, lo, hi, a)`,
    `a.clip(lo, hi, a)`); a constant is never one."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    found: list[cst.BaseExpression] = []
    if function:
        inputs = UFUNC_INPUTS.get(name)
        if inputs is not None:
            found += positional[inputs:]
        at = NUMPY_OUT_AT.get(name)
        if at is not None:
            found += positional[at:at + 1]
    if method:
        at = NDARRAY_OUT_AT.get(name)
        if at is not None:
            found += positional[at:at + 1]
    yield from (p for p in found if not _literal(p))


def writes_receiver(name: str) -> bool:
    """A Tensor / ndarray method without a trailing `_` that writes its receiver
    (`a.partition(k)`, `a.byteswap(inplace=True)`, `t.set_(...)` aside)."""
    return name in SELF_WRITING_METHODS


def unbound_inplace_target(call: cst.Call, dotted: str | None,
                           changes_receiver: Callable[[str], bool]) -> cst.BaseExpression | None:
    """The object a receiver-changing method writes when it is called unbound: `torch.Tensor.add_(buf, x)`,
    `np.ndarray.sort(a)`, `torch.relu_(h)`, `getattr(torch.Tensor, "mul_")(w, 2)` - its first argument."""
    first = next((a.value for a in call.args if a.keyword is None and not a.star), None)
    if first is None:
        return None
    func = call.func
    if isinstance(func, cst.Call) and isinstance(func.func, cst.Name) and func.func.value == "getattr" \
            and len(func.args) >= 2:
        owner, name = func.args[0].value, func.args[1].value
        text = name.evaluated_value if isinstance(name, cst.SimpleString) else None
        from .names import dotted_name  # names reads this module: imported when used

        cls = dotted_name(owner)
        if isinstance(text, str) and changes_receiver(text) and cls is not None \
                and cls.split(".")[-1] in ("Tensor", "ndarray"):
            return first
        return None
    if dotted is None or "." not in dotted:
        return None
    owner_name, _, last = dotted.rpartition(".")
    if owner_name.split(".")[-1] in ("Tensor", "ndarray") and changes_receiver(last):
        return first
    if owner_name in ("torch", "th") and last.endswith("_") and not last.endswith("__"):
        return first  # `torch.relu_(h)`, `torch.fill_(t, v)`
    return None


# --- generation (imports torch and NumPy; never at analysis time) -------------------------------

# Argument names too generic to say "written" outside the op that annotates them: `self` (every
# in-place method), `out` (the caller's `out=`), JIT list ops' `l` / `to_add`, and names that
# many read-only ops also use (`tensor`, `values`, `indices`, `output`, `scale`, `zero_point`, `input`).
_GENERIC = frozenset({"self", "out", "l", "to_add", "tensor", "values", "indices", "output", "scale", "zero_point",
                      "input", "el"})
# A bool parameter that, when false, turns a write of the running statistics off.
_WRITE_FLAGS = ("training", "use_input_stats", "train")
# Python modules of torch whose functions are read for arguments named as written ones.
_PYTHON_MODULES = ("torch.nn.functional", "torch.nn.utils", "torch.optim", "torch.optim._functional",
                   "torch.optim.sgd", "torch.optim.adam", "torch.optim.adamw", "torch.optim.adagrad",
                   "torch.optim.adamax", "torch.optim.asgd", "torch.optim.nadam", "torch.optim.radam",
                   "torch.optim.rmsprop", "torch.optim.rprop", "torch.optim.adadelta")
# NumPy documents these as writing their first argument in place (no schema to read them from):
# `copyto(dst, src)`, `put`, `place`, `putmask`, `fill_diagonal`, `put_along_axis`,
# `random.shuffle` / `Generator.shuffle`, `lib.recfunctions.assign_fields_by_name`.
_NUMPY_ARGUMENT_WRITERS = ("copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis", "shuffle",
                           "assign_fields_by_name")
# ndarray methods documented as changing the array in place, beyond `*_`-less list names
# (`sort`, `fill`, `resize`, `put`, `itemset`): `partition`, `setfield`, `setflags`, and
# `byteswap(inplace=True)` (taken as always writing: its default copy is the rarer use).
_NDARRAY_SELF_WRITERS = ("sort", "partition", "fill", "resize", "put", "itemset", "setfield", "setflags", "byteswap")


def _schemas() -> dict[str, list[object]]:
    """ATen schemas by op name, the overloads the dispatcher knows only (the JIT's list and dict
    ops, `aten::sort.int(int[](a!) self)`, are no tensor op a Python call reaches)."""
    import torch

    has = torch._C._dispatch_has_kernel_for_dispatch_key
    by_op: dict[str, list[object]] = {}
    for schema in torch._C._jit_get_all_schemas():
        if not schema.name.startswith("aten::"):
            continue
        full = f"{schema.name}.{schema.overload_name}" if schema.overload_name else schema.name
        try:
            has(full, "CompositeImplicitAutograd")
        except RuntimeError:
            continue
        by_op.setdefault(schema.name[len("aten::"):], []).append(schema)
    return by_op


def _tensor_typed(argument: object) -> bool:
    return "Tensor" in str(argument.type)  # type: ignore[attr-defined]


def _annotated_names(by_op: dict[str, list[object]]) -> tuple[set[str], set[str]]:
    """Argument names some op annotates as written (non-self, not keyword-only, Tensor-typed),
    and the ops that also write their `self`."""
    names: set[str] = set()
    self_writers: set[str] = set()
    for op, schemas in by_op.items():
        for schema in schemas:
            for a in schema.arguments:  # type: ignore[attr-defined]
                if a.alias_info is None or not a.alias_info.is_write or a.kwarg_only or not _tensor_typed(a):
                    continue
                if a.name == "self":
                    self_writers.add(op)
                elif a.name not in _GENERIC:
                    names.add(a.name)
    return names, self_writers


def _flag(params: list[tuple[str, object]]) -> tuple[str, int | None, bool | None]:
    for i, (name, default) in enumerate(params):
        if name in _WRITE_FLAGS:
            return name, i, default if isinstance(default, bool) else None
    return "", None, None


def _op_specs(schemas: list[object], named: set[str], drop_self: bool) -> set[tuple[object, ...]]:
    """Written arguments of an op over its overloads: annotated ones, and ones named as written."""
    specs: set[tuple[object, ...]] = set()
    for schema in schemas:
        args = [a for a in schema.arguments if not a.kwarg_only]  # type: ignore[attr-defined]
        if drop_self and (not args or args[0].name != "self"):
            continue
        offset = 1 if drop_self else 0
        params = [(a.name, None) for a in args]
        flag, flag_at, _ = _flag(params)
        for i, a in enumerate(args):
            if drop_self and i == 0 or not _tensor_typed(a):
                continue
            annotated = a.alias_info is not None and a.alias_info.is_write
            if annotated and (not drop_self or a.name != "self") or a.name in named:
                guarded = flag if a.name in named else ""
                specs.add((i - offset, a.name, guarded, None if not guarded or flag_at is None else flag_at - offset,
                           None))
    return specs


def _python_specs(function: object, named: set[str], self_writers_by_name: dict[str, bool]) -> set[tuple[object, ...]]:
    """A Python-level torch function: its parameters named as written, and its first parameter
    when an op writing such a name also writes its `self` (the fused optimisers' `params`)."""
    import inspect

    try:
        sig = inspect.signature(function)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return set()
    params = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD,
                                                               p.KEYWORD_ONLY)]
    listed = [(p.name, None if p.default is p.empty else p.default) for p in params]
    flag, flag_at, default = _flag(listed)
    specs: set[tuple[object, ...]] = set()
    hit = [i for i, p in enumerate(params) if p.name in named]
    for i in hit:
        p = params[i]
        position = None if p.kind is p.KEYWORD_ONLY else i
        specs.add((position, p.name, flag, flag_at if flag else None, default if flag else None))
    if hit and any(self_writers_by_name.get(params[i].name) for i in hit) and params[0].kind is not params[0].KEYWORD_ONLY:
        specs.add((0, params[0].name, "", None, None))
    return specs


def _torch_tables() -> tuple[dict[str, set[tuple[object, ...]]], dict[str, set[tuple[object, ...]]],
                             dict[str, set[tuple[object, ...]]], set[str]]:
    import importlib
    import types

    import torch

    by_op = _schemas()
    named, self_writers = _annotated_names(by_op)
    # which written names come with a written `self` in the same op
    self_by_name: dict[str, bool] = {}
    for op in self_writers:
        for schema in by_op[op]:
            for a in schema.arguments:  # type: ignore[attr-defined]
                if a.alias_info is not None and a.alias_info.is_write and a.name in named:
                    self_by_name[a.name] = True
    aten: dict[str, set[tuple[object, ...]]] = {}
    for op, schemas in by_op.items():
        specs = _op_specs(schemas, named, drop_self=False)
        if specs:
            aten[op] = specs
    functions: dict[str, set[tuple[object, ...]]] = {}
    for module_name in ("torch", "torch.nn.functional", "torch._C._nn", "torch._VF"):
        module = importlib.import_module(module_name)
        for name in dir(module):
            value = getattr(module, name, None)
            if isinstance(value, types.BuiltinFunctionType) and name in aten and not name.endswith("_"):
                # trailing `_`: `torch.relu_(h)` writes its first argument, known by name
                functions.setdefault(name, set()).update(aten[name])
    for module_name in _PYTHON_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in dir(module):
            value = getattr(module, name, None)
            if isinstance(value, types.FunctionType) and (value.__module__ or "").startswith("torch"):
                specs = _python_specs(value, named, self_by_name)
                if specs:
                    functions.setdefault(name, set()).update(specs)
    methods: dict[str, set[tuple[object, ...]]] = {}
    self_methods: set[str] = set()
    for name in dir(torch.Tensor):
        if name.startswith("__") or name not in by_op:
            continue
        specs = _op_specs(by_op[name], named, drop_self=True)
        if specs:
            methods[name] = specs
        if not name.endswith("_") and any(a.name == "self" and a.alias_info is not None and a.alias_info.is_write
                                          for s in by_op[name] for a in s.arguments):  # type: ignore[attr-defined]
            self_methods.add(name)
    return aten, functions, methods, self_methods


def _numpy_tables() -> tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, set[tuple[object, ...]]]]:
    import inspect

    import numpy as np

    ufuncs = {n: getattr(np, n).nin for n in dir(np) if isinstance(getattr(np, n, None), np.ufunc)}
    out_at: dict[str, int] = {}
    method_out_at: dict[str, int] = {}
    for name in dir(np):
        value = getattr(np, name, None)
        if name.startswith("_") or isinstance(value, np.ufunc) or not callable(value) or isinstance(value, type):
            continue
        try:
            params = list(inspect.signature(value).parameters.values())
        except (TypeError, ValueError):
            continue
        for i, p in enumerate(params):
            if p.name == "out" and p.kind is p.POSITIONAL_OR_KEYWORD:
                out_at[name] = i
                if hasattr(np.ndarray, name) and i > 0:
                    method_out_at[name] = i - 1  # `a.clip(lo, hi, out)`: the array is the receiver
    writers = {n: {(0, "", "", None, None)} for n in _NUMPY_ARGUMENT_WRITERS}
    return ufuncs, out_at, method_out_at, writers


def render() -> str:
    import numpy as np
    import torch

    aten, functions, methods, self_methods = _torch_tables()
    ufuncs, out_at, method_out_at, writers = _numpy_tables()
    for name, specs in writers.items():
        functions.setdefault(name, set()).update(specs)
    self_methods |= set(_NDARRAY_SELF_WRITERS)

    def specs_block(name: str, table: dict[str, set[tuple[object, ...]]], doc: str) -> str:
        body = "".join(f"    {k!r}: {tuple(sorted(v, key=repr))!r},\n" for k, v in sorted(table.items()))
        return f"# {doc}\n{name}: dict[str, tuple[tuple[object, ...], ...]] = {{\n{body}}}\n"

    def ints_block(name: str, table: dict[str, int], doc: str) -> str:
        body = "".join(f"    {k!r}: {v},\n" for k, v in sorted(table.items()))
        return f"# {doc}\n{name}: dict[str, int] = {{\n{body}}}\n"

    body = "".join(f"    {n!r},\n" for n in sorted(self_methods))
    return (f'"""Generated by `python -m paef_jupyter.static.mutating_calls --regenerate` from torch '
            f'{torch.__version__.split("+")[0]} and NumPy {np.__version__}; do not edit.\n\n'
            f'A spec is (position, keyword, flag, flag position, flag default): see `mutating_calls.Written`."""\n\n'
            + specs_block("ATEN_WRITES", aten, "torch.ops.aten.<op>: every argument it writes (self included)")
            + specs_block("FUNCTION_WRITES", functions,
                          "torch / torch.nn.functional / Python-level torch / NumPy functions, by last name")
            + specs_block("METHOD_WRITES", methods, "Tensor methods: non-self arguments written (self dropped)")
            + f"# Tensor / ndarray methods without a trailing `_` that write their receiver\n"
              f"SELF_WRITING_METHODS = frozenset({{\n{body}}})\n"
            + ints_block("UFUNC_INPUTS", ufuncs, "NumPy ufuncs: positional arguments from here on are outputs")
            + ints_block("NUMPY_OUT_AT", out_at, "NumPy functions: the position of a positional `out`")
            + ints_block("NDARRAY_OUT_AT", method_out_at, "ndarray methods: the same, the array being the receiver"))


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        TABLE.write_text(render())
        print(f"wrote {TABLE}")
    else:
        print("usage: python -m paef_jupyter.static.mutating_calls --regenerate")
