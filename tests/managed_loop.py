"""A device training loop, as a project's `main.py`: the program the red-team tests vary, by the
manager around the loop (`test_redteam18`, `test_redteam19`) or the weight of its total
(`test_redteam20`)."""

from __future__ import annotations

# A project's `main.py` up to its training loop: `{imports}` are whole lines.
HEADER = """import torch
import torch.nn as nn
{imports}
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]
total = 0.0
"""
_LOOP = HEADER + """with {manager}:
    for x, y in data:
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
print(type(total).__name__)
"""


def managed_loop(imports: str, manager: str) -> str:
    """`main.py` importing `imports` (whole lines) and summing `loss.item()` under `with manager:`."""
    return _LOOP.format(imports=imports, manager=manager)
