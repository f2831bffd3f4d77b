# corpus: runnable
# Red team 24, wave 6: a NumPy module function that writes into its first argument and was not
# in the list of argument mutators (`np.put_along_axis`, as top-k label smoothing tables do)
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
table = np.zeros((2, 3))
log = []
for step in range(3):
    x = torch.randn(2, 4, device=device)
    logits = model(x)
    top = logits.argmax(1, keepdim=True).cpu().numpy()
    np.put_along_axis(table, top, step + 1.0, axis=1)
    weights = np.sqrt(table)
    target = torch.as_tensor(weights, dtype=torch.float32, device=device)
    loss = (logits - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append((round(loss.item(), 5), round(float(weights.sum()), 5)))
print("put_along_axis", log)
