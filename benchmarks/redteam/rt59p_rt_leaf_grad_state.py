# corpus: runnable
# Red team 59 probe (NOT blind): per-batch tensors built from loop-invariant data that autograd itself changes: a
# feature gate made with requires_grad=True whose .grad (the feature importance) backward() accumulates, and a
# perturbation leaf that gets a tensor hook registered on it every step (hooks pile up on one object if it is
# built once). A plain constant target next to them is the near miss (hoisting it is safe).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5957)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 256, 6, 2
X = torch.randn(N, D, device=device)
Y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, C)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

# 1: a feature gate whose gradient is read as importance
imp = []
for i in range(0, N, 32):
    gate = torch.ones(D, device=device, requires_grad=True)
    loss = F.cross_entropy(model(X[i:i + 32] * gate), Y[i:i + 32])
    opt.zero_grad()
    loss.backward()
    opt.step()
    imp.append(gate.grad.abs().clone())

# 2: a perturbation leaf with a gradient-scaling hook registered each step
adv = []
for i in range(0, N, 32):
    delta = torch.zeros(32, D, device=device, requires_grad=True)
    delta.register_hook(lambda g: g * 0.5)
    loss = F.cross_entropy(model(X[i:i + 32] + delta), Y[i:i + 32])
    loss.backward()
    adv.append(delta.grad.norm().item())
    opt.zero_grad()

# 3: near miss: a constant target, never written
tot = []
for i in range(0, N, 32):
    target = torch.full((32,), 0.5, device=device)
    p = F.softmax(model(X[i:i + 32]), 1)[:, 1]
    tot.append(F.mse_loss(p, target).item())

print("1", [round(v, 4) for v in torch.stack(imp).sum(0).tolist()])
print("2", [round(v, 5) for v in adv])
print("3", round(sum(tot), 5))
