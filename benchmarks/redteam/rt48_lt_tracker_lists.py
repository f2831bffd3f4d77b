# corpus: runnable
# Red team 48 (blind): per-batch metric lists built from `float(...)` and turned into a tensor for a
# summary, while the SAME list objects were handed to a logger (written here) that keeps references and
# serialises them at the end with json and pickle, and to `random.sample` for a spot check.
import json
import pickle
import random

import torch
import torch.nn as nn

random.seed(21)
torch.manual_seed(21)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class MetricLogger:
    def __init__(self):
        self.series = {}

    def attach(self, name, values):
        self.series[name] = values

    def dump(self):
        return json.dumps(self.series, sort_keys=True)


logger = MetricLogger()
model = nn.Linear(7, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.02)
X = torch.randn(80, 7)
Y = X[:, :1] * 2 - X[:, 1:2]

for epoch in range(2):
    batch_losses = []
    grad_norms = []
    logger.attach(f"loss_{epoch}", batch_losses)
    for i in range(0, 80, 10):
        xb, yb = X[i:i + 10].to(device), Y[i:i + 10].to(device)
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        grad_norms.append(float(model.weight.grad.norm()))
        opt.step()
        batch_losses.append(float(loss))
    losses_t = torch.tensor(batch_losses)
    norms_t = torch.tensor(grad_norms)
    print(f"epoch {epoch} mean {losses_t.mean().item():.10f} max norm {norms_t.max().item():.10f}")
    print("spot check", random.sample(grad_norms, 2))

text = logger.dump()
print(text[:200])
print(len(pickle.dumps(logger.series)))
