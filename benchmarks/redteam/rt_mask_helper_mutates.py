# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def drop_first_(t):
    t[0] = 0
    return t
def causal(t):
    t.tril_()
batches = [torch.randn(4, 3).to(device) for _ in range(3)]
res = []
for x in batches:
    keep = torch.ones(3, device=device)
    drop_first_(keep)
    res.append((x * keep).sum().item())
    att = torch.ones(3, 3, device=device)
    causal(att)
    res.append(att.sum().item())
    keep2 = torch.ones(3, device=device).view(3)
    keep2.zero_()
    res.append(keep2.sum().item())
    scale = torch.tensor([1.0, 1.0], device=device)
    alias = scale
    alias *= 2
    res.append(scale.sum().item())
print(res)
