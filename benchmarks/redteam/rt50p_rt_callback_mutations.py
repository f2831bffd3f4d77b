# corpus: runnable
# Red team 50 probe (NOT blind, written after first contact): per-step tensors built from constants that code run
# BY A LIBRARY CALL changes in place: an LBFGS closure counting its evaluations into a per-step counter, an
# optimizer step post-hook adding into a per-step statistics buffer, and `model.apply` with a function filling a
# per-step buffer.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5051)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(32, 3)
Y = X @ torch.tensor([[1.0], [-1.0], [0.5]])
model = nn.Linear(3, 1).to(device)
lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)
xb, yb = X.to(device), Y.to(device)


def closure():
    lbfgs.zero_grad()
    loss = F.mse_loss(model(xb), yb)
    loss.backward()
    evals[0] += 1
    return loss


for it in range(4):
    evals = torch.zeros(1)
    loss = lbfgs.step(closure)
    print('lbfgs', it, f'{loss.item():.10f}', evals.tolist())

model2 = nn.Linear(3, 1).to(device)
sgd = torch.optim.SGD(model2.parameters(), lr=0.05)


def post_hook(optimizer, args, kwargs):
    stats.add_(torch.stack([p.detach().norm().cpu() for p in model2.parameters()]))


sgd.register_step_post_hook(post_hook)
for it in range(4):
    stats = torch.zeros(2)
    loss = F.mse_loss(model2(xb), yb)
    sgd.zero_grad()
    loss.backward()
    sgd.step()
    print('hook', it, f'{loss.item():.10f}', [f'{v:.8f}' for v in stats.tolist()])


def count_params(m):
    if isinstance(m, nn.Linear):
        sizes.add_(m.weight.numel())


for it in range(3):
    sizes = torch.zeros(())
    model2.apply(count_params)
    print('apply', it, sizes.item())
