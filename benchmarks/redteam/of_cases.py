# corpus: runnable
import math
import torch
import torch.nn.functional as F
torch.manual_seed(0)
class LayerNorm(torch.nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.a_2 = torch.nn.Parameter(torch.ones(d) * 1.5)
        self.b_2 = torch.nn.Parameter(torch.zeros(d) + 0.1)
        self.eps = eps
    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)
        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2
class LN2(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.gamma = torch.nn.Parameter(torch.ones(1, 1, d) * 2)
        self.beta = torch.nn.Parameter(torch.zeros(1, 1, d) + 1)
    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return (x - mu) / torch.sqrt(var + 1e-5) * self.gamma + self.beta
class ChanNorm(torch.nn.Module):
    def forward(self, x):
        mu = x.mean(1, keepdim=True)
        var = x.var(1, keepdim=True, unbiased=False)
        return (x - mu) / torch.sqrt(var + 1e-5)
x = torch.randn(2, 3, 4)
print(LayerNorm(4)(x))
print(LN2(4)(x))
print(ChanNorm()(x))
qg = x * torch.sigmoid(1.702 * x)
print(qg)
sw = x * torch.sigmoid(x * 2.0)
print(sw)
y = x.clone()
s = 1 / (1 + torch.exp(-y * 3))
print(s)
ii = torch.arange(-3, 3)
print(ii * (ii > 0))
print(torch.maximum(ii, torch.zeros_like(ii)))
v = torch.randn(3, 4)
print(v - torch.logsumexp(v, 0, keepdim=True))
print(torch.exp(v) / torch.exp(v).sum(dim=0, keepdim=True))
e = torch.exp(v)
tot = e.sum(-1, keepdim=True)
p = e / tot
e.add_(1)
print(p, e)
def rms(x, w, eps=1e-6):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).type_as(x) * w
print(rms(x.half(), torch.ones(4).half()).float())
def rms2(x, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(dim=(-2, -1), keepdim=True) + eps)
print(rms2(x))
def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3))))
print(gelu(torch.arange(5)))
