# corpus: runnable
# Probe cwe (session 54): the model's own forward prints an intermediate activation when asked to
# (`verbose=True` on the evaluation pass): its text shows `grad_fn=<...>` only while a graph is recorded.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(5, 8)
        self.head = nn.Linear(8, 2)
        self.verbose = False

    def forward(self, x):
        h = torch.tanh(self.body(x))
        if self.verbose:
            print("hidden[0]", h[0, :3])
        return self.head(h)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.randn(60, 5)
y = (x[:, 0] > 0).long()
model = Scorer().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
for step in range(5):
    loss = F.cross_entropy(model(x[:40].to(device)), y[:40].to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
model.verbose = True
correct = 0
for i in range(40, 60, 10):
    logits = model(x[i:i + 10].to(device))
    correct += (logits.argmax(1) == y[i:i + 10].to(device)).sum().item()
print("acc", correct / 20)
