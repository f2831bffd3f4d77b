# corpus: runnable
# Red team 61 (blind): quantisation-aware fine-tuning written by hand. Weights and activations go through a
# fake-quantiser `round(x / s) * s` clamped to the int8 grid, with a straight-through estimator
# (`x + (q - x).detach()`). Activations are quantised BEFORE the non-linearity, so exact zeros and grid values
# are common; the non-linearities are hand-written (a hard-swish and a ReLU spelled with clamp / where) and the
# distillation target from the float model is a hand-written softmax with temperature. Scales are re-estimated
# from the weights every 10 steps in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6103)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, H, C = 480, 12, 40, 4
centers = torch.randn(C, D) * 1.3
labels = torch.randint(0, C, (N,))
inputs = centers[labels] + torch.randn(N, D)
inputs, labels = inputs.to(device), labels.to(device)


def fake_quant(x, s, qmin=-128, qmax=127):
    q = torch.clamp(torch.round(x / s), qmin, qmax) * s
    return x + (q - x).detach()


class QMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(D, H)
        self.l2 = nn.Linear(H, H)
        self.l3 = nn.Linear(H, C)
        self.register_buffer('w_scale', torch.ones(3))
        self.act_scale = 0.05

    def forward(self, x):
        h = F.linear(x, fake_quant(self.l1.weight, self.w_scale[0]), self.l1.bias)
        h = fake_quant(h, self.act_scale)
        h = h * torch.clamp(h + 3, 0, 6) / 6
        h = F.linear(h, fake_quant(self.l2.weight, self.w_scale[1]), self.l2.bias)
        h = fake_quant(h, self.act_scale)
        h = torch.where(h > 0, h, 0.0)
        h = torch.max(h, torch.zeros_like(h))
        return F.linear(h, fake_quant(self.l3.weight, self.w_scale[2]), self.l3.bias)


float_net = nn.Sequential(nn.Linear(D, H), nn.Hardswish(), nn.Linear(H, H), nn.ReLU(), nn.Linear(H, C)).to(device)
opt_f = torch.optim.Adam(float_net.parameters(), lr=5e-3)
for step in range(100):
    idx = torch.randint(0, N, (64,))
    loss = F.cross_entropy(float_net(inputs[idx]), labels[idx])
    opt_f.zero_grad()
    loss.backward()
    opt_f.step()
float_net.eval()

qnet = QMLP().to(device)
with torch.no_grad():
    for dst, src in zip((qnet.l1, qnet.l2, qnet.l3), (float_net[0], float_net[2], float_net[4])):
        dst.weight.copy_(src.weight)
        dst.bias.copy_(src.bias)


def refresh_scales(net):
    with torch.no_grad():
        for i, layer in enumerate((net.l1, net.l2, net.l3)):
            net.w_scale[i] = layer.weight.abs().max() / 127


T = 2.5
opt = torch.optim.SGD(qnet.parameters(), lr=0.02, momentum=0.9)
log = []
for step in range(80):
    if step % 10 == 0:
        refresh_scales(qnet)
    idx = torch.randint(0, N, (48,))
    xb, yb = inputs[idx], labels[idx]
    with torch.no_grad():
        z = float_net(xb) / T
        soft = torch.exp(z - z.max(-1, keepdim=True).values)
        soft = soft / soft.sum(-1, keepdim=True)
    logits = qnet(xb)
    logp = logits / T - torch.logsumexp(logits / T, -1, keepdim=True)
    kd = -(soft * logp).sum(-1).mean() * T * T
    loss = 0.5 * kd + 0.5 * F.cross_entropy(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(loss.item())

with torch.no_grad():
    qnet.eval()
    acc = (qnet(inputs).argmax(1) == labels).float().mean().item()
    codes = torch.round(qnet.l2.weight / qnet.w_scale[1]).clamp(-128, 127)
print('loss', round(sum(log[-10:]) / 10, 6), 'acc', round(acc, 4))
print('checksum', int(codes.abs().sum().item()), round(sum(p.double().sum().item() for p in qnet.parameters()), 6))
