# corpus: runnable
# A hook installed by a local module changes a script global through `sys.modules.get("__main__")`
# whenever the model runs: the loop itself calls only the model.
import torch
import torch.nn as nn

import hooks

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 3)
hooks.install(model)
xs = torch.randn(4, 3)
outs = []
with torch.no_grad():
    for epoch in range(2):
        scale = torch.ones(3)
        for x in xs:
            y = model(x)
        outs.append(scale.tolist())
print("hooked", outs)
