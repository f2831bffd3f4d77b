# corpus: runnable
"""Iterative magnitude pruning: prune at epoch 1, make it permanent at epoch 3; every epoch a
report loop snapshots the layer's weight and counts zeros."""
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

fc = nn.Linear(6, 6).to(device)
out_layer = nn.Linear(6, 2).to(device)
opt = torch.optim.SGD(list(fc.parameters()) + list(out_layer.parameters()), lr=0.1)
x = torch.randn(24, 6)
y = torch.randint(0, 2, (24,))
loss_fn = nn.CrossEntropyLoss()

for epoch in range(4):
    if epoch == 1:
        prune.l1_unstructured(fc, "weight", amount=0.4)
    if epoch == 3:
        prune.remove(fc, "weight")
    for step in range(3):
        xb = x[step * 8:(step + 1) * 8].to(device)
        yb = y[step * 8:(step + 1) * 8].to(device)
        loss = loss_fn(out_layer(torch.relu(fc(xb))), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    zeros = []
    for r in range(2):
        snap = torch.tensor(fc.weight.detach().cpu().tolist()).to(device)
        zeros.append(int((snap == 0).sum().item()))
    names = sorted(n for n, _ in fc.named_buffers())
    print(f"epoch {epoch} loss {loss.item():.10f} zeros {zeros} buffers {names} is_param {isinstance(fc.weight, nn.Parameter)}")
    print("  w row0", [f"{v:.10f}" for v in fc.weight[0].detach().cpu().tolist()])
