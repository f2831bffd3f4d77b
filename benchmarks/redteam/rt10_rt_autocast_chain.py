# corpus: runnable
# Projections computed from constant tables inside an autocast region: matmul and linear run in
# bfloat16 there. Computed once before the loop (outside the region) they would be float32 and
# the printed sums and dtypes change.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
W = torch.randn(4, 4)
xs = torch.randn(6, 4)

outs = []
for step in range(3):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        proj = torch.full((4, 4), 0.3) @ torch.eye(4)
        bias = F.linear(torch.ones(1, 4), W)
        y = xs @ proj + bias
    outs.append((str(proj.dtype), str(bias.dtype), round(y.float().sum().item(), 4)))
print(outs)

outs2 = []
for step in range(3):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        gram = torch.mm(torch.linspace(0.1, 1.0, 4).unsqueeze(1), torch.linspace(0.1, 1.0, 4).unsqueeze(0))
    outs2.append((str(gram.dtype), round(gram.double().sum().item(), 6)))
print(outs2)
