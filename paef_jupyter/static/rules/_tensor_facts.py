"""Facts several tensor rules share: a tensor's dtype family, in-place mutation, guards.

Kept beside the rules (not in `facts.py`) because they answer rule-level questions
("does this rewrite keep the dtype?") from the syntax the rules already match.
"""

from __future__ import annotations

import builtins
import types
import weakref
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

import libcst as cst

from ..facts import (SHARING_CALLS, Facts, FunctionNode, Loop, _own_locals, param_names, passed_for, library_result_may_share,
                     no_out, told_not_to_copy)
from .. import outside_calls
from ..fresh_calls import fresh_call, library_call
from ..library_effects import torch_changed_arguments
from ..names import (block_statements, bound_names, is_inplace_method, mutated_arguments, mutated_names, named_params,
                     names_read, parameter_filled, positional_params, root_name)
from ..types import Kind
from ._library_state import library_state_changed

# dtype families: what `torch.tensor(x.tolist())` turns each into (default dtype assumed).
FLOAT, INT, BOOL = "float", "int", "bool"
_FAMILY_OF = {
    "float32": FLOAT, "float": FLOAT, "float64": FLOAT, "double": FLOAT, "float16": FLOAT, "half": FLOAT,
    "bfloat16": FLOAT, "int64": INT, "long": INT, "int32": INT, "int": INT, "int16": INT, "int8": INT,
    "uint8": INT, "bool": BOOL,
}
# The dtype `torch.tensor(<python scalars of that family>)` gives.
PYTHON_SCALAR_DTYPE = {FLOAT: "float32", INT: "int64", BOOL: "bool"}
CONVERT_METHOD = {FLOAT: "float", INT: "long", BOOL: "bool"}

_FLOAT_RESULT = frozenset({
    "randn", "rand", "rand_like", "randn_like", "normal", "zeros", "ones", "empty", "linspace", "logspace",
    "eye", "sigmoid", "tanh", "exp", "log", "log1p", "expm1", "softmax", "log_softmax", "sqrt", "rsqrt",
    "erf", "mean", "std", "var", "norm", "sin", "cos", "layer_norm",
    "dropout", "gelu", "silu", "cross_entropy", "mse_loss", "nll_loss", "linear", "conv1d", "conv2d",
    "cosine_similarity", "logsumexp", "float", "double", "half", "bfloat16", "reciprocal", "div",
})
_INT_RESULT = frozenset({"randint", "randperm", "argmax", "argmin", "argsort", "long", "int", "nonzero", "bucketize",
                         "searchsorted",
                         "one_hot"})
# Products of tensors keep their operands' dtype: int64 adjacency or one-hot counts multiply to int64
# (red teams 29a/29b: `torch.matmul(adj, adj)`, `torch.einsum("nc,nc->", one_hot(p), one_hot(y))` were
# taken for floats; fix50: `ids @ ids.T`).
_PRODUCTS = frozenset({"matmul", "mm", "bmm", "einsum", "mv", "dot", "inner", "outer", "tensordot"})
# Arithmetic whose result takes the promoted dtype of its operands (`torch.add(counts, 0.5)` is
# float, `torch.where(mask, x, 0.0)` has the dtype of `x`, not of the mask).
_PROMOTING = frozenset({"add", "sub", "mul", "maximum", "minimum"})
_BOOL_RESULT = frozenset({"eq", "ne", "gt", "lt", "ge", "le", "isnan", "isinf", "isfinite", "bool", "logical_and",
                          "logical_or", "logical_not", "isclose"})
# `any`/`all` give bool, except of a uint8 tensor (uint8): unknown for an input of unknown dtype.
_TRUTH_REDUCTIONS = frozenset({"any", "all"})
_SAME_AS_INPUT = frozenset({
    "relu", "abs", "neg", "clamp", "clip", "detach", "clone", "cpu", "cuda", "contiguous", "view", "reshape",
    "squeeze", "unsqueeze", "flatten", "t", "transpose", "permute", "sum", "max", "min", "amax", "amin",
    "cumsum", "flip", "roll", "expand", "repeat", "to", "pin_memory", "cat", "stack", "where", "maximum",
    "minimum", "mul", "add", "sub", "pow", "round", "floor", "ceil", "sort", "topk", "gather",
    "index_select", "masked_fill", "narrow", "select", "chunk", "split", "zeros_like", "ones_like",
})
# Builtins that change none of their arguments (what a record loop converts its values with).
_PURE_CALLS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.len", "builtins.abs",
                        "builtins.min", "builtins.max", "builtins.round", "builtins.range", "builtins.list",
                        "builtins.tuple"})
_EXACT_DTYPE_METHODS = {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
                        "int": "int32", "bool": "bool", "bfloat16": "bfloat16"}


def dtype_of(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """The dtype of a tensor expression: an exact name (`float32`), its family, or None (also
    for values built from complex ones: `mean`, `exp`, `sum` of a complex tensor are complex).
    In a program that uses autocast a floating result is only "some float": inside an autocast
    region `F.linear`, `@`, `bmm`, ... compute in bfloat16/float16 whatever their inputs, and what
    the tables below say of float32 inputs does not hold there (red team 31b)."""
    found = _dtype_in_tables(facts, expr, depth)
    if depth == 0 and found is not None and found != FLOAT and family(found) == FLOAT and uses_autocast(facts):
        return FLOAT
    return found


def _dtype_in_tables(facts: Facts, expr: cst.BaseExpression, depth: int) -> str | None:
    if depth > 12 or depth == 0 and may_be_complex(facts, expr):
        return None
    if isinstance(expr, cst.Call):
        return _dtype_of_call(facts, expr, depth)
    if isinstance(expr, cst.Name):
        value = facts.namespace.get(expr.value) if not bound_in_unit(facts, expr.value) else None
        if value is not None and kind_is_tensor(value):
            return str(value.dtype).removeprefix("torch.")
        assigned = assigned_value(facts, expr)
        if assigned is not None:
            return dtype_of(facts, assigned, depth + 1)
        earlier = earlier_value(facts, expr)
        if earlier is not None:
            return dtype_of(earlier[0], earlier[1], depth + 1)
        for loop in facts.enclosing_loops(expr):  # `for row in tensor:` rows share its dtype
            if isinstance(loop.node, cst.For) and isinstance(loop.node.target, cst.Name) \
                    and loop.node.target.value == expr.value and loop.iter_kind is Kind.TENSOR:
                return dtype_of(facts, loop.node.iter, depth + 1)
        return None
    if isinstance(expr, cst.Subscript):
        pair = _values_and_indices(facts, expr.value)
        if pair:  # `out.max(1)[1]`, `torch.sort(x)[1]`: the indices; `[0]`: the values
            index = expr.slice[0].slice if len(expr.slice) == 1 else None
            value = index.value if isinstance(index, cst.Index) else None
            if isinstance(value, cst.Integer) and value.evaluated_value in (0, 1):
                return "int64" if value.evaluated_value == 1 else dtype_of(facts, expr.value, depth + 1)
            return None
        return dtype_of(facts, expr.value, depth + 1)
    if isinstance(expr, cst.Attribute) and expr.attr.value in {"data", "T", "mT", "grad"}:
        return dtype_of(facts, expr.value, depth + 1)
    if isinstance(expr, cst.Comparison):
        return BOOL
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return dtype_of(facts, expr.expression, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, cst.Divide):
            return FLOAT
        for tensor, scalar in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(scalar, (cst.Integer, cst.Float)):  # a Python scalar keeps the tensor's dtype
                inner = dtype_of(facts, tensor, depth + 1)
                if isinstance(scalar, cst.Float) and family(inner) != FLOAT:
                    return "float32" if inner is not None else None
                if inner == BOOL:  # `mask * 1`, `mask + 0`: a Python int makes a bool tensor int64
                    return "int64" if isinstance(expr.operator, _INT_PROMOTING_OPERATORS) else None
                return inner
        sides = [_operand_dtype(facts, s, depth) for s in (expr.left, expr.right)]
        if any(s is not None and family(s) == FLOAT for s in sides):
            return FLOAT if sides[0] != sides[1] else sides[0]
        if all(s is not None for s in sides):
            return sides[0] if sides[0] == sides[1] else None
    return None


# What makes complex tensors: the results of these functions, these dtypes, an imaginary literal.
_COMPLEX_CALLS = frozenset({"torch.stft", "torch.view_as_complex", "torch.complex", "torch.polar", "torch.linalg.eig",
                            "torch.linalg.eigvals", "numpy.fft"})
_COMPLEX_DTYPES = frozenset({"torch.complex32", "torch.complex64", "torch.complex128", "torch.cfloat", "torch.cdouble",
                             "torch.chalf"})


def may_be_complex(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """`expr` is built (through the names it reads, a few assignments deep) from a complex
    tensor: `torch.fft.*`, `torch.stft`, `view_as_complex`, a complex dtype, an `1j` literal.
    The rules' dtype tables (`mean` is float) hold for real tensors only."""
    if depth > 4:
        return False
    for node in facts.walk(expr):
        if isinstance(node, cst.Imaginary):
            return True
        if isinstance(node, cst.Call) and _program_call(facts, node) and program_makes_complex(facts):
            return True  # `model(x)` whose forward returns `torch.fft.rfft(...)`, a helper's return
        if isinstance(node, (cst.Attribute, cst.Name)) and not isinstance(facts.parent(node), cst.Attribute):
            qualified = facts.qualified_name(node) or ""
            if qualified in _COMPLEX_CALLS or qualified in _COMPLEX_DTYPES or qualified.startswith(("torch.fft.", "numpy.fft.")):
                return True
        if isinstance(node, cst.Name):
            value = assigned_value(facts, node)
            if value is not None and value is not expr and may_be_complex(facts, value, depth + 1):
                return True
    return False


_LIBRARY_PREFIXES = ("torch.", "numpy.", "builtins.", "math.", "operator.", "functools.", "itertools.")


def _program_call(facts: Facts, call: cst.Call) -> bool:
    """`call` runs code of the program (a function, a module's `forward`, an object's `__call__`)
    rather than a library function or a tensor method of known dtype."""
    func = call.func
    if facts._callees(call) and isinstance(func, cst.Name):
        return True
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return True
    qualified = facts.qualified_name(func) or ""
    if qualified.startswith(_LIBRARY_PREFIXES):
        return False
    if isinstance(func, cst.Attribute):  # `x.sum()`: a method of a tensor; `self.head(x)`: a module
        return facts.kind(func.value) is not Kind.TENSOR and facts.kind(func) is Kind.MODULE
    return facts.kind(func) not in (Kind.TENSOR, Kind.NUMBER)


def program_makes_complex(facts: Facts) -> bool:
    """Some function of the program (this unit, an earlier cell, a local module) makes a complex
    tensor: what its callers get from it may be complex."""
    for unit in (facts, *facts.prior.units(), *(m for _, m in local_units(facts))):
        index = unit_index(unit)
        if index.complex_source is None:
            index.complex_source = any(_complex_source(unit, n) for f in unit.functions.values() for n in unit.walk(f.body))
        if index.complex_source:
            return True
    return False


def _complex_source(unit: Facts, node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Imaginary):
        return True
    if isinstance(node, (cst.Attribute, cst.Name)) and not isinstance(unit.parent(node), cst.Attribute):
        qualified = unit.qualified_name(node) or ""
        return qualified in _COMPLEX_CALLS or qualified in _COMPLEX_DTYPES or qualified.startswith(("torch.fft.", "numpy.fft."))
    return False


def dtype_unread(facts: Facts, expr: cst.BaseExpression, typed_parameter: Callable[[cst.Name], bool],
                 depth: int = 0) -> bool:
    """The dtype of `expr` is unknown: it comes from code of this program the analysis reads but
    cannot type (`torch.from_numpy`, a legacy constructor, `.type(...)`, a loader's batch), or
    from a parameter of the enclosing function that `typed_parameter` does not vouch for."""
    if depth > 8:
        return True
    if dtype_of(facts, expr) is not None:
        return False
    if isinstance(expr, cst.Name):
        value = assigned_value(facts, expr)
        if value is not None:
            return dtype_unread(facts, value, typed_parameter, depth + 1)
        earlier = earlier_value(facts, expr)
        if earlier is not None:
            return dtype_unread(earlier[0], earlier[1], typed_parameter, depth + 1)
        func = facts.enclosing_function(expr)
        if func is not None and expr.value in named_params(func.params):
            return not typed_parameter(expr)
        source = _comprehension_source(facts, expr)
        return source is None or dtype_unread(facts, source, typed_parameter, depth + 1)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _SAME_AS_INPUT:
        return dtype_unread(facts, expr.func.value, typed_parameter, depth + 1)
    if isinstance(expr, cst.Subscript) or (isinstance(expr, cst.Attribute) and expr.attr.value in {"data", "T", "mT"}):
        return dtype_unread(facts, expr.value, typed_parameter, depth + 1)
    if isinstance(expr, cst.UnaryOperation):
        return dtype_unread(facts, expr.expression, typed_parameter, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return any(dtype_unread(facts, side, typed_parameter, depth + 1) for side in (expr.left, expr.right)
                   if not isinstance(_unsigned(side), (cst.Integer, cst.Float)))
    return True


def _comprehension_source(facts: Facts, name: cst.Name) -> cst.BaseExpression | None:
    """What a comprehension variable iterates (`h` for `F` in `[... for F in h]`)."""
    for anc in facts.ancestors(name):
        comp_for = getattr(anc, "for_in", None) if isinstance(anc, (cst.ListComp, cst.SetComp, cst.GeneratorExp,
                                                                     cst.DictComp)) else None
        while comp_for is not None:
            if isinstance(comp_for.target, cst.Name) and comp_for.target.value == name.value:
                return comp_for.iter
            comp_for = comp_for.inner_for_in
    return None


def _unsigned(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`3` for `-3` and `+3`: the literal under a sign."""
    while isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        expr = expr.expression
    return expr


def _operand_dtype(facts: Facts, expr: cst.BaseExpression, depth: int) -> str | None:
    if isinstance(expr, cst.Float):
        return FLOAT
    if isinstance(expr, cst.Integer):
        return INT
    return dtype_of(facts, expr, depth + 1)


def _dtype_of_call(facts: Facts, call: cst.Call, depth: int) -> str | None:
    explicit = keyword(call, "dtype")
    if explicit is not None:
        return dtype_name(facts, explicit)
    if facts.kind(call.func) is Kind.MODULE:
        return _module_output_dtype(facts, call.func, "forward", depth, call)
    qualified = facts.qualified_name(call.func) or ""
    if qualified.startswith("torch."):
        last = qualified.rsplit(".", 1)[-1]
        positional = [a.value for a in call.args if a.keyword is None]
        if last in _PROMOTING or (last == "div" and keyword(call, "rounding_mode") is not None):
            return _promoted(facts, positional, depth)
        if last in _PRODUCTS:
            return _product(facts, positional[1:] if last == "einsum" else positional, depth)
        if last in _INTEGRAL_TO_LONG and positional:
            return _summed(dtype_of(facts, positional[0], depth + 1))
        special = _special_op(facts, last, positional, depth)
        if special is not _NOT_SPECIAL:
            return special  # type: ignore[return-value]
        if last in _SCALAR_ARGUMENTS and last != "where" and positional:
            others = [*positional[1:], *(a.value for a in call.args if a.keyword is not None and a.keyword.value in _SCALAR_KEYWORDS)]
            return _with_scalars(facts, positional[0], others, depth)
        if last in ("max", "min") and len(positional) == 2 and facts.kind(positional[1]) is Kind.TENSOR:
            return _promoted(facts, positional, depth)  # `torch.max(counts, floor)`: elementwise, promoted
        if last == "where":
            return _promoted(facts, positional[1:], depth) if len(positional) == 3 else None
        if last in ("tensor", "as_tensor"):
            return _literal_dtype(call.args[0].value) if call.args else None
        if last == "arange":
            values = [a.value for a in call.args if a.keyword is None]
            if values and all(isinstance(_unsigned(v), cst.Integer) for v in values):
                return "int64"  # (`torch.arange(-3, 3)`: a negative literal is a unary minus)
            return FLOAT if any(isinstance(_unsigned(v), cst.Float) for v in values) else None
        if last in _INT_RESULT:
            return _index_dtype(call) if last in _OUT_INT32 else "int64"
        if last in _BOOL_RESULT:
            return BOOL
        if qualified in ("torch.nn.functional.embedding", "torch.embedding"):  # the table's dtype (an int64 lookup table)
            at = 1 if qualified.startswith("torch.nn.") else 0  # `F.embedding(input, weight)`, `torch.embedding(weight, input)`
            weight = keyword(call, "weight") or (positional[at] if len(positional) > 1 else None)
            return dtype_of(facts, weight, depth + 1) if weight is not None else None
        if (qualified.startswith("torch.nn.functional.") and last in _FUNCTIONAL_KEEPS_DTYPE) or last in _KEEPS_INTEGER_INPUT:
            return dtype_of(facts, call.args[0].value, depth + 1) if call.args else None
        if last in _FLOAT_RESULT or qualified.startswith("torch.nn.functional."):
            return "float32" if last in {"randn", "rand", "zeros", "ones", "empty", "linspace", "eye"} else FLOAT
        if last in _SAME_AS_INPUT and call.args:
            return dtype_of(facts, call.args[0].value, depth + 1)
        return None
    func = call.func
    if isinstance(func, cst.Attribute):
        method = func.attr.value
        receiver = func.value
        if facts.kind(receiver) is Kind.MODULE:
            return _module_output_dtype(facts, receiver, "forward" if method == "__call__" else method, depth, call)
        if isinstance(receiver, cst.Name) and receiver.value == "self":
            return _own_method_dtype(facts, receiver, method, depth)
        if method in _EXACT_DTYPE_METHODS and not call.args:
            return _EXACT_DTYPE_METHODS[method]
        if method in _PROMOTING or (method == "div" and keyword(call, "rounding_mode") is not None):
            return _promoted(facts, [receiver, *(a.value for a in call.args if a.keyword is None)], depth)
        if method in _PRODUCTS:
            return _product(facts, [receiver, *(a.value for a in call.args if a.keyword is None)], depth)
        if method == "to":
            for arg in call.args:
                name = dtype_name(facts, arg.value)
                if name is not None:
                    return name
            # `.to(x.dtype)`, `.to(other)`, `.to(dt)`: an argument that may be a dtype (or a
            # tensor whose dtype is taken) converts; only device arguments keep the dtype
            if all(_device_or_option(facts, arg) for arg in call.args):
                return dtype_of(facts, receiver, depth + 1)
            return None
        if method in _INT_RESULT:
            return "int64"
        if method in _BOOL_RESULT:
            return BOOL
        if method in _INTEGRAL_TO_LONG:
            return _summed(dtype_of(facts, receiver, depth + 1))
        special = _special_op(facts, method, [receiver, *(a.value for a in call.args if a.keyword is None)], depth)
        if special is not _NOT_SPECIAL:
            return special  # type: ignore[return-value]
        if method in ("max", "min") and len(call.args) == 1 and call.args[0].keyword is None \
                and facts.kind(call.args[0].value) is Kind.TENSOR:
            return _promoted(facts, [receiver, call.args[0].value], depth)  # `hits.max(floor)`: elementwise
        if method in _SCALAR_ARGUMENTS:
            others = [a.value for a in call.args if a.keyword is None or a.keyword.value in _SCALAR_KEYWORDS]
            return _with_scalars(facts, receiver, others[1:] if method == "where" else others, depth)
        if method in _FLOAT_RESULT:
            return FLOAT
        if method in _SAME_AS_INPUT:
            return dtype_of(facts, receiver, depth + 1)
        return None
    return None


# `mask * 1`, `mask + 0`: a bool tensor with a Python int is int64 (bitwise `&`, `|`, ... are not taken).
_INT_PROMOTING_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo, cst.Power)
# Reductions that sum an integral (or bool) tensor into int64: `mask.sum()`, `torch.sum(mask, 1)`, `ids.cumsum(0)`.
_INTEGRAL_TO_LONG = frozenset({"sum", "nansum", "cumsum", "prod", "cumprod"})
# Ops whose result is promoted with their other arguments: `counts.pow(-0.5)` and `torch.clamp(hits, min=0.3)`
# of an int64 tensor are float32; `x.where(mask, 0.5)` takes the promoted dtype of `x` and `0.5`.
_SCALAR_ARGUMENTS = frozenset({"pow", "clamp", "clip", "where"})
_SCALAR_KEYWORDS = frozenset({"min", "max", "exponent", "other"})


_NOT_SPECIAL = object()


def _special_op(facts: Facts, op: str, operands: list[cst.BaseExpression], depth: int) -> object:
    """Ops whose result dtype no table above gives (checked against torch in `tests/test_fix50.py`):
    `square` of a bool tensor is int64, `float_power` is float64, `any`/`all` of uint8 stay uint8.
    `_NOT_SPECIAL` for other ops."""
    if op == "square":
        inner = dtype_of(facts, operands[0], depth + 1) if operands else None
        return "int64" if inner == BOOL else inner
    if op == "float_power":
        return "float64"
    if op in _TRUTH_REDUCTIONS:
        inner = dtype_of(facts, operands[0], depth + 1) if operands else None
        return None if inner is None else "uint8" if inner == "uint8" else BOOL
    return _NOT_SPECIAL


def _summed(inner: str | None) -> str | None:
    """The dtype a sum (cumulative sum, product) of a tensor of dtype `inner` has."""
    return "int64" if family(inner) in (INT, BOOL) else inner


def _with_scalars(facts: Facts, receiver: cst.BaseExpression, others: list[cst.BaseExpression], depth: int) -> str | None:
    """The dtype of `receiver.<op>(*others)` for an op that promotes its arguments (`pow`, `clamp`,
    `where`): a floating tensor keeps its dtype with Python numbers; an integral one stays
    integral only with integer literals (a float literal makes it float32); else unknown."""
    inner = dtype_of(facts, receiver, depth + 1)
    fam = family(inner)
    if fam is None:
        return None
    if fam == FLOAT:
        if all(isinstance(_unsigned(o), (cst.Integer, cst.Float)) or facts.kind(o) is not Kind.TENSOR for o in others):
            return inner
        return _promoted(facts, [receiver, *others], depth)
    if any(isinstance(_unsigned(o), cst.Float) for o in others):
        return FLOAT
    if fam == INT and all(isinstance(_unsigned(o), cst.Integer) for o in others):
        return inner
    return None


_TO_OPTIONS = frozenset({"device", "non_blocking", "copy", "memory_format"})
_DEVICE_WORDS = ("device", "dev", "gpu", "cuda")
_INDEX_WORDS = ("id", "idx", "index", "no", "num", "name", "str")


def _device_or_option(facts: Facts, arg: cst.Arg) -> bool:
    """An argument of `.to(...)` that cannot change the dtype: an option keyword, a device
    string or index, `torch.device(...)`, `t.device`, or a name that holds (or is named for) a
    device. Anything else (`x.dtype`, a dtype in a variable, another tensor) may convert."""
    if arg.keyword is not None:
        return arg.keyword.value in _TO_OPTIONS
    value = arg.value
    if isinstance(value, (cst.SimpleString, cst.Integer)):
        return True
    if isinstance(value, cst.Call):
        return (facts.qualified_name(value.func) or "") == "torch.device"
    if isinstance(value, cst.Attribute):
        return value.attr.value == "device"
    if isinstance(value, cst.Name):
        live = facts.namespace.get(value.value)
        if live is not None and not bound_in_unit(facts, value.value):
            return isinstance(live, str) or type(live).__name__ == "device"
        return facts.kind(value) is not Kind.TENSOR and names_a_device(facts, value.value)
    return False


def names_a_device(facts: Facts, name: str, depth: int = 3) -> bool:
    """`name` holds a device: every value the unit binds it to spells one (`torch.device(...)`, a
    device string, `x.device`, a choice between those, another such name), and none spells
    something else (a dtype, a container, a number, a tensor). Where a value is not seen (a
    parameter, a helper's result) the name's last word must say so (`device`, `dev`, `gpu`,
    `cuda`: `train_device`, `gpu0`, `get_device()`'s `device`). Red team 32b: `gpu_dtype` (a
    dtype), `dev_scores` (scores of the dev split) and `device_kwargs` (a dict) merely mention one."""
    verdicts = [_spells_a_device(facts, d.value, depth) if d.value is not None else None
                for d in facts._defs.get(name, ())]
    if False in verdicts:
        return False
    if verdicts and all(verdicts):
        return True
    words = name.lower().split("_")
    while len(words) > 1 and words[-1] in _INDEX_WORDS:
        words.pop()  # `gpu_id`, `device_idx`, `cuda_index`: a device's index is a device argument
    return words[-1].rstrip("0123456789") in _DEVICE_WORDS


def keyed_device(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`args['device']` (pub51 p04's config dict, read as `self.args['device']` in a layer): an
    entry under a string key that says device the way `names_a_device` reads a name's last word
    (`device`, `train_device`, `gpu`). Where the unit binds the container to dict literals with
    that key, every such entry must spell a device (`{'device': torch.device(...)}`) and none
    something else (`{'device': 'auto'}`, a dtype)."""
    if not (isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index)):
        return False
    key = expr.slice[0].slice.value
    if not isinstance(key, cst.SimpleString) or not isinstance(key.evaluated_value, str):
        return False
    name = key.evaluated_value
    words = name.lower().split("_")
    while len(words) > 1 and words[-1] in _INDEX_WORDS:
        words.pop()
    if words[-1].rstrip("0123456789") not in _DEVICE_WORDS:
        return False
    container = expr.value
    values: list[cst.BaseExpression] = []
    if isinstance(container, cst.Attribute) and isinstance(container.value, cst.Name) and container.value.value == "self":
        held = facts.self_assigned_values(container.attr.value)  # `self.args = args`: the dict the instance keeps
        values = [v for h in held for v in (facts.assigned_values(h.value) if isinstance(h, cst.Name) else [h])]
    elif isinstance(container, cst.Name):
        values = facts.assigned_values(container.value)
    entries = [e.value for v in values if isinstance(v, cst.Dict) for e in v.elements
               if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) and e.key.evaluated_value == name]
    return not any(_spells_a_device(facts, e, 3) is False for e in entries)


def spells_a_device(facts: Facts, value: cst.BaseExpression, depth: int = 3) -> bool | None:
    """True: `value` is a device; False: something else; None: not seen (see `_spells_a_device`)."""
    return _spells_a_device(facts, value, depth)


def _spells_a_device(facts: Facts, value: cst.BaseExpression, depth: int) -> bool | None:
    """True: a device; False: something else; None: not seen (a call of a helper, an attribute)."""
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value.split(":")[0] in ("cuda", "cpu", "mps", "xpu")
    if isinstance(value, cst.IfExp):
        sides = (_spells_a_device(facts, value.body, depth), _spells_a_device(facts, value.orelse, depth))
        return False if False in sides else (True if all(sides) else None)
    if isinstance(value, (cst.Integer, cst.Float, cst.Dict, cst.List, cst.Tuple, cst.Set, cst.DictComp, cst.ListComp)):
        return False
    if isinstance(value, cst.Call) and (facts.qualified_name(value.func) or "") == "torch.device":
        return True
    if isinstance(value, cst.Attribute) and value.attr.value == "device":
        return True
    if isinstance(value, cst.Name) and value.value in ("None", "True", "False"):
        return False
    qualified = facts.qualified_name(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
    if qualified and qualified.startswith("torch.") and qualified.count(".") == 1:
        return False  # `torch.float16`, `torch.bfloat16`: a dtype (or another torch object), no device
    if isinstance(value, cst.Call) and (facts.qualified_name(value.func) or "") in ("builtins.dict", "builtins.list"):
        return False
    if facts.kind(value) in (Kind.TENSOR, Kind.NUMBER, Kind.DICT, Kind.LIST, Kind.NDARRAY):
        return False
    if isinstance(value, cst.Name) and depth > 0:
        return names_a_device(facts, value.value, depth - 1) or None
    return None


# Ops that keep an integer (or bool) input's dtype on the CPU, though most callers give them floats (red team
# 30a: a uint8 label map through nearest `F.interpolate` stays uint8; checked against torch 2.13 in
# `tests/test_redteam30a.py`): the input's dtype, never "some float" for an input of unknown dtype.
_KEEPS_INTEGER_INPUT = frozenset({"interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "avg_pool1d",
                                  "avg_pool2d", "avg_pool3d", "dropout", "dropout1d", "dropout2d", "dropout3d",
                                  "alpha_dropout", "feature_alpha_dropout", "linear", "conv1d", "conv2d", "conv3d",
                                  "unfold", "fold"})
# `torch.bucketize` / `torch.searchsorted` give int32 indices with `out_int32=True`.
_OUT_INT32 = frozenset({"bucketize", "searchsorted"})


def _index_dtype(call: cst.Call) -> str | None:
    """int64, or int32 with a literal `out_int32=True`; unknown for a computed flag."""
    flag = keyword(call, "out_int32")
    if flag is None or isinstance(flag, cst.Name) and flag.value == "False":
        return "int64"
    return "int32" if isinstance(flag, cst.Name) and flag.value == "True" else None


# `torch.nn.functional` ops whose result has their input's dtype, integer inputs included
# (`F.pad(ids, (0, 2), value=-1)` pads token ids): not the float result of the rest of `F`.
_FUNCTIONAL_KEEPS_DTYPE = frozenset({"pad", "relu", "relu6", "hardtanh", "threshold", "max_pool1d", "max_pool2d",
                                     "max_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
                                     "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle"})
# Reductions that return (values, indices) when given a dim; `sort`/`topk`/... always do.
_PAIR_WITH_DIM = frozenset({"max", "min", "median", "nanmedian", "mode", "kthvalue"})
_ALWAYS_PAIR = frozenset({"sort", "topk", "kthvalue", "mode", "cummax", "cummin"})  # (not `aminmax`: (min, max))


def _values_and_indices(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`expr` is a call returning a (values, indices) pair: `x.max(1)`, `torch.max(x, dim=1)`,
    `x.sort()`, `torch.topk(x, k)`. Subscripting it picks a tensor, not an element."""
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    qualified = facts.qualified_name(func) or ""
    if qualified.startswith("torch."):
        name = qualified.rsplit(".", 1)[-1]
    if name in _ALWAYS_PAIR or name.endswith("_with_indices") or _returns_indices(facts, expr):
        return True
    if name not in _PAIR_WITH_DIM:
        return False
    positional = [a.value for a in expr.args if a.keyword is None]
    if any(a.keyword is not None and a.keyword.value == "dim" for a in expr.args):
        return True
    dims = positional[1:] if qualified.startswith("torch.") and not isinstance(func, cst.Attribute) or \
        (isinstance(func, cst.Attribute) and (facts.qualified_name(func.value) or "") == "torch") else positional
    return any(isinstance(d, cst.Integer) or isinstance(d, cst.UnaryOperation) and isinstance(d.expression, cst.Integer)
               for d in dims[:1])


def _returns_indices(facts: Facts, call: cst.Call) -> bool:
    """`F.max_pool1d(x, 4, return_indices=True)`, or a call of `nn.MaxPool2d(2, return_indices=True)`:
    (values, int64 indices), not a tensor of the input's dtype (red team 31a: peak positions read
    as floats and stored so)."""
    flag = keyword(call, "return_indices")
    if flag is None and facts.kind(call.func) is Kind.MODULE:
        built = _module_built_from(facts, call.func)
        flag = keyword(built, "return_indices") if built is not None else None
    return flag is not None and not (isinstance(flag, cst.Name) and flag.value in ("False", "None"))


def _product(facts: Facts, operands: list[cst.BaseExpression], depth: int) -> str | None:
    """The dtype of a matrix product of tensors: theirs when all share one; a floating operand
    makes it floating (torch refuses mixed dtypes there, so the others are that float too); else
    None. A literal or a list of operands (`einsum(eq, [a, b])`) is unknown."""
    if not operands or any(isinstance(o, (cst.List, cst.Tuple, cst.Integer, cst.Float)) for o in operands):
        return None
    dtypes = {dtype_of(facts, o, depth + 1) for o in operands}
    if len(dtypes) == 1 and None not in dtypes:
        return dtypes.pop()
    return FLOAT if any(family(d) == FLOAT for d in dtypes) else None


def _promoted(facts: Facts, operands: list[cst.BaseExpression], depth: int) -> str | None:
    """The dtype of arithmetic on `operands`: a Python int keeps a tensor's dtype, a Python float
    makes an integer tensor float; tensors of one dtype keep it, a float among them wins."""
    tensors = [o for o in operands if not isinstance(_unsigned(o), (cst.Integer, cst.Float))]
    floats = len(tensors) < len(operands) and any(isinstance(_unsigned(o), cst.Float) for o in operands)
    ints = len(tensors) < len(operands) and not floats
    dtypes = [dtype_of(facts, t, depth + 1) for t in tensors]
    if not tensors:
        return None
    if floats:
        return dtypes[0] if len(set(dtypes)) == 1 and family(dtypes[0]) == FLOAT else FLOAT
    if any(d is None for d in dtypes):
        return None
    if len(set(dtypes)) == 1:
        return "int64" if ints and dtypes[0] == BOOL else dtypes[0]  # `torch.add(mask, 1)` is int64
    return FLOAT if any(family(d) == FLOAT for d in dtypes) else None


# torch.nn modules whose output has their input's dtype (integer codes stay integers).
_DTYPE_KEEPING_MODULES = frozenset({
    "Identity", "Flatten", "Unflatten", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "Upsample", "PixelShuffle", "PixelUnshuffle",
    "ChannelShuffle", "ReLU", "ReLU6", "Hardtanh", "Threshold", "AvgPool1d", "AvgPool2d", "AvgPool3d",
})
# Module names read as losses: a loss module's output is a float (an assumption on the name).
_LOSS_NAMES = ("loss", "criterion")


def _module_output_dtype(facts: Facts, module: cst.BaseExpression, method: str, depth: int,
                         call: cst.Call | None = None) -> str | None:
    """The dtype a module's `method` (its forward) gives: the floating dtype of a live module's
    parameters; for a torch.nn module built in sight, its input's dtype when it keeps it
    (`nn.Identity`, `nn.Flatten`, pooling: `call`'s first argument), else some float; for an
    instance of a class of the program, the dtype its returns give (an input passed through takes
    the argument's dtype), None when one is an integer, a bool or unknown through the input.
    A module the analysis cannot see built (a parameter, `torch.jit.script(...)`, an import)
    gives None (it may return indices), unless its name reads as a loss."""
    argument = next((a.value for a in call.args if a.keyword is None and not a.star), None) if call is not None else None
    found = _class_of_module(facts, module)
    if found is not None:
        dtypes = _returned_dtypes(facts, module, method, depth, argument)
        if any(family(d) in (INT, BOOL) for d in dtypes) or None in _returned_dtypes(facts, module, method, depth, argument,
                                                                                      passed_only=True) \
                or _returns_unknown_tensor(found, method, depth):
            return None
        return FLOAT  # (a tuple or dict of unknown dtypes: some float, an open assumption)
    value = facts.namespace.get(module.value) if isinstance(module, cst.Name) and not bound_in_unit(facts, module.value) else None
    parameters = getattr(value, "parameters", None)
    if callable(parameters) and method == "forward":
        for p in parameters():
            if getattr(p, "is_floating_point", lambda: False)():
                return str(p.dtype).removeprefix("torch.")
    built = _module_built_from(facts, module)
    qualified = (facts.qualified_name(built.func) or "") if built is not None else ""
    if qualified.startswith("torch.nn.") and qualified.rsplit(".", 1)[-1][:1].isupper():
        if qualified.rsplit(".", 1)[-1] in _DTYPE_KEEPING_MODULES or qualified == "torch.nn.Sequential":
            kept = qualified == "torch.nn.Sequential" and built is not None and all(
                isinstance(a.value, cst.Call) and (facts.qualified_name(a.value.func) or "").rsplit(".", 1)[-1]
                not in _DTYPE_KEEPING_MODULES for a in built.args[-1:])
            return FLOAT if kept else (dtype_of(facts, argument, depth + 1) if argument is not None else None)
        return FLOAT
    spelled = facts.code(module).lower()
    return FLOAT if any(n in spelled.rsplit(".", 1)[-1] for n in _LOSS_NAMES) else None


def _returns_unknown_tensor(found: tuple[Facts, cst.ClassDef], method: str, depth: int) -> bool:
    """`method` of the program's class returns a value (not a tuple, list or dict literal) whose
    dtype is unknown: `Categorical(logits=...).sample()`, `torch.multinomial(p, 1)` are int64, so
    the module's output is not "some float" (red team 31a: sampled actions stored as floats)."""
    owner, cls = found
    defined = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == method), None)
    if defined is None:
        return False
    inputs = {p.name.value for p in defined.params.params[1:2]}
    return any(isinstance(r, cst.Return) and r.value is not None and not isinstance(r.value, (cst.Tuple, cst.List, cst.Dict))
               and _passed_through(r.value) not in inputs and dtype_of(owner, r.value, depth + 1) is None
               for r in owner.walk(defined.body))


def _module_built_from(facts: Facts, module: cst.BaseExpression) -> cst.Call | None:
    """The constructor call a module was built by, where the unit shows one: `nn.Identity()` for
    `head = nn.Identity().to(device)`, the `self.head = ...` assignment of the class around."""
    built: cst.BaseExpression | None = None
    if isinstance(module, cst.Name):
        built = assigned_value(facts, module)
        if built is None:
            earlier = earlier_value(facts, module)
            facts, built = earlier if earlier is not None else (facts, None)
    elif isinstance(module, cst.Attribute) and isinstance(module.value, cst.Name) and module.value.value == "self":
        values = facts.self_assigned_values(module.attr.value)
        built = values[0] if len(values) == 1 else None
    elif isinstance(module, cst.Call):
        built = module  # `nn.Flatten()(codes)`
    while isinstance(built, cst.Call) and isinstance(built.func, cst.Attribute) \
            and built.func.attr.value in ("to", "cuda", "cpu", "eval", "train", "float", "double", "half"):
        built = built.func.value
    return built if isinstance(built, cst.Call) else None


def _own_method_dtype(facts: Facts, receiver: cst.Name, method: str, depth: int) -> str | None:
    """`self.decode(logits)`: the one dtype every `return` of the class's method gives, else None."""
    dtypes = set(_returned_dtypes(facts, receiver, method, depth))
    return dtypes.pop() if len(dtypes) == 1 else None


def _returned_dtypes(facts: Facts, obj: cst.BaseExpression, method: str, depth: int,
                     argument: cst.BaseExpression | None = None, passed_only: bool = False) -> list[str | None]:
    """The dtype of each value `method` of `obj`'s class (a class of the program) returns; a
    value that passes the method's first input through (`torch.roll(x, 1)`, `x[..., :k]`) takes
    the dtype of `argument`, what the call site gives (`passed_only`: only those values)."""
    found = _class_of_module(facts, obj)
    if found is None:
        return []
    owner, cls = found
    defined = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == method), None)
    if defined is None:
        return []
    inputs = [p.name.value for p in defined.params.params[1:2]]
    out = []
    for r in owner.walk(defined.body):
        if isinstance(r, cst.Return) and r.value is not None:
            dtype = dtype_of(owner, r.value, depth + 1)
            passed = dtype is None and _passed_through(r.value) in inputs
            if passed:
                dtype = dtype_of(facts, argument, depth + 1) if argument is not None else None
            if passed or not passed_only:
                out.append(dtype)
    return out


def _passed_through(expr: cst.BaseExpression) -> str | None:
    """The name whose dtype `expr` keeps: `x` for `x`, `x[..., :k]`, `x.flip(0)`, `torch.roll(x, 1)`."""
    while True:
        if isinstance(expr, cst.Name):
            return expr.value
        if isinstance(expr, cst.Subscript):
            expr = expr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _SAME_AS_INPUT:
            receiver = expr.func.value
            is_module = isinstance(receiver, cst.Name) and receiver.value in ("torch", "th")
            if is_module and expr.args:
                expr = expr.args[0].value
            elif not is_module:
                expr = receiver
            else:
                return None
        else:
            return None


def _class_of_module(facts: Facts, module: cst.BaseExpression) -> tuple[Facts, cst.ClassDef] | None:
    """The class of the program `module` is an instance of: `self`'s enclosing class, or the
    class a name was built from (`Net().to(device).eval()`)."""
    if isinstance(module, cst.Name) and module.value == "self":
        cls = next((a for a in facts.ancestors(module) if isinstance(a, cst.ClassDef)), None)
        return (facts, cls) if cls is not None else None
    built = assigned_value(facts, module) if isinstance(module, cst.Name) else module  # (`Net()(x)`)
    while isinstance(built, cst.Call) and isinstance(built.func, cst.Attribute) \
            and built.func.attr.value in ("to", "cuda", "cpu", "eval", "train", "float", "double", "half"):
        built = built.func.value  # `Net().to(device).eval()`: the same module
    return facts.class_named(built.func) if isinstance(built, cst.Call) else None


def _literal_dtype(expr: cst.BaseExpression) -> str | None:
    """`torch.tensor(<literal>)`: float32 for floats, int64 for ints, bool for bools."""
    leaves = list(_literal_leaves(expr))
    if not leaves or any(leaf is None for leaf in leaves):
        return None
    if FLOAT in leaves:
        return "float32"
    return "int64" if set(leaves) == {INT} else ("bool" if set(leaves) == {BOOL} else None)


def _literal_leaves(expr: cst.BaseExpression) -> Iterator[str | None]:
    if isinstance(expr, (cst.List, cst.Tuple)):
        for el in expr.elements:
            yield from _literal_leaves(el.value)
    elif isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        yield from _literal_leaves(expr.expression)
    elif isinstance(expr, cst.Float):
        yield FLOAT
    elif isinstance(expr, cst.Integer):
        yield INT
    elif isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        yield BOOL
    else:
        yield None


def dtype_name(facts: Facts, expr: cst.BaseExpression) -> str | None:
    """`float32` for `torch.float32` / `torch.float`, else None."""
    qualified = facts.qualified_name(expr) or ""
    if qualified.startswith("torch.") and qualified.count(".") == 1:
        name = qualified.split(".", 1)[1]
        if name in _FAMILY_OF:
            return {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32"}.get(name, name)
    return None


def family(dtype: str | None) -> str | None:
    if dtype in (FLOAT, INT, BOOL):
        return dtype
    return _FAMILY_OF.get(dtype or "")


def kind_is_tensor(value: object) -> bool:
    return any(f"{c.__module__}.{c.__qualname__}" == "torch.Tensor" for c in type(value).__mro__)


def keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    return None


# --- definitions ----------------------------------------------------------------------

def bound_in_unit(facts: Facts, name: str) -> bool:
    """`name` is bound somewhere in the unit (so the namespace's value may be stale)."""
    return any(is_binding(facts, n) for n in reads_of(facts, name))


def earlier_value(facts: Facts, name: cst.Name) -> tuple[Facts, cst.BaseExpression] | None:
    """What an earlier notebook cell assigned to `name` (no live namespace), if this cell does not."""
    if bound_in_unit(facts, name.value) or name.value in facts.namespace:
        return None
    return facts.prior.value(name.value)


def assigned_value(facts: Facts, name: cst.Name) -> cst.BaseExpression | None:
    """The value `name` holds where it is read; for `x = f(x)`, the `x` before the statement."""
    value = facts.value_of(name)
    if value is None or not any(anc is value for anc in facts.ancestors(name)):
        return value
    stmt = facts.statement_of(name)
    block = facts.parent(stmt)
    body = block_statements(block)
    for earlier in reversed(body[: body.index(stmt)] if stmt in body else ()):
        if name.value not in facts.names_written(earlier):
            continue
        assign = earlier.body[0] if isinstance(earlier, cst.SimpleStatementLine) and len(earlier.body) == 1 else None
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1 \
                and isinstance(assign.targets[0].target, cst.Name) and assign.targets[0].target.value == name.value:
            return assign.value
        return None
    return None


# --- mutation, guards, invariance --------------------------------------------------------


@dataclass
class _Index:
    """One walk of the unit, shared by the rules: where each name is read and changed in place."""

    names: dict[str, list[cst.Name]] = field(default_factory=dict)
    mutations: dict[str, list[cst.CSTNode]] = field(default_factory=dict)
    globals_read: dict[str, frozenset[str]] = field(default_factory=dict)
    forward_hook: str | None = None  # `forward_hook_registered`, once asked
    reads_main: bool | None = None  # `_reads_main`, once asked
    patch: str | None = None  # `_patch_in`, once asked
    handed_out: list | None = None  # `_handed_out_of`, once asked
    implicit: list | None = None  # `_implicit_code_of`, once asked
    complex_source: bool | None = None  # `program_makes_complex`, once asked
    bound_writers: frozenset[str] | None = None  # `_bound_writers_of`, once asked
    rebound: dict[str, bool] = field(default_factory=dict)  # `rebound_in_unit`, per name asked
    dtype_changed: bool | None = None  # `default_dtype_changed`, once asked
    setter_in_code: bool | None = None  # `_setter_in_program_code`, once asked
    autocast: bool | None = None  # `uses_autocast`, once asked


_INDEX: "weakref.WeakKeyDictionary[Facts, _Index]" = weakref.WeakKeyDictionary()


def unit_index(facts: Facts) -> _Index:
    index = _INDEX.get(facts)
    if index is None:
        index = _INDEX[facts] = _build_index(facts)
    return index


def _build_index(facts: Facts) -> _Index:
    index = _Index()
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Name) and not _keyword_of_argument(facts, node):
            index.names.setdefault(node.value, []).append(node)
        for name in {*mutated_names(node), *facts.written_through_call(node)}:
            index.mutations.setdefault(name, []).append(node)
        if isinstance(node, cst.Call):
            for changed in _library_changed_names(facts, node):
                index.mutations.setdefault(changed, []).append(node)
    return index


def _keyword_of_argument(facts: Facts, name: cst.Name) -> bool:
    """`input_lengths` of `F.ctc_loss(..., input_lengths=in_lens)`: the parameter's name in a call,
    no read of a variable of that name (public check 62)."""
    parent = facts.parent(name)
    return isinstance(parent, cst.Arg) and parent.keyword is name


# torch functions that update some of their arguments in place as a side effect: each with
# the (position, keyword) of those arguments, and the flag (position, keyword, default) that
# turns the update on. `F.batch_norm(x, mean, var, training=True)` updates the running
# statistics, `F.embedding(ids, table, max_norm=1.0)` renormalises the table's rows.
_STATE_UPDATES: dict[str, tuple[tuple[tuple[int, str], ...], tuple[int, str, bool]]] = {
    "torch.nn.functional.batch_norm": (((1, "running_mean"), (2, "running_var")), (5, "training", False)),
    "torch.nn.functional.instance_norm": (((1, "running_mean"), (2, "running_var")), (5, "use_input_stats", True)),
    "torch.batch_norm": (((3, "running_mean"), (4, "running_var")), (5, "training", False)),
    "torch.nn.functional.embedding": (((1, "weight"),), (3, "max_norm", False)),
    "torch.nn.functional.embedding_bag": (((1, "weight"),), (3, "max_norm", False)),
}


def library_changed_arguments(facts: Facts, call: cst.Call) -> list[cst.BaseExpression]:
    """The arguments a torch/NumPy function changes in place: the first of an in-place
    function (`torch.nn.init.constant_(w[:1], 0)`, `torch.relu_(h)`, `torch.Tensor.add_(t, 1)`:
    they end in `_`; `F.relu(h, inplace=True)`), the running statistics `F.batch_norm` updates
    when training, the table `F.embedding` renormalises with `max_norm`."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if not positional:
        return []
    qualified = facts.qualified_name(call.func) or ""
    if not qualified.startswith(("torch.", "numpy.")):
        return []
    if qualified in _STATE_UPDATES:
        changed, (flag_at, flag, default) = _STATE_UPDATES[qualified]
        value = keyword(call, flag) or (positional[flag_at] if flag_at < len(positional) else None)
        if value is None and not default or isinstance(value, cst.Name) and value.value in ("False", "None"):
            return []
        return [v for at, kw in changed for v in [keyword(call, kw) or (positional[at] if at < len(positional) else None)]
                if v is not None]
    inplace = any(a.keyword is not None and a.keyword.value == "inplace"
                  and not (isinstance(a.value, cst.Name) and a.value.value == "False") for a in call.args)
    if inplace or is_inplace_method(_op_name(qualified)):
        return [positional[0]]
    return torch_changed_arguments(qualified, call) if qualified.startswith("torch.") else []


def _op_name(qualified: str) -> str:
    """The function's own name: the last part, or for an operator overload of `torch.ops` the
    operator's (`add_` of `torch.ops.aten.add_.Tensor`, which is in place like `torch.ops.aten.add_`)."""
    parts = qualified.split(".")
    return parts[3] if parts[:2] == ["torch", "ops"] and len(parts) > 4 else parts[-1]


def _library_changed_names(facts: Facts, call: cst.Call) -> list[str]:
    """The names whose objects a torch/NumPy function changes through its arguments (see
    `library_changed_arguments`). A method call (`t.add_(x)`) changes its receiver, which
    `mutated_names` already records."""
    roots = [root_name(a) for a in library_changed_arguments(facts, call)]
    return [r for r in roots if r is not None and r not in facts.aliases]  # `torch.relu_(torch.ones(2))`: a module


def within(facts: Facts, node: cst.CSTNode, scope: cst.CSTNode) -> bool:
    return facts.contains(scope, node)


def reads_of(facts: Facts, name: str, scope: cst.CSTNode | None = None) -> list[cst.Name]:
    """Every `Name` node spelled `name` (in `scope`, if given), targets included."""
    nodes = unit_index(facts).names.get(name, [])
    return nodes if scope is None or scope is facts.module else [n for n in nodes if within(facts, n, scope)]


def mutated_in_place(facts: Facts, name: str, scope: cst.CSTNode) -> bool:
    """True if `scope` changes the object `name` holds without rebinding the name.

    `name += ...` (in place for tensors, arrays and lists), `name[i] = ...`, `name.attr = ...`,
    `name.add_(...)`, `name.append(...)`, and `out=name`.
    """
    return any(within(facts, site, scope) for site in unit_index(facts).mutations.get(name, ()))


# Activations and dropouts whose only boolean argument is `inplace` (`nn.ReLU(True)`, `nn.Dropout(0.5, True)`).
_INPLACE_FLAGGED = frozenset({"ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "Hardtanh", "Threshold", "RReLU",
                              "SiLU", "Mish", "Hardswish", "Hardsigmoid", "Dropout", "Dropout1d", "Dropout2d",
                              "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"})


# Registrations of hooks that get a module's forward inputs (a pre-hook may change them in place
# before the first layer, a forward hook after), on one module or on every module.
FORWARD_HOOKS = frozenset({"register_forward_hook", "register_forward_pre_hook"})
GLOBAL_FORWARD_HOOKS = frozenset({"torch.nn.modules.module.register_module_forward_hook",
                                  "torch.nn.modules.module.register_module_forward_pre_hook"})


def earlier_cells(facts: Facts) -> tuple[Facts, ...]:
    """Every earlier cell of the notebook, those that define nothing included: a cell that only runs
    `torch.set_default_dtype(torch.float64)` or `torch.stack = f` changes what later cells' code
    does, yet `prior.units()` lists only cells that define a name (red team 46 probe)."""
    return tuple({id(u): u for u in (*facts.prior.cells, *facts.prior.units())}.values())


def local_units(facts: Facts, depth: int = 0, seen: set[str] | None = None) -> Iterator[tuple[str, Facts]]:
    """The local modules the unit imports, directly or through another (3 deep), each once with
    its name; none when the unit was read without its local modules."""
    if facts.imports is None or depth > 2:
        return
    seen = set() if seen is None else seen
    for target in facts.aliases.values():
        module, name = facts.imports.module(target), target
        if module is None and "." in target:
            name = target.rsplit(".", 1)[0]
            module = facts.imports.module(name)
        if module is None or name in seen:
            continue
        seen.add(name)
        yield name, module
        yield from local_units(module, depth + 1, seen)


def program_modules(facts: Facts, cells: tuple[Facts, ...]) -> tuple[Facts, ...]:
    """The local modules imported by the unit or by any of `cells` (its earlier or later cells),
    each once. A notebook imports its settings module in cell 0 and uses it in cell 1: what that
    module does at import (`torch.set_default_dtype(torch.float64)`) holds for cell 1 too, though
    cell 1 imports nothing (red team 51 probe: float32 rebuilt where float64 was)."""
    found: dict[str, Facts] = {}
    for unit in (facts, *cells):
        for name, module in local_units(unit):
            found.setdefault(name, module)
    return tuple(found.values())


def hook_registered_out_of_name(unit: Facts, methods: frozenset[str]) -> str:
    """The code of a registration of one of the hook `methods` (or of any hook) that is not a
    plain call of it: the method taken as a value (`registrar = m.register_forward_pre_hook`),
    looked up by a string mentioning a hook (`getattr(m, "register_forward_" + "pre_hook")`), or
    a module's hook dict written directly (`m._forward_pre_hooks[k] = fn`); '' if none."""
    for node in unit.walk(unit.module):
        if isinstance(node, cst.Attribute) and (node.attr.value in methods and not (
                isinstance(call := unit.parent(node), cst.Call) and call.func is node)
                or node.attr.value in _HOOK_DICTS):
            return unit.code(node)
        if isinstance(node, cst.Call) and (unit.qualified_name(node.func) or "") == "builtins.getattr" \
                and len(node.args) >= 2 and any(isinstance(s, cst.SimpleString) and "hook" in s.value
                                                for s in unit.walk(node.args[1].value)):
            return unit.code(node)
    return ""


# A module's hook tables: writing an entry registers a hook without any `register_*` call.
_HOOK_DICTS = frozenset({"_forward_hooks", "_forward_pre_hooks", "_forward_hooks_with_kwargs",
                         "_forward_pre_hooks_with_kwargs", "_backward_hooks", "_backward_pre_hooks"})


# Imports by a name computed at run time (red team 44: a plugin list run through `import_module`
# installed a global module hook). A literal name is read like an `import` of it: a local module's
# code is searched, a library is trusted as a static import of it is.
_DYNAMIC_IMPORTS = frozenset({"importlib.import_module", "importlib.__import__", "builtins.__import__",
                              "runpy.run_module"})
# Code run from a file or a loader: never read here.
_FILE_RUNS = frozenset({"runpy.run_path", "importlib.util.spec_from_file_location",
                        "importlib.machinery.SourceFileLoader", "importlib.util.spec_from_loader"})


def _literal_name(call: cst.Call) -> str | None:
    """The module a dynamic import's first argument names when it is a plain string literal."""
    if not call.args or call.args[0].keyword is not None:
        return None
    value = call.args[0].value
    if isinstance(value, cst.SimpleString) and not value.prefix.lower().startswith(("f", "b")):
        name = value.evaluated_value
        return name if isinstance(name, str) else None
    return None


def hook_code_out_of_reach(units: "Iterable[Facts]", registers: "Callable[[list[Facts]], str]") -> str:
    """Why code the analysis does not follow may register a module hook ('' if none): one of `units`
    imports a module by a name known only at run time (a plugin list through `importlib.import_module`,
    `__import__` of a variable), runs a file (`runpy.run_path`, a loader's `exec_module`), or imports
    a local module by a literal name whose code (or a local module it imports) `registers` a hook.
    The analysis follows `import` statements only; `registers` says what a unit list registers."""
    units = list(units)
    # a cell of magics alone defines nothing, so only `prior.cells` lists it
    with_cells = {id(c): c for facts in units for c in (*facts.prior.cells, facts)}
    for facts in with_cells.values():
        for line in facts.magics:
            found = _magic_out_of_reach(facts, line, registers)
            if found:
                return found
    for facts in units:
        for call in facts.calls_in(facts.module):
            qualified = facts.qualified_name(call.func) or ""
            if qualified in _FILE_RUNS or (isinstance(call.func, cst.Attribute) and call.func.attr.value == "exec_module"):
                return (f"`{facts.code(call.func)}(...)` runs code the analysis does not read: it may register a "
                        "module hook")
            if qualified not in _DYNAMIC_IMPORTS:
                continue
            name = _literal_name(call)
            if name is None or name.startswith("."):
                return (f"`{facts.code(call.func)}(...)` imports a module by a name known only at run time: its "
                        "code may register a module hook")
            module = facts.imports.module(name) if facts.imports is not None and name != "__main__" else None
            if module is not None and registers([module, *(m for _, m in local_units(module))]):
                return f"`{facts.code(call.func)}({name!r})` imports a local module that registers a module hook"
    return ""


def _magic_out_of_reach(facts: Facts, line: str, registers: "Callable[[list[Facts]], str]") -> str:
    """Why an IPython line of a cell may register a module hook ('' if it cannot): `%run FILE` runs a
    file (read when it is a local module next to the notebook, else never), `%run -m NAME` and
    `%load_ext NAME` / `%reload_ext NAME` import a module by its literal name (a local one is read,
    a library is trusted as an `import` of it is)."""
    words = line.strip().lstrip("%").split()
    if not words or words[0] not in ("run", "load_ext", "reload_ext"):
        return ""
    args = words[1:]
    if words[0] == "run":
        if "-m" in args:
            name = args[args.index("-m") + 1] if args.index("-m") + 1 < len(args) else None
        else:
            path = next((a for a in args if not a.startswith("-")), "")
            name = path[:-3] if path.endswith(".py") and "/" not in path and "\\" not in path else None
            if name is None or facts.imports is None or facts.imports.module(name) is None:
                return f"`{line.strip()}` runs a file the analysis does not read: it may register a module hook"
    else:
        name = args[0] if args else None
    if name is None:
        return f"`{line.strip()}` runs code the analysis does not read: it may register a module hook"
    module = facts.imports.module(name) if facts.imports is not None else None
    if module is not None and registers([module, *(m for _, m in local_units(module))]):
        return f"`{line.strip()}` runs a local module that registers a module hook"
    return ""


def _forward_hook_calls(units: "Iterable[Facts]") -> str:
    """The code of a call registering a forward (pre-)hook, on one module or on all, in `units`."""
    return next((unit.code(call.func) for unit in units for call in unit.calls_in(unit.module)
                 if isinstance(call.func, cst.Attribute) and call.func.attr.value in FORWARD_HOOKS
                 or (unit.qualified_name(call.func) or "") in GLOBAL_FORWARD_HOOKS), "") \
        or next((code for unit in units if (code := hook_registered_out_of_name(unit, FORWARD_HOOKS))), "")


def forward_hook_registered(facts: Facts) -> str:
    """The code of a call registering a forward (pre-)hook in this unit, an earlier cell or a
    local module it imports ('' if none): whatever module it hooks (a model's first layer gets
    the model's input), the hook may change the module's input in place on every call."""
    index = unit_index(facts)
    if index.forward_hook is None:
        units = [facts, *facts.prior.units(), *(m for _, m in local_units(facts))]
        index.forward_hook = _forward_hook_calls(units) or hook_code_out_of_reach(units, _forward_hook_calls)
    return index.forward_hook


def module_changes_input(facts: Facts, module: cst.BaseExpression) -> bool:
    """Calling `module` may change its input in place: it is built with `inplace=True` (or
    `nn.ReLU(True)`), is an `nn.Sequential` that starts with such a module, is an instance of
    a class of the program whose `forward` or `__call__` changes its first input in place (or
    hands it to code that does), is built out of sight, or the program registers forward hooks
    (`forward_hook_registered`)."""
    if forward_hook_registered(facts):
        return True
    values: list[cst.BaseExpression] = []
    if isinstance(module, cst.Name):
        value = assigned_value(facts, module)
        values = [value] if value is not None else []
    elif isinstance(module, cst.Attribute) and isinstance(module.value, cst.Name) and module.value.value == "self":
        values = facts.self_assigned_values(module.attr.value)
    if not values:
        return True  # built out of sight (`a, b = Net(), Net()`, a parameter): what its code does is unknown
    return any(isinstance(v, cst.Call) and _built_in_place(facts, v) for v in values)


def _built_in_place(facts: Facts, call: cst.Call, depth: int = 0) -> bool:
    qualified = facts.qualified_name(call.func) or ""
    for arg in call.args:
        flag = arg.value
        on = not (isinstance(flag, cst.Name) and flag.value in ("False", "None"))
        if arg.keyword is not None and arg.keyword.value == "inplace" and on:
            return True
        if arg.keyword is None and qualified.rsplit(".", 1)[-1] in _INPLACE_FLAGGED and qualified.startswith("torch.nn.") \
                and isinstance(flag, cst.Name) and flag.value == "True":
            return True  # `nn.ReLU(True)`: the only boolean an activation or dropout takes is `inplace`
    if qualified == "torch.nn.Sequential" and call.args and isinstance(call.args[0].value, cst.Call) and depth < 3:
        return _built_in_place(facts, call.args[0].value, depth + 1)
    found = facts.class_named(call.func)
    if found is None or depth >= 3:
        return False
    owner, cls = found
    for method in cls.body.body:  # `forward`, or a `__call__` that runs before it
        params = method.params.params if isinstance(method, cst.FunctionDef) and method.name.value in ("forward", "__call__") else ()
        if len(params) > 1 and (mutated_in_place(owner, params[1].name.value, method.body)  # type: ignore[union-attr]
                                or handed_to_changing_call(owner, params[1].name.value, method.body)):  # type: ignore[union-attr]
            return True  # (`self._prep(x)` with a `_prep` that changes its argument)
    return False


# Views whose strides may not be those of a fresh contiguous tensor of the same shape.
_STRIDED_VIEWS = frozenset({"t", "T", "mT", "mH", "H", "transpose", "permute", "expand", "expand_as", "narrow",
                            "unfold", "diagonal", "movedim", "moveaxis", "swapaxes", "swapdims", "as_strided",
                            "real", "imag", "broadcast_to", "broadcast_tensors"})


def may_be_strided(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """`expr` is, or is bound from, a view that may not be contiguous: an index of more than one
    dimension (`t[:, 1]`, `t[..., 0]`), a stepped slice, a transpose, an expansion, a
    `memory_format=` conversion."""
    if depth > 4:
        return False
    for node in facts.walk(expr):
        if isinstance(node, cst.Subscript) and (len(node.slice) > 1 or _stepped(node.slice[0].slice)):
            return True  # (`t[2:5]` and `t[i]` of the first dimension stay contiguous)
        if isinstance(node, cst.Attribute) and node.attr.value in _STRIDED_VIEWS:
            return True
        if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == "memory_format":
            return True
        if isinstance(node, cst.Call) and _cut_along_later_dim(facts, node):
            return True
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in facts.functions \
                and any(may_be_strided(facts, r.value, depth + 1) for r in facts.walk(facts.functions[node.func.value].body)
                        if isinstance(r, cst.Return) and r.value is not None):
            return True  # `heads(qkv)[1]` for `def heads(t): return t.chunk(3, -1)`
        parent = facts.parent(node)
        if isinstance(node, cst.Name) and not (isinstance(parent, cst.Attribute) and parent.attr is node):
            value = assigned_value(facts, node)
            if value is not None and may_be_strided(facts, value, depth + 1):
                return True
            if value is None and any(may_be_strided(facts, arg, depth + 1) for arg in passed_for(facts, node, every_call=False) or ()):
                return True  # `snapshot(weight.t())` for `def snapshot(t)`
    return False


# Factories whose result is a fresh row-major tensor (not `*_like`: those keep their argument's strides).
_ROW_MAJOR_FACTORIES = frozenset({"torch.randn", "torch.rand", "torch.randint", "torch.randperm", "torch.zeros",
                                  "torch.ones", "torch.full", "torch.empty", "torch.tensor", "torch.arange",
                                  "torch.linspace", "torch.eye"})


def proved_row_major(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """`expr` is bound from a torch factory given no layout of its own and never changed in place,
    through `.cpu()`/`.detach()`/`.clone()`: rebuilding it from a list keeps its strides."""
    while isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) \
            and expr.func.attr.value in ("cpu", "detach", "clone"):
        expr = expr.func.value
    if isinstance(expr, cst.Name):
        if depth > 4 or unit_index(facts).mutations.get(expr.value):
            return False  # (`x.t_()`, `x.resize_(...)` change strides in place)
        value = assigned_value(facts, expr)
        return value is not None and proved_row_major(facts, value, depth + 1)
    return isinstance(expr, cst.Call) and facts.qualified_name(expr.func) in _ROW_MAJOR_FACTORIES \
        and not any(a.keyword is not None and a.keyword.value in ("layout", "memory_format", "out") for a in expr.args)


# Cuts of a tensor, with the position of their `dim` argument (after the tensor): pieces cut
# along any dimension but the first are strided views (`qkv.chunk(3, dim=1)[0]`).
_CUT_DIM_POSITION = {"chunk": 1, "split": 1, "tensor_split": 1, "split_with_sizes": 1, "unbind": 0, "select": 0}


def _cut_along_later_dim(facts: Facts, call: cst.Call) -> bool:
    """`call` cuts a tensor into pieces along a dimension that may not be the first:
    `torch.chunk(t, 3, dim=1)`, `t.split(4, 1)`, `t.unbind(1)`, `t.select(2, 0)`,
    `torch.hsplit`/`dsplit` (columns, depth); `dim` not a literal 0 counts as later."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else ""
    if name in ("hsplit", "dsplit"):
        return True
    if name not in _CUT_DIM_POSITION:
        return False
    qualified = facts.qualified_name(func) or ""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if qualified.startswith("torch.") and qualified.count(".") == 1:
        positional = positional[1:]  # `torch.chunk(t, ...)`: the tensor is the first argument
    dim = keyword(call, "dim")
    if dim is None and len(positional) > _CUT_DIM_POSITION[name]:
        dim = positional[_CUT_DIM_POSITION[name]]
    return dim is not None and not (isinstance(dim, cst.Integer) and dim.value == "0")




def _stepped(part: cst.BaseSlice) -> bool:
    return isinstance(part, cst.Slice) and part.step is not None


def shared_end(facts: Facts, value: cst.CSTNode, fresh: Callable[[cst.Call], bool] | None = None) -> cst.CSTNode:
    """The outermost expression around `value` that may still be `value`'s object or share its
    memory: `value[0]`, `value.T`, `value.view(-1)`, `value.type_as(x)` (itself when the dtype
    and device already match), `torch.as_tensor(value)`; `value` itself when none."""
    return shared_path(facts, value, fresh)[-1]


def shared_path(facts: Facts, value: cst.CSTNode, fresh: Callable[[cst.Call], bool] | None = None) -> list[cst.CSTNode]:
    """`value` and each expression around it up to `shared_end`, innermost first (a call on the
    way may change what it is handed: `F.relu(value, inplace=True)`). A call `fresh` accepts is
    read as returning new memory (a what-if a rule asks: `redundant-tensor`'s loss modules)."""
    path = [value]
    parent = facts.parent(value)
    while parent is not None and (
            (isinstance(parent, (cst.Subscript, cst.Attribute)) and parent.value is value)
            or (isinstance(parent, cst.Call) and value is parent.func and isinstance(value, cst.Attribute)
                and (facts.method_may_share(value) or told_not_to_copy(parent)
                     or outside_calls.may_return_receiver(facts, parent)))
            or (isinstance(parent, cst.Arg) and isinstance(facts.parent(parent), cst.Call)
                and _result_may_share_argument(facts, facts.parent(parent), parent)  # type: ignore[arg-type]
                and not (fresh is not None and fresh(facts.parent(parent))))):  # type: ignore[arg-type]
        value, parent = (facts.parent(parent), facts.parent(facts.parent(parent))) if isinstance(parent, cst.Arg) \
            else (parent, facts.parent(parent))
        path.append(value)
    return path


def _result_may_share_argument(facts: Facts, call: cst.Call, arg: cst.Arg) -> bool:
    """`call`'s result may be `arg`'s object or a view of it: any argument of a torch/NumPy call not
    known to be fresh (`fresh_calls`); the first of a listed other call (`iter`, `memoryview`) or of
    any call told not to copy."""
    qualified = facts.qualified_name(call.func) or ""
    if library_call(qualified) and qualified.endswith("Tensor") and facts.kind(arg.value) in (Kind.LIST, Kind.NUMBER):
        return False  # a legacy constructor (`torch.LongTensor(rows[a:b])`) copies a Python sequence
    if library_call(qualified):
        return library_result_may_share(qualified, call)
    if bool(call.args) and call.args[0] is arg and (qualified in SHARING_CALLS or told_not_to_copy(call)):
        return True
    return outside_calls.may_return_argument(facts, call, arg)  # `helper(t)`, `list(t)`: unless known fresh


def aliases(facts: Facts, name: str, scope: cst.CSTNode, fresh: Callable[[cst.Call], bool] | None = None) -> set[str]:
    """`name` and the names bound in `scope` to its object or to memory it shares (`v = name`,
    `v = name[0]`, `v = name.view(-1)`, `v = torch.as_tensor(name)`, `for v in name`, `with
    np.nditer(name) as v`), or to a
    container literal holding it (`d = {"t": name}`, `for v in [name]`): an in-place change
    through any of them is a change of `name`'s object."""
    names: set[str] = {name}
    work: list[tuple[str, cst.CSTNode]] = [(name, scope)]
    seen = {(name, id(scope))}
    while work:
        current, where = work.pop()
        for use in reads_of(facts, current, where):
            value = shared_end(facts, use, fresh)
            holder = _holding_expression(facts, value)
            while holder is not None:  # `holder = {"t": name}`, `for v in [name]`: the container holds it;
                value = shared_end(facts, holder, fresh)  # `zip(*[(r, 0) for r in t])`: so do the tuples it gives
                holder = _holding_expression(facts, value)
            parent = facts.parent(value)
            targets: list[cst.CSTNode] = []
            if isinstance(parent, cst.Assign) and parent.value is value:
                targets = [t.target for t in parent.targets]
            elif isinstance(parent, cst.NamedExpr) and parent.value is value:
                targets = [parent.target]
            elif isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is value:
                targets = [parent.target]
            elif isinstance(parent, cst.WithItem) and parent.item is value and parent.asname is not None:
                targets = [parent.asname.name]  # `with np.nditer(a, ...) as it`: `__enter__` returns the view
            # a comprehension's target is read only inside it (another `for r in ...` is another `r`)
            inside = _comprehension_of(facts, parent) if isinstance(parent, cst.CompFor) else scope
            for bound in {n for t in targets for n in bound_names(t)}:
                if (bound, id(inside)) not in seen:
                    seen.add((bound, id(inside)))
                    names.add(bound)
                    work.append((bound, inside))
    return names


def _comprehension_of(facts: Facts, comp_for: cst.CSTNode) -> cst.CSTNode:
    node = comp_for
    while isinstance(node, cst.CompFor):
        node = facts.parent(node)
    return node


def _holding_expression(facts: Facts, value: cst.CSTNode) -> cst.CSTNode | None:
    """The container literal or comprehension that holds `value` as an element (`[value]`,
    `{"k": value}`, `[(r, 0) for r in t]` holding each `(r, 0)`), or None."""
    parent = facts.parent(value)
    if isinstance(parent, (cst.Element, cst.DictElement)) and parent.value is value \
            and isinstance(facts.parent(parent), (cst.List, cst.Tuple, cst.Set, cst.Dict)):
        return facts.parent(parent)
    if isinstance(parent, (cst.ListComp, cst.SetComp, cst.GeneratorExp)) and parent.elt is value \
            or isinstance(parent, cst.DictComp) and parent.value is value:
        return parent
    return None


def changed_in_place(facts: Facts, name: str, scope: cst.CSTNode) -> bool:
    """`scope` changes `name`'s object in place, by that name or through an alias or view."""
    return any(mutated_in_place(facts, n, scope) for n in aliases(facts, name, scope))


def changed_after_unit(facts: Facts, name: str, scope: cst.CSTNode) -> bool:
    """`name`, bound at a notebook cell's top level (`scope` is the module), is changed in place
    by a later cell of the notebook (`pseudo.add_(1)` two cells down, `sharpen(pseudo)` with a
    `sharpen` that changes its argument), through any alias there."""
    return scope is facts.module and any(changed_in_place(later, name, later.module)
                                         or handed_to_changing_call(later, name, later.module) for later in facts.later)


def handed_to_changing_call(facts: Facts, name: str, scope: cst.CSTNode) -> bool:
    """`name`'s object (or an alias's) is handed, directly or in a container literal, to a call
    that may change it: a function (of any cell or local module) that changes that parameter in
    place, an in-place torch/NumPy function, a module built in place, or a callable the analysis
    cannot see (its effects unknown)."""
    for alias in aliases(facts, name, scope):
        for use in reads_of(facts, alias, scope):
            node: cst.CSTNode = use
            parent = facts.parent(node)
            while isinstance(parent, (cst.Element, cst.List, cst.Tuple, cst.Set)):
                node, parent = parent, facts.parent(parent)
            call = facts.parent(parent) if isinstance(parent, cst.Arg) else None
            if isinstance(call, cst.Call) and isinstance(parent, cst.Arg) and _call_may_change(facts, call, parent):
                return True
    return False


def _call_may_change(facts: Facts, call: cst.Call, arg: cst.Arg) -> bool:
    callees = facts._callees(call)
    if callees:
        for callee in callees:
            params = positional_params(callee)
            if params[:1] == ["self"] and isinstance(call.func, cst.Attribute):
                params = params[1:]
            param = parameter_filled(call, arg, params)
            if param is None or mutated_in_place(facts.owner_of(callee), param, callee.body):
                return True
        return False
    qualified = facts.qualified_name(call.func) or ""
    if qualified.startswith("torch.optim."):
        return True  # an optimizer keeps the tensors it is given: its `step()` changes them in place
    if qualified.startswith(("torch.", "numpy.")):
        return any(a is arg.value for a in library_changed_arguments(facts, call))
    if qualified.startswith(("builtins.", "math.")):
        return False
    if facts.kind(call.func) is Kind.MODULE:
        return module_changes_input(facts, call.func)
    return not (isinstance(call.func, cst.Attribute) and facts.kind(call.func.value) is Kind.TENSOR)


def only_read(facts: Facts, name: str, scope: cst.CSTNode) -> bool:
    """Every use of `name` in `scope` reads the value where it stands and keeps no reference
    to it: an operand of arithmetic or a comparison, the receiver of a tensor method that is
    neither in place nor a view, an argument of a module or of a torch/NumPy function with no
    `out=`/`inplace=`. A view bound to such a name cannot be changed through another name (an
    alias, a container it was stored in, a function it was handed to)."""
    for use in reads_of(facts, name, scope):
        parent = facts.parent(use)
        if is_binding(facts, use) and not (isinstance(parent, cst.AssignTarget)):
            return False  # `name += ...`, `del name`, a loop or `with` target
        if isinstance(parent, cst.AssignTarget):
            continue  # rebinding the name changes no object
        if isinstance(parent, (cst.BinaryOperation, cst.Comparison, cst.ComparisonTarget, cst.UnaryOperation)):
            continue
        if isinstance(parent, cst.Attribute) and parent.value is use:
            call = facts.parent(parent)
            method = parent.attr.value
            if isinstance(call, cst.Call) and call.func is parent and not is_inplace_method(method) \
                    and not facts.method_may_share(parent) and not any(mutated_arguments(call)) and not told_not_to_copy(call):
                continue
            return False
        if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
            call = facts.parent(parent)
            if isinstance(call, cst.Call) and not any(mutated_arguments(call)) and not told_not_to_copy(call) \
                    and not any(a.keyword is not None and a.keyword.value in ("out", "inplace") for a in call.args):
                qualified = facts.qualified_name(call.func) or ""
                last = qualified.rsplit(".", 1)[-1]
                if facts.kind(call.func) is Kind.MODULE or (
                        fresh_call(qualified, no_out(call)) and not is_inplace_method(last)):
                    continue
                if library_call(qualified) and not is_inplace_method(last) and no_out(call) \
                        and facts.kind(use) in (Kind.LIST, Kind.DICT, Kind.NUMBER):
                    continue  # `torch.LongTensor(rows)`: a tensor made of a Python list copies it
        return False
    return True


def changes_no_tensor(facts: Facts, loop_node: cst.For) -> bool:
    """The loop body changes no tensor in place, whatever name it reaches it by (a view of
    the record source, or the tensor it is a view of): no in-place method or `out=`, no
    `+=` but on numbers, item assignments only into lists and dicts, and no call the
    analysis cannot see into (this unit's pure functions are followed, by the same test)."""
    return _body_changes_no_tensor(facts, loop_node.body, 0)


def _body_changes_no_tensor(facts: Facts, body: cst.CSTNode, depth: int) -> bool:
    containers = (Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST)
    for node in facts.walk(body):
        if isinstance(node, cst.AugAssign):
            if not (isinstance(node.target, cst.Name) and facts.kind(node.target) is Kind.NUMBER):
                return False
        elif isinstance(node, cst.AssignTarget):
            targets = [e.value for e in node.target.elements] if isinstance(node.target, (cst.Tuple, cst.List)) else [node.target]
            for target in targets:
                if isinstance(target, (cst.Subscript, cst.Attribute)) and facts.kind(target.value) not in containers:
                    return False
        elif isinstance(node, cst.Call) and not _leaves_tensors(facts, node, containers, depth):
            return False
    return True


def _leaves_tensors(facts: Facts, call: cst.Call, containers: tuple[Kind, ...], depth: int) -> bool:
    if any(mutated_arguments(call)) or any(a.keyword is not None and a.keyword.value == "inplace" for a in call.args):
        return False
    func = call.func
    if isinstance(func, cst.Attribute) and is_inplace_method(func.attr.value):
        return facts.kind(func.value) in containers and func.attr.value in ("append", "extend", "insert", "pop")
    qualified = facts.qualified_name(func) or ""
    if qualified.startswith(("torch.", "numpy.", "math.")) or qualified in _PURE_CALLS:
        return True
    if isinstance(func, cst.Attribute) and facts.kind(func.value) is Kind.TENSOR:
        return True  # a tensor method that is not in place returns a new tensor
    if isinstance(func, cst.Name) and func.value in facts.functions and depth < 3:
        return facts.is_pure_function(func.value) \
            and _body_changes_no_tensor(facts, facts.functions[func.value].body, depth + 1)
    return False


def caught_in_loop(facts: Facts, node: cst.CSTNode, loop_node: cst.CSTNode) -> bool:
    """`node` runs in the body of a `try` (inside `loop_node`) that has handlers: an error it
    raises is caught there, and would not be if it were moved before the loop."""
    child = node
    for anc in facts.ancestors(node):
        if anc is loop_node:
            return False
        if isinstance(anc, (cst.Try, cst.TryStar)) and anc.handlers and child is anc.body:
            return True
        child = anc
    return False


def exits_before(facts: Facts, node: cst.CSTNode, loop_node: cst.CSTNode) -> bool:
    """A statement before `node` in `loop_node`'s body (at any depth of the blocks around it) may
    leave the iteration: a `break`, `continue`, `return` or `raise` (`if done: break`, then
    `inv = np.linalg.inv(cov)`). The first iteration may never reach `node`: moved before the loop
    it would run (and could raise) where it never ran."""
    for anc in (node, *facts.ancestors(node)):
        if anc is loop_node:
            return False
        block = facts.parent(anc)
        if not isinstance(block, cst.IndentedBlock) or not isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            continue
        body = list(block.body)
        for earlier in body[:body.index(anc)]:
            for n in facts.walk(earlier):
                if isinstance(n, (cst.Return, cst.Raise)) and not _in_scope_below(facts, n, earlier) \
                        or isinstance(n, (cst.Break, cst.Continue)) and not _in_loop_below(facts, n, earlier):
                    return True
    return False


def _in_scope_below(facts: Facts, node: cst.CSTNode, top: cst.CSTNode) -> bool:
    return any(isinstance(a, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) for a in _between(facts, node, top))


def _in_loop_below(facts: Facts, node: cst.CSTNode, top: cst.CSTNode) -> bool:
    return any(isinstance(a, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef)) for a in _between(facts, node, top))


def _between(facts: Facts, node: cst.CSTNode, top: cst.CSTNode) -> list[cst.CSTNode]:
    """The ancestors of `node` up to and including `top`."""
    out = []
    for anc in facts.ancestors(node):
        out.append(anc)
        if anc is top:
            break
    return out


def steps_itself_per_call(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` is in a function that runs a training or evaluation loop of its own
    (`evaluate(model, loader)`, a sampler's 400-step loop), outside that loop: it runs once per
    call, and each call runs a whole loop of steps, so it costs nothing worth moving per step.
    A module's `forward` looping over its layers is not such a function: it is the step."""
    func = facts.enclosing_function(node)
    if func is None or func.name.value in ("forward", "__call__") \
            or any(loop.function is func for loop in facts.enclosing_loops(node)):
        return False
    return any(loop.function is func and loop.kind in ("train", "eval") for loop in facts.loops)


def rarely_runs(facts: Facts, node: cst.CSTNode, loop: Loop, every_few_count: bool = False) -> bool:
    """Under an `if` inside `loop` whose test uses `%` (logging every N steps, say), or in a
    statement after which its block always leaves `loop` (`shard = make(x); break`): it runs at
    most once per run of the loop, so nothing is repeated per iteration. With `every_few_count`,
    a test `% k` by a literal below 10 (TD3's `if t % 2 == 0:` policy update) is not rare: it
    runs on every k-th iteration, a share of the steps that still pays the cost each time."""
    for anc in facts.ancestors(node):
        if anc is loop.node:
            return False
        if isinstance(anc, cst.If) and any(
            isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Modulo)
            and not (every_few_count and _small_literal(n.right)) for n in facts.walk(anc.test)
        ):
            return True
        if isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and _leaves_after(facts, anc, loop):
            return True
    return False


def _small_literal(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Integer) and expr.evaluated_value < 10


def _leaves_after(facts: Facts, stmt: cst.CSTNode, loop: Loop) -> bool:
    """The statements after `stmt` in its block reach a `break` of `loop` (itself in no other loop
    of its scope: the outer one would run it again), a `return` or a `raise` unconditionally: no
    `continue` on the way, no loop between the block and `loop` (a `break` there leaves only the
    inner loop), no `try` that could catch and carry on."""
    block = facts.parent(stmt)
    if not isinstance(block, cst.IndentedBlock):
        return False
    for anc in facts.ancestors(block):
        if anc is loop.node:
            break
        if isinstance(anc, (cst.For, cst.While, cst.Try, cst.TryStar, cst.FunctionDef, cst.Lambda)):
            return False
    else:
        return False
    after = list(block.body)[list(block.body).index(stmt) + 1:]  # type: ignore[arg-type]
    for later in after:
        if any(isinstance(n, cst.Continue) for n in facts.walk(later)):
            return False
        if isinstance(later, cst.SimpleStatementLine):
            if any(isinstance(small, (cst.Return, cst.Raise)) for small in later.body):
                return True
            if any(isinstance(small, cst.Break) for small in later.body):
                return not _in_outer_loop(facts, loop.node)
    return False


def _in_outer_loop(facts: Facts, node: cst.CSTNode) -> bool:
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(anc, (cst.For, cst.While)):
            return True
    return False


def over_tensor_elements(facts: Facts, loop: cst.CSTNode) -> bool:
    """`for x in t`, `for p, y in zip(preds, ys)`, `for i, x in enumerate(t)`: one Python
    iteration per element of a tensor's first dimension (a DataLoader's batches are not)."""
    if not isinstance(loop, cst.For):
        return False
    it = loop.iter
    if facts.kind(it) is Kind.TENSOR:
        return True
    return isinstance(it, cst.Call) and facts.qualified_name(it.func) in ("builtins.zip", "builtins.enumerate") \
        and any(a.keyword is None and not a.star and facts.kind(a.value) is Kind.TENSOR for a in it.args)


def locally_bound(facts: Facts, node: cst.CSTNode) -> set[str]:
    """Names bound by comprehensions and lambdas around `node` (inside its statement)."""
    bound: set[str] = set()
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            break
        if isinstance(anc, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            comp: cst.CompFor | None = anc.for_in
            while comp is not None:
                bound |= set(bound_names(comp.target))
                comp = comp.inner_for_in
        elif isinstance(anc, cst.Lambda):
            bound |= {p.name.value for p in anc.params.params}
    return bound


def invariant(facts: Facts, expr: cst.BaseExpression, loop: Loop, given: frozenset[str] = frozenset()) -> bool:
    """`facts.is_invariant`, also refusing names a surrounding comprehension binds, code in a
    lambda (it runs when called, maybe after the loop) and calls of this unit's functions
    that read a global the loop changes. A top-level lambda the loop calls (`mse2psnr(loss)`)
    runs once per call: what it builds from neither its arguments nor varying names is invariant."""
    if not facts.is_invariant(expr, loop, given) or names_read(expr) & locally_bound(facts, expr) \
            or _rebinds_unseen(facts, loop) or _reads_iterator(facts, expr) or _iterates_random(facts, expr):
        return False
    called_lambda = facts.enclosing_function(expr) is None and not facts.enclosing_loops(expr) \
        and facts.bound_lambda_loop(expr) is loop
    if called_lambda:
        return not _own_state_changed(facts, expr)
    if not facts.enclosing_loops(expr) and facts.enclosing_function(expr) is loop.function:
        return False  # reached through a recursive call: each call has its own arguments
    for anc in facts.ancestors(expr):
        if isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            break
        if isinstance(anc, cst.Lambda):
            return False
    if _inside_context(facts, expr, loop) or _own_state_changed(facts, expr) or defaults_changed(facts, expr, loop) \
            or _module_state_changed(facts, expr, loop) or _runs_object_code(facts, expr, loop) \
            or changed_unseen(facts, expr, loop) or _imported_state_changed(facts, expr, loop) \
            or _changed_by_module_call(facts, expr, loop) \
            or library_state_changed(facts, expr, loop) or _suspended_in_loop(facts, expr, loop) \
            or _converts_program_objects(facts, expr):
        return False
    called = [(facts, c.func.value) for c in facts.calls_in(expr) if isinstance(c.func, cst.Name) and c.func.value in facts.functions]
    for c in facts.calls_in(expr):  # an earlier cell's function reads this cell's globals when called
        earlier = facts._function_at(c.func) if isinstance(c.func, cst.Name) and c.func.value not in facts.functions else None
        owner = facts.owner_of(earlier) if earlier is not None else None
        if owner is not None and owner.functions.get(earlier.name.value) is earlier:  # type: ignore[union-attr]
            called.append((owner, earlier.name.value))  # type: ignore[union-attr]
    if not called:
        return True
    varying = facts.varying_names(expr, loop) - given
    return not any(globals_read(owner, name) & varying for owner, name in called)


# Kinds a library converts without running code of the program.
_CONVERTED_PLAINLY = frozenset({Kind.TENSOR, Kind.NDARRAY, Kind.NUMBER, Kind.FUNCTION, Kind.MODULE_OBJ})


def _converts_program_objects(facts: Facts, expr: cst.BaseExpression) -> bool:
    """A class of the program converts its objects by code that reads module state or does more
    than read (`__index__` answering `CFG["n"]`, `__float__` counting calls), and `expr` hands a
    library call something that may hold such an object: a name of no plain kind, directly, in a
    tuple or list of sizes (`torch.zeros((w, 2))`), starred (`torch.zeros(*dims)`)."""
    if not any(_runs_code(owner, m) or _reads_module_state(owner, m) for owner, m in program_methods(facts, _CONVERSIONS)):
        return False
    for call in facts.calls_in(expr):
        name = facts.qualified_name(call.func) or ""
        if not name or name.startswith("builtins.") and name not in _CONVERTING_BUILTINS \
                or isinstance(call.func, cst.Name) and call.func.value in facts.functions:
            continue
        for arg in call.args:
            for node in facts.walk(arg.value):
                if isinstance(node, (cst.Name, cst.Attribute)) and facts.kind(node) not in _CONVERTED_PLAINLY \
                        and not (isinstance(facts.parent(node), cst.Attribute) and facts.parent(node).attr is node) \
                        and not (facts.qualified_name(node) or "").startswith(("torch.", "numpy.", "math.")) \
                        and not (isinstance(node, cst.Name) and node.value in ("True", "False", "None")):
                    return True
    return False


_CONVERTING_BUILTINS = frozenset({"builtins.int", "builtins.float", "builtins.complex", "builtins.bool", "builtins.round",
                                  "builtins.range", "builtins.list", "builtins.tuple"})


def _suspended_in_loop(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """The loop's body yields (a generator) or awaits: between two iterations the consumer runs
    code the analysis does not see, which may change any global, object or table `expr` reads.
    Only names the generator binds itself (and modules, functions, classes) stay as they were."""
    unit = loop.facts
    if not any(isinstance(n, (cst.Yield, cst.Await)) for n in unit.walk(loop.node.body, into_scopes=False)):
        return False
    func = unit.enclosing_function(loop.node)
    own = (param_names(func) | unit.names_written(func.body)) if func is not None else set()
    free = names_read(expr) - own - _BUILTIN_NAMES
    return any(n not in facts.functions and n not in facts.classes and n not in facts.aliases for n in free) \
        or any(not isinstance(c.func, cst.Name) or c.func.value not in _BUILTIN_NAMES for c in facts.calls_in(expr)
               if (facts.qualified_name(c.func) or "").split(".")[0] not in _CONSTANT_NAMESPACES)


# Libraries whose module attributes a program reads as constants (`torch.float32`, `np.pi`).
_CONSTANT_NAMESPACES = frozenset({"torch", "numpy", "math", "builtins", "typing", "functools", "operator"})


def _imported_state_reads(facts: Facts, expr: cst.BaseExpression) -> set[str]:
    """Imported names whose state `expr` reads, not calls: a module's attribute (`os.environ[k]`,
    `sys.argv`, `state.scale` of a local module) or an object imported by name (`widths` of
    `from state import widths`)."""
    out: set[str] = set()
    for node in facts.walk(expr):
        if not isinstance(node, cst.Name) or node.value not in facts.aliases:
            continue
        parent = facts.parent(node)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            continue
        top: cst.BaseExpression = node
        while isinstance(parent, cst.Attribute) and parent.value is top:
            top, parent = parent, facts.parent(parent)
        if isinstance(parent, cst.Call) and parent.func is top:
            continue  # `os.path.join(...)`, `state.get()`: a call, judged as one
        if facts.aliases[node.value].split(".")[0] in _CONSTANT_NAMESPACES:
            continue
        out.add(node.value)
    return out


def _changed_by_module_call(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """The loop calls a module on a name `expr` reads, and the module may change its input in
    place (`act = nn.ReLU(inplace=True)`, `nn.LeakyReLU(0.1, True)`, a `Sequential` starting with
    one, a program class whose forward does: `module_changes_input`): `act(h)` changes `h`."""
    read = names_read(expr)
    unit = loop.facts
    for call in unit.calls_in(loop.node):
        if not call.args or unit.kind(call.func) is not Kind.MODULE:
            continue
        roots = {r for a in call.args if (r := root_name(a.value)) is not None and not isinstance(a.value, cst.Call)}
        if roots & read and module_changes_input(unit, call.func):
            return True
    return False


def _imported_state_changed(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """`expr` reads state held by an imported module (`float(os.environ["SCALE"])`, `len(sys.argv)`,
    `state.scale`, `widths[-1]` of `from state import widths`) and the loop may change it: it writes
    through the name (`os.environ["SCALE"] = ...`, `sys.argv.append(...)`), runs a function of this
    program that does, or calls into a local module (whose code shares that module's state,
    `hooks.tick()` rebinding `state.scale`). The name-based analysis takes imported names for
    modules no loop changes."""
    reads = _imported_state_reads(facts, expr)
    if not reads:
        return False
    # `Lang.SOS_token` of `from lang import Lang` (`SOS_token = 0` in the class body): only a store to
    # an attribute of that name (or `setattr`) can change it, so a local module's code the loop runs is
    # read for such stores instead of being taken to change it (public check 67).
    constants = _class_constant_attrs(facts, expr, reads)
    unit = loop.facts
    bodies: list[tuple[Facts, cst.CSTNode]] = [(unit, loop.node)]
    seen: set[int] = set()
    while bodies:
        owner, body = bodies.pop()
        for node in owner.walk(body):
            if set(mutated_names(node)) & reads:
                return True
            if constants is not None and _stores_attribute(owner, node, constants):
                return True
            if not isinstance(node, cst.Call):
                continue
            qualified = owner.qualified_name(node.func) or ""
            if owner.imports is not None and qualified and "." in qualified \
                    and owner.imports.module(qualified.rsplit(".", 1)[0]) is not None \
                    and (constants is None or not owner._callees(node)):
                return True  # `hooks.tick()`: code of a local module
            for func in owner._callees(node):
                callee_owner = owner.owner_of(func)
                if constants is None and callee_owner is not owner \
                        and not any(callee_owner is u for u in owner.prior.units()):
                    return True  # a local module's function or method
                if id(func) not in seen and len(seen) < 50:
                    seen.add(id(func))
                    bodies.append((callee_owner, func.body))
                elif id(func) not in seen and constants is not None:
                    return True  # more code than is read here: a local module's may store to it
    return False


# What a class body binds that no code can change in place: numbers, strings, booleans, None.
_IMMUTABLE_LITERALS = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)


def _class_constant_attrs(facts: Facts, expr: cst.BaseExpression, reads: set[str]) -> frozenset[str] | None:
    """The attribute names `expr` reads as class constants, when every imported name it reads is a
    class of a local module read only as `C.attr`, `attr` bound once in that class's own body to a
    number or string literal (`SOS_token = 0`); None otherwise. Such a value changes only by a store
    to an attribute of that name or by `setattr`/`delattr`/`__dict__`: `_stores_attribute`."""
    if facts.imports is None:
        return None
    attrs: set[str] = set()
    for node in facts.walk(expr):
        if not isinstance(node, cst.Name) or node.value not in reads:
            continue
        parent = facts.parent(node)
        if not (isinstance(parent, cst.Attribute) and parent.value is node):
            return None  # the class itself handed on, or a module's state
        found = facts.imports.class_def(facts.aliases.get(node.value, ""))
        if found is None:
            return None
        bound = [s for stmt in found[1].body.body if isinstance(stmt, cst.SimpleStatementLine) for s in stmt.body
                 if isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign))
                 and any(isinstance(t, cst.Name) and t.value == parent.attr.value for t in _targets(s))]
        if len(bound) != 1 or isinstance(bound[0], cst.AugAssign) or not _immutable_literal(bound[0].value):
            return None
        attrs.add(parent.attr.value)
    return frozenset(attrs) if attrs else None


def _targets(stmt: cst.BaseSmallStatement) -> list[cst.BaseExpression]:
    if isinstance(stmt, cst.Assign):
        return [t.target for t in stmt.targets]
    return [stmt.target] if isinstance(stmt, (cst.AnnAssign, cst.AugAssign)) else []


def _immutable_literal(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
        value = value.expression
    return isinstance(value, _IMMUTABLE_LITERALS) or isinstance(value, cst.Name) and value.value in ("True", "False", "None")


def _stores_attribute(owner: Facts, node: cst.CSTNode, attrs: frozenset[str]) -> bool:
    """`node` may rebind an attribute named in `attrs` on any object (`Lang.SOS_token = 1`,
    `cls.SOS_token += 1`, `del type(self).SOS_token`), or does it by name (`setattr`, `delattr`,
    `__dict__`, `vars(...)`)."""
    if isinstance(node, cst.Attribute) and (node.attr.value == "__dict__"
                                            or node.attr.value in attrs and _stored_to(owner, node)):
        return True
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("setattr", "delattr", "vars"):
        return True
    return False


def _stored_to(owner: Facts, node: cst.Attribute) -> bool:
    parent = owner.parent(node)
    while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        node, parent = parent, owner.parent(parent)  # type: ignore[assignment]
    return isinstance(parent, (cst.AssignTarget, cst.Del)) or isinstance(parent, (cst.AugAssign, cst.AnnAssign)) \
        and parent.target is node


_ITERATOR_CALLS = frozenset({"builtins.iter", "builtins.map", "builtins.zip", "builtins.filter", "builtins.reversed",
                             "builtins.enumerate", "builtins.open"})


def _iterates_random(facts: Facts, expr: cst.BaseExpression) -> bool:
    from ._random_iteration import iterates_random  # (it imports this module)

    return iterates_random(facts, expr)


def _reads_iterator(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`expr` reads a name bound to an iterator (`rows = iter(data)`, `map(...)`, a generator
    expression or function, `itertools.*`, an open file): the first iteration consumes it, so
    the next ones see it empty, and the result is not the same every iteration."""
    for node in facts.walk(expr):
        if isinstance(node, cst.Attribute) and _consumed(facts, node) and facts.kind(node) not in _REITERABLE_KINDS:
            return True  # `for r in src.rows`: an object's attribute, of unknown type
        if not isinstance(node, cst.Name) or (isinstance(facts.parent(node), cst.Attribute) and facts.parent(node).attr is node):
            continue
        value = assigned_value(facts, node)
        if value is None and _consumed(facts, node) and facts.kind(node) not in _REITERABLE_KINDS \
                and _parameter(facts, node):
            return True  # `def epochs(rdr)`: a caller may hand an iterator
        if isinstance(value, cst.GeneratorExp):
            return True
        if isinstance(value, cst.Call):
            qualified = facts.qualified_name(value.func) or ""
            if qualified in _ITERATOR_CALLS or qualified.startswith("itertools."):
                return True
            called = facts.functions.get(value.func.value) if isinstance(value.func, cst.Name) else None
            if called is not None and any(isinstance(n, (cst.Yield, cst.Await)) for n in facts.walk(called.body)):
                return True
            if _consumed(facts, node) and not _reiterable(facts, node, value):
                return True  # `rdr = csv.reader(f)` iterated by `[... for r in rdr]`: a library's iterator
    return False


# Builtins that iterate their first argument to the end (or part of it).
_CONSUMERS = frozenset({"builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset", "builtins.dict",
                        "builtins.sorted", "builtins.sum", "builtins.min", "builtins.max", "builtins.any",
                        "builtins.all", "builtins.next", "numpy.fromiter"})
_REITERABLE_CALLS = frozenset({"builtins.list", "builtins.tuple", "builtins.dict", "builtins.set", "builtins.frozenset",
                               "builtins.sorted", "builtins.range", "builtins.str", "builtins.bytes"})
_REITERABLE_KINDS = frozenset({Kind.TENSOR, Kind.NDARRAY, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR,
                               Kind.DATALOADER, Kind.DATASET, Kind.NUMBER})


def _parameter(facts: Facts, name: cst.Name) -> bool:
    """`name` is a parameter of the function around it."""
    func = facts.enclosing_function(name)
    return func is not None and name.value in param_names(func)


def _consumed(facts: Facts, name: cst.Name | cst.Attribute) -> bool:
    """`name` is iterated: a comprehension's `for ... in name`, unpacked (`[*name]`, `f(*name)`),
    or the first argument of a builtin that iterates it (`list(name)`, `sum(name)`, `"".join(name)`)."""
    return iterated(facts, name, lambda qualified: qualified in _CONSUMERS, first_only=True)


def iterated(facts: Facts, name: cst.Name | cst.Attribute, iterates: Callable[[str], bool], *,
             first_only: bool) -> bool:
    """`name` is iterated where it stands: a comprehension's `for ... in name`, unpacked, an
    argument (the first, with `first_only`) of a call whose qualified name `iterates` says
    iterates it, or of `str.join`."""
    parent = facts.parent(name)
    if isinstance(parent, cst.CompFor) and parent.iter is name:
        return True
    if isinstance(parent, cst.StarredElement) or isinstance(parent, cst.Arg) and parent.star == "*":
        return True
    if isinstance(parent, cst.Arg) and parent.value is name:
        call = facts.parent(parent)
        if isinstance(call, cst.Call) and (not first_only or call.args and call.args[0] is parent):
            func = call.func
            return iterates(facts.qualified_name(func) or "") or isinstance(func, cst.Attribute) and func.attr.value == "join"
    return False


def _reiterable(facts: Facts, name: cst.Name, value: cst.Call) -> bool:
    """`name`, bound to `value`, is a container that every iteration can read again: a builtin
    container's constructor, or a tensor, array, list or dict by its type. A library's or a
    helper's object of unknown type may be an iterator (`csv.reader`, `DictReader`, a file)."""
    if (facts.qualified_name(value.func) or "") in _REITERABLE_CALLS:
        return True
    return facts.kind(name) in _REITERABLE_KINDS or facts.kind(value) in _REITERABLE_KINDS


# Calls that read a namespace's variables by name, out of sight of a name-based analysis.
NAMESPACE_READERS = frozenset({"builtins.globals", "builtins.locals", "builtins.vars", "builtins.eval", "builtins.exec",
                               "sys._getframe", "inspect.currentframe", "inspect.stack"})


def namespace_reader(facts: Facts, objects: bool = False) -> str:
    """The code of a call in this unit or an earlier cell that reads variables by name
    (`globals()["total"]`, `eval("x")`, `locals()`; `vars(args)` of an object only with
    `objects`), '' if none."""
    for unit in (facts, *facts.prior.units()):
        for call in unit.calls_in(unit.module):
            qualified = unit.qualified_name(call.func) or ""
            if qualified in NAMESPACE_READERS and (objects or not (qualified == "builtins.vars" and call.args)):
                return unit.code(call.func)
    return ""


_UNSEEN_BINDERS = frozenset({"builtins.exec", "builtins.globals", "builtins.locals", "builtins.vars"})


def _rebinds_unseen(facts: Facts, loop: Loop) -> bool:
    """The loop runs `exec(...)` or reaches the namespace as a dict (`globals()["n"] = ...`):
    names may change in ways no assignment shows."""
    return any((facts.qualified_name(c.func) or "") in _UNSEEN_BINDERS for c in facts.calls_in(loop.node))


def _own_state_changed(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`expr` in a method reads `self.seen`, and a method of the class other than `__init__`
    changes it (`self.seen[0] += 1` in `forward`): each call may see other data."""
    attrs = {n.attr.value for n in facts.walk(expr)
             if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == "self"}
    func = facts.enclosing_function(expr) if attrs else None
    block = facts.parent(func) if func is not None else None
    cls = facts.parent(block) if isinstance(block, cst.IndentedBlock) else None
    if not isinstance(cls, cst.ClassDef):
        return False
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef) or method.name.value == "__init__":
            continue
        for n in facts.walk(method.body):
            if isinstance(n, (cst.AssignTarget, cst.AugAssign)):
                changed = _self_attr(n.target)
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and is_inplace_method(n.func.attr.value):
                changed = _self_attr(n.func.value)
            else:
                continue
            if changed in attrs:
                return True
    return False


def reads_module_state(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """`expr` reads a module's own tensors (`bn.running_mean`, `model[1].running_var`,
    `ema.avg`, `model.state_dict()[k]`), also through a name bound to them (`rm = bn.running_mean`,
    `sd = model.state_dict()`): a forward pass in training mode, a hook or an optimizer step
    changes them in place, without any assignment to a name."""
    if depth > 4:
        return False
    for node in facts.walk(expr):
        if isinstance(node, cst.Name) and not (isinstance(facts.parent(node), cst.Attribute) and facts.parent(node).attr is node):
            value = assigned_value(facts, node)
            if value is not None and reads_module_state(facts, value, depth + 1):
                return True
        if isinstance(node, cst.Attribute) or (isinstance(node, cst.Subscript) and not isinstance(node.value, cst.Attribute)):
            root = node.value
            while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
                root = root.func if isinstance(root, cst.Call) else root.value
            if isinstance(root, cst.Name) and root.value not in facts.aliases and facts.kind(root) is Kind.MODULE:
                return True
    return False


def _module_state_changed(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """`expr` reads a module's tensors and the loop runs code that may change them: a module
    call (batch-norm statistics, buffers a forward updates), a method of a module or an
    optimizer (`opt.step()`), a function of the program. An object of unknown type whose
    attribute `expr` reads and that the loop calls (`sn = spectral_norm(nn.Linear(3, 3))`, then
    `sn(x)`: its pre-hook recomputes `sn.weight` each call) counts as a module."""
    if _called_owner_read(facts, expr, loop):
        return True
    if not reads_module_state(facts, expr):
        return False
    for call in facts.calls_in(loop.node):
        func = call.func
        receiver = func.value if isinstance(func, cst.Attribute) else None
        if facts.kind(func) is Kind.MODULE or (receiver is not None and facts.kind(receiver) is Kind.MODULE) \
                or isinstance(func, cst.Attribute) and func.attr.value in ("step", "load_state_dict") \
                or facts._callees(call):
            return True
    return False


def _called_owner_read(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """`expr` reads an attribute of an object (`sn.weight`, through the names it reads) that the
    loop calls as a function (`sn(x)`) and whose type is not a plain one: calling it may run hooks
    that rebind its attributes (pruning, spectral or weight norm, parametrizations)."""
    unit = loop.facts
    called = {c.func.value for c in unit.calls_in(loop.node) if isinstance(c.func, cst.Name)
              and c.func.value not in unit.functions and unit.kind(c.func) not in _PLAIN_KINDS}
    if not called:
        return False
    for node in facts.walk(expr):
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in called:
            return True
    return False


_ATTRIBUTE_HOOKS = frozenset({"__getattr__", "__getattribute__"})


def _runs_object_code(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """`expr` reads an object whose class's code runs on a plain-looking read, so it is not
    the same value every iteration: it indexes or iterates a dataset (a random augmentation),
    or an object the analysis cannot type (built by a factory, kept on `self`) or of a class of
    the program, when a class of the program (its own, a base, any: the object's class may be
    one) has a `__getitem__`/`__len__`/`__iter__` that does more than read (changes the object,
    calls code); or the loop runs such a dunder that changes the object whose attribute `expr`
    reads (`mem.rows` beside `for r in mem`); or it reads an attribute that a class of the
    program computes (a property, a descriptor: `cfg.factor` whose `__get__` advances a warmup),
    or one of an instance of a class with `__getattr__`."""
    dunders = bool(next(program_methods(facts, _DUNDERS), None))
    for node in facts.walk(expr):
        if not isinstance(node, (cst.Name, cst.Attribute)) or isinstance(facts.parent(node), cst.Attribute) \
                and facts.parent(node).attr is node or facts.kind(node) in _PLAIN_KINDS:
            continue
        key = facts.code(node)
        read = _dunders_run(facts, key, expr) if dunders or facts.kind(node) is Kind.DATASET else set()
        if read - {"__len__"} and facts.kind(node) is Kind.DATASET:
            return True
        if any(_runs_code(owner, method) or method.name.value in _CONVERSIONS and _reads_module_state(owner, method)
               for owner, method in program_methods(facts, read)):
            return True
        if _converted_instance(facts, node, expr):
            return True
        if dunders and any("self" in owner.names_written(method.body)
                           for owner, method in program_methods(facts, _dunders_run(facts, key, loop.node.body))):
            return True
        attr = facts.parent(node)
        if isinstance(attr, cst.Attribute) and attr.value is node and _computed_attribute(facts, node, attr.attr.value):
            return True
    return False


# Conversions a library (torch, NumPy, a builtin) runs on an object handed to it: a size by
# `__index__`, a fill value by `__float__`, data by `__array__` or as a sequence.
_CONVERSIONS = frozenset({"__index__", "__int__", "__float__", "__complex__", "__bool__", "__array__"})
_DUNDERS = frozenset({"__getitem__", "__len__", "__iter__", "__next__", "__contains__"}) | _CONVERSIONS
# Kinds whose indexing, length and attributes run no code of the program.
_PLAIN_KINDS = frozenset({Kind.TENSOR, Kind.LIST, Kind.DICT, Kind.DICT_OF_LIST, Kind.DICT_OF_TENSOR, Kind.NDARRAY,
                          Kind.NUMBER, Kind.MODULE_OBJ, Kind.FUNCTION})


def _program_classes(facts: Facts) -> Iterator[tuple[Facts, cst.ClassDef]]:
    """The classes of this unit, the earlier cells and the local modules it imports."""
    yield from ((facts, c) for c in facts.classes.values())
    yield from facts.prior.classes.values()
    for _, module in local_units(facts):
        yield from ((module, c) for c in module.classes.values())


def program_methods(facts: Facts, names: set[str]) -> Iterator[tuple[Facts, cst.FunctionDef]]:
    """The methods named in `names` that classes of the program define."""
    if not names:
        return
    for owner, cls in _program_classes(facts):
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value in names:
                yield owner, stmt


def _dunders_run(facts: Facts, key: str, scope: cst.CSTNode) -> set[str]:
    """The special methods of the object `key` spells (`ds`, `self.ds`) that `scope` runs:
    indexing it (`__getitem__`), iterating it (`for`, a comprehension, a builtin like
    `list`/`sum`: `__iter__`, else `__getitem__`), `len()` (`__len__`), membership tests
    (`__contains__`)."""
    run: set[str] = set()
    uses = [n for n in facts.walk(scope) if isinstance(n, (cst.Name, cst.Attribute)) and facts.code(n) == key
            and not (isinstance(facts.parent(n), cst.Attribute) and facts.parent(n).attr is n)]
    for use in uses:
        parent = facts.parent(use)
        call = facts.parent(parent) if isinstance(parent, cst.Arg) else None
        builtin = (facts.qualified_name(call.func) or "") if isinstance(call, cst.Call) else ""
        if isinstance(parent, cst.Subscript) and parent.value is use:
            run.add("__getitem__")
        elif builtin == "builtins.len":
            run.add("__len__")
        elif isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is use or builtin.startswith("builtins."):
            run |= {"__iter__", "__next__", "__getitem__"} | (_CONVERSIONS if builtin else set())
        elif isinstance(call, cst.Call) and _library_call(facts, call):
            # `torch.zeros(width)`, `np.asarray(obj)`: the library converts the object through its
            # conversion methods (a size, a number, an array)
            run |= _CONVERSIONS
        elif isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.In, cst.NotIn)):
            run |= {"__contains__", "__iter__", "__getitem__"}
    return run


def _library_call(facts: Facts, call: cst.Call) -> bool:
    """A call of a library's function (`torch.zeros`, `np.asarray`), not a builtin or the program's."""
    name = facts.qualified_name(call.func) or ""
    return bool(name) and not name.startswith(("builtins.", "__main__")) \
        and not (isinstance(call.func, cst.Name) and call.func.value in facts.functions)


def _converted_instance(facts: Facts, node: cst.CSTNode, expr: cst.BaseExpression) -> bool:
    """`torch.tensor(rows)` where `rows` is bound to an instance of a class of the program whose
    sequence or conversion methods (`__len__`, `__getitem__`, `__iter__`, `__array__`...) read
    module state or do more than read: the library runs them on every call."""
    parent = facts.parent(node)
    call = facts.parent(parent) if isinstance(parent, cst.Arg) else None
    if not (isinstance(call, cst.Call) and _library_call(facts, call) and within(facts, call, expr)):
        return False
    value = assigned_value(facts, node) if isinstance(node, cst.Name) else None
    built = facts.class_named(value.func) if isinstance(value, cst.Call) else None
    if built is None:
        return False
    owner, cls = built
    return any(isinstance(m, cst.FunctionDef) and m.name.value in _DUNDERS
               and (_runs_code(owner, m) or _reads_module_state(owner, m)) for m in cls.body.body)


def _reads_module_state(facts: Facts, method: cst.FunctionDef) -> bool:
    """`method` reads a name of its module that is no function, class or import (`CFG["n"]`,
    `len(TABLE)`): state other code may change between calls, so its answer may differ."""
    params = named_params(method.params)
    params |= {p.name.value for p in (method.params.star_arg, method.params.star_kwarg) if isinstance(p, cst.Param)}
    free = set(facts.names_read(method.body)) - params - facts.names_written(method.body) - _BUILTIN_NAMES
    return any(n not in facts.functions and n not in facts.classes and n not in facts.aliases for n in free)


_BUILTIN_NAMES = frozenset(dir(builtins))


def _runs_code(facts: Facts, method: cst.FunctionDef) -> bool:
    """`method` does more than read its object: it changes it or calls code (not a builtin)."""
    return "self" in facts.names_written(method.body) or any(
        not (facts.qualified_name(c.func) or "").startswith("builtins.") for c in facts.calls_in(method.body))


def _computed_attribute(facts: Facts, obj: cst.BaseExpression, attr: str) -> bool:
    """Reading `obj.attr` runs code of the program: a class of the program computes an
    attribute of that name (a `property`/`cached_property` method, a class attribute holding
    a descriptor: an instance of a class of the program defining `__get__`), or `obj` is built
    from a class with `__getattr__`/`__getattribute__`."""
    value = assigned_value(facts, obj) if isinstance(obj, cst.Name) else None
    built = facts.class_named(value.func) if isinstance(value, cst.Call) else None
    if built is not None and any(isinstance(s, cst.FunctionDef) and s.name.value in _ATTRIBUTE_HOOKS
                                 for s in built[1].body.body):
        return True
    for owner, cls in _program_classes(facts):
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == attr and stmt.decorators:
                return True
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) \
                    and any(isinstance(t.target, cst.Name) and t.target.value == attr for t in small.targets):
                described = owner.class_named(small.value.func)
                if described is not None and any(isinstance(s, cst.FunctionDef) and s.name.value == "__get__"
                                                 for s in described[1].body.body):
                    return True
    return False


def _self_attr(target: cst.BaseExpression) -> str | None:
    """`seen` for `self.seen`, `self.seen[0]`, `self.seen.total`."""
    while isinstance(target, (cst.Subscript, cst.Attribute)):
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
            return target.attr.value
        target = target.value
    return None


# Context managers that change nothing a hoisted tensor factory or host computation reads.
_NEUTRAL_CONTEXTS = frozenset({
    "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled", "torch.autocast",
    "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast", "torch.autograd.profiler.record_function",
    "torch.profiler.record_function",
})


def _inside_context(facts: Facts, expr: cst.CSTNode, loop: Loop) -> bool:
    """`expr` runs inside a `with` block of the loop body whose context manager may change what
    it computes (`torch.device(d)` sets where factories allocate, `np.errstate`, a fork of the
    RNG, a default dtype): built before the loop it would run outside that context."""
    for anc in facts.ancestors(expr):
        if anc is loop.node:
            return False
        if isinstance(anc, cst.With) and any(
                not isinstance(item.item, cst.Call) or (facts.qualified_name(item.item.func) or "") not in _NEUTRAL_CONTEXTS
                for item in anc.items):
            return True
    return False


# torch's global defaults: a factory without `dtype=`/`device=` reads them when it runs
_DEFAULT_SETTERS = frozenset({"torch.set_default_dtype", "torch.set_default_tensor_type", "torch.set_default_device"})


def defaults_changed(facts: Facts, expr: cst.CSTNode, loop: Loop) -> bool:
    """`expr` calls torch and the loop changes torch's default dtype or device (directly, or in
    a function of this unit it calls): built before the loop, the tensor would be made under
    the defaults of the first iteration only."""
    if not any((facts.qualified_name(c.func) or "").startswith("torch.") for c in facts.calls_in(expr)):
        return False
    return _sets_defaults(facts, loop.node, set()) \
        or _setter_in_program_code(facts) and _runs_program_code(loop.facts, loop.node)


def _setter_in_program_code(facts: Facts) -> bool:
    """A function, method or lambda of the program (this unit, an earlier cell, a local module)
    changes torch's defaults: a callback object's `__call__`, a trainer's method, an earlier
    cell's `to_float64(model)` may run it from the loop where `_sets_defaults` follows no call
    by name (red team 31a: float64 refinement switched mid-run, a float32 grid hoisted)."""
    index = unit_index(facts)
    if index.setter_in_code is None:
        index.setter_in_code = any(
            calls_setter(unit, call, _DEFAULT_SETTERS)
            and any(isinstance(a, (cst.FunctionDef, cst.Lambda)) for a in unit.ancestors(call))
            for unit in (facts, *facts.prior.units(), *program_modules(facts, earlier_cells(facts)))
            for call in unit.calls_in(unit.module))
    return index.setter_in_code


# Library namespaces whose functions run none of the program's code.
_LIBRARY_CODE = ("torch.", "numpy.", "math.", "builtins.")


def _runs_program_code(facts: Facts, node: cst.CSTNode) -> bool:
    """`node` calls something that may run the program's code: a function or method of the
    program, an object (a module's forward and hooks, a callback), `next()` of an iterator."""
    return any(not (name := facts.qualified_name(c.func) or "").startswith(_LIBRARY_CODE)
               or name in ("builtins.next", "builtins.iter") for c in facts.calls_in(node))


def _sets_defaults(facts: Facts, node: cst.CSTNode, seen: set[str]) -> bool:
    for call in facts.calls_in(node):
        if calls_setter(facts, call, _DEFAULT_SETTERS):
            return True
        name = call.func.value if isinstance(call.func, cst.Name) else None
        if name in facts.functions and name not in seen:
            seen.add(name)
            if _sets_defaults(facts, facts.functions[name], seen):
                return True
    return False


_DTYPE_SETTERS = frozenset({"torch.set_default_dtype", "torch.set_default_tensor_type"})


def default_dtype_changed(facts: Facts) -> bool:
    """The program (this unit, an earlier cell, a local module it imports) changes torch's default
    dtype somewhere: `torch.tensor(<Python floats>)` is then not proved float32 where it runs."""
    index = unit_index(facts)
    if index.dtype_changed is None:
        index.dtype_changed = _default_dtype_changed(facts)
    return index.dtype_changed


def uses_autocast(facts: Facts) -> bool:
    """The program (this unit, an earlier cell, a local module it imports) may run code under
    autocast: it names `autocast` (`torch.autocast`, `torch.cuda.amp.autocast`, `accelerator.autocast()`,
    as a context or a decorator), `set_autocast_enabled`, or asks a trainer for mixed precision
    (`precision="bf16-mixed"`, `mixed_precision="fp16"`)."""
    index = unit_index(facts)
    if index.autocast is None:
        index.autocast = any(_names_autocast(unit) for unit in (facts, *earlier_cells(facts), *program_modules(facts, earlier_cells(facts))))
    return index.autocast


def _names_autocast(facts: Facts) -> bool:
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Name) and node.value in _AUTOCAST_NAMES \
                or isinstance(node, cst.Attribute) and node.attr.value in _AUTOCAST_NAMES:
            return True
        if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value in ("precision", "mixed_precision") \
                and isinstance(node.value, cst.SimpleString) and "16" in node.value.evaluated_value:
            return True
    return False


_AUTOCAST_NAMES = frozenset({"autocast", "set_autocast_enabled", "autocast_mode"})


def _default_dtype_changed(facts: Facts) -> bool:
    return any(calls_setter(unit, call, _DTYPE_SETTERS)
               for unit in (facts, *earlier_cells(facts), *program_modules(facts, earlier_cells(facts)))
               for call in unit.calls_in(unit.module))


def default_dtype_changed_later(facts: Facts) -> bool:
    """A LATER cell of the notebook (or a local module it imports) changes torch's default dtype:
    a function of this cell called after that cell builds `torch.tensor(<Python floats>)` in the
    new default, which a dtype chosen here from the defaults in view (float32) does not follow
    (red team 46 probe: a helper defined in cell 0, called again after cell 1 set float64)."""
    return any(calls_setter(unit, call, _DTYPE_SETTERS)
               for later in facts.later for unit in (later, *(m for _, m in local_units(later)))
               for call in unit.calls_in(unit.module))


def default_device_set(facts: Facts) -> str:
    """The code of a place where the program (this unit, an earlier or later cell, a local module)
    makes torch's factories build on a default device: `torch.set_default_device(...)` (also
    through an alias or `getattr`) or a `with torch.device(...):` block; '' if none. A tensor
    rebuilt from Python numbers (`torch.tensor(values)`) is then made on that device, not on the
    host that a rewrite's `.cpu()` / `device="cpu"` assumes (red team 46 probe: LLM-style
    `torch.set_default_device(device)`; on a GPU the joined losses moved to the host and met a
    device tensor)."""
    units = (facts, *earlier_cells(facts), *facts.later, *program_modules(facts, (*earlier_cells(facts), *facts.later)))
    for unit in units:
        for call in unit.calls_in(unit.module):
            if calls_setter(unit, call, _DEVICE_SETTERS):
                return unit.code(call)
            if (unit.qualified_name(call.func) or "") == "torch.device" \
                    and isinstance(item := unit.parent(call), cst.WithItem) and item.item is call:
                return unit.code(call)
    return ""


_DEVICE_SETTERS = frozenset({"torch.set_default_device"})


def calls_setter(facts: Facts, call: cst.Call, setters: frozenset[str]) -> bool:
    """`call` runs one of torch's `setters`: spelled (`torch.set_default_dtype(...)`), through a
    name bound to it (`use = torch.set_default_dtype`), or looked up on torch by a string that is
    one of them or not a literal (`getattr(torch, "set_default_" + kind)`)."""
    func: cst.BaseExpression = call.func
    if isinstance(func, cst.Name) and (facts.qualified_name(func) or "") not in setters:
        func = assigned_value(facts, func) or func
    if (facts.qualified_name(func) or "") in setters:
        return True
    if not (isinstance(func, cst.Call) and (facts.qualified_name(func.func) or "") == "builtins.getattr"
            and len(func.args) >= 2 and (facts.qualified_name(func.args[0].value) or "") == "torch"):
        return False
    name = func.args[1].value
    return not isinstance(name, cst.SimpleString) or f"torch.{name.evaluated_value}" in setters


# Modules whose functions and classes the rules' rewrites call or reason about: replacing one of
# their attributes by code (`torch.stack = counted`, `torch.Tensor.item = ...`, `builtins.float
# = ...`) changes what the rewritten program runs. Configuration flags (`torch.backends...`) are
# assigned plain values, not code.
_PATCHABLE = ("torch", "builtins", "numpy", "math")
_FLAGS = ("torch.backends", "torch._dynamo.config", "torch._inductor.config", "torch.utils.data._utils")


def library_patched(facts: Facts) -> str:
    """The code of an assignment by which the program (this unit, an earlier or later cell, a
    local module) replaces a function or method of torch, NumPy, math or the builtins, '' when
    none: what a rewrite calls (`torch.stack`, `torch.relu`) or removes (`.item()`,
    `float(t)`) is then not what the rules assume it is."""
    for unit in (facts, *earlier_cells(facts), *facts.later, *program_modules(facts, (*earlier_cells(facts), *facts.later))):
        index = unit_index(unit)
        if index.patch is None:
            index.patch = _patch_in(unit)
        if index.patch:
            return index.patch
    return ""


def _patch_in(unit: Facts) -> str:
    for node in unit.walk(unit.module):
        targets: list[cst.BaseExpression] = []
        value: cst.BaseExpression | None = None
        if isinstance(node, cst.Assign):
            targets, value = [t.target for t in node.targets], node.value
        elif isinstance(node, cst.Call) and (unit.qualified_name(node.func) or "") == "builtins.setattr" and node.args:
            targets, value = [node.args[0].value], node.args[2].value if len(node.args) > 2 else None
        spaces: list[cst.BaseExpression] = []
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                and node.func.attr.value in ("update", "__setitem__", "setdefault") \
                and (space := _namespace_dict_of(unit, node.func.value)) is not None:
            spaces = [space]  # `F.__dict__.update(relu=f)`, `vars(torch).__setitem__("stack", f)`
        elif isinstance(node, cst.Assign):  # `vars(torch)["stack"] = f`, `torch.__dict__["relu"] = g`
            spaces = [space for t in node.targets if isinstance(t.target, cst.Subscript)
                      and (space := _namespace_dict_of(unit, t.target.value)) is not None]
        if any((unit.qualified_name(space) or "").split(".")[0] in _PATCHABLE for space in spaces) \
                and not _plain_value(value if isinstance(node, cst.Assign) else None):
            return unit.code(node)
        for target in targets:
            owner = target.value if isinstance(target, cst.Attribute) else target if isinstance(node, cst.Call) else None
            if owner is None:
                continue
            qualified = unit.qualified_name(owner) or ""
            if isinstance(target, cst.Attribute):
                qualified = unit.qualified_name(target) or qualified
            if qualified.split(".")[0] in _PATCHABLE and not qualified.startswith(_FLAGS) \
                    and not _plain_value(value):
                return unit.code(node)
    return ""


def _namespace_dict_of(unit: Facts, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`torch` for `vars(torch)` or `torch.__dict__`: a module's namespace written as a dict."""
    if isinstance(expr, cst.Call) and (unit.qualified_name(expr.func) or "") == "builtins.vars" and expr.args:
        return expr.args[0].value
    if isinstance(expr, cst.Attribute) and expr.attr.value == "__dict__":
        return expr.value
    return None


def _plain_value(value: cst.BaseExpression | None) -> bool:
    """A literal or a flag name: configuration, not code."""
    return isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)) \
        or isinstance(value, cst.Name) and value.value in {"True", "False", "None"}


def changed_by_callees(facts: Facts, scope: cst.CSTNode, names: set[str]) -> bool:
    """A function called in `scope` (of this unit or an earlier cell, or a lambda bound to a
    name; followed through the calls it makes) may rebind or change in place one of `names`
    without binding it as its own: a closure's `acc.add_(x)`, a helper's `hist.mul_(0.9)` on a
    global or on an alias it takes (`buf = hist`), a method's `global peak` written through
    `out=`, or any name when it reads the namespace (`globals()[name].add_(1)`). The loop
    shows no line that changes them. When code of the program reaches the script's globals
    through `import __main__`, a global may be changed by any call (a library calling a hook
    that module registered too)."""
    if _globals_reached_through_main(facts, scope, names) or _namespace_handed_out(facts, scope, names):
        return True
    seen: set[cst.CSTNode] = set()
    work: list[tuple[Facts, cst.CSTNode]] = [(facts, scope)]
    if facts.calls_in(scope):
        for owner, body, own in _handed_out(facts):  # registered callbacks: any call may run them
            seen.add(body)
            free = names - own
            if free & owner.names_written(body) or any(changed_in_place(owner, n, body) for n in free) \
                    or _reads_namespace(owner, body, objects=False):
                return True
            work.append((owner, body))
    while work:
        unit, node = work.pop()
        for call in unit.calls_in(node):
            if _rebound_by_later_cell(unit, call):
                return True
            replaced = _replaced_methods(unit, call)
            if replaced is None:
                return True
            for owner, body, own in (*_callee_bodies(unit, call), *replaced):
                if body in seen:
                    continue
                seen.add(body)
                free = names - own
                if free & owner.names_written(body) or any(changed_in_place(owner, n, body) for n in free) \
                        or _reads_namespace(owner, body):
                    return True
                work.append((owner, body))
    return False


def _reads_namespace(owner: Facts, body: cst.CSTNode, objects: bool = True) -> bool:
    """`body` reaches variables by name (`globals()["WIDTH"] = ...`, `vars()`, `exec`): it may change any.
    Without `objects`, `vars(cfg)` of a program variable (an object's attributes) does not count."""
    for call in owner.calls_in(body):
        name = owner.qualified_name(call.func) or ""
        if name not in NAMESPACE_READERS:
            continue
        if objects or name != "builtins.vars" or not call.args:
            return True
        arg = call.args[0].value
        if not (isinstance(arg, cst.Name) and arg.value not in owner.aliases):
            return True  # `vars(sys.modules[__name__])`, `vars(some_module)`
    return False


def changed_unseen(facts: Facts, expr: cst.BaseExpression, loop: Loop) -> bool:
    """A name `expr` reads may be changed by code the loop runs without a call of it in sight:
    code handed out as a value (`hooks = {"after": next_phase}` then `hooks["after"]()`, a lambda
    kept in a dict, `functools.partial(cfg.__setitem__, "n")`), a method Python runs by itself (a
    property's or descriptor's getter, `__getattr__`, `__setattr__`, `__next__`, an exception's
    `__init__`, `__format__`: any special method of a program class), the body of a generator
    function the loop iterates (it runs between iterations), or what `changed_by_callees` finds
    (a helper, a method replaced by assignment, a later cell, code reaching `__main__`)."""
    names = set(names_read(expr)) - locally_bound(facts, expr)
    unit = loop.facts  # (a helper's expression may be asked about its caller's loop)
    if not names or not unit.calls_in(loop.node) and not _iterates_generator(unit, loop):
        return False
    names |= _view_sources_of(unit, names, loop.function)
    if changed_by_callees(unit, loop.node, names):
        return True
    if names & _bound_writers(unit):
        return True
    bodies = [*_implicit_code(unit), *_iterated_generators(unit, loop)]
    seen: set[cst.CSTNode] = set()
    while bodies:
        owner, body, own = bodies.pop()
        if body in seen:
            continue
        seen.add(body)
        free = names - own
        if free & owner.names_written(body) or any(changed_in_place(owner, n, body) for n in free):
            return True
        for call in owner.calls_in(body):
            bodies.extend(_callee_bodies(owner, call))
    return False


def _view_sources_of(facts: Facts, names: set[str], function: FunctionNode | None) -> set[str]:
    """The names whose memory `names` share (`counts` for `host = counts.numpy()`, in `function`'s
    scope or the module's), transitively: code out of sight (a tensor hook's `counts.add_(1)`)
    changes them by their own name, not by the view's."""
    views = {**facts._views_of(None), **facts._views_of(function)} if function is not None else facts._views_of(None)
    found: set[str] = set()
    work = set(names)
    while work:
        name = work.pop()
        for source, shared in views.items():
            if name in shared and source not in found and source not in names:
                found.add(source)
                work.add(source)
    return found


def _implicit_code(facts: Facts) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    """(owner, body, own names) of the code of this unit and the earlier cells that runs without a
    call naming it: special methods of the program's classes (`__getattr__`, `__next__`,
    `__init__`, `__format__`...), decorated methods (properties, descriptors' owners), and lambdas
    kept as values (in a dict, a list; not bound to a name, which `_callee_bodies` follows)."""
    return _of_each_unit(facts, "implicit", _implicit_code_of)


def _implicit_code_of(unit: Facts) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    for key, func in unit.functions.items():
        name = func.name.value
        if "." in key and (name.startswith("__") and name.endswith("__") or func.decorators):
            yield unit, func.body, _own_locals(func) | param_names(func)
    for node in unit.walk(unit.module):
        if isinstance(node, cst.Lambda) and not isinstance(unit.parent(node), (cst.Assign, cst.Arg)):
            params = node.params
            yield unit, node.body, named_params(params)


def _bound_writers(facts: Facts) -> frozenset[str]:
    """Names whose bound in-place method the program keeps as a value (`functools.partial(
    cfg.__setitem__, "n")`, `push = rows.append`): whoever calls it later changes them."""
    out: set[str] = set()
    for unit in (facts, *facts.prior.units()):
        index = unit_index(unit)
        if index.bound_writers is None:
            index.bound_writers = frozenset(
                root for node in unit.walk(unit.module)
                if isinstance(node, cst.Attribute) and is_inplace_method(node.attr.value)
                and not isinstance(unit.parent(node), (cst.Call, cst.Attribute))  # called, or `np.add.at`
                and (root := root_name(node.value)) is not None and root not in unit.aliases) | frozenset(
                root for node in unit.walk(unit.module) if _binds_writer(node)
                for arg in mutated_arguments(node) if (root := root_name(arg)) is not None and root not in unit.aliases)
        out |= index.bound_writers
    return frozenset(out)


def _binds_writer(node: cst.CSTNode) -> bool:
    """`functools.partial(torch.Tensor.copy_, dst)`: a writer with its target bound, called later."""
    return isinstance(node, cst.Call) and isinstance(node.func, (cst.Name, cst.Attribute)) \
        and (node.func.value if isinstance(node.func, cst.Name) else node.func.attr.value) == "partial"


def _iterates_generator(facts: Facts, loop: Loop) -> bool:
    return bool(next(_iterated_generators(facts, loop), None))


def _iterated_generators(facts: Facts, loop: Loop) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    """The bodies of the generator functions a `for` loop iterates (`for b in batches(n)`,
    `enumerate(shifting(3))`): each runs up to its next `yield` between two iterations."""
    if not isinstance(loop.node, cst.For):
        return
    for call in facts.calls_in(loop.node.iter):
        for func in facts._callees(call):
            owner = facts.owner_of(func)
            if any(isinstance(n, cst.Yield) for n in owner.walk(func.body)):
                yield owner, func.body, _own_locals(func) | param_names(func)


def _rebound_by_later_cell(facts: Facts, call: cst.Call) -> bool:
    """`call`, inside a function (which may run after later cells), calls a name that a later
    cell binds to something other than a `def` (a lambda, another function by name, a factory's
    result `record = make_recorder()`, an import), or a later cell writes the namespace by string
    (`globals()["step"] = ...`): code this check does not follow. (A later `def` of the name, and
    a later class's method of the called method's name, are followed by `_callee_bodies`.)"""
    func = call.func
    caller = facts.enclosing_function(call)
    if not isinstance(func, cst.Name) or caller is None or func.value in _own_locals(caller) | param_names(caller):
        return False  # (a parameter or local of the caller, `model(xb)` in `validate(model, dl)`: not a global)
    name = func.value
    for later in facts.later:
        if any((later.qualified_name(c.func) or "") in NAMESPACE_READERS for c in later.calls_in(later.module)):
            return True
        if name in _bound_at_top(later) and name not in later.functions:
            return True  # assigned, a `for` target, `:=`, `with ... as`, imported, `del`eted
    return False


def _bound_at_top(unit: Facts) -> set[str]:
    """Names a cell binds at its top level (not those it only changes in place, `net.load_state_dict(...)`)."""
    return {n.value for n in unit.walk(unit.module) if isinstance(n, cst.Name) and is_binding(unit, n)
            and unit.enclosing_function(n) is None}


# Calls that make a callable out of a function: bound to an instance, with arguments fixed.
_CODE_MAKERS = frozenset({"types.MethodType", "functools.partial", "functools.partialmethod", "builtins.staticmethod",
                          "builtins.classmethod", "functools.wraps"})


def _code_value(unit: Facts, value: cst.BaseExpression) -> bool:
    """`value`, assigned to an instance's attribute, is code: a lambda, a function of the
    program by name, or a callable made from one (`types.MethodType(f, obj)`, `partial(f, ...)`)."""
    if isinstance(value, cst.Lambda) or _function_named(unit, value):
        return True
    return isinstance(value, cst.Call) and (unit.qualified_name(value.func) or "") in _CODE_MAKERS


def _function_named(unit: Facts, value: cst.BaseExpression | None) -> bool:
    """`value` is a name of one of the program's functions (followed by `_replaced_methods`)."""
    return isinstance(value, cst.Name) and value.value in unit.functions


def _replaced_methods(facts: Facts, call: cst.Call) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]] | None:
    """What a method call `obj.update(...)` may run when the program replaces the method by
    assignment, in this unit, an earlier or a later cell (`Meter.update = _update`, `Meter.update
    = lambda self, x: ...`, `setattr(Meter, "update", f)`): the replacements' bodies. None when
    a replacement is code this check does not follow (a factory's result, an attribute, a
    `setattr` by a computed name). An instance attribute set to a value (`self.step = 0`) is data."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return iter(())
    attr = func.attr.value
    found: list[tuple[Facts, cst.CSTNode, set[str]]] = []
    for unit in (facts, *facts.prior.units(), *facts.later):
        for node in _attribute_binders(unit):
            value: cst.BaseExpression | None = None
            if isinstance(node, cst.Assign):
                if not any(isinstance(t.target, cst.Attribute) and t.target.attr.value == attr for t in node.targets):
                    continue
                receivers = [t.target.value for t in node.targets if isinstance(t.target, cst.Attribute)]
                value = node.value
                on_class = any(isinstance(r, cst.Name) and r.value in unit.classes for r in receivers)
                if not on_class and not _code_value(unit, value):
                    continue  # `self.step = 0`, `self.lr = cfg.lr`: an instance's data
            else:  # `setattr(obj, key, value)`
                key = node.args[1].value
                if isinstance(key, cst.SimpleString) and key.evaluated_value != attr:
                    continue
                value = node.args[2].value if isinstance(key, cst.SimpleString) else None
                if value is None:
                    return None
            if isinstance(value, cst.Lambda):
                params = value.params
                found.append((unit, value.body, named_params(params)))
            elif _function_named(unit, value):
                target = unit.functions[value.value]
                found.append((unit, target.body, _own_locals(target) | param_names(target)))
            elif isinstance(value, cst.Name) and value.value in {"True", "False", "None"}:
                continue
            else:
                return None
    return iter(found)


def _attribute_binders(unit: Facts) -> list[cst.CSTNode]:
    """The unit's assignments to an attribute and its `setattr(obj, key, value)` calls, in
    order: one walk per unit, not one per method call `_replaced_methods` is asked about."""
    binders = _BINDERS.get(unit)
    if binders is None:
        binders = _BINDERS[unit] = [
            node for node in unit.walk(unit.module)
            if isinstance(node, cst.Assign) and any(isinstance(t.target, cst.Attribute) for t in node.targets)
            or isinstance(node, cst.Call) and len(node.args) >= 3
            and (unit.qualified_name(node.func) or "") == "builtins.setattr"]
    return binders


_BINDERS: "weakref.WeakKeyDictionary[Facts, list[cst.CSTNode]]" = weakref.WeakKeyDictionary()


def _handed_out(facts: Facts) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    """(owner, body, own names) of the code of this unit or an earlier cell that other code may
    hold and run inside any later call: functions used as values (`events.on_step(record)`,
    `hooks = [record]`) or given to a decorator not of torch, functools or the builtins
    (`@events.on_step`), bound methods used as values (`on_step(meter.seen_one)`), every method of
    a program class whose instance is handed to a call (`on_step(Peak())`: its `__call__`), and
    lambdas handed to calls."""
    return _of_each_unit(facts, "handed_out", _handed_out_of)


def _of_each_unit(facts: Facts, field: str, find: Callable[[Facts], Iterator[tuple[Facts, cst.CSTNode, set[str]]]]
                  ) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    """`find` of this unit and of each earlier cell, kept in the unit's index under `field`."""
    for unit in (facts, *facts.prior.units()):
        index = unit_index(unit)
        if getattr(index, field) is None:
            setattr(index, field, list(find(unit)))
        yield from getattr(index, field)


def _handed_out_of(unit: Facts) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    """`_handed_out` of one unit."""
    for node in unit.walk(unit.module):
        found: list[cst.FunctionDef] = []
        parent = unit.parent(node)
        if isinstance(node, cst.Name) and node.value in unit.functions:
            if not (isinstance(parent, cst.Call) and parent.func is node
                    or isinstance(parent, (cst.FunctionDef, cst.Attribute, cst.Decorator))):
                found.append(unit.functions[node.value])
        elif isinstance(node, cst.Attribute) and not (isinstance(parent, cst.Call) and parent.func is node) \
                and not isinstance(parent, cst.Decorator):
            found += [f for key, f in unit.functions.items() if key.endswith("." + node.attr.value)]
        elif isinstance(node, cst.FunctionDef) and any(_hands_out(unit, d) for d in node.decorators):
            found.append(node)
        elif isinstance(node, cst.Arg) and isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Name) \
                and node.value.func.value in unit.classes:
            prefix = node.value.func.value + "."
            found += [f for key, f in unit.functions.items() if key.startswith(prefix)]
        elif isinstance(node, cst.Arg) and isinstance(node.value, cst.Lambda):
            params = node.value.params
            yield unit, node.value.body, named_params(params)
        for func in found:
            yield unit, func.body, _own_locals(func) | param_names(func)


def _hands_out(unit: Facts, decorator: cst.Decorator) -> bool:
    """A decorator that may keep the function to run it later (`@events.on_step`, `@app.route`):
    any but torch's, functools' and the builtins' (`@torch.no_grad()`, `@lru_cache`, `@property`)."""
    expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
    qualified = unit.qualified_name(expr) or ""
    return not qualified.startswith(("torch.", "functools.", "builtins.", "dataclasses.", "typing.", "abc."))


def _namespace_handed_out(facts: Facts, scope: cst.CSTNode, names: set[str]) -> bool:
    """The script hands its namespace to a call (`events.bind(globals())`, `vars()` of the
    module): what holds it may change any global inside a later call."""
    if not facts.calls_in(scope) or _outside_globals(facts, scope, names):
        return False
    return any(isinstance(arg.value, cst.Call) and (unit.qualified_name(arg.value.func) or "") in
               {"builtins.globals", "builtins.vars", "builtins.locals"} and not arg.value.args
               for unit in (facts, *facts.prior.units()) for call in unit.calls_in(unit.module) for arg in call.args)


def _outside_globals(facts: Facts, scope: cst.CSTNode, names: set[str]) -> bool:
    """None of `names` is a global of the script: locals of the function around `scope`."""
    func = facts.enclosing_function(scope)
    return func is not None and not names & {n.name.value for g in facts.walk(func) if isinstance(g, cst.Global)
                                             for n in g.names}


def _globals_reached_through_main(facts: Facts, scope: cst.CSTNode, names: set[str]) -> bool:
    """One of `names` is a global of the script (bound at its top level, or declared `global` in
    the function around `scope`) and a unit of the program (this one, an earlier cell, a local
    module) imports `__main__` or reads `sys.modules["__main__"]`: it may change that global."""
    func = facts.enclosing_function(scope)
    if func is not None and not names & {n.name.value for g in facts.walk(func) if isinstance(g, cst.Global)
                                         for n in g.names}:
        return False
    units = (facts, *facts.prior.units(), *(m for _, m in local_units(facts)))
    return any(_reads_main(unit) for unit in units)


def _reads_main(unit: Facts) -> bool:
    """The unit can reach the script's globals by name (`reaches_main`), asked once per unit."""
    index = unit_index(unit)
    if index.reads_main is None:
        index.reads_main = reaches_main(unit)
    return index.reads_main


# Calls and attributes that hand a module the globals of the code that called it: the script's
# frame (`sys._getframe(1).f_globals`, `inspect.currentframe().f_back`), the module table, the
# objects referring to a value.
_FRAME_READERS = frozenset({"sys._getframe", "sys.modules", "inspect.currentframe", "inspect.stack",
                            "inspect.getouterframes", "inspect.trace", "inspect.getinnerframes",
                            "gc.get_referrers", "gc.get_objects"})
_FRAME_ATTRIBUTES = frozenset({"f_globals", "f_locals", "f_back", "tb_frame"})


def reaches_main(unit: Facts) -> bool:
    """The unit can read or change the script's globals without being handed them: it imports
    `__main__`, names the module `"__main__"` as a string anywhere but a `__name__` test
    (`importlib.import_module("__main__")`, `sys.modules.get("__main__")`), reads `sys.modules`,
    walks to a caller's frame (`sys._getframe`, `inspect.currentframe().f_back.f_globals`,
    `inspect.stack()`) or asks the garbage collector for referrers."""
    for node in unit.walk(unit.module):
        if isinstance(node, cst.Import) and any(unit.code(a.name) == "__main__" for a in node.names):
            return True
        if isinstance(node, cst.ImportFrom) and node.module is not None and unit.code(node.module) == "__main__":
            return True
        if isinstance(node, cst.SimpleString) and node.evaluated_value == "__main__" and not _name_test(unit, node):
            return True
        if isinstance(node, cst.Attribute) and node.attr.value in _FRAME_ATTRIBUTES:
            return True
        if isinstance(node, (cst.Attribute, cst.Name)) and not isinstance(unit.parent(node), cst.Attribute) \
                and (unit.qualified_name(node) or "") in _FRAME_READERS:
            return True
    return False


def _name_test(unit: Facts, string: cst.SimpleString) -> bool:
    """`"__main__"` compared with `__name__` (`if __name__ == "__main__":`): not a way in."""
    parent = unit.parent(string)
    if isinstance(parent, cst.ComparisonTarget):
        parent = unit.parent(parent)
    return isinstance(parent, cst.Comparison) and "__name__" in unit.code(parent)


def _callee_bodies(facts: Facts, call: cst.Call) -> Iterator[tuple[Facts, cst.CSTNode, set[str]]]:
    """(owner, body, names the body binds as its own) of what `call` runs that shares this unit's
    names: its functions (this unit's, an earlier cell's) and a lambda bound to the called name.
    A call inside a function may run after later cells: a function of the same name that a later
    cell defines is what it calls then."""
    for func in facts._callees(call):
        owner = facts.owner_of(func)  # an earlier cell shares the namespace, a local module does not
        if owner is facts or any(owner is u for u in facts.prior.units()):
            yield owner, func.body, _own_locals(func) | param_names(func)
    if isinstance(call.func, cst.Name) and facts.enclosing_function(call) is not None:
        for later in facts.later:
            func = later.functions.get(call.func.value)
            if func is not None:
                yield later, func.body, _own_locals(func) | param_names(func)
    if isinstance(call.func, cst.Attribute) and facts.enclosing_function(call) is not None:
        for later in facts.later:  # a later cell's class redefined with a method of this name
            for key, func in later.functions.items():
                if key.endswith("." + call.func.attr.value):
                    yield later, func.body, _own_locals(func) | param_names(func)
    value = assigned_value(facts, call.func) if isinstance(call.func, cst.Name) else None
    if isinstance(value, cst.Lambda):
        params = value.params
        yield facts, value.body, named_params(params)


def globals_read(facts: Facts, name: str) -> frozenset[str]:
    """Free names a function of the unit reads (and those of the unit's functions it calls)."""
    cache = unit_index(facts).globals_read
    if name not in cache:
        cache[name] = frozenset()  # recursion guard
        func = facts.functions[name]
        params = named_params(func.params)
        params |= {p.name.value for p in (func.params.star_arg, func.params.star_kwarg) if isinstance(p, cst.Param)}
        free = set(facts.names_read(func.body)) - params - facts.names_written(func.body)
        for callee in [n for n in free if n in facts.functions]:
            free |= globals_read(facts, callee)
        cache[name] = frozenset(free)
    return cache[name]


# --- names to write rewrites with ---------------------------------------------------------


def module_alias(facts: Facts, module: str) -> str | None:
    """The local name under which `module` (`torch`, `torch.nn.functional`) is reachable
    everywhere in the unit: not a name that only an import inside one function binds (`def main():
    import torch` leaves `torch` undefined in the other functions, where an edit may use it)."""
    for aliases in (facts.aliases, facts.prior.aliases):  # this cell's imports, then earlier cells'
        for local, target in aliases.items():
            if target == module and "." not in local and not rebound_in_unit(facts, local) \
                    and (aliases is facts.aliases or not bound_in_unit(facts, local)) \
                    and not _imported_in_functions_only(facts, local, aliases is facts.aliases):
                return None if _star_may_rebind(facts, local, module) else local
    for local, value in facts.namespace.items():
        if isinstance(value, types.ModuleType) and value.__name__ == module and not bound_in_unit(facts, local):
            return None if facts.star_may_rebind(local, module) else local
    if module != "torch" and module.startswith("torch."):
        torch = module_alias(facts, "torch")
        return f"{torch}{module[len('torch'):]}" if torch else None
    return None


def _star_may_rebind(facts: Facts, local: str, module: str) -> bool:
    """A star import run after the import that binds `local` may bind `local` to something other than
    `module`: an edit written with `local` would then not reach `module` (red team 43); no alias is safe
    to write with. In a notebook every cell from the first that imports `local` counts, later cells
    included: a function of this cell looks `local` up when a later cell calls it (probe rt43p)."""
    cells = [*facts.prior.cells, facts, *facts.later]
    start = min((i for i, cell in enumerate(cells) if cell.aliases.get(local) == module), default=0)
    return any(cell.star_may_rebind(local, module) for cell in cells[start:])


def _imported_in_functions_only(facts: Facts, local: str, own: bool) -> bool:
    """`local` is bound only by imports inside function bodies: of this unit (`own`), or of the
    earlier cells that import it (none of which imports it at its top level)."""
    if own:
        return local in facts.function_imports
    importers = [cell for cell in facts.prior.cells if local in cell.aliases]
    return bool(importers) and all(local in cell.function_imports for cell in importers)


_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "norm", "prod", "std", "var", "amax", "amin", "argmax", "argmin"})


def is_scalar(facts: Facts, tensor: cst.BaseExpression, depth: int = 0) -> bool:
    """A 0-d tensor: a full reduction (`x.sum()`) or a loss with its default reduction."""
    if isinstance(tensor, cst.Name) and depth < 8:
        value = assigned_value(facts, tensor)
        return value is not None and is_scalar(facts, value, depth + 1)
    if not isinstance(tensor, cst.Call):
        return False
    func = tensor.func
    if isinstance(func, cst.Attribute) and func.attr.value in _REDUCTIONS and not tensor.args:
        return True
    qualified = facts.qualified_name(func) or ""
    if qualified.startswith("torch.nn.functional.") and (qualified.endswith("_loss") or qualified.endswith(".cross_entropy")):
        return keyword(tensor, "reduction") is None
    return qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1] in _REDUCTIONS and len(tensor.args) == 1


_LEAF_TYPES = (bool, int, float)


def uniform_list(value: object, budget: int = 2_000_000) -> bool:
    """A non-empty (nested) list of numbers of one Python type, rectangular.

    Then `torch.tensor` of any slice has the dtype and shape of the same slice of
    `torch.tensor(value)`: mixing ints and floats (or ragged rows) breaks that. Lists larger
    than `budget` elements are not checked (False).
    """
    if not isinstance(value, list) or not value:
        return False
    level: list[object] = [value]
    while level:
        if len(level) > budget:
            return False
        first = level[0]
        if isinstance(first, list):
            width = len(first)
            if width == 0 or not all(isinstance(v, list) and len(v) == width for v in level):
                return False
            level = [x for v in level for x in v]  # type: ignore[union-attr]
            continue
        kind = type(first)
        return kind in _LEAF_TYPES and all(type(v) is kind for v in level)
    return False


def rebound_in_unit(facts: Facts, name: str) -> bool:
    """`name` is bound somewhere in the unit other than by an import: a parameter, an assignment,
    a loop or comprehension variable (`B, C, F, T = x.shape`): code written with `name` there
    (`F.leaky_relu`) would not reach the imported module."""
    known = unit_index(facts).rebound
    if name not in known:
        known[name] = _rebound(facts, name)
    return known[name]


def _rebound(facts: Facts, name: str) -> bool:
    for node in reads_of(facts, name):
        parent = facts.parent(node)
        if isinstance(parent, cst.Param) and parent.name is node:
            return True
        outer = node
        while isinstance(facts.parent(outer), (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            outer = facts.parent(outer)
        if isinstance(facts.parent(outer), cst.CompFor) and facts.parent(outer).target is outer:
            return True
        if is_binding(facts, node) and not any(isinstance(a, (cst.Import, cst.ImportFrom)) for a in facts.ancestors(node)):
            return True
    return False


def is_binding(facts: Facts, name: cst.Name) -> bool:
    """`name` is a target: assigned, augmented, a loop/with/import/def name, or deleted."""
    node: cst.CSTNode = name
    parent = facts.parent(node)
    while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        node, parent = parent, facts.parent(parent)
    if isinstance(parent, (cst.AssignTarget, cst.AsName, cst.Del, cst.ImportAlias)):
        return True
    if isinstance(parent, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
        return parent.target is node
    if isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
        return parent.name is node
    return False


def sole_writers(facts: Facts, names: set[str], statements: list[cst.CSTNode], loop: Loop) -> bool:
    """In `loop`, `names` are bound only by `statements` and not read before the first of them
    (so moving those statements before the loop gives every read the same value)."""
    start = facts.order(statements[0])
    for name in names:
        for node in reads_of(facts, name, loop.node.body):
            if is_binding(facts, node):
                if not any(within(facts, node, s) for s in statements):
                    return False
            elif facts.order(node) < start:
                return False
    return True


# --- how often a loop runs ---------------------------------------------------------------

_SIZED_FACTORIES = frozenset({"zeros", "ones", "randn", "rand", "empty", "full", "arange"})


def surely_runs(facts: Facts, node: cst.CSTNode, outside: cst.CSTNode) -> bool:
    """`node` runs at least once before `outside` does: every loop around it (that is not
    around `outside` too) provably iterates, and nothing in them skips or leaves early.

    `torch.stack([])` raises where `torch.tensor([])` gives an empty tensor, so a rewrite
    that joins a list filled in a loop is exact only when the list cannot be empty."""
    if evaluated_conditionally(facts, node):
        return False
    around = set(facts.enclosing_loops(outside))
    for loop in facts.enclosing_loops(node):
        if loop in around:
            break
        if not isinstance(loop.node, cst.For) or facts.is_conditional(node, loop) or not _iterates(facts, loop.node.iter):
            return False
        if any(isinstance(n, (cst.Break, cst.Continue, cst.Return, cst.Raise)) for n in facts.walk(loop.node.body)):
            return False
    return True


def evaluated_conditionally(facts: Facts, node: cst.CSTNode) -> bool:
    """Within its statement, `node` may not be evaluated at all: a branch of `a if c else b`,
    the right side of `and`/`or`, the element or a later clause of a comprehension (which may
    be empty). Moved out of the statement it would run unconditionally (`x.cuda() if
    torch.cuda.is_available() else x` fails on a host without a GPU)."""
    child: cst.CSTNode = node
    for anc in facts.ancestors(node):
        if isinstance(anc, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            return False
        if isinstance(anc, cst.IfExp) and child is not anc.test:
            return True
        if isinstance(anc, cst.BooleanOperation) and child is anc.right:
            return True
        if isinstance(anc, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)) and child is not anc.for_in:
            return True
        if isinstance(anc, cst.CompFor) and child is not anc.iter:
            return True
        child = anc
    return False


def _iterates(facts: Facts, it: cst.BaseExpression) -> bool:
    """The iterable provably has at least one element (literal ranges, sequences, shapes)."""
    if isinstance(it, (cst.List, cst.Tuple)):
        return bool(it.elements) and not any(isinstance(e, cst.StarredElement) for e in it.elements)
    if isinstance(it, cst.Name):
        value = assigned_value(facts, it)
        return value is not None and _iterates(facts, value)
    if not isinstance(it, cst.Call):
        return False
    qualified = facts.qualified_name(it.func) or ""
    ints = [_int(a.value) for a in it.args if a.keyword is None and not a.star]
    if qualified == "builtins.range" and len(ints) == len(it.args) and ints and None not in ints:
        return len(range(*ints)) > 0  # type: ignore[arg-type]
    head, _, name = qualified.rpartition(".")
    if head == "torch" and name in _SIZED_FACTORIES and name != "arange":
        size = keyword(it, "size")
        first = it.args[0].value if it.args and it.args[0].keyword is None else size
        if isinstance(first, (cst.Tuple, cst.List)) and first.elements:
            first = first.elements[0].value
        return (n := _int(first) if first is not None else None) is not None and n > 0
    if qualified == "torch.randint":
        size = keyword(it, "size") or next((a.value for a in it.args[2:3] if a.keyword is None), None)
        if isinstance(size, (cst.Tuple, cst.List)) and size.elements:
            return (n := _int(size.elements[0].value)) is not None and n > 0
    return False


def _int(expr: cst.BaseExpression | None) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) and isinstance(expr.expression, cst.Integer):
        return -int(expr.expression.evaluated_value)
    return None


# --- where a tensor lives ---------------------------------------------------------------------

_HOST_INDEX_FACTORIES = frozenset({"tensor", "as_tensor", "LongTensor", "IntTensor", "arange", "randperm", "from_numpy"})


def device_spelled(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`device`, `args.device`, `x.device`, `"cuda:0"`, `torch.device("cuda")`: names a device
    other than the host (a literal `"cpu"` does not)."""
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value.split(":")[0] in ("cuda", "mps", "xpu")
    if isinstance(expr, cst.Call) and (facts.qualified_name(expr.func) or "") == "torch.device":
        return bool(expr.args) and device_spelled(facts, expr.args[0].value)
    spelled = facts.code(expr).lower()
    return "device" in spelled and "cpu" not in spelled and "dtype" not in spelled


def on_device(facts: Facts, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """Provably moved to or made on a device: `.cuda()`, `.to(device)`, `device=device`."""
    if depth > 4:
        return False
    if isinstance(expr, cst.Name):
        value = facts.value_of(expr)
        return value is not None and on_device(facts, value, depth + 1)
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value == "cuda":
        return True
    if isinstance(func, cst.Attribute) and func.attr.value == "to" and expr.args and expr.args[0].keyword is None:
        return device_spelled(facts, expr.args[0].value)
    dev = keyword(expr, "device")
    if dev is not None and (facts.qualified_name(func) or "").startswith("torch."):
        return device_spelled(facts, dev)
    return False


def host_index(facts: Facts, expr: cst.BaseExpression) -> cst.Call | None:
    """The constructor of an index tensor made on the host (`torch.tensor(ids)` with no
    `device=`, `torch.randperm(n)`), for `expr` or the name bound to it."""
    value = facts.value_of(expr) if isinstance(expr, cst.Name) else expr
    if not isinstance(value, cst.Call):
        return None
    qualified = facts.qualified_name(value.func) or ""
    if qualified == "numpy.arange":  # `q[np.arange(B), actions]`: torch turns the array into a host tensor
        return value if value.args and all(a.keyword is None and not a.star for a in value.args) else None
    if not qualified.startswith("torch.") or qualified.count(".") != 1 or qualified[6:] not in _HOST_INDEX_FACTORIES:
        return None
    return value if keyword(value, "device") is None else None


def made_on_host(facts: Facts, expr: cst.BaseExpression) -> bool:
    """Bound to a conversion of host data with no `device=` (`torch.from_numpy(table[i])`):
    a tensor that never left the host, whatever runs on a device elsewhere."""
    value = facts.value_of(expr) if isinstance(expr, cst.Name) else expr
    if not isinstance(value, cst.Call):
        return False
    qualified = facts.qualified_name(value.func) or ""
    return qualified in ("torch.from_numpy", "torch.as_tensor", "torch.tensor", "torch.Tensor") and keyword(value, "device") is None


def optimised(facts: Facts, name: str) -> bool:
    """`name` is what some optimisation changes: handed to a `torch.optim` optimizer
    (`Adam([target])`, style transfer's image), or a leaf whose gradient or data the program
    touches (`target.requires_grad_()`, `x.data -= lr * x.grad`)."""
    for use in facts.uses(name):
        parent = facts.parent(use)
        if isinstance(parent, cst.Attribute) and parent.value is use \
                and parent.attr.value in ("requires_grad_", "requires_grad", "data", "grad", "retain_grad"):
            return True
        if any(isinstance(a, cst.Call) and (facts.qualified_name(a.func) or "").startswith("torch.optim.")
               for a in facts.ancestors(use)):
            return True
    return False
