# corpus: runnable
# Loop-invariant tensors built inside an autocast region in the loop body (a projection computed
# with a matmul, an `F.linear` of constants, a positional table scaled by a float): autocast gives
# them bfloat16; built before the loop, outside the region, they would stay float32. Hand-written
# activations (`x * torch.sigmoid(x)`, the tanh GELU, a hand softmax) on bfloat16 activations.
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
amp_device = "cuda" if device == "cuda" else "cpu"

base = torch.randn(8, 8)
proj_w = torch.randn(16, 8)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 16)

    def forward(self, x):
        h = self.fc1(x)
        h = h * torch.sigmoid(h)
        g = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3))))
        out = self.fc2(g)
        e = torch.exp(out - out.max(dim=-1, keepdim=True).values)
        return e / e.sum(dim=-1, keepdim=True)


model = Block().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [torch.randn(4, 16) for _ in range(6)]

for step, x in enumerate(data):
    x = x.to(device)
    with torch.autocast(device_type=amp_device, dtype=torch.bfloat16):
        mix = torch.matmul(base, base.T)
        lin = F.linear(torch.ones(4, 8), proj_w)
        table = torch.arange(16, dtype=torch.float32) * 0.5
        out = model(x)
        loss = out.float().pow(2).mean() + mix.float().mean() * 0 + lin.float().sum() * 0
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, mix.dtype, lin.dtype, table.dtype, out.dtype, round(loss.item(), 6))
    print("  ", out[0, :4].tolist())

with torch.no_grad():
    with torch.autocast(device_type=amp_device, dtype=torch.bfloat16):
        for x in data[:2]:
            scale = torch.mm(torch.eye(16), proj_w)
            y = model(x.to(device)) @ scale
            print("eval", scale.dtype, y.dtype, y.sum().item())
