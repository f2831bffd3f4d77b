# corpus: runnable
# Models that compute something learnable once and cache it on the module: a relative-position
# bias built from a learned table on the first forward, a prototype matrix scaled lazily. A sanity evaluation before training fills the cache; under no_grad the cache
# has no graph and the training that follows never updates the tables behind it.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class RelBias(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.table = nn.Parameter(torch.randn(2 * n - 1) * 0.1)
        self.fc = nn.Linear(n, n)
        self.n = n
        self._bias = None

    def forward(self, x):
        if self._bias is None:
            idx = torch.arange(self.n)
            self._bias = self.table[idx[:, None] - idx[None, :] + self.n - 1]
        return self.fc(x) @ self._bias


class ProtoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.protos = nn.Parameter(torch.randn(3, 4))
        self.enc = nn.Linear(4, 4)
        self.cache = {}

    def forward(self, x):
        if "p" not in self.cache:
            self.cache["p"] = self.protos * 0.5
        return self.enc(x) @ self.cache["p"].t()


xs, ys = torch.randn(6, 4), torch.randn(6, 4)
for model in (RelBias(), ProtoNet()):
    model.eval()
    preds = []
    for x in xs.split(3):
        preds.append(model(x))
    print(type(model).__name__, "untrained", round(torch.cat(preds).sum().item(), 5))
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        out = model(xs)
        loss = (out[:, :1] - ys[:, :1]).pow(2).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
    print(type(model).__name__, "trained", round(loss.item(), 5),
          [round(p.detach().sum().item(), 5) for p in model.parameters()])
