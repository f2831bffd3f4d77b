"""Tensor expressions over tensors of several dtypes, for checking `dtype_of` against torch itself
(`tests/test_fix50.py`): arithmetic with Python scalars of each kind, comparisons, reductions, `where`, `clamp`,
`pow`, division, bitwise ops, casts, factories, `*_like`, `arange`, `torch.tensor` of literals, `cat`/`stack` of
mixed dtypes, products, `softmax`, indexing, NumPy inputs; and the check itself, shared by the tests that
add cases of their own (`test_redteam28`, `test_redteam29a`, `test_redteam29b`)."""

from __future__ import annotations

import warnings

import libcst as cst
import torch

from paef_jupyter.static.rules._tensor_facts import dtype_of, family
from test_facts import facts_of


def torch_dtype(setup: str, code: str) -> str | None:
    """What torch itself gives `code` after `setup`; None where torch refuses it or it is no tensor."""
    namespace: dict = {"torch": torch}
    exec(setup, namespace)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = eval(code, namespace)
    except Exception:  # an expression torch refuses tells nothing
        return None
    return str(value.dtype).removeprefix("torch.") if isinstance(value, torch.Tensor) else None


def found_dtype(setup: str, code: str) -> str | None:
    """What `dtype_of` says of `y = code` after `setup`."""
    facts = facts_of(f"import torch\n{setup}y = {code}\ny\n")
    name = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == "y"][-1]
    return dtype_of(facts, name)


def assert_dtype_agrees(setup: str, code: str) -> None:
    """`dtype_of` gives torch's dtype, its family, or nothing: never another dtype."""
    actual = torch_dtype(setup, code)
    assert actual is not None, code
    found = found_dtype(setup, code)
    assert found is None or found == actual or found == family(actual), (code, found, actual)
    assert family(found) in (None, family(actual))


SETUP = ("mask = torch.arange(6) > 2\ncounts = torch.arange(1, 7)\nsmall = counts.int()\nx = torch.randn(6)\n"
         "xd = torch.randn(6, dtype=torch.float64)\nh = torch.randn(6).half()\nu8 = torch.arange(6, dtype=torch.uint8)\n"
         "i16 = torch.arange(6, dtype=torch.int16)\nm2 = torch.randn(6, 6)\nids = torch.arange(6).view(2, 3)\n"
         "n = 3\nf = 0.5\nb = True\n")
TENSORS = ["mask", "counts", "small", "x", "xd", "h", "u8"]
SCALARS = ["2", "0.5", "True", "n", "f", "-1"]
CASES: list[str] = []
for t in TENSORS:
    for s in SCALARS:
        for op in ["+", "-", "*", "/", "//", "%", "**"]:
            if t == "mask" and op in ("-",) and s in ("True", "b"):
                continue
            CASES.append(f"{t} {op} {s}")
            CASES.append(f"{s} {op} {t}")
        for op in ["&", "|", "^"]:
            if t not in ("x", "xd", "h") and "." not in s:
                CASES.append(f"{t} {op} {s}")
        for op in [">", "==", "<="]:
            CASES.append(f"{t} {op} {s}")
    for t2 in TENSORS:
        for op in ["+", "*", "/", "-"]:
            if not (t == t2 == "mask" and op == "-") and not ({t, t2} == {"mask"} and op == "-"):
                if "mask" in (t, t2) and op == "-" and ("mask" == t or "mask" == t2) and t == t2:
                    continue
                CASES.append(f"{t} {op} {t2}")
    for m in ["sum()", "sum(0)", "mean()" if t in ("x", "xd", "h") else "float().mean()", "prod()", "cumsum(0)",
              "argmax()", "max()", "min()", "abs()", "float()", "long()", "int()", "double()", "half()", "bool()",
              "to(torch.float64)", "to(torch.int32)", "to('cpu')", "clone()", "detach()", "neg()" if t != "mask" else "logical_not()",
              "clamp(0, 3)", "clamp(min=0.5)", "clamp(max=2)", "pow(2)", "pow(0.5)", "sqrt()", "exp()", "sigmoid()",
              "round()", "floor()", "sign()", "square()", "reciprocal()", "sort()[0]", "sort()[1]", "topk(2)[0]",
              "max(0)[0]", "max(0)[1]", "unsqueeze(0)", "view(-1)", "reshape(2, 3)", "flip(0)", "cumprod(0)",
              "softmax(0)" if t in ("x", "xd", "h") else "float().softmax(0)", "std()" if t in ("x", "xd") else "float().std()",
              "var()" if t in ("x", "xd") else "double().var()", "norm()" if t in ("x", "xd") else "float().norm()",
              "amax()", "nansum()" , "any()", "all()", "sum().item()" if False else "eq(1)",
              "div(2)", "div(2, rounding_mode='floor')", "remainder(2)", "fmod(2)", "mul(2)", "add(1)", "sub(1)",
              "add(0.5)", "mul(0.5)", "where(mask, 0)", "where(mask, 0.5)", "masked_fill(mask, 0)", "masked_fill(mask, 0.5)",
              "new_zeros(3)", "new_ones(3)", "new_full((3,), 2)", "new_tensor([1, 2])", "type(torch.float64)",
              "type_as(xd)", "to(xd)", "to(x.dtype)", "float().log()", "exp_()" if t in ("x", "xd") else "float().exp_()",
              "t()" if False else "repeat(2)", "expand(2, 6)", "narrow(0, 0, 2)", "unique()", "bincount()" if t in ("counts", "u8") else "numel()" if False else "flatten()",
              "__getitem__(0)" if False else "select(0, 1)", "index_select(0, ids[0])", "gather(0, ids[0])"]:
        CASES.append(f"{t}.{m}")
    for f in ["torch.sum({t})", "torch.mean({t}.float())", "torch.prod({t})", "torch.cumsum({t}, 0)", "torch.argmax({t})",
              "torch.max({t})", "torch.min({t})", "torch.abs({t})", "torch.where(mask, {t}, 0)", "torch.where(mask, {t}, 0.5)",
              "torch.where(mask, {t}, x)", "torch.where(mask, {t}, counts)", "torch.clamp({t}, 0, 3)", "torch.clamp({t}, min=0.5)",
              "torch.pow({t}, 2)", "torch.pow({t}, 0.5)", "torch.pow(2, {t})", "torch.pow(2.0, {t})", "torch.div({t}, 2)",
              "torch.div({t}, 2, rounding_mode='trunc')", "torch.floor_divide({t}, 2)", "torch.remainder({t}, 2)",
              "torch.abs({t})", "torch.cat([{t}, x])", "torch.cat([{t}, counts])", "torch.cat([{t}, {t}])", "torch.stack([{t}, mask])",
              "torch.stack([{t}, xd])", "torch.zeros_like({t})", "torch.ones_like({t})", "torch.rand_like({t}.float())",
              "torch.full_like({t}, 2)", "torch.full_like({t}, 0.5)", "torch.empty_like({t})", "torch.zeros_like({t}, dtype=torch.float64)",
              "torch.maximum({t}, counts)", "torch.minimum({t}, x)", "torch.add({t}, 1)", "torch.add({t}, 0.5)",
              "torch.mul({t}, x)", "torch.sub({t}, 1)", "torch.matmul({t}.float(), x)", "torch.softmax({t}.float(), 0)",
              "torch.nn.functional.softmax({t}.double(), 0)", "torch.exp({t})", "torch.sqrt({t})", "torch.sigmoid({t})",
              "torch.log({t})", "torch.round({t})", "torch.sign({t})", "torch.sort({t})[0]", "torch.topk({t}, 2)[1]",
              "torch.flip({t}, [0])", "torch.neg({t})" if t != "mask" else "torch.logical_not({t})", "torch.square({t})",
              "torch.mean({t}.double())", "torch.std({t}.double())", "torch.var_mean({t}.double())[0]",
              "torch.where({t} > 1, 1, 0)", "torch.where({t} > 1, 1.0, 0.0)", "torch.eq({t}, 1)",
              "torch.bitwise_and({t}, 1)" if t not in ("x", "xd", "h") else "torch.isnan({t})",
              "torch.masked_select({t}, mask)", "torch.nonzero({t})", "torch.count_nonzero({t})", "torch.unique({t})",
              "torch.diff({t})" , "torch.cummax({t}, 0)[0]", "torch.cummax({t}, 0)[1]", "torch.logsumexp({t}.float(), 0)",
              "torch.einsum('i,i->', {t}.float(), x)", "torch.outer({t}, {t})", "torch.dot({t}, {t})", "torch.mm(ids, ids.T)",
              "torch.tensordot({t}, {t}, 1)", "torch.lerp(x, {t}.float(), 0.5)", "torch.addcmul(x, {t}.float(), x)",
              "torch.nan_to_num({t})", "torch.trunc({t})", "torch.frac({t}.float())", "torch.fmod({t}, 2)",
              "torch.fmod({t}, 1.5)", "torch.true_divide({t}, 2)", "torch.float_power({t}, 2)", "torch.square({t})",
              "torch.heaviside({t}.float(), x)", "torch.atan2({t}.float(), x)", "torch.hypot({t}.float(), x)",
              "torch.clip({t}, max=2)", "torch.nn.functional.relu({t})", "torch.relu({t})", "torch.nn.functional.one_hot(counts, 8)",
              "torch.nn.functional.pad({t}, (1, 1))", "torch.nn.functional.normalize({t}.float(), dim=0)"]:
        CASES.append(f.format(t=t))
CASES += [
    "torch.zeros(3)", "torch.zeros(3, dtype=torch.int64)", "torch.ones(2, 2)", "torch.empty(3)", "torch.full((3,), 2)",
    "torch.full((3,), 2.0)", "torch.full((3,), True)", "torch.full((3,), n)", "torch.full((3,), f)",
    "torch.arange(5)", "torch.arange(0.0, 1.0, 0.1)", "torch.arange(0, 5, 0.5)", "torch.arange(n)", "torch.arange(f)",
    "torch.arange(-3, 3)", "torch.arange(5, dtype=torch.float32)", "torch.linspace(0, 1, 5)", "torch.logspace(0, 1, 5)",
    "torch.eye(3)", "torch.randn(3)", "torch.rand(3)", "torch.randint(0, 5, (3,))", "torch.randint(5, (3,))", "torch.randperm(5)",
    "torch.tensor(1)", "torch.tensor(1.0)", "torch.tensor(True)", "torch.tensor([1, 2])", "torch.tensor([1.0, 2])",
    "torch.tensor([1, 2.0])", "torch.tensor([True, False])", "torch.tensor([True, 1])", "torch.tensor([[1, 2], [3, 4]])",
    "torch.tensor([[1, 2], [3, 4.5]])", "torch.tensor([])", "torch.tensor(n)", "torch.tensor(f)", "torch.tensor([n, n])",
    "torch.tensor([f, n])", "torch.tensor(-1)", "torch.tensor([-1, 2])", "torch.tensor([1, 2], dtype=torch.float16)",
    "torch.as_tensor([1, 2])", "torch.as_tensor([0.5])", "torch.tensor(x)" if False else "torch.tensor([x.sum().item()])",
    "torch.tensor(counts.tolist())", "torch.tensor(x.tolist())", "torch.tensor(mask.tolist())", "torch.tensor(xd.tolist())",
    "torch.LongTensor([1, 2])", "torch.FloatTensor([1, 2])", "torch.Tensor([1, 2])", "torch.BoolTensor([True])",
    "torch.zeros(3).long()", "torch.ones(3, dtype=torch.bool)", "torch.normal(0.0, 1.0, (3,))", "torch.bernoulli(x.sigmoid())",
    "torch.multinomial(x.softmax(0), 2)", "torch.searchsorted(counts, counts)", "torch.bucketize(x, x.sort()[0])",
    "torch.histc(x)", "torch.cdist(m2, m2)", "torch.matmul(m2, m2)", "m2 @ m2", "ids @ ids.T", "ids.float() @ m2[:3, :3]",
    "m2[0]", "m2[:, 1]", "m2[mask]", "counts[mask]", "counts[ids]", "x[counts % 6]", "m2.T", "m2.mT", "m2.diag()",
    "m2.argmax(1)", "m2.max(1)[1]", "m2.max(1).indices", "m2.max(1).values", "m2.topk(2, dim=1).indices", "m2.sum(1)",
    "torch.nn.functional.cross_entropy(m2, counts % 6)", "torch.nn.functional.mse_loss(x, x)", "torch.nn.functional.log_softmax(m2, 1)",
    "torch.nn.functional.embedding(ids, m2)", "torch.nn.functional.linear(m2, m2)", "torch.nn.functional.dropout(x)",
    "torch.nn.functional.gelu(x)", "torch.nn.functional.max_pool1d(m2.unsqueeze(0), 2)", "torch.nn.functional.one_hot(ids)",
    "torch.nn.functional.sigmoid(xd)", "torch.nn.functional.softmax(h.float(), 0)",
    "torch.sigmoid(xd)", "torch.exp(xd)", "torch.mean(xd)", "torch.sum(h)", "h.sum()", "h.mean()", "h @ h", "h.float() + xd",
    "torch.cat([mask, counts])", "torch.cat([x, xd])", "torch.cat([h, x])", "torch.stack([counts, x])", "torch.stack([mask, mask])",
    "torch.cat((counts, small))", "torch.cat([u8, mask])", "torch.stack([x, x], 1)", "torch.hstack([x, counts])",
    "torch.vstack([counts, counts])", "torch.where(mask)[0]", "torch.where(mask, 1, 0)", "torch.where(mask, 1.0, 0)",
    "torch.where(mask, x, xd)", "torch.where(mask, counts, small)", "torch.where(mask, small, 2)", "torch.where(mask, u8, 2)",
    "torch.where(mask, mask, False)", "torch.where(mask, 0.5, x)", "torch.where(mask, n, f)",
    "x.new_zeros(3)", "counts.new_zeros(3)", "counts.new_tensor([0.5])", "x.new_tensor([1])", "torch.zeros_like(counts, dtype=torch.float32)",
    "x.to(counts)", "x.to(counts.dtype)", "counts.to(x)", "x.type(torch.LongTensor)", "x.type(torch.int64)", "x.type_as(counts)",
    "x.int().float()", "x.long().sum()", "x.bool().sum()", "(x > 0).float().mean()", "(x > 0).long()", "(x > 0).sum().item()" if False else "(x > 0).sum(0)",
    "counts.float() / counts.sum()", "counts / counts.sum()", "counts // counts.sum()", "counts % 3", "-counts", "-mask" if False else "~mask",
    "~counts", "~small", "counts << 1", "counts >> 1", "abs(counts)", "abs(x)", "pow(counts, 2)", "pow(counts, 0.5)",
    "max(counts.max(), 1)" if False else "counts.max().clamp(min=1)", "sum([x, x])", "sum([counts, counts])",
    "x.sum(dtype=torch.float64)", "counts.sum(dtype=torch.int32)", "counts.cumsum(0, dtype=torch.float32)", "x.mean(dtype=torch.float64)",
    "torch.sum(x, dtype=torch.float64)", "torch.softmax(x, 0, dtype=torch.float64)", "x.softmax(0, dtype=torch.float64)",
    "torch.tensor([1, 2]).float()", "torch.from_numpy(x.numpy())", "torch.tensor(x.numpy())",
    "x.argsort()", "torch.argsort(x)", "x.nonzero()", "x.sign()", "counts.sign()", "mask.sign()", "mask.abs()" if False else "mask.sum(0)",
    "x.clamp(counts.float())", "counts.clamp(min=small)", "counts.clamp(0, small)", "small.clamp(min=counts)",
    "counts.clamp(x)", "x.clamp(max=counts)",
    "torch.max(counts, small)", "torch.max(x, xd)", "torch.min(counts, x)", "counts.max(small)", "small.min(x)", "mask.max(counts)",
]
SETUP = SETUP + "import numpy as np\narr = np.zeros(3)\niarr = np.arange(3)\nfarr = np.zeros(3, dtype=np.float32)\nv = x.sum().item()\nk = counts.sum().item()\n"
CASES += [
    "torch.tensor(arr)", "torch.as_tensor(arr)", "torch.from_numpy(arr)", "torch.tensor(arr.tolist())", "torch.tensor(iarr)",
    "torch.from_numpy(iarr)", "torch.tensor(farr)", "torch.tensor(np.float64(1.0))", "torch.tensor([np.float64(1.0)])",
    "torch.tensor(arr[0])", "torch.tensor([arr[0], arr[1]])", "x * np.float64(2)", "counts * np.float64(0.5)", "counts * np.int64(2)",
    "mask * np.int64(2)", "torch.tensor(v)", "torch.tensor(k)", "torch.tensor([v, v])", "torch.tensor([k, k])", "counts * v",
    "mask * k", "counts + k", "x + v", "torch.full((3,), v)", "torch.full((3,), k)", "torch.arange(k)", "torch.zeros(3) + arr[0]",
    "torch.tensor(arr).float()", "torch.tensor(x.numpy())", "torch.from_numpy(x.numpy())", "torch.tensor(np.array([1, 2]))",
    "torch.tensor(np.array([1.0, 2]))", "torch.tensor(list(arr))", "torch.tensor([1, 2]) * arr[0]",
    "x.add_(1)", "counts.add_(1)", "counts.mul_(2)", "x.clamp_(min=0)", "counts.masked_fill_(mask, 0)", "x.masked_fill_(mask, 0)",
    "x.mean(0, keepdim=True)", "m2.mean(1)", "x.median()", "torch.median(m2, 0)[1]", "m2.median(1)[0]", "counts.median()",
    "x.kthvalue(2)[1]", "x.kthvalue(2)[0]", "torch.mode(counts)[0]", "torch.aminmax(counts)[0]", "x[None]", "x[..., 0]", "x.data",
    "counts.data", "m2[counts % 6][:, 0]", "torch.bmm(m2[None], m2[None])", "torch.einsum('ij,jk->ik', ids, ids.T)",
    "small + counts.sum()", "x + xd.sum()", "counts + torch.tensor(0.5)", "counts * mask", "u8 + mask", "u8 + small", "i16 * 2",
    "i16 + u8", "u8 * 300", "u8 - 1", "small * 2.5", "h + 1", "h * x", "h + xd.sum()", "torch.tensor(1.5, dtype=torch.float64) + x",
    "torch.tensor(1.5, dtype=torch.float64) + counts", "counts.sum() + x", "counts.sum() * 0.5",
    "counts.sum() / 2", "counts.sum() // 2", "x.sum() // 2", "mask.sum() * 1.0", "mask.float().sum()", "mask.long().sum()",
    "counts.max() - counts.min()", "counts.float().mean()", "(counts > 2).float().mean()",
    "torch.tensor([1, 2], dtype=torch.long)", "torch.tensor([1, 2], dtype=torch.int)", "torch.tensor([1, 2], dtype=torch.double)",
    "torch.tensor([1, 2], dtype=torch.float)", "torch.zeros(3, dtype=torch.half)", "torch.tensor([1, 2], dtype=torch.uint8)",
    "torch.tensor([1, 2], dtype=torch.int8)", "torch.tensor([1, 2], dtype=torch.short)", "torch.tensor([1, 2], dtype=torch.cfloat).real",
    "x.to(dtype=torch.float16)", "x.to('cpu', torch.float64)", "x.to(torch.device('cpu'))", "x.to('cpu', dtype=torch.int64)",
    "x.to(non_blocking=True)", "counts.to(torch.float)", "counts.type(torch.FloatTensor)",
    "torch.zeros(3).new_empty(2)", "torch.zeros(3, dtype=torch.int64).new_empty(2)", "counts.new_full((2,), 0.5)",
    "torch.full_like(counts, 0.5)", "torch.full_like(x, 2)", "torch.randint_like(x, 5)", "torch.randint_like(counts, 5)",
    "torch.randn_like(xd)", "torch.rand_like(h)", "torch.zeros_like(mask)", "torch.ones_like(u8)", "torch.empty_like(small)",
    "torch.ones(3).to(counts.dtype)", "torch.zeros(2, 3).sum(0).long()", "torch.linspace(0, 10, 5).long()",
    "torch.tensor([1, 2]) / 2", "torch.tensor([1, 2]) // 2", "torch.tensor([1.0, 2.0]) // 2", "torch.tensor([True]) + True",
    "torch.tensor([True]) | torch.tensor([False])", "mask ^ True", "mask & 1", "counts & 1", "~(counts > 1)",
    "mask.int()", "mask.to(torch.uint8)", "mask.byte()", "x.char()", "x.short()", "counts.bfloat16()",
    "x.round(decimals=2)", "x.abs().max()", "x.max().int()", "x.argmax().float()", "counts.bincount()", "counts.histc()" if False else "counts.float().histc()",
    "torch.sqrt(counts)", "torch.exp(counts)", "torch.log(counts)", "counts.sqrt()", "counts.sigmoid()", "counts.exp()",
    "counts.log()", "counts.log1p()", "counts.rsqrt()", "counts.reciprocal()", "counts.tanh()", "counts.sin()", "counts.erf()",
    "torch.tanh(counts)", "torch.erf(u8)", "mask.float().exp()", "u8.sqrt()", "small.sqrt()", "torch.nn.functional.softplus(x)",
    "torch.nn.functional.pad(counts, (1, 1), value=0)", "torch.nn.functional.relu(counts)", "torch.relu(counts)", "counts.relu()",
]
