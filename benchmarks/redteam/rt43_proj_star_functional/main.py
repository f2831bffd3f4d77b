# corpus: runnable
# Red team 43 (blind): `F` is torch.nn.functional at the top of this file, but `from augs import *`
# later rebinds it to the image-op module; nets re-exports its blocks through its __init__.
import torch
import torch.nn as nn
import torch.nn.functional as F

from nets import *
from augs import *

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Head(nn.Module):
    def __init__(self, c, n):
        super().__init__()
        self.fc = nn.Linear(c, n)

    def forward(self, h):
        h = h.mean((2, 3))
        h = (h - h.mean(-1, keepdim=True)) / torch.sqrt(h.var(-1, keepdim=True, unbiased=False) + 1e-5)
        h = torch.where(h > 0, h, 0.1 * h)
        return self.fc(h * torch.sigmoid(h))


model = nn.Sequential(ConvBlock(1, 4), Head(4, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
g = torch.Generator().manual_seed(1)
images = torch.rand(12, 1, 6, 6, generator=g)
labels = torch.randint(0, 3, (12,), generator=g)
for step in range(6):
    total = 0
    for i in range(0, 12, 4):
        x = shift(augment(images[i:i + 4], step)).to(device)
        y = labels[i:i + 4].to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        total += loss
    print(step, "total %.10f" % total.item())
    accumulate_and_step(total, opt, 3)
print("augs", VERSION, "F is", F.__name__)
