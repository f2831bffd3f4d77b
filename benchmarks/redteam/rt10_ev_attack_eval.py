# corpus: runnable
# Robust-accuracy evaluation: the evaluation loop crafts adversarial inputs through a helper chosen
# from a dict of attacks, which relies on the caller's grad mode (no `enable_grad` of its own). A
# `no_grad` around the evaluation loop would make the attack's `autograd.grad` fail.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
data = [(torch.randn(6, 4), torch.randint(0, 3, (6,))) for _ in range(3)]


def fgsm(net, x, y, eps=0.1):
    x = x.clone().requires_grad_(True)
    loss = nn.functional.cross_entropy(net(x), y)
    (g,) = torch.autograd.grad(loss, x)
    return (x + eps * g.sign()).detach()


def noise(net, x, y, eps=0.1):
    return x + eps * torch.randn_like(x)


ATTACKS = {"fgsm": fgsm, "noise": noise}


def robust_accuracy(name):
    model.eval()
    correct = 0
    attack = ATTACKS[name]
    for x, y in data:
        adv = attack(model, x, y)
        correct += (model(adv).argmax(1) == y).sum().item()
    return correct


print("fgsm", robust_accuracy("fgsm"), "noise", robust_accuracy("noise"))


@torch.enable_grad()
def saliency_report():
    model.eval()
    peaks = []
    for x, y in data:
        x = x.requires_grad_(True)
        score = model(x).gather(1, y[:, None]).sum()
        score.backward()
        peaks.append(round(x.grad.abs().max().item(), 5))
    return peaks


with torch.no_grad():
    print("saliency", saliency_report())
