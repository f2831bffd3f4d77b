# corpus: runnable
# Red team 44 probe (after first contact, not blind): the model registers a test-time-adaptation forward
# hook on itself in __init__ (models.py); the evaluation loop here looks like plain inference.
import torch
import torch.nn.functional as F

from models import AdaptiveNet

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5)
X = torch.randn(64, 4, generator=g)
Y = (X[:, 0] > X[:, 1]).long()
model = AdaptiveNet(4, 2, lr=0.05).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    for i in range(0, 40, 8):
        loss = F.cross_entropy(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "%.10f" % loss.item())

model.eval()
correct = 0
for i in range(40, 64, 8):
    x, y = X[i:i + 8].to(device), Y[i:i + 8].to(device)
    logits = model(x)
    correct += (logits.argmax(1) == y).sum()
print("correct", int(correct))
print("ln weight %.10f" % model.body[1].weight.detach().cpu().sum().item())
