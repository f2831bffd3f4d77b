"""One micro-benchmark per antipattern: the offending statement in a training-style loop.

Each `Case` pairs `before` (the antipattern, as a hurried notebook writes it) with `after`
(the fix DESIGN.md's rule catalogue prescribes). Both take the same seeded inputs from
`make(tiny, device)` and return what the loop computed, so a benchmark can check they agree
before it times them, and a test can check it at tiny sizes. Any one-time work the fix
needs (converting a dict once, hoisting a tensor) is inside `after`, so it is paid for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch
import torch.nn.functional as F

Inputs = dict[str, Any]


@dataclass(frozen=True)
class Case:
    rule: str
    name: str
    loop: str  # what one iteration of the timed loop does, in words
    make: Callable[[bool, torch.device], Inputs]
    before: Callable[[Inputs], Any]
    after: Callable[[Inputs], Any]
    paper_cpu: float | None = None
    paper_gpu: float | None = None
    note: str = ""


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


# --- operator-fusion ---------------------------------------------------------------------


def _activations(tiny: bool, device: torch.device) -> Inputs:
    steps, rows, dim = (2, 4, 8) if tiny else (200, 64, 256)
    g = _gen()
    return {
        "x": torch.randn(rows, dim, generator=g).to(device),
        "grad": torch.randn(rows, dim, generator=g).to(device),
        "weight": torch.rand(dim, generator=g).to(device) + 0.5,
        "bias": torch.randn(dim, generator=g).to(device),
        "steps": steps,
    }


def _input_grad(x: torch.Tensor, fn: Callable[[torch.Tensor], torch.Tensor], grad: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_()
    out = fn(leaf)
    out.backward(grad)
    return torch.stack([out.detach(), leaf.grad])


def gelu_before(d: Inputs) -> torch.Tensor:
    def gelu(x: torch.Tensor) -> torch.Tensor:
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3))))

    for _ in range(d["steps"]):
        result = _input_grad(d["x"], gelu, d["grad"])
    return result


def gelu_after(d: Inputs) -> torch.Tensor:
    for _ in range(d["steps"]):
        result = _input_grad(d["x"], lambda x: F.gelu(x, approximate="tanh"), d["grad"])
    return result


def layer_norm_before(d: Inputs) -> torch.Tensor:
    w, b = d["weight"], d["bias"]

    def norm(x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return (x - mean) / torch.sqrt(var + 1e-5) * w + b

    for _ in range(d["steps"]):
        result = _input_grad(d["x"], norm, d["grad"])
    return result


def layer_norm_after(d: Inputs) -> torch.Tensor:
    w, b = d["weight"], d["bias"]
    for _ in range(d["steps"]):
        result = _input_grad(d["x"], lambda x: F.layer_norm(x, x.shape[-1:], w, b, 1e-5), d["grad"])
    return result


# --- ping-pong ---------------------------------------------------------------------------


def _batches(tiny: bool, device: torch.device) -> Inputs:
    steps, rows, dim = (3, 4, 8) if tiny else (50, 64, 256)
    return {"x": torch.randn(steps, rows, dim, generator=_gen()).to(device), "device": device}


def ping_pong_before(d: Inputs) -> torch.Tensor:
    total = torch.zeros((), device=d["device"])
    for xb in d["x"]:
        hidden = torch.relu(xb)
        hidden = torch.tensor(hidden.cpu().tolist(), device=d["device"])
        total = total + hidden.sum()
    return total


def ping_pong_after(d: Inputs) -> torch.Tensor:
    total = torch.zeros((), device=d["device"])
    for xb in d["x"]:
        hidden = torch.relu(xb)
        hidden = hidden.detach()
        total = total + hidden.sum()
    return total


# --- dict-as-list ------------------------------------------------------------------------


def _dataset(tiny: bool, device: torch.device) -> Inputs:
    rows, dim, batch, epochs = (24, 4, 8, 2) if tiny else (8192, 16, 64, 5)
    rng = np.random.default_rng(0)
    data = {
        "user": rng.integers(0, 1000, rows).tolist(),
        "label": rng.random(rows).round(3).tolist(),
        "features": rng.standard_normal((rows, dim)).astype(np.float32).tolist(),
    }
    batches = []
    for _ in range(epochs):
        order = rng.permutation(rows).tolist()
        batches += [order[i : i + batch] for i in range(0, rows, batch)]
    return {"data": data, "batches": batches, "device": device}


def _batch_score(users: torch.Tensor, labels: torch.Tensor, feats: torch.Tensor) -> torch.Tensor:
    return (feats.sum(1) * labels).sum() + users.sum()


def dict_as_list_before(d: Inputs) -> torch.Tensor:
    data, device = d["data"], d["device"]
    total = torch.zeros((), device=device)
    for idx in d["batches"]:
        users = torch.tensor([data["user"][i] for i in idx], device=device)
        labels = torch.tensor([data["label"][i] for i in idx], device=device)
        feats = torch.tensor([data["features"][i] for i in idx], device=device)
        total = total + _batch_score(users, labels, feats)
    return total


def dict_as_list_after(d: Inputs) -> torch.Tensor:
    device = d["device"]
    data = {k: torch.tensor(v, device=device) for k, v in d["data"].items()}
    total = torch.zeros((), device=device)
    for idx in d["batches"]:
        rows = torch.tensor(idx, device=device)
        total = total + _batch_score(data["user"][rows], data["label"][rows], data["features"][rows])
    return total


# --- list-to-tensor ----------------------------------------------------------------------


def list_to_tensor_before(d: Inputs) -> torch.Tensor:
    total = torch.zeros((), device=d["device"])
    for xb in d["x"]:
        per_sample = []
        for row in xb:
            per_sample.append(row.pow(2).sum().item())
        total = total + torch.tensor(per_sample, device=d["device"]).mean()
    return total


def list_to_tensor_after(d: Inputs) -> torch.Tensor:
    total = torch.zeros((), device=d["device"])
    for xb in d["x"]:
        total = total + xb.pow(2).sum(1).mean()
    return total


# --- training-step cases: redundant-tensor, cpu-function, host-sync, graph-retention ------


def _training(tiny: bool, device: torch.device) -> Inputs:
    steps, batch, dim, classes = (3, 4, 8, 5) if tiny else (100, 64, 128, 256)
    g = _gen()
    raw = np.random.default_rng(0).gamma(2.0, 3.0, (steps * batch, dim))
    return {
        "x": torch.randn(steps, batch, dim, generator=g).to(device),
        "y": torch.randint(0, classes, (steps, batch), generator=g).to(device),
        "w0": (torch.randn(dim, classes, generator=g) * 0.05).to(device),
        "class_weights": (np.arange(1, classes + 1) / classes).tolist(),
        "raw": raw,
        "batch": batch,
        "device": device,
    }


def _sgd_step(w: torch.Tensor, xb: torch.Tensor, yb: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    loss = F.cross_entropy(xb @ w, yb, weight=weight)
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad = None
    return loss


def redundant_tensor_before(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    for xb, yb in zip(d["x"], d["y"]):
        class_weights = torch.tensor(d["class_weights"], device=d["device"])
        _sgd_step(w, xb, yb, class_weights)
    return w.detach()


def redundant_tensor_after(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    class_weights = torch.tensor(d["class_weights"], device=d["device"])
    for xb, yb in zip(d["x"], d["y"]):
        _sgd_step(w, xb, yb, class_weights)
    return w.detach()


def _standardise(raw: np.ndarray) -> np.ndarray:
    logged = np.log1p(raw)
    return ((logged - logged.mean(0)) / logged.std(0)).astype(np.float32)


def cpu_function_before(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    batch = d["batch"]
    for step, yb in enumerate(d["y"]):
        feats = _standardise(d["raw"])
        xb = torch.from_numpy(feats[step * batch : (step + 1) * batch]).to(d["device"])
        _sgd_step(w, xb, yb)
    return w.detach()


def cpu_function_after(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    batch = d["batch"]
    feats = _standardise(d["raw"])
    for step, yb in enumerate(d["y"]):
        xb = torch.from_numpy(feats[step * batch : (step + 1) * batch]).to(d["device"])
        _sgd_step(w, xb, yb)
    return w.detach()


def host_sync_before(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    running = 0.0
    for xb, yb in zip(d["x"], d["y"]):
        loss = _sgd_step(w, xb, yb)
        running += loss.item()
    return torch.tensor(running)


def host_sync_after(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    running = torch.zeros((), device=d["device"])
    for xb, yb in zip(d["x"], d["y"]):
        loss = _sgd_step(w, xb, yb)
        running += loss.detach()
    return torch.tensor(running.item())


def graph_retention_before(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    total = 0
    for xb, yb in zip(d["x"], d["y"]):
        hidden = torch.tanh(xb @ w)
        loss = F.cross_entropy(hidden, yb)
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
        total += loss
    return total.detach()


def graph_retention_after(d: Inputs) -> torch.Tensor:
    w = d["w0"].clone().requires_grad_()
    total = 0
    for xb, yb in zip(d["x"], d["y"]):
        hidden = torch.tanh(xb @ w)
        loss = F.cross_entropy(hidden, yb)
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
        total += loss.detach()
    return total


# --- cpu-then-move -----------------------------------------------------------------------


def _positions(tiny: bool, device: torch.device) -> Inputs:
    steps, rows, length = (3, 2, 5) if tiny else (300, 64, 200)
    return {"steps": steps, "rows": rows, "length": length, "device": device}


def cpu_then_move_before(d: Inputs) -> torch.Tensor:
    total = torch.zeros((), device=d["device"])
    for _ in range(d["steps"]):
        mask = torch.ones(d["rows"], d["length"]).to(d["device"])
        positions = torch.arange(d["length"]).to(d["device"])
        total = total + (mask * positions).sum()
    return total


def cpu_then_move_after(d: Inputs) -> torch.Tensor:
    total = torch.zeros((), device=d["device"])
    for _ in range(d["steps"]):
        mask = torch.ones(d["rows"], d["length"], device=d["device"])
        positions = torch.arange(d["length"], device=d["device"])
        total = total + (mask * positions).sum()
    return total


# --- eval-without-no-grad ----------------------------------------------------------------


def _evaluation(tiny: bool, device: torch.device) -> Inputs:
    steps, batch, dim = (2, 4, 8) if tiny else (50, 128, 256)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(dim, dim), torch.nn.ReLU(), torch.nn.Linear(dim, dim), torch.nn.ReLU(), torch.nn.Linear(dim, 10)
    ).to(device)
    g = _gen()
    return {
        "model": model,
        "x": torch.randn(steps, batch, dim, generator=g).to(device),
        "y": torch.randint(0, 10, (steps, batch), generator=g).to(device),
    }


def _accuracy(model: torch.nn.Module, d: Inputs) -> torch.Tensor:
    correct = torch.zeros((), dtype=torch.long, device=d["x"].device)
    losses = torch.zeros((), device=d["x"].device)
    for xb, yb in zip(d["x"], d["y"]):
        logits = model(xb)
        losses = losses + F.cross_entropy(logits, yb)
        correct = correct + (logits.argmax(1) == yb).sum()
    return torch.stack([losses.detach(), correct.float()])


def eval_no_grad_before(d: Inputs) -> torch.Tensor:
    d["model"].eval()
    return _accuracy(d["model"], d)


def eval_no_grad_after(d: Inputs) -> torch.Tensor:
    d["model"].eval()
    with torch.no_grad():
        return _accuracy(d["model"], d)


# --- elementwise-loop --------------------------------------------------------------------


def _vectors(tiny: bool, device: torch.device) -> Inputs:
    steps, n = (2, 6) if tiny else (5, 2000)
    g = _gen()
    return {"steps": steps, **{k: torch.randn(n, generator=g).to(device) for k in ("x", "w", "b")}}


def elementwise_loop_before(d: Inputs) -> torch.Tensor:
    x, w, b = d["x"], d["w"], d["b"]
    for _ in range(d["steps"]):
        out = torch.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = x[i] * w[i] + b[i]
    return out


def elementwise_loop_after(d: Inputs) -> torch.Tensor:
    for _ in range(d["steps"]):
        out = d["x"] * d["w"] + d["b"]
    return out


CASES: tuple[Case, ...] = (
    Case("operator-fusion", "tanh-GELU", "hand-written tanh GELU, forward + backward, 64x256", _activations,
         gelu_before, gelu_after, 47, 1041,
         note="CPU eager tanh dominates both sides at this size; the chain's extra passes cost less than on a GPU"),
    Case("operator-fusion", "layer norm", "hand-written layer norm, forward + backward, 64x256", _activations,
         layer_norm_before, layer_norm_after, 47, 1041),
    Case("ping-pong", "tolist round trip", "relu(batch) -> .cpu().tolist() -> torch.tensor, 64x256", _batches,
         ping_pong_before, ping_pong_after, 173, 6790),
    Case("dict-as-list", "dict of lists per batch", "3 tensors from a dict of lists per batch of 64, 5 epochs of 8192 rows",
         _dataset, dict_as_list_before, dict_as_list_after, 61, 74,
         note="the fixed side pays its one-time conversion of every column inside the timing"),
    Case("list-to-tensor", "append .item() per sample", "64 per-sample .item() appends -> torch.tensor", _batches,
         list_to_tensor_before, list_to_tensor_after, 13, 48),
    Case("redundant-tensor", "class weights rebuilt", "torch.tensor(256 class weights) + SGD step 64x128->256",
         _training, redundant_tensor_before, redundant_tensor_after, 1.012, 1.2),
    Case("cpu-function", "numpy standardise re-run", "numpy log1p+standardise of 6400x128 + SGD step",
         _training, cpu_function_before, cpu_function_after, 1.03, 1.4,
         note="the ratio grows with the invariant data re-processed per step beside the step itself"),
    Case("host-sync", ".item() per step", "loss.item() + SGD step 64x128->256", _training,
         host_sync_before, host_sync_after,
         note="on a CPU .item() waits for nothing; the cost it models is a GPU sync"),
    Case("cpu-then-move", "created then moved", "torch.ones/arange(...).to(device), 64x200", _positions,
         cpu_then_move_before, cpu_then_move_after,
         note="on a CPU .to('cpu') is a no-op; the cost it models is a host-to-device copy"),
    Case("eval-without-no-grad", "eval records graphs", "3-layer MLP forward, batch 128x256", _evaluation,
         eval_no_grad_before, eval_no_grad_after),
    Case("graph-retention", "total += loss", "total += loss (graph kept) + SGD step 64x128->256", _training,
         graph_retention_before, graph_retention_after,
         note="retained graphs cost memory more than time"),
    Case("elementwise-loop", "indexing elements", "out[i] = x[i]*w[i]+b[i] over 2000 elements", _vectors,
         elementwise_loop_before, elementwise_loop_after),
)
