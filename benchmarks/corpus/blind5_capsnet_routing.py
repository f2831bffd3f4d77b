# corpus: runnable
"""A small capsule network with dynamic routing-by-agreement (three routing iterations in the
forward pass), squash non-linearity, margin loss, on 4-class synthetic patterns; test accuracy
is computed after training from the capsule lengths."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_CLASSES = 4


def squash(s, dim=-1):
    n2 = (s**2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)


class CapsNet(nn.Module):
    def __init__(self, in_caps=16, in_dim=8, out_dim=8, iters=3):
        super().__init__()
        self.iters, self.in_caps, self.in_dim = iters, in_caps, in_dim
        self.primary = nn.Linear(32, in_caps * in_dim)
        self.W = nn.Parameter(0.1 * torch.randn(1, in_caps, N_CLASSES, out_dim, in_dim))

    def forward(self, x):
        u = squash(self.primary(x).view(-1, self.in_caps, self.in_dim))
        u_hat = (self.W @ u[:, :, None, :, None]).squeeze(-1)
        b = torch.zeros(x.shape[0], self.in_caps, N_CLASSES, device=x.device)  # paef: ok redundant-tensor
        for i in range(self.iters):
            c = b.softmax(dim=2)
            v = squash((c[..., None] * u_hat).sum(1))
            if i < self.iters - 1:
                b = b + (u_hat * v[:, None]).sum(-1)
        return v


def margin_loss(v, y):
    lengths = v.norm(dim=-1)
    t = F.one_hot(y, N_CLASSES).float()
    return (t * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - t) * F.relu(lengths - 0.1) ** 2).sum(1).mean()


protos = torch.randn(N_CLASSES, 32)
y_all = torch.randint(0, N_CLASSES, (512,))
x_all = protos[y_all] + 0.8 * torch.randn(512, 32)
train_loader = DataLoader(TensorDataset(x_all[:384], y_all[:384]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(x_all[384:], y_all[384:]), batch_size=64)  # paef: ok pageable-transfer
model = CapsNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    model.train()
    total = torch.zeros((), device=device)
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        loss = margin_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    print(f"epoch {epoch} margin loss {total.item() / len(train_loader):.4f}")

model.eval()
correct = 0
for x, y in test_loader:  # paef: expect-fix eval-without-no-grad
    x, y = x.to(device), y.to(device)
    pred = model(x).norm(dim=-1).argmax(1)
    correct += (pred == y).sum().item()  # paef: ok host-sync
print(f"test accuracy {correct / 128:.3f}")
