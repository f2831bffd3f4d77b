# corpus: runnable
# Red team 46 (blind): sharpness measured with Hessian-vector products. The evaluation pass sums the batch
# losses of the eval-mode model into one total and differentiates it twice (`autograd.grad` with
# create_graph), never calling `.backward()` on it; a gradient-norm penalty is accumulated over micro-batches
# and handed to `torch.autograd.backward`. Power-iteration vectors come from a seeded generator.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(48, 4)
Y = torch.sin(X @ torch.tensor([[1.0], [-0.5], [0.25], [2.0]]))
model = nn.Sequential(nn.Linear(4, 12), nn.Tanh(), nn.Linear(12, 1)).to(device)
params = [p for p in model.parameters()]
opt = torch.optim.SGD(params, lr=0.05)


def flat(ts):
    return torch.cat([t.reshape(-1) for t in ts])


for epoch in range(4):
    model.train()
    opt.zero_grad()
    penalty = 0.0
    for i in range(0, 48, 12):
        xb, yb = X[i:i + 12].to(device), Y[i:i + 12].to(device)
        loss = F.mse_loss(model(xb), yb)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        penalty = penalty + 0.01 * flat(grads).pow(2).sum()
        loss.backward(retain_graph=True)
    torch.autograd.backward(penalty)
    opt.step()
    print('epoch', epoch, 'penalty %.12f' % penalty.item())


def top_eigenvalue(model, batches, iters=6, seed=0):
    model.eval()
    total = 0
    for xb, yb in batches:
        out = model(xb.to(device))
        total = total + F.mse_loss(out, yb.to(device))
    grads = torch.autograd.grad(total, params, create_graph=True)
    g = flat(grads)
    gen = torch.Generator().manual_seed(seed)
    v = torch.randn(g.numel(), generator=gen).to(device)
    v = v / v.norm()
    eig = 0.0
    for _ in range(iters):
        hv = flat(torch.autograd.grad(g @ v, params, retain_graph=True))
        eig = (hv @ v).item()
        v = hv / hv.norm()
    return eig, total


batches = [(X[i:i + 16], Y[i:i + 16]) for i in range(0, 48, 16)]
eig, total = top_eigenvalue(model, batches)
print('top eigenvalue %.10f' % eig)
print('eval total %.12f' % total.item(), total.requires_grad)
