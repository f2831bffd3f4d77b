# corpus: runnable
# Metric loops inside TorchScript functions (`@torch.jit.script`, `torch.jit.script(fn)`) and a scripted
# module's forward: TorchScript types a running total from its first assignment, so a float
# that becomes a tensor, or a `List[float]` that receives tensors, no longer compiles.
from typing import List

import torch

torch.manual_seed(0)
torch.set_num_threads(1)


@torch.jit.script
def mean_abs_error(preds: List[torch.Tensor], targets: List[torch.Tensor]) -> float:
    total = 0.0
    for i in range(len(preds)):
        total += (preds[i] - targets[i]).abs().mean().item()
    return total / len(preds)


def count_hits(preds: List[torch.Tensor], targets: List[torch.Tensor]) -> int:
    hits = 0
    for i in range(len(preds)):
        hits += int((preds[i].argmax() == targets[i].argmax()).item())
    return hits


count_hits_ts = torch.jit.script(count_hits)


@torch.jit.script
def per_item(rows: torch.Tensor) -> torch.Tensor:
    vals: List[float] = []
    for i in range(rows.size(0)):
        vals.append(rows[i].pow(2).sum().item())
    return torch.tensor(vals)


class Spread(torch.nn.Module):
    def forward(self, rows: torch.Tensor) -> float:
        acc = 0.0
        for r in rows:
            acc += r.std().item()
        return acc


spread = torch.jit.script(Spread())


preds = [torch.randn(5) for _ in range(4)]
targets = [torch.randn(5) for _ in range(4)]
print("mae", round(mean_abs_error(preds, targets), 5))
print("hits", count_hits_ts(preds, targets))
print("per item", per_item(torch.randn(3, 4)))
print("spread", round(spread(torch.randn(3, 6)), 5))
