# corpus: runnable
# Softmax/log-softmax/sigmoid/tanh written by hand: inputs that overflow exp (NaN before, finite
# after the fused op), a sum without keepdim over a square matrix (not a softmax at all), a
# normaliser over another dimension, random operands evaluated twice, integer and NumPy inputs.
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.tensor([[100.0, 0.0, -5.0], [1000.0, 1.0, 2.0]])
probs = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)  # paef: refuse operator-fusion
print(probs)
logp = logits - torch.log(torch.exp(logits).sum(-1, keepdim=True))  # paef: refuse operator-fusion
print(logp)

sq = torch.randn(3, 3)
col = torch.exp(sq) / torch.exp(sq).sum(1)  # paef: refuse operator-fusion
print(col)
rows = torch.exp(sq) / torch.exp(sq).sum(0, keepdim=True)
print(rows)

h = torch.ones(2, 4)
noisy = torch.exp(F.dropout(h, 0.5)) / torch.exp(F.dropout(h, 0.5)).sum(-1, keepdim=True)  # paef: refuse operator-fusion
print(noisy.shape)

big = torch.tensor([-1000.0, -50.0, 0.0, 50.0, 1000.0])
print(1.0 / (1.0 + torch.exp(-big)))
print((torch.exp(big) - torch.exp(-big)) / (torch.exp(big) + torch.exp(-big)))  # paef: refuse operator-fusion
ints = torch.arange(-3, 4)
print(1 / (1 + torch.exp(-ints)))
arr = np.array([-2.0, 0.0, 2.0])
print(1 / (1 + np.exp(-arr)))
e = np.exp(arr)
print(e / e.sum())
