# corpus: runnable
# Red team 52 (blind): hand-written activations and norms inside custom modules: a learnable-slope
# swish, a layer norm over the unbiased std with eps outside the root, an RMS norm kept as a running
# buffer, a sharp distillation softmax (temperature 0.1) followed by a log, and a gate that writes
# its result back into the input buffer it was handed.
import math

import torch
import torch.nn as nn

torch.manual_seed(5205)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class SlopeSwish(nn.Module):
    def __init__(self):
        super().__init__()
        self.beta = nn.Parameter(torch.tensor(1.3))

    def forward(self, x):
        return x * (1 / (1 + torch.exp(-self.beta * x)))


class StdNorm(nn.Module):
    def __init__(self, d, eps=1e-3):
        super().__init__()
        self.eps = eps
        self.gain = nn.Parameter(torch.ones(d))

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        sd = x.std(-1, keepdim=True)
        return self.gain * (x - mu) / (sd + self.eps)


class RunningRMS(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.register_buffer('ms', torch.ones(d))

    def forward(self, x):
        if self.training:
            self.ms.mul_(0.9).add_(0.1 * (x.detach() ** 2).mean(0))
        return x / torch.sqrt(self.ms + 1e-6)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.act = SlopeSwish()
        self.fc2 = nn.Linear(2 * d, d)
        self.norm = StdNorm(d)
        self.rms = RunningRMS(d)

    def forward(self, x):
        h = self.fc2(self.act(self.fc1(self.norm(x))))
        h = 0.5 * h * (1 + torch.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3)))
        return self.rms(x + h)


def sharp_log_probs(logits, temperature):
    p = torch.exp(logits / temperature) / torch.exp(logits / temperature).sum(-1, keepdim=True)
    return torch.log(p + 1e-12)


def gate_into(buf, z):
    g = 1 / (1 + torch.exp(-z))
    buf.mul_(g)
    return buf


teacher = nn.Sequential(nn.Linear(6, 6), Block(6), nn.Linear(6, 4)).to(device)
student = nn.Sequential(nn.Linear(6, 6), Block(6), nn.Linear(6, 4)).to(device)
X = torch.randn(64, 6, device=device)
opt = torch.optim.Adam(student.parameters(), lr=0.01)
hist = []
for step in range(30):
    xb = X[(step * 8) % 64:(step * 8) % 64 + 8]
    with torch.no_grad():
        t = sharp_log_probs(teacher(xb), 0.1).exp()
    s = sharp_log_probs(student(xb), 1.0)
    loss = -(t * s).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())

state = torch.ones(4, 6, device=device)
for k in range(3):
    gate_into(state, torch.randn(4, 6, device=device))
print('loss', [round(v, 4) for v in hist[::6]])
print('state', round(state.sum().item(), 5), 'rms', round(student[1].rms.ms.sum().item(), 5))
print('checksum', round(sum(hist) + state.sum().item() + student[1].act.beta.item(), 5))
