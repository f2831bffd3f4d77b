# corpus: runnable
# Red team 36 (blind): a ReZero residual MLP (Bachlechner et al.): every block's residual weight starts at
# exactly 0. The weights are kept non-negative with a clamp / a `>=` mask, and a zero-initialised projection's
# output is rectified with torch.max against zeros before it joins the stream.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
torch.set_num_threads(1)


class ReZeroBlock(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.alpha = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        h = self.fc2(torch.tanh(self.fc1(x)))
        a = torch.where(self.alpha >= 0, self.alpha, 0)
        return x + a * h


class Net(nn.Module):
    def __init__(self, d: int = 12, depth: int = 3):
        super().__init__()
        self.inp = nn.Linear(6, d)
        self.blocks = nn.ModuleList(ReZeroBlock(d) for _ in range(depth))
        self.proj = nn.Linear(d, d, bias=False)
        nn.init.zeros_(self.proj.weight)
        self.out = nn.Linear(d, 1)
        self.scale = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h)
        p = self.proj(h)
        p = torch.max(p, torch.zeros_like(p))
        s = self.scale.clamp(min=0)
        return self.out(h + p) * (1.0 + s)


X = torch.randn(200, 6)
y = (X[:, :1] * 2 - X[:, 1:2] ** 2 + 0.1 * torch.randn(200, 1))
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.05)
for step in range(60):
    pred = net(X)
    loss = F.mse_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        alphas = [round(b.alpha.item(), 8) for b in net.blocks]
        print(f"step {step} loss {loss.item():.10f} alphas {alphas} scale {net.scale.item():.8f} |proj| {net.proj.weight.norm().item():.8f}")
