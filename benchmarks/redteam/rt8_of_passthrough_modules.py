# corpus: runnable
# Hand-written leaky ReLUs on what modules return, where the module passes its input's dtype
# through: `nn.Identity`, `nn.Flatten`, a model's own shift/crop module, fed with integer codes.
# The float heads (`nn.Embedding`, `nn.Linear`) are the near-misses.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

codes = torch.randint(-4, 4, (2, 3, 2))
flat = nn.Flatten()
z = flat(codes)
act = torch.where(z > 0, z, 0.1 * z)
print("flatten", act.tolist())

stem = nn.Identity()
s = stem(torch.arange(-3, 3))
s_act = torch.where(s > 0, s, s * 0.2)
print("identity", s_act.tolist())


class Shift(nn.Module):
    def forward(self, x):
        return torch.roll(x, 1, dims=-1)


class Crop(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x[..., : self.k]


shift = Shift()
crop = Crop(2)
tok = torch.tensor([[1, -2, 3], [-4, 5, -6]])
h = shift(tok)
print("shift", torch.where(h > 0, h, h * 0.01).tolist())
c = crop(tok)
print("crop", torch.where(c >= 0, c, 0.3 * c).tolist())

emb = nn.Embedding(5, 3)
q = emb(torch.tensor([1, 2]))
print("embedding", torch.where(q >= 0, q, 0.2 * q).sum().item())
lin = nn.Linear(3, 3)
p = lin(q)
print("linear", torch.where(p > 0, p, 0.2 * p).sum().item())
print("functional", F.softplus(p).sum().item())
