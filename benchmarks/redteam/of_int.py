# corpus: runnable
import math
import torch
import torch.nn.functional as F
torch.manual_seed(0)
def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3))))
steps = torch.arange(5)
print(gelu(steps.float()))
ids = torch.randint(0, 5, (3, 4))
print(torch.exp(ids) / torch.exp(ids).sum(dim=1, keepdim=True))
print(1 / (1 + torch.exp(-ids)))
print(ids * torch.sigmoid(ids))
x = torch.randn(2, 3, dtype=torch.float64)
print(torch.exp(x) / torch.exp(x).sum(dim=-1, keepdim=True))
print(1 / (1 + torch.exp(-x)))
