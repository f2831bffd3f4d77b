# corpus: runnable
# Red team 53 probe (not blind): evaluation-looking loops (model.eval(), no .backward( written in the loop)
# that need autograd: a guarded backward (`if out.requires_grad`) in a helper, torch.autograd.grad under an
# alias, a step closure made before the loop, a method of an attack object, backward through getattr.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5321)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

net = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 2)).to(device)
X = torch.rand(40, 6, device=device)
Y = torch.randint(0, 2, (40,), device=device)
agrad = torch.autograd.grad
out = []


def saliency(model, x, y):
    x = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)
    if loss.requires_grad:
        loss.backward()
        return x.grad.abs().sum().item()
    return 0.0


net.eval()
for b in range(0, 40, 10):
    out.append(saliency(net, X[b:b + 10], Y[b:b + 10]))

net.eval()
for b in range(0, 40, 10):
    x = X[b:b + 10].clone().requires_grad_(True)
    try:
        g, = agrad(net(x).sum(), x)
        out.append(g.abs().sum().item())
    except RuntimeError:
        out.append(-1.0)

img = torch.zeros(1, 6, device=device, requires_grad=True)


def ascend():
    score = net(img)[0, 1]
    if score.requires_grad:
        score.backward()
    return score


net.eval()
for it in range(5):
    s = ascend()
    with torch.no_grad():
        if img.grad is not None:
            img += 0.1 * img.grad
            img.grad.zero_()
    out.append(s.item())


class Attack:
    def __init__(self, eps):
        self.eps = eps

    def perturb(self, model, x, y):
        x = x.clone().requires_grad_(True)
        loss = F.cross_entropy(model(x), y)
        getattr(loss, 'backward')()
        return (x + self.eps * x.grad.sign()).detach()


attack = Attack(0.1)
net.eval()
correct = 0
for b in range(0, 40, 10):
    xa = attack.perturb(net, X[b:b + 10], Y[b:b + 10])
    correct += int((net(xa).argmax(1) == Y[b:b + 10]).sum())
out.append(correct)
print([round(float(v), 6) for v in out])
print('img', round(img.detach().sum().item(), 6))
