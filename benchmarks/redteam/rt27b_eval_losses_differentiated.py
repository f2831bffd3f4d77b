# corpus: runnable
# Red team 27, wave 2 (blind): validation loops run in eval mode whose losses are differentiated
# afterwards: a hypergradient on a learnable temperature (validation loss returned by a helper,
# then `.backward()`), a validation loss kept on the trainer and used as a penalty, and per-batch
# validation outputs a callback turns into a saliency map with `torch.autograd.grad`.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2707)
device = "cuda" if torch.cuda.is_available() else "cpu"


class TempNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.log_t = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        return self.fc(x) / self.log_t.exp()


def validation_loss(model, val):
    model.eval()
    losses = []
    for x, y in val:
        losses.append(nn.functional.cross_entropy(model(x.to(device)), y.to(device)))
    model.train()
    return torch.stack(losses).mean()


class Trainer:
    def __init__(self, model, val):
        self.model, self.val = model, val
        self.opt = torch.optim.SGD(model.fc.parameters(), lr=0.1)
        self.val_penalty = None

    def evaluate(self):
        self.model.eval()
        total = 0.0
        for x, y in self.val:
            total = total + nn.functional.cross_entropy(self.model(x.to(device)), y.to(device))
        self.val_penalty = total / len(self.val)
        self.model.train()

    def step(self, x, y):
        loss = nn.functional.cross_entropy(self.model(x), y)
        if self.val_penalty is not None:
            loss = loss + 0.1 * self.val_penalty
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.val_penalty = None
        return loss.item()


def saliency(model, inputs, outputs):
    grads = [torch.autograd.grad(o.sum(), i, retain_graph=True)[0] for i, o in zip(inputs, outputs)]
    return [round(g.abs().sum().item(), 6) for g in grads]


def main():
    g = torch.Generator().manual_seed(5)
    train = [(torch.randn(8, 4, generator=g), torch.randint(0, 3, (8,), generator=g)) for _ in range(3)]
    val = [(torch.randn(8, 4, generator=g), torch.randint(0, 3, (8,), generator=g)) for _ in range(2)]
    model = TempNet().to(device)
    hyper = torch.optim.SGD([model.log_t], lr=0.5)
    trainer = Trainer(model, val)
    for epoch in range(3):
        for x, y in train:
            trainer.step(x.to(device), y.to(device))
        hyper.zero_grad()
        vloss = validation_loss(model, val)
        vloss.backward()
        hyper.step()
        trainer.evaluate()
        print(epoch, f"{vloss.item():.8f}", f"{model.log_t.item():.8f}")
    model.eval()
    inputs, outputs = [], []
    for x, _ in val:
        x = x.to(device).requires_grad_(True)
        inputs.append(x)
        outputs.append(model(x))
    print(saliency(model, inputs, outputs))


if __name__ == "__main__":
    main()
