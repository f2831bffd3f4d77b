# corpus: runnable
# A local module reaching the script's globals through `importlib.import_module("__main__")`,
# `sys.modules.get("__main__")` and `vars(sys.modules["__main__"])`.
import torch

import helpers

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(3, 3)
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    steps = torch.ones(1)
    acc = torch.zeros(3)
    for x in xs:
        helpers.record(x)
        helpers.bump()
        helpers.scale(x)
    rows.append((round(hist.sum().item(), 4), steps.item(), round(acc.sum().item(), 4)))
print("globals", rows)
