import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X_train, Y_train = torch.randn(8, 128, 32), torch.randint(0, 5, (8, 128))
X_test, Y_test = torch.randn(400, 64, 32), torch.randint(0, 5, (400, 64))
# %%
blocks = []
for _ in range(10):
    blocks += [nn.Linear(32, 32), nn.LayerNorm(32), nn.GELU()]
model = nn.Sequential(*blocks, nn.Linear(32, 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for i in range(len(X_train)):
    loss = F.cross_entropy(model(X_train[i]), Y_train[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
# %%
model.eval()
correct = 0
with torch.no_grad():
    for i in range(len(X_test)):
        preds = model(X_test[i]).argmax(dim=1)
        correct += int((preds == Y_test[i]).sum())
print("test accuracy", correct / (len(X_test) * 64))
