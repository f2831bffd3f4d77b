# corpus: runnable
# Red team 52 (blind): a normaliser module that keeps running statistics in its own buffers (mean,
# var, a count, a float64 sum of the loss it has seen) and a loop that logs them. The forward edits
# the buffers in place, so a value read "now" and the same buffer read later are not the same.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5203)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class RunningNorm(nn.Module):
    def __init__(self, d, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer('mean', torch.zeros(d))
        self.register_buffer('var', torch.ones(d))
        self.register_buffer('count', torch.zeros((), dtype=torch.long))
        self.register_buffer('loss_sum', torch.zeros((), dtype=torch.float64))

    def forward(self, x):
        if self.training:
            self.mean.mul_(1 - self.momentum).add_(self.momentum * x.detach().mean(0))
            self.var.mul_(1 - self.momentum).add_(self.momentum * x.detach().var(0))
            self.count += x.shape[0]
        return (x - self.mean) / (self.var + 1e-5).sqrt()

    def observe(self, loss):
        self.loss_sum += loss.detach().double()
        return self.loss_sum


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = RunningNorm(5)
        self.fc = nn.Linear(5, 1)

    def forward(self, x):
        return self.fc(self.norm(x)).squeeze(1)


X = torch.randn(96, 5, device=device) * 3 + 1
Y = X @ torch.tensor([0.5, -1.0, 0.2, 0.0, 1.0], device=device)
net = Net().to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)

seen_at_epoch, mean_trace, running = [], [], []
total = 0.0
for epoch in range(4):
    epoch_loss = 0.0
    for i in range(0, 96, 24):
        loss = F.mse_loss(net(X[i:i + 24]), Y[i:i + 24])
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
        acc = net.norm.observe(loss)
        running.append(acc.item())
        mean_trace.append(net.norm.mean[0].item())
    seen_at_epoch.append(net.norm.count.item())
    total += net.norm.loss_sum.item()
    print(f'epoch {epoch} loss {epoch_loss:.4f} seen {seen_at_epoch[-1]}')

trace = torch.tensor(mean_trace)
counts = torch.tensor(seen_at_epoch)
runs = torch.tensor(running)
print('trace', [round(v, 4) for v in trace.tolist()[::4]])
print('counts', counts.tolist(), counts.dtype)
print('running', runs.dtype, round(runs[-1].item(), 4))
print('checksum', round(total + trace.sum().item() + counts.sum().item() + runs.sum().item(), 4))
