# corpus: runnable
# Red team 52 probe (not blind): totals of values read from a module's own buffers, which its forward
# edits in place: an int64 sample counter, an int32 step counter, a float64 running sum returned by the
# module itself (the same tensor every call), and a half-precision running max.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5214)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Tracked(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, 1)
        self.register_buffer('seen', torch.zeros((), dtype=torch.long))
        self.register_buffer('steps', torch.zeros((), dtype=torch.int32))
        self.register_buffer('total', torch.zeros((), dtype=torch.float64))
        self.register_buffer('peak', torch.zeros((), dtype=torch.float16))

    def forward(self, x):
        self.seen += x.shape[0]
        self.steps += 1
        out = self.fc(x).squeeze(1)
        self.peak.copy_(torch.maximum(self.peak, out.detach().abs().max().half()))
        return out

    def add(self, loss):
        self.total += loss.detach().double()
        return self.total


X = torch.randn(40, 3, device=device)
Y = X.sum(1)
model = Tracked(3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
seen_sum, step_sum, run_sum, peak_sum, loss_sum = 0, 0, 0.0, 0.0, 0.0
for epoch in range(3):
    for i in range(0, 40, 10):
        loss = F.mse_loss(model(X[i:i + 10]), Y[i:i + 10])
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen_sum += model.seen.item()
        step_sum += model.steps.item()
        run_sum += model.add(loss).item()
        peak_sum += model.peak.item()
        loss_sum += loss.item()
print('sums', seen_sum, step_sum, round(run_sum, 6), round(peak_sum, 4), round(loss_sum, 6))
print('checksum', round(seen_sum + step_sum + run_sum + peak_sum + loss_sum, 4))
