import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
train = TensorDataset(torch.randn(4096, 20), torch.randint(0, 3, (4096,)))
val = TensorDataset(torch.randn(1024, 20), torch.randint(0, 3, (1024,)))
train_loader = DataLoader(train, batch_size=128, shuffle=True)
val_loader = DataLoader(val, batch_size=512)
# %%
model = nn.Sequential(nn.Linear(20, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, 3))
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=3 * len(train_loader))
# %%
def train_one_epoch():
    model.train()
    total = torch.zeros(())
    for xb, yb in train_loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += loss.detach()
    return total / len(train_loader)
# %%
@torch.no_grad()
def evaluate():
    model.eval()
    correct = torch.zeros((), dtype=torch.long)
    for xb, yb in val_loader:
        correct += (model(xb).argmax(1) == yb).sum()
    return correct.item() / len(val)
# %%
for epoch in range(3):
    train_loss = train_one_epoch()
    print(epoch, float(train_loss), evaluate())
