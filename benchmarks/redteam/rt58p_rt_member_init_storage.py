# corpus: runnable
# Red team 58 probe (not blind): an ensemble whose members are built in a loop from fixed initial tensors that the
# members then OWN: nn.Parameter(w0) shares w0's storage, register_buffer keeps c0 itself (and the forward updates it in
# place), and `lin.weight.data = torch.full(...)` makes the weight that tensor. Hoisting any of these factories out of
# the member loop would make every member train the same storage. A read-only identity matrix beside them is the near
# miss that may be hoisted.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(5821)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
D = 4
x = torch.randn(32, D, device=device)
y = torch.randn(32, device=device)


class Member(nn.Module):
    def __init__(self, w0):
        super().__init__()
        self.w = nn.Parameter(w0)

    def forward(self, x):
        return x @ self.w


class Centered(nn.Module):
    def __init__(self, c0):
        super().__init__()
        self.lin = nn.Linear(D, 1)
        self.register_buffer('center', c0)

    def forward(self, x):
        if self.training:
            self.center.mul_(0.9).add_(x.mean(0), alpha=0.1)
        return self.lin(x - self.center).squeeze(-1)


members, centered, lins = [], [], []
for k in range(3):
    eye = torch.eye(D, device=device)
    m = Member(torch.zeros(D, device=device)).to(device)
    c = Centered(torch.zeros(D, device=device)).to(device)
    lin = nn.Linear(D, 1).to(device)
    lin.weight.data = torch.full((1, D), 0.1, device=device)
    opt = torch.optim.SGD(list(m.parameters()) + list(c.parameters()) + list(lin.parameters()), lr=0.1)
    for step in range(5 + k):
        xb = x @ eye + 0.1 * k
        loss = F.mse_loss(m(xb), y) + F.mse_loss(c(xb), y) + F.mse_loss(lin(xb).squeeze(-1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    members.append(m)
    centered.append(c)
    lins.append(lin)
print("checksum", [round(m.w.sum().item(), 6) for m in members], [round(c.center.sum().item(), 6) for c in centered],
      [round(l.weight.sum().item(), 6) for l in lins])
