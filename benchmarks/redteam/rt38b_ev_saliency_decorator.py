# corpus: runnable
# Red team 38, wave 2 (blind): validation that also reports input saliency. The forward used in validation
# is wrapped by a decorator of the program's own that makes the input require grad and takes the gradient
# of the output with respect to it (as attribution scripts do); the decorated function itself only calls
# the model.
import functools

import torch
import torch.nn as nn

torch.manual_seed(23)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def with_saliency(fn):
    @functools.wraps(fn)
    def wrapped(model, x, *args):
        x = x.detach().clone().requires_grad_(True)
        out = fn(model, x, *args)
        (g,) = torch.autograd.grad(out.sum(), x)
        return out, g.abs().mean(1)
    return wrapped


@with_saliency
def forward_eval(model, x):
    return model(x)


model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(40, 6, device=device)
Y = (X[:, 0] > 0).long()
for epoch in range(3):
    loss = nn.functional.cross_entropy(model(X[:30]), Y[:30])
    opt.zero_grad()
    loss.backward()
    opt.step()
    correct = 0
    sal = 0.0
    for b in range(30, 40, 5):
        out, s = forward_eval(model, X[b : b + 5])
        correct += (out.argmax(1) == Y[b : b + 5]).sum().item()
        sal += s.sum().item()
    print(epoch, f"{loss.item():.12f}", correct, f"{sal:.12f}")
