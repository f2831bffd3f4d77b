# corpus: runnable
# Red team 25, wave 2: legacy constructors (`torch.Tensor(n)`, `torch.FloatTensor(n)`,
# `torch.LongTensor(n)`) given one number read from a Python list, a dict column or a row
# table: the number is a size there, not a value
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2527)
config = {"widths": [2, 4, 3], "lr": [0.1, 0.05, 0.01]}
depths = [3, 1, 2]
rows = [[1, 2], [3, 4], [5, 6]]
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
log = []
for step in range(3):
    x = torch.randn(3, 2)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    width = torch.Tensor(config["widths"][step])
    depth = torch.FloatTensor(depths[step])
    pair = torch.LongTensor(rows[step])
    cols = [torch.LongTensor(config["widths"][i]).shape[0] for i in range(step + 1)]
    log.append((tuple(width.shape), tuple(depth.shape), pair.tolist(), cols, round(loss.item(), 4)))
print("legacy constructors", log)
