# corpus: runnable
# Red team 30b, wave 2 (blind; wave 1's shape on a device): a sync audit patches `torch.Tensor.item` to count host reads, as one
# does when hunting synchronisations; the training loop's total is read through `.item()`.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
READS = {"item": 0}
_item = torch.Tensor.item


def counted_item(self):
    READS["item"] += 1
    return _item(self)


torch.Tensor.item = counted_item
g = torch.Generator().manual_seed(8)
data = [(torch.randn(8, 4, generator=g), torch.randn(8, 1, generator=g)) for _ in range(6)]
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    total = 0.0
    for x, y in data:
        x, y = x.to(device), y.to(device)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("epoch", epoch, round(total, 4), "host reads so far", READS["item"])
torch.Tensor.item = _item
