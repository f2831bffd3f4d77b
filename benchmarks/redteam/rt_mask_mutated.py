# corpus: runnable
import torch
import torch.nn.functional as F
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
batches = [torch.randn(4, 6).to(device) for _ in range(3)]
out = []
for step, x in enumerate(batches):
    mask = torch.ones(6, device=device)
    m = mask[:3]
    m.mul_(0.5)
    out.append((x * mask).sum().item())
    w = torch.tensor([1.0, 2.0, 3.0], device=device)
    w.T[0] = step
    out.append(w.sum().item())
    s = torch.ones(2, 3, device=device)
    torch.mul(s, 2, out=s)
    out.append(s.sum().item())
    r = torch.full((3,), -1.0, device=device)
    F.relu(r, inplace=True)
    r += 1
    out.append(r.sum().item())
print(out)
