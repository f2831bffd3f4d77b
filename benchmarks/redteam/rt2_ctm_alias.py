# corpus: runnable
# A host tensor with another name kept before the move, changed after it; and stores between the
# factory and the move that read the host tensor.
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
out = []
for step in range(3):
    t = torch.zeros(4)
    keep = t
    t = t.to(device)
    keep.add_(1)
    out.append((t.sum().item(), keep.sum().item()))
    u = torch.arange(4)
    u[0] = u[3] * 2
    u = u.to(device)
    out.append(u.tolist())
    v = torch.ones(3)
    view = v[:2]
    v = v.to(device)
    view.mul_(5)
    out.append(v.sum().item())
    w = torch.full((3,), float(step))
    w[1:] = w[:2].clone() + 1
    w = w.to(device)
    out.append(w.tolist())
print(out)
