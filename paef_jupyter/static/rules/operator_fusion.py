"""Hand-written GELU, sigmoid, softmax, layer norm...: element-wise chains with a fused op.

Expressions are read into a small algebra (sums, products with a constant coefficient,
quotients, calls) so that the many ways of writing the same formula (`x ** 3`, `x * x * x`,
`torch.pow(x, 3)`; `/ 2` or `* 0.5`; `math.sqrt(2 / math.pi)` or `0.7978845608`) match one
pattern. A pattern is rewritten only when the fused op computes the same values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from dataclasses import replace as replace_node
from functools import cached_property
from typing import Callable

import libcst as cst

from ...fix.edits import delete_statement, replace
from ...model import Fix, Severity
from ..facts import Facts, passed_for
from ..names import block_statements, dotted_name
from ..types import Kind
from ._tensor_facts import (BOOL, INT, dtype_of, dtype_unread, earlier_value, family, module_alias, rarely_runs, reads_of,
                            within)
from ._local_changes import changed_between
from ._saved_input import may_be_written_before_backward
from .base import Rule, RuleContext

# --- the algebra ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    node: cst.CSTNode = field(compare=False, repr=False)

    @property
    def key(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Const(Expr):
    value: float = 0.0

    @property
    def key(self) -> str:
        return repr(self.value)


@dataclass(frozen=True)
class Leaf(Expr):
    render: Callable[[], str] = field(default=str, compare=False, repr=False)

    @cached_property
    def code(self) -> str:
        """The source, whitespace removed: computed only when a pattern compares leaves."""
        return self.render()

    @property
    def key(self) -> str:
        return self.code


@dataclass(frozen=True)
class Sum(Expr):
    terms: tuple[Expr, ...] = ()

    @property
    def key(self) -> str:
        return "(" + " + ".join(sorted(t.key for t in self.terms)) + ")"


@dataclass(frozen=True)
class Prod(Expr):
    coef: float = 1.0
    factors: tuple[Expr, ...] = ()

    @property
    def key(self) -> str:
        return f"({self.coef!r} * " + " * ".join(sorted(f.key for f in self.factors)) + ")"


@dataclass(frozen=True)
class Div(Expr):
    num: Expr = None  # type: ignore[assignment]
    den: Expr = None  # type: ignore[assignment]

    @property
    def key(self) -> str:
        return f"({self.num.key} / {self.den.key})"


@dataclass(frozen=True)
class Fn(Expr):
    name: str = ""
    args: tuple[Expr, ...] = ()
    kwargs: tuple[tuple[str, Expr], ...] = ()

    @property
    def key(self) -> str:
        kw = ", ".join(f"{k}={v.key}" for k, v in sorted(self.kwargs))
        return f"{self.name}({', '.join(a.key for a in self.args)}{', ' + kw if kw else ''})"

    def kw(self, name: str) -> Expr | None:
        return next((v for k, v in self.kwargs if k == name), None)


@dataclass(frozen=True)
class Gt(Expr):
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]

    @property
    def key(self) -> str:
        return f"({self.left.key} > {self.right.key})"


@dataclass(frozen=True)
class Ge(Expr):
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]

    @property
    def key(self) -> str:
        return f"({self.left.key} >= {self.right.key})"


# Torch functions (and tensor methods) read as calls of the algebra.
_FUNCTIONS = frozenset({
    "tanh", "erf", "exp", "log", "sigmoid", "sqrt", "rsqrt", "sum", "mean", "var", "max", "maximum",
    "zeros_like", "softmax", "logsumexp", "where", "abs", "sin", "cos", "square", "log1p", "expm1",
    "clamp", "relu", "reciprocal", "pow",
})
_ELEMENTWISE = frozenset({
    "tanh", "erf", "exp", "log", "sigmoid", "sqrt", "rsqrt", "abs", "sin", "cos", "square", "log1p", "expm1",
    "clamp", "relu", "reciprocal", "pow", "neg", "exp2", "sinh", "cosh", "atan", "floor", "ceil",
})
_SHAPE_METHODS = frozenset({"float", "double", "view", "reshape", "t", "contiguous", "detach", "std", "size"})
_MATH_CONSTANTS = {"math.pi": math.pi, "numpy.pi": math.pi, "math.e": math.e, "numpy.e": math.e}
_MATH_SQRT = frozenset({"math.sqrt", "numpy.sqrt"})


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b), 1e-12)


# Element-wise ops on one tensor before a chain earns a `torch.compile` hint: short formulas
# (`torch.sqrt((1 - cos.pow(2)).clamp(0, 1))`, 4 kernels) are everywhere in model code and
# fusing them saves little; a hint there is noise an expert would not sign.
_MIN_CHAIN = 6

class Algebra:
    """Reads libcst expressions into the algebra, memoised per node."""

    def __init__(self, qualified: Callable[[cst.CSTNode], str | None], code: Callable[[cst.CSTNode], str],
                 resolve: Callable[[cst.Name], cst.BaseExpression | None] = lambda name: None) -> None:
        self._qualified = qualified
        self._code = code
        self._resolve = resolve  # a local variable's value (`mean = x.mean(...)` earlier in the block)
        self._memo: dict[int, Expr] = {}

    def read(self, node: cst.BaseExpression) -> Expr:
        key = id(node)
        if key not in self._memo:
            self._memo[key] = self._leaf(node)  # guards against a definition reaching itself
            self._memo[key] = self._read(node)
        return self._memo[key]

    def substitute(self, name: cst.Name) -> cst.BaseExpression | None:
        """The local value read in place of `name`, if any."""
        return self._resolve(name)

    def _leaf(self, node: cst.BaseExpression) -> Leaf:
        key = dotted_name(node) if not getattr(node, "lpar", ()) else None  # cheaper than code generation
        return Leaf(node, (lambda: key) if key else (lambda: "".join(self._code(node).split())))

    def _read(self, node: cst.BaseExpression) -> Expr:
        if isinstance(node, (cst.Integer, cst.Float)):
            return Const(node, float(node.evaluated_value))
        if isinstance(node, (cst.Name, cst.Attribute)):
            value = _MATH_CONSTANTS.get(self._qualified(node) or "")
            if value is not None:
                return Const(node, value)
            local = self.substitute(node) if isinstance(node, cst.Name) else None
            if local is None:
                return self._leaf(node)
            return replace_node(self.read(local), node=node)  # same algebra, written as the name
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return _prod(node, -1.0, [self.read(node.expression)])
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            op, left, right = node.comparisons[0].operator, node.left, node.comparisons[0].comparator
            order = {cst.GreaterThan: (Gt, left, right), cst.LessThan: (Gt, right, left),
                     cst.GreaterThanEqual: (Ge, left, right), cst.LessThanEqual: (Ge, right, left)}.get(type(op))
            if order is not None:
                kind, big, small = order
                return kind(node, self.read(big), self.read(small))
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        return self._leaf(node)

    def _binary(self, node: cst.BinaryOperation) -> Expr:
        left, right, op = self.read(node.left), self.read(node.right), node.operator
        if isinstance(op, cst.Add):
            return _sum(node, [left, right])
        if isinstance(op, cst.Subtract):
            return _sum(node, [left, _prod(node.right, -1.0, [right])])
        if isinstance(op, cst.Multiply):
            return _prod(node, 1.0, [left, right])
        if isinstance(op, cst.Divide):
            if isinstance(right, Const) and right.value != 0:
                return _prod(node, 1.0 / right.value, [left])
            return Div(node, left, right)
        if isinstance(op, cst.Power) and isinstance(right, Const):
            return _power(node, left, right)
        return self._leaf(node)

    def _call(self, node: cst.Call) -> Expr:
        qualified = self._qualified(node.func) or ""
        args = [a for a in node.args if a.keyword is None and not a.star]
        kwargs = [(a.keyword.value, a.value) for a in node.args if a.keyword is not None]
        if qualified in _MATH_SQRT and len(args) == 1 and not kwargs:
            inner = self.read(args[0].value)
            if isinstance(inner, Const) and inner.value >= 0:
                return Const(node, math.sqrt(inner.value))
            return self._leaf(node)
        if qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:] in _FUNCTIONS:
            name, operands = qualified[6:], [a.value for a in args]
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value in _FUNCTIONS and not qualified.startswith(("math.", "numpy.")):
            name, operands = node.func.attr.value, [node.func.value, *(a.value for a in args)]
        else:
            return self._leaf(node)
        read = [self.read(o) for o in operands]
        if name == "pow" and len(read) == 2 and isinstance(read[1], Const):
            return _power(node, read[0], read[1])
        if name == "square" and len(read) == 1:
            return _prod(node, 1.0, [read[0], read[0]])
        return Fn(node, name, tuple(read), tuple((k, self.read(v)) for k, v in kwargs))


def _power(node: cst.CSTNode, base: Expr, exponent: Const) -> Expr:
    if exponent.value in (2.0, 3.0, 4.0):
        return _prod(node, 1.0, [base] * int(exponent.value))
    if exponent.value == 0.5:
        return Fn(node, "sqrt", (base,))
    return Fn(node, "pow", (base, exponent))


def _sum(node: cst.CSTNode, parts: list[Expr]) -> Expr:
    terms: list[Expr] = []
    consts: list[Const] = []
    for part in parts:
        for term in part.terms if isinstance(part, Sum) else (part,):
            (consts if isinstance(term, Const) else terms).append(term)  # type: ignore[arg-type]
    constant = sum(c.value for c in consts)
    if constant:  # one constant keeps its own node (its source text is the user's)
        terms.append(consts[0] if len(consts) == 1 else Const(node, constant))
    if not terms:
        return Const(node, 0.0)
    return terms[0] if len(terms) == 1 else Sum(node, tuple(terms))


def _prod(node: cst.CSTNode, coef: float, parts: list[Expr]) -> Expr:
    factors: list[Expr] = []
    for part in parts:
        if isinstance(part, Const):
            coef *= part.value
        elif isinstance(part, Prod):
            coef *= part.coef
            factors.extend(part.factors)
        else:
            factors.append(part)
    if not factors:
        return Const(node, coef)
    if coef == 1.0 and len(factors) == 1:
        return factors[0]
    return Prod(node, coef, tuple(factors))


def polynomial(expr: Expr, x: str) -> dict[int, float] | None:
    """`expr` as a polynomial in the expression keyed `x` ({power: coefficient}), if it is one."""
    if expr.key == x:
        return {1: 1.0}
    if isinstance(expr, Const):
        return {0: expr.value}
    if isinstance(expr, Sum):
        out: dict[int, float] = {}
        for term in expr.terms:
            p = polynomial(term, x)
            if p is None:
                return None
            for k, v in p.items():
                out[k] = out.get(k, 0.0) + v
        return {k: v for k, v in out.items() if v}
    if isinstance(expr, Prod):
        result = {0: expr.coef}
        for factor in expr.factors:
            p = polynomial(factor, x)
            if p is None:
                return None
            product: dict[int, float] = {}
            for a, u in result.items():
                for b, v in p.items():
                    product[a + b] = product.get(a + b, 0.0) + u * v
            result = product
        return {k: v for k, v in result.items() if v}
    return None


def _same_poly(p: dict[int, float] | None, expected: dict[int, float]) -> bool:
    return p is not None and p.keys() == expected.keys() and all(_close(p[k], v) for k, v in expected.items())


# --- patterns -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    what: str  # "tanh GELU", ...
    fused: str  # the fused op, in words: `F.gelu(x, approximate="tanh")`
    build: Callable[["Names"], str]  # code of the replacement
    exact: bool = True  # the fused op computes the same function
    why_not: str = ""
    one_kernel: bool = True  # else: fewer kernels, not one
    # The fused op also gives the same bits. Only selections (ReLU, leaky ReLU) do: every op
    # with arithmetic (exp, tanh, erf, a reduction) rounds differently in its fused kernel, and
    # a value a model trains on carries that difference into every later step.
    bitwise: bool = False
    # Where the fused op still differs on floating-point inputs (NaN, infinities, signed zeros,
    # the gradient at a tie): a review reason, void on a provably integer input.
    float_edge: str = ""
    # The tensor the fused op is applied to (ReLU): its own dtype, not that of every name the
    # formula reads (`x[idx]` reads an integer index), decides whether `float_edge` applies.
    operand: cst.CSTNode | None = None
    # Where the fused op differs on integer inputs: `torch.where(x > 0, x, 0.0)` is a float
    # tensor, `torch.relu(x)` keeps the integer dtype.
    integer_edge: str = ""
    # The tensor the fused op saves for backward where the hand-written form saved only a mask
    # (leaky ReLU): an in-place write to it before the backward makes the fused form raise.
    saves: cst.CSTNode | None = None


@dataclass(frozen=True)
class Names:
    torch: str
    functional: str


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _split(prod: Expr, coef: float, count: int) -> list[Expr] | None:
    if isinstance(prod, Prod) and _close(prod.coef, coef) and len(prod.factors) == count:
        return list(prod.factors)
    return None


def _one_plus(expr: Expr, name: str) -> Fn | None:
    """`1 + name(...)`."""
    if isinstance(expr, Sum) and len(expr.terms) == 2:
        consts = [t for t in expr.terms if isinstance(t, Const)]
        calls = [t for t in expr.terms if isinstance(t, Fn) and t.name == name and len(t.args) == 1 and not t.kwargs]
        if len(consts) == 1 and _close(consts[0].value, 1.0) and len(calls) == 1:
            return calls[0]
    return None


def match_gelu(expr: Expr) -> tuple[str, Expr] | None:
    factors = _split(expr, 0.5, 2)
    if factors is None:
        return None
    for x, other in (factors, factors[::-1]):
        tanh = _one_plus(other, "tanh")
        if tanh is not None and _same_poly(polynomial(tanh.args[0], x.key), {1: _SQRT_2_OVER_PI, 3: _SQRT_2_OVER_PI * 0.044715}):
            return "tanh", x
        erf = _one_plus(other, "erf")
        if erf is not None and _same_poly(polynomial(erf.args[0], x.key), {1: 1 / math.sqrt(2.0)}):
            return "erf", x
    return None


def match_sigmoid(expr: Expr) -> Expr | None:
    """`1 / (1 + exp(-x))`."""
    if isinstance(expr, Div) and isinstance(expr.num, Const) and _close(expr.num.value, 1.0):
        return _sigmoid_denominator(expr.den)
    if isinstance(expr, Fn) and expr.name == "sigmoid" and len(expr.args) == 1 and not expr.kwargs:
        return expr.args[0]
    return None


def _sigmoid_denominator(den: Expr) -> Expr | None:
    exp = _one_plus(den, "exp")
    if exp is None:
        return None
    arg = exp.args[0]
    if isinstance(arg, Prod) and arg.coef == -1.0 and len(arg.factors) == 1:
        return arg.factors[0]
    return None


def match_silu(expr: Expr) -> Expr | None:
    """`x * sigmoid(x)` or `x / (1 + exp(-x))`."""
    if isinstance(expr, Div):
        x = _sigmoid_denominator(expr.den)
        return x if x is not None and x.key == expr.num.key else None
    factors = _split(expr, 1.0, 2)
    if factors is None:
        return None
    for x, other in (factors, factors[::-1]):
        inner = match_sigmoid(other)
        if inner is not None and inner.key == x.key:
            return x
    return None


def match_relu(expr: Expr, is_tensor: Callable[[Expr], bool]) -> Expr | None:
    """`torch.max(x, torch.zeros_like(x))`, `x * (x > 0)`, `torch.where(x > 0, x, 0)`."""
    if isinstance(expr, Fn) and expr.name in ("max", "maximum") and len(expr.args) == 2 and not expr.kwargs:
        for x, other in (expr.args, expr.args[::-1]):
            if isinstance(other, Fn) and other.name == "zeros_like" and len(other.args) == 1 \
                    and not other.kwargs and other.args[0].key == x.key:
                return x
    if isinstance(expr, Fn) and expr.name == "where" and len(expr.args) == 3 and not expr.kwargs:
        cond, x, zero = expr.args
        if _positive(cond, x) and (isinstance(zero, Const) and zero.value == 0 or
                                   isinstance(zero, Fn) and zero.name == "zeros_like" and len(zero.args) == 1
                                   and not zero.kwargs and zero.args[0].key == x.key):
            return x
    factors = _split(expr, 1.0, 2)
    if factors is not None:
        for x, other in (factors, factors[::-1]):
            if _positive(other, x) and is_tensor(x):
                return x
    return None


def _relu_edge(expr: Expr) -> str:
    """Where `torch.relu` differs from the hand-written ReLU `expr` on floating-point inputs."""
    if isinstance(expr, Fn) and expr.name in ("max", "maximum"):
        return ("at an input of exactly 0 the maximum splits the gradient between its two arguments (0.5 each) "
                "where `torch.relu` passes 0: exact zeros (padding, a ReLU before) train differently")
    if isinstance(expr, Fn) and expr.name == "where":
        return "a NaN input gives 0 here (the test `x > 0` is false) and NaN with `torch.relu`"
    return ("a negative input gives -0.0 here (printed `-0.`) and 0.0 with `torch.relu`, and -inf gives NaN "
            "here (-inf * 0) and 0 with `torch.relu`")


def _relu_integer_edge(expr: Expr) -> str:
    """Where `torch.relu` differs from the hand-written ReLU `expr` on an integer tensor: a
    float zero (`torch.where(x > 0, x, 0.0)`) promotes the result to the default float dtype."""
    if isinstance(expr, Fn) and expr.name == "where" and len(expr.args) == 3:
        zero = expr.args[2]
        node = zero.node
        while isinstance(node, cst.UnaryOperation):
            node = node.expression
        if isinstance(zero, Const) and not isinstance(node, cst.Integer):
            return (f"the zero `{_code(zero)}` is not an integer literal: on an integer tensor `torch.where` then "
                    "returns a float tensor, `torch.relu` an integer one")
    return ""


def match_leaky_relu(expr: Expr) -> tuple[Expr, str, bool] | None:
    """`torch.where(x > 0, x, x * slope)` (or `slope * x`): leaky ReLU, the same values and,
    with the strict `>`, the same gradient at 0 (the slope's). The slope's code, and whether it
    is a number literal (one multiplication, as `F.leaky_relu` does)."""
    if not (isinstance(expr, Fn) and expr.name == "where" and len(expr.args) == 3 and not expr.kwargs):
        return None
    cond, x, scaled = expr.args
    node = scaled.node
    if not _positive(cond, x) or not isinstance(scaled, Prod) or not isinstance(node, cst.BinaryOperation) \
            or not isinstance(node.operator, cst.Multiply):
        return None
    for a, b in ((node.left, node.right), (node.right, node.left)):
        if _code(Const(a)) != _code(x):
            continue
        literal = isinstance(b, (cst.Integer, cst.Float)) or (
            isinstance(b, cst.UnaryOperation) and isinstance(b.operator, cst.Minus) and isinstance(b.expression, (cst.Integer, cst.Float)))
        if literal or isinstance(b, (cst.Name, cst.Attribute)):
            return x, _code(Const(b)), literal
    return None


def match_relu_of_other(expr: Expr) -> tuple[Expr, Expr] | None:
    """`torch.max(a, torch.zeros_like(b))` with `b` another tensor: ReLU of `a` only when the
    zeros take `a`'s shape and dtype (not provable here), else a broadcast or a type promotion."""
    if isinstance(expr, Fn) and expr.name in ("max", "maximum") and len(expr.args) == 2 and not expr.kwargs:
        for x, other in (expr.args, expr.args[::-1]):
            if isinstance(other, Fn) and other.name == "zeros_like" and len(other.args) == 1 and not other.kwargs \
                    and other.args[0].key != x.key and not isinstance(x, Const):
                return x, other.args[0]
    return None


def _number(expr: cst.BaseExpression | None) -> bool:
    """A Python number literal (`1e-6`, `-3`): a scalar, never an integer tensor."""
    while isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _positive(cond: Expr, x: Expr) -> bool:
    return isinstance(cond, Gt) and cond.left.key == x.key and isinstance(cond.right, Const) and cond.right.value == 0


def _reduction(expr: Expr, name: str) -> tuple[Expr, Expr] | None:
    """`name(x, dim, keepdim=True)` (function or method): (x, dim)."""
    if not (isinstance(expr, Fn) and expr.name == name and 1 <= len(expr.args) <= 2):
        return None
    keep = expr.kw("keepdim")
    dim = expr.args[1] if len(expr.args) == 2 else expr.kw("dim")
    if dim is None or not (isinstance(keep, Leaf) and keep.code == "True"):
        return None
    extra = {k for k, _ in expr.kwargs} - {"dim", "keepdim"}
    return (expr.args[0], dim) if not extra else None


Monomials = dict[tuple[str, ...], float]


def expand(expr: Expr) -> Monomials | None:
    """`expr` as a polynomial over its atoms (leaves and calls, by key): {sorted atom keys: coefficient}."""
    if isinstance(expr, Const):
        return {(): expr.value}
    if isinstance(expr, Sum):
        out: Monomials = {}
        for term in expr.terms:
            p = expand(term)
            if p is None:
                return None
            for k, v in p.items():
                out[k] = out.get(k, 0.0) + v
        return {k: v for k, v in out.items() if v}
    if isinstance(expr, Prod):
        result: Monomials = {(): expr.coef}
        for factor in expr.factors:
            p = expand(factor)
            if p is None:
                return None
            product: Monomials = {}
            for a, u in result.items():
                for b, v in p.items():
                    key = tuple(sorted(a + b))
                    product[key] = product.get(key, 0.0) + u * v
            result = product
        return {k: v for k, v in result.items() if v}
    if isinstance(expr, (Div, Gt, Ge)):
        return None
    return {(expr.key,): 1.0}


def _same_expansion(expr: Expr, expected: Expr) -> bool:
    p, q = expand(expr), expand(expected)
    return p is not None and q is not None and p.keys() == q.keys() and all(_close(p[k], q[k]) for k in p)


@dataclass(frozen=True)
class Huber:
    x: Expr  # the difference whose size is tested
    delta: Expr  # a number, or a name
    smooth_l1: bool  # the quadratic part divided by delta, the linear one not scaled (`F.smooth_l1_loss`'s beta)


def match_huber(expr: Expr) -> Huber | None:
    """`torch.where(|x| < d, 0.5 * x ** 2, d * (|x| - 0.5 * d))` (Huber) or, with a number `b`,
    `torch.where(|x| < b, 0.5 * x ** 2 / b, |x| - 0.5 * b)` (smooth L1). `<=` too: at |x| = d both
    branches have the same value and the same slope."""
    if not (isinstance(expr, Fn) and expr.name == "where" and len(expr.args) == 3 and not expr.kwargs):
        return None
    cond, inner, outer = expr.args
    if not (isinstance(cond, (Gt, Ge)) and isinstance(cond.right, Fn) and cond.right.name == "abs"
            and len(cond.right.args) == 1 and not cond.right.kwargs):
        return None
    delta, size = cond.left, cond.right
    x = size.args[0]
    if isinstance(delta, Const) and delta.value <= 0 or not isinstance(delta, (Const, Leaf)):
        return None

    def quadratic(coef: float) -> bool:
        return any(_same_expansion(inner, _prod(None, coef, [v, v])) for v in (x, size))  # type: ignore[arg-type]

    huber_linear = _sum(None, [_prod(None, 1.0, [delta, size]), _prod(None, -0.5, [delta, delta])])  # type: ignore[arg-type]
    if quadratic(0.5) and _same_expansion(outer, huber_linear):
        return Huber(x, delta, smooth_l1=False)
    if isinstance(delta, Const) and quadratic(0.5 / delta.value) \
            and _same_expansion(outer, _sum(None, [size, Const(None, -0.5 * delta.value)])):  # type: ignore[arg-type]
        return Huber(x, delta, smooth_l1=True)
    return None


def match_softmax(expr: Expr) -> tuple[Expr, Expr] | None:
    """`exp(x) / exp(x).sum(dim, keepdim=True)`."""
    if not isinstance(expr, Div) or not _is_exp(expr.num):
        return None
    total = _reduction(expr.den, "sum")
    if total is None or total[0].key != expr.num.key:
        return None
    return expr.num.args[0], total[1]  # type: ignore[union-attr]


def _is_exp(expr: Expr) -> bool:
    return isinstance(expr, Fn) and expr.name == "exp" and len(expr.args) == 1 and not expr.kwargs


def match_log_softmax(expr: Expr) -> tuple[Expr, Expr] | None:
    """`x - log(exp(x).sum(dim, keepdim=True))`, `x - logsumexp(x, dim, keepdim=True)`, `log(softmax(x, dim))`."""
    if isinstance(expr, Fn) and expr.name == "log" and len(expr.args) == 1 and not expr.kwargs:
        inner = expr.args[0]
        if isinstance(inner, Fn) and inner.name == "softmax" and len(inner.args) + len(inner.kwargs) == 2:
            dim = inner.args[1] if len(inner.args) == 2 else inner.kw("dim")
            return (inner.args[0], dim) if dim is not None else None
        return match_softmax(inner)
    if not (isinstance(expr, Sum) and len(expr.terms) == 2):
        return None
    for x, other in (expr.terms, expr.terms[::-1]):
        if not (isinstance(other, Prod) and other.coef == -1.0 and len(other.factors) == 1):
            continue
        inner = other.factors[0]
        lse = _reduction(inner, "logsumexp")
        if lse is not None and lse[0].key == x.key:
            return x, lse[1]
        if isinstance(inner, Fn) and inner.name == "log" and len(inner.args) == 1:
            total = _reduction(inner.args[0], "sum")
            if total is not None and _is_exp(total[0]) and total[0].args[0].key == x.key:  # type: ignore[union-attr]
                return x, total[1]
    return None


# Methods that only reshape or broadcast a tensor (its values unchanged): a shift written
# `m.view(1, -1).expand(1, n)` is still `m`, element for element where it broadcasts.
_BROADCASTS = frozenset({"view", "expand", "expand_as", "unsqueeze", "reshape"})


def match_log_sum_exp(expr: Expr, read: Callable[[cst.BaseExpression], Expr]) -> tuple[Expr, Expr | None, Expr | None] | None:
    """`m + log(sum(exp(x - m)))` (the shift `m` written reshaped or broadcast: `m.view(1, -1).expand(1, n)`,
    `m.unsqueeze(-1)`, `m[:, None]`): `logsumexp(x)` over the summed dims, whatever `m` is, since
    `log(sum(exp(x - m))) = log(sum(exp(x))) - m` (the shift only keeps `exp` from overflowing).
    (x, dim or None for a sum of every element, keepdim or None)."""
    if not (isinstance(expr, Sum) and len(expr.terms) == 2):
        return None
    for shift, other in (expr.terms, expr.terms[::-1]):
        if not (isinstance(other, Fn) and other.name == "log" and len(other.args) == 1 and not other.kwargs):
            continue
        total = other.args[0]
        if not (isinstance(total, Fn) and total.name == "sum" and 1 <= len(total.args) <= 2
                and {k for k, _ in total.kwargs} <= {"dim", "keepdim"} and _is_exp(total.args[0])):
            continue
        dim = total.args[1] if len(total.args) == 2 else total.kw("dim")
        if dim is None and total.kwargs:
            continue
        diff = total.args[0].args[0]  # type: ignore[attr-defined]
        if not (isinstance(diff, Sum) and len(diff.terms) == 2):
            continue
        for x, negated in (diff.terms, diff.terms[::-1]):
            if isinstance(negated, Prod) and negated.coef == -1.0 and len(negated.factors) == 1 \
                    and _unbroadcast(negated.factors[0], read).key == shift.key and x.key != shift.key:
                return x, dim, total.kw("keepdim")
    return None


def _unbroadcast(expr: Expr, read: Callable[[cst.BaseExpression], Expr]) -> Expr:
    """`m` of `m.view(1, -1).expand(1, n)`, `m.unsqueeze(-1)`, `m[:, None]` (else `expr`)."""
    node, peeled = expr.node, False
    while True:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _BROADCASTS \
                and not any(a.star for a in node.args):
            node, peeled = node.func.value, True
        elif isinstance(node, cst.Subscript) and node.slice and all(
                isinstance(e.slice, cst.Index) and isinstance(e.slice.value, (cst.Name, cst.Ellipsis))
                and (not isinstance(e.slice.value, cst.Name) or e.slice.value.value == "None")
                or isinstance(e.slice, cst.Slice) and e.slice.lower is None and e.slice.upper is None and e.slice.step is None
                for e in node.slice) and any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Name)
                                             for e in node.slice):
            node, peeled = node.value, True
        else:
            return read(node) if peeled else expr  # type: ignore[arg-type]


def match_l2_normalize(expr: Expr) -> tuple[Expr, Expr] | None:
    """`x / sqrt((x * x).sum(dim, keepdim=True) + eps)`."""
    if not isinstance(expr, Div):
        return None
    x, den = expr.num, expr.den
    if isinstance(den, Fn) and den.name == "sqrt" and len(den.args) == 1:
        inside = den.args[0]
        terms = inside.terms if isinstance(inside, Sum) else (inside,)
        if len(terms) > 2:
            return None
        for i, term in enumerate(terms):  # the sum of squares, and at most one eps (a constant or a name)
            rest = terms[:i] + terms[i + 1 :]
            total = _reduction(term, "sum")
            if total is not None and isinstance(total[0], Prod) and total[0].coef == 1.0 \
                    and [f.key for f in total[0].factors] == [x.key, x.key] \
                    and all(isinstance(r, Const) or (isinstance(r, Leaf) and r.key != x.key) for r in rest):
                return x, total[1]
    return None


def match_rms_norm(expr: Expr) -> "LayerNorm | None":
    """`x * rsqrt(x.pow(2).mean(dim, keepdim=True) + eps)` or `x / sqrt(...)`, optionally `* w`."""
    plain = _rms(expr)
    if plain is not None or not (isinstance(expr, Prod) and expr.coef == 1.0):
        return plain
    factors = list(expr.factors)
    for i, factor in enumerate(factors):  # (x / sqrt(...)) * w
        rest = factors[:i] + factors[i + 1 :]
        found = _rms(factor)
        if found is not None and len(rest) == 1:
            return LayerNorm(found.x, found.dim, found.eps, rest[0])
    if len(factors) == 3:  # x * rsqrt(...) * w
        for i, scale in enumerate(factors):
            for j, x in enumerate(factors):
                if i != j and isinstance(scale, Fn) and scale.name == "rsqrt" and len(scale.args) == 1:
                    found = _mean_square_over(x, scale.args[0])
                    if found is not None:
                        return LayerNorm(x, found[0], found[1], factors[3 - i - j])
    return None


def _rms(expr: Expr) -> "LayerNorm | None":
    if isinstance(expr, Div) and isinstance(expr.den, Fn) and expr.den.name == "sqrt" and len(expr.den.args) == 1:
        found = _mean_square_over(expr.num, expr.den.args[0])
        if found is not None:
            return LayerNorm(expr.num, found[0], found[1])
        if isinstance(expr.num, Prod) and expr.num.coef == 1.0 and len(expr.num.factors) == 2:
            for x, weight in (expr.num.factors, expr.num.factors[::-1]):  # `w * x / sqrt(...)`
                found = _mean_square_over(x, expr.den.args[0])
                if found is not None:
                    return LayerNorm(x, found[0], found[1], weight)
    if isinstance(expr, Prod) and expr.coef == 1.0 and len(expr.factors) == 2:
        for x, scale in (expr.factors, expr.factors[::-1]):
            if isinstance(scale, Fn) and scale.name == "rsqrt" and len(scale.args) == 1:
                found = _mean_square_over(x, scale.args[0])
                if found is not None:
                    return LayerNorm(x, found[0], found[1])
    return None


def _mean_square_over(x: Expr, inside: Expr) -> tuple[Expr, Expr] | None:
    """(dim, eps) when `inside` is `mean(x * x, dim, keepdim=True) + eps` (eps a constant or a name)."""
    if not (isinstance(inside, Sum) and len(inside.terms) == 2):
        return None
    for square, eps in (inside.terms, inside.terms[::-1]):
        red = _reduction(square, "mean")
        if red is not None and isinstance(red[0], Prod) and red[0].coef == 1.0 \
                and [f.key for f in red[0].factors] == [x.key, x.key] \
                and (isinstance(eps, Const) or (isinstance(eps, Leaf) and eps.key != x.key)):
            return red[1], eps
    return None


@dataclass(frozen=True)
class LayerNorm:
    x: Expr
    dim: Expr
    eps: Expr
    weight: Expr | None = None
    bias: Expr | None = None


def match_layer_norm(expr: Expr) -> LayerNorm | None:
    """`(x - mean) / sqrt(var + eps)` (or `* rsqrt(...)`), optionally `* w + b`."""
    if isinstance(expr, Sum) and len(expr.terms) == 2:
        for core, other in (expr.terms, expr.terms[::-1]):
            found = _scaled_norm(core)
            if found is not None:
                return LayerNorm(found.x, found.dim, found.eps, found.weight, other)
    return _scaled_norm(expr)


def _scaled_norm(expr: Expr) -> LayerNorm | None:
    plain = _norm(expr)
    if plain is not None:
        return plain
    if isinstance(expr, Prod) and expr.coef == 1.0:
        factors = list(expr.factors)
        for i, factor in enumerate(factors):
            rest = factors[:i] + factors[i + 1 :]
            found = _norm(factor)
            if found is not None and len(rest) == 1:
                return LayerNorm(found.x, found.dim, found.eps, rest[0])
        if len(factors) == 3:  # (x - m) * rsqrt(v + eps) * w
            for i in range(3):
                for j in range(3):
                    if i != j:
                        found = _centred_times_rsqrt(factors[i], factors[j])
                        if found is not None:
                            return LayerNorm(found.x, found.dim, found.eps, factors[3 - i - j])
    return None


def _norm(expr: Expr) -> LayerNorm | None:
    if isinstance(expr, Div) and isinstance(expr.den, Fn) and expr.den.name == "sqrt" and len(expr.den.args) == 1:
        found = _centred_over(expr.num, expr.den.args[0])
        if found is None and isinstance(expr.num, Prod) and expr.num.coef == 1.0 and len(expr.num.factors) == 2:
            for centred, weight in (expr.num.factors, expr.num.factors[::-1]):  # `g * (x - mu) / sqrt(var + eps)`
                inner = _centred_over(centred, expr.den.args[0])
                if inner is not None:
                    return LayerNorm(inner.x, inner.dim, inner.eps, weight)
        return found
    if isinstance(expr, Prod) and expr.coef == 1.0 and len(expr.factors) == 2:
        a, b = expr.factors
        return _centred_times_rsqrt(a, b) or _centred_times_rsqrt(b, a)
    return None


def _centred_times_rsqrt(centred: Expr, scale: Expr) -> LayerNorm | None:
    if isinstance(scale, Fn) and scale.name == "rsqrt" and len(scale.args) == 1:
        return _centred_over(centred, scale.args[0])
    return None


def _centred_over(centred: Expr, variance_eps: Expr) -> LayerNorm | None:
    """`x - x.mean(dim, keepdim=True)` over `var(x) + eps` with the population variance."""
    x_mean = _centred(centred)
    if x_mean is None or not (isinstance(variance_eps, Sum) and len(variance_eps.terms) == 2):
        return None
    x, dim = x_mean
    for var, eps in (variance_eps.terms, variance_eps.terms[::-1]):
        if _population_variance(var, x, dim, centred):
            return LayerNorm(x, dim, eps)
    return None


def _centred(expr: Expr) -> tuple[Expr, Expr] | None:
    if not (isinstance(expr, Sum) and len(expr.terms) == 2):
        return None
    for x, other in (expr.terms, expr.terms[::-1]):
        if isinstance(other, Prod) and other.coef == -1.0 and len(other.factors) == 1:
            mean = _reduction(other.factors[0], "mean")
            if mean is not None and mean[0].key == x.key:
                return x, mean[1]
    return None


def _population_variance(var: Expr, x: Expr, dim: Expr, centred: Expr) -> bool:
    red = _reduction(var, "mean")
    if red is not None:  # ((x - mean) ** 2).mean(dim, keepdim=True)
        inner, d = red
        return d.key == dim.key and isinstance(inner, Prod) and inner.coef == 1.0 and len(inner.factors) == 2 \
            and all(f.key == centred.key for f in inner.factors)
    if not (isinstance(var, Fn) and var.name == "var" and 1 <= len(var.args) <= 2):
        return False
    vdim = var.args[1] if len(var.args) == 2 else var.kw("dim")
    keep, unbiased, correction = var.kw("keepdim"), var.kw("unbiased"), var.kw("correction")
    population = (isinstance(unbiased, Leaf) and unbiased.code == "False") or \
        (isinstance(correction, Const) and correction.value == 0)
    extra = {k for k, _ in var.kwargs} - {"dim", "keepdim", "unbiased", "correction"}
    return var.args[0].key == x.key and vdim is not None and vdim.key == dim.key and population and not extra \
        and isinstance(keep, Leaf) and keep.code == "True"


# --- the rule -------------------------------------------------------------------------------


class OperatorFusion(Rule):
    id = "operator-fusion"
    title = "Element-wise chain with a fused equivalent"
    severity = Severity.MEDIUM
    explanation = (
        "Each element-wise op in a hand-written formula is a separate kernel: it reads the whole "
        "tensor from memory, writes a new one, and (when training) keeps its input for the "
        "backward pass. A fused op such as `F.gelu`, `torch.softmax` or `F.layer_norm` does the "
        "same arithmetic in one pass with one saved tensor, and is often more accurate "
        "(softmax and log-softmax are computed stably)."
    )

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self.algebra = Algebra(self.facts.qualified_name, self.facts.code, self._local_value)
        self._claimed: set[cst.CSTNode] = set()
        self._chains: list[tuple[cst.BaseExpression, int, str]] = []
        torch = module_alias(self.facts, "torch")
        functional = module_alias(self.facts, "torch.nn.functional")
        self._names = Names(torch, functional) if torch and functional else None

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._examine(node)

    def visit_Call(self, node: cst.Call) -> None:
        if self._soft_update(node):
            return
        self._examine(node)

    def _soft_update(self, node: cst.Call) -> bool:
        """`target.data.copy_(tau * p.data + (1 - tau) * target.data)` (a Polyak / EMA target-network
        update, per parameter, every step): two multiplies, an add and a copy, where
        `target.data.lerp_(p.data, tau)` is one kernel (and `torch._foreach_lerp_` one per list).
        A hint: `lerp` rounds differently in the last bits. True when reported, or when the blend
        runs only every N steps (`if step % freq == 0:`), which is left alone."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "copy_" and len(node.args) == 1
                and node.args[0].keyword is None and not node.args[0].star):
            return False
        value = node.args[0].value
        if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)):
            return False
        target = self.facts.code(func.value)
        left, right = _factors(value.left), _factors(value.right)
        loops = self.facts.enclosing_loops(node)
        if left is None or right is None or not loops:
            return False
        if any(rarely_runs(self.facts, node, loop, every_few_count=True) for loop in loops):
            return True  # CleanRL's hard copy every `target_network_frequency` steps: not a per-step cost
        for first, second in ((left, right), (right, left)):
            for weight, source in ((first[0], first[1]), (first[1], first[0])):
                for rest, kept in ((second[0], second[1]), (second[1], second[0])):
                    if self.facts.code(kept) != target or self.facts.code(source) == target \
                            or not _one_minus(rest, weight, self.facts):
                        continue
                    lerp = f"{target}.lerp_({self.facts.code(source)}, {self.facts.code(weight)})"
                    self.report(
                        node,
                        f"`{self.facts.code(node)}` blends two tensors with two multiplies, an add and a copy: four "
                        "kernels, each reading and writing the whole tensor, on every update",
                        fix=Fix(description=f"use the fused in-place blend `{lerp}` (or `torch._foreach_lerp_` over "
                                "the two parameter lists: one call per update); the result can differ in the last bits",
                                suggestion=lerp, safe=False),
                    )
                    return True
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        self._state_dict_blend(node)

    def _state_dict_blend(self, node: cst.Assign) -> None:
        """`new[k] = a * ema_state[k] + (1 - a) * state[k]` in a loop over the keys, `new` then loaded
        with `ema.load_state_dict(new)`, where `ema_state = ema.state_dict()` (pub50 p03's mean
        teacher, every step): two multiplies, an add and a new tensor per entry, and `load_state_dict`
        copies each back (a fifth pass), where `lerp_` blends each entry in place. A hint, never a
        rewrite: `load_state_dict` truncates the blend of an integer buffer (`num_batches_tracked`),
        which an in-place `lerp_` cannot take and a copy would not truncate."""
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Subscript):
            return
        store = node.targets[0].target
        value = node.value
        if not (isinstance(store.value, cst.Name) and len(store.slice) == 1
                and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)):
            return
        left, right = _factors(value.left), _factors(value.right)
        loops = self.facts.enclosing_loops(node)
        if left is None or right is None or not loops or \
                any(rarely_runs(self.facts, node, loop, every_few_count=True) for loop in loops):
            return
        key = self.facts.code(store.slice[0])
        entries = {}  # the module each `state[k]` operand reads the state of
        for term in (left, right):
            for factor in term:
                if isinstance(factor, cst.Subscript) and isinstance(factor.value, cst.Name) \
                        and len(factor.slice) == 1 and self.facts.code(factor.slice[0]) == key:
                    owner = self._state_dict_owner(factor.value)
                    if owner is not None:
                        entries[id(term)] = (factor, owner)
        if len(entries) != 2:
            return
        weights = [next(f for f in term if f is not entries[id(term)][0]) for term in (left, right)]
        if not (_one_minus(weights[0], weights[1], self.facts) or _one_minus(weights[1], weights[0], self.facts)):
            return
        scope = self.facts.enclosing_function(node)
        if (not self.facts.per_iteration_call_sites(scope)) if scope is not None else len(loops) < 2:
            return  # blended once (two checkpoints averaged at the end): no per-update cost
        body = scope.body if scope is not None else self.facts.module
        loaded = [c for c in self.facts.calls_in(body) if isinstance(c.func, cst.Attribute)
                  and c.func.attr.value == "load_state_dict" and len(c.args) >= 1
                  and isinstance(c.args[0].value, cst.Name) and c.args[0].value.value == store.value.value]
        receivers = {self.facts.code(c.func.value) for c in loaded}
        kept = [i for i, term in enumerate((left, right)) if entries[id(term)][1] in receivers]
        if len(kept) != 1:
            return
        target = entries[id((left, right)[kept[0]])][1]
        source = entries[id((left, right)[1 - kept[0]])][1]
        weight = self.facts.code(weights[1 - kept[0]])
        self._claimed.add(value)
        self.report(
            node,
            f"`{self.facts.code(node)}` blends every state entry into a new tensor (two multiplies and an add), "
            f"then `{target}.load_state_dict({store.value.value})` copies each back: five passes over every "
            "entry and an allocation each, on every update",
            fix=Fix(description=f"blend `{target}`'s floating-point entries in place, `e.lerp_(p, {weight})` for each "
                    f"pair of `{target}.state_dict()` and `{source}.state_dict()` values under `torch.no_grad()` (or "
                    "`torch._foreach_lerp_` over the two lists: one call per update), and decide what integer "
                    "buffers such as `num_batches_tracked` should hold (`load_state_dict` truncates their blend now); "
                    "the result can differ in the last bits",
                    suggestion=f"for e, p in zip({target}.state_dict().values(), {source}.state_dict().values()):\n"
                    f"    if e.is_floating_point():\n        e.lerp_(p, {weight})",
                    safe=False),
        )

    def _state_dict_owner(self, name: cst.Name) -> str | None:
        """`m` for a name whose binding this read sees is `m.state_dict()` (the code of `m`); a
        name bound once, in a tuple (`cur, ema = a.state_dict(), b.state_dict()`), counts too."""
        call = self.facts.value_of(name)
        if call is None:
            scope = self.facts.enclosing_function(name)
            pairs = [(el.value, value.elements[i].value)
                     for stmt in self.facts.walk(scope.body if scope is not None else self.facts.module)
                     if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1
                     and isinstance(stmt.targets[0].target, cst.Tuple) and isinstance(value := stmt.value, cst.Tuple)
                     and len(value.elements) == len(stmt.targets[0].target.elements)
                     for i, el in enumerate(stmt.targets[0].target.elements)
                     if isinstance(el.value, cst.Name) and el.value.value == name.value]
            if len(pairs) != 1 or len(self.facts.assigned_values(name.value)) > 1:
                return None
            call = pairs[0][1]
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "state_dict" \
                and not call.args:
            return self.facts.code(call.func.value)
        return None

    def _examine(self, node: cst.BaseExpression) -> None:
        if any(anc in self._claimed for anc in self.facts.ancestors(node)):
            return
        expr = self.algebra.read(node)
        match = self._match(expr)
        if match is not None:
            self._claimed.add(node)
            self._report(node, match)
            return
        repeated = self.facts.iteration_loop(node) is not None or self.facts.enclosing_function(node) is not None
        if repeated and not _counted(self.facts, self.facts.parent(node)):
            ops, tensor = self._chain(node)
            if ops >= _MIN_CHAIN and tensor is not None:
                self._chains.append((node, ops, tensor))

    def leave_Module(self, original_node: cst.Module) -> None:
        for node, ops, tensor in self._chains:
            if any(n in self._claimed for n in self.facts.walk(node)):
                continue
            func = self.facts.enclosing_function(node)
            fn = func.name.value if func is not None else "step"
            torch = module_alias(self.facts, "torch") or "torch"
            self.report(
                node,
                f"{ops} element-wise ops on `{tensor}` in one expression: each is a separate kernel "
                "with its own read and write of the whole tensor",
                severity=Severity.LOW,
                fix=Fix(description=f"compile the function that holds it (`{fn}`) so the chain runs as one fused kernel",
                        suggestion=f"{fn} = {torch}.compile({fn})", safe=False),
            )

    def _match(self, expr: Expr) -> Match | None:
        gelu = match_gelu(expr)
        if gelu is not None:
            kind, x = gelu
            if kind == "tanh":
                return Match("tanh GELU", 'F.gelu(x, approximate="tanh")',
                             lambda n: f'{n.functional}.gelu({_code(x)}, approximate="tanh")')
            return Match("erf GELU", "F.gelu(x)", lambda n: f"{n.functional}.gelu({_code(x)})")
        silu = match_silu(expr)
        if silu is not None:
            return Match("SiLU", "F.silu(x)", lambda n: f"{n.functional}.silu({_code(silu)})")
        sigmoid = match_sigmoid(expr)
        if sigmoid is not None and not isinstance(expr, Fn):
            return Match("sigmoid", "torch.sigmoid(x)", lambda n: f"{n.torch}.sigmoid({_code(sigmoid)})")
        written = self._sigmoid_written_out(expr)
        if written is not None:
            return written
        relu = match_relu(expr, lambda e: self.facts.kind(e.node) is Kind.TENSOR)  # type: ignore[arg-type]
        if relu is not None:
            return Match("ReLU", "torch.relu(x)", lambda n: f"{n.torch}.relu({_code(relu)})", bitwise=True,
                         float_edge=_relu_edge(expr), operand=relu.node, integer_edge=_relu_integer_edge(expr))
        leaky = match_leaky_relu(expr)
        if leaky is not None:
            x, slope, literal = leaky
            return Match("leaky ReLU", "F.leaky_relu(x, slope)",
                         lambda n: f"{n.functional}.leaky_relu({_code(x)}, {slope})", exact=literal, bitwise=True,
                         saves=x.node,
                         why_not="" if literal else f"`{slope}` must be a Python number: `F.leaky_relu` takes no "
                         "tensor slope (a learned one needs `F.prelu`)")
        other = match_relu_of_other(expr)
        if other is not None:
            x, shape = other
            return Match("ReLU", "torch.relu(x)", lambda n: f"{n.torch}.relu({_code(x)})", exact=False,
                         why_not=f"the zeros are shaped like `{_code(shape)}`, not like `{_code(x)}`: the same values "
                         "only when both have one shape and dtype")
        huber = match_huber(expr)
        if huber is not None:
            return self._huber(huber)
        log_softmax = match_log_softmax(expr)
        if log_softmax is not None:
            x, dim = log_softmax
            return Match("log-softmax", "torch.log_softmax(x, dim)",
                         lambda n: f"{n.torch}.log_softmax({_code(x)}, dim={_code(dim)})")
        lse = match_log_sum_exp(expr, self.algebra.read)
        if lse is not None:
            x, dim, keep = lse
            over = f"dim={_code(dim)}" + (f", keepdim={_code(keep)}" if keep is not None else "") if dim is not None else None
            return Match("log-sum-exp", "torch.logsumexp(x, dim)",
                         lambda n: f"{n.torch}.logsumexp({_code(x)}, {over})" if over is not None
                         else f"{n.torch}.logsumexp({_operand(x)}.flatten(), dim=0)", exact=False,
                         why_not="the shift only keeps `exp` from overflowing and `torch.logsumexp` subtracts the "
                         "maximum itself, so the value is the same for any finite shift; but the result takes the "
                         "shape of the summed `x` where the hand-written sum broadcasts against the shift's, and it "
                         "rounds differently")
        softmax = match_softmax(expr)
        if softmax is not None:
            x, dim = softmax
            return Match("softmax", "torch.softmax(x, dim)",
                         lambda n: f"{n.torch}.softmax({_code(x)}, dim={_code(dim)})")
        norm = match_layer_norm(expr)
        if norm is not None:
            return self._layer_norm(norm)
        rms = match_rms_norm(expr)
        if rms is not None:
            return self._rms_norm(rms)
        l2 = match_l2_normalize(expr)
        if l2 is not None and self._norm_needed_elsewhere(expr):
            return None  # a capsule's `squash` also scales by the squared norm: `F.normalize` would compute it again
        if l2 is not None:
            x, dim = l2
            return Match("L2 normalisation", "F.normalize(x, dim=dim)",
                         lambda n: f"{n.functional}.normalize({_code(x)}, dim={_code(dim)})", exact=False,
                         why_not="`F.normalize` divides by max(norm, eps) where this adds eps under the square root: "
                         "equal unless a norm is near eps", one_kernel=False)
        return None

    def _norm_needed_elsewhere(self, expr: Expr) -> bool:
        """`x / torch.sqrt(sq)` where `sq = (x ** 2).sum(...)` is a name the same function reads
        elsewhere too (pub51 p04's `squash`: `coeff = sq / (sq + 1)`): the program needs the
        squared norm anyway, so `F.normalize` would not save its reduction but repeat it."""
        den = getattr(expr, "den", None)
        args = getattr(den, "args", None)
        node = getattr(args[0], "node", None) if args else None
        if not isinstance(node, cst.Name):
            return False
        scope = self.facts.enclosing_function(node)
        return any(use is not node and self.facts.enclosing_function(use) is scope
                   and not isinstance(self.facts.parent(use), cst.AssignTarget) for use in self.facts.uses(node.value))

    def _huber(self, huber: Huber) -> Match:
        """`F.smooth_l1_loss(a, b, reduction="none")` for a difference `a - b` (written in place, or a
        name assigned it in the same block with neither operand changed since)."""
        operands = self._difference(huber.x)
        a, b = operands if operands else (_code(huber.x), None)
        delta = huber.delta
        one = isinstance(delta, Const) and delta.value == 1.0
        name = "smooth_l1_loss" if huber.smooth_l1 or one else "huber_loss"
        what = "smooth L1 loss" if name == "smooth_l1_loss" else "Huber loss"
        extra = "" if one else f", beta={_code(delta)}" if huber.smooth_l1 else f", delta={_code(delta)}"

        def build(n: Names) -> str:
            target = b if b is not None else f"{n.torch}.zeros_like({a})"
            return f'{n.functional}.{name}({a}, {target}, reduction="none"{extra})'

        numeric = isinstance(delta, Const)
        return Match(what, f"F.{name}(input, target)", build, exact=numeric,
                     why_not="" if numeric else f"`F.{name}` takes `delta` as a Python number: `{_code(delta)}` must be one")

    def _difference(self, x: Expr) -> tuple[str, str] | None:
        """The two operands' code, where `x` is `a - b` or a local name holding it unchanged."""
        node: cst.BaseExpression | None = x.node  # type: ignore[assignment]
        if isinstance(node, cst.Name):
            node = self._unchanged_value(node)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Subtract):
            return self.facts.code(node.left), self.facts.code(node.right)
        return None

    def _layer_norm(self, norm: LayerNorm) -> Match:
        x, eps = _code(norm.x), _code(norm.eps)
        last = isinstance(norm.dim, Const) and norm.dim.value == -1
        weight = norm.weight is not None and self._is_vector(norm.weight)
        bias = norm.bias is None or self._is_vector(norm.bias)

        def build(n: Names) -> str:
            shape = f"{x}.shape[-1:]" if last else "(<normalised size>,)"
            if weight and bias:
                b = _code(norm.bias) if norm.bias is not None else "None"
                return f"{n.functional}.layer_norm({x}, {shape}, {_code(norm.weight)}, {b}, {eps})"  # type: ignore[arg-type]
            code = f"{n.functional}.layer_norm({x}, {shape}, eps={eps})"
            if norm.weight is not None:
                code += f" * {_operand(norm.weight)}"
            if norm.bias is not None:
                code += f" + {_operand(norm.bias)}"
            return code

        why = "" if last else f"it normalises over dim {_code(norm.dim)}: layer norm needs the normalised sizes"
        return Match("layer norm", "F.layer_norm(x, x.shape[-1:], w, b, eps)", build, exact=last, why_not=why)

    def _rms_norm(self, norm: LayerNorm) -> Match:
        x, eps = _code(norm.x), _code(norm.eps)
        last = isinstance(norm.dim, Const) and norm.dim.value == -1
        weight = norm.weight is not None and self._is_vector(norm.weight)

        def build(n: Names) -> str:
            shape = f"{x}.shape[-1:]" if last else "(<normalised size>,)"
            if weight:
                return f"{n.functional}.rms_norm({x}, {shape}, {_code(norm.weight)}, {eps})"  # type: ignore[arg-type]
            code = f"{n.functional}.rms_norm({x}, {shape}, eps={eps})"
            return code + (f" * {_operand(norm.weight)}" if norm.weight is not None else "")

        available = hasattr(torch_functional(), "rms_norm")
        why = f"it normalises over dim {_code(norm.dim)}: `rms_norm` needs the normalised sizes" if not last else \
            "" if available else "`F.rms_norm` needs torch 2.4 or later"
        return Match("RMS norm", "F.rms_norm(x, x.shape[-1:], w, eps)", build, exact=last and available, why_not=why)

    def _is_vector(self, expr: Expr) -> bool:
        """A 1-d tensor (so it can be `F.layer_norm`'s weight or bias as it is)."""
        node = expr.node
        if isinstance(node, cst.Name):
            value = self.facts.namespace.get(node.value)
            if value is not None and hasattr(value, "dim") and self.facts.value_of(node) is None:
                return value.dim() == 1  # type: ignore[no-any-return]
            assigned = self.facts.value_of(node)
            if assigned is None:
                earlier = earlier_value(self.facts, node)
                assigned = earlier[1] if earlier is not None else None
            return assigned is not None and self._vector_factory(assigned)
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
            values = [t.value for t in self._self_assignments(node.attr.value)]
            return bool(values) and all(self._vector_factory(v) for v in values)
        return False

    def _self_assignments(self, attr: str) -> list[cst.Assign]:
        out = []
        for name in reads_of(self.facts, "self"):
            attribute, target = self.facts.parent(name), None
            if isinstance(attribute, cst.Attribute) and attribute.attr.value == attr:
                target = self.facts.parent(attribute)
            assign = self.facts.parent(target) if isinstance(target, cst.AssignTarget) else None
            if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
                out.append(assign)
        return out

    def _vector_factory(self, value: cst.BaseExpression) -> bool:
        """`torch.ones(n)`, `nn.Parameter(torch.zeros(n))`: one size argument, a 1-d result."""
        qualified = self.facts.qualified_name(value.func) if isinstance(value, cst.Call) else None
        if not isinstance(value, cst.Call) or qualified is None:
            return False
        if qualified in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") and value.args:
            return self._vector_factory(value.args[0].value)
        positional = [a for a in value.args if a.keyword is None]
        return qualified in ("torch.ones", "torch.zeros", "torch.randn", "torch.rand", "torch.empty") \
            and len(positional) == 1 and not isinstance(positional[0].value, (cst.Tuple, cst.List)) and not positional[0].star

    def _sigmoid_written_out(self, expr: Expr) -> Match | None:
        """`torch.ones(s) / (1 + torch.exp(-a - b))` (public check 47's RBM, three per batch): a sigmoid
        whose numerator is a fresh ones tensor, or whose exponent is a negated sum (`match_sigmoid`
        takes a literal 1 over one negated term only). A hint, never an edit: the ones tensor sets the
        result's shape, dtype and device by broadcasting where `torch.sigmoid(x)` keeps x's, and the
        fused op rounds differently (the automatic sigmoid rewrite is left as narrow as it was)."""
        if not isinstance(expr, Div):
            return None
        num = expr.num.node
        ones = isinstance(expr.num, Leaf) and isinstance(num, cst.Call) \
            and (self.facts.qualified_name(num.func) or "") in ("torch.ones", "torch.ones_like")
        if not ones and not (isinstance(expr.num, Const) and _close(expr.num.value, 1.0)):
            return None
        exp = _one_plus(expr.den, "exp")
        if exp is None:
            return None
        arg = exp.args[0]
        terms = arg.terms if isinstance(arg, Sum) else (arg,)
        if not all(isinstance(t, Prod) and _close(t.coef, -1.0) and len(t.factors) == 1 for t in terms):
            return None
        if not ones and len(terms) == 1:
            return None  # `1 / (1 + exp(-x))`: match_sigmoid's
        inner = " + ".join(_operand(t.factors[0]) for t in terms)  # type: ignore[attr-defined]
        why = (f"the numerator `{self.facts.code(num)}` is a fresh tensor of ones: it sets the result's shape, dtype "
               "and device by broadcasting where `torch.sigmoid(x)` keeps those of x, so the two agree only where "
               "they match (else add `.expand(...)`), and the fused op rounds differently") if ones else (
               "the exponent is a negated sum: `torch.sigmoid` of the sum computes the same function but rounds "
               "differently, and the terms' dtypes decide the result's")
        return Match("sigmoid", "torch.sigmoid(x)", lambda n: f"{n.torch}.sigmoid({inner})", exact=False, why_not=why)

    def _report(self, node: cst.BaseExpression, match: Match) -> None:
        ops = sum(isinstance(n, (cst.BinaryOperation, cst.UnaryOperation, cst.Call, cst.Comparison))
                  for n in self.facts.walk(node))
        names = self._names or Names("torch", "torch.nn.functional")
        code = match.build(names)
        locals_used = self._locals_in(node)
        integer = match.what not in ("ReLU", "sigmoid") and self._integer_input(node)
        untyped = match.what not in ("ReLU", "sigmoid") and not integer and self._untyped_input(node)
        families = self._operand_families(match.operand) if match.operand is not None else set()
        integer_operand = bool(families) and families <= {INT, BOOL}
        integer_edge = "" if not integer_operand else match.integer_edge or (
            "the tensor is a bool tensor: the hand-written form works on it, `torch.relu` raises" if BOOL in families else "")
        safe = match.exact and not integer and not integer_edge and self._names is not None \
            and all(self._stable(n) for n in [node, *locals_used.values()])
        why = match.why_not or integer_edge or ("" if self._names is not None else "torch is not imported under a plain name here")
        if safe and match.saves is not None:
            written = may_be_written_before_backward(self.facts, match.saves, node)
            if written:
                safe = False
                why = f"`{match.fused.split('(')[0]}` saves its input for the backward where the hand-written form " \
                      f"saves only the mask, and {written[0].lower() + written[1:] if written[0] != '`' else written}: " \
                      "an in-place change before the backward would make the fused form raise"
        if integer:
            why = why or ("an input is an integer tensor: the hand-written ops promote it to float, the fused op "
                          "raises on it")
        if not why and not safe:
            why = "the input is an expression with calls that would then run once instead of several times"
        kept = self.facts.names_read(cst.parse_expression(code)) if safe else set()
        dead = {n: st for n, st in self._dead_definitions(node, locals_used).items() if n not in kept}
        operand_integer = integer_operand if match.operand is not None else self._integer_input(node)
        review = (match.float_edge if safe and not operand_integer else "") if match.bitwise \
            else "" if not safe else (
            f"`{match.fused}` computes the same function but rounds differently from the hand-written ops "
            "(the last bits of its values and gradients differ): where a model trains on the value the "
            "difference grows with every step, so the printed results can change"
            + ("; and where `exp` overflows (float32 inputs above about 88, float16 above 11) the hand-written "
               "form gives NaN or -inf, the fused op (which subtracts the maximum first) finite values"
               if match.what in ("softmax", "log-softmax") else ""))
        if untyped and safe:
            review = "; ".join(filter(None, (f"the dtype of `{untyped}` is not known: on an integer tensor the "
                                             "hand-written ops promote to float, the fused op raises", review)))
        fix = Fix(
            description=f"use the fused op: `{code}`" + (f" ({why})" if why else "")
            + (f"; the intermediate {', '.join(f'`{n}`' for n in dead)} then go" if dead and safe else ""),
            edits=(replace(self.facts, node, code), *(delete_statement(self.facts, s) for s in dead.values()))
            if safe else (),
            suggestion=code,
            safe=safe,
            review=review,
        )
        self.report(
            node,
            f"hand-written {match.what}: {ops} separate ops, each a kernel that reads and writes the whole tensor "
            f"(and keeps its input for backward); `{match.fused}` does it in {'one' if match.one_kernel else 'fewer'}",
            fix=fix,
        )

    def _operand_families(self, node: cst.CSTNode) -> set[str | None]:
        """The dtype families `node` may have: its own, or, for a parameter of the enclosing
        function, those of what the unit's calls pass for it (None where one is unknown)."""
        passed = self._passed_for(node) if isinstance(node, cst.Name) else []
        return {family(dtype_of(self.facts, e)) for e in (passed or [node])}  # type: ignore[arg-type]

    def _untyped_input(self, node: cst.CSTNode) -> str:
        """A name the expression reads whose dtype comes from code the analysis cannot type
        (`torch.from_numpy(...)`, a loader's batch), here or, for a parameter of the enclosing
        function, at one of its call sites in the unit: it may be an integer tensor. "" when none."""
        for name in self._values_read(node):
            if dtype_unread(self.facts, name, self._typed_parameter):
                return name.value
        return ""

    def _typed_parameter(self, name: cst.Name) -> bool:
        """Every call of the parameter's function in the unit passes it a value of a known dtype
        (a `forward`'s input, or a helper's never called here, may be anything)."""
        passed = self._passed_for(name)
        if not passed:
            return _number(self._default_of(name))
        return all(dtype_of(self.facts, a) is not None or _number(a) for a in passed)

    def _default_of(self, name: cst.Name) -> cst.BaseExpression | None:
        func = self.facts.enclosing_function(name)
        params = func.params.params if isinstance(func, cst.FunctionDef) else ()
        return next((p.default for p in params if p.name.value == name.value), None)

    def _integer_input(self, node: cst.CSTNode) -> bool:
        """A tensor the expression reads is provably of an integer or bool dtype, here or, for
        a parameter of the enclosing function, at one of the function's call sites in the unit
        (`gelu(torch.arange(n))`): the fused ops take floating tensors only."""
        return any(family(dtype_of(self.facts, e)) in (INT, BOOL)
                   for name in self._values_read(node) if self.facts.kind(name) is Kind.TENSOR or self._passed_for(name)
                   for e in (name, *self._passed_for(name)))

    def _values_read(self, node: cst.CSTNode) -> list[cst.Name]:
        """The names the formula reads as values (not `torch`, `.where`, `act(...)`, `dim=`)."""
        found = []
        for name in self.facts.walk(node):
            if not isinstance(name, cst.Name):
                continue
            parent = self.facts.parent(name)
            if isinstance(parent, cst.Attribute) and parent.attr is name or isinstance(parent, cst.Call) and parent.func is name \
                    or isinstance(parent, cst.Arg) and parent.keyword is name:
                continue  # (asked first: an attribute's kind may cost a jedi question)
            if self.facts.kind(name) is Kind.MODULE or self.facts.qualified_name(name) is not None:
                continue  # `torch`, `math`: an imported name
            found.append(name)
        return found

    def _passed_for(self, name: cst.Name) -> list[cst.BaseExpression]:
        """What the unit's calls of the enclosing function pass for its parameter `name`."""
        return [] if self.facts.value_of(name) is not None else passed_for(self.facts, name, every_call=False) or []

    # --- local variables read through ------------------------------------------------------

    def _local_value(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value of `name = value`, unchanged (below), and only a call the algebra knows
        (`x.mean(...)`): arithmetic stays grouped under the name, and random draws are not read twice."""
        value = self._unchanged_value(name)
        return value if value is not None and isinstance(self.algebra.read(value), Fn) else None

    def _unchanged_value(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value of `name = value` earlier in the same block, if nothing it reads changed since."""
        value = self.facts.value_of(name)
        if value is None:
            return None
        define, use = self.facts.statement_of(value), self.facts.statement_of(name)
        if define is use:
            return None
        block = self.facts.parent(use)
        body = block_statements(block)
        if define is use or self.facts.parent(define) is not block or _assigned_to(define) != name.value:
            return None
        start, end = body.index(define), body.index(use)
        changed = self.facts.names_read(value) | {name.value}
        if start >= end or any(self.facts.names_written(s) & changed for s in body[start + 1 : end]):
            return None
        # through a view or an alias, or by a call it is handed to (`d = e.diagonal(); d.zero_()`)
        scope = self.facts.enclosing_function(use) or self.facts.module
        if changed_between(self.facts, changed, body[start + 1 : end], scope):
            return None
        return value

    def _locals_in(self, node: cst.CSTNode) -> dict[str, cst.BaseExpression]:
        """The local variables a match read through, transitively: name -> value."""
        found: dict[str, cst.BaseExpression] = {}
        work = [node]
        while work:
            for n in self.facts.walk(work.pop()):
                if isinstance(n, cst.Name) and n.value not in found:
                    value = self.algebra.substitute(n)
                    if value is not None:
                        found[n.value] = value
                        work.append(value)
        return found

    def _dead_definitions(self, node: cst.CSTNode, locals_used: dict[str, cst.BaseExpression]) -> dict[str, cst.SimpleStatementLine]:
        """Definitions read only by the fused expression (and each other): they can go with it."""
        scope = self.facts.enclosing_function(node) or self.facts.module
        dead = {name: self.facts.statement_of(value) for name, value in locals_used.items()}
        changed = True
        while changed:
            changed = False
            inside = [node, *(locals_used[n] for n in dead)]
            for name, stmt in list(dead.items()):
                for n in reads_of(self.facts, name, scope):
                    if not self._is_target_of(n, stmt) and not any(within(self.facts, n, area) for area in inside):
                        del dead[name]
                        changed = True
                        break
        return {name: stmt for name, stmt in dead.items() if isinstance(stmt, cst.SimpleStatementLine)}

    def _is_target_of(self, name: cst.Name, stmt: cst.CSTNode) -> bool:
        parent = self.facts.parent(name)
        return isinstance(parent, cst.AssignTarget) and self.facts.statement_of(name) is stmt

    def _stable(self, node: cst.CSTNode) -> bool:
        """Every call inside is a pure torch op or a tensor method: evaluating it once is the same."""
        for n in self.facts.walk(node):
            if isinstance(n, cst.Call):
                q = self.facts.qualified_name(n.func) or ""
                if q.startswith(("torch.", "math.", "numpy.")):
                    if q.rsplit(".", 1)[-1] in {"rand", "randn", "randint", "dropout", "bernoulli", "normal", "rand_like", "randn_like"}:
                        return False
                    continue
                if isinstance(n.func, cst.Attribute) and not n.func.attr.value.endswith("_") and (
                        n.func.attr.value in _FUNCTIONS | _SHAPE_METHODS or self.facts.kind(n.func.value) is Kind.TENSOR):
                    continue
                return False
        return True

    def _chain(self, node: cst.CSTNode) -> tuple[int, str | None]:
        """Element-wise ops in the expression and its one operand, if it has exactly one (and it
        is a tensor): "the same tensor" keeps the hint off formulas mixing several inputs, and
        a type is asked (maybe of jedi) only for a chain long enough to report."""
        ops = 0
        leaves: dict[str, cst.BaseExpression] = {}
        tensor_seen = False
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, (cst.BinaryOperation, cst.UnaryOperation)) and isinstance(self.algebra.read(n), Const):
                continue  # Python arithmetic on constants, not a kernel
            if isinstance(n, cst.BinaryOperation):
                ops += 1
                stack += [n.left, n.right]
            elif isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Minus):
                ops += 1
                stack.append(n.expression)
            elif isinstance(n, cst.Call) and _elementwise_call(self.facts, n):
                ops += 1
                if isinstance(n.func, cst.Attribute) and not (self.facts.qualified_name(n.func) or "").startswith("torch."):
                    stack.append(n.func.value)
                stack += [a.value for a in n.args if a.keyword is None]
                tensor_seen = True
            elif isinstance(n, cst.Comparison):
                ops += 1
                stack += [n.left, *(c.comparator for c in n.comparisons)]
            elif not isinstance(n, (cst.Integer, cst.Float)) and not isinstance(self.algebra.read(n), Const):  # type: ignore[arg-type]
                leaves.setdefault("".join(self.facts.code(n).split()), n)  # type: ignore[arg-type]
        if ops < _MIN_CHAIN or len(leaves) != 1:
            return ops, None
        (code, leaf), = leaves.items()
        return ops, code if tensor_seen or self.facts.kind(leaf) is Kind.TENSOR else None


def _elementwise_call(facts: Facts, call: cst.Call) -> bool:
    q = facts.qualified_name(call.func) or ""
    if q.startswith("torch.") and q.count(".") == 1:
        return q[6:] in _ELEMENTWISE
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in _ELEMENTWISE and not q.startswith(("math.", "numpy."))


def _counted(facts: Facts, parent: cst.CSTNode | None) -> bool:
    """Is the parent itself part of an element-wise chain (so this node is not its root)?"""
    if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)):
        return True
    if isinstance(parent, cst.Arg):
        call = facts.parent(parent)
        return isinstance(call, cst.Call) and _elementwise_call(facts, call)
    if isinstance(parent, cst.Attribute):
        call = facts.parent(parent)
        return isinstance(call, cst.Call) and call.func is parent and _elementwise_call(facts, call)
    return False


def _assigned_to(stmt: cst.CSTNode) -> str | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        targets = stmt.body[0].targets
        if len(targets) == 1 and isinstance(targets[0].target, cst.Name):
            return targets[0].target.value
    return None


def _code(expr: Expr) -> str:
    return cst.Module([]).code_for_node(expr.node)


def _operand(expr: Expr) -> str:
    code = _code(expr)
    return code if isinstance(expr.node, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) else f"({code})"


def torch_functional() -> object:
    """`torch.nn.functional` of the torch installed here (the one the rewritten program runs on)."""
    import torch.nn.functional as functional

    return functional


def _factors(term: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """The two factors of `a * b` (None for anything else)."""
    if isinstance(term, cst.BinaryOperation) and isinstance(term.operator, cst.Multiply):
        return term.left, term.right
    return None


def _one_minus(expr: cst.BaseExpression, weight: cst.BaseExpression, facts: Facts) -> bool:
    """`expr` is `(1 - weight)` (with or without the parentheses)."""
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Subtract) \
        and isinstance(expr.left, (cst.Integer, cst.Float)) and float(expr.left.value) == 1.0 \
        and facts.code(expr.right) == facts.code(weight)
