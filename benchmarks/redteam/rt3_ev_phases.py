# corpus: runnable
# Evaluation loops that compute gradients anyway: `set_grad_enabled(flag)` phases, an attack helper
# defined in the same file or called through a lambda, `requires_grad_` on inputs then
# `torch.autograd.grad` via a helper, printing outputs, a closure called by the optimizer.
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(4, 3), torch.randint(0, 2, (4,))) for _ in range(3)]
crit = torch.nn.CrossEntropyLoss()

for phase in ["train", "val"]:
    if phase == "train":
        model.train()
    else:
        model.eval()
    for x, y in data:
        with torch.set_grad_enabled(phase == "train"):
            out = model(x)
            loss = crit(out, y)
        if phase == "train":
            opt.zero_grad()
            loss.backward()
            opt.step()
print(model.weight.data)


def fgsm(net, x, y, eps=0.1):
    x = x.clone().requires_grad_(True)
    loss = crit(net(x), y)
    (g,) = torch.autograd.grad(loss, x)
    return (x + eps * g.sign()).detach()


model.eval()
correct = 0
for x, y in data:
    x_adv = fgsm(model, x, y)
    correct += (model(x_adv).argmax(1) == y).sum().item()
print(correct)

attack = lambda net, x, y: fgsm(net, x, y, 0.2)
model.eval()
correct = 0
for x, y in data:
    adv = attack(model, x, y)
    correct += (model(adv).argmax(1) == y).sum().item()
print(correct)

model.eval()
sal = []
for x, y in data:
    x.requires_grad_(True)
    out = model(x)
    score = out.gather(1, y[:, None]).sum()
    grad_fn = torch.autograd.grad
    (gx,) = grad_fn(score, x)
    sal.append(gx.abs().sum().item())
    x.requires_grad_(False)
print([round(s, 4) for s in sal])

model.eval()
for x, y in data[:1]:
    out = model(x)
    print(out.requires_grad, out.grad_fn is None)

model.eval()
for x, y in data:
    def closure():
        opt.zero_grad()
        l = crit(model(x), y)
        l.backward()
        return l
    opt.step(closure)
print(model.weight.data)
