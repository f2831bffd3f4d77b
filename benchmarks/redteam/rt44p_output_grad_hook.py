# corpus: runnable
# Red team 44 probe (after first contact, not blind): a forward hook written for training attaches a
# gradient hook to the block's output on every call, without checking that the output needs a gradient.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

grad_log = []


def watch(module, inputs, output):
    output.register_hook(lambda grad: grad_log.append(round(grad.abs().mean().item(), 8)))


g = torch.Generator().manual_seed(5)
X = torch.randn(48, 4, generator=g)
Y = (X[:, 0] > X[:, 1]).long()
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).to(device)
model[0].register_forward_hook(watch)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for i in range(0, 32, 8):
        loss = F.cross_entropy(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "%.10f" % loss.item())

model.eval()
preds = []
for i in range(32, 48, 8):
    logits = model(X[i:i + 8].to(device))
    preds.append(logits.argmax(1))
print("preds", torch.cat(preds).tolist(), "grads logged", len(grad_log))
