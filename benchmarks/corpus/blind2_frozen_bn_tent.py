# corpus: runnable
"""Fine-tuning with BatchNorm frozen (model.eval() while training) and TENT-style test-time adaptation inside `evaluate`."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X = torch.randn(320, 12)
Y = (X[:, :3].sum(1) > 0).long()
X_shift = X[256:] * 1.5 + 0.3
src_loader = DataLoader(TensorDataset(X[:256], Y[:256]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
tgt_loader = DataLoader(TensorDataset(X_shift, Y[256:]), batch_size=32)  # paef: ok pageable-transfer

model = nn.Sequential(nn.Linear(12, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    model.train()
    for x, y in src_loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def finetune_frozen_bn(model, loader, epochs=2):
    head_opt = torch.optim.SGD(model[3].parameters(), lr=0.05)
    model.eval()
    for _ in range(epochs):
        for x, y in loader:  # paef: refuse eval-without-no-grad
            out = model(x.to(device))
            loss = F.cross_entropy(out, y.to(device))
            head_opt.zero_grad()
            loss.backward()
            head_opt.step()


def entropy_step(model, x, optimizer):
    out = model(x)
    ent = -(out.softmax(1) * out.log_softmax(1)).sum(1).mean()
    optimizer.zero_grad()
    ent.backward()
    optimizer.step()
    return out


def evaluate(model, loader, adapt=False):
    model.eval()
    bn_params = [p for m in model.modules() if isinstance(m, nn.BatchNorm1d) for p in m.parameters()]
    tent_opt = torch.optim.SGD(bn_params, lr=1e-3)
    correct = 0
    for x, y in loader:  # paef: refuse eval-without-no-grad
        x, y = x.to(device), y.to(device)
        out = entropy_step(model, x, tent_opt) if adapt else model(x)
        correct += (out.argmax(1) == y).sum().item()  # paef: ok host-sync
    return correct / len(loader.dataset)


finetune_frozen_bn(model, src_loader)
print(f"target acc {evaluate(model, tgt_loader):.4f}")
print(f"target acc with tent {evaluate(model, tgt_loader, adapt=True):.4f}")
