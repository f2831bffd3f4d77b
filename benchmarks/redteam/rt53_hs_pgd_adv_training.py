# corpus: runnable
# Red team 53 (blind): adversarial training of a small classifier with PGD. The INPUT is the thing
# optimised inside the attack: it requires grad, steps along x.grad.sign(), is projected back into the
# eps-ball and clamped to the data range after every step, and is re-leafed with detach().requires_grad_().
# The attack stops early once the batch's mean loss read by .item() passes a margin; the step size shrinks
# when the loss stalls. The clean / robust accuracy is read per epoch with the model in eval mode, the
# robust pass needs gradients w.r.t. the input.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5301)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(53)
X = torch.rand(192, 8, generator=g)
Y = ((X[:, 0] + X[:, 1] * 0.5 - X[:, 2]) > 0.3).long() + ((X[:, 3] - X[:, 4]) > 0.2).long()
X, Y = X.to(device), Y.to(device)

net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)


def pgd(model, x, y, eps, alpha, steps, margin):
    x_adv = (x + torch.empty_like(x).uniform_(-eps, eps)).clamp(0.0, 1.0)
    prev = None
    used = 0
    for _ in range(steps):
        x_adv = x_adv.detach().requires_grad_()
        loss = F.cross_entropy(model(x_adv), y)
        grad, = torch.autograd.grad(loss, x_adv)
        x_adv = x_adv + alpha * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - eps), x + eps).clamp(0.0, 1.0)
        used += 1
        cur = loss.item()
        if cur > margin:
            break
        if prev is not None and cur - prev < 1e-3:
            alpha = alpha * 0.5
        prev = cur
    return x_adv.detach(), used


history = []
steps_used = []
for epoch in range(6):
    net.train()
    total = 0.0
    perm = torch.randperm(192, device=device)
    for b in range(6):
        idx = perm[b * 32:(b + 1) * 32]
        xb, yb = X[idx], Y[idx]
        x_adv, used = pgd(net, xb, yb, eps=0.1, alpha=0.03, steps=5, margin=1.4)
        steps_used.append(used)
        loss = 0.5 * F.cross_entropy(net(xb), yb) + 0.5 * F.cross_entropy(net(x_adv), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    net.eval()
    clean = 0
    robust = 0
    for b in range(6):
        xb, yb = X[b * 32:(b + 1) * 32], Y[b * 32:(b + 1) * 32]
        clean += (net(xb).argmax(1) == yb).sum().item()
        x_adv, _ = pgd(net, xb, yb, eps=0.1, alpha=0.03, steps=3, margin=9.0)
        robust += (net(x_adv).argmax(1) == yb).sum().item()
    history.append((total / 6, clean / 192, robust / 192))

# the saliency of one input after training: the gradient of the winning logit w.r.t. the input
net.eval()
probe = X[:4].clone().requires_grad_()
out = net(probe)
out.gather(1, out.argmax(1, keepdim=True)).sum().backward()
saliency = probe.grad.abs().sum(1)

for i, (l, c, r) in enumerate(history):
    print(f'epoch {i} loss {l:.6f} clean {c:.4f} robust {r:.4f}')
print('steps', sum(steps_used), steps_used[:8])
print('saliency', [round(v, 6) for v in saliency.tolist()])
print('checksum', round(sum(p.double().sum().item() for p in net.parameters()), 6))
