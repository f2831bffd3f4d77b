# corpus: runnable
# Red team 59 (blind): a small MLP-mixer-like regressor trained under autocast (bfloat16 on the CPU, float16 with
# a GradScaler where CUDA runs). Its normalisation and activation are written by hand (a layer norm from mean and
# var, a tanh GELU) INSIDE the autocast region, and one activation is a custom autograd.Function whose backward is
# written by hand (the tanh-GELU derivative, which contains the GELU formula itself). The scaler's scale is read
# with .item() for the log; per-step losses are kept as tensors and stacked.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5905)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
amp_dtype = torch.float16 if device == 'cuda' else torch.bfloat16

K = math.sqrt(2.0 / math.pi)


class TanhGelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * x * (1.0 + torch.tanh(K * (x + 0.044715 * x ** 3)))

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        inner = K * (x + 0.044715 * x ** 3)
        t = torch.tanh(inner)
        gelu_over_x = 0.5 * (1.0 + t)
        d_inner = K * (1.0 + 3 * 0.044715 * x ** 2)
        return grad_out * (gelu_over_x + 0.5 * x * (1.0 - t * t) * d_inner)


def layer_norm(h, weight, bias, eps=1e-5):
    mu = h.mean(-1, keepdim=True)
    var = ((h - mu) ** 2).mean(-1, keepdim=True)
    return (h - mu) / torch.sqrt(var + eps) * weight + bias


class MixerBlock(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w = nn.Parameter(torch.ones(d))
        self.b = nn.Parameter(torch.zeros(d))
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, h):
        z = layer_norm(h, self.w, self.b)
        a = self.fc1(z)
        a = 0.5 * a * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * torch.pow(a, 3))))
        return h + self.fc2(TanhGelu.apply(a) * 0.5 + a * 0.5)


class Regressor(nn.Module):
    def __init__(self, d_in, d=32):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.blocks = nn.Sequential(MixerBlock(d, 64), MixerBlock(d, 64))
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        return self.out(self.blocks(self.inp(x)))


N, D_IN = 512, 8
X = torch.rand(N, D_IN) * 4 - 2
Yt = (torch.sin(X[:, :1] * 2) + X[:, 1:2] * X[:, 2:3]).float()
X, Yt = X.to(device), Yt.to(device)

model = Regressor(D_IN).to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
scaler = torch.amp.GradScaler('cuda', enabled=(device == 'cuda'))

losses = []
scales = []
for epoch in range(8):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 64):
        idx = perm[i:i + 64]
        with torch.autocast(device_type=device, dtype=amp_dtype):
            pred = model(X[idx])
            loss = F.mse_loss(pred.float(), Yt[idx])
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    scales.append(scaler.get_scale() if scaler.is_enabled() else 1.0)

with torch.no_grad(), torch.autocast(device_type=device, dtype=amp_dtype):
    test_pred = model(X)
print("dtype", test_pred.dtype == amp_dtype)
print("loss", round(torch.stack(losses)[-8:].mean().item(), 4))
print("scales", scales[-1] > 0)
print("test mse", round(F.mse_loss(test_pred.float(), Yt).item(), 4))
print("checksum", round(sum(p.detach().double().abs().sum().item() for p in model.parameters()), 3))
