# corpus: runnable
"""Masked-feature training: a cutout mask is made every step and edited in place by a @staticmethod
helper; class weights go through a loss object whose __call__ normalises them in place; the anchor
copy is taken from an EMA buffer updated in place; positions come from an lru_cache'd table."""
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Aug:
    @staticmethod
    def cutout_(mask, step):
        mask[:, step % 6] = 0.0
        return mask


class WeightedCE:
    def __call__(self, logits, target, weight):
        weight /= weight.sum()
        return nn.functional.cross_entropy(logits, target, weight=weight.to(logits.device))


class EMA:
    def __init__(self, tensor, decay=0.8):
        self.shadow = tensor
        self.decay = decay

    def update(self, value):
        self.shadow.mul_(self.decay).add_(value, alpha=1 - self.decay)


@functools.lru_cache(maxsize=None)
def position_table(n):
    return torch.arange(n).float() / n


g = torch.Generator().manual_seed(21)
X = torch.randn(32, 6, generator=g)
Y = torch.randint(0, 3, (32,), generator=g)
anchor = torch.zeros(6)
ema = EMA(anchor)
model = nn.Linear(6, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = WeightedCE()
for step in range(8):
    xb, yb = X[(step % 4) * 8:(step % 4 + 1) * 8].to(device), Y[(step % 4) * 8:(step % 4 + 1) * 8].to(device)
    mask = torch.ones(8, 6)
    Aug.cutout_(mask, step)
    class_w = torch.tensor([1.0, 2.0, 0.5])
    anchor_copy = torch.tensor(anchor)
    pos = position_table(6).to(device)
    h = xb * mask.to(device) + pos - anchor_copy.to(device)
    loss = crit(model(h), yb, class_w)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(xb.mean(0).cpu())
    print(step, "loss %.10f" % loss.item(), "w %.6f" % class_w[1].item(), "zeros", int((mask == 0).sum()))
print("anchor", [round(v, 8) for v in anchor.tolist()])
print("cache", position_table.cache_info())
