# corpus: runnable
"""The loss comes from a helper and is backward'ed by the caller; losses stacked after the loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def compute_loss(model, inputs, targets, label_smoothing=0.1):
    logits = model(inputs)
    return F.cross_entropy(logits, targets, label_smoothing=label_smoothing)


model = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 5)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
inputs = torch.randn(160, 20, device=device)
targets = torch.randint(0, 5, (160,), device=device)

history = []
for epoch in range(4):
    step_losses = []
    for i in range(0, 160, 32):
        loss = compute_loss(model, inputs[i : i + 32], targets[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step_losses.append(loss.detach())
    history.append(torch.stack(step_losses).mean())
print("epoch losses", [round(v, 4) for v in torch.stack(history).tolist()])
