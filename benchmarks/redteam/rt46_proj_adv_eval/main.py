# corpus: runnable
# Red team 46 (blind): adversarial evaluation in another module. FGSM reads `x.grad` after `backward()`; PGD
# keeps a per-batch perturbation made in the loop, changes it through `.data` and reads/clears its `.grad`; a
# `@torch.no_grad()` helper sits beside the undecorated attacks. The model is in eval mode throughout.
import torch
import torch.nn as nn
import torch.nn.functional as F

from report import robust_eval

torch.manual_seed(3)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5)
X = torch.randn(32, 6, generator=g)
Y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)

for epoch in range(5):
    model.train()
    total = 0.0
    for i in range(0, 32, 8):
        xb, yb = X[i:i + 8].to(device), Y[i:i + 8].to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print('epoch', epoch, '%.10f' % total)

batches = [(X[i:i + 8], Y[i:i + 8]) for i in range(0, 32, 8)]
clean, fg, pg, losses = robust_eval(model, batches, device)
print('clean', clean, 'fgsm', fg, 'pgd', pg)
print('pgd losses', losses.shape, ['%.10f' % v for v in losses.tolist()])
print('leftover grads', [None if p.grad is None else round(p.grad.abs().sum().item(), 8) for p in model.parameters()])
