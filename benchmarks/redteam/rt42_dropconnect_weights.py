# corpus: runnable
"""AWD-LSTM-style DropConnect written as a parametrization: every read of `layer.weight` in
training mode draws a fresh mask. A warm-up loop builds per-step references shaped by the weight
and draws noise; then a short training loop."""
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class DropConnect(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, w):
        if not self.training:
            return w
        mask = (torch.rand_like(w) > self.p).to(w.dtype)
        return w * mask / (1 - self.p)


enc = nn.Linear(5, 4).to(device)
parametrize.register_parametrization(enc, "weight", DropConnect(0.3))
head = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(list(enc.parameters()) + list(head.parameters()), lr=0.1)

drift = []
for k in range(3):
    ref = torch.zeros_like(enc.weight)
    ref_host = torch.ones(enc.weight.shape).to(device)
    noise = torch.randn(4)
    drift.append((ref.sum() + ref_host.sum()).item() + noise.sum().item())
print("drift", [f"{d:.10f}" for d in drift])

x = torch.randn(16, 5)
y = torch.randn(16, 1)
for step in range(4):
    xb = x[step * 4:(step + 1) * 4].to(device)
    yb = y[step * 4:(step + 1) * 4].to(device)
    loss = ((head(torch.tanh(enc(xb))) - yb) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.10f}")
print("rng probe", torch.rand(3).tolist())
