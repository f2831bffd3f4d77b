# corpus: runnable
# Red team 27, wave 1 (blind): loops run with the model in eval mode whose outputs are not only
# evaluation: anchors collected in eval mode (dropout off) that the next training step
# back-propagates through (a consistency term that trains both sides), an attack looked up in a
# registry dict, a test-time adapter list whose `__call__` steps an optimizer.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2704)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Dropout(0.3), nn.Linear(12, 4))
        self.cls = nn.Linear(4, 3)

    def embed(self, x):
        return self.body(x)

    def forward(self, x):
        return self.cls(self.embed(x))


def collect_anchors(model, probes):
    model.eval()
    anchors = []
    for xp in probes:
        anchors.append(model.embed(xp.to(device)))
    model.train()
    return torch.cat(anchors)


def fgsm(model, x, y, eps=0.05):
    x = x.clone().requires_grad_(True)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    return (x + eps * x.grad.sign()).detach()


def identity(model, x, y):
    return x


ATTACKS = {"fgsm": fgsm, "none": identity}


class EntropyAdapter:
    """Test-time adaptation: one entropy-minimisation step on the classifier per test batch."""

    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.cls.parameters(), lr=lr)

    def __call__(self, x):
        logits = self.model(x)
        ent = -(logits.softmax(-1) * logits.log_softmax(-1)).sum(-1).mean()
        self.opt.zero_grad()
        ent.backward()
        self.opt.step()
        return logits


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--attack", default="fgsm")
    p.add_argument("--epochs", type=int, default=3)
    args = p.parse_args(argv)
    g = torch.Generator().manual_seed(7)
    train = [(torch.randn(8, 6, generator=g), torch.randint(0, 3, (8,), generator=g)) for _ in range(3)]
    probes = [torch.randn(4, 6, generator=g) for _ in range(2)]
    test = [(torch.randn(8, 6, generator=g), torch.randint(0, 3, (8,), generator=g)) for _ in range(2)]
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for i, (x, y) in enumerate(train):
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            if i == 0:
                anchors = collect_anchors(model, probes)
                fresh = model.embed(torch.cat(probes).to(device))
                loss = loss + 0.5 * (fresh - anchors).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, f"{loss.item():.10f}")

    model.eval()
    attack = ATTACKS[args.attack]
    robust = 0
    for x, y in test:
        x_adv = attack(model, x.to(device), y.to(device))
        robust += (model(x_adv).argmax(-1) == y.to(device)).sum().item()
    print("robust", robust, f"{model.cls.weight.grad.abs().sum().item():.8f}")

    adapters = [EntropyAdapter(model, 0.1)]
    agree = 0
    for x, y in test:
        for adapt in adapters:
            logits = adapt(x.to(device))
        agree += (logits.argmax(-1) == y.to(device)).sum().item()
    print("adapted", agree, [round(v, 6) for v in model.cls.bias.tolist()])


if __name__ == "__main__":
    main([])
