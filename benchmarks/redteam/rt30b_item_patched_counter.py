# corpus: runnable
# Red team 30b, wave 1 (blind): a sync audit patches `torch.Tensor.item` to count host reads, as one
# does when hunting synchronisations; the training loop's total is read through `.item()`.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
READS = {"item": 0}
_item = torch.Tensor.item


def counted_item(self):
    READS["item"] += 1
    return _item(self)


torch.Tensor.item = counted_item
g = torch.Generator().manual_seed(8)
data = [(torch.randn(8, 4, generator=g), torch.randn(8, 1, generator=g)) for _ in range(6)]
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    total = 0.0
    for x, y in data:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("epoch", epoch, round(total, 4), "host reads so far", READS["item"])
torch.Tensor.item = _item
