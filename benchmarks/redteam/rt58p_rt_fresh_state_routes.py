# corpus: runnable
# Red team 58 probe (not blind): inside a training step, tensors built fresh each step and then written by routes
# that are not a method call on their own name: a Parameter made from them and stepped by a second optimizer, an
# entry of a dict literal updated in place (an EMA centre), a tensor whose .grad accumulates, a buffer stored on
# a plain object and written by its method, torch.add(..., out=), torch._foreach_mul_ over a list, and a row
# of a tensor unpacked into names. None may be hoisted out of the step.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(5822)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
x = torch.randn(16, 4, device=device)
y = torch.randn(16, device=device)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
out = []


class Q:
    def push(self, k):
        self.buf[self.i] = k
        self.i += 1


q = Q()
for step in range(6):
    loss = F.mse_loss(model(x).squeeze(-1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    init = torch.zeros(4, device=device)
    w = nn.Parameter(init)
    o2 = torch.optim.SGD([w], lr=0.1)
    l2 = ((x @ w - 1.0) ** 2).mean()
    o2.zero_grad()
    l2.backward()
    o2.step()
    state = {'center': torch.zeros(4, device=device)}
    state['center'].mul_(0.9).add_(x[step], alpha=0.1)
    v = torch.zeros(4, device=device, requires_grad=True)
    (x @ v).sum().backward()
    q.buf = torch.zeros(8, 4, device=device)
    q.i = 0
    q.push(x[step])
    acc = torch.zeros(4, 4, device=device)
    torch.add(acc, x[step:step + 4], out=acc)
    m = torch.ones(4, device=device)
    torch._foreach_mul_([m], 0.5)
    pair = torch.zeros(2, 4, device=device)
    first, second = pair
    first.add_(1.0)
    out.append([round(w.sum().item(), 5), round(state['center'].sum().item(), 5), round(v.grad.sum().item(), 5),
                round(q.buf.abs().sum().item(), 5), round(acc.sum().item(), 5), m.sum().item(), pair.sum().item()])
print("checksum", out)
