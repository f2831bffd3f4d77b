# corpus: runnable
# Red team 21: a model of a local module registers a forward hook on its own hidden layer in
# `__init__`; the hook counts activations that carry a graph. main.py registers no hook.
import torch
import torch.nn.functional as F

from model import Watched

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = Watched().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(4)]
for x, y in data:
    loss = F.cross_entropy(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()

model.eval()
correct = 0
for x, y in data:
    correct += int((model(x.to(device)).argmax(1) == y.to(device)).sum())
print("eval", correct, "activations with a graph", model.with_graph)
