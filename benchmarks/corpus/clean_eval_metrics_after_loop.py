# corpus: runnable
"""Evaluation that concatenates scores on the device and computes ROC-AUC with NumPy once."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def roc_auc(scores, labels):
    order = np.argsort(-scores)
    labels = labels[order]
    tp = np.cumsum(labels)
    fp = np.cumsum(1 - labels)
    return float(np.trapezoid(tp / tp[-1], fp / fp[-1]))


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.randn(400, 6, device=device)
y = ((X[:, 0] + 0.5 * torch.randn(400, device=device)) > 0).float()
for epoch in range(3):
    for i in range(0, 300, 50):
        loss = nn.functional.binary_cross_entropy_with_logits(model(X[i : i + 50]).squeeze(1), y[i : i + 50])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        scores = torch.cat([model(X[j : j + 50]).squeeze(1) for j in range(300, 400, 50)])
    model.train()
    auc = roc_auc(scores.cpu().numpy(), y[300:].cpu().numpy())
    print(f"epoch {epoch} auc {auc:.4f}")
