# corpus: runnable
# Red team 52 probe (not blind): constants built in the loop and handed to a local module's code that
# edits them in place (blocks.py): a gate the forward decays, a loss scale a warm-up helper shrinks.
import torch
import torch.nn.functional as F

from blocks import GatedStack, warm

torch.manual_seed(5213)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(48, 6, device=device)
Y = (X[:, 0] > 0).long()
model = GatedStack(6).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
hist = []
for step in range(6):
    gate = torch.tensor(1.0, device=device)
    scale = torch.tensor([1.0], device=device)
    xb, yb = X[step * 8:(step + 1) * 8], Y[step * 8:(step + 1) * 8]
    loss = F.cross_entropy(model(xb, gate), yb) * warm(scale, step)
    opt.zero_grad()
    loss.sum().backward()
    opt.step()
    hist.append((round(gate.item(), 4), round(scale.item(), 4), round(loss.item(), 4)))
print('hist', hist)
print('checksum', round(sum(a + b + c for a, b, c in hist), 4))
