"""Classifier whose training loop is clean and takes most of the wall time; the evaluation after
each epoch counts correct predictions sample by sample in Python."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X, Y = torch.randn(30, 128, 64), torch.randint(0, 5, (30, 128))
Xv, Yv = torch.randn(2000, 64), torch.randint(0, 5, (2000,))
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 5))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(3):
    model.train()
    for i in range(len(X)):
        loss = F.cross_entropy(model(X[i]), Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(Xv).argmax(dim=1)
    correct = int((pred == Yv).sum())
    print(epoch, correct / len(Yv))
