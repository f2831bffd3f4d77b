# corpus: runnable
"""A conv net whose activations and normalisation are spelled out by hand."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)  # paef: expect operator-fusion


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 4, 3, padding=1), nn.Conv2d(4, 4, 3, padding=1)
        self.act = Swish()
        self.fc = nn.Linear(64, 3)

    def forward(self, x):
        x = self.act(self.conv1(x))
        x = torch.max(self.conv2(x), torch.zeros_like(x))  # paef: expect-fix operator-fusion
        logits = self.fc(x.flatten(1))
        return logits - torch.log(torch.exp(logits).sum(1, keepdim=True))  # paef: expect operator-fusion


model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(32, 1, 4, 4, device=device), torch.randint(0, 3, (32,), device=device)
for _ in range(20):
    loss = nn.functional.nll_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
