# corpus: runnable
# Red team 37 (blind): a tiny bidirectional sequence regressor over a columnar dataset kept as a dict
# of Python lists (as read from a CSV). The backward direction reads each window reversed with a
# negative-step slice; the "price" column mixes ints and floats as the CSV had them.
import torch
import torch.nn as nn

torch.manual_seed(2)
torch.set_num_threads(1)

data = {
    "signal": [0.1, 0.4, -0.2, 0.7, 0.3, -0.5, 0.9, 0.05, -0.3, 0.6, 0.2, -0.1],
    "price": [10, 12.5, 9, 11, 13.25, 8, 10, 12, 9.5, 11, 10, 12],
}
W = 4
fwd = nn.Linear(W, 1)
bwd = nn.Linear(W, 1)
opt = torch.optim.SGD(list(fwd.parameters()) + list(bwd.parameters()), lr=0.01)

for epoch in range(2):
    for s in range(0, len(data["signal"]) - W, 2):
        e = s + W
        xf = torch.tensor(data["signal"][s:e])
        xb = torch.tensor(data["signal"][e - 1 : s - 1 if s > 0 else None : -1])
        target = torch.tensor(data["price"][e : e + 1])
        pred = fwd(xf) + bwd(xb)
        loss = (pred - target / 10).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, s, target.dtype, f"{loss.item():.10f}", xb.tolist())
