"""Checks, on the installed torch, each read the closed-world gates of host-sync's device
accumulation and graph-retention's `.detach()` accept: the read must give the same result for
the value before the rewrite and the value after it. Run: `python -m benchmarks.closed_world_totals_check`.
A read printed `DIFFERS` must not be in a closed list (the script lists them too, to show why)."""

from __future__ import annotations

import torch

_READS = {
    'f"{x:.4f}"': lambda x: f"{x:.4f}",
    'f"{x:.3e}"': lambda x: f"{x:.3e}",
    'f"{x:>10.2f}"': lambda x: f"{x:>10.2f}",
    'f"{x:.2%}"': lambda x: f"{x:.2%}",
    '"%.3f" % x': lambda x: "%.3f" % x,
    '"%.3f %d" % (x, 1)': lambda x: "%.3f %d" % (x, 1),
    'format(x, ".2f")': lambda x: format(x, ".2f"),
    "float(x)": lambda x: (type(float(x)), float(x)),
    "x < 1.0 in an if": lambda x: bool(x < 1.0),
    "x > y (two totals) in an if": lambda x: bool(x > x * 0.5),
    "torch.isfinite(x) (graph-retention)": lambda x: repr(torch.isfinite(x)) if isinstance(x, torch.Tensor) else "n/a",
    "(x < 1.0) has no graph": lambda x: repr(x < 1.0),
    "ReduceLROnPlateau.step(x)": lambda x: _plateau(x),
    "x.tolist()": lambda x: x.tolist() if isinstance(x, torch.Tensor) else "n/a",
    "repr(x.detach())": lambda x: repr(x.detach()) if isinstance(x, torch.Tensor) else "n/a",
    "x.size(), x.dim(), x.numel()": lambda x: (x.size(), x.dim(), x.numel()) if isinstance(x, torch.Tensor) else "n/a",
    "x.shape, x.dtype, x.device, x.ndim": lambda x: (x.shape, x.dtype, x.device, x.ndim) if isinstance(x, torch.Tensor) else "n/a",
    "repr(x.argmax())": lambda x: repr(x.argmax()) if isinstance(x, torch.Tensor) else "n/a",
    "int(x), bool(x)": lambda x: (int(x), bool(x)),
    "len(x)": lambda x: len(x),
    "isinstance(x, torch.Tensor)": lambda x: isinstance(x, torch.Tensor),
    "x.item()": lambda x: x.item() if isinstance(x, torch.Tensor) else "n/a",
    "x.detach().item()": lambda x: x.detach().item() if isinstance(x, torch.Tensor) else "n/a",
    "(x / 3).item()": lambda x: (x / 3).item() if isinstance(x, torch.Tensor) else "n/a",
    # expected to differ (not in the lists): shown so the table says why
    'f"{x}"': lambda x: f"{x}",
    'f"{x:g}"': lambda x: f"{x:g}",
    'f"{x:d}"': lambda x: f"{x:d}",
    "str(x)": lambda x: str(x),
    "repr(x)": lambda x: repr(x),
    "round(x, 2)": lambda x: repr(round(x, 2)),
    "type(x)": lambda x: type(x).__name__,
    "x.requires_grad": lambda x: getattr(x, "requires_grad", "n/a"),
}


def _plateau(x: object) -> tuple[float, float]:
    """What a `ReduceLROnPlateau` keeps after `step(x)`: its best value and the learning rate."""
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
    sched.step(x)
    sched.step(x)
    return sched.best, opt.param_groups[0]["lr"]


def _compare(label: str, before: object, after: object) -> None:
    print(f"## {label}")
    for read, f in _READS.items():
        try:
            a = repr(f(before))
        except Exception as e:  # noqa: BLE001 - the error is the result
            a = f"raises {type(e).__name__}"
        try:
            b = repr(f(after))
        except Exception as e:  # noqa: BLE001
            b = f"raises {type(e).__name__}"
        print(f"{'same   ' if a == b else 'DIFFERS'} {read:28} {a[:48]:50} {b[:48]}")


def main() -> None:
    print("torch", torch.__version__)
    total = 0.0
    for v in (0.1, 0.2, 0.7):
        total += torch.tensor(v, dtype=torch.float32).item()
    dev = torch.tensor(0.0, dtype=torch.float64)
    for v in (0.1, 0.2, 0.7):
        dev = dev + torch.tensor(v, dtype=torch.float32).double()
    _compare("host-sync, float total vs its float64 0-dim device sum", total, dev)
    count = 0 + torch.tensor(3).item()
    _compare("host-sync, int total vs its int64 0-dim device sum", count, 0 + torch.tensor(3))
    w = torch.tensor(2.0, requires_grad=True)
    kept = torch.tensor(0.0) + (w * 0.5) + (w * 0.25)
    detached = torch.tensor(0.0) + (w * 0.5).detach() + (w * 0.25).detach()
    _compare("graph-retention, 0-dim total with its graph vs detached", kept, detached)
    vec = torch.zeros(2) + w * torch.tensor([0.5, 0.25])
    _compare("graph-retention, 1-dim total with its graph vs detached", vec, vec.detach())


if __name__ == "__main__":
    main()
