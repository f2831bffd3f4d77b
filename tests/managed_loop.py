"""A device training loop run under a context manager, as a project's `main.py`: the program the
red-team tests on swallowing managers (`test_redteam18`, `test_redteam19`) vary by the manager."""

from __future__ import annotations

_LOOP = """import torch
import torch.nn as nn
{imports}
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]
total = 0.0
with {manager}:
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
