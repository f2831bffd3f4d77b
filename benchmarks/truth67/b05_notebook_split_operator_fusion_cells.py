import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X, Y = torch.randn(24, 128, 256), torch.randn(24, 128, 256)
# %%
def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
# %%
class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.up, self.down = nn.Linear(d, h), nn.Linear(h, d)

    def forward(self, x):
        return x + self.down(gelu_tanh(self.up(x)))

model = Block(256, 1024)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
# %%
def train_step(xb, yb):
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss
# %%
for epoch in range(2):
    for i in range(len(X)):
        loss = train_step(X[i], Y[i])
    print(epoch, loss.item())
