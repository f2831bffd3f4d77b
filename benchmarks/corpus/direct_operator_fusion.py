# corpus: runnable
"""A hand-written transformer MLP: GELU, layer norm and softmax spelled out element-wise."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))  # paef: expect operator-fusion


class LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.g, self.b, self.eps = nn.Parameter(torch.ones(d)), nn.Parameter(torch.zeros(d)), eps

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = (x - mu).pow(2).mean(-1, keepdim=True)
        return self.g * (x - mu) / torch.sqrt(var + self.eps) + self.b  # paef: expect operator-fusion


class MLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln, self.fc1, self.fc2 = LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.fc2(gelu(self.fc1(self.ln(x))))


model = nn.Sequential(MLP(16), MLP(16), nn.Linear(16, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
x, y = torch.randn(64, 16, device=device), torch.randint(0, 3, (64,), device=device)
for _ in range(25):
    logits = model(x)
    probs = torch.exp(logits) / torch.exp(logits).sum(-1, keepdim=True)  # paef: expect operator-fusion
    loss = F.nll_loss(torch.log(probs), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
