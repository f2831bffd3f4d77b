"""Fixed: metrics stay tensors; gradient norms every 20 steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import batch_accuracy, grad_norms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
layers = []
for _ in range(16):
    layers += [nn.Linear(32, 32), nn.ReLU()]
model = nn.Sequential(*layers, nn.Linear(32, 10)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
X = torch.randn(60, 64, 32, device=device)
Y = torch.randint(0, 10, (60, 64), device=device)
history = {"acc": [], "grad_norms": []}
for epoch in range(3):
    for i in range(len(X)):
        logits = model(X[i])
        loss = F.cross_entropy(logits, Y[i])
        opt.zero_grad()
        loss.backward()
        if i % 20 == 0:
            history["grad_norms"].append(grad_norms(model))
        opt.step()
        history["acc"].append(batch_accuracy(logits, Y[i]).detach())
print(f"last accuracy {history['acc'][-1].item():.3f}")
