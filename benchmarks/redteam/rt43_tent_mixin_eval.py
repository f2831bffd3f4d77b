# corpus: runnable
"""Test-time adaptation in the shape of TENT: the wrapper's forward (inherited from a mixin through
super()) minimises the prediction entropy on every test batch, so the evaluation loop below adapts the
batch-norm affine parameters while it scores."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def softmax_entropy(logits):
    return -(logits.softmax(1) * logits.log_softmax(1)).sum(1)


class AdaptMixin:
    steps = 1

    def forward(self, x):
        for _ in range(self.steps):
            out = self._adapt(x)
        return out

    def _adapt(self, x):
        out = self.model(x)
        loss = softmax_entropy(out).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return out


class Wrapped(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model


class Tent(AdaptMixin, Wrapped):
    def __init__(self, model, optimizer):
        super().__init__(model)
        self.optimizer = optimizer

    def forward(self, x):
        return super().forward(x)


g = torch.Generator().manual_seed(11)
net = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 3)).to(device)
for p in net.parameters():
    p.requires_grad_(False)
for m in net.modules():
    if isinstance(m, nn.BatchNorm1d):
        m.weight.requires_grad_(True)
        m.bias.requires_grad_(True)
params = [p for p in net.parameters() if p.requires_grad]
tent = Tent(net, torch.optim.SGD(params, lr=0.5))
net.train()

test_x = torch.randn(40, 6, generator=g) + 0.7
test_y = torch.randint(0, 3, (40,), generator=g)
correct = 0
for i in range(0, 40, 10):
    xb, yb = test_x[i:i + 10].to(device), test_y[i:i + 10].to(device)
    out = tent(xb)
    correct += (out.argmax(1) == yb).sum().item()
    print(i, "entropy %.10f" % softmax_entropy(out).mean().item())
print("accuracy", correct / 40)
print("bn weight", [round(v, 8) for v in net[1].weight.detach().cpu().tolist()[:4]])
