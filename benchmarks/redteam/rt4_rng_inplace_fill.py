# corpus: runnable
# A fresh factory tensor immediately filled in place (random init, masks, copies, accumulations):
# building it once before the loop shares one buffer between iterations.
import torch
import torch.nn as nn

torch.manual_seed(0)
n = 5
kept = []
masks = []
for step in range(3):
    w = nn.init.normal_(torch.zeros(n))  # paef: refuse redundant-tensor
    m = torch.ones(n).masked_fill_(torch.rand(n) > 0.5, 0.0)  # paef: refuse redundant-tensor
    c = torch.zeros(n).add_(1.0)  # paef: refuse redundant-tensor
    buf = torch.zeros(n).copy_(torch.randn(n))  # paef: refuse redundant-tensor
    t = torch.nn.init.trunc_normal_(torch.zeros(2, 2), std=0.02)  # paef: refuse redundant-tensor
    kept.append(buf)
    masks.append(m)
    print(step, w.shape, c, t.shape)
print(torch.stack(kept))
print(torch.stack(masks))
