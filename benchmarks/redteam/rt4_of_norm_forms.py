# corpus: runnable
# Hand-written normalisations from public code that are not F.layer_norm: the Annotated
# Transformer's (unbiased std, eps outside the root), unbiased variance, normalising over the
# batch dimension, a LLaMA-style RMSNorm computed in float32 and cast back.
import torch
import torch.nn as nn

torch.manual_seed(0)


class AnnotatedLayerNorm(nn.Module):
    def __init__(self, features, eps=1e-6):
        super().__init__()
        self.a_2 = nn.Parameter(torch.ones(features))
        self.b_2 = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)
        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2  # paef: refuse operator-fusion


class UnbiasedLN(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.g = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=True)
        return self.g * (x - mu) / torch.sqrt(var + self.eps)  # paef: refuse operator-fusion


class BiasedLN(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.g = nn.Parameter(torch.ones(d))
        self.b = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
        return self.g * (x - mu) / torch.sqrt(var + self.eps) + self.b  # paef: expect-fix operator-fusion


def batch_norm_by_hand(x, eps=1e-5):
    mu = x.mean(0, keepdim=True)
    var = ((x - mu) ** 2).mean(0, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps)  # paef: refuse operator-fusion


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self._norm(x.float()).type_as(x) * self.weight


class T5Norm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * x / (torch.sqrt(variance) + self.eps)  # paef: refuse operator-fusion


x = torch.randn(4, 6) * 3 + 1
for mod in (AnnotatedLayerNorm(6), UnbiasedLN(6), BiasedLN(6), T5Norm(6)):
    out = mod(x)
    print(type(mod).__name__, out[0])
print(batch_norm_by_hand(x)[0])
xs = torch.full((2, 6), 1e-4)
print(T5Norm(6)(xs)[0])
print(AnnotatedLayerNorm(6)(torch.ones(2, 6))[0])
print(RMSNorm(6)(x.half())[0])
