# corpus: runnable
"""An MLP block that already uses the fused ops (F.gelu, F.layer_norm, F.softmax, F.normalize)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.weight, self.bias = nn.Parameter(torch.ones(d)), nn.Parameter(torch.zeros(d))

    def forward(self, x):
        h = F.layer_norm(x, x.shape[-1:], self.weight, self.bias, eps=1e-5)
        h = self.fc2(F.gelu(self.fc1(h), approximate="tanh"))
        return x + h


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(16), Block(16))
        self.head = nn.Linear(16, 4)
        self.temperature = 0.5

    def forward(self, x):
        z = F.normalize(self.blocks(x), dim=-1)
        return F.log_softmax(self.head(z) / self.temperature, dim=-1)


model = Model().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(64, 16, device=device)
y = torch.randint(0, 4, (64,), device=device)
for _ in range(30):
    loss = F.nll_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
